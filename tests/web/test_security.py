"""Strangers on the café Wi-Fi: who may do what, against the real companion on 127.0.0.1.

Tokens from `secrets`, compared with hmac.compare_digest; wrong tokens limited per address; a seat
acts only for itself; the host revokes and re-issues at once (open event streams too); no cross-site
writes. Strict CSP and no inline code on every page, and tokens never in the logs, are
tests/web/test_security_pages_and_logs.py; hostile input (no GET changes anything, bad bodies are
refused) is tests/web/test_hostile_input.py.
"""
from __future__ import annotations

import hmac
import json
import re
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import pytest

import companion.table.tokens
from companion.table.tokens import Tokens

NEW_GAME = {"game": "through-the-gate", "players": ["Ann", "Bob"]}
ANN, BOB = 0, 1
Raw = Callable[..., tuple[int, dict[str, str], bytes]]


# --- helpers ------------------------------------------------------------------------------------
def cookie_of(headers: dict[str, str]) -> str:
    """The companion_token value a response's Set-Cookie carries."""
    found = re.search(r"companion_token=([^;]+)", headers.get("set-cookie", ""))
    assert found, headers
    return found.group(1)


class FakeJournal:
    """Just the token rows of a journal."""

    def __init__(self) -> None:
        self.rows: dict[str, str] = {}

    def token_rows(self) -> list[tuple[str, str]]:
        return list(self.rows.items())

    def save_token(self, holder: str, token: str, *, at: float) -> None:
        self.rows[holder] = token

    def changed_elsewhere(self) -> bool:
        return False


# --- tokens: from secrets, compared in constant time -------------------------------------------
def test_tokens_are_drawn_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, str]] = []

    def token_urlsafe(nbytes: int) -> str:
        drawn.append((nbytes, f"drawn-{len(drawn)}"))
        return drawn[-1][1]

    monkeypatch.setattr(companion.table.tokens.secrets, "token_urlsafe", token_urlsafe)
    book = Tokens(FakeJournal())  # type: ignore[arg-type]
    issued = [book.host_token(), book.seat_token(0), book.seat_token(1), book.reissue(0)]
    assert issued == [token for _, token in drawn]
    assert all(nbytes >= 16 for nbytes, _ in drawn), "at least 128 random bits a token"


def test_the_real_tokens_are_long_distinct_and_url_safe(companion_server: Any) -> None:
    tokens = [companion_server.host_token, *(companion_server.seat_token(seat) for seat in range(5))]
    assert len(set(tokens)) == len(tokens)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", token) for token in tokens), tokens


def test_holder_compares_every_token_with_compare_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    book = Tokens(FakeJournal())  # type: ignore[arg-type]
    seats = [book.seat_token(seat) for seat in range(3)]
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(given: Any, known: Any) -> bool:
        compared.append((given, known))
        return real(given, known)

    monkeypatch.setattr(companion.table.tokens.hmac, "compare_digest", spy)
    for token in (book.host_token(), seats[1], "a-wrong-guess-of-the-same-length!"):
        compared.clear()
        book.holder(token)
        assert len(compared) == 4, "every issued token is compared, a match or not (no early exit)"
        assert all(isinstance(given, bytes) and given == token.encode() for given, _ in compared)
    monkeypatch.setattr(companion.table.tokens.hmac, "compare_digest", lambda given, known: False)
    assert book.holder(book.host_token()) is None and book.holder(seats[0]) is None


