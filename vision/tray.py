"""Finding the dice tray in a camera frame, for calibration (pure; never modifies the frame)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import Box

MIN_SHARE = 0.15
MAX_SHARE = 0.97


def find_tray(frame: np.ndarray) -> Box:
    """The tray's box (x, y, w, h): the largest closed outline covering 15–97 % of the frame,
    else the whole frame; raises ValueError for something that is not a BGR image."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("find_tray needs a BGR image: a uint8 array of height x width x 3.")
    height, width = frame.shape[:2]
    grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 40, 120), np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area = float(width * height)
    boxes = [cv2.boundingRect(contour) for contour in contours]
    fitting = [box for box in boxes if MIN_SHARE <= box[2] * box[3] / area <= MAX_SHARE]
    if not fitting:
        return (0, 0, width, height)
    x, y, w, h = max(fitting, key=lambda box: box[2] * box[3])
    return (int(x), int(y), int(w), int(h))
