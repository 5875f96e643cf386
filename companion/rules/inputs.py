"""What can happen at a table: every input the engine accepts, as plain frozen values.

Standard library only; the rules engine, the journal and every front end share these types.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Union

Source = Literal["button", "camera", "phone", "host", "system"]
SOURCES: tuple[str, ...] = ("button", "camera", "phone", "host", "system")


@dataclass(frozen=True)
class StartGame:
    """Start a new game; the previous one stays in the history."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass(frozen=True)
class Move:
    """A player's action: `move` is one of the game's move names, `args` its arguments."""

    seat: int
    move: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DiceRolled:
    """Dice that landed: one value per die, each with its number of sides and, when known,
    where each value came from ('camera', 'phone', 'button')."""

    values: tuple[int, ...]
    sides: tuple[int, ...]
    origins: tuple[str, ...] = ()
    seat: int | None = None
    """The seat that entered it by hand (None: the camera, a button or the host)."""


@dataclass(frozen=True)
class CorrectDice:
    """A misread roll put right; it replaces the last roll and is logged as a correction."""

    values: tuple[int, ...]
    sides: tuple[int, ...]
    seat: int | None = None


@dataclass(frozen=True)
class Undo:
    """Take back the last move of the current turn (never a roll)."""

    seat: int | None = None


Input = Union[StartGame, Move, DiceRolled, CorrectDice, Undo]

BUTTONS: tuple[str, ...] = ("roll", "next", "undo")


@dataclass(frozen=True)
class Press:
    """A hardware button was pressed (ROLL, NEXT or UNDO); the daemon turns it into an input."""

    button: str


@dataclass(frozen=True)
class Stamped:
    """An input with who sent it and when: what the journal stores."""

    input: Input
    source: str
    at: float
