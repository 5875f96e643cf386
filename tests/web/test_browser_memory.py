"""The memory's pages in a real headless Chromium on a 390x844 phone, after seeded games through the API: the
history, one game replayed, a player's page and the dice page, in English and in Korean; screenshots kept."""
from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from memory_games import call, play_game
from vision.sources import SyntheticCamera
from phone_browser import open_page

GAMES = (("through-the-gate", ["Ann", "Bob"]), ("through-the-gate", ["Ann", "Cy"]), ("gateway-rescue", ["Bob", "Ann"]))


@pytest.fixture
def history(start_server: Any) -> Any:
    """The real companion after three seeded games played through its API, some rolls read by its camera."""
    server = start_server(frames=SyntheticCamera(11, dice=1))
    rng = random.Random(5)
    for game, players in GAMES:
        play_game(server, game, players, rng, Counter(), thrown={})
    return server


def counted(server: Any, name: str) -> None:
    """Wait until the player's all-time luck rests on every past game (they are replayed once, in the background)."""
    deadline = time.monotonic() + 30
    while call(server, "GET", f"/api/players/{name}", None, server.host_token)[1]["luck"]["counting"]:
        assert time.monotonic() < deadline, "the past games were never all counted"
        time.sleep(0.1)


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_MEMORY") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_history_replay_player_and_dice_pages_in_both_languages(browser, history, tmp_path):
    folder = shots(tmp_path)
    context, page, errors = open_page(browser, history, history.host_token)
    page.goto(f"{history.url}/history")
    plays = page.locator("li.play")
    expect(plays).to_have_count(3)
    expect(plays.first).to_contain_text("Gateway")
    expect(page.get_by_text("Log this play in BG Stats").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(folder / "history.png"))

    first = plays.last.get_attribute("data-play")
    page.goto(f"{history.url}/history/{first}")
    expect(page.locator(".step-now")).to_contain_text("Step")
    last = page.locator(".step-now").inner_text()
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".step-now")).not_to_have_text(last)
    expect(page.locator("section.game")).to_be_visible()
    page.screenshot(path=str(folder / "replay.png"))

    counted(history, "ann")
    page.goto(f"{history.url}/players/ann")
    expect(page.locator("h2")).to_have_text("Ann")
    expect(page.locator("svg.chart.scores")).to_be_visible()
    expect(page.locator("table tbody tr")).to_have_count(2)
    expect(page.get_by_text("Luck, all time")).to_be_visible()
    expect(page.locator(".luck-all")).to_have_text(re.compile(r"^[+-]\d\.\d\d a die over \d+ di(e|ce)$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(folder / "player.png"), full_page=True)

    page.goto(f"{history.url}/dice")
    six = page.locator("section.kind[data-sides='6']").first
    expect(six.locator(".verdict")).to_contain_text("d6")
    expect(six.locator("svg.chart.faces rect.bar")).to_have_count(6)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(folder / "dice-en.png"), full_page=True)
    page.locator("[data-lang=ko]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator("h2").first).to_have_text("주사위")
    expect(six.locator(".verdict")).to_contain_text("d6")
    expect(page.locator(".verdict").first).to_contain_text("번")
    page.screenshot(path=str(folder / "dice-ko.png"), full_page=True)
    page.goto(f"{history.url}/players/ann")
    expect(page.locator(".luck-all")).to_have_text(re.compile(r"^주사위 \d+개 기준 주사위당 [+-]\d\.\d\d$"))
    expect(page.get_by_text("전체 기간의 운")).to_be_visible()
    page.screenshot(path=str(folder / "player-ko.png"), full_page=True)
    page.goto(f"{history.url}/history")
    expect(page.get_by_text("BG Stats에 이 게임 기록하기").first).to_be_visible()
    page.screenshot(path=str(folder / "history-ko.png"))
    assert not errors, errors
    context.close()
