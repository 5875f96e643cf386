"""Labelled training photos read in place from ../shared/dice, with each die's top-face centre and size.

nell-byler boxes enclose the whole die seen from above, so the face is the box. matteop65 boxes enclose
only the pip pattern of the top face (for a 1, just the pip), so the face side is estimated from it:
the pattern of 2-6 spans about 3/4 of the face, a single pip about 0.4 of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.scoring import LabelledPhoto, load_folder, split_photos
from vision.synthetic import render_dice

TRAIN_FOLDERS = ("nell-byler-d6", "matteop65-webcam-d6")
SYNTHETIC = "synthetic-"  # names of rendered photos start so
PATTERN_SHARE = {1: 0.4, 2: 0.75, 3: 0.75, 4: 0.75, 5: 0.75, 6: 0.75}  # matteop65: pattern box / face side


@dataclass(frozen=True)
class Die:
    """One labelled die: its top-face centre and side in photo pixels, and its value."""

    x: float
    y: float
    face: float
    value: int


@dataclass(frozen=True)
class Photo:
    """One training photo held in memory with its dice."""

    name: str
    image: np.ndarray
    dice: tuple[Die, ...]


def load_photos(shared: Path, half: str) -> list[Photo]:
    """Returns the training photos of every training folder (`half`: all or dev); raises FileNotFoundError."""
    photos: list[Photo] = []
    for folder in TRAIN_FOLDERS:
        labelled = load_folder(shared / folder)
        if half == "dev":
            labelled = split_photos(labelled)[0]
        pattern_boxes = folder.startswith("matteop65")
        photos.extend(_photo(item, pattern_boxes) for item in labelled)
    return photos


def _photo(item: LabelledPhoto, pattern_boxes: bool) -> Photo:
    """Returns one photo read from disk with its dice; raises FileNotFoundError when unreadable."""
    image = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {item.path}")
    dice = []
    for value, (left, top, width, height) in zip(item.values, item.boxes or ()):
        side = max(width, height) / PATTERN_SHARE[value] if pattern_boxes else (width + height) / 2
        dice.append(Die(left + width / 2, top + height / 2, float(side), value))
    return Photo(item.path.name, image, tuple(dice))


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """Returns `count` rendered tray photos (vision.synthetic, the demo camera's dice) with their dice; raises nothing."""
    rng = np.random.default_rng(seed)
    photos = []
    for index in range(count):
        die_px = int(rng.integers(20, 100))
        values = [int(value) for value in rng.integers(1, 7, size=int(rng.integers(1, 7)))]
        try:
            image, boxes = render_dice(values, seed=seed * 1000 + index, die_px=die_px)
        except ValueError:  # that many dice of that size do not fit: draw again
            continue
        dice = tuple(
            Die(left + width / 2, top + height / 2, float(die_px), value)
            for value, (left, top, width, height) in zip(values, boxes)
        )
        photos.append(Photo(f"{SYNTHETIC}{index}", image, dice))
    return photos
