"""Loading the dice reader's ONNX networks into OpenCV's dnn module."""
from __future__ import annotations

from pathlib import Path

import cv2


def read_network(model: Path, what: str) -> cv2.dnn.Net:
    """Returns the network in the ONNX file `model`; raises FileNotFoundError naming `what` when it is missing."""
    if not model.is_file():
        raise FileNotFoundError(f"the {what} model {model} is missing; run scripts/train_dice.py.")
    return cv2.dnn.readNetFromONNX(str(model))
