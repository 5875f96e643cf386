"""What the journal gives back: a journaled input, and a game of the history."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.inputs import Input


@dataclass(frozen=True)
class Entry:
    """One journaled input with its number, game, time and source."""

    seq: int
    game_id: int
    at: float
    source: str
    input: Input


@dataclass(frozen=True)
class PastGame:
    """A game in the history: who played, when, and how it ended (None while unfinished)."""

    id: int
    game: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    outcome: dict[str, Any] | None
