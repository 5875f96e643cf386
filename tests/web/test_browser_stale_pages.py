"""A page that may show an older table than the box's says so: a phone that wakes says it is
reconnecting until its new stream answers, and the host's page used from two phones, whose pushes do not
come through, catches up with a game started on the other one instead of asking the same question for ever;
and an answer the Wi-Fi held up until the stream brought a newer table is not drawn over it."""
from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from phone_browser import PHONE, anns_phone, open_page



def wake(page: Any) -> None:
    """The phone comes back to the foreground (what the page hears when its screen turns on)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_a_phone_that_wakes_says_it_is_reconnecting_until_its_stream_answers(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    expect(page.locator("#live")).to_have_class("live on")
    held: list[Any] = []
    page.route("**/api/events", lambda route: held.append(route))  # the Wi-Fi is slow to come back ...
    assert server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=server.host_token)[0] == 200
    wake(page)  # ... when Ann's phone wakes up on a table the box has moved on from
    expect(page.locator("#live")).to_have_text("reconnecting…")
    expect(page.locator("#live")).not_to_have_class("live on")
    for _ in range(50):  # the page says so before the browser hands its new stream to the route
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()  # the Wi-Fi is back
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.")
    expect(page.locator("#live")).to_have_class("live on")
    assert errors == []
    context.close()


def test_the_host_page_on_a_second_phone_catches_up_with_a_game_started_on_the_first(browser, companion_server):
    server = companion_server
    host = server.host_token
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=host)[0] == 200
    assert server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=host)[0] == 200
    held: list[Any] = []  # the pushes do not reach Dee's phone (a café's Wi-Fi): its page shows Ann and Bob
    context, page, errors = open_page(browser, server, host, held_streams=held)
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    other = {"game": "through-the-gate", "players": ["Cy", "Di"], **server.ending_this_game()}
    assert server.api("POST", "/api/game", other, token=host)[0] == 200  # the other host phone starts Cy and Di's game
    assert server.api("POST", "/api/dice", {"values": [4], "sides": [6]}, token=host)[0] == 200
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".ending")).to_contain_text("The game on the table is not finished")
    expect(page.locator(".ending")).to_contain_text("changed since this page showed it")
    expect(page.locator(".qr figcaption b")).to_have_text(["Cy", "Di"])  # the game it would end is the one shown
    page.locator("[data-lang=ko]").click()
    expect(page.locator(".ending .table-changed")).to_contain_text("테이블이 바뀌었습니다")
    page.locator("[data-lang=en]").click()
    page.get_by_role("button", name="End it and start the new game").tap()  # Dee has seen it and means it
    expect(page.locator(".ending")).to_have_count(0)
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    after = server.api("GET", "/api/state", token=host)[1]
    assert after["players"] == ["Ann", "Bob"] and after["dice"] is None, after
    assert [error for error in errors if "status of 409" not in error] == []
    context.close()


def test_the_host_page_that_wakes_shows_the_qr_codes_of_the_table_now(browser, companion_server):
    server = companion_server
    host = server.host_token
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=host)[0] == 200
    context, page, errors = open_page(browser, server, host)
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    old_code = page.locator(".qr img").nth(1).get_attribute("src")
    other = {"game": "through-the-gate", "players": ["Ann", "Cy"]}
    assert server.api("POST", "/api/game", other, token=host)[0] == 200  # started on another phone: Bob's link is gone
    wake(page)  # the host's phone comes back to show Cy her seat's code
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Cy"])
    assert page.locator(".qr img").nth(1).get_attribute("src") != old_code
    assert errors == []
    context.close()


def test_a_korean_phone_says_it_is_loading_the_table_in_korean_until_the_box_answers(browser, companion_server):
    server = companion_server
    server.api("POST", "/api/game", {"game": "the-gate", "players": ["민수", "지영"]}, token=server.host_token)
    context = browser.new_context(**PHONE)
    context.add_init_script("localStorage.setItem('companion.lang', 'ko')")  # chosen at an earlier visit
    page = context.new_page()
    held: list[Any] = []
    page.route("**/api/events", lambda route: held.append(route))  # the café's Wi-Fi is slow to answer
    page.goto(f"{server.url}/join?token={server.seat_token(0)}")
    expect(page.locator("#app")).to_have_text("테이블을 불러오는 중…")
    held[0].continue_()
    expect(page.locator(".notice.info", has_text="불러오는")).to_have_count(0)
    context.close()


def test_an_answer_the_wifi_held_up_never_draws_an_older_table_over_a_newer_one(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    answers: list[Any] = []
    page.route("**/api/dice", lambda route: answers.append((route, route.fetch())))  # the box answers; the Wi-Fi sits on it
    page.locator("#f-roll-die0").fill("5")
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator("#live")).to_have_text("sending…")
    assert len(answers) == 1 and answers[0][1].json()["awaiting_dice"]["why"] == "Bob rolls for first player."
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=server.seat_token(1))[0] == 200
    expect(page.locator(".turn")).to_have_text("Your turn!")  # the stream brought the newer table first
    route, answer = answers[0]
    route.fulfill(response=answer)  # ... then the older answer comes through
    expect(page.locator("#live")).to_have_text("live")  # drawn after the answer was handled
    expect(page.locator(".turn")).to_have_text("Your turn!")
    expect(page.get_by_text("Bob rolls for first player.")).to_have_count(0)
    assert errors == []
    context.close()
