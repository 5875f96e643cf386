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
class Table:
    """A game in play: which game, who plays, its options and seed, and the game's own state.

    `seq` counts the inputs applied since the game started; `undo` holds the states before each
    move of the current turn (rolls are facts and clear it).
    """

    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: int
    state: Any
    seq: int = 0
    undo: tuple[Any, ...] = ()
    last_roll: LastRoll | None = None
