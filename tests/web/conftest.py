"""Web test helpers: an SSE reader, OpenAPI response checks, a small fake port for unit tests, and the
headless browser for the phone-page tests."""
from __future__ import annotations

import http.client
import json
import shutil
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import jsonschema_rs
import pytest
from playwright.sync_api import Browser, sync_playwright

from companion.table.port import Holder
from companion.rules.errors import CompanionError
from web import create_app
from web.openapi import document

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SNAPSHOT: dict[str, Any] = {
    "seq": 1, "game": "through-the-gate", "title": "Through The Gate", "players": ["Ann", "Bob"], "you": None,
    "whose_turn": [0], "outcome": None, "legal_moves": [], "can_undo": False, "can_correct": False, "awaiting_dice": None, "view": {},
    "dice": None, "camera": {"status": "none", "message": ""}, "message": None,
    "lights": {"seats": [True, False], "status": "ready", "buzz": False}, "records": None, "demo": True,
    "boot": "5eed0001",
}


# --- the fake port (unit tests of auth, CSRF, error mapping and the stream only) --------------
class FakeTokens:
    """Tokens 'host', 'seat0', 'seat1', …; compares plainly (the real book is constant-time)."""

    def __init__(self) -> None:
        self.tokens = {"host-token": Holder(None), "seat0-token": Holder(0), "seat1-token": Holder(1)}

    def holder(self, token: str | None) -> Holder | None:
        return self.tokens.get(token or "")

    def seat_token(self, seat: int) -> str:
        return next(token for token, holder in self.tokens.items() if holder.seat == seat)

    def host_token(self) -> str:
        return "host-token"

    def reissue(self, seat: int) -> str:
        self.tokens = {token: holder for token, holder in self.tokens.items() if holder.seat != seat}
        token = f"seat{seat}-new{len(self.tokens)}"
        self.tokens[token] = Holder(seat)
        return token

    def has_seat_token(self, seat: int) -> bool:
        return any(holder.seat == seat for holder in self.tokens.values())

    def reissue_host(self) -> str:
        self.tokens = {token: holder for token, holder in self.tokens.items() if not holder.is_host}
        self.tokens["host-token-new"] = Holder(None)
        return "host-token-new"


@dataclass
class FakePort:
    """A TablePort that records inputs and refuses with `refuse` when set."""

    tokens: FakeTokens = field(default_factory=FakeTokens)
    seq: int = 1
    inputs: list[Any] = field(default_factory=list)
    refuse: BaseException | None = None
    pressed: list[str] = field(default_factory=list)
    demo: bool = True
    changed: threading.Condition = field(default_factory=threading.Condition)

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        return {**SNAPSHOT, "seq": self.seq, "you": seat}

    def submit(self, given: Any, *, source: str, seen: Any = None) -> dict[str, Any]:
        if self.refuse is not None:
            raise self.refuse
        self.inputs.append((given, source))
        self.seen = seen
        self.bump()
        return self.snapshot(None)

    def bump(self) -> None:
        with self.changed:
            self.seq += 1
            self.changed.notify_all()

    def press(self, button: str, *, by: Holder | None = None) -> None:
        self.pressed.append(button)

    def wait_for_change(self, after_seq: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.seq > after_seq, timeout)
            return self.seq

    def games(self) -> list[dict[str, Any]]:
        return [{"id": "through-the-gate", "title": "Through The Gate", "summary": "", "min_players": 1,
                 "max_players": 5, "options": {"type": "object", "properties": {}}}]

    def history(self) -> list[dict[str, Any]]:
        return []

    def crop(self, name: str) -> bytes | None:
        return b"\xff\xd8jpeg" if name == "die0" else None

    def join_url(self, holder: Holder) -> str:
        token = "host-token" if holder.is_host else self.tokens.seat_token(holder.seat or 0)
        return f"http://192.168.1.20:8080/join?token={token}"


@pytest.fixture
def fake_port() -> FakePort:
    """A fresh fake port."""
    return FakePort()


@pytest.fixture
def client(fake_port: FakePort) -> Any:
    """A Flask test client of an app over the fake port."""
    return create_app(fake_port).test_client()


def refusal(error: type[CompanionError], message: str = "No.") -> CompanionError:
    """A refusal like the engine raises."""
    return error(message)


