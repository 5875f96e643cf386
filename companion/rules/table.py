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
class Later:
    """A move made out of turn after a move that can be taken back, with its number: it is made again after
    that move is taken back, so it stands (another player's diary must not go with this player's undo)."""

    seq: int
    seat: int
    move: str
    args: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Taken:
    """A move of the current turn that can be taken back: the seat that made it, the state before it, and the
    moves made out of turn since, which stand when it is taken back."""

    seat: int
    before: Any
    later: tuple[Later, ...] = ()


@dataclass(frozen=True)
class Table:
    """A game in play: which game, who plays, its options and seed, and the game's own state.

    `seq` counts the inputs applied since the game started; `undo` holds each move of the current turn
    made by a seat whose turn it was, with the state before it (rolls are facts and clear it; moves made
    out of turn are facts too, made again when an earlier move is taken back).
    """

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: int
    state: Any
    seq: int = 0
    undo: tuple[Taken, ...] = ()
    last_roll: LastRoll | None = None
