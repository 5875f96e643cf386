"""The dice tray in a camera frame: found for calibration, and followed when the camera is knocked since.

Neither modifies the frame.
"""
from __future__ import annotations

import logging
import math
from pathlib import Path

import cv2
import numpy as np

from vision.places import on_tray
from vision.settle import THUMB_WIDTH, thumbnail
from vision.types import Box, DiceReading
from vision.view_shift import view_shift

log = logging.getLogger(__name__)
TELL_AGAIN = 8.0  # frame px the view must move from where it was last said to be before it is said again

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


class CalibratedTray:
    """The tray box calibration saved, and the view it was found in, to follow the tray when the camera is knocked.

    The view is calibration's thumbnail in grey with its dice painted out (`view_shift.floor`). Each frame is
    matched with it as a whole, never with the frame before, so knocks do not add up and a camera knocked back
    puts the tray back. Without a view, or when the views share too little to tell, the box stays where it was.
    """

    def __init__(self, box: Box, view: np.ndarray | None = None) -> None:
        """Keep the saved box and view; raises ValueError for a view that is not a grey thumbnail."""
        if view is not None and (view.ndim != 2 or view.dtype != np.uint8 or view.shape[1] != THUMB_WIDTH):
            raise ValueError(f"the tray's view must be a grey {THUMB_WIDTH}-pixel-wide image, as calibration saves it; "
                             f"this one is {view.dtype} {view.shape}.")
        self.box, self.view = box, view
        self._told: tuple[float, float] | None = None

    def where(self, frame: np.ndarray, reading: DiceReading) -> Box:
        """The tray's box in `frame`, whose dice `reading` found: the saved box moved as far as the view moved
        since calibration (an edge the frame cut then stays at the frame's edge); raises ValueError for a bad frame."""
        if self.view is None:
            return self.box
        thumb = thumbnail(frame)
        if thumb.shape[0] != self.view.shape[0]:  # another camera mode since calibration: the box cannot follow
            return self.box
        shift = view_shift(self.view, thumb, (), tuple(die.box for die in reading.dice), frame.shape[1])
        self._tell(shift)
        return self.box if shift is None else followed(self.box, shift, (frame.shape[1], frame.shape[0]))

    def flagged(self, frame: np.ndarray, reading: DiceReading) -> tuple[DiceReading, Box]:
        """The reading with `off_tray` on the dice outside the tray where it lies in `frame`, and that box; raises
        ValueError."""
        box = self.where(frame, reading)
        return on_tray(reading, box), box

    def _tell(self, shift: tuple[float, float] | None) -> None:
        """Log once each new place the view moved to since calibration; raises nothing."""
        told = self._told or (0.0, 0.0)
        now = shift or (0.0, 0.0)
        if math.hypot(now[0] - told[0], now[1] - told[1]) < TELL_AGAIN:
            return
        self._told = now
        if shift is None:
            log.info("the camera's view is back where it was calibrated")
            return
        log.info("the camera's view moved (%+.0f, %+.0f) px since calibration: the tray is followed; calibrate "
                 "again (on the host page) if dice near its walls are set aside", *now)


def followed(box: Box, shift: tuple[float, float], frame_size: tuple[int, int]) -> Box:
    """The box moved by `shift` and kept in the frame; an edge that lay on the frame's edge stays there (the tray
    went on out of view); raises nothing."""
    (left, top, width, height), (dx, dy), (frame_width, frame_height) = box, shift, frame_size
    right, bottom = left + width, top + height
    new_left = 0 if left <= 0 else min(max(0, round(left + dx)), frame_width - 1)
    new_top = 0 if top <= 0 else min(max(0, round(top + dy)), frame_height - 1)
    new_right = frame_width if right >= frame_width else max(new_left + 1, min(frame_width, round(right + dx)))
    new_bottom = frame_height if bottom >= frame_height else max(new_top + 1, min(frame_height, round(bottom + dy)))
    return new_left, new_top, new_right - new_left, new_bottom - new_top


def read_view(path: Path) -> np.ndarray:
    """The tray's view as calibration saved it (a grey PNG); raises ValueError saying why it cannot be used."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read the tray's view {path}: {error.strerror or error}") from None
    view = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if view is None:
        raise ValueError(f"the tray's view {path} is not a picture")
    return view
