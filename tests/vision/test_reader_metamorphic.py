"""Metamorphic checks: turning, mirroring or re-lighting a photo keeps the values read.

Two properties per change: a die read *sure* never turns into a different sure value at the same place,
and the values read (sure or not) change for at most one die or a fifth of the dice, whichever is more.
The reader is not perfectly invariant (its crops are resampled differently), so doubtful dice may move.
"""
from __future__ import annotations

from collections import Counter
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
# change name: (what it does to the frame, where a point (x, y) of a width x height frame goes)
CHANGES: dict[str, tuple[Callable[[np.ndarray], np.ndarray], Callable[[Point, int, int], Point]]] = {
    "turned 90": (lambda frame: cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE), lambda p, w, h: (h - p[1], p[0])),
    "turned 180": (lambda frame: cv2.rotate(frame, cv2.ROTATE_180), lambda p, w, h: (w - p[0], h - p[1])),
    "turned 270": (lambda frame: cv2.rotate(frame, cv2.ROTATE_90_COUNTERCLOCKWISE), lambda p, w, h: (p[1], w - p[0])),
    "mirrored": (lambda frame: np.ascontiguousarray(frame[:, ::-1]), lambda p, w, h: (w - p[0], p[1])),
    "20 % brighter": (lambda frame: cv2.convertScaleAbs(frame, alpha=1.2), lambda p, w, h: p),
    "20 % darker": (lambda frame: cv2.convertScaleAbs(frame, alpha=0.8), lambda p, w, h: p),
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
    apply, move = CHANGES[change]
    before, after = read_dice(frame), read_dice(apply(frame))
    assert before.dice, f"no dice read on {name}"
    height, width = frame.shape[:2]
    later = _centres(after)
    for centre, size, value, sure in _centres(before):
        if not sure:
            continue
        moved = move(centre, width, height)
        twins = [twin for twin in later if np.hypot(twin[0][0] - moved[0], twin[0][1] - moved[1]) < 0.5 * size]
        assert all(twin[2] == value or not twin[3] for twin in twins), f"a sure {value} changed: {name} {change}"
    changed = sum((Counter(before.values) - Counter(after.values)).values())
    changed = max(changed, sum((Counter(after.values) - Counter(before.values)).values()))
    assert changed <= max(1, len(before.dice) // 5), f"{name} {change}: {before.values} became {after.values}"
