"""The table: one game being played, as a frozen value the engine replaces on every input."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.game import Roll


@dataclass(frozen=True)
class LastRoll:
    """The last roll applied, with the game state just before it, so a misread can be corrected."""

    roll: Roll
    before: Any
    seq: int


@dataclass(frozen=True)
class Taken:
    """A move of the current turn that can be taken back: the seat that made it and the state before it."""

    seat: int
    before: Any


@dataclass(frozen=True)
class Table:
    """A game in play: which game, who plays, its options and seed, and the game's own state.

    `seq` counts the inputs applied since the game started; `undo` holds each move of the current turn
    made by a seat whose turn it was, with the state before it (rolls, and moves made out of turn,
    are facts and clear it: taking back an earlier move would take them back too).
    """

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: int
    state: Any
    seq: int = 0
    undo: tuple[Taken, ...] = ()
    last_roll: LastRoll | None = None
