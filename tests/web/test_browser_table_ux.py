"""The table on a 390-px phone never makes players think about the software: a press's answer is said beside the
button on the phone that pressed, a short tap on UNDO says to hold it, a player picker starts with nobody, a game
without dice shows no dice or camera, and the host page opens each seat by a link (a laptop has no camera)."""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import in_korean, new_game, open_page

JUST_PASSED = {"en": "The turn has just passed to {name}, so NEXT did nothing. Press NEXT again to end {name}'s turn.",
               "ko": "방금 {name}의 차례가 되어 다음 버튼은 아무것도 하지 않았습니다. {name}의 차례를 끝내려면 다음 버튼을 다시 누르세요."}
HOLD_HINT = {"en": "Hold to undo: keep UNDO pressed for 1 second.", "ko": "되돌리려면 꾹 누르세요: 되돌리기 버튼을 1초 동안 누르고 계세요."}


def _eight_gates_in_play(server: Any) -> dict[str, Any]:
    """A 3-player game of 8 Gates with the Archivist (Ann) chosen and the starting Gates laid; returns the table."""
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    for move, args in (("choose_archivist", {"seat": 0}), ("starting_gates", {"values": [1, 3, 5]})):
        status, table = server.api("POST", "/api/actions", {"seat": 0, "move": move, "args": args}, token=server.host_token)
        assert status == 200, table
    return table


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_next_just_after_the_turn_passed_is_answered_beside_the_button_on_the_phone_that_pressed(
        browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    table = _eight_gates_in_play(server)
    seat = table["whose_turn"][0]
    context, page, errors = open_page(browser, server, server.seat_token(seat))
    other, watching, _ = open_page(browser, server, server.seat_token((seat + 1) % 3))
    if lang == "ko":
        in_korean(page)
    expect(page.locator(".panel button.next")).to_be_visible()
    for move, args in (("place_gate", {"x": 0, "y": 1, "value": 2}), ("end_turn", {})):  # a Gate first, as the rules ask
        status, answer = server.api("POST", "/api/actions", {"seat": seat, "move": move, "args": args},
                                    token=server.seat_token(seat))
        assert status == 200, answer
    page.locator(".panel button.next").click()  # meant for the turn that just ended
    after = server.api("GET", "/api/state", token=server.host_token)[1]
    said = JUST_PASSED[lang].format(name=after["players"][after["whose_turn"][0]])
    answer = page.locator(".panel .press-answer")
    expect(answer).to_have_text(said)
    expect(answer).to_be_in_viewport()  # beside the button the finger is on
    box, button = answer.bounding_box(), page.locator(".panel button.next").bounding_box()
    assert 0 <= box["y"] - (button["y"] + button["height"]) < 120
    expect(page.locator("#app > .notice.info")).to_have_count(0)  # not at the top of the page
    watching.reload()  # the other phone, drawn afresh from the table as it is now, is not told of a press it did not make
    expect(watching.locator(".panel button.next")).to_be_visible()
    expect(watching.get_by_text(said)).to_have_count(0)
    others = server.api("GET", "/api/state", token=server.seat_token((seat + 1) % 3))[1]
    assert others["message"] is None and after["message"] is None  # nor the host: the press was one phone's
    page.screenshot(path=f"/tmp/table-ux-next-{lang}.png")
    assert errors == []
    context.close()
    other.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_short_tap_on_the_panels_undo_says_to_hold_it(browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    _eight_gates_in_play(server)
    context, page, errors = open_page(browser, server, server.seat_token(0))
    if lang == "ko":
        in_korean(page)
    hint = page.locator(".panel .press-answer")
    expect(hint).to_be_hidden()
    page.locator(".panel button.undo-hold").click()  # a short tap
    expect(hint).to_have_text(HOLD_HINT[lang])
    expect(hint).to_be_visible()
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_required_player_picker_starts_with_nobody_and_says_so_beside_the_button(
        browser: Any, companion_server: Any, lang: str) -> None:
    server = companion_server
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.seat_token(0))
    if lang == "ko":
        in_korean(page)
    form = page.locator("form.move-form").filter(has=page.locator("select[name=seat]"))
    expect(form.locator("select[name=seat]")).to_have_value("")  # nobody, not Ann
    form.locator("button[type=submit]").click()
    expect(form.locator(".form-problem")).to_be_visible()
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["phase"] == "archivist"
    form.locator("select[name=seat]").select_option(label="Bob")
    form.locator("button[type=submit]").click()
    expect(page.locator(".eight-gates-header")).to_contain_text("Bob")
    assert errors == []
    context.close()


def test_a_game_without_dice_shows_no_dice_and_no_camera_left_from_the_game_before(
        browser: Any, companion_server: Any) -> None:
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.seat_token(0))
    expect(page.locator(".dice .camera")).to_be_visible()
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"], ending=True)
    expect(page.locator(".eight-gates-header")).to_be_visible()
    expect(page.locator(".dice")).to_have_count(0)
    expect(page.locator("text=📷")).to_have_count(0)
    assert errors == []
    context.close()


def test_the_host_page_opens_each_seat_by_a_link(browser: Any, companion_server: Any) -> None:
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token)
    links = page.locator(".host-seats a.seat-link")
    expect(links).to_have_count(2)
    expect(links.nth(1)).to_have_text("Open Bob's seat on this device")
    with context.expect_page() as opened:
        links.nth(1).click()
    seat_page = opened.value
    expect(seat_page.locator(".who")).to_have_text("You are Bob")
    status, _ = server.api("GET", "/host/seats/1/open", token=server.seat_token(0))
    assert status == 403  # only the host's page opens a seat
    assert errors == []
    context.close()
