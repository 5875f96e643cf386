"""The Korean host page on a 390-px phone is Korean throughout: its title, every game's description, the live
badge at once on the switch, and a refusal of a blank name that names the field, in both languages."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import in_korean, open_page

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
ROMAN = re.compile(r"[IVX]+")  # Event Cards III: a numeral, not a word
SHOWN_TEXT = """() => {
  const words = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const box = node.parentElement;
    if (!box || box.closest("[lang=en], [translate=no], option, script, style") || !box.getClientRects().length) continue;
    if (getComputedStyle(box).visibility === "hidden") continue;
    words.push(node.textContent.trim());
  }
  return words.filter(Boolean);
}"""


def _english_left(page: Any, allowed: set[str]) -> list[str]:
    """The shown texts of the page with an English word not in `allowed` (player names, game titles, QR)."""
    return [text for text in page.evaluate(SHOWN_TEXT)
            if any(word not in allowed and not ROMAN.fullmatch(word) for word in LATIN_WORD.findall(text))]


def test_the_korean_host_page_says_every_word_in_korean_for_every_game(browser: Any, companion_server: Any) -> None:
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator(".host-new")).to_be_visible()
    expect(page.locator("#live")).to_have_text("live")
    in_korean(page)
    expect(page.locator("#title")).to_have_text("호스트")
    expect(page.locator("#live")).to_have_text("연결됨")  # at once, not when the stream reconnects
    assert page.title().startswith("호스트")
    games = server.api("GET", "/api/games", token=server.host_token)[1]
    names = [name for past in server.api("GET", "/api/history", token=server.host_token)[1] for name in past["players"]]
    formats = {"QR", "CSV", "JSON"}  # written so on a Korean page too
    allowed = formats | {word for text in names + [game["title"] for game in games] for word in LATIN_WORD.findall(text)}
    for game in games:
        page.locator("#game-choice").select_option(game["id"])
        expect(page.locator(".host-new")).to_have_attribute("data-game", game["id"])
        expect(page.locator(".game-summary")).not_to_have_text(game["summary"])
        assert _english_left(page, allowed) == [], game["id"]
    page.locator("[data-lang=en]").click()
    expect(page.locator("#title")).to_have_text("Host")
    expect(page.locator(".game-summary")).to_have_text(games[-1]["summary"])
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_blank_name_is_refused_beside_the_names_naming_the_field(browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    before = server.api("GET", "/api/state", token=server.host_token)[1]["game_no"]
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator(".host-new")).to_be_visible()
    if lang == "ko":
        in_korean(page)
    page.locator("#game-choice").select_option("through-the-gate")
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("  ")
    page.locator(".start-form button[type=submit]").click()
    problem = page.locator(".names .form-problem")
    expect(problem).to_have_text("플레이어 2의 이름이 없습니다: ‘플레이어 2’ 칸에 입력하세요." if lang == "ko"
                                 else "Player 2 needs a name: type it in the field “Player 2”.")
    expect(page.locator("#name-1")).to_be_focused()
    assert server.api("GET", "/api/state", token=server.host_token)[1]["game_no"] == before  # nothing was sent
    assert page.locator(".notice.refusal").count() == 0
    page.locator("#name-1").fill("Bob")
    page.locator(".start-form button[type=submit]").click()
    expect(page.locator(".names .form-problem")).to_have_count(0)
    expect(page.locator(".host-seats figcaption b")).to_have_text(["Ann", "Bob"])
    assert errors == []
    context.close()
