"""The HTTP server: waitress with enough threads for every phone's event stream, and a clean stop.

waitress 3 sends each chunk an app yields as soon as it is written (its old `send_bytes` buffer
option defaults to 1 byte and is deprecated), so SSE events leave at once; tests prove it. Behind the front
(web/front.py) it listens on 127.0.0.1 only and takes the phone's address from nginx's X-Forwarded-For; its own
limits (body size, idle time, connections) stay as a second line for when it serves directly.
"""
from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from web.auth import WebState

SPARE_THREADS = 8
"""Threads kept free of event streams so that API requests are always answered."""
IDLE_SECONDS = 30
"""An idle keep-alive connection is closed after this long (a stream is never idle: keepalives)."""
LOOP_SECONDS = 0.25
"""The longest the serving loop sleeps before it looks whether close() was called."""
DEAD_PEER_SECONDS = 30
"""A connection whose sent data stays unacknowledged this long is dropped (the phone is gone)."""
GONE_PHONE_LINES = ("Client disconnected while serving",)
"""waitress's lines for a page closed, reloaded or gone mid-answer: a phone's everyday life, not news for the log."""
OUTBUF_BYTES = 64 * 1024
"""waitress keeps every byte a response has sent in one buffer until this many went through (16 MB
by default): each event stream held up to 16 MB of old snapshots. It is also the most a phone that
stopped reading can have waiting; then its stream's thread waits for it (the others go on)."""


_TRUST_FRONT: dict[str, Any] = {"trusted_proxy": "127.0.0.1", "trusted_proxy_headers": {"x-forwarded-for"},
                                "trusted_proxy_count": 1}
"""nginx on 127.0.0.1 says each phone's address in X-Forwarded-For; from anywhere else the header is dropped."""


class Server:
    """A waitress server for the app: run() blocks serving, close() stops it, .port is bound."""

    def __init__(self, app: Flask, *, host: str, port: int, threads: int, behind_front: bool = False) -> None:
        """Bind the socket now (port 0: any free port; `behind_front`: trust X-Forwarded-For from 127.0.0.1, where
        nginx is); raises OSError when it cannot bind."""
        self.app = app
        self._stopped = threading.Event()
        self._running = threading.Event()
        self._closing = threading.Event()
        self._waitress: Any = create_server(
            app, host=host, port=port, threads=threads, channel_timeout=IDLE_SECONDS, connection_limit=200,
            ident="companion", expose_tracebacks=False, clear_untrusted_proxy_headers=True,
            asyncore_use_poll=True, outbuf_high_watermark=OUTBUF_BYTES,
            log_socket_errors=False,  # a phone that stopped reading (reset, timed out): no traceback in the log
            max_request_body_size=int(app.config.get("MAX_CONTENT_LENGTH") or 2**30) + 1,  # refused from its Content-Length
            channel_request_lookahead=1,  # reads on while a stream runs, so a closed connection is seen at once
            **(_TRUST_FRONT if behind_front else {}),
        )
        quiet_gone_phones()
        self._waitress.adj.socket_options = socket_options()
        self.port: int = int(self._waitress.effective_port)
        self.host: str = str(self._waitress.effective_host)

    def run(self) -> None:
        """Serve until close() is called, then close every connection; raises OSError on socket failure."""
        self._running.set()
        socket_map = self._waitress._map
        try:
            while not self._closing.is_set() and socket_map:
                wasyncore.loop(timeout=LOOP_SECONDS, map=socket_map, use_poll=True, count=1)
        finally:
            wasyncore.close_all(socket_map, ignore_all=True)
            self._stopped.set()

    def close(self, timeout: float = 5.0) -> None:
        """Stop serving: end the event streams, close every connection, stop the threads; raises nothing."""
        state: WebState = self.app.extensions["companion"]
        state.stopping.set()
        self._closing.set()
        if self._running.is_set():
            try:
                self._waitress.trigger.pull_trigger()  # wake the poll at once; it wakes by itself anyway
            except OSError:
                pass
            self._stopped.wait(timeout)
        else:
            wasyncore.close_all(self._waitress._map, ignore_all=True)
        self._waitress.task_dispatcher.shutdown(timeout=timeout)


class GonePhones(logging.Filter):
    """Drops waitress's line for a client that went away while it was being answered."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is news for the person reading the log; raises nothing."""
        return not str(record.msg).startswith(GONE_PHONE_LINES)


def quiet_gone_phones() -> None:
    """Keep pages closed, reloaded or gone out of the log (idempotent); raises nothing."""
    logger = logging.getLogger("waitress")
    if not any(isinstance(each, GonePhones) for each in logger.filters):
        logger.addFilter(GonePhones())


def socket_options() -> list[tuple[int, int, int]]:
    """TCP options for each connection: no Nagle delay, and a phone that vanished (Wi-Fi gone,
    app suspended) is dropped within about 30 s, freeing its stream's thread; raises nothing."""
    wanted = [("TCP_NODELAY", 1), ("TCP_KEEPIDLE", 20), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3),
              ("TCP_USER_TIMEOUT", DEAD_PEER_SECONDS * 1000)]
    found = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    found += [(socket.IPPROTO_TCP, getattr(socket, name), value) for name, value in wanted if hasattr(socket, name)]
    return found


def make_server(app: Flask, *, host: str, port: int, threads: int = 48, behind_front: bool = False) -> Server:
    """A bound (not yet serving) server (`behind_front`: on 127.0.0.1 for nginx, whatever `host` says); raises
    OSError when the address cannot be bound."""
    state: WebState = app.extensions["companion"]
    state.streams.total = max(1, threads - SPARE_THREADS)
    if behind_front:
        host = "127.0.0.1"
    return Server(app, host=host, port=port, threads=threads, behind_front=behind_front)
