"""8 Gates tables for the tests: a started game, one move, a refusal, a table in play and one at the reveal."""
from __future__ import annotations

from typing import Any

import pytest

from companion.games.eight_gates import GAME, grid
from companion.games.eight_gates.state import PLAYING
from companion.rules.inputs import Move, StartGame
from companion.rules import engine
from companion.rules.errors import CompanionError, IllegalMove
from companion.rules.table import Table

NAMES = ("Ann", "Bo", "Cy", "Di")


def start(players: int = 3) -> Table:
    """A new table before the Archivist is chosen."""
    return engine.start(GAME, StartGame(GAME.id, NAMES[:players], {}, 7))


def act(table: Table, actor: int, move: str, **args: Any) -> Table:
    """The table after one accepted move by the actor's seat."""
    return engine.apply(table, GAME, Move(actor, move, args))


def refused(table: Table, actor: int, move: str, error: type[CompanionError] = IllegalMove, **args: Any) -> str:
    """The refusal's sentence, after checking the table did not change."""
    before = table
    with pytest.raises(error) as caught:
        engine.apply(table, GAME, Move(actor, move, args))
    assert table is before and table == before
    assert caught.value.message.strip()
    return caught.value.message


def opened(players: int = 3, archivist: int = 0, gates: tuple[int, ...] = (1, 3, 5)) -> Table:
    """A table in play: the Archivist chosen by the table and the starting Gates laid."""
    table = act(start(players), 0, "choose_archivist", seat=archivist)
    return act(table, archivist, "starting_gates", values=list(gates))


def play_turn(table: Table, value: int = 6) -> Table:
    """The current player plays a Gate on the first legal cell, then ends the turn."""
    seat = table.state.current
    x, y = grid.legal_cells(table.state.middle)[0]
    table = act(table, seat, "place_gate", x=x, y=y, value=value)
    return act(table, seat, "end_turn")


def to_reveal(players: int) -> Table:
    """A table whose every turn was played, now at the end reveal."""
    table = opened(players)
    while table.state.phase == PLAYING:
        table = play_turn(table)
    return table


def first_cell(table: Table) -> dict[str, int]:
    """The first legal cell of the middle, as move arguments."""
    x, y = grid.legal_cells(table.state.middle)[0]
    return {"x": x, "y": y}
