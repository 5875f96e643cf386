"""A box calibrated, then its camera knocked: the tray is followed in view, so a die by its wall is still read."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from camera_table import press_roll, state_when
from companion import config
from companion.camera import calibrate
from tray_scene import TableTray
from vision.reader import read_dice


def test_a_die_by_the_wall_is_read_after_the_camera_was_knocked(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)  # calibrated with a die on the tray, as docs/camera.md says
    path = tmp_path / "companion.toml"
    calibrate.save(path, calibrate.measure(table, read_dice, sleep=lambda seconds: None))
    saved = config.load(path).camera
    assert saved.tray is not None and saved.tray_view is not None
    table.show([])
    server = start_server(frames=table, camera=replace(saved, source="synthetic", still_seconds=0.05, frames_to_vote=2))
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    table.show([5], seed=4)
    table.knock_past_the_wall(saved.tray)
    press_roll(server)  # the die now lies, in view, outside the tray as calibrated
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll", "wrong_count"))
    assert (snapshot["camera"]["status"], snapshot["dice"]["values"]) == ("read_ok", [5]), snapshot["camera"]
