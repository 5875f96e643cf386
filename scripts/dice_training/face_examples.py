"""Face crops to teach the face reader: crops of labelled dice cut as at the table (jittered, turned, squashed,
recoloured), crops of the ground beside them, and synthetic pip, numeral and plain faces (numpy and OpenCV only)."""
from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from dice_training.augment import recolour
from dice_training.cubes import cube_crop
from dice_training.data import UNREADABLE, Die, Photo
from dice_training.drawing import CropDraws
from dice_training.false_spots import FalseSpot
from dice_training.renders import numeral_crop, pip_face_crop, plain_crop, speckled_crop
from vision.cutting import FACE_CROP, cut_face, pyramid
from vision.faces import NOT_PIPS, NOTHING

DRAWS = ("per-photo", "every-die", "per-source")
SHARES = {"die": 0.5, "ground": 0.2, "synthetic pips": 0.15, "numeral": 0.1, "plain": 0.05}
CUBES = "drawn cube"  # a whole die drawn at a slant (dice_training.cubes), its share set per training
SIDE_FACES = "drawn side face"  # the same, a side face at the crop's centre: nothing
SPECKLED = "speckled ground"  # ground strewn with more pip-like specks than a die has pips: nothing
FALSE_SPOT = "finder's false spot"  # a training scene's place the finder takes for a face, no die there: nothing


