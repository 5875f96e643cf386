"""End to end: a mock ROLL press → camera frames → read → the check decided → the event stream.

The real daemon in demo mode: gpiozero MockFactory pins, the synthetic camera, the real reader,
the real SQLite journal and the real HTTP server on 127.0.0.1.
"""
from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from typing import Any

import pytest

from companion.rules.inputs import DiceRolled, Move, StartGame


def _events(port: int, token: str, found: "queue.Queue[dict[str, Any]]", stop: threading.Event) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
    answer = connection.getresponse()
    data: list[str] = []
    while not stop.is_set():
        line = answer.fp.readline().decode()
        if not line:
            return
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif line.strip() == "" and data:
            found.put(json.loads("".join(data)))
            data = []
    connection.close()


@pytest.fixture
def running(companion_server: Any) -> Any:
    """The running companion behind the server fixture."""
    return companion_server.companion


def _press(companion: Any, pin_number: int) -> None:
    pin = companion.panel._devices[0].pin_factory.pin(pin_number)
    pin.drive_low()
    pin.drive_high()


def _wait_for(found: "queue.Queue[dict[str, Any]]", wanted: Any, seconds: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            snapshot = found.get(timeout=0.2)
        except queue.Empty:
            continue
        if wanted(snapshot):
            return snapshot
    raise AssertionError("the event stream never delivered the expected snapshot")


def _roll_until_read(companion: Any, found: "queue.Queue[dict[str, Any]]", wanted: Any) -> dict[str, Any]:
    """Press ROLL until the camera reads (it may ask for a re-roll, as at a real table)."""
    for _attempt in range(4):
        _press(companion, companion.config.pins.roll)
        answer = _wait_for(found, lambda snapshot: wanted(snapshot) or snapshot["camera"]["status"] == "reroll")
        if wanted(answer):
            return answer
    raise AssertionError("the camera never read the dice in four rolls")


def test_roll_button_reads_the_dice_and_the_stream_delivers_the_verdict(running: Any) -> None:
    loop = running.loop
    loop.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 5), source="host")
    found: queue.Queue[dict[str, Any]] = queue.Queue()
    stop = threading.Event()
    listener = threading.Thread(target=_events, args=(running.port, loop.tokens.host_token(), found, stop), daemon=True)
    listener.start()
    first = _wait_for(found, lambda snapshot: snapshot["game"] == "through-the-gate")
    assert first["awaiting_dice"]["why"] == "Ann rolls for first player."

    read = _roll_until_read(running, found, lambda snapshot: snapshot["view"]["roll_off"] and snapshot["view"]["roll_off"]["rolls"])
    assert read["dice"]["origins"] == ["camera"] and len(read["dice"]["crops"]) == 1
    camera_value = read["dice"]["values"][0]
    assert read["view"]["roll_off"]["rolls"] == [camera_value]
    status, crop = _get(running.port, read["dice"]["crops"][0], loop.tokens.host_token())
    assert status == 200 and crop[:2] == b"\xff\xd8"  # a JPEG of what the camera saw

    # Bob's roll by hand, then (whoever starts) a speed and an item check decided by the camera.
    table = loop.submit(DiceRolled((camera_value % 6 + 1,), (6,)), source="phone")
    current = table["view"]["current"]
    loop.submit(Move(current, "declare_speed", {"speed": 4}), source="phone")
    loop.submit(Move(current, "check", {"kind": "item"}), source="phone")
    decided = _roll_until_read(running, found, lambda snapshot: snapshot["view"]["check"] and not snapshot["view"]["check"]["awaiting"])
    check = decided["view"]["check"]
    assert check["dice"][0]["raw"] == decided["dice"]["values"][0]
    kept = check["dice"][0]["value"] >= 4
    assert check["verdict"].endswith("the item is kept." if kept else "the item is overlooked and discarded.")
    assert decided["lights"]["status"] == "read_ok"
    stop.set()


def _get(port: int, path: str, token: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    answer = connection.getresponse()
    return answer.status, answer.read()
