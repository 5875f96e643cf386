"""The host calibrates the camera from the page, over real HTTP: the tray is used at once and after a restart,
and every refusal is a sentence that changes nothing."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from camera_table import looked_again, press_roll, state_when
from companion.config import Camera
from tray_scene import FLOOR, WALL, TableTray

CAMERA = Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2)
SETTLED = ("read_ok", "reroll", "read_part")
OFF_THE_TRAY = "I see no dice, expecting 1 — is it off the tray? (1 die outside the tray as calibrated"


def test_a_tray_calibrated_on_the_page_sets_dice_off_it_aside_at_once_and_after_a_restart(
        tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)  # a die on the tray, to measure
    server = playing(start_server(frames=table, camera=CAMERA))
    status, answer = server.api("POST", "/api/camera/calibrate", {}, token=server.host_token)
    assert status == 200, answer
    x, y, width, height = answer["tray"]
    assert abs(x - (FLOOR[0] - WALL)) <= 4 and abs(y - (FLOOR[1] - WALL)) <= 4, answer  # the tray, walls and all
    assert abs(width - (FLOOR[2] + 2 * WALL)) <= 8 and abs(height - (FLOOR[3] + 2 * WALL)) <= 8, answer
    assert answer["die_px"] and 48 <= answer["die_px"] <= 70 and "Calibrated" in answer["message"], answer
    table.show([])
    table.lay_on_table(5, seed=3)  # the only die lies on the table, beside the tray
    assert OFF_THE_TRAY in rolled(server)["camera"]["message"]
    server.companion.stop()
    server = start_server(frames=table, camera=CAMERA)  # the same state folder: the kept calibration
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    looked_again(table)  # the die lying there at start-up is no throw
    table.show([])
    table.lay_on_table(4, seed=3, at=(60, 120))  # thrown again, beside the tray once more
    assert OFF_THE_TRAY in rolled(server)["camera"]["message"]


def test_without_calibration_a_die_beside_the_tray_is_read(start_server: Any) -> None:
    table = TableTray()
    server = playing(start_server(frames=table, camera=CAMERA))
    looked_again(table)
    table.lay_on_table(5, seed=3)
    snapshot = rolled(server)
    assert (snapshot["camera"]["status"], snapshot["dice"]["values"]) == ("read_ok", [5]), snapshot["camera"]


def test_the_host_sees_what_the_camera_sees_and_a_seat_does_not(start_server: Any) -> None:
    table = TableTray()
    table.show([4], seed=2)
    server = start_server(frames=table, camera=CAMERA)
    status, picture = server.api("GET", "/api/camera/view.jpg", token=server.host_token)
    assert status == 200 and isinstance(picture, bytes)
    view = cv2.imdecode(np.frombuffer(picture, np.uint8), cv2.IMREAD_COLOR)
    assert view.shape == (480, 640, 3)
    status, refusal = server.api("GET", "/api/camera/view.jpg", token=server.seat_token(0))
    assert (status, refusal["error"]) == (403, "forbidden")


def test_a_seat_cannot_calibrate_and_nothing_is_kept(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)
    server = playing(start_server(frames=table, camera=CAMERA))
    server.refused("/api/camera/calibrate", {}, server.seat_token(0), status=403, code="forbidden")
    server.refused("/api/camera/calibrate", {"tray": [0, 0, 10, 10]}, server.host_token, status=400, code="bad_input")
    assert not (tmp_path / "state" / "calibration.json").exists()


def test_a_tray_that_leaves_out_a_die_is_refused_and_nothing_changes(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)
    table.lay_on_table(5, seed=3)  # one die on the tray, one beside it
    server = playing(start_server(frames=table, camera=CAMERA))
    before = sorted(path.name for path in (tmp_path / "state").iterdir())
    answer = server.refused("/api/camera/calibrate", {}, server.host_token, status=409, code="calibration_refused")
    assert "leaves out 1 of the 2 dice" in answer["message"] and answer["message_ko"], answer
    assert sorted(path.name for path in (tmp_path / "state").iterdir()) == before
    assert not any(name.startswith("calibration") for name in before)
    looked_again(table)
    table.show([])
    table.lay_on_table(4, seed=3, at=(60, 300))
    snapshot = rolled(server)
    assert snapshot["dice"] is not None and snapshot["dice"]["values"] == [4], snapshot["camera"]  # no tray was set


def test_a_box_without_a_camera_says_there_is_nothing_to_calibrate(start_server: Any) -> None:
    server = start_server(camera=Camera(source="none"))
    answer = server.refused("/api/camera/calibrate", {}, server.host_token, status=409, code="no_camera")
    assert "without a dice camera" in answer["message"] and answer["message_ko"], answer
    status, refusal = server.api("GET", "/api/camera/view.jpg", token=server.host_token)
    assert (status, refusal["error"]) == (409, "no_camera")


def test_an_offline_camera_is_said_and_nothing_is_kept(tmp_path: Path, start_server: Any) -> None:
    server = playing(start_server(frames=Unplugged(), camera=CAMERA), status="offline")
    answer = server.refused("/api/camera/calibrate", {}, server.host_token, status=503, code="camera_offline")
    assert "The camera is offline" in answer["message"], answer
    assert not (tmp_path / "state" / "calibration.json").exists()


class Unplugged:
    """A camera whose cable was kicked out: every frame fails."""

    def frame(self) -> Any:
        raise OSError("no such device")


def playing(server: Any, *, status: str = "ready") -> Any:
    """The server with a new game of Through The Gate on (Ann rolls first), once the camera is `status`."""
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]},
                      token=server.host_token)[0] == 200
    state_when(server, lambda snap: snap["camera"]["status"] == status)
    return server


def rolled(server: Any) -> dict[str, Any]:
    """The table once ROLL is pressed and the camera has answered."""
    press_roll(server)
    return state_when(server, lambda snap: snap["camera"]["status"] in SETTLED)
