"""The phone page in a real headless Chromium (Debian's, never downloaded): join through the link,
tap a control, and see changes pushed by the event stream; screenshots go to each test's
pytest tmp_path (pytest keeps the last three runs' under its basetemp)."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from phone_browser import PHONE, anns_phone, watch_errors
from unsure_reads import answer_now, unsure_read


def test_a_phone_joins_taps_and_sees_the_table_change(browser, companion_server, tmp_path):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    assert page.url == f"{server.url}/"  # the token left the address bar
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    expect(page.locator("#live")).to_have_class("live on")

    page.locator("#f-roll-die0").fill("5")  # Ann enters her roll by hand and taps
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.")

    status, _ = server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=server.seat_token(1))
    assert status == 200  # Bob's phone rolled: Ann's page learns it only from the stream
    expect(page.locator(".turn")).to_have_text("Your turn!")
    expect(page.locator(".ttg-explorer.current .ttg-name")).to_contain_text("Ann")

    page.locator(".ttg-speed-button", has_text="4").tap()
    expect(page.locator(".ttg-speed")).to_have_text("4")
    expect(page.locator("button.undo")).to_be_enabled()
    expect(page.get_by_role("button", name="Declare speed")).to_have_count(0)
    page.screenshot(path=tmp_path / "phone.png", full_page=True)

    status, _ = server.api("POST", "/api/actions", {"seat": 0, "move": "end_turn"}, token=server.seat_token(1))
    assert status == 403
    page.get_by_role("button", name="End turn").tap()
    expect(page.locator(".turn")).to_have_text("Bob's turn")
    expect(page.locator("button.move[disabled]", has_text="End turn")).to_have_count(1)  # known, not allowed now

    page.locator("[data-lang=ko]").tap()
    expect(page.locator(".turn")).to_have_text("Bob의 차례")
    page.screenshot(path=tmp_path / "phone-ko.png", full_page=True)
    assert errors == []
    context.close()


def test_a_refusal_is_shown_plainly(browser, companion_server):
    server = companion_server
    for seat, value in ((0, 6), (1, 1)):
        server.api("POST", "/api/dice", {"values": [value], "sides": [6]}, token=server.seat_token(seat))
    server.api("POST", "/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 3}}, token=server.host_token)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/join?token={server.seat_token(1)}")
    page.locator("details.correct summary").tap()  # too late: a move came after the roll
    page.locator("#f-fix-die0").fill("2")
    page.get_by_role("button", name="Correct", exact=True).tap()
    expect(page.locator(".refusal")).to_contain_text("Only the last roll can be corrected")
    context.close()


def test_the_host_page_shows_qr_codes(browser, companion_server, tmp_path):
    server = companion_server
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={server.host_token}")
    assert page.url == f"{server.url}/host"
    expect(page.locator(".qr img")).to_have_count(2)
    loaded = "images => images.every((image) => image.complete && image.naturalWidth > 0)"
    deadline = time.monotonic() + 5.0  # (wait_for_function would need eval, which the page's CSP forbids)
    while not page.locator(".qr img").evaluate_all(loaded):
        assert time.monotonic() < deadline, "the QR codes did not load"
        page.wait_for_timeout(50)
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("Bob")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".qr figcaption b").first).to_have_text("Ann")
    page.screenshot(path=tmp_path / "host.png", full_page=True)
    assert errors == []
    context.close()


def test_start_on_the_host_page_ends_a_game_under_way_only_when_the_host_confirms(browser, companion_server):
    server = companion_server
    host = server.host_token
    assert server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=host)[0] == 200
    assert server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=host)[0] == 200  # the game is under way
    playing = server.api("GET", "/api/state", token=host)[1]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={host}")  # the host opens the page to show a QR code ...
    expect(page.locator("#name-0")).to_have_value("Ann")  # ... and the form is filled in with this game
    page.get_by_role("button", name="Start the game").tap()  # one stray tap
    expect(page.locator(".ending")).to_contain_text("The game on the table is not finished")
    now = server.api("GET", "/api/state", token=host)[1]
    assert (now["game_no"], now["view"]["log"]) == (playing["game_no"], playing["view"]["log"])  # nothing lost
    page.get_by_role("button", name="Keep playing").tap()
    expect(page.locator(".ending")).to_have_count(0)
    assert server.api("GET", "/api/state", token=host)[1]["game_no"] == playing["game_no"]
    page.locator("#name-1").fill("Cy")
    page.get_by_role("button", name="Start the game").tap()
    page.get_by_role("button", name="End it and start the new game").tap()  # the host means it
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Cy"])
    after = server.api("GET", "/api/state", token=host)[1]
    assert after["game_no"] == playing["game_no"] + 1 and after["players"] == ["Ann", "Cy"]
    assert [error for error in errors if "status of 409" not in error] == []
    context.close()


def test_an_unsure_read_is_checked_and_entered_with_one_tap(browser, companion_server, tmp_path):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    server.companion.loop.enqueue(answer_now(server.companion.loop, unsure_read(5)))
    expect(page.locator(".roll .guess .value")).to_have_text("5?")
    expect(page.locator("#f-roll-die0")).to_have_value("5")  # the guess is filled in, to check against the die
    image = page.locator(".roll .guess img")
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("img => img.naturalWidth") > 0  # the crop of what the camera saw loaded
    first_crop = image.get_attribute("src")
    page.screenshot(path=tmp_path / "guess.png", full_page=True)
    page.locator("#f-roll-die0").fill("6")  # the die shows a 6: what the player types outlives the next redraw
    server.companion.loop.enqueue(answer_now(server.companion.loop, unsure_read(2)))
    expect(page.locator(".roll .guess .value")).to_have_text("2?")
    assert page.locator(".roll .guess img").get_attribute("src") != first_crop  # the new picture, not a cached one
    expect(page.locator("#f-roll-die0")).to_have_value("6")
    page.get_by_role("button", name="Enter roll").tap()
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.")
    expect(page.locator(".roll .guess")).to_have_count(0)
    expect(page.locator("#f-roll-die0")).to_have_count(0)  # Bob's roll: no form on Ann's phone, so nothing of hers
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["roll_off"]["rolls"] == [6]
    assert errors == []
    context.close()


def test_a_phone_left_open_follows_the_table_after_the_box_restarts(browser, start_server):
    server = start_server()
    context, page, errors = anns_phone(browser, server)
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    for button in ("next", "undo") * 4:  # refused presses change only what the box shows, yet each is a new seq
        assert server.api("POST", "/api/press", {"button": button}, token=server.seat_token(0))[0] == 200  # Ann's panel
    expect(page.locator(".notice.info")).not_to_have_text("NEXT does nothing right now.")  # the last, undo's, was shown
    shown_before = server.seq()
    server.companion.stop()  # a power cut: the journal holds the table, not the seq of what the box showed
    server = start_server()
    assert server.seq() < shown_before
    status, _ = server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=server.seat_token(0))
    assert status == 200  # entered from another phone: Ann's page learns it from its reconnected stream
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.", timeout=10000)
    cut = ("net::ERR_INCOMPLETE_CHUNKED_ENCODING", "net::ERR_CONNECTION_REFUSED")  # the stream, cut by the restart
    assert [error for error in errors if not error.endswith(cut)] == []
    context.close()


def test_wild_splits_that_depend_on_each_other_are_named_on_the_phone(browser, companion_server):
    server = companion_server
    game = {"game": "through-the-gate", "players": ["Ann", "Bob", "Cy"], "options": {"hourglasses": 1}}
    server.api("POST", "/api/game", game, token=server.host_token)
    tokens = [server.seat_token(seat) for seat in range(3)]
    for seat, value in enumerate((6, 1, 2)):
        assert server.api("POST", "/api/dice", {"values": [value], "sides": [6]}, token=tokens[seat])[0] == 200
    for seat in (0, 1, 2):
        server.act(tokens[seat], seat, "end_turn")
    names = ("compassion", "strength", "wisdom", "wild", "companions", "diary")
    for seat, tallies in enumerate(((3, 2, 4, 1, 1, 7), (0, 2, 2, 1, 0, 4), (0, 3, 1, 4, 2, 0))):
        server.act(tokens[seat], seat, "set_tallies", **dict(zip(names, tallies)))
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={tokens[2]}")
    expect(page.locator(".ttg-scoring .contested")).to_have_text(
        "The best wild splits of Ann, Bob depend on each other: place those wilds by hand before the scores are final.")
    assert errors == []
    context.close()


def test_a_double_tap_enters_a_roll_once(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.seat_token(0))[0] == 200
    assert server.api("POST", "/api/dice", {"values": [1], "sides": [6]}, token=server.seat_token(1))[0] == 200
    server.act(server.seat_token(0), 0, "declare_speed", speed=4)
    server.act(server.seat_token(0), 0, "check", kind="three_less")  # Ann rolls three dice, one at a time
    expect(page.locator("#f-roll-die0")).to_be_visible()
    page.locator("#f-roll-die0").fill("2")
    page.get_by_role("button", name="Enter roll").dblclick()  # an impatient thumb
    expect(page.locator("#f-roll-die0")).to_have_value("")  # the form is back for the next die
    time.sleep(0.5)  # a second POST, had there been one, is answered by now
    check = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["check"]
    assert [die["raw"] for die in check["dice"]] == [2]
    assert errors == []
    context.close()


@pytest.mark.parametrize("gap_ms", [0, 150, 300])
def test_a_double_tap_on_start_starts_one_game(browser, companion_server, gap_ms):
    server = companion_server
    games_before = len(server.api("GET", "/api/history", token=server.host_token)[1])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={server.host_token}")
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("Bob")
    start = page.get_by_role("button", name="Start the game")
    if gap_ms:  # the two taps of a thumb: the first is answered and the page redrawn before the second
        start.click()
        page.wait_for_timeout(gap_ms)
        start.click()
    else:
        start.dblclick()
    expect(page.locator(".qr figcaption b").first).to_have_text("Ann")
    time.sleep(0.5)  # a second start, had there been one, is answered by now
    assert len(server.api("GET", "/api/history", token=server.host_token)[1]) == games_before + 1
    assert errors == []
    context.close()


def test_a_phone_offers_only_its_own_rolls_and_forgets_dice_typed_for_a_roll_entered_elsewhere(browser, companion_server):
    server = companion_server
    context, page, errors = anns_phone(browser, server)
    expect(page.locator("#f-roll-die0")).to_be_visible()
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)[0] == 200
    expect(page.locator(".roll .why")).to_have_text("Bob rolls for first player.")
    expect(page.locator("#f-roll-die0")).to_have_count(0)  # Bob's roll: Ann's phone shows it, offers no form
    assert server.api("POST", "/api/dice", {"values": [1], "sides": [6]}, token=server.seat_token(1))[0] == 200
    server.act(server.seat_token(0), 0, "declare_speed", speed=4)
    server.act(server.seat_token(0), 0, "check", kind="three_less")
    page.locator("#f-roll-die0").fill("4")  # Ann types die 1, but the host enters it first: a 3
    assert server.api("POST", "/api/dice", {"values": [3], "sides": [6]}, token=server.host_token)[0] == 200
    expect(page.locator(".ttg-die")).to_have_count(1)
    expect(page.locator("#f-roll-die0")).to_have_value("")  # her 4 was for die 1, not die 2
    assert errors == []
    context.close()


@pytest.mark.parametrize("gap_ms", [150, 300])
def test_a_double_tap_on_end_turn_in_the_hosts_table_view_ends_one_turn(browser, companion_server, gap_ms):
    server = companion_server
    host = server.host_token
    assert server.api("POST", "/api/game", {"game": "the-gate", "players": ["Ann", "Bob"]}, token=host)[0] == 200
    server.act(host, 0, "choose_first", player=0)
    before = server.api("GET", "/api/state", token=host)[1]
    assert before["whose_turn"] == [0] and any(move["move"] == "end_turn" for move in before["legal_moves"])
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={host}")
    page.goto(f"{server.url}/")  # the host's table view: every seat's moves
    end = page.locator("section.controls button.move.primary", has_text="End turn").first
    end.scroll_into_view_if_needed()
    box = end.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)  # the redraw puts Bob's "End turn" under the thumb's second tap
    page.mouse.click(x, y)
    page.wait_for_timeout(800)
    after = server.api("GET", "/api/state", token=host)[1]
    assert after["whose_turn"] == [1], after["view"]["log"][-3:]  # Bob's turn was not ended for him
    assert errors == []
    context.close()
