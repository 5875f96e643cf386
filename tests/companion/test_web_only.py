"""GPIO unavailable (this machine has no gpiochip): the companion runs web-only with a warning, which the host's
page shows, as it shows every warning at start, in English and in Korean."""
from __future__ import annotations

import json
import re
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import Camera, Config, GameConfig, Pins
from companion.daemon import build

HANGUL = re.compile("[\uac00-\ud7a3]")


def _call(port: int, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers,
                                  method="GET" if body is None else "POST")
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def told(port: int, token: str, count: int = 1) -> list[dict[str, Any]]:
    """The notices the host's page shows, once it shows `count` (10 s at most); raises AssertionError."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        notices = _call(port, "/api/state", token)[1]["notices"]
        if len(notices) >= count:
            return notices
        time.sleep(0.05)
    raise AssertionError(f"the host's page never showed {count} notices")


def in_both_languages(notices: list[dict[str, Any]]) -> bool:
    """Whether every notice has a Korean twin written in Korean."""
    return all(HANGUL.search(notice["message_ko"] or "") and notice["message_ko"] != notice["message"]
               for notice in notices)


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
        notices = told(companion.port, token)
        assert [notice["message"] for notice in notices] == companion.warnings  # the host sees no log
        assert in_both_languages(notices)
        status, shown = _call(companion.port, "/api/dice", token, {"values": [4], "sides": [6]})
        assert status == 200 and shown["view"]["roll_off"]["rolls"] == [4]
    finally:
        companion.stop()


def test_every_warning_at_start_reaches_the_host_page_in_english_and_korean(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    first = Config(host="127.0.0.1", port=0, advertise="127.0.0.1", state=state, demo=True,
                   game=GameConfig("through-the-gate", ("Ann", "Bob"), {}))
    build(first).stop()  # the table's first game
    (state / "calibration.json").write_text("{not json")
    box = replace(first, demo=False, game=GameConfig("through-the-gate", ("Ann", "Bob"), {"hourglasses": 0}),
                  pins=Pins(factory="mock"),  # a laptop's settings left in a real box's config
                  camera=Camera(source="synthetic", tray=(0, 0, 640, 480), tray_view=tmp_path / "gone.png"))
    companion = build(box)
    companion.start()
    try:
        assert len(companion.warnings) == 5, companion.warnings
        notices = told(companion.port, companion.loop.tokens.host_token(), count=5)
        assert sorted(notice["message"] for notice in notices) == sorted(companion.warnings)
        assert in_both_languages(notices), notices
    finally:
        companion.stop()
