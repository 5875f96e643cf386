"""The finder's false spots: places in the training scenes that it takes for a top face where no labelled die lies.

The face networks learn them as no die (train_dice.py --false-spots), so that the ground, the tray's rim or a
keyboard the finder doubts is not read as a die.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from dice_training.data import Die, Photo
from vision.cutting import pyramid
from vision.finder import Finder, Spot, strongest_apart
from vision.reader import unhinted_looks

AWAY = 1.0  # a spot centred more than this many face sides from every labelled die marks none of them


@dataclass(frozen=True)
class FalseSpot:
    """A spot of the finder's on photo number `photo` of the training photos: centre and face side in its pixels."""

    photo: int
    x: float
    y: float
    face: float


def false_spots(photos: list[Photo], finder: Finder, look_at: float) -> list[FalseSpot]:
    """Returns the finder's spots, from chance `look_at` up, that mark no labelled die (readable or not) of the
    scenes among `photos`, looked at as the reader looks without a die size hint; raises nothing."""
    found = []
    for index, photo in enumerate(photos):
        if photo.scene:
            found += [FalseSpot(index, spot.x, spot.y, spot.face) for spot in _spots(photo, finder, look_at)
                      if _marks_no_die(spot, photo.dice)]
    return found


def _spots(photo: Photo, finder: Finder, look_at: float) -> list[Spot]:
    """Returns the finder's spots on one photo, one per place and size; raises nothing."""
    levels = pyramid(photo.image)
    looks = unhinted_looks(max(photo.image.shape[:2]))
    return strongest_apart([spot for side, faces in looks for spot in finder.find(levels, side, faces, look_at=look_at)])


def _marks_no_die(spot: Spot, dice: tuple[Die, ...]) -> bool:
    """Whether the spot lies more than AWAY face sides (its own or the die's, the larger) from every die; raises
    nothing."""
    return all(math.hypot(spot.x - die.x, spot.y - die.y) > AWAY * max(die.face, spot.face) for die in dice)
