"""The finder: a small network that marks the centre and size of every top face in a downscaled photo."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cutting import FINDER_STRIDE, finder_input
from vision.networks import read_network

LOOK_AT = 0.4  # a map peak this likely is handed to the face reader (the reader keeps no less likely one)
APART = 0.5  # two faces are never closer, centre to centre, than this many face sides
SAME_SIZE = 1.6  # spots whose sides differ by less than this factor may be the same face


@dataclass(frozen=True)
class Spot:
    """A place the finder thinks a top face is: centre and side in frame pixels, and how likely."""

    x: float
    y: float
    face: float
    chance: float


class Finder:
    """Runs the finder network (ONNX, through OpenCV's dnn module) over a frame."""

    def __init__(self, model: Path) -> None:
        """Loads the network; raises FileNotFoundError when the model file is missing."""
        self._net = read_network(model, "dice finder")

    def find(self, images: list[np.ndarray], long_side: int, faces: tuple[float, float], *,
             look_at: float = LOOK_AT) -> list[Spot]:
        """Returns the spots whose face side (input pixels) lies in `faces`, at the frame's scale; raises nothing.

        `images` is the frame's pyramid (vision.cutting.pyramid); the frame is looked at `long_side` pixels long.
        Map peaks less likely than `look_at` are no spot (training looks lower, for the finder's doubtful spots).
        """
        blob, scale = finder_input(images, long_side)
        self._net.setInput(blob)
        maps = self._net.forward()[0]
        heat = 1.0 / (1.0 + np.exp(-maps[0]))
        peaks = (heat >= look_at) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        spots = []
        for row, column in zip(*np.nonzero(peaks)):
            face = math.exp(float(maps[3, row, column]))
            if faces[0] <= face <= faces[1]:
                x = (column + float(maps[1, row, column])) * FINDER_STRIDE / scale
                y = (row + float(maps[2, row, column])) * FINDER_STRIDE / scale
                spots.append(Spot(x, y, face / scale, float(heat[row, column])))
        return spots


def strongest_apart(spots: list[Spot]) -> list[Spot]:
    """Returns the spots, likeliest first, dropping any centred on a likelier one of about its size; raises nothing.

    Spots of very different sizes at one place (a die and its own pip) are both kept for the face reader.
    """
    kept: list[Spot] = []
    for spot in sorted(spots, key=lambda item: -item.chance):
        if not any(_same_place(spot, other) for other in kept):
            kept.append(spot)
    return kept


def _same_place(one: Spot, other: Spot) -> bool:
    """Whether two spots mark one face: centres close and sizes alike; raises nothing."""
    alike = max(one.face, other.face) < SAME_SIZE * min(one.face, other.face)
    return alike and math.hypot(one.x - other.x, one.y - other.y) < APART * min(one.face, other.face)
