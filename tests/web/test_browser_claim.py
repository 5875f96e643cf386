"""A box with no screen claimed in a real headless Chromium against the real demo companion on 127.0.0.1: the host's
phone holds NEXT + UNDO on the virtual panel for 3 seconds, a fresh phone with no link opens "/", taps "Become the
host", lands on the host's page holding the new host link, and the old host's phone is turned away."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from phone_browser import PHONE, in_korean, new_game, open_page, watch_errors

HOW_TO_OPEN = "Hold NEXT and UNDO together for 3 seconds on the box, then tap Become the host within a minute."


def test_a_fresh_phone_becomes_the_host_after_the_panel_hold(browser, companion_server):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    old = server.host_token
    stranger = browser.new_context(**PHONE)  # no link, no cookie: a phone at the table that never scanned a code
    fresh = stranger.new_page()
    fresh_errors = watch_errors(fresh)
    fresh.goto(f"{server.url}/")
    expect(fresh.locator(".claim-how")).to_have_text(HOW_TO_OPEN)  # outside the window: how to open it
    expect(fresh.get_by_role("button", name="Become the host")).to_have_count(0)
    in_korean(fresh)
    expect(fresh.locator(".claim-how")).to_contain_text("3초")
    fresh.locator("[data-lang=en]").click()

    host, host_page, host_errors = open_page(browser, server, old)  # the host's phone, on its host page
    host_page.goto(f"{server.url}/")
    hold = host_page.get_by_role("button", name="NEXT + UNDO (hold 3 s)")
    hold.tap()  # a tap is no hold: it says how, and opens nothing
    expect(host_page.locator(".press-answer")).to_contain_text("3 seconds")
    hold.hover()
    host_page.mouse.down()
    host_page.wait_for_timeout(3300)
    host_page.mouse.up()
    expect(host_page.locator(".led.status")).to_have_class(re.compile(r"status-claiming"))

    become = fresh.get_by_role("button", name="Become the host")
    expect(become).to_be_visible(timeout=5000)  # the page asks the box every 2 s
    become.click()
    expect(fresh).to_have_url(f"{server.url}/host")
    new = server.host_token
    assert new != old
    expect(fresh.locator(".new-host-url code")).to_have_text(re.compile(rf"/join\?token={re.escape(new)}$"))
    expect(fresh.locator(".address-number")).to_have_text(f"{server.url}/")
    expect(fresh.locator(".host-seats")).to_be_visible()  # the new host runs the table
    assert fresh.evaluate("() => sessionStorage.getItem('companion.claimed')") is None  # shown once, not kept

    host_page.reload()  # the old host's phone: its link no longer works
    expect(host_page.locator(".notice.warn")).to_be_visible()
    assert server.api("GET", "/api/state", token=old)[0] == 403
    expect(host_page.locator(".claim-how")).to_have_text(HOW_TO_OPEN)  # and it may claim the box back the same way
    unexpected = [error for error in fresh_errors + host_errors if "status of 403" not in error]  # no link: refused reads
    assert unexpected == []
    stranger.close()
    host.close()
