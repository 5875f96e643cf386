"""The small pictures the table keeps: each die's crop as JPEG for the phones, the tray as a PNG thumbnail."""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import OFF_TRAY, Box, DiceReading

CROP_PX = 96
VIEW_PX = 640  # the host page's picture of the camera's view: at most this wide
TRAY_COLOUR, SURE_COLOUR, UNSURE_COLOUR, OFF_TRAY_COLOUR = (80, 220, 80), (255, 160, 40), (0, 190, 255), (60, 60, 230)


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


def marked_view(frame: np.ndarray, tray: Box | None, reading: DiceReading, *, width: int = VIEW_PX) -> bytes:
    """The frame as JPEG at most `width` px wide, the tray outlined in green and every die boxed with its value
    (blue: sure, amber: unsure, red: off the tray); raises ValueError for a frame that is not a BGR image."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("marked_view needs a BGR image: a uint8 array of height x width x 3.")
    scale = min(1.0, width / frame.shape[1])
    view = cv2.resize(frame, (round(frame.shape[1] * scale), round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    if tray is not None:
        _outline(view, tray, scale, TRAY_COLOUR, 2)
    for die in reading.dice:
        colour = OFF_TRAY_COLOUR if OFF_TRAY in die.flags else UNSURE_COLOUR if die.unsure else SURE_COLOUR
        left, top = _outline(view, die.box, scale, colour, 2)
        label = "?" if die.value is None else str(die.value)
        cv2.putText(view, label, (left, max(20, top - 5)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 2, cv2.LINE_AA)
    return cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()


def _outline(view: np.ndarray, box: Box, scale: float, colour: tuple[int, int, int], thickness: int) -> tuple[int, int]:
    """Draw the box (in frame pixels) on the scaled view; returns its top-left corner there; raises nothing."""
    left, top, box_width, box_height = (round(part * scale) for part in box)
    cv2.rectangle(view, (left, top), (left + box_width - 1, top + box_height - 1), colour, thickness)
    return left, top
