"""A Pi camera as picamera2's adapter shows it to the companion (exposure controls that note each call), over the
rendered tray of the tests; and one swapped for a module whose range leaves out the saved light."""
from __future__ import annotations

from typing import Any

from companion.config import Camera
from tray_scene import TableTray
from vision.frames import CameraError

BEFORE = {"ExposureTime": 5000, "AnalogueGain": 1.0, "ColourGains": (1.5, 1.5)}  # saved by `companion calibrate`
NOW = {"ExposureTime": 20000, "AnalogueGain": 3.0, "ColourGains": (2.0, 1.6)}  # the light at the table tonight
PI_CAMERA = Camera(source="pi", still_seconds=0.05, frames_to_vote=2, exposure_us=5000, analogue_gain=1.0,
                   colour_gains=(1.5, 1.5))


class PiLike(TableTray):
    """The tray seen through a camera with exposure controls, as picamera2's adapter has them; it notes each call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.kicked = False

    def frame(self) -> Any:
        if self.kicked:
            self.kicked = False
            raise OSError("the cable came out")
        return super().frame()

    def apply_exposure(self, controls: dict[str, Any]) -> None:
        self.calls.append(("apply", dict(controls)))

    def unlock_exposure(self) -> None:
        self.calls.append(("unlock", None))

    def lock_exposure(self) -> dict[str, Any]:
        self.calls.append(("lock", None))
        return dict(NOW)


class SwappedModule(PiLike):
    """A camera module swapped for another, whose range leaves out the light saved for the first."""

    def apply_exposure(self, controls: dict[str, Any]) -> None:
        super().apply_exposure(controls)
        if controls == BEFORE:
            raise CameraError("the saved AnalogueGain 1.0 is outside this camera's range, 1.2 to 16.0")
