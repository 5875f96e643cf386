"""Where dice lie: whether the tray shows the same dice as before (a shadow, a hand, a nudge) or dice thrown anew.

Pixels cannot tell: a shadow or a change of light alters far more of the tray than a die that rolled.
The dice themselves can: a throw puts them somewhere else, while a shadow leaves each die where it was.
"""
from __future__ import annotations

import math
from dataclasses import replace

from vision.types import OFF_TRAY, Box, DiceReading, DieReading

STAYED = 0.5  # a die whose centre is within this many die sides of where a die lay is the same die, unmoved
MOVED_AWAY = 1.5  # one this many die sides from every die before has been thrown (a knock rolls it about one)


def same_dice(before: DiceReading, now: DiceReading) -> bool:
    """Whether `now` shows the dice of `before`: as many, each with its value, each where one lay; raises nothing."""
    return len(before.dice) == len(now.dice) and _each_where_one_lay(before, now)


def left_lying(before: DiceReading, now: DiceReading) -> bool:
    """Whether `now` shows dice, each a die of `before` with its value where it lay: the same dice, or those left
    when some were taken off the tray (no new throw either way); raises nothing."""
    return bool(now.dice) and _each_where_one_lay(before, now)


def _each_where_one_lay(before: DiceReading, now: DiceReading) -> bool:
    """Whether each die of `now` is a different die of `before`, unmoved; raises nothing."""
    left = list(before.dice)
    for die in now.dice:
        match = next((old for old in left if _lies_where(old, die)), None)
        if match is None:
            return False
        left.remove(match)
    return True


def thrown(before: DiceReading, now: DiceReading) -> bool:
    """Whether most dice of `now` lie far from every die of `before` (thrown again, not knocked); raises nothing."""
    if not before.dice or not now.dice:
        return False
    away = sum(1 for die in now.dice if all(_apart(old, die) > MOVED_AWAY for old in before.dice))
    return 2 * away >= len(now.dice)


def same_place(first: DieReading, second: DieReading) -> bool:
    """Whether two dice lie at one place (centres within STAYED sides), whatever they read; raises nothing."""
    return _apart(first, second) <= STAYED


def leaving_out(now: DiceReading, beside: DiceReading) -> DiceReading:
    """The dice of `now` but those lying, with their value, where a die of `beside` lay; raises nothing."""
    return DiceReading(tuple(die for die in now.dice if not any(_lies_where(old, die) for old in beside.dice)))


def beside_others(reading: DiceReading, wanted: int, others: int) -> tuple[DiceReading, DiceReading | None]:
    """The roll's dice when up to `others` dice the camera cannot read (a d8, read as an unsure pip die) lie
    beside the `wanted` ones: the sure dice when exactly `wanted` are sure, and the others set aside.

    The others are None when they do not explain the count, and no dice when they do but it cannot tell
    which they are (the unsure dice then ask for a re-roll, not about the count); raises nothing.
    """
    extra = len(reading.dice) - wanted
    if not others or not 0 < extra <= others:
        return reading, None
    sure = tuple(die for die in reading.dice if not die.unsure)
    if len(sure) != wanted:
        return reading, DiceReading(())
    return DiceReading(sure), DiceReading(tuple(die for die in reading.dice if die.unsure))


def shifted(reading: DiceReading, shift: tuple[float, float] | None) -> DiceReading:
    """The dice of `reading` where a view moved by `shift` (frame px; None: unmoved) shows them; raises nothing."""
    if shift is None:
        return reading
    dx, dy = round(shift[0]), round(shift[1])
    return DiceReading(tuple(replace(die, box=(die.box[0] + dx, die.box[1] + dy) + die.box[2:]) for die in reading.dice))


def on_tray(reading: DiceReading, tray: Box) -> DiceReading:
    """The dice of `reading`, each flagged `off_tray` when its centre lies outside the tray box (x, y, w, h), and
    only then; raises nothing."""
    return DiceReading(tuple(replace(die, flags=_on_tray_flags(die, tray)) for die in reading.dice))


def in_tray(tray: Box | list[int], x: float, y: float) -> bool:
    """Whether the point (x, y) lies in the tray box (a die centred outside it is set aside); raises nothing."""
    left, top, width, height = tray
    return left <= x < left + width and top <= y < top + height


def _on_tray_flags(die: DieReading, tray: Box) -> tuple[str, ...]:
    """The die's flags with `off_tray` added or dropped as its centre lies off or on the tray; raises nothing."""
    kept = tuple(flag for flag in die.flags if flag != OFF_TRAY)
    left, top, width, height = die.box
    return kept if in_tray(tray, left + width / 2, top + height / 2) else kept + (OFF_TRAY,)


def _lies_where(old: DieReading, die: DieReading) -> bool:
    """Whether `die` is `old` unmoved: the same value, its centre within STAYED sides; raises nothing."""
    return old.value == die.value and same_place(old, die)


def _apart(first: DieReading, second: DieReading) -> float:
    """The distance between two dice's centres, in sides of the larger; raises nothing."""
    (x1, y1, w1, h1), (x2, y2, w2, h2) = first.box, second.box
    side = max(w1, h1, w2, h2, 1)
    return math.hypot(x1 + w1 / 2 - x2 - w2 / 2, y1 + h1 / 2 - y2 - h2 / 2) / side