def test_the_web_checks_tokens_only_through_compare_digest(companion_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert companion_server.api("GET", "/api/state", token=companion_server.host_token)[0] == 200
    monkeypatch.setattr(companion.table.tokens.hmac, "compare_digest", lambda given, known: False)
    for path in ("/api/state", "/api/history"):
        assert companion_server.api("GET", path, token=companion_server.host_token)[0] == 403


# --- wrong tokens are limited per address -----------------------------------------------------
def test_ten_wrong_tokens_lock_out_that_address_only(companion_server: Any, raw: Raw) -> None:
    url, host = companion_server.url, companion_server.host_token
    guesses = [("/api/state", {"Authorization": "Bearer nope"}), ("/join?token=guess", {}),
               ("/api/history", {"Cookie": "companion_token=guess"}), ("/api/state", {"Authorization": "Bearer " + "x" * 300}),
               ("/api/events", {"Authorization": "Bearer nope"})]
    for attempt in range(10):
        path, headers = guesses[attempt % len(guesses)]
        status, _, _ = raw(url, "GET", path, None, headers, source="127.0.0.2")
        assert status == 403, (attempt, path)
    for path, headers in (("/api/state", {"Authorization": f"Bearer {host}"}), (f"/join?token={host}", {}),
                          ("/api/state", {"Authorization": f"Bearer {host}", "X-Forwarded-For": "127.0.0.9"})):
        status, _, body = raw(url, "GET", path, None, headers, source="127.0.0.2")
        assert status == 429 and b"wait a minute" in body, (path, status)
    status, _, _ = raw(url, "GET", "/api/state", None, {"Authorization": f"Bearer {host}"}, source="127.0.0.3")
    assert status == 200


# --- a seat acts only for itself; the host for all -------------------------------------------
def test_a_seat_token_acts_only_for_its_own_seat(table: Any) -> None:
    ann, bob, host = table.seat_token(ANN), table.seat_token(BOB), table.host_token
    table.refused("/api/actions", {"seat": ANN, "move": "declare_speed", "args": {"speed": 4}}, bob, status=403, code="forbidden")
    table.refused("/api/dice", {"values": [6], "sides": [6]}, bob, status=409, code="not_your_turn")  # Ann's roll-off
    assert table.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=ann)[0] == 200
    table.refused("/api/dice/correct", {"values": [1], "sides": [6]}, bob, status=409, code="not_your_turn")
    assert table.api("POST", "/api/dice", {"values": [1], "sides": [6]}, token=bob)[0] == 200  # Ann goes first
    assert table.api("POST", "/api/actions", {"seat": ANN, "move": "declare_speed", "args": {"speed": 4}}, token=ann)[0] == 200
    table.refused("/api/undo", {}, bob, status=409, code="not_your_turn")
    for path in ("/api/game", "/api/seats/0/token"):
        table.refused(path, NEW_GAME if path == "/api/game" else {}, bob, status=403, code="forbidden")
    assert table.api("GET", "/api/seats/0/qr.svg", token=bob)[0] == 403
    assert table.api("POST", "/api/undo", {}, token=ann)[0] == 200
    status, snapshot = table.api("POST", "/api/actions", {"seat": ANN, "move": "declare_speed", "args": {"speed": 5}}, token=host)
    assert status == 200 and snapshot["you"] is None
    assert table.api("POST", "/api/undo", {}, token=host)[0] == 200


# --- the host revokes and re-issues, at once --------------------------------------------------
def test_a_revoked_seat_token_is_refused_at_once_even_on_an_open_stream(table: Any, raw: Raw, open_events: Any) -> None:
    old = table.seat_token(BOB)
    _, headers, _ = raw(table.url, "GET", f"/join?token={old}", None, {})
    cookie = {"Cookie": f"companion_token={cookie_of(headers)}"}
    stream = open_events(table.url, token=old)
    assert stream.next_snapshot(timeout=2.0)["you"] == BOB

    status, link = table.api("POST", f"/api/seats/{BOB}/token", {}, token=table.host_token)
    assert status == 200 and link["seat"] == BOB
    new = parse_qs(urlsplit(link["url"]).query)["token"][0]
    assert new != old and table.seat_token(BOB) == new
    assert table.api("GET", "/api/state", token=old)[0] == 403
    assert raw(table.url, "GET", "/api/state", None, cookie)[0] == 403
    assert stream.ends_within(1.5), "the revoked token's event stream must end at once"
    assert table.api("GET", "/api/state", token=new)[1]["you"] == BOB
    assert open_events(table.url, token=new).next_snapshot(timeout=2.0)["you"] == BOB


# --- no cross-site writes ------------------------------------------------------------------------
CROSS_SITE = (
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://127.0.0.1:1"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Content-Type": "text/plain"},
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "multipart/form-data; boundary=x"},
    {"Content-Type": ""},
)


def test_cross_site_writes_are_refused(table: Any, raw: Raw) -> None:
    _, joined, _ = raw(table.url, "GET", f"/join?token={table.host_token}", None, {})
    before = table.seq()
    for headers in CROSS_SITE:
        sent = {"Cookie": f"companion_token={cookie_of(joined)}", "Content-Type": "application/json", **headers}
        for path, body in (("/api/dice", {"values": [6], "sides": [6]}), ("/api/game", NEW_GAME), ("/api/seats/1/token", {})):
            status, answer_headers, answer = raw(table.url, "POST", path, json.dumps(body).encode(), sent)
            assert status == 403 and json.loads(answer)["error"] in ("cross_site", "json_required"), (headers, path, status)
            assert "access-control-allow-origin" not in answer_headers
    assert table.seq() == before


def test_the_cookie_is_strict_and_same_origin_json_works(table: Any, raw: Raw) -> None:
    _, joined, _ = raw(table.url, "GET", f"/join?token={table.seat_token(ANN)}", None, {})
    assert "HttpOnly" in joined["set-cookie"] and "SameSite=Strict" in joined["set-cookie"]
    origin = table.url
    sent = {"Cookie": f"companion_token={cookie_of(joined)}", "Content-Type": "application/json; charset=utf-8",
            "Origin": origin, "Sec-Fetch-Site": "same-origin"}
    status, _, _ = raw(table.url, "POST", "/api/dice", b'{"values": [6], "sides": [6]}', sent)
    assert status == 200
    status, headers, _ = raw(table.url, "OPTIONS", "/api/dice", None, {"Origin": "http://evil.example",
                                                                       "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in headers
