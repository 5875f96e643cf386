"""Metamorphic checks: turning, mirroring or re-lighting a photo keeps the values read.

Per change, both ways (original -> changed and back): a die read *sure* never shows another value at
its moved place, and at most one sure die in all is not found there again (the finder's map is not exactly
turn-invariant, so one die on the edge of being found may be missed). Dice read `unsure` may change
their guess: the crops are resampled differently, and a doubtful guess is never a ruling.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import cv2
import numpy as np
import pytest

from vision.reader import read_dice
from vision.types import DiceReading

PHOTOS = (
    "nell-byler-d6/IMG_20191208_111228.jpg",
    "nell-byler-d6/IMG_20191209_100605.jpg",
    "matteop65-webcam-d6/train_five_24.jpg",
    "matteop65-webcam-d6/valid_valid_8.jpg",
    "tai-studio-d6-crops/eyes_4_1.jpg",
)
Point = tuple[float, float]
Move = Callable[[Point, int, int], Point]
# change name: (what it does to the frame, where a point (x, y) of the width x height frame goes, and back)
CHANGES: dict[str, tuple[Callable[[np.ndarray], np.ndarray], Move, Move]] = {
    "turned 90": (lambda frame: cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE),
                  lambda p, w, h: (h - p[1], p[0]), lambda p, w, h: (p[1], h - p[0])),
    "turned 180": (lambda frame: cv2.rotate(frame, cv2.ROTATE_180),
                   lambda p, w, h: (w - p[0], h - p[1]), lambda p, w, h: (w - p[0], h - p[1])),
    "turned 270": (lambda frame: cv2.rotate(frame, cv2.ROTATE_90_COUNTERCLOCKWISE),
                   lambda p, w, h: (p[1], w - p[0]), lambda p, w, h: (w - p[1], p[0])),
    "mirrored": (lambda frame: np.ascontiguousarray(frame[:, ::-1]),
                 lambda p, w, h: (w - p[0], p[1]), lambda p, w, h: (w - p[0], p[1])),
    "20 % brighter": (lambda frame: cv2.convertScaleAbs(frame, alpha=1.2), lambda p, w, h: p, lambda p, w, h: p),
    "20 % darker": (lambda frame: cv2.convertScaleAbs(frame, alpha=0.8), lambda p, w, h: p, lambda p, w, h: p),
}


def _centres(reading: DiceReading) -> list[tuple[Point, float, int | None, bool]]:
    """Each die's centre, size, value and sureness."""
    return [
        ((die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2), max(die.box[2:]), die.value, not die.unsure)
        for die in reading.dice
    ]


@pytest.mark.parametrize("name", PHOTOS)
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_changes_keep_the_values(shared_dice: Path, name: str, change: str) -> None:
    frame = cv2.imread(str(shared_dice / name))
    assert frame is not None
    apply, move, back = CHANGES[change]
    before, after = read_dice(frame), read_dice(apply(frame))
    assert before.dice, f"no dice read on {name}"
    height, width = frame.shape[:2]
    lost = _sure_dice_stay(before, after, lambda point: move(point, width, height), f"{name} {change}")
    lost += _sure_dice_stay(after, before, lambda point: back(point, width, height), f"{name} {change}, back")
    assert lost <= 1, f"{name} {change}: {lost} sure dice not found again; {before.values} became {after.values}"


def _sure_dice_stay(first: DiceReading, second: DiceReading, move: Callable[[Point], Point], what: str) -> int:
    """Asserts no sure die of `first` has another value at its moved place in `second`; returns how many are not found."""
    later = _centres(second)
    lost = 0
    for centre, size, value, sure in _centres(first):
        if not sure:
            continue
        moved = move(centre)
        twins = [twin for twin in later if np.hypot(twin[0][0] - moved[0], twin[0][1] - moved[1]) < 0.5 * size]
        assert all(twin[2] == value for twin in twins), f"a sure {value} at {centre} changed: {what}"
        lost += not twins
    return lost
