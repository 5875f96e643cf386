"""The d8 reader: a small network that reads the numeral on a d8's top face, 1 to 8, or says it shows none.

It reads a crop one face side across (the face reader's spans 1.35: a numeral is smaller than a pip pattern),
from four views a quarter turn apart (never mirrored: a mirrored 2 is no 2), and averages them. The views agree
when all four name the same class.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cutting import CONTEXT, cut_views, normalise
from vision.networks import read_network

D8_FILE = "dice_d8.onnx"
NO_NUMERAL = 0  # class 0: no d8 numeral (pips, another die's number, ground); classes 1-8 are the numerals
D8_CLASSES = 9
VIEWS = ((0.0, False), (90.0, False), (180.0, False), (270.0, False))
D8_ZOOM = 1.0 / CONTEXT  # the face size handed to the cut, as a share of the face: the crop spans one face side


class NumeralReader:
    """Runs the d8 network (ONNX, through OpenCV's dnn module) over faces of a frame."""

    def __init__(self, model: Path) -> None:
        """Loads the network; raises FileNotFoundError when the model file is missing."""
        self._net = read_network(model, "d8")

    def read(self, images: list[np.ndarray], places: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
        """Returns ((N, D8_CLASSES) chances averaged over the views, (N,) whether the views agreed) for (x, y, face)
        places in a frame's pyramid; raises nothing."""
        if not places:
            return np.zeros((0, D8_CLASSES), np.float32), np.zeros(0, bool)
        crops = np.stack([crop for x, y, face in places for crop in cut_views(images, x, y, face * D8_ZOOM, VIEWS)])
        self._net.setInput(normalise(crops))
        logits = self._net.forward().reshape(len(places), len(VIEWS), D8_CLASSES)
        chances = np.exp(logits - logits.max(axis=2, keepdims=True))
        chances /= chances.sum(axis=2, keepdims=True)
        votes = chances.argmax(axis=2)
        return chances.mean(axis=1), (votes == votes[:, :1]).all(axis=1)
