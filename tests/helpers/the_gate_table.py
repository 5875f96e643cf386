"""The Gate (게이트) tables for the tests: a new game, moves, a game under way, a changed gate, a refusal's sentence
and the moves a seat may make."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from typing import Any

import pytest

from companion.games.the_gate import GAME
from companion.games.the_gate.gates import with_gate
from companion.rules.inputs import Input, Move, StartGame
from companion.rules.said import korean
from companion.rules import engine
from companion.rules.errors import IllegalMove
from companion.rules.table import Table

HANGUL = re.compile("[가-힣]")


def start(seed: int = 3, **options: Any) -> Table:
    """A new game of The Gate between Ana (seat 0) and Ben (seat 1)."""
    return engine.start(GAME, StartGame(GAME.id, ("Ana", "Ben"), options, seed=seed))


def act(seat: int, move: str, **args: Any) -> Move:
    """A move."""
    return Move(seat, move, args)


def play(table: Table, *inputs: Input) -> Table:
    """The table after the inputs, each accepted."""
    for given in inputs:
        table = engine.apply(table, GAME, given)
    return table


def playing(**options: Any) -> Table:
    """A game where Ana goes first (chosen after rock–paper–scissors)."""
    return play(start(**options), act(0, "choose_first", player=0))


def refused(table: Table, given: Input, error: type[IllegalMove] = IllegalMove) -> str:
    """The refusal's English sentence (it has its Korean twin), after checking the table did not change."""
    before = copy.deepcopy(table)
    with pytest.raises(error) as caught:
        engine.apply(table, GAME, given)
    assert table == before
    english, twin = caught.value.message, korean(caught.value.message)
    assert english.strip() and twin is not None and HANGUL.search(twin), caught.value.message
    return english


def attackers(*values: int) -> list[dict[str, int]]:
    """Attackers with these attack values and no bonus."""
    return [{"attack": value} for value in values]


def gate_of(table: Table, seat: int, number: int) -> Any:
    """A player's gate, 1–4."""
    return table.state.gate(seat, number)


def set_gate(table: Table, seat: int, number: int, **changes: Any) -> Table:
    """The table with one gate changed (to set up a position quickly)."""
    state = with_gate(table.state, seat, number, replace(gate_of(table, seat, number), **changes))
    return replace(table, state=state)


def moves_of(table: Table, seat: int) -> set[str]:
    """The names of the moves a seat may make now."""
    return {entry["move"] for entry in engine.legal_moves(table, GAME) if entry["seat"] == seat}
