"""A tray of a d6 and a d8 for the tests: a real d8 photographed by burksbuilds (one blue d8 on a black tray,
../shared/dice) with a drawn d6 laid beside it. The shipped networks read the d6 of each such frame sure, and the
d8 of each photo sure too. Seen through a smudge on the lens (`smudged`), d8_A_4.jpg's d8 is read unsure (its chance
0.63, against 0.86 seen clear). Saved as JPEG, d8_A_7.jpg's tray also shows a speck as a third, unsure die (the
black cloth's specks: docs/camera.md)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.synthetic import render_dice
from vision.types import Box

D6_AT = (300, 300)  # where the d6 lies in the 1280 x 1280 photo, clear of the d8 in its middle


SMUDGE = 5.0  # the blur (Gaussian sigma, pixels) a smudge on the lens lays over the d8


def d8_beside_a_d6(d8_photo: Path, d6: int, *, smudged: bool = False) -> tuple[np.ndarray, Box]:
    """The photo with a drawn d6 showing `d6` laid beside its d8 (the d8 blurred when `smudged`), and the d6's box;
    raises FileNotFoundError."""
    photo = cv2.imread(str(d8_photo), cv2.IMREAD_COLOR)
    if photo is None:
        raise FileNotFoundError(f"no photo at {d8_photo}")
    if smudged:
        photo = cv2.GaussianBlur(photo, (0, 0), SMUDGE)
    tile, ((x, y, width, height),) = render_dice([d6], size=(400, 400), seed=3, die_px=130)
    left, top = D6_AT
    photo[top : top + height, left : left + width] = tile[y : y + height, x : x + width]
    return photo, (left, top, width, height)
