"""The table: one game being played, as a frozen value the engine replaces on every input."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.game import Roll

MAX_UNDO = 20
"""The moves of one turn that can be taken back, the last ones: an older one stands (nobody takes back twenty moves
one by one), so a turn of many moves keeps a bounded history and each move made out of turn is made again at most
this many times."""


@dataclass(frozen=True)
class LastRoll:
    """The last roll applied, with the game state just before it, so a misread can be corrected."""

    roll: Roll
    before: Any
    seq: int


@dataclass(frozen=True)
class Taken:
    """A move of the current turn that can be taken back: the seat that made it and the state taking it back gives,
    the state before it with the moves made out of turn since made again (another player's diary must not go with
    this player's undo). That state is kept up to date as such moves come, so whether the move can be taken back is
    known at once however many came; `held_by` is the seat of a move since that would not stand without it (then
    the move cannot be taken back)."""

    seat: int
    again: Any
    held_by: int | None = None


@dataclass(frozen=True)
class Table:
    """A game in play: which game, who plays, its options and seed, and the game's own state.

    `seq` counts the inputs applied since the game started; `undo` holds the last moves (at most MAX_UNDO) of the
    current turn made by a seat whose turn it was, with the state before each (rolls are facts and clear it; moves
    made out of turn are facts too, made again when an earlier move is taken back).
    """

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: int
    state: Any
    seq: int = 0
    undo: tuple[Taken, ...] = ()
    last_roll: LastRoll | None = None
