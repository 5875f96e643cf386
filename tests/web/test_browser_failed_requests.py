"""A request the café's Wi-Fi swallows: the page says so in a sentence, in the language the player reads
it in (also after switching), keeps what was typed, and the next tap goes through."""
from __future__ import annotations

from playwright.sync_api import expect

from phone_browser import PHONE, open_page

NO_ANSWER = "No answer from the table: check the Wi-Fi, look at the table, then try again."
NO_ANSWER_KO = "테이블이 응답하지 않습니다: 와이파이를 확인하고 테이블을 본 뒤 다시 시도하세요."



def lost(errors: list[str]) -> list[str]:
    """The console errors other than the browser's note of the request the test cut."""
    return [error for error in errors if "ERR_FAILED" not in error]


def test_a_roll_the_wifi_lost_is_said_in_the_language_chosen_after_and_sent_again(browser, companion_server):
    server = companion_server
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    context, page, errors = open_page(browser, server, server.seat_token(0))
    page.route("**/api/dice", lambda route: route.abort())  # the roll never reaches the box
    page.locator("#f-roll-die0").fill("5")
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator(".refusal")).to_contain_text(NO_ANSWER)
    page.locator("[data-lang=ko]").click()  # Ann reads Korean better
    expect(page.locator(".refusal")).to_contain_text(NO_ANSWER_KO)
    expect(page.locator(".refusal")).not_to_contain_text("No answer")
    page.unroute("**/api/dice")
    expect(page.locator("#f-roll-die0")).to_have_value("5")
    page.get_by_role("button", name="입력").tap()
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.")
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
