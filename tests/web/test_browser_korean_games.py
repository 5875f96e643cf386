"""The Korean page of the four English-language games: the log, why a roll is awaited and the rules'
refusals come in Korean (the box's twins: log_ko, why_ko, message_ko), and in English again on a switch;
the page's own count words are singular for one in English and unchanged in Korean."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import in_korean, new_game, open_page

HANGUL = re.compile("[\uac00-\ud7a3]")
OUT_OF_TURN = {"seat": 1, "move": "end_turn", "args": {}}
SAID_OF_A_TAP = """async (body) => {
  try { await window.Companion.request("POST", "/api/actions", body); return null; }
  catch (error) { return window.Companion.said(error); }
}"""
PLAYERS = {"through-the-gate": ["Ann", "Bob"], "eight-gates": ["Ann", "Bob", "Cy"],
           "gateway-rescue": ["Ann", "Bob"], "gateway-city": ["Ann", "Bob"]}


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_korean_page_shows_an_english_language_games_log_and_awaited_roll_in_korean(
        browser: Any, companion_server: Any, game: str) -> None:
    server = companion_server
    table = new_game(server, game, PLAYERS[game])
    context, page, errors = open_page(browser, server, server.seat_token(0))
    expect(page.locator(".log li").first).to_have_text(table["view"]["log"][-1])
    in_korean(page)
    expect(page.locator(".log li").first).to_have_text(table["view"]["log_ko"][-1])
    assert all(HANGUL.search(line) for line in page.locator(".log li").all_inner_texts())
    wait = table["awaiting_dice"]
    if wait is not None:
        expect(page.locator(".roll .why")).to_have_text(wait["why_ko"])
        assert HANGUL.search(wait["why_ko"])
    page.locator("[data-lang=en]").click()
    expect(page.locator(".log li").first).to_have_text(table["view"]["log"][-1])
    assert errors == []
    context.close()


def test_a_refusal_of_the_rules_comes_with_its_korean_and_the_korean_page_says_it(browser: Any,
                                                                                    companion_server: Any) -> None:
    server = companion_server
    new_game(server, "gateway-rescue", ["Ann", "Bob"])
    status, refusal = server.api("POST", "/api/actions", OUT_OF_TURN,
                                 token=server.seat_token(1))  # Bob, out of turn, before the first-player rolls
    assert status == 409 and refusal["message"] and HANGUL.search(refusal["message_ko"]), refusal
    context, page, errors = open_page(browser, server, server.seat_token(1))
    in_korean(page)
    assert page.evaluate(SAID_OF_A_TAP, OUT_OF_TURN) == refusal["message_ko"]  # as the page's own request gets it
    page.locator("[data-lang=en]").click()
    assert page.evaluate(SAID_OF_A_TAP, OUT_OF_TURN) == refusal["message"]
    assert errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"] * 2  # the two taps
    context.close()


def test_a_count_of_one_is_singular_in_english_and_the_korean_page_keeps_its_own_words(browser: Any,
                                                                                        companion_server: Any) -> None:
    server = companion_server
    new_game(server, "gateway-rescue", ["Ann", "Bob"])
    for seat, value in ((0, 2), (1, 5)):  # the lowest D6 goes first: Ann
        assert server.api("POST", "/api/dice", {"values": [value], "sides": [6]}, token=server.seat_token(seat))[0] == 200
    server.act(server.seat_token(0), 0, "move")  # Ann moves: her D6 says how far
    assert server.api("POST", "/api/dice", {"values": [1], "sides": [6]}, token=server.seat_token(0))[0] == 200
    context, page, errors = open_page(browser, server, server.seat_token(0))
    expect(page.locator(".gr-allowance")).to_have_text("👣 Move up to 1 step (never diagonally).")
    expect(page.locator(".gr-last")).to_have_text("Ann rolled D6 1 (phone): up to 1 step.")
    in_korean(page)
    expect(page.locator(".gr-allowance")).to_have_text("👣 최대 1칸 이동 (대각선 불가).")
    assert errors == []
    context.close()
