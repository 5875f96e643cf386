"""A tray of a d6 and a d8 for the tests: a real d8 photographed by burksbuilds (one blue d8 on a black tray,
../shared/dice) with a drawn d6 laid beside it. The shipped networks read the d6 of each such frame sure; the d8 of
d8_A_7.jpg and d8_A_8.jpg sure too, those of d8_A_4.jpg and d8_A_5.jpg unsure. Saved as JPEG, d8_A_7.jpg's tray
also shows a speck as a third, unsure die (the black cloth's specks: docs/camera.md)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.synthetic import render_dice
from vision.types import Box

D6_AT = (300, 300)  # where the d6 lies in the 1280 x 1280 photo, clear of the d8 in its middle


def d8_beside_a_d6(d8_photo: Path, d6: int) -> tuple[np.ndarray, Box]:
    """The photo with a drawn d6 showing `d6` laid beside its d8, and the d6's box; raises FileNotFoundError."""
    photo = cv2.imread(str(d8_photo), cv2.IMREAD_COLOR)
    if photo is None:
        raise FileNotFoundError(f"no photo at {d8_photo}")
    tile, ((x, y, width, height),) = render_dice([d6], size=(400, 400), seed=3, die_px=130)
    left, top = D6_AT
    photo[top : top + height, left : left + width] = tile[y : y + height, x : x + width]
    return photo, (left, top, width, height)
