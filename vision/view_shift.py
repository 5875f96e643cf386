"""Whether the camera itself moved (knocked, its arm bumped) between two still views of the tray.

A knock moves everything in view by one shift; a throw moves only the dice. So each view's own dice are
painted out of it and what is left (the tray's walls and floor, the table) is matched by phase correlation.
A floor with nothing on it to match (no walls, no grain) gives no answer: the views then count as unmoved, as before.

Measured on knocks made by shifting real photographs up to 25 px and turning them up to 2° (every sixth
photo of nell-byler and matteop65, dice painted out at their labelled boxes; tests/vision/test_view_shift.py):
the match scored 0.55 to 1.0 and found the shift within 1.2 thumbnail px. One die thrown again onto the
same face on a bare synthetic floor (150 throws) scored up to 0.59, but only at shifts under 0.9 px (the
floor, unmoved); at shifts of 1.5 px or more, 0.23 at most.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import Box

MIN_SHIFT = 1.5  # thumbnail px (6 px of a 640-px frame): a smaller shift is noise, and leaves every die in place
MIN_MATCH = 0.4  # phase correlation's peak score: below it the views share too little to say they moved
GROW = 0.4  # a die is painted out with this much of its side around it (its shadow, the blur)


def view_shift(before: np.ndarray, now: np.ndarray, dice_before: tuple[Box, ...], dice_now: tuple[Box, ...],
               frame_width: int) -> tuple[float, float] | None:
    """How far the view moved from `before` to `now` (thumbnails of one size), in frame px, or None when it
    did not move or nothing shows it; the dice boxes are in frame px; raises ValueError for unlike sizes."""
    if before.shape[:2] != now.shape[:2]:
        raise ValueError(f"views of different sizes: {before.shape[:2]} and {now.shape[:2]}")
    first, second = floor(before, dice_before, frame_width), floor(now, dice_now, frame_width)
    window = cv2.createHanningWindow((first.shape[1], first.shape[0]), cv2.CV_32F)
    (dx, dy), match = cv2.phaseCorrelate(first.astype(np.float32), second.astype(np.float32), window)
    if match < MIN_MATCH or np.hypot(dx, dy) < MIN_SHIFT:
        return None
    scale = frame_width / before.shape[1]
    return dx * scale, dy * scale


def floor(thumb: np.ndarray, dice: tuple[Box, ...], frame_width: int) -> np.ndarray:
    """The thumbnail in grey (uint8) with its dice, boxes in frame px, painted out from their surround; raises nothing."""
    grey = cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY) if thumb.ndim == 3 else thumb
    if not dice:
        return grey.copy()
    scale = frame_width / thumb.shape[1]
    mask = np.zeros(grey.shape, np.uint8)
    for x, y, width, height in dice:
        half_width, half_height = width * (1 + GROW) / (2 * scale) + 1, height * (1 + GROW) / (2 * scale) + 1
        centre_x, centre_y = (x + width / 2) / scale, (y + height / 2) / scale
        corner = (int(centre_x - half_width), int(centre_y - half_height))
        far_corner = (int(np.ceil(centre_x + half_width)), int(np.ceil(centre_y + half_height)))
        cv2.rectangle(mask, corner, far_corner, 255, -1)
    return cv2.inpaint(grey, mask, 3, cv2.INPAINT_TELEA)
