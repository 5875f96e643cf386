"""Gateway's table state: the rescuers, their worlds and rescues, the creatures left, the turn."""
from __future__ import annotations

from dataclasses import dataclass

HOME = "home"
CREATURES = "creatures"
WORLD_NAMES = {HOME: "the players' world", CREATURES: "the creatures' world"}

FIRST_ROLL = "first_roll"
PLAYING = "playing"
OVER = "over"

MOVE = "move"
RESCUE = "rescue"

CREATURES_IN_THE_BOX = 6


@dataclass(frozen=True)
class Rescuer:
    """One player: name, the world their character is in, rescues scored, held at the centre."""

    name: str
    world: str = HOME
    rescues: int = 0
    held_at_centre: bool = False


@dataclass(frozen=True)
class DiceResult:
    """The last roll of a turn: a move's D6, or a rescue's D8 and D6, each with where it came from."""

    kind: str
    player: int
    d6: int
    d6_origin: str = ""
    d8: int | None = None
    d8_origin: str = ""
    result: str = ""


@dataclass(frozen=True)
class Gateway:
    """The whole table state of one game of Gateway (rescue the creatures)."""

    rescuers: tuple[Rescuer, ...]
    creatures_total: int
    creatures_left: int
    phase: str
    current: int = 0
    turn: int = 0
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[int, ...] = ()
    waiting: str | None = None
    allowance: int | None = None
    acted: bool = False
    last_roll: DiceResult | None = None
    log: tuple[str, ...] = ()

    def name(self, seat: int) -> str:
        """A seat's player name; raises IndexError for a seat not at the table."""
        return self.rescuers[seat].name

    @property
    def rescuer(self) -> Rescuer:
        """The player whose turn it is; raises IndexError before anyone plays."""
        return self.rescuers[self.current]
