"""The small pictures the table keeps: each die's crop as JPEG for the phones, the tray as a PNG thumbnail."""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import Box

CROP_PX = 96


def crop_jpeg(frame: np.ndarray, box: Box, *, size: int = CROP_PX) -> bytes:
    """Return the die's box (with a small margin) as JPEG bytes, longest side `size` px; raises ValueError if empty."""
    left, top, width, height = box
    margin = int(0.15 * max(width, height))
    frame_height, frame_width = frame.shape[:2]
    x0, y0 = max(0, left - margin), max(0, top - margin)
    x1, y1 = min(frame_width, left + width + margin), min(frame_height, top + height + margin)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"the box {box} lies outside the {frame_width}x{frame_height} frame")
    crop = frame[y0:y1, x0:x1]
    scale = size / max(crop.shape[:2])
    crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                      interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ok, encoded = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ValueError("OpenCV could not encode the die crop as JPEG")
    return encoded.tobytes()


def encode_png(thumb: np.ndarray) -> bytes:
    """Return a thumbnail as lossless PNG bytes; raises nothing."""
    return cv2.imencode(".png", thumb)[1].tobytes()


def decoded(scene: bytes) -> np.ndarray | None:
    """Return a scene's tray thumbnail, or None for no scene; raises nothing."""
    if not scene:
        return None
    return cv2.imdecode(np.frombuffer(scene, np.uint8), cv2.IMREAD_UNCHANGED)
