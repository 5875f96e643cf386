"""What every camera source gives and raises: the FrameSource protocol, CameraError, and frames made BGR."""
from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np


class CameraError(RuntimeError):
    """The camera is gone or cannot give a frame; the message is a sentence saying what to check."""


class FrameSource(Protocol):
    """Anything that gives the newest camera frame."""

    def frame(self) -> np.ndarray:
        """Return the newest frame as BGR uint8 HxWx3; raises CameraError when the camera is gone."""
        ...


def as_bgr(image: np.ndarray) -> np.ndarray | None:
    """The picture as 8-bit BGR (from grey, BGRA or 16-bit), or None when it is neither; raises nothing."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or min(image.shape[:2]) < 2:
        return None
    channels = 1 if image.ndim == 2 else image.shape[2]
    convert = {1: cv2.COLOR_GRAY2BGR, 4: cv2.COLOR_BGRA2BGR}.get(channels)
    if channels == 3:
        return image
    return None if convert is None else cv2.cvtColor(image, convert)
