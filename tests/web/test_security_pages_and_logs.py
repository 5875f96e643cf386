"""What the real companion on 127.0.0.1 sends and writes: a strict CSP and no inline code on every page, and no
token in the logs, whether of the app in the test or of the running daemon (who may do what: test_security.py)."""
from __future__ import annotations

import json
import logging
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

REPO = Path(__file__).resolve().parents[2]
Raw = Callable[..., tuple[int, dict[str, str], bytes]]


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
