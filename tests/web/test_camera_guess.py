"""An unsure read over real HTTP: the phones get the camera's guess and crops to check, and a hand roll ends it."""
from __future__ import annotations

import http.client
import time
from typing import Any

import jsonschema_rs

from companion.loop import Job
from companion.roller import REROLL_MESSAGE, RollResult
from unsure_reads import unsure_read
from web.openapi import document


def shown_guess(server: Any) -> dict[str, Any]:
    """The host's snapshot once the camera's guess is published."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status, snapshot = server.api("GET", "/api/state", token=server.host_token)
        if status == 200 and snapshot["camera"]["guess"] is not None:
            return snapshot
        time.sleep(0.05)
    raise AssertionError("the camera's guess never reached the phones")


def get_bytes(server: Any, path: str, token: str) -> tuple[int, bytes]:
    """One GET on 127.0.0.1, the raw body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.companion.port, timeout=10)
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, body


def test_an_unsure_read_shows_its_guess_and_crop_until_the_roll_is_entered(companion_server: Any) -> None:
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    server.companion.loop.enqueue(Job("camera", unsure_read(4)))
    snapshot = shown_guess(server)
    camera = snapshot["camera"]
    assert camera["status"] == "reroll" and camera["message"] == REROLL_MESSAGE
    assert camera["guess"]["values"] == [4] and camera["guess"]["sides"] == [6]
    spec = document()
    schema = {"$ref": "#/components/schemas/Snapshot", "components": spec["components"]}
    jsonschema_rs.Draft202012Validator(schema, validate_formats=False).validate(snapshot)
    crop_url = camera["guess"]["crops"][0]
    status, image = get_bytes(server, crop_url, server.seat_token(1))
    assert status == 200 and image[:2] == b"\xff\xd8"  # any seat sees what the camera saw

    status, after = server.api("POST", "/api/dice", {"values": [4], "sides": [6]}, token=server.seat_token(0))
    assert status == 200 and after["view"]["roll_off"]["rolls"] == [4]
    assert after["camera"]["guess"] is None and after["dice"]["origins"] == ["phone"]
    assert get_bytes(server, crop_url, server.seat_token(1))[0] == 404


def test_a_die_the_camera_could_not_read_at_all_is_guessed_as_null(companion_server: Any) -> None:
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    server.companion.loop.enqueue(Job("camera", unsure_read(None)))
    assert shown_guess(server)["camera"]["guess"]["values"] == [None]
    server.companion.loop.enqueue(Job("camera", RollResult("reroll", message="The dice never settled — please roll again.")))
    deadline = time.monotonic() + 10
    while server.api("GET", "/api/state", token=server.host_token)[1]["camera"]["guess"] is not None:
        assert time.monotonic() < deadline, "a re-roll that saw nothing kept the old guess"
        time.sleep(0.05)
