"""What a game is: a registered definition of pure functions over its own frozen state.

A game module builds one `Game`: setup, the moves (who may make each now, its argument schema, what
it does), what roll the table waits for, whose turn it is, the outcome and a per-seat view. The
table's state is a separate frozen value that the functions take and return.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Generic, Hashable, Mapping, TypeVar

from companion.rules.schema import JSON, obj

State = TypeVar("State")
LOG_LINES = 40


@dataclass(frozen=True)
class Setup:
    """What a game is set up from: the players' names, the checked options and a seeded rng."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    rng: random.Random


@dataclass(frozen=True)
class Act:
    """One move being made: the seat making it, its checked arguments and a seeded rng."""

    seat: int
    args: Mapping[str, Any]
    rng: random.Random


@dataclass(frozen=True)
class Roll:
    """Dice that landed, one value per die, each with its number of sides and its origin."""

    values: tuple[int, ...]
    sides: tuple[int, ...]
    origins: tuple[str, ...] = ()

    def origin(self, index: int) -> str:
        """Where die `index` was read or entered ('camera', 'phone', …; '' unknown); raises nothing."""
        return self.origins[index] if index < len(self.origins) else ""


@dataclass(frozen=True)
class DiceRequest:
    """The roll the table is waiting for: the dice it takes and why, in a sentence."""

    sides: tuple[int, ...]
    why: str
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (none when all lose) and a summary."""

    winners: tuple[int, ...]
    summary: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MoveRule(Generic[State]):
    """One kind of move: why it is refused now (None when allowed), its arguments, its effect."""

    name: str
    title: str
    apply: Callable[[State, Act], State]
    why_not: Callable[[State, int], str | None]
    args: Callable[[State, int], JSON] | None = None
    undoable: bool = True
    weight: float = 1.0
    """How often a random player (conformance play-outs, load runs) picks this move, relatively."""

    def schema(self, state: State, seat: int) -> JSON:
        """The JSON Schema of this move's arguments for that seat now; raises nothing."""
        return self.args(state, seat) if self.args is not None else obj()


def no_roll(state: Any) -> DiceRequest | None:
    """For games without dice: the table never waits for a roll; raises nothing."""
    return None


def refuse_dice(state: Any, roll: Roll) -> Any:
    """For games without dice: never called, since no roll is awaited; raises nothing."""
    return state


@dataclass(frozen=True)
class Game(Generic[State]):
    """A registered game: data and pure functions, no state of its own."""

    id: str
    title: str
    min_players: int
    max_players: int
    options: JSON
    setup: Callable[[Setup], State]
    moves: tuple[MoveRule[State], ...]
    whose_turn: Callable[[State], tuple[int, ...]]
    turn_key: Callable[[State], Hashable]
    outcome: Callable[[State], Outcome | None]
    view: Callable[[State, int | None], JSON]
    awaiting_dice: Callable[[State], DiceRequest | None] = no_roll
    on_dice: Callable[[State, Roll], State] = refuse_dice
    next_move: str | None = "end_turn"
    """The move the NEXT button makes for the seat whose turn it is (None: NEXT does nothing)."""
    records: Callable[[list[Mapping[str, Any]], Mapping[str, Any] | None], JSON | None] | None = None
    summary: str = ""

    def move(self, name: str) -> MoveRule[State] | None:
        """The rule for a move name, or None when the game has no such move; raises nothing."""
        return next((rule for rule in self.moves if rule.name == name), None)


Reason = Callable[[State, int], "str | None"]


def anytime(state: Any, seat: int) -> str | None:
    """A move any seat may make at any time in the game (a correction); raises nothing."""
    return None


def first_reason(*checks: Reason[State]) -> Reason[State]:
    """A why_not that gives the first refusal of several checks (None when all allow); raises nothing."""

    def why_not(state: State, seat: int) -> str | None:
        return next((reason for check in checks if (reason := check(state, seat)) is not None), None)

    return why_not


def say(state: State, line: str) -> State:
    """Add a line to the state's `log` (the last LOG_LINES kept); raises TypeError without one."""
    lines = getattr(state, "log") + (line,)
    return replace(state, log=lines[-LOG_LINES:])  # type: ignore[type-var]
