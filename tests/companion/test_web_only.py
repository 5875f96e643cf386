"""GPIO unavailable (this machine has no gpiochip): the companion runs web-only with a warning, which the host's
page shows."""
from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from companion.config import Camera, Config, Pins
from companion.daemon import build


def _call(port: int, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers,
                                  method="GET" if body is None else "POST")
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def told(port: int, token: str) -> list[str]:
    """The notices the host's page shows, once it shows any (10 s at most); raises AssertionError."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        notices = _call(port, "/api/state", token)[1]["notices"]
        if notices:
            return [notice["message"] for notice in notices]
        time.sleep(0.05)
    raise AssertionError("the host's page never showed a notice")


def test_without_gpio_the_table_is_served_on_the_web_with_a_warning(tmp_path: Path) -> None:
    assert not list(Path("/dev").glob("gpiochip*")), "this test needs a machine without GPIO"
    config = Config(host="127.0.0.1", port=0, advertise="127.0.0.1", state=tmp_path,
                    pins=Pins(factory="lgpio"), camera=Camera(source="none"))
    companion = build(config)
    companion.start()
    try:
        assert companion.panel is None
        assert any("GPIO unavailable" in warning and "web-only" in warning for warning in companion.warnings)
        token = companion.loop.tokens.host_token()
        status, shown = _call(companion.port, "/api/state", token)
        assert status == 200 and shown["game"] == "through-the-gate"
        assert told(companion.port, token) == companion.warnings  # the host sees no log
        status, shown = _call(companion.port, "/api/dice", token, {"values": [4], "sides": [6]})
        assert status == 200 and shown["view"]["roll_off"]["rolls"] == [4]
    finally:
        companion.stop()
