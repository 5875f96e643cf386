"""A request the café's Wi-Fi swallows, or the box refuses: the page says so in a sentence, in the language
the player reads it in (also after switching), keeps what was typed, and the next tap goes through."""
from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from phone_browser import PHONE, anns_phone, open_page

NO_ANSWER = "No answer from the table: check the Wi-Fi, look at the table, then try again."
NO_ANSWER_KO = "테이블이 응답하지 않습니다: 와이파이를 확인하고 테이블을 본 뒤 다시 시도하세요."
HANGUL = re.compile("[\uac00-\ud7a3]")


def lost(errors: list[str]) -> list[str]:
    """The console errors other than the browser's note of the request the test cut."""
    return [error for error in errors if "ERR_FAILED" not in error]


def test_a_roll_the_wifi_lost_is_said_in_the_language_chosen_after_and_sent_again(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    page.route("**/api/dice", lambda route: route.abort())  # the roll never reaches the box
    page.locator("#f-roll-die0").fill("5")
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator(".refusal")).to_contain_text(NO_ANSWER)
    expect(page.locator(".refusal")).not_to_contain_text("Refused")  # the roll may have reached the box after all
    page.locator("[data-lang=ko]").click()  # Ann reads Korean better
    expect(page.locator(".refusal")).to_contain_text(NO_ANSWER_KO)
    expect(page.locator(".refusal")).not_to_contain_text("No answer")
    page.unroute("**/api/dice")
    expect(page.locator("#f-roll-die0")).to_have_value("5")
    page.get_by_role("button", name="입력").tap()
    expect(page.locator(".roll .why")).to_have_text("Bob의 선 플레이어 정하기 굴림입니다.")  # the Korean page's
    expect(page.locator(".refusal")).to_have_count(0)
    assert lost(errors) == []
    context.close()


def test_a_new_qr_code_the_wifi_lost_is_said_in_the_language_chosen_after(browser, companion_server):
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    context, page, errors = open_page(browser, server, server.host_token)
    page.route("**/api/seats/*/token", lambda route: route.abort())
    page.get_by_role("button", name="New QR code").first.click()
    expect(page.locator(".refusal")).to_have_text(NO_ANSWER)
    page.locator("[data-lang=ko]").click()
    expect(page.locator(".refusal")).to_have_text(NO_ANSWER_KO)
    assert lost(errors) == []
    context.close()


def test_a_phone_locked_out_by_wrong_links_is_told_to_wait_in_korean_too(browser, companion_server):
    server = companion_server
    context = browser.new_context(**PHONE)
    page = context.new_page()
    for attempt in range(10):  # a torn QR code sticker, scanned again and again
        page.goto(f"{server.url}/join?token=torn-sticker-{attempt}")
        expect(page.locator("[role=alert]")).to_contain_text("This link is not valid")
    page.goto(f"{server.url}/join?token={server.seat_token(0)}")  # the right code, a moment too late
    expect(page.locator("[role=alert]")).to_contain_text("Too many wrong links from this device; wait a minute")
    expect(page.locator("[role=alert] [lang=ko]")).to_have_text(
        "이 기기에서 잘못된 링크가 너무 많았습니다. 1분 기다린 뒤 QR 코드를 다시 스캔하세요.")
    context.close()


def the_boxs_refusals(server: Any) -> list[str]:
    """What the box answers to requests a player makes at the wrong moment, each made for real; raises AssertionError."""
    from companion.table import loop
    from companion.table import port

    host = server.host_token
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=host)[0] == 200
    ann, bob = server.seat_token(0), server.seat_token(1)  # a new game gives every seat a new link
    asked = [(bob, "/api/dice", {"values": [5], "sides": [6]}),  # Ann rolls for first player
             (ann, "/api/dice", {"values": [5, 2], "sides": [6, 6]}),
             (ann, "/api/dice", {"values": [7], "sides": [6]}),
             (ann, "/api/dice", {"values": [5], "sides": [6], "roll_seq": 99}),
             (ann, "/api/dice", {"values": [5], "sides": [6], "game_no": 99}),
             (ann, "/api/actions", {"seat": 1, "move": "pass"}),
             (ann, "/api/game", {"game": "the-gate", "players": ["Ann", "Bob"]}),
             (host, "/api/game", {"game": "the-gate", "players": ["Ann", "ann"]}),
             (host, "/api/game", {"game": "eight-gates", "players": ["Ann", "Bob"]}),
             (host, "/api/game", {"game": "the-gate", "players": ["Ann", " "]})]
    said = []
    for token, path, body in asked:
        status, answer = server.api("POST", path, body, token=token)
        assert status >= 400, (path, body, answer)
        said.append(answer["message"])
    assert server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=ann)[0] == 200
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=bob)[0] == 200
    said.append(server.api("POST", "/api/undo", {}, token=bob)[1]["message"])  # the roll-off is no move to undo
    return said + [loop.NO_ANSWER_IN_TIME, loop.SLOW_TO_ANSWER, port.NEW_ROLL_SINCE, port.NEW_GAME_SINCE,
                   "Cy's move since then depends on it, so it cannot be taken back.",
                   "The last move was Ana's: only Ana (or the host) can take it back."]


def test_the_boxs_refusals_are_said_in_korean_on_the_korean_page(browser, companion_server):
    server = companion_server
    refusals = the_boxs_refusals(server)
    context, page, errors = open_page(browser, server, server.seat_token(0))
    page.locator("[data-lang=ko]").click()
    said = page.evaluate("(sentences) => sentences.map((sentence) => window.Companion.inLang(sentence))", refusals)
    untranslated = [english for english, korean in zip(refusals, said) if korean == english or not HANGUL.search(korean)]
    assert untranslated == []
    assert errors == []
    context.close()


def test_the_host_page_says_a_refused_start_in_korean(browser, companion_server):
    server = companion_server
    context, page, errors = open_page(browser, server, server.host_token)
    page.locator("[data-lang=ko]").click()
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("ann")
    page.locator("form button[type=submit]").first.click()
    expect(page.locator(".refusal")).to_have_text("플레이어마다 이름이 달라야 합니다.")
    page.locator("[data-lang=en]").click()
    expect(page.locator(".refusal")).to_have_text("Each player needs a different name.")
    assert [error for error in errors if "status of 400" not in error] == []
    context.close()


def test_a_tap_waiting_on_a_slow_wifi_says_sending_and_a_second_tap_enters_nothing_twice(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    expect(page.locator("#live")).to_have_text("live")
    held: list[Any] = []
    page.route("**/api/dice", lambda route: held.append(route))  # the café's Wi-Fi sits on Ann's roll
    page.locator("#f-roll-die0").fill("5")
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator("#live")).to_have_text("sending…")
    page.get_by_role("button", name="Enter roll").tap()  # Ann taps again, wondering
    page.locator("[data-lang=ko]").click()
    expect(page.locator("#live")).to_have_text("보내는 중…")
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#live")).to_have_text("연결됨")
    expect(page.locator(".roll .why")).to_have_text("Bob의 선 플레이어 정하기 굴림입니다.")
    assert len(held) == 1 and errors == []
    context.close()
