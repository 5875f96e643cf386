"""An unsure read over real HTTP: the phones get the camera's guess and crops to check, and a hand roll ends it."""
from __future__ import annotations

from typing import Any

import jsonschema_rs

from companion.camera.roll_sentences import REROLL_MESSAGE
from camera_table import state_when
from companion.camera.roller import RollResult
from unsure_reads import answer_now, unsure_read
from web.openapi import document


def guessed(snapshot: dict[str, Any]) -> bool:
    """Whether the snapshot carries a camera guess."""
    return snapshot["camera"]["guess"] is not None


def test_an_unsure_read_shows_its_guess_and_crop_until_the_roll_is_entered(companion_server: Any) -> None:
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    server.companion.loop.enqueue(answer_now(server.companion.loop, unsure_read(4)))
    snapshot = state_when(server, guessed)
    camera = snapshot["camera"]
    assert camera["status"] == "reroll" and camera["message"] == REROLL_MESSAGE
    assert camera["guess"]["values"] == [4] and camera["guess"]["sides"] == [6]
    spec = document()
    schema = {"$ref": "#/components/schemas/Snapshot", "components": spec["components"]}
    jsonschema_rs.Draft202012Validator(schema, validate_formats=False).validate(snapshot)
    crop_url = camera["guess"]["crops"][0]
    status, image = server.api("GET", crop_url, token=server.seat_token(1))
    assert status == 200 and image[:2] == b"\xff\xd8"  # any seat sees what the camera saw

    status, after = server.api("POST", "/api/dice", {"values": [4], "sides": [6]}, token=server.seat_token(0))
    assert status == 200 and after["view"]["roll_off"]["rolls"] == [4]
    assert after["camera"]["guess"] is None and after["dice"]["origins"] == ["phone"]
    assert server.api("GET", crop_url, token=server.seat_token(1))[0] == 404


def test_a_die_the_camera_could_not_read_at_all_is_guessed_as_null(companion_server: Any) -> None:
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    server.companion.loop.enqueue(answer_now(server.companion.loop, unsure_read(None)))
    assert state_when(server, guessed)["camera"]["guess"]["values"] == [None]
    nothing_seen = RollResult("reroll", message="The dice never settled — please roll again.")
    server.companion.loop.enqueue(answer_now(server.companion.loop, nothing_seen))
    state_when(server, lambda snapshot: not guessed(snapshot))  # a re-roll that saw nothing drops the old guess
