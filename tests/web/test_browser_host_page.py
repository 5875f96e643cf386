"""The host's page in a real headless Chromium against the real companion on 127.0.0.1: the host's typing outlives
a redraw, an option's label says what the option does, long names stay in their QR captions, and a seat a new game
gives to someone else gets a new QR code."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import PHONE, in_korean, new_game, open_page

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


# --- 1. the host's typing survives a redraw ---------------------------------------------------
def typed_form(page: Any) -> dict[str, str]:
    return {"name-0": page.locator("#name-0").input_value(), "name-1": page.locator("#name-1").input_value(),
            "hourglasses": page.locator("#f-options-hourglasses").input_value(),
            "variant": page.locator("#f-options-variant").input_value()}


def test_what_the_host_typed_survives_every_redraw_and_starts_the_game(browser, companion_server):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator("#name-0")).to_have_value("Ann")
    page.locator("#name-0").fill("Cy")
    page.locator("#name-1").fill("Di")
    page.locator("#f-options-hourglasses").fill("3")
    page.locator("#f-options-variant").select_option(label="Against the Ice Queen")
    typed = typed_form(page)
    assert typed == {"name-0": "Cy", "name-1": "Di", "hourglasses": "3", "variant": "1"}

    page.get_by_role("button", name="New QR code").first.click()  # a new QR code for Ann: the page redraws
    expect(page.locator(".qr img").first).to_have_attribute("src", re.compile(r"/api/seats/0/qr\.svg\?v=\d+-1$"))
    assert typed_form(page) == typed
    in_korean(page)  # the language changes: the page redraws
    expect(page.get_by_role("button", name="게임 시작")).to_be_visible()
    assert typed_form(page) == typed
    page.get_by_role("button", name="+ 플레이어").click()  # a third player: the page redraws
    expect(page.locator("#name-2")).to_have_value("")
    assert typed_form(page) == typed

    page.locator("#name-2").fill("Ed")
    page.get_by_role("button", name="게임 시작").click()
    expect(page.locator(".qr figcaption b")).to_have_text(["Cy", "Di", "Ed"])
    assert typed_form(page) == typed  # the form still holds what was typed, for the next game
    snap = server.api("GET", "/api/state", token=server.host_token)[1]
    assert snap["players"] == ["Cy", "Di", "Ed"] and snap["view"]["mode"] == "ice_queen"
    assert [player["hourglasses"] for player in snap["view"]["players"]] == [3, 3, 3]
    assert errors == []
    context.close()


# --- 2. Gateway's option says what it does ----------------------------------------------------
def test_the_gateway_rescue_option_is_labelled_as_the_creatures_to_rescue(browser, companion_server):
    server = companion_server
    context, page, errors = open_page(browser, server, server.host_token)
    page.locator("#game-choice").select_option("gateway-rescue")
    label = page.locator("label[for=f-options-creatures] > span")
    expect(label).to_have_text("Creatures to rescue")
    expect(page.locator("#f-options-creatures")).to_have_value("6")
    in_korean(page)
    expect(label).to_have_text("구출할 생물 수")
    page.locator("#f-options-creatures").fill("2")
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("Bob")
    page.get_by_role("button", name="게임 시작").click()
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    view = server.api("GET", "/api/state", token=server.host_token)[1]["view"]
    assert (view["creatures_total"], view["creatures_left"]) == (2, 2)  # what the option does: creatures to rescue
    assert errors == []
    context.close()


# --- 3. long names stay inside the QR captions ------------------------------------------------
OUTSIDE = """figures => figures.flatMap((figure) => {
    const box = figure.getBoundingClientRect();
    const caption = figure.querySelector("figcaption");
    const name = caption.querySelector("b");
    const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
    const wrong = [];
    if (!inside(caption.getBoundingClientRect(), box)) wrong.push("caption wider than its QR code");
    if (!inside(name.getBoundingClientRect(), caption.getBoundingClientRect())) wrong.push("name outside its caption");
    if (name.scrollWidth > name.clientWidth + 0.5) wrong.push("name overflows");
    if (!inside(box, figure.closest("section").getBoundingClientRect())) wrong.push("QR code outside the seats box");
    return wrong.map((what) => `${name.textContent}: ${what}`);
})"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone-390", "desktop-1280"])
def test_long_names_stay_inside_their_qr_captions(browser, companion_server, device, tmp_path):
    server = companion_server
    names = ["W" * 24, "김수한무거북이와두루미삼천갑자동방삭치치카", "Ann"]
    new_game(server, "through-the-gate", names)
    context, page, errors = open_page(browser, server, server.host_token, device)
    expect(page.locator(".qr figcaption b")).to_have_text(names)
    page.screenshot(path=tmp_path / "host-long-names.png", full_page=True)
    assert page.locator(".qr").evaluate_all(OUTSIDE) == []
    width = device["viewport"]["width"]  # (a phone widens innerWidth to a page too wide: compare with the screen)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page does not scroll sideways
    assert errors == []
    context.close()


# --- 4. a seat a new game gives to someone else gets a new QR code ----------------------------
def test_the_host_page_asks_again_for_the_qr_code_of_a_seat_a_new_game_gives_to_someone_else(browser, companion_server):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token, DESKTOP)
    seat_1 = page.locator(".qr img").nth(1)
    expect(seat_1).to_have_attribute("alt", "QR Bob")
    before = seat_1.get_attribute("src")
    page.locator("#name-1").fill("Cy")
    page.get_by_role("button", name="Start the game").click()  # Bob's link no longer works: Cy needs the new one
    expect(seat_1).to_have_attribute("alt", "QR Cy")
    assert seat_1.get_attribute("src") != before  # a new address, so no browser shows the old code from its cache
    assert errors == []
    context.close()
