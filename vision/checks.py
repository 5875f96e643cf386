"""What read_dice is given, checked: the frame, and the rig's hints (tray, die size, the kinds of dice)."""
from __future__ import annotations

import math

import numpy as np

SMALLEST_FRAME = 16
KINDS = (6, 8)  # the dice the reader reads: a d6's pips, a d8's numerals


def checked_frame(frame: object) -> np.ndarray:
    """Returns the frame as a 3-channel uint8 image; raises ValueError saying what is wrong with it."""
    if frame is None:
        raise ValueError("read_dice needs a camera frame, but got None.")
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"read_dice needs a numpy image array, but got a {type(frame).__name__}.")
    if frame.dtype != np.uint8:
        raise ValueError(f"read_dice needs an 8-bit image (dtype uint8), but got dtype {frame.dtype}.")
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"read_dice needs a height x width x 3 (BGR) or grey image, but got shape {frame.shape}.")
    if min(frame.shape[:2]) < SMALLEST_FRAME:
        raise ValueError(f"read_dice needs a frame at least {SMALLEST_FRAME} pixels on each side, got {frame.shape[:2]}.")
    return np.ascontiguousarray(frame)


def checked_tray(tray: object) -> tuple[int, int, int, int] | None:
    """Returns the tray hint as four ints; raises ValueError when it is not (x, y, w, h) with positive size."""
    if tray is None:
        return None
    try:
        left, top, width, height = (int(value) for value in tray)  # type: ignore[union-attr]
    except (TypeError, ValueError) as error:
        raise ValueError(f"the tray hint must be four numbers (x, y, w, h), got {tray!r}.") from error
    if width <= 0 or height <= 0:
        raise ValueError(f"the tray hint must have a positive width and height, got {tray!r}.")
    return left, top, width, height


def checked_die_px(die_px: object) -> float | None:
    """Returns the die size hint as a float; raises ValueError when it is not a positive number."""
    if die_px is None:
        return None
    try:
        size = float(die_px)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise ValueError(f"the die_px hint must be a number of pixels, got {die_px!r}.") from error
    if not size > 0 or not math.isfinite(size):
        raise ValueError(f"the die_px hint must be a positive number of pixels, got {die_px!r}.")
    return size


def checked_sides(sides: object) -> tuple[int, ...]:
    """Returns the kinds of dice on the tray as a sorted tuple of 6 and/or 8; raises ValueError for anything else."""
    if isinstance(sides, (str, bytes)) or not hasattr(sides, "__iter__"):
        raise ValueError(f"the sides hint must list the dice on the tray (6, 8 or both), got {sides!r}.")
    given = list(sides)  # type: ignore[call-overload]
    if not given or any(type(count) is not int or count not in KINDS for count in given):
        raise ValueError(f"the reader reads d6 and d8 only: the sides hint must be 6, 8 or both, got {sides!r}.")
    return tuple(sorted(set(given)))
