"""The face reader: two small networks that read a crop around a found face as nothing, 1-6 pips, or not pips.

The first network reads every face once. A face it does not read clearly is read again by the second
network (trained twice as long) from three more views, turned and mirrored: two networks that often err
on different faces, for the price of the three extra views alone.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.cutting import FACE_CROP, cut_face, cut_views, normalise
from vision.networks import read_network

NOTHING = 0
NOT_PIPS = 7
CLASSES = 8
SECOND_LOOK = ((90.0, True), (180.0, False), (270.0, True))  # an unclear face is read again from these views
CLEAR = 0.97  # a first reading whose likeliest class reaches this chance needs no second look


class FaceReadings(NamedTuple):
    """What the face reader made of some places: class chances, whether the views agreed, the crops it read."""

    chances: np.ndarray  # (N, CLASSES)
    agreed: np.ndarray  # (N,) bool
    crops: np.ndarray  # (N, FACE_CROP, FACE_CROP, 3) float32, each place as first seen
    sure_from: float | None = None  # a value this likely is sure (None: the reader's own SURE); a table's layer sets it


class FaceReader:
    """Runs the two face networks (ONNX, through OpenCV's dnn module) over crops of a frame."""

    def __init__(self, first_look: Path, second_look: Path) -> None:
        """Loads both networks; raises FileNotFoundError when a model file is missing."""
        self._first = read_network(first_look, "dice face")
        self._second = read_network(second_look, "dice face")

    def read(self, images: list[np.ndarray], places: list[tuple[float, float, float]]) -> FaceReadings:
        """Returns the readings of (x, y, face) places in a frame's pyramid; raises nothing.

        Every face is read once as seen by the first network; those not read clearly are read three more
        times, turned and mirrored, by the second, and the four readings averaged (they agree when all
        four name the same class).
        """
        if not places:
            nothing = np.zeros((0, FACE_CROP, FACE_CROP, 3), np.float32)
            return FaceReadings(np.zeros((0, CLASSES), np.float32), np.zeros(0, bool), nothing)
        crops = np.stack([cut_face(images, x, y, face) for x, y, face in places])
        chances = _chances(self._first, crops)
        agreed = np.ones(len(places), bool)
        unclear = np.flatnonzero(chances.max(axis=1) < CLEAR)
        if len(unclear):
            turned = np.stack([crop for index in unclear for crop in cut_views(images, *places[index], SECOND_LOOK)])
            again = _chances(self._second, turned).reshape(len(unclear), len(SECOND_LOOK), CLASSES)
            views = np.concatenate([chances[unclear, None], again], axis=1)
            votes = views.argmax(axis=2)
            agreed[unclear] = (votes == votes[:, :1]).all(axis=1)
            chances[unclear] = views.mean(axis=1)
        return FaceReadings(chances, agreed, crops)


def _chances(net: cv2.dnn.Net, crops: np.ndarray) -> np.ndarray:
    """Returns the network's softmax class chances for each of (N, H, W, 3) crops; raises nothing."""
    net.setInput(normalise(crops))
    logits = net.forward().reshape(len(crops), CLASSES)
    chances = np.exp(logits - logits.max(axis=1, keepdims=True))
    return chances / chances.sum(axis=1, keepdims=True)