# --- the event stream ----------------------------------------------------------------------
class EventReader:
    """Reads a text/event-stream over a raw HTTP/1.0 socket (no chunking) with bounded waits."""

    def __init__(self, base_url: str, *, token: str | None = None, headers: dict[str, str] | None = None,
                 source: str | None = None) -> None:
        host, port = base_url.removeprefix("http://").split(":")
        assert host == "127.0.0.1"
        self.sock = socket.create_connection((host, int(port)), timeout=5, source_address=(source, 0) if source else None)
        sent = {"Host": f"{host}:{port}", "Accept": "text/event-stream", **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        lines = "".join(f"{key}: {value}\r\n" for key, value in sent.items())
        self.sock.sendall(f"GET /api/events HTTP/1.0\r\n{lines}\r\n".encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n", 5.0)
        self.status = int(head.split(b" ", 2)[1])
        self.headers = head.decode("latin-1").lower()

    def _until(self, marker: bytes, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while marker not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {marker!r} within {timeout} s")
            self.sock.settimeout(min(left, 0.1))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise EOFError("the stream ended")
            self.buffer += chunk
        found, _, self.buffer = self.buffer.partition(marker)
        return found

    def next_block(self, timeout: float = 2.0) -> dict[str, Any]:
        """The next event or comment block: {'event', 'id', 'data', 'retry', 'comment'}."""
        block: dict[str, Any] = {}
        for line in self._until(b"\n\n", timeout).decode().split("\n"):
            key, _, value = line.partition(":")
            block[key or "comment"] = value.removeprefix(" ")
        if "data" in block:
            block["data"] = json.loads(block["data"])
        return block

    def next_snapshot(self, timeout: float = 2.0) -> dict[str, Any]:
        """The next snapshot event's data, skipping keepalives; raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while True:
            block = self.next_block(max(0.01, deadline - time.monotonic()))
            if block.get("event") == "snapshot":
                assert int(block["id"]) == block["data"]["seq"]
                return block["data"]

    def ends_within(self, timeout: float) -> bool:
        """Whether the server ends the stream within timeout (events in between are skipped)."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.next_block(max(0.01, deadline - time.monotonic()))
        except EOFError:
            return True
        except TimeoutError:
            return False
        return False

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def open_events() -> Iterator[Callable[..., EventReader]]:
    """Open event streams; all closed at the end."""
    opened: list[EventReader] = []

    def open_one(base_url: str, **kwargs: Any) -> EventReader:
        reader = EventReader(base_url, **kwargs)
        opened.append(reader)
        return reader

    yield open_one
    for reader in opened:
        reader.close()


# --- OpenAPI response checks ----------------------------------------------------------------
class ApiSchemas:
    """Validates response bodies against the OpenAPI document's schemas."""

    def __init__(self) -> None:
        self.document = document()

    def schema_for(self, method: str, path: str, status: int) -> dict[str, Any]:
        operation = self.document["paths"][path][method.lower()]
        response = operation["responses"][str(status)]
        if "$ref" in response:
            response = self.document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
        return response["content"]["application/json"]["schema"]

    def check(self, method: str, path: str, status: int, body: Any) -> None:
        """Assert the body matches the documented schema of that response."""
        schema = {**self.schema_for(method, path, status), "components": self.document["components"]}
        validator = jsonschema_rs.Draft202012Validator(schema)
        errors = [str(error) for error in validator.iter_errors(body)]
        assert not errors, f"{method} {path} {status}: {errors[:3]}"


@pytest.fixture(scope="session")
def api_schemas() -> ApiSchemas:
    """The OpenAPI schemas, for checking responses."""
    return ApiSchemas()


def raw_request(url: str, method: str, path: str, body: bytes | None, headers: dict[str, str],
                source: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request with exact headers (and optionally another loopback source address)."""
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1"
    connection = http.client.HTTPConnection(host, int(port), timeout=10,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, {key.lower(): value for key, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


@pytest.fixture(scope="session")
def raw() -> Callable[..., tuple[int, dict[str, str], bytes]]:
    """raw_request, as a fixture (test modules cannot import conftest under importlib mode)."""
    return raw_request


# --- the real companion with a game on -------------------------------------------------------------
@pytest.fixture
def table(companion_server: Any) -> Any:
    """The real companion with a fresh two-player Through The Gate: Ann rolls first."""
    game = {"game": "through-the-gate", "players": ["Ann", "Bob"]}
    status, _ = companion_server.api("POST", "/api/game", game, token=companion_server.host_token)
    assert status == 200
    return companion_server


# --- the phone page's browser ------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright; fails (never skips) when `make browser` was not run."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "the phone-page tests need Debian's chromium: run `make browser`"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        yield launched
        launched.close()
