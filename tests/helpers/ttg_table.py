"""Through The Gate tables for the tests: a new game, rolls, one move, a started game, one at scoring."""
from __future__ import annotations

from typing import Any

from companion.games import registered_games
from companion.rules.inputs import DiceRolled, Move, StartGame
from companion.rules import engine
from companion.rules.table import Table

GAME = registered_games()["through-the-gate"]


def new(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **options: Any) -> Table:
    """A new table, before the roll for first player."""
    return engine.start(GAME, StartGame(GAME.id, players, options, 7))


def roll(table: Table, *values: int) -> Table:
    """The table after each value is rolled on one d6, in turn."""
    for value in values:
        table = engine.apply(table, GAME, DiceRolled((value,), (6,)))
    return table


def move(table: Table, name: str, seat: int | None = None, **args: Any) -> Table:
    """The table after one accepted move (by the current player unless a seat is given)."""
    return engine.apply(table, GAME, Move(table.state.current if seat is None else seat, name, args))


def started(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **options: Any) -> Table:
    """A game where Ann (seat 0) rolled highest (or plays alone) and has begun her first turn."""
    table = new(players, **options)
    return table if len(players) == 1 else roll(table, *([6] + [1] * (len(players) - 1)))


def to_scoring(players: tuple[str, ...], **options: Any) -> Table:
    """A game of one hourglass each, played to its scoring phase."""
    table = started(players, hourglasses=1, **options)
    while table.state.phase != "scoring":
        table = move(table, "end_turn")
    return table
