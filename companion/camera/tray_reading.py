"""The reader the roller calls: the calibrated die size, and the tray followed in view when the camera is
knocked. A calibration from the host's page swaps both at once, on the camera thread, between reads."""
from __future__ import annotations

import logging

import numpy as np

from companion.config import Camera
from companion.rules.said import Said
from vision.reader import DiceReader
from vision.tray import CalibratedTray, read_view
from vision.types import Box, DiceReading

log = logging.getLogger(__name__)


class TrayReading:
    """Reads a frame's dice with the camera's calibration: called on the camera thread only."""

    def __init__(self, camera: Camera, warnings: list[str]) -> None:
        """Load the networks and take the calibration; raises FileNotFoundError when a network file is missing."""
        self.reader = DiceReader()
        self._now: tuple[int | None, CalibratedTray | None] = (None, None)
        self.calibrated(camera, warnings)

    def calibrated(self, camera: Camera, warnings: list[str]) -> None:
        """Read with this calibration from now on (a tray view that cannot be read leaves the tray where
        calibration found it, with a warning); raises nothing."""
        self._now = (camera.die_px, None if camera.tray is None else _tray(camera.tray, camera, warnings))

    def __call__(self, frame: np.ndarray) -> DiceReading:
        """The frame's d6, those off the tray flagged; raises ValueError for a frame that is no picture."""
        return self.look(frame)[0]

    def with_d8(self, frame: np.ndarray) -> DiceReading:
        """The frame's d6 and d8, those off the tray flagged; raises ValueError for a frame that is no picture, or
        when the networks cannot read a d8."""
        return self.look(frame, sides=(6, 8))[0]

    def look(self, frame: np.ndarray, *, sides: tuple[int, ...] = (6,)) -> tuple[DiceReading, Box | None]:
        """The frame's dice of those `sides`, those off the tray flagged, and where the tray lies in it now (None: not
        calibrated); raises ValueError for a frame that is no picture, or a d8 asked of networks without a d8 reader."""
        die_px, tray = self._now
        reading = self.reader.read(frame, die_px=die_px, sides=sides)
        return (reading, None) if tray is None else tray.flagged(frame, reading)


def _tray(box: Box, camera: Camera, warnings: list[str]) -> CalibratedTray:
    """The calibrated tray at `box`, following the camera's saved view when that can be read; raises nothing."""
    try:
        return CalibratedTray(box, None if camera.tray_view is None else read_view(camera.tray_view))
    except ValueError as error:
        warnings.append(Said(f"camera.tray_view: {error}. The tray stays where calibration found it, so after a "
                             "knock of the camera calibrate it again on the host page.",
                             f"camera.tray_view: {error}. 트레이는 보정할 때 찾은 자리에 그대로 있으므로, 카메라가 "
                             "부딪히면 호스트 페이지에서 다시 보정하세요."))
        log.warning(warnings[-1])
        return CalibratedTray(box)
