"""Crops to teach the d8 reader: a d8's top face showing 1-8, or anything else (class 0).

A d8 lying on a face, seen from above, is a hexagon: its top triangle in the middle and three side faces around
it. The synthetic faces are drawn so with OpenCV; rendered d8 (Blender) come from the frames vision.splits leaves
to training. Everything else is class 0: pip faces (given a share, casino 1s and 2s with marks among their pips
too), the labelled photos' d6, numerals of other dice (a square face, or a triangle with a number over 8), plain
ground.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from dice_training.augment import recolour, squashed
from dice_training.data import Die, Photo
from dice_training.drawing import CropDraws
from dice_training.renders import contrasting, numeral_crop, pip_face_crop, plain_crop
from vision.cutting import CONTEXT, FACE_CROP, pyramid
from vision.numerals import D8_ZOOM
from vision.splits import measures_the_d8

D8_CLASSES = 9  # 0: no d8 numeral; 1-8: the numeral on a d8's top face
SHARES = {"drawn d8": 0.25, "rendered d8": 0.3, "pips": 0.1, "d6": 0.15, "other numeral": 0.1, "plain": 0.1}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, cv2.FONT_HERSHEY_DUPLEX | cv2.FONT_ITALIC)
CASINO = "casino d6"  # a drawn casino 1 or 2, cut as the d8 reader cuts a face; its share set per training
SCALE = 8  # drawn at 8x and shrunk: smooth edges and thin strokes


class D8Examples(CropDraws):
    """Draws labelled crops for the d8 reader from the photos (rendered d8, photographed d6) and drawn faces."""

    def __init__(self, photos: list[Photo], rng: np.random.Generator, *, casino: float = 0.0) -> None:
        """Keeps the photos' readable d8 (from frames left to training) and d6; `casino` is the share of drawn
        casino 1s and 2s (0 as shipped), the other kinds shrunk to make room; raises ValueError for a share outside
        0..1."""
        if not 0.0 <= casino < 1.0:
            raise ValueError(f"the share of casino dice must be 0 or more and under 1, not {casino}")
        self.rng = rng
        self.d8: list[tuple[int, Die]] = []
        self.d6: list[tuple[int, Die]] = []
        self.levels: dict[int, list[np.ndarray]] = {}
        for index, photo in enumerate(photos):
            d8 = [] if _measuring(photo.name) else [die for die in photo.dice if die.d8]
            d6 = [die for die in photo.dice if 1 <= die.value <= 6]
            if d8 or d6:
                self.levels[index] = pyramid(photo.image)
            self.d8 += [(index, die) for die in d8]
            self.d6 += [(index, die) for die in d6]
        kinds = {kind: share for kind, share in SHARES.items() if kind != "rendered d8" or self.d8}
        total = sum(kinds.values())
        kinds = {kind: share / total * (1.0 - casino) for kind, share in kinds.items()}
        if casino:
            kinds[CASINO] = casino
        self.kinds = list(kinds)
        self.shares = np.array(list(kinds.values()))

    def _example(self, kind: str) -> tuple[np.ndarray, int]:
        """Returns one (crop, class) of the given kind; raises nothing."""
        rng = self.rng
        if kind == "drawn d8":
            value = int(rng.integers(1, 9))
            return recolour(squashed(d8_face_crop(rng, value), rng), rng, invert=0.1, blur=0.8), value
        pool = {"rendered d8": self.d8, "d6": self.d6}.get(kind)
        if pool:
            index, die = pool[int(rng.integers(len(pool)))]
            crop = self._cut_die(self.levels[index], die, zoom=D8_ZOOM, mirror=False)  # a mirrored 2 is no 2
            return recolour(crop, rng, invert=0.1, blur=0.8), die.d8
        if kind == "pips":
            return recolour(pip_face_crop(rng, int(rng.integers(1, 7))), rng), 0
        if kind == CASINO:
            return recolour(casino_face_crop(rng), rng, invert=0.1, blur=0.8), 0
        if kind == "other numeral":
            wider = rng.random() < 0.5  # a square face with any number, or a triangle past 8 (a d10, d12 or d20)
            crop = numeral_crop(rng, numbers=(1, 21), triangles=0.0) if wider else numeral_crop(rng, numbers=(9, 21), triangles=1.0)
            return recolour(crop, rng), 0
        return plain_crop(rng).astype(np.float32), 0


def _measuring(name: str) -> bool:
    """Whether a training photo is a rendered frame kept to measure the d8 reader; raises nothing."""
    return "frame_" in name and measures_the_d8(name)


def casino_face_crop(rng: np.random.Generator) -> np.ndarray:
    """Returns a FACE_CROP crop (float32) of a casino's 1 or 2, its marks printed among the pips, cut one face side
    across as the d8 reader cuts a face the finder sized anywhere from a little too big to 1.4 times too small, at
    any turn; raises nothing. So cut, a casino's 2 can look like a numeral (docs/dice-reader.md, The d8)."""
    crop = pip_face_crop(rng, int(rng.integers(1, 3)), casino=1.0)
    zoom = CONTEXT * rng.uniform(0.9, 1.4)
    turn = cv2.getRotationMatrix2D((FACE_CROP / 2, FACE_CROP / 2), float(rng.uniform(0, 360)), zoom)
    return cv2.warpAffine(crop, turn, (FACE_CROP, FACE_CROP), borderMode=cv2.BORDER_REPLICATE)


