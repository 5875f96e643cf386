"""The host page follows the table live in a real headless Chromium against the real companion on 127.0.0.1: what
the box says about itself, a game started from another phone and its end show without a reload, while rolls and
moves leave the page (and what the host is typing) alone."""
from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from phone_browser import new_game, open_page

WARM = "The box is running warm; give it some air."
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def count_drawings(page: Any) -> None:
    """Counts from now on how often the page draws its sections anew (window.drawings)."""
    page.evaluate("""() => {
        window.drawings = 0;
        new MutationObserver(() => { window.drawings += 1; }).observe(document.getElementById('app'), { childList: true });
    }""")


def test_a_notice_of_the_box_comes_and_goes_on_the_open_host_page(browser: Any, companion_server: Any) -> None:
    server = companion_server
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator(".box-notices")).to_have_count(0)
    server.companion.loop.tell_host("warmth", WARM)
    expect(page.locator(".box-notices li")).to_have_text([WARM])
    server.companion.loop.tell_host("warmth", None)
    expect(page.locator(".box-notices")).to_have_count(0)
    assert errors == []
    context.close()


def test_a_game_started_on_another_phone_shows_its_seats_and_history_while_the_typing_stays(
        browser: Any, companion_server: Any) -> None:
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token, DESKTOP)
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    played = page.locator(".host-history li").count()
    page.locator("#name-1").fill("Dinah")
    page.locator("#name-1").press("Home")
    page.locator("#name-1").press("ArrowRight")  # the caret after the D, mid-word

    new_game(server, "the-gate", ["Eve", "Fay"], ending=True)
    expect(page.locator(".qr figcaption b")).to_have_text(["Eve", "Fay"])
    expect(page.locator(".host-history li")).to_have_count(played + 1)
    assert page.locator("#name-1").input_value() == "Dinah"
    page.keyboard.type("i")  # typed where the caret was, in the field that had the focus
    assert page.locator("#name-1").input_value() == "Diinah"
    assert errors == []
    context.close()


def test_rolls_and_moves_leave_the_host_page_as_it_is(browser: Any, companion_server: Any) -> None:
    server = companion_server
    new_game(server, "through-the-gate", ["Ann"])
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann"])
    expect(page.locator(".box-address")).to_be_visible()  # the page's last part to come: it is loaded
    count_drawings(page)
    ann = server.seat_token(0)
    server.act(ann, 0, "declare_speed", speed=4)
    page.wait_for_timeout(300)  # the move's snapshot comes on its own, before the notice's
    server.act(ann, 0, "check", kind="less")
    page.wait_for_timeout(300)
    server.companion.loop.tell_host("warmth", WARM)  # then a change the page shows
    expect(page.locator(".box-notices li")).to_have_text([WARM])
    assert page.evaluate("() => window.drawings") == 1  # drawn for the notice alone
    assert errors == []
    context.close()
