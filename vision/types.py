"""What the dice reader returns: plain frozen values, no arrays held."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

COCKED = "cocked"
UNSURE = "unsure"
OFF_TRAY = "off_tray"
BLURRED = "blurred"
NOT_PIPS = "not_pips"

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame: its sides, value (None when unreadable), box, confidence, flags."""

    sides: int
    value: int | None
    box: Box
    confidence: float
    flags: tuple[str, ...] = ()

    @property
    def unsure(self) -> bool:
        """Whether the value is not certain enough to rule on; raises nothing."""
        return UNSURE in self.flags or self.value is None

    @property
    def is_cocked(self) -> bool:
        """Whether the top face is tilted or two faces show; raises nothing."""
        return COCKED in self.flags


@dataclass(frozen=True)
class DiceReading:
    """Every die found in one frame, left to right then top to bottom."""

    dice: tuple[DieReading, ...]

    @property
    def values(self) -> tuple[int | None, ...]:
        """The value of every die, None where unreadable; raises nothing."""
        return tuple(die.value for die in self.dice)

    @property
    def sure(self) -> bool:
        """Whether every die has a value the reader is sure of; raises nothing."""
        return all(not die.unsure for die in self.dice)

    @property
    def die_px(self) -> int | None:
        """The die size calibration saves: the median long side of the dice found (None: no die); raises nothing."""
        sides = [max(die.box[2], die.box[3]) for die in self.dice]
        return int(statistics.median(sides)) if sides else None
