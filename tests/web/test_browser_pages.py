"""A phone's page in a real headless Chromium against the real companion on 127.0.0.1: a phone whose seat left
the table says so, a phone enters the die the camera did not read, a correction or a roll typed for a table that
has moved on is dropped or refused, and the move that ended a game is taken back from the result screen."""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import anns_check, in_korean, new_game, open_page

from camera_table import StillDice, press_roll, state_when


# --- 1. a seat the new table gives to someone else, or does not have --------------------------
@pytest.mark.parametrize(("lang", "not_here", "gone"), [
    ("en", "Seat 3 is not at this table. Ask the host for your seat's QR code.",
     "This phone's link no longer works: its seat went to someone else or got a new QR code. "
     "Scan your seat's QR code on the host's phone."),
    ("ko", "3번 자리는 이 테이블에 없습니다. 호스트에게 자기 자리의 QR 코드를 요청하세요.",
     "이 휴대폰의 링크는 더 이상 쓸 수 없습니다: 자리가 다른 사람에게 갔거나 새 QR 코드가 나왔습니다. "
     "호스트 휴대폰에서 자기 자리의 QR 코드를 스캔하세요."),
])
def test_a_phone_whose_seat_is_not_at_the_new_table_says_so_and_offers_nothing(browser, companion_server, lang,
                                                                              not_here, gone):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.seat_token(2))
    if lang == "ko":
        in_korean(page)
    expect(page.locator(".who")).to_contain_text("Cy")
    new_game(server, "gateway-rescue", ["Ann", "Bob"])  # the next game has two seats: Cy's phone has none
    expect(page.locator(".notice.warn")).to_have_text(not_here)
    expect(page.locator("#app button, #app input, #app select")).to_have_count(0)
    expect(page.locator("#app section")).to_have_count(1)
    expect(page.locator("#app")).not_to_contain_text("#2")

    new_game(server, "through-the-gate", ["Ann", "Bob", "Dee"])  # a third seat again: Dee's, not Cy's phone's
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the phone wakes and tries again
    expect(page.locator(".notice.warn")).to_have_text(gone)
    expect(page.locator("#app")).not_to_contain_text("Dee")
    assert errors == [] or all("403" in error for error in errors), errors
    context.close()


# --- 2. a roll the camera read half of, and a correction typed for a roll that is gone --------
def test_a_phone_enters_only_the_d8_beside_the_d6_the_camera_read(browser, start_server):
    camera = StillDice()
    server = start_server(frames=camera)
    new_game(server, "gateway-rescue", ["Ann"])
    ann = server.seat_token(0)
    server.act(ann, 0, "rescue")
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")  # it has looked at the empty tray
    camera.land(6)
    press_roll(server)
    state_when(server, lambda snap: snap["camera"]["status"] == "read_part")
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".half-read")).to_contain_text("6 d6")
    expect(page.locator(".half-read img")).to_have_count(1)  # what the camera saw
    form = page.locator("form.hand-roll")
    expect(form.locator("input")).to_have_count(1)  # only the d8: the camera's d6 joins it
    expect(form).to_contain_text("d8")
    form.locator("input").fill("5")
    form.locator("button[type=submit]").click()
    expect(page.locator(".gr-last")).to_contain_text("D8 5 (phone), D6 6 (camera)")
    last = server.api("GET", "/api/state", token=ann)[1]["view"]["last_roll"]
    assert (last["d8"], last["d8_origin"], last["d6"], last["d6_origin"]) == (5, "phone", 6, "camera")
    assert errors == []
    context.close()


def test_a_correction_typed_for_a_roll_is_dropped_when_the_next_roll_comes(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "three_less")
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=ann)[0] == 200
    context, page, errors = open_page(browser, server, ann)
    page.locator("details.correct summary").click()
    page.locator("details.correct input").fill("5")  # Ann starts to put her first die right ...
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)[0] == 200
    expect(page.locator(".ttg-dice")).to_contain_text("Die 2")  # ... and the second die comes in meanwhile
    expect(page.locator("details.correct")).not_to_have_attribute("open", "")
    expect(page.locator("details.correct input")).to_have_value("")  # her 5 would have replaced the 6
    assert errors == []
    context.close()


def test_a_roll_typed_while_the_camera_read_it_is_refused_not_counted_twice(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "three_less")
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=ann)[0] == 200
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".ttg-dice")).to_contain_text("Die 1")
    held: list[Any] = []
    page.route("**/api/dice", lambda route: held.append(route))  # Ann's typed 6 is on its way ...
    page.locator("form.hand-roll input").fill("6")
    page.locator("form.hand-roll button[type=submit]").click()
    page.wait_for_timeout(300)
    assert len(held) == 1
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)[0] == 200
    held[0].continue_()  # ... when the camera's read of the same die comes in first
    expect(page.locator(".refusal")).to_contain_text("Another roll has come in since your phone showed the table")
    dice = server.api("GET", "/api/state", token=ann)[1]["view"]["check"]["dice"]
    assert [die["raw"] for die in dice] == [2, 6], dice
    assert [error for error in errors if "status of 409" not in error] == []
    context.close()


def test_a_roll_held_up_by_the_wifi_while_a_new_game_starts_is_refused_there(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "item")
    context, page, errors = open_page(browser, server, ann)
    held: list[Any] = []
    page.route("**/api/dice", lambda route: held.append(route))  # the café's Wi-Fi sits on Ann's roll ...
    page.locator("form.hand-roll input").fill("6")
    page.locator("form.hand-roll button[type=submit]").click()
    page.wait_for_timeout(300)
    assert len(held) == 1
    new_game(server, "gateway-rescue", ["Ann", "Bo"], ending=True)  # ... while the host starts the next game
    held[0].continue_()
    expect(page.locator(".refusal")).to_contain_text("A new game has started since your phone showed the table")
    log = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["log"]
    assert not any("rolled 6" in line for line in log), log  # it did not become Ann's roll for first player
    assert [error for error in errors if "status of 409" not in error] == []  # the browser notes the refusal
    context.close()


# --- 3. the move that ended the game ----------------------------------------------------------
def test_the_move_that_ended_the_game_is_taken_back_from_the_result_screen(browser, companion_server):
    server = companion_server
    new_game(server, "gateway-city", ["Ann", "Bo"])
    ann = server.seat_token(0)
    for _ in range(4):  # Ann taps +5 VP once too often: 20 VP ends the game
        server.act(ann, 0, "adjust_vp", player=0, amount=5)
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".outcome")).to_be_visible()
    page.locator(".controls button.undo").click()
    expect(page.locator(".outcome")).to_have_count(0)  # the game goes on, at 15 VP
    table = server.api("GET", "/api/state", token=ann)[1]
    assert table["outcome"] is None and table["legal_moves"], table
    assert errors == []
    context.close()
