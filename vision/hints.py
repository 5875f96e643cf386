"""The rig's hints on the command line (--die-px, --tray, --sides), checked without loading OpenCV or the networks."""
from __future__ import annotations

import argparse
import math

from vision.checks import KINDS


def add_hints(parser: argparse.ArgumentParser) -> None:
    """Adds the rig's hints a calibrated box reads with (--die-px, --tray); raises nothing."""
    parser.add_argument("--die-px", type=die_size, help="a die's side in pixels, as calibration measures it")
    parser.add_argument("--tray", type=tray_box, help="the tray as X,Y,W,H in pixels: dice off it are set aside")


def die_size(text: str) -> float:
    """A --die-px value; raises argparse.ArgumentTypeError with a sentence when it is not a positive number."""
    try:
        size = float(text)
    except ValueError:
        size = math.nan
    if not (size > 0 and math.isfinite(size)):
        raise argparse.ArgumentTypeError(f"the die size must be a positive number of pixels, not {text!r}")
    return size


def tray_box(text: str) -> tuple[int, int, int, int]:
    """A --tray value; raises argparse.ArgumentTypeError with a sentence unless it is X,Y,W,H with W and H over 0."""
    parts = text.split(",")
    if len(parts) != 4 or not all(part.strip().lstrip("-").isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"the tray must be four whole numbers X,Y,W,H, not {text!r}")
    left, top, width, height = (int(part) for part in parts)
    if width <= 0 or height <= 0:
        raise argparse.ArgumentTypeError(f"the tray's width and height must be over 0, not {text!r}")
    return left, top, width, height


def add_sides(parser: argparse.ArgumentParser) -> None:
    """Adds --sides, the kinds of dice on the tray (6, 8 or 6,8; default 6); raises nothing."""
    parser.add_argument("--sides", type=dice_kinds, default=(6,),
                        help="the dice on the tray: 6, 8 or 6,8 (a d8 is read by the numeral on its top face)")


def dice_kinds(text: str) -> tuple[int, ...]:
    """A --sides value; raises argparse.ArgumentTypeError with a sentence unless it is 6, 8 or 6,8."""
    parts = [part.strip() for part in text.split(",")]
    if not parts or any(part not in {str(count) for count in KINDS} for part in parts):
        raise argparse.ArgumentTypeError(f"the dice on the tray must be 6, 8 or 6,8, not {text!r}")
    return tuple(sorted({int(part) for part in parts}))
