""""Teach the box your dice" over real HTTP, and the table learning from the rolls it plays: the dice taught
are kept in the state folder, each refusal is a sentence that changes nothing, and only the host may teach."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from camera_table import looked_again, press_roll, state_when
from companion.camera.lessons import FILE
from companion.config import Camera
from tray_scene import TableTray

CAMERA = Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2)


def playing(server: Any) -> Any:
    """The server with a new game of Through The Gate on (Ann rolls first), once the camera is ready."""
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]},
                      token=server.host_token)[0] == 200
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    return server


def rolled(server: Any) -> dict[str, Any]:
    """The table once ROLL is pressed and the camera has answered."""
    press_roll(server)
    return state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll", "read_part"))


def kept(state: Path) -> list[tuple[int, str]]:
    """The table's kept dice as (value, how), oldest first, once the worker has written them (5 s at most)."""
    deadline = time.monotonic() + 5
    rows: list[tuple[int, str]] = []
    while time.monotonic() < deadline:
        with sqlite3.connect(state / FILE) as db:
            rows = list(db.execute("SELECT value, how FROM examples ORDER BY id"))
        if rows:
            return rows
        time.sleep(0.05)
    return rows


def test_the_host_looks_at_the_tray_and_teaches_each_die_with_one_tap(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([3, 5], seed=2)
    server = start_server(frames=table, camera=CAMERA)
    status, look = server.api("POST", "/api/teach/looks", {}, token=server.host_token)
    assert status == 200, look
    assert sorted(die["value"] for die in look["dice"]) == [3, 5], look
    assert all(die["crop"].startswith("data:image/jpeg;base64,") for die in look["dice"])
    assert look["examples"] == 0 and look["learning"] is True
    values = [die["value"] for die in look["dice"]]
    values[0] = 6 if values[0] != 6 else 1  # the host corrects the first die, confirms the second
    status, taught = server.api("POST", "/api/teach/answers", {"look": look["look"], "values": values},
                                token=server.host_token)
    assert (status, taught["taught"]) == (200, 2), taught
    assert sorted(kept(tmp_path / "state")) == sorted((value, "taught") for value in values)
    status, now = server.api("GET", "/api/teach", token=server.host_token)
    assert (status, now["examples"], now["reads"]["dice"]) == (200, 2, 2), now
    reads = now["reads"]  # the reader read both sure: the first the host says is another value
    assert (reads["by"], reads["sure_right"], reads["silent"]) == ("reader", 1, 1), reads


def test_refused_answers_change_nothing_and_a_seat_cannot_teach(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([4], seed=2)
    server = start_server(frames=table, camera=CAMERA)
    look = server.api("POST", "/api/teach/looks", {}, token=server.host_token)[1]
    server.refused("/api/teach/looks", {}, server.seat_token(0), status=403, code="forbidden")
    for body in ({"look": look["look"], "values": [7]}, {"look": look["look"], "values": [True]},
                 {"look": "1", "values": [4]}, {"look": look["look"]}, {"look": look["look"], "values": [4], "x": 1}):
        server.refused("/api/teach/answers", body, server.host_token, status=400, code="bad_input")
    answer = server.refused("/api/teach/answers", {"look": look["look"], "values": [4, 4]}, server.host_token,
                            status=400, code="bad_input")
    assert "saw 1 dice" in answer["message"] and answer["message_ko"], answer
    server.refused("/api/teach/answers", {"look": look["look"] + 10, "values": [4]}, server.host_token,
                   status=409, code="not_found")
    server.refused("/api/teach/answers", {"look": look["look"], "values": [4]}, server.seat_token(0),
                   status=403, code="forbidden")
    assert server.api("GET", "/api/teach", token=server.host_token)[1]["examples"] == 0
    status, taught = server.api("POST", "/api/teach/answers", {"look": look["look"], "values": [4]}, token=server.host_token)
    assert (status, taught["taught"]) == (200, 1)
    server.refused("/api/teach/answers", {"look": look["look"], "values": [4]}, server.host_token,
                   status=409, code="not_found")  # a look is answered once


def test_the_host_switches_learning_off_and_forgets_what_was_taught(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    table.show([2], seed=2)
    server = start_server(frames=table, camera=CAMERA)
    look = server.api("POST", "/api/teach/looks", {}, token=server.host_token)[1]
    server.api("POST", "/api/teach/answers", {"look": look["look"], "values": [2]}, token=server.host_token)
    assert kept(tmp_path / "state") == [(2, "taught")]
    status, off = server.api("POST", "/api/teach/learning", {"on": False}, token=server.host_token)
    assert (status, off["learning"]) == (200, False)
    server.refused("/api/teach/learning", {"on": "no"}, server.host_token, status=400, code="bad_input")
    status, wiped = server.api("POST", "/api/teach/forget", {}, token=server.host_token)
    assert (status, wiped["examples"], wiped["learning"]) == (200, 0, False)
    server.companion.stop()
    again = start_server(frames=table, camera=CAMERA)  # the same state folder
    assert again.api("GET", "/api/teach", token=again.host_token)[1]["learning"] is False


def test_a_box_without_a_camera_has_nothing_to_teach(start_server: Any) -> None:
    server = start_server(camera=Camera(source="none"))
    status, refusal = server.api("GET", "/api/teach", token=server.host_token)
    assert (status, refusal["error"]) == (404, "not_found") and "nothing to teach" in refusal["message"]


def test_rolls_the_table_lets_stand_or_corrects_are_kept_to_learn_from(tmp_path: Path, start_server: Any) -> None:
    table = TableTray()
    server = playing(start_server(frames=table, camera=CAMERA))
    looked_again(table)
    table.show([4], seed=5)
    first = rolled(server)
    assert first["dice"]["values"] == [4], first["camera"]
    status, fixed = server.api("POST", "/api/dice/correct", {"values": [2], "sides": [6]}, token=server.host_token)
    assert status == 200, fixed
    assert kept(tmp_path / "state") == [(2, "corrected")]  # the picture of a "4" is a 2, the players say