class FaceExamples(CropDraws):
    """Draws labelled face crops from the photos and the synthetic renders."""

    def __init__(self, photos: list[Photo], rng: np.random.Generator, *, draw: str = "per-photo",
                 cubes: float = 0.0, sides: float = 0.0, specks: float = 0.0,
                 false_spots: Sequence[FalseSpot] = (), false_share: float = 0.0) -> None:
        """`draw`: how a die's crop is drawn: a photo, then one of its dice ("per-photo", the shipped networks'
        recipe); all dice alike, so a busy tray's dice are drawn as often as a lone die ("every-die"); or a
        source, then a photo, then a die, so each table counts alike however many photos it has ("per-source").
        `cubes`: the share of drawn whole dice seen at a slant, `sides`: of the same centred on a side face, the other
        kinds shrunk to make room (0 as shipped); `specks`: the share of drawn speckled ground (0 as shipped);
        `false_share`: the share of crops at the finder's `false_spots` (dice_training.false_spots; 0 as shipped, and
        0 when there are none). Raises ValueError for another `draw` or a share outside 0..1."""
        if draw not in DRAWS:
            raise ValueError(f"unknown way to draw dice {draw!r}; expected one of {', '.join(DRAWS)}")
        if not (0.0 <= min(cubes, sides, specks, false_share) and cubes + sides + specks + false_share < 1.0):
            raise ValueError(f"the shares of drawn dice and ground (the finder's false spots among them) must be 0 or "
                             f"more and under 1 together, not {cubes}, {sides}, {specks} and {false_share}")
        self.photos = photos
        self.levels = [pyramid(photo.image) for photo in photos]
        self.rng = rng
        self.false_spots = list(false_spots)
        false_share = false_share if false_spots else 0.0
        drawn = {kind: share for kind, share in ((CUBES, cubes), (SIDE_FACES, sides), (SPECKLED, specks),
                                                 (FALSE_SPOT, false_share)) if share}
        self.kinds = list(SHARES) + list(drawn)
        left = 1.0 - sum(drawn.values())
        self.shares = np.array([share * left for share in SHARES.values()] + list(drawn.values()))
        self.readable = [[number for number, die in enumerate(photo.dice) if die.value != UNREADABLE] for photo in photos]
        self.with_dice = [index for index, numbers in enumerate(self.readable) if numbers]
        self.dice = [(index, number) for index in self.with_dice for number in self.readable[index]] \
            if draw == "every-die" else None
        sources: dict[str, list[int]] = {}
        for index in self.with_dice:
            sources.setdefault(photos[index].source, []).append(index)
        self.sources = [sources[name] for name in sorted(sources)] if draw == "per-source" else None

    def _example(self, kind: str) -> tuple[np.ndarray, int]:
        """Returns one (crop, class) of the given kind; raises nothing."""
        rng = self.rng
        if kind == "synthetic pips":
            value = int(rng.integers(1, 7))
            return _turned(pip_face_crop(rng, value), rng), value
        if kind == CUBES:
            value = int(rng.integers(1, 7))
            return _turned(cube_crop(rng, value), rng), value
        if kind == SIDE_FACES:
            return _turned(cube_crop(rng, int(rng.integers(1, 7)), at_side=True), rng), NOTHING
        if kind == SPECKLED:
            return _turned(speckled_crop(rng), rng), NOTHING
        if kind == FALSE_SPOT:
            return self._false_spot(self.false_spots[int(rng.integers(len(self.false_spots)))])
        if kind == "numeral":
            return _turned(numeral_crop(rng), rng), NOT_PIPS
        if kind == "plain":
            return plain_crop(rng).astype(np.float32), NOTHING
        if kind == "die" and self.dice is not None:
            index, number = self.dice[int(rng.integers(len(self.dice)))]
            return self._die(self.levels[index], self.photos[index].dice[number])
        if kind == "die" and self.sources is not None:
            indices = self.sources[int(rng.integers(len(self.sources)))]
            return self._readable_die(indices[int(rng.integers(len(indices)))])
        if kind == "die":
            return self._readable_die(self.with_dice[int(rng.integers(len(self.with_dice)))])
        index = int(rng.integers(len(self.photos)))
        while not self.photos[index].scene:  # a crop's surround may hold another die
            index = int(rng.integers(len(self.photos)))
        photo = self.photos[index]
        return self._ground(photo, self.levels[index], photo.dice[int(rng.integers(len(photo.dice)))].face)

    def _readable_die(self, index: int) -> tuple[np.ndarray, int]:
        """Returns the crop and value of one of photo `index`'s dice that the face reader may learn; raises nothing."""
        numbers = self.readable[index]
        return self._die(self.levels[index], self.photos[index].dice[numbers[int(self.rng.integers(len(numbers)))]])

    def _die(self, levels: list[np.ndarray], die: Die) -> tuple[np.ndarray, int]:
        """Returns a labelled die's crop, jittered, turned, squashed and recoloured, and its value; raises nothing."""
        crop = self._cut_die(levels, die)
        return _blurred_small(recolour(crop, self.rng, invert=0.15, blur=0.8), self.rng), die.value

    def _false_spot(self, spot: FalseSpot) -> tuple[np.ndarray, int]:
        """Returns a crop at one of the finder's false spots, jittered, turned and recoloured, as no die; raises
        nothing."""
        rng = self.rng
        x, y = spot.x + rng.normal(0, 0.08) * spot.face, spot.y + rng.normal(0, 0.08) * spot.face
        size = spot.face * math.exp(rng.normal(0, 0.14))
        crop = cut_face(self.levels[spot.photo], x, y, size, float(rng.uniform(0, 360)), bool(rng.random() < 0.5))
        return recolour(crop, rng, invert=0.15), NOTHING

    def _ground(self, photo: Photo, levels: list[np.ndarray], face: float) -> tuple[np.ndarray, int]:
        """Returns a crop that is not one die's face: ground, between dice, a pip close up; raises nothing."""
        rng = self.rng
        height, width = photo.image.shape[:2]
        for _ in range(20):
            if rng.random() < 0.3:  # a single pip or a corner of a die seen as if it were a whole face
                die = photo.dice[int(rng.integers(len(photo.dice)))]
                x, y = die.x + rng.normal(0, 0.2) * die.face, die.y + rng.normal(0, 0.2) * die.face
                size = die.face * rng.uniform(0.25, 0.45)
            else:
                x, y = rng.uniform(0, width), rng.uniform(0, height)
                size = face * math.exp(rng.normal(0, 0.3))
            if all(math.hypot(x - die.x, y - die.y) > 0.6 * die.face or size < 0.5 * die.face for die in photo.dice):
                crop = cut_face(levels, x, y, size, float(rng.uniform(0, 360)), bool(rng.random() < 0.5))
                return recolour(crop, rng, invert=0.15), NOTHING
        return plain_crop(rng).astype(np.float32), NOTHING


def _turned(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Returns the crop turned by a random quarter and maybe mirrored; raises nothing."""
    crop = np.rot90(crop, int(rng.integers(4)))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return np.ascontiguousarray(crop, dtype=np.float32)


def _blurred_small(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Returns the crop, sometimes shrunk and grown back as if the die were far smaller; raises nothing."""
    if rng.random() < 0.3:
        small = int(rng.integers(FACE_CROP // 2, FACE_CROP))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (FACE_CROP, FACE_CROP))
    return crop
