"""What the browser tests share: a phone's viewport, a page's console errors, a game started by the host, Ann's
phone at a new game, Ann alone at a roll check and the switch to the Korean page."""
from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def watch_errors(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions, as they come; raises nothing."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_page(browser: Any, server: Any, token: str, device: dict[str, Any] = PHONE, *,
              held_streams: list[Any] | None = None) -> tuple[Any, Any, list[str]]:
    """A new browser joined with that token: (context, page, console errors); with `held_streams`, every event
    stream it opens is held there unanswered (a Wi-Fi that lets requests through but drops the pushes); raises
    playwright's Error."""
    context = browser.new_context(**device)
    if held_streams is not None:
        context.route("**/api/events", lambda route: held_streams.append(route))
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={token}")
    return context, page, errors


def anns_phone(browser: Any, server: Any) -> tuple[Any, Any, list[str]]:
    """A new game of Through The Gate (Ann and Bob) and Ann's phone joined to it: (context, page, console errors);
    raises playwright's Error."""
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    return open_page(browser, server, server.seat_token(0))


def new_game(server: Any, game: str, players: list[str], options: dict[str, Any] | None = None, *,
             ending: bool = False) -> dict[str, Any]:
    """Starts a game as the host (`ending`: over an unfinished one, as a host who confirmed); returns the table."""
    body = {"game": game, "players": players, "options": options or {}, **(server.ending_this_game() if ending else {})}
    status, snap = server.api("POST", "/api/game", body, token=server.host_token)
    assert status == 200, snap
    return snap


def anns_check(server: Any, kind: str, *, speed: int = 4) -> str:
    """Through The Gate for Ann alone (her turn at once): her speed, then a roll check of `kind`; her token."""
    new_game(server, "through-the-gate", ["Ann"])
    ann = server.seat_token(0)
    server.act(ann, 0, "declare_speed", speed=speed)
    server.act(ann, 0, "check", kind=kind)
    return ann


def in_korean(page: Any) -> None:
    """Switches the page to Korean and waits until it is; raises playwright's AssertionError when it is not."""
    page.locator("[data-lang=ko]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
