"""Smaller holes a phone on the same Wi-Fi could use, closed: a GET that issued tokens, a redirect naming the host a
request's Host header gave, an Authorization header taken for a token whatever its scheme, a seat link of an earlier,
larger game reading a smaller one, and names judged by their code points instead of what people see.

Over the real companion on 127.0.0.1 (demo mode) and its real journal.
"""
from __future__ import annotations

import sqlite3
from typing import Any, Callable

import pytest

Raw = Callable[..., tuple[int, dict[str, str], bytes]]


def _token_rows(server: Any) -> list[tuple[str, str]]:
    """The tokens the journal holds, read beside the running companion."""
    path = server.companion.journal.path
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return sorted(db.execute("SELECT holder, token FROM tokens"))
    finally:
        db.close()


def _start(server: Any, game: str, players: list[str]) -> dict[str, Any]:
    status, shown = server.api("POST", "/api/game", {"game": game, "players": players}, token=server.host_token)
    assert status == 200, shown
    return shown  # type: ignore[no-any-return]


def test_the_seat_qr_codes_are_read_without_issuing_anything(companion_server: Any) -> None:
    server = companion_server
    _start(server, "through-the-gate", ["Ann", "Bob", "Cy"])
    before = _token_rows(server)
    assert {holder for holder, _ in before} >= {"host", "0", "1", "2"}, "a new game gives each of its seats a link"
    for seat in range(3):
        status, svg = server.api("GET", f"/api/seats/{seat}/qr.svg", token=server.host_token)
        assert status == 200 and "<svg" in svg
    assert _token_rows(server) == before
    status, answer = server.api("POST", "/api/seats/1/token", {}, token=server.host_token)  # a new link: a POST
    assert status == 200 and _token_rows(server) != before


@pytest.mark.parametrize("path", ["/static//app.js", "/api//state", "//host"])
def test_no_redirect_names_the_host_a_request_gave(companion_server: Any, raw: Raw, path: str) -> None:
    status, headers, _ = raw(companion_server.url, "GET", path, None, {"Host": "evil.example"})
    assert "evil.example" not in headers.get("location", ""), (status, headers)
    assert not headers.get("location", "/").startswith("//")


def test_a_redirect_stays_on_the_box(companion_server: Any, raw: Raw) -> None:
    token = companion_server.host_token
    status, headers, _ = raw(companion_server.url, "GET", f"/join?token={token}", None, {"Host": "evil.example"})
    assert status == 303 and headers["location"] == "/host"


@pytest.mark.parametrize("header", ["{token}", "Basic {token}", "Token {token}", "Bearer", "bearer  "])
def test_an_authorization_header_that_is_not_bearer_is_refused(companion_server: Any, raw: Raw, header: str,
                                                                 is_sentence: Callable[[Any], bool]) -> None:
    import json

    value = header.format(token=companion_server.host_token)
    status, _, body = raw(companion_server.url, "GET", "/api/state", None, {"Authorization": value})
    assert status == 403 and is_sentence(json.loads(body))
    ok, _, _ = raw(companion_server.url, "GET", "/api/state", None,
                   {"Authorization": f"bearer {companion_server.host_token}"})
    assert ok == 200  # the scheme's case does not matter (RFC 9110)


def test_a_seat_the_game_on_the_table_does_not_have_is_refused_until_a_game_has_it_again(
    companion_server: Any, open_events: Callable[..., Any], is_sentence: Callable[[Any], bool]
) -> None:
    server = companion_server
    five = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    _start(server, "through-the-gate", five)
    eve = server.seat_token(4)
    stream = open_events(server.url, token=eve)
    assert stream.next_snapshot()["you"] == 4
    _start(server, "the-gate", ["Ann", "Bob"])
    status, answer = server.api("GET", "/api/state", token=eve)
    assert status == 403 and answer["error"] == "not_at_table" and is_sentence(answer)
    before = server.seq()
    status, answer = server.api("POST", "/api/press", {"button": "next"}, token=eve)
    assert status == 403 and answer["error"] == "not_at_table" and server.seq() == before
    assert stream.ends_within(3.0), "the phone of a seat no longer at the table still sees it"
    assert open_events(server.url, token=eve).status == 403
    _start(server, "through-the-gate", five)  # Eve is back in her seat: her phone joins again
    status, shown = server.api("GET", "/api/state", token=eve)
    assert status == 200 and shown["you"] == 4


BLANK_NAMES = ["\u3164", "\u2800", "A" + "\u0301" * 20, "\u115f\u1160", "\u200d", "\u0301", "\uffa0 \u3164",
               "An\u200dn"]
REAL_NAMES = ["👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "Nguyễn",
              "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "🇰🇷", "👍🏽" * 24]


@pytest.mark.parametrize("name", BLANK_NAMES)
def test_a_name_that_shows_nothing_or_draws_over_others_is_refused(table: Any, name: str) -> None:
    answer = table.refused("/api/game", {"game": "through-the-gate", "players": ["Ann", name],
                                         **table.ending_this_game()}, table.host_token, status=400)
    assert "name" in answer["message"] and answer.get("message_ko")


@pytest.mark.parametrize("name", REAL_NAMES)
def test_a_real_name_is_taken_as_people_see_it(table: Any, name: str) -> None:
    shown = _start_over(table, ["Ann", name])
    assert shown["players"] == ["Ann", name]


def test_a_name_longer_than_people_may_read_is_refused(table: Any) -> None:
    table.refused("/api/game", {"game": "through-the-gate", "players": ["Ann", "👍🏽" * 25],
                                **table.ending_this_game()}, table.host_token, status=400)


def _start_over(server: Any, players: list[str]) -> dict[str, Any]:
    body = {"game": "through-the-gate", "players": players, **server.ending_this_game()}
    status, shown = server.api("POST", "/api/game", body, token=server.host_token)
    assert status == 200, shown
    return shown  # type: ignore[no-any-return]
