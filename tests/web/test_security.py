"""Strangers on the café Wi-Fi: who may do what, against the real companion on 127.0.0.1.

Tokens from `secrets`, compared with hmac.compare_digest; wrong tokens limited per address; a seat
acts only for itself; the host revokes and re-issues at once (open event streams too); strict CSP
and no inline code on every page; tokens never in the logs; no cross-site writes. Hostile input (no
GET changes anything, bad bodies are refused) is tests/web/test_hostile_input.py.
"""
from __future__ import annotations

import hmac
import json
import logging
import re
import signal
import subprocess
import sys
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import pytest

import companion.table.tokens
from companion.table.tokens import Tokens

REPO = Path(__file__).resolve().parents[2]
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


# --- the pages: a strict policy and no inline code -------------------------------------------
class PageCheck(HTMLParser):
    """Collects what a strict CSP would block or what smells of inline code."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.assets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.problems.append(f"<{tag} {name}=…>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:…>")
        if tag == "script" and not named.get("src"):
            self.problems.append("<script> without src")
        if tag == "style":
            self.problems.append("<style> element")
        source = named.get("src") if tag == "script" else named.get("href") if tag == "link" else None
        if source:
            self.assets.append(source)


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: sources}."""
    found: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            found[words[0].lower()] = words[1:]
    return found


def check_policy(header: str) -> None:
    """Assert the policy allows scripts and styles from this box only, and no framing."""
    rules = policy(header)
    assert rules["default-src"] == ["'self'"] and rules["script-src"] == ["'self'"] and rules["style-src"] == ["'self'"]
    assert rules["frame-ancestors"] == ["'none'"] and rules["base-uri"] == ["'none'"]
    assert rules.get("object-src", ["'none'"]) in (["'none'"], ["'self'"]) and rules["form-action"] == ["'self'"]
    assert "unsafe" not in header and "*" not in header


def test_every_page_sends_a_strict_policy_and_holds_no_inline_code(companion_server: Any, raw: Raw) -> None:
    app = companion_server.companion.server.app
    pages = sorted(rule.rule for rule in app.url_map.iter_rules()
                   if "GET" in rule.methods and not rule.rule.startswith(("/api/", "/static")))
    assert {"/", "/host", "/join"} <= set(pages), pages
    seen = set()
    for path in [*pages, "/join?token=wrong", "/join?token=", f"/join?token={companion_server.seat_token(0)}"]:
        status, headers, body = raw(companion_server.url, "GET", path, None, {"Accept": "text/html"})
        check_policy(headers["content-security-policy"])
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY", path
        if headers.get("content-type", "").startswith("text/html"):
            page = PageCheck()
            page.feed(body.decode())
            assert not page.problems, (path, page.problems)
            assert all(asset.startswith("/") and not asset.startswith("//") for asset in page.assets), page.assets
            seen.update(page.assets)
    assert any(asset.endswith(".js") for asset in seen)
    for asset in seen:
        status, headers, _ = raw(companion_server.url, "GET", asset, None, {})
        assert status == 200 and headers["x-content-type-options"] == "nosniff", asset
        assert headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript", "text/css", "image/svg+xml")


# --- tokens never reach the logs ---------------------------------------------------------------
def test_tokens_never_reach_the_logs(companion_server: Any, raw: Raw, caplog: pytest.LogCaptureFixture,
                                     capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    server, url = companion_server, companion_server.url
    server.companion.server.app.config["LOG_REQUESTS"] = True
    secrets_seen = [server.host_token, server.seat_token(0), server.seat_token(1), "WrongGuess-b7Q2xZ9kLm4P"]
    monkeypatch.setattr(server.companion.loop, "history", lambda: {}["broken on purpose"])
    caplog.set_level(logging.DEBUG)
    for token in secrets_seen:
        raw(url, "GET", f"/join?token={token}", None, {})
        raw(url, "GET", f"/api/state?token={token}", None, {"Authorization": f"Bearer {token}"})
        raw(url, "GET", "/api/history", None, {"Cookie": f"companion_token={token}"})
        raw(url, "POST", "/api/undo", b"{}", {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"})
    captured = capfd.readouterr()
    logged = caplog.text + captured.out + captured.err
    assert "GET /join 303" in logged and "GET /api/history failed" in logged, "the logs were captured"
    for token in secrets_seen:
        assert token not in logged


def _wait_until_serving(url: str, process: subprocess.Popen[str], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=1.0):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the daemon did not serve within {seconds} s (exit code {process.poll()})")


def test_the_running_daemon_keeps_tokens_out_of_its_output(tmp_path: Path, raw: Raw, free_port: int) -> None:
    port, state = free_port, tmp_path / "state"
    command = [sys.executable, "-m", "companion", "run", "--host", "127.0.0.1", "--port", str(port), "--state", str(state),
               "--camera", "none"]
    daemon = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, daemon)
        asked = subprocess.run([sys.executable, "-m", "companion", "host-url", "--state", str(state)], cwd=REPO,
                               capture_output=True, text=True, timeout=30, check=True)
        host = parse_qs(urlsplit(asked.stdout.strip()).query)["token"][0]
        _, _, body = raw(url, "POST", "/api/seats/0/token", b"{}", {"Authorization": f"Bearer {host}", "Content-Type": "application/json"})
        seat = parse_qs(urlsplit(json.loads(body)["url"]).query)["token"][0]
        tokens = [host, seat, "WrongGuess-b7Q2xZ9kLm4P"]
        for token in tokens:
            raw(url, "GET", f"/join?token={token}", None, {})
            raw(url, "GET", f"/api/state?token={token}", None, {"Authorization": f"Bearer {token}"})
            raw(url, "GET", "/api/history", None, {"Cookie": f"companion_token={token}"})
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            out, err = daemon.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            daemon.kill()
            out, err = daemon.communicate(timeout=5)
    assert "Table companion running" in out and "Stopped cleanly." in out, (out, err)
    for token in tokens:
        assert token not in out + err


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


