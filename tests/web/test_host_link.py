"""The host's link can be ended: a new one, from the host's page or `companion host-url --new`, makes the old one
refused at its next request and ends its event stream. Over the real companion on 127.0.0.1."""
from __future__ import annotations

import re
import subprocess
import sys
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Callable

from playwright.sync_api import expect

from phone_browser import new_game, open_page

REPO = Path(__file__).resolve().parents[2]


def _state(server: Any, token: str) -> int:
    return int(server.api("GET", "/api/state", token=token)[0])


def test_a_new_host_link_from_the_page_ends_the_old_one_at_once(companion_server: Any, open_events: Callable[..., Any],
                                                                raw: Callable[..., Any]) -> None:
    server = companion_server
    old = server.host_token
    stream = open_events(server.url, token=old)
    assert stream.status == 200 and stream.next_snapshot()["you"] is None
    status, headers, body = raw(server.url, "POST", "/api/host/token", b"{}",
                                {"Authorization": f"Bearer {old}", "Content-Type": "application/json"})
    assert status == 200, body
    new = re.search(rb"join\?token=([\w-]+)", body).group(1).decode()  # type: ignore[union-attr]
    cookie = SimpleCookie(headers["set-cookie"])["companion_token"]
    assert cookie.value == new and cookie["httponly"] and cookie["samesite"] == "Strict"
    assert new != old and server.host_token == new
    assert _state(server, old) == 403 and _state(server, new) == 200
    assert server.api("POST", "/api/host/token", {}, token=old)[0] == 403  # the old link cannot take the new one back
    assert stream.ends_within(3.0), "the old link's event stream goes on"
    seat = server.seat_token(0)
    assert server.api("POST", "/api/host/token", {}, token=seat)[0] == 403  # only the host


def test_companion_host_url_new_ends_the_old_link_of_a_running_companion(companion_server: Any,
                                                                         open_events: Callable[..., Any]) -> None:
    server = companion_server
    old = server.host_token
    stream = open_events(server.url, token=old)
    assert stream.next_snapshot()["you"] is None
    state = server.companion.journal.path.parent
    printed = subprocess.run([sys.executable, "-m", "companion", "host-url", "--new", "--state", str(state)],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    assert "The old host link no longer works" in printed.stderr
    new = re.search(r"join\?token=([\w-]+)", printed.stdout).group(1)  # type: ignore[union-attr]
    assert new != old
    assert _state(server, old) == 403, "the running companion still takes the old host link"
    assert _state(server, new) == 200
    assert stream.ends_within(3.0)
    again = subprocess.run([sys.executable, "-m", "companion", "host-url", "--state", str(state)],
                           cwd=REPO, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and f"token={new}" in again.stdout  # kept, not issued anew


def test_a_new_host_link_made_while_the_companion_was_stopped_is_the_one_it_takes(tmp_path: Path,
                                                                                  start_server: Callable[..., Any]) -> None:
    first = start_server()
    old = first.host_token
    first.companion.stop()
    state = tmp_path / "state"
    printed = subprocess.run([sys.executable, "-m", "companion", "host-url", "--new", "--state", str(state)],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    new = re.search(r"join\?token=([\w-]+)", printed.stdout).group(1)  # type: ignore[union-attr]
    second = start_server()
    assert second.host_token == new
    assert _state(second, old) == 403 and _state(second, new) == 200


def test_the_host_page_button_gives_a_new_host_link_and_the_page_goes_on(browser: Any, companion_server: Any) -> None:
    server = companion_server
    old = server.host_token
    context, page, errors = open_page(browser, server, old)
    page.get_by_role("button", name="New host link").click()
    expect(page.locator(".new-host-url code")).to_contain_text("/join?token=")
    new = page.locator(".new-host-url code").inner_text().rsplit("token=", 1)[1]
    assert new == server.host_token != old
    assert _state(server, old) == 403
    page.reload()  # the page's cookie is the new link: it still opens the host's page
    expect(page.get_by_role("button", name="New host link")).to_be_visible()
    expect(page.locator(".notice.warn")).to_have_count(0)
    assert errors == [], errors
    context.close()


def _hold_the_answer(context: Any, server: Any, raw: Callable[..., Any], old: str) -> list[tuple[Any, Any]]:
    """Routes the page's POST /api/host/token: the box issues the new link at once, the page gets it when released."""
    held: list[tuple[Any, Any]] = []
    as_the_page = {"Authorization": f"Bearer {old}", "Content-Type": "application/json"}
    context.route("**/api/host/token", lambda route: held.append(
        (route, raw(server.url, "POST", "/api/host/token", b"{}", as_the_page))))
    return held


def _release_and_follow_on(page: Any, server: Any, held: list[tuple[Any, Any]], old: str) -> None:
    """Gives the page the held answer, then checks it shows the new link and follows the table with it."""
    route, (status, headers, body) = held[0]
    route.fulfill(status=status, body=body,
                  headers={"Content-Type": "application/json", "Set-Cookie": headers["set-cookie"]})
    expect(page.locator(".new-host-url code")).to_contain_text("/join?token=")
    assert page.locator(".new-host-url code").inner_text().rsplit("token=", 1)[1] == server.host_token != old
    expect(page.locator("#live")).to_have_class("live on")  # following again
    expect(page.locator(".notice.warn")).to_have_count(0)
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    expect(page.get_by_text("Ann").first).to_be_visible()  # the new stream brings the table


def test_the_host_page_keeps_its_new_link_when_the_old_link_is_refused_before_the_answer(
        browser: Any, companion_server: Any, raw: Callable[..., Any]) -> None:
    """The box ends the old link's stream as it issues the new one, and the page asks again. Here the answer is held
    back until the page's ask was refused (a busy box answers so late): the page still shows the new link and follows
    the table on with the new link's cookie."""
    server = companion_server
    old = server.host_token
    context, page, errors = open_page(browser, server, old)
    expect(page.locator("#live")).to_have_class("live on")
    held = _hold_the_answer(context, server, raw, old)
    refused = lambda response: response.url.endswith("/api/state") and response.status == 403  # noqa: E731
    with page.expect_response(refused, timeout=15_000):  # the old stream ends, comes back refused, the page asks
        page.get_by_role("button", name="New host link").click()
    _release_and_follow_on(page, server, held, old)
    assert [error for error in errors if "403" not in error] == [], errors
    context.close()


def test_the_host_page_shown_again_while_it_renews_its_link_keeps_the_new_link(
        browser: Any, companion_server: Any, raw: Callable[..., Any]) -> None:
    """A tab shown again reads the whole table again. Shown while the answer is late, it reads with the old link and
    is refused: the page reads again with the new link's cookie instead of turning the host away."""
    server = companion_server
    old = server.host_token
    context, page, errors = open_page(browser, server, old)
    expect(page.locator("#live")).to_have_class("live on")
    held = _hold_the_answer(context, server, raw, old)
    page.get_by_role("button", name="New host link").click()
    refused = lambda response: response.url.endswith("/api/history") and response.status == 403  # noqa: E731
    with page.expect_response(refused, timeout=15_000):  # only the read of a tab shown again asks for the history
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    _release_and_follow_on(page, server, held, old)
    assert [error for error in errors if "403" not in error] == [], errors
    context.close()
