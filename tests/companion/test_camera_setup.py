"""Calibrating a Pi camera from the host page: it finds the light as it is now, then keeps it fixed, also when
the camera is opened again after a kicked cable; a refused calibration puts the earlier light back."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion.config import Camera
from tray_scene import TableTray

BEFORE = {"ExposureTime": 5000, "AnalogueGain": 1.0, "ColourGains": (1.5, 1.5)}  # saved by `companion calibrate`
NOW = {"ExposureTime": 20000, "AnalogueGain": 3.0, "ColourGains": (2.0, 1.6)}  # the light at the table tonight
CAMERA = Camera(source="pi", still_seconds=0.05, frames_to_vote=2, exposure_us=5000, analogue_gain=1.0,
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


def test_a_calibration_finds_the_light_then_fixes_it_and_a_reopened_camera_keeps_it(
        tmp_path: Path, start_server: Any) -> None:
    camera = PiLike()
    camera.show([3], seed=2)
    server = start_server(frames=camera, camera=CAMERA)
    assert camera.calls == [("apply", BEFORE)]
    status, answer = server.api("POST", "/api/camera/calibrate", {}, token=server.host_token)
    assert status == 200 and answer["light_fixed"] is True, answer
    assert [name for name, _ in camera.calls[1:]] == ["unlock", "lock"]
    kept = json.loads((tmp_path / "state" / "calibration.json").read_text())["camera"]
    assert (kept["exposure_us"], kept["analogue_gain"], kept["colour_gains"]) == (20000, 3.0, [2.0, 1.6])
    camera.kicked = True  # the next frame fails: the camera is closed and opened again
    assert server.api("GET", "/api/camera/view.jpg", token=server.host_token)[0] == 503
    deadline = time.monotonic() + 10
    while len(camera.calls) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert camera.calls[3] == ("apply", NOW)  # the light calibrated tonight, not the config's


def test_a_refused_calibration_puts_the_earlier_light_back(tmp_path: Path, start_server: Any) -> None:
    camera = PiLike()
    camera.show([3], seed=2)
    camera.lay_on_table(5, seed=3)  # a die beside the tray: the tray found would leave it out
    server = start_server(frames=camera, camera=CAMERA)
    server.refused("/api/camera/calibrate", {}, server.host_token, status=409, code="calibration_refused")
    assert [name for name, _ in camera.calls] == ["apply", "unlock", "lock", "apply"]
    assert camera.calls[-1] == ("apply", BEFORE)
    assert not (tmp_path / "state" / "calibration.json").exists()
