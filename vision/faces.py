"""The face reader: a small network that reads a crop around a found face as nothing, 1-6 pips, or not pips."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.cutting import FACE_CROP, cut_face, cut_views, normalise

NOTHING = 0
NOT_PIPS = 7
CLASSES = 8
SECOND_VIEW = ((90.0, True), (180.0, False), (270.0, True))  # an unclear face is read again from these views
CLEAR = 0.97  # a first reading whose likeliest class reaches this chance needs no second view


class FaceReadings(NamedTuple):
    """What the face reader made of some places: class chances, whether the views agreed, the crops it read."""

    chances: np.ndarray  # (N, CLASSES)
    agreed: np.ndarray  # (N,) bool
    crops: np.ndarray  # (N, FACE_CROP, FACE_CROP, 3) float32, each place as first seen


class FaceReader:
    """Runs the face network (ONNX, through OpenCV's dnn module) over crops of a frame."""

    def __init__(self, model: Path) -> None:
        """Loads the network; raises FileNotFoundError when the model file is missing."""
        if not model.is_file():
            raise FileNotFoundError(f"the dice face model {model} is missing; run scripts/train_dice.py.")
        self._net = cv2.dnn.readNetFromONNX(str(model))

    def read(self, images: list[np.ndarray], places: list[tuple[float, float, float]]) -> FaceReadings:
        """Returns the readings of (x, y, face) places in a frame's pyramid; raises nothing.

        Every face is read once as seen; those not read clearly are read three more times, turned and
        mirrored, and the four readings averaged (they agree when all four name the same class).
        """
        if not places:
            nothing = np.zeros((0, FACE_CROP, FACE_CROP, 3), np.float32)
            return FaceReadings(np.zeros((0, CLASSES), np.float32), np.zeros(0, bool), nothing)
        crops = np.stack([cut_face(images, x, y, face) for x, y, face in places])
        chances = self._chances(crops)
        agreed = np.ones(len(places), bool)
        unclear = np.flatnonzero(chances.max(axis=1) < CLEAR)
        if len(unclear):
            again = self._chances(
                np.stack([crop for index in unclear for crop in cut_views(images, *places[index], SECOND_VIEW)])
            )
            views = np.concatenate([chances[unclear, None], again.reshape(len(unclear), len(SECOND_VIEW), CLASSES)], axis=1)
            votes = views.argmax(axis=2)
            agreed[unclear] = (votes == votes[:, :1]).all(axis=1)
            chances[unclear] = views.mean(axis=1)
        return FaceReadings(chances, agreed, crops)

    def _chances(self, crops: np.ndarray) -> np.ndarray:
        """Returns the softmax class chances of the network for each of (N, H, W, 3) crops; raises nothing."""
        self._net.setInput(normalise(crops))
        logits = self._net.forward().reshape(len(crops), CLASSES)
        chances = np.exp(logits - logits.max(axis=1, keepdims=True))
        return chances / chances.sum(axis=1, keepdims=True)
