"""What the roller hands back: a roll's result, and what became of its dice since (the watch)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal

from vision.places import shifted
from vision.types import DiceReading

RollKind = Literal["read", "reroll", "wrong_count", "offline"]
KINDS: tuple[RollKind, ...] = ("read", "reroll", "wrong_count", "offline")
Verdict = Literal["same", "moving", "gathered", "changed", "thrown"]


@dataclass(frozen=True)
class RollResult:
    """What the camera made of a roll: kind (read/reroll/wrong_count/offline), values, crops and a sentence."""

    kind: RollKind
    values: tuple[int, ...] = ()
    sides: tuple[int, ...] = ()
    crops: tuple[bytes, ...] = field(default=(), repr=False)
    message: str = ""
    reading: DiceReading | None = None
    scene: bytes = field(default=b"", repr=False)  # PNG thumbnail of the tray at read time, for watch()
    beside: DiceReading | None = None  # dice read beside the roll as others the camera cannot read (a d8)

    @property
    def d6_values(self) -> tuple[int, ...]:
        """The values of the roll's d6, which a watch reads again (a d8 beside them it does not); raises nothing."""
        return tuple(value for value, sides in zip(self.values, self.sides) if sides == 6)

    @property
    def lying(self) -> DiceReading | None:
        """Every die on the tray at the read, the roll's and those beside it (for `since_dice`); raises nothing."""
        if self.reading is None or self.beside is None:
            return self.reading
        return DiceReading(self.reading.dice + self.beside.dice)


@dataclass(frozen=True)
class Watch:
    """What became of the dice since a read: same, moving, gathered (fewer dice), changed (a die knocked onto
    another face) or thrown (most dice somewhere else: a new throw), and the tray now."""

    verdict: Verdict
    now: tuple[int | None, ...] = ()  # the values the tray shows now (None: a face not read), when read again
    scene: bytes = field(default=b"", repr=False)  # PNG thumbnail of the tray now, when read again
    dice: DiceReading | None = None  # every die lying on the tray now (a d8 beside too), when read again
    shift: tuple[float, float] | None = None  # how far the camera's view moved (a knock), in frame px

    def followed(self, previous: RollResult) -> RollResult:
        """The read `previous` as this watch sees it: the tray now, and its dice where a knocked camera now shows
        them (so the next watch compares like with like); raises nothing."""
        if not self.scene:
            return previous
        return replace(previous, scene=self.scene, reading=_shifted(previous.reading, self.shift),
                       beside=_shifted(previous.beside, self.shift))


def _shifted(dice: DiceReading | None, shift: tuple[float, float] | None) -> DiceReading | None:
    """`shifted` for dice that may be absent; raises nothing."""
    return None if dice is None else shifted(dice, shift)


def verdict(read: tuple[int, ...], now: tuple[int | None, ...]) -> Verdict:
    """Return how the dice now compare with the read: gathered, same or changed; raises nothing."""
    if len(now) < len(read):
        return "gathered"
    return "same" if Counter(now) == Counter(read) else "changed"
