"""Gateway (the city) on a phone in a real headless Chromium: planning an attack, and a rematch."""
from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from phone_browser import PHONE

OPTIONS = {"event_cards_1": 1, "event_cards_2": 1, "event_cards_3": 0, "shuffle_tokens": False}


def to_the_attack_phase(server: Any, *, ending: bool = False) -> None:
    """A new game for Ann and Bo (`ending`: over the unfinished one), with Ann in her attack phase."""
    game = {"game": "gateway-city", "players": ["Ann", "Bo"], "options": OPTIONS,
            **(server.ending_this_game() if ending else {})}
    status, snapshot = server.api("POST", "/api/game", game, token=server.host_token)
    assert status == 200 and snapshot["whose_turn"] == [0], snapshot
    for _ in range(2):  # deployment, drafting
        server.act(server.seat_token(0), 0, "next_phase")
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["phase"] == "attack"


def anns_phone(browser: Any, server: Any) -> Any:
    """Ann's phone, joined and showing the attack form; returns the page."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.url}/join?token={server.seat_token(0)}")
    expect(page.locator("#gc-attack-district")).to_be_visible()
    return page


def test_the_attack_preview_waits_for_a_chosen_district(browser: Any, companion_server: Any) -> None:
    server = companion_server
    to_the_attack_phase(server)
    page = anns_phone(browser, server)
    preview = page.get_by_role("button", name="Preview")
    expect(preview).to_be_disabled()  # it used to attack district 1 when none was chosen
    expect(page.get_by_text("Choose the district to attack first.")).to_be_visible()
    page.locator("#gc-attack-district").select_option(label="2. District 2")
    expect(preview).to_be_enabled()
    preview.tap()
    expect(page.get_by_role("heading", name="Battle preview")).to_be_visible()  # the attack went through
    battle = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["battle"]
    assert battle is not None and battle["district"] == 2, battle


def test_a_rematch_forgets_the_attack_planned_in_the_last_game(browser: Any, companion_server: Any) -> None:
    server = companion_server
    to_the_attack_phase(server)
    page = anns_phone(browser, server)
    first_game = server.api("GET", "/api/state", token=server.host_token)[1]["game_no"]
    page.locator("#gc-attack-district").select_option(label="3. District 3")
    page.locator("#gc-attack-runestones").fill("4")
    page.locator("#gc-attack-runestones").blur()
    to_the_attack_phase(server, ending=True)  # the same players start again: the same turn, the same phase
    assert server.api("GET", "/api/state", token=server.host_token)[1]["game_no"] == first_game + 1
    expect(page.locator("#gc-attack-runestones")).to_have_value("0")
    expect(page.locator("#gc-attack-district")).to_have_value("0")  # "—": no district chosen
    expect(page.get_by_role("button", name="Preview")).to_be_disabled()


def test_every_new_game_option_has_a_korean_label(browser: Any, companion_server: Any) -> None:
    server = companion_server
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.url}/join?token={server.host_token}")
    page.locator("#game-choice").select_option("gateway-city")
    page.locator("[data-lang=ko]").click()
    labels = page.locator(".start-form label.field > span")
    expect(labels.filter(has_text="시작 플레이어")).to_be_visible()  # the form is drawn in Korean
    shown = labels.all_text_contents()
    assert len(shown) == 11 and all(any("\uac00" <= letter <= "\ud7a3" for letter in label) for label in shown), shown
