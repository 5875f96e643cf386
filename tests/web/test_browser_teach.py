""""Teach the box your dice" in a real browser at 390x844: from the host page to the teaching page, one tap a die
(the lit value confirms, another corrects), the count moves, and the Korean page says the same."""
from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from camera_table import state_when
from companion.config import Camera
from phone_browser import in_korean, open_page
from tray_scene import TableTray

CAMERA = Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2)
HANGUL = re.compile("[\uac00-\ud7a3]")


def test_the_host_teaches_two_dice_and_sees_the_count_move(browser: Any, start_server: Any) -> None:
    table = TableTray()
    table.show([2, 6], seed=2)
    server = start_server(frames=table, camera=CAMERA)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    context, page, errors = open_page(browser, server, server.host_token)
    page.locator(".teach-link a").click()
    expect(page.locator(".teach-count")).to_have_text("The box has been taught 0 dice.")
    page.locator(".teach-look-now").click()
    dice = page.locator(".teach-die")
    expect(dice).to_have_count(2)
    expect(page.locator(".teach-send")).to_be_disabled()  # nothing answered yet
    for index in range(2):  # the reading is lit: one tap on it confirms the die
        dice.nth(index).locator(".teach-value.read").click()
    expect(page.locator(".teach-answered")).to_have_text("2 of 2 dice answered")
    page.locator(".teach-send").click()
    expect(page.locator(".teach-count")).to_have_text("The box has been taught 2 dice.")
    expect(page.locator(".notice.info")).to_have_text("Taught 2 dice.")
    assert server.api("GET", "/api/teach", token=server.host_token)[1]["examples"] == 2
    page.locator(".teach-look-now").click()
    expect(dice).to_have_count(2)
    dice.nth(0).locator(".teach-value[data-value='5']").click()  # a correction: this die is taught as a 5
    page.screenshot(path=str(server.companion.journal.path.parent / "look.png"))
    page.locator(".teach-send").click()
    expect(page.locator(".teach-count")).to_have_text("The box has been taught 3 dice.")
    in_korean(page)
    expect(page.locator(".teach-count")).to_have_text("상자가 배운 주사위: 3개.")
    expect(page.locator(".notice.info")).to_have_text("주사위 1개를 가르쳤습니다.")
    assert HANGUL.search(page.locator("h2").inner_text())
    page.screenshot(path=str(server.companion.journal.path.parent / "teach.png"))
    assert errors == []
    context.close()
