"""8 Gates' lists of card values (the Archivist deal, the starting Gates, the hand, the reveal) are entered by taps
on a 390-px phone, never typed; an untapped card is said beside the button before anything is sent; and no refusal
the box gives names a field as a path such as args.values[1], in English or in Korean."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import in_korean, new_game, open_page

PATH = re.compile(r"args|options\.|\[\d+\]")
OPEN_FOLDS = "() => document.querySelectorAll('details').forEach((fold) => { fold.open = true; })"


def _switch(page: Any, lang: str) -> None:
    if lang == "ko":
        in_korean(page)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_archivist_deal_is_tapped_card_by_card_and_an_untapped_card_is_said_beside_the_button(
        browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.host_token)
    page.goto(f"{server.url}/")
    _switch(page, lang)
    form = page.locator("form.move-form").filter(has=page.locator(".picker")).first
    page.evaluate(OPEN_FOLDS)
    rows = form.locator(".pick-row")
    expect(rows).to_have_count(3)  # one value picker per card
    assert form.locator("input[type=text]:not([readonly])").count() == 0  # nothing to type
    rows.nth(0).locator("button[data-value='5']").click()
    rows.nth(2).locator("button[data-value='3']").click()
    form.locator("button[type=submit]").click()
    problem = form.locator(".form-problem")
    expect(problem).to_be_visible()  # beside the button, before anything is sent
    expect(problem).to_have_text("카드마다 값을 누르세요 (1장 남음)." if lang == "ko" else "Tap a value for every card (1 left).")
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["archivist_draw"]["deals"] == []
    rows.nth(1).locator("button[data-value='2']").click()
    expect(rows.nth(1).locator("button.chosen")).to_have_text("2")
    form.locator("button[type=submit]").click()
    expect(page.locator(".notice.refusal")).to_have_count(0)
    deals = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["archivist_draw"]["deals"]
    assert deals and deals[0]["values"] == [5, 2, 3]
    assert errors == []
    context.close()


def _at_the_reveal(server: Any) -> None:
    """Plays a 3-player game of 8 Gates by the API up to the end reveal; raises AssertionError when refused."""
    host = server.host_token
    server.api("POST", "/api/actions", {"seat": 0, "move": "choose_archivist", "args": {"seat": 0}}, token=host)
    server.api("POST", "/api/actions", {"seat": 0, "move": "starting_gates", "args": {"values": [1, 3, 5]}}, token=host)
    for _ in range(40):
        table = server.api("GET", "/api/state", token=host)[1]
        if table["view"]["phase"] != "playing":
            break
        seat, cell = table["whose_turn"][0], table["view"]["legal_cells"][0]
        for move, args in (("place_gate", {**cell, "value": 6}), ("end_turn", {})):
            status, answer = server.api("POST", "/api/actions", {"seat": seat, "move": move, "args": args}, token=host)
            assert status == 200, answer
    assert server.api("GET", "/api/state", token=host)[1]["view"]["phase"] == "reveal"


def test_the_starting_gates_and_the_hand_are_tapped(browser: Any, companion_server: Any) -> None:
    server = companion_server
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    server.api("POST", "/api/actions", {"seat": 0, "move": "choose_archivist", "args": {"seat": 0}}, token=server.host_token)
    context, page, errors = open_page(browser, server, server.seat_token(0))
    form = page.locator("form.move-form").filter(has=page.locator(".picker")).first
    page.evaluate(OPEN_FOLDS)
    rows = form.locator(".field.picker").first.locator(".pick-row")
    expect(rows).to_have_count(3)
    for index, value in enumerate(("4", "1", "6")):
        rows.nth(index).locator(f"button[data-value='{value}']").click()
    form.locator("button[type=submit]").click()
    expect(page.locator(".eight-gates-middle .gate")).to_have_count(3)
    gates = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["middle"]
    assert sorted(gate["value"] for gate in gates) == [1, 4, 6]
    context.close()

    server.api("POST", "/api/game", {"game": "eight-gates", "players": ["Ann", "Bob", "Cy"],
                                      **server.ending_this_game()}, token=server.host_token)
    _at_the_reveal(server)
    context, page, errors = open_page(browser, server, server.seat_token(0))
    form = page.locator("form.move-form").filter(has=page.locator(".pick-add")).last  # Enter my hand
    page.evaluate(OPEN_FOLDS)
    for value in ("4", "5", "5", "6"):
        form.locator(f".pick-add button[data-value='{value}']").click()
    form.locator(".pick-chips button").nth(1).click()  # the first 5 taken back
    expect(form.locator("input.picked")).to_have_value("4 5 6")
    form.locator("button[type=submit]").click()
    expect(page.locator(".notice.refusal")).to_have_count(0)
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_refusal_of_a_list_names_a_path_on_either_page(browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.host_token)
    page.goto(f"{server.url}/")
    _switch(page, lang)
    said = page.evaluate("""async () => {
      const out = [];
      for (const values of [[5], [5, 9, 3], "5 9 3"]) {
        try { await window.Companion.request("POST", "/api/actions", { seat: 0, move: "deal", args: { values } }); }
        catch (error) { out.push(window.Companion.said(error)); }
      }
      return out;
    }""")
    assert len(said) == 3
    for sentence in said:
        assert not PATH.search(sentence), sentence
    if lang == "ko":
        assert said[0] == "받은 카드 값 (자리 순서대로): 정확히 3개를 입력하세요 (받은 개수: 1)."
        assert said[1] == "받은 카드 값 (자리 순서대로) 2번째: 1부터 6까지여야 합니다 (받은 값: 9)."
    else:
        assert said[0] == "The dealt values, in seat order of the contenders: enter exactly 3, not 1."
        assert said[1] == "The dealt values, in seat order of the contenders, no. 2: must be from 1 to 6, not 9."
    assert [error for error in errors if "status of 400" not in error] == []  # the refused taps' own 400s
    context.close()
