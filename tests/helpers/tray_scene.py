"""A camera over a dice tray on a wooden table, which a test can knock: the tray in the middle of the view."""
from __future__ import annotations

import cv2
import numpy as np

from vision.synthetic import render_dice
from vision.types import Box

FLOOR = (170, 150, 300, 180)  # the tray's floor in the view before any knock: x, y, width, height
WALL = 16  # px of wooden wall around the floor
DIE_PX = 48
BESIDE = (50, 210)  # where a die laid on the table lies: on the wood left of the tray


class TableTray:
    """A tray on a table as the camera sees it: `show` lays dice on the floor, `knock` moves the camera."""

    def __init__(self) -> None:
        self.table = _wood(np.random.default_rng(3))
        self.shift = (0.0, 0.0)
        self.frames = 0  # how many frames the camera has taken
        self.show([])

    def show(self, values: list[int], seed: int = 1) -> None:
        """Lay `values` on the tray's floor as the renderer places them for `seed`; still until the next call."""
        floor, boxes = render_dice(values, size=FLOOR[2:], seed=seed, die_px=DIE_PX)
        scene = self.table.copy()
        x, y, width, height = FLOOR
        cv2.rectangle(scene, (x - WALL, y - WALL), (x + width + WALL - 1, y + height + WALL - 1), (50, 80, 120), -1)
        scene[y:y + height, x:x + width] = floor
        self.scene, self.laid = scene, tuple((bx + x, by + y, bw, bh) for bx, by, bw, bh in boxes)

    def lay_on_table(self, value: int, seed: int = 1, at: tuple[int, int] = BESIDE) -> None:
        """Lay one more die, showing `value`, on the table at `at` (left of the tray: outside it), as it comes to rest."""
        patch, (box,) = render_dice([value], size=(DIE_PX * 3, DIE_PX * 3), seed=seed, die_px=DIE_PX)
        x, y, width, height = box
        left, top = at
        self.scene = self.scene.copy()
        self.scene[top:top + height, left:left + width] = patch[y:y + height, x:x + width]
        self.laid = (*self.laid, (left, top, width, height))

    def knock(self, dx: float, dy: float) -> None:
        """The camera is knocked: from now on the whole view is shifted by (dx, dy) px from where it was set up."""
        self.shift = (dx, dy)

    def knock_past_the_wall(self, tray: Box) -> None:
        """Knock the camera up or down, towards the tray wall nearer the first die, until that die lies 12 px
        beyond where the wall was in view (so outside the tray as calibrated)."""
        (_, y, _, height), (_, top, _, tray_height) = self.boxes[0], tray
        to_top, to_bottom = y + height / 2 - top, top + tray_height - y - height / 2
        self.knock(self.shift[0], self.shift[1] + (-(to_top + 12) if to_top < to_bottom else to_bottom + 12))

    @property
    def boxes(self) -> tuple[Box, ...]:
        """Where the dice lie in the view now; raises nothing."""
        return moved(self.laid, *self.shift)

    def frame(self) -> np.ndarray:
        """The view as it is now; raises nothing."""
        self.frames += 1
        return knocked(self.scene, *self.shift)


def knocked(frame: np.ndarray, dx: float, dy: float, degrees: float = 0.0) -> np.ndarray:
    """The frame as a camera shifted by (dx, dy) px and turned by `degrees` about its centre sees it."""
    height, width = frame.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    matrix[:, 2] += (dx, dy)
    return cv2.warpAffine(frame, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE)


def moved(boxes: tuple[Box, ...], dx: float, dy: float) -> tuple[Box, ...]:
    """The boxes where a view shifted by (dx, dy) px shows them."""
    return tuple((x + round(dx), y + round(dy), width, height) for x, y, width, height in boxes)


def _wood(rng: np.random.Generator) -> np.ndarray:
    """A 640x480 table top of dark wood: soft streaks of grain along it, so a moved view shows."""
    grain = cv2.GaussianBlur(rng.normal(0, 1, (480, 640)).astype(np.float32), (0, 0), sigmaX=12, sigmaY=2)
    shade = np.clip(70 + 8 * grain / max(1e-6, float(grain.std())), 0, 255)
    return np.dstack([shade * 0.55, shade * 0.75, shade]).astype(np.uint8)
