"""Calibrating a Pi camera from the host page: it finds the light as it is now, then keeps it fixed, also when
the camera is opened again after a kicked cable; a refused calibration puts the earlier light back; a camera
that refuses its saved light reads in automatic light, the host told to calibrate it again."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from camera_table import looked_again, press_roll, state_when
from companion.config import Camera
from pi_like import BEFORE, NOW, PI_CAMERA, PiLike, SwappedModule


def test_a_calibration_finds_the_light_then_fixes_it_and_a_reopened_camera_keeps_it(
        tmp_path: Path, start_server: Any) -> None:
    camera = PiLike()
    camera.show([3], seed=2)
    server = start_server(frames=camera, camera=PI_CAMERA)
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
    server = start_server(frames=camera, camera=PI_CAMERA)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")  # said before the table is compared
    server.refused("/api/camera/calibrate", {}, server.host_token, status=409, code="calibration_refused")
    assert [name for name, _ in camera.calls] == ["apply", "unlock", "lock", "apply"]
    assert camera.calls[-1] == ("apply", BEFORE)
    assert not (tmp_path / "state" / "calibration.json").exists()


def test_a_refused_calibration_of_a_camera_never_calibrated_gives_it_back_its_own_light(
        tmp_path: Path, start_server: Any) -> None:
    camera = PiLike()
    camera.show([3], seed=2)
    camera.lay_on_table(5, seed=3)
    server = start_server(frames=camera, camera=Camera(source="pi", still_seconds=0.05, frames_to_vote=2))
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")  # said before the table is compared
    server.refused("/api/camera/calibrate", {}, server.host_token, status=409, code="calibration_refused")
    assert [name for name, _ in camera.calls] == ["unlock", "unlock", "lock", "unlock"]  # not left at the light it locked


def test_a_camera_that_refuses_its_saved_light_still_reads_and_the_host_page_is_told_until_calibrated(
        tmp_path: Path, start_server: Any) -> None:
    camera = SwappedModule()
    server = start_server(frames=camera, camera=PI_CAMERA)
    host = state_when(server, lambda snap: snap["camera"]["status"] == "ready" and snap["notices"])
    assert camera.calls == [("apply", BEFORE), ("unlock", None)]  # left to find its own light, not kept offline
    [notice] = host["notices"]
    assert "outside this camera's range, 1.2 to 16.0" in notice["message"], notice
    assert "Calibrate it again" in notice["message"] and "다시 보정하세요" in notice["message_ko"], notice
    assert server.api("GET", "/api/state", token=server.seat_token(0))[1]["notices"] == []  # the host's business
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]},
                      token=server.host_token)[0] == 200
    looked_again(camera)
    camera.lay_on_table(4, seed=3, at=(60, 300))
    press_roll(server)
    read = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert read["dice"] is not None and read["dice"]["values"] == [4], read["camera"]
    camera.show([3], seed=2)  # the dice gathered, one put on the tray to measure
    status, answer = server.api("POST", "/api/camera/calibrate", {}, token=server.host_token)
    assert status == 200 and answer["light_fixed"] is True, answer
    assert server.api("GET", "/api/state", token=server.host_token)[1]["notices"] == []  # gone by the answer
    kept = json.loads((tmp_path / "state" / "calibration.json").read_text())["camera"]
    assert (kept["exposure_us"], kept["analogue_gain"]) == (20000, 3.0)  # tonight's light, which it takes
