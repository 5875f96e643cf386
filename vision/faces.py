"""The face reader: a small network that reads a crop around a found face as nothing, 1-6 pips, or not pips."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.cutting import cut_face, normalise

NOTHING = 0
NOT_PIPS = 7
CLASSES = 8
SECOND_VIEW = ((90.0, True), (180.0, False), (270.0, True))  # an unclear face is read again from these views
CLEAR = 0.97  # a first reading whose likeliest class reaches this chance needs no second view


class FaceReader:
    """Runs the face network (ONNX, through OpenCV's dnn module) over crops of a frame."""

    def __init__(self, model: Path) -> None:
        """Loads the network; raises FileNotFoundError when the model file is missing."""
        if not model.is_file():
            raise FileNotFoundError(f"the dice face model {model} is missing; run scripts/train_dice.py.")
        self._net = cv2.dnn.readNetFromONNX(str(model))

    def read(self, images: list[np.ndarray], places: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
        """Returns (class chances per place, whether its views agreed) for (x, y, face) places; raises nothing.

        Every face is read once as seen; those not read clearly are read three more times, turned and
        mirrored, and the four readings averaged (they agree when all four name the same class).
        """
        if not places:
            return np.zeros((0, CLASSES), np.float32), np.zeros(0, bool)
        chances = self._chances([cut_face(images, x, y, face) for x, y, face in places])
        agreed = np.ones(len(places), bool)
        unclear = np.flatnonzero(chances.max(axis=1) < CLEAR)
        if len(unclear):
            again = self._chances(
                [cut_face(images, *places[index], angle, mirror) for index in unclear for angle, mirror in SECOND_VIEW]
            )
            views = np.concatenate([chances[unclear, None], again.reshape(len(unclear), len(SECOND_VIEW), CLASSES)], axis=1)
            votes = views.argmax(axis=2)
            agreed[unclear] = (votes == votes[:, :1]).all(axis=1)
            chances[unclear] = views.mean(axis=1)
        return chances, agreed

    def _chances(self, crops: list[np.ndarray]) -> np.ndarray:
        """Returns the softmax class chances of the network for each crop; raises nothing."""
        self._net.setInput(normalise(np.stack(crops)))
        logits = self._net.forward().reshape(len(crops), CLASSES)
        chances = np.exp(logits - logits.max(axis=1, keepdims=True))
        return chances / chances.sum(axis=1, keepdims=True)
