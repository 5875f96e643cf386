"""A page closed or reloaded, and a phone that stops reading its event stream, are not news for the log: the real
server on 127.0.0.1 logs neither a line at INFO or above nor a traceback for them."""
from __future__ import annotations

import logging
import socket
import struct
import time
from typing import Any

import pytest


def _stream(server: Any, token: str) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=5)
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    heard, deadline = b"", time.monotonic() + 5
    while b"event: snapshot" not in heard and time.monotonic() < deadline:
        heard += sock.recv(65536)
    assert b"event: snapshot" in heard
    return sock


def _about_the_server(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith("waitress")
            and (record.levelno >= logging.INFO or record.exc_info)]


def _new_game(server: Any) -> None:
    """A change on the table: every open stream is sent a snapshot."""
    status, _ = server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"],
                                                  **server.ending_this_game()}, token=server.host_token)
    assert status == 200


def test_a_closed_page_and_a_phone_that_vanished_log_nothing(companion_server: Any,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    server = companion_server
    caplog.set_level(logging.DEBUG, logger="waitress")
    for _ in range(3):  # pages closed or reloaded
        _stream(server, server.host_token).close()
    gone = _stream(server, server.host_token)  # a phone whose Wi-Fi dropped: its connection is reset
    gone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    gone.close()
    for _ in range(3):
        _new_game(server)
        time.sleep(0.6)  # each stream wakes, writes to its gone phone and ends
    assert server.api("GET", "/api/state", token=server.host_token)[0] == 200
    assert _about_the_server(caplog) == []
