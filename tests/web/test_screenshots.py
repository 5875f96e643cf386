"""The README's screenshots, taken in a real headless Chromium from a scripted game of Through The Gate on the
real companion: the host's page, Ann's phone with her roll on it, and the same phone on the Korean page.

In the suite they go to a temporary folder; `make screenshots` sets SCREENSHOTS=docs/img to refresh the README's."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import numpy
from playwright.sync_api import expect

from phone_browser import PHONE, in_korean, new_game, open_page

PLAYERS = ["Ann", "Bob", "Cy"]
SHRINK = 0.5  # the phone draws at twice the CSS pixels: half of it is the phone's own 390 px wide
MOST_BYTES = 100_000  # a screenshot in the README stays small
SEATS_UNDER_THE_BAR = """figure => {
    const seats = figure.closest("section"), bar = document.querySelector("header.bar");
    window.scrollTo(0, window.scrollY + seats.getBoundingClientRect().top - bar.getBoundingClientRect().height - 8);
}"""  # the host's page scrolled to its seats' QR codes, their heading just below the page's sticky bar


def screenshot_folder(tmp_path: Path) -> Path:
    """Where the screenshots go: $SCREENSHOTS (docs/img under `make screenshots`) or the test's temporary folder;
    raises OSError when the folder cannot be made."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save_small(page: Any, path: Path) -> Path:
    """The page's screenshot as a PNG at half its device pixels, compressed hard; raises OSError when it cannot be
    written, playwright's Error when the page cannot be shot."""
    shot = cv2.imdecode(numpy.frombuffer(page.screenshot(), dtype=numpy.uint8), cv2.IMREAD_COLOR)
    small = cv2.resize(shot, None, fx=SHRINK, fy=SHRINK, interpolation=cv2.INTER_AREA)
    if not cv2.imwrite(str(path), small, [cv2.IMWRITE_PNG_COMPRESSION, 9]):
        raise OSError(f"could not write {path}")
    return path


def scripted_game(server: Any) -> str:
    """Through The Gate for Ann, Bob and Cy: the roll for first player (Ann's 6), Ann's speed 4, then a roll check
    she passes with a 3; returns Ann's token."""
    new_game(server, "through-the-gate", PLAYERS)
    tokens = [server.seat_token(seat) for seat in range(len(PLAYERS))]
    for token, value in zip(tokens, (6, 2, 3)):
        assert server.api("POST", "/api/dice", {"values": [value], "sides": [6]}, token=token)[0] == 200
    server.act(tokens[0], 0, "declare_speed", speed=4)
    server.act(tokens[0], 0, "check", kind="less")
    assert server.api("POST", "/api/dice", {"values": [3], "sides": [6]}, token=tokens[0])[0] == 200
    return tokens[0]


def test_the_readmes_screenshots_show_a_scripted_game(browser, companion_server, tmp_path):
    server = companion_server
    ann = scripted_game(server)
    folder = screenshot_folder(tmp_path)

    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator(".qr figcaption b")).to_have_text(PLAYERS)
    expect(page.locator(".host-history")).to_contain_text("Ann, Bob, Cy")
    page.locator(".qr").first.evaluate(SEATS_UNDER_THE_BAR)
    shots = [save_small(page, folder / "host.png")]
    context.close()

    context, page, phone_errors = open_page(browser, server, ann)
    expect(page.locator(".who")).to_contain_text("Ann")
    expect(page.locator(".ttg-verdict")).to_contain_text("3 < 4")
    shots.append(save_small(page, folder / "phone.png"))
    in_korean(page)
    expect(page.locator(".ttg-verdict")).to_contain_text("굴린 값 3 (속도 4): 3 < 4? 예.")
    shots.append(save_small(page, folder / "phone-ko.png"))
    context.close()

    for path in shots:
        image = cv2.imread(str(path))
        assert image is not None and image.shape[1] == PHONE["viewport"]["width"], path
        assert path.stat().st_size < MOST_BYTES, (path, path.stat().st_size)
    assert errors == [] and phone_errors == []
