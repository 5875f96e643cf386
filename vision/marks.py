"""What a photo's dice tell of each other: a die far smaller than the others is more likely a speck, a 1 far bigger
a dot on a plain patch, and a face far more squashed than the squarest is tilted (cocked)."""
from __future__ import annotations

import dataclasses
import statistics

import numpy as np

from vision.pips import foreshortening
from vision.types import COCKED, UNSURE, DieReading

COCKED_BELOW = 0.25  # a face squashed this much more than the photo's usual face is tilted: cocked
SPECK_BELOW = 1 / 3  # a face under this share of the photo's largest face is more likely a speck: unsure
OUTSIZED = 2.0  # a 1 this many times bigger than the photo's other dice is more likely a dot on a plain patch: unsure


def mark_specks(dice: list[DieReading]) -> list[DieReading]:
    """Returns the dice, flagging `unsure` those far smaller than the photo's largest; raises nothing.

    Dice on one tray are alike in size: perspective and a mixed set (12 and 22 mm dice) differ by under 2x.
    A "die" a third the size of another is more likely a speck of the cloth or a pip than a die.
    """
    largest = max((die_side(die) for die in dice), default=0)
    return [
        flagged(die, UNSURE) if not die.unsure and die_side(die) < SPECK_BELOW * largest else die for die in dice
    ]


def mark_outsized_ones(dice: list[DieReading]) -> list[DieReading]:
    """Returns the dice, flagging `unsure` a 1 over OUTSIZED times the median of the other dice that are no specks;
    raises nothing.

    A lone dark dot on a plain patch far bigger than the dice (a screw hole in a light table's corner) looks like
    a 1. Dice on one tray differ by under 2x, so a 1 that much bigger is more likely such a dot.
    """
    sized = [die_side(die) for die in dice]
    return [_outsized_one_unsure(die, sized[index], sized[:index] + sized[index + 1 :]) for index, die in enumerate(dice)]


def _outsized_one_unsure(die: DieReading, side: int, others: list[int]) -> DieReading:
    """Returns the die (its face `side` pixels) flagged `unsure` when it is a sure d6 showing 1, over OUTSIZED times the
    median of `others` no speck of it; raises nothing."""
    peers = [other for other in others if other >= SPECK_BELOW * side]
    if die.unsure or (die.sides, die.value) != (6, 1) or not peers or side <= OUTSIZED * statistics.median_high(peers):
        return die
    return flagged(die, UNSURE)


def mark_cocked(dice: list[DieReading], image: np.ndarray) -> list[DieReading]:
    """Returns the dice, flagging `cocked` those whose face looks far more squashed than the others'; raises nothing.

    A camera that looks at an angle squashes every face alike, so each face is compared with the squarest.
    """
    squash = {}
    for index, die in enumerate(dice):
        if not die.unsure and die.sides == 6:  # an unsure die is not ruled on anyway; measuring it costs ~0.5 ms
            left, top, width, height = die.box
            found = foreshortening(image, left + width / 2, top + height / 2, max(width, height), die.value)
            if found is not None:
                squash[index] = found
    if len(squash) < 2:
        return dice
    usual = max(squash.values())  # the squarest face shows how much the camera itself squashes
    return [
        flagged(die, COCKED) if index in squash and squash[index] < usual - COCKED_BELOW else die
        for index, die in enumerate(dice)
    ]


def die_side(die: DieReading) -> int:
    """Returns the longer side of the die's box in pixels; raises nothing."""
    return max(die.box[2], die.box[3])


def flagged(die: DieReading, flag: str) -> DieReading:
    """Returns the same reading with one more flag; raises nothing."""
    return dataclasses.replace(die, flags=die.flags + (flag,))