def d8_face_crop(rng: np.random.Generator, value: int) -> np.ndarray:
    """Returns a FACE_CROP crop (float32) of a d8 seen from above showing `value`, at a random turn; raises nothing."""
    canvas = 4 * FACE_CROP
    face = canvas / (CONTEXT * D8_ZOOM) * math.exp(rng.normal(0, 0.14))  # the top face's box side, as the finder sizes it
    edge = face / ((1 + math.sqrt(3) / 2) / 2)
    height = edge * math.sqrt(3) / 2
    centre = np.array([canvas / 2, canvas / 2]) + rng.normal(0, 0.08, 2) * face
    top = centre + np.array([[0, -height / 2], [edge / 2, height / 2], [-edge / 2, height / 2]])
    middle = top.mean(axis=0)
    bottom = 2 * middle - top  # the face it lies on, turned half a turn: the hexagon's other corners
    image = np.empty((canvas * SCALE // 4, canvas * SCALE // 4, 3), np.float32)
    image[:] = rng.integers(0, 256, 3)
    body = rng.integers(0, 256, 3).astype(np.float32)
    ink = contrasting(rng, body).astype(np.float32)
    small = SCALE / 4
    for corner in range(3):  # the three side faces, darker, each with a numeral of its own now and then
        side = np.array([top[corner], top[(corner + 1) % 3], bottom[(corner + 2) % 3]])
        shade = body * rng.uniform(0.45, 0.9)
        cv2.fillPoly(image, [np.int32(side * small * 8)], shade.tolist(), cv2.LINE_AA, 3)
        if rng.random() < 0.4:
            _numeral(image, side.mean(axis=0) * small, edge * 0.15 * small, int(rng.integers(1, 9)), ink * 0.7,
                     float(rng.uniform(0, 360)), rng)
    cv2.fillPoly(image, [np.int32(top * small * 8)], body.tolist(), cv2.LINE_AA, 3)
    if rng.random() < 0.3:  # marbled or translucent looking
        blotch = cv2.resize(rng.normal(0, 1, (4, 4, 3)).astype(np.float32), image.shape[1::-1], interpolation=cv2.INTER_CUBIC)
        image += blotch * rng.uniform(10, 40)
    upright = 0.0 if rng.random() < 0.8 else float(rng.choice([120.0, 240.0]))  # the numeral faces a corner
    _numeral(image, middle * small, edge * rng.uniform(0.26, 0.36) * small, value, ink, upright, rng)
    image = cv2.resize(image, (canvas, canvas), interpolation=cv2.INTER_AREA)
    turn = cv2.getRotationMatrix2D((canvas / 2, canvas / 2), float(rng.uniform(0, 360)), 1.0)
    image = cv2.warpAffine(image, turn, (canvas, canvas), borderMode=cv2.BORDER_REPLICATE)
    image += rng.normal(0, rng.uniform(1, 8), image.shape).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 2.4)))
    return cv2.resize(np.clip(image, 0, 255), (FACE_CROP, FACE_CROP), interpolation=cv2.INTER_AREA)


def _numeral(image: np.ndarray, where: np.ndarray, tall: float, value: int, ink: np.ndarray, angle: float,
             rng: np.random.Generator) -> None:
    """Draws `value` about `tall` pixels high, centred at `where`, turned by `angle` (a 6 marked by a dot or a
    bar, as d8 are); raises nothing."""
    font = int(rng.choice(FONTS))
    text = str(value) + ("." if value == 6 and rng.random() < 0.5 else "")
    (_, high), _ = cv2.getTextSize("8", font, 1.0, 1)
    scale = tall / max(high, 1)
    thickness = max(1, int(round(scale * rng.uniform(1.2, 3.0))))
    (width, high), _ = cv2.getTextSize(text, font, scale, thickness)
    side = int(2 * max(width, high) + 4)
    stamp = np.zeros((side, side), np.uint8)
    cv2.putText(stamp, text, (int(side / 2 - width / 2), int(side / 2 + high / 2)), font, scale, 255, thickness, cv2.LINE_AA)
    if value == 6 and not text.endswith(".") and rng.random() < 0.6:
        low = int(side / 2 + high / 2 + thickness * 2)
        cv2.line(stamp, (int(side / 2 - width / 2), low), (int(side / 2 + width / 2), low), 255, thickness, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    turn[:, 2] += where - side / 2
    mask = cv2.warpAffine(stamp, turn, image.shape[1::-1]).astype(np.float32)[:, :, None] / 255.0
    image[:] = image * (1 - mask) + ink * mask
