"""The live push: a Server-Sent Events stream of snapshots, one per change of `seq`.

Every (re)connect starts with the full snapshot. One stream holds one server thread, so the
number of streams is bounded: per client address (a phone that reconnects ends its oldest stream),
per token (one link cannot take every place) and in all. A stream ends within WAIT_SLICE of its phone
closing the connection. A stream only ever waits on the port's condition; it never blocks the engine.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, request

from companion.table.network import lan_address
from companion.table.port import Holder, TablePort
from web.auth import Refusal, admitted, presented_token, reader, web_state

bp = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 2000
OWN_STREAMS = 8  # from the box itself (a laptop in demo mode): the host's tab and a tab per seat
PER_TOKEN = 8
"""Streams one link may hold (a seat's phones, the host's phone and laptop tabs): one link takes at most a fifth."""
log = logging.getLogger(__name__)
WAIT_SLICE = 0.5
"""How often a waiting stream looks up from the port's condition to see if it should end."""


@dataclass(eq=False)
class Watcher:
    """One open stream: whose link it uses, and the event that tells it to end."""

    token: str
    ended: threading.Event = field(default_factory=threading.Event)


class StreamBook:
    """The open streams, by client address: at most `per_address` each, `per_token` a link and `total` in all.

    A phone that comes back from the background opens a new stream while the server may still hold
    its dead one: a new stream from an address that is at its bound (or when all is full) ends that
    address's oldest stream, and one over its link's bound ends that link's oldest stream from the same
    address. Phones sharing a seat's link have their own addresses, so they never push each other out;
    a new address is refused only when every stream is taken (503) or its link holds `per_token`
    streams from other addresses (429). The box's own address (a laptop in demo mode, one tab per seat)
    may hold OWN_STREAMS.
    """

    def __init__(self, *, total: int, per_address: int = 3, per_token: int = PER_TOKEN) -> None:
        self.total = total
        self.per_address = per_address
        self.per_token = per_token
        self._open: dict[str, list[Watcher]] = {}
        self._lock = threading.Lock()

    def open(self, address: str, *, token: str = "", own: bool = False) -> threading.Event:
        """Register a stream on `token`'s link (`own`: from the box itself); returns the event that tells it to
        end; raises Refusal 503 when every stream is taken, 429 when the link holds its share from elsewhere."""
        watcher = Watcher(token)
        with self._lock:
            mine = self._open.get(address, [])
            full = self.count_locked() >= self.total
            if full and not mine:
                raise Refusal(503, "busy", "Too many phones are watching the table; close a tab and try again.")
            same_link = [other for other in mine if other.token == token]
            if self._on_link_locked(token) >= self.per_token:
                if not same_link:
                    raise Refusal(429, "too_many_streams", f"{self.per_token} phones already watch the table with "
                                  "this link; close it on one of them and try again.")
                self._end_locked(mine, same_link[0])
            elif full or len(mine) >= (max(self.per_address, OWN_STREAMS) if own else self.per_address):
                self._end_locked(mine, mine[0])
            mine.append(watcher)
            self._open[address] = mine
        return watcher.ended

    def close(self, address: str, ended: threading.Event) -> None:
        """Forget a finished stream; raises nothing."""
        with self._lock:
            mine = self._open.get(address, [])
            mine[:] = [watcher for watcher in mine if watcher.ended is not ended]
            if not mine:
                self._open.pop(address, None)

    def count(self) -> int:
        """How many streams are open; raises nothing."""
        with self._lock:
            return self.count_locked()

    def count_locked(self) -> int:
        """How many streams are open, the lock already held; raises nothing."""
        return sum(len(streams) for streams in self._open.values())

    def _on_link_locked(self, token: str) -> int:
        """How many streams use that link, the lock already held; raises nothing."""
        return sum(watcher.token == token for streams in self._open.values() for watcher in streams)

    @staticmethod
    def _end_locked(mine: list[Watcher], watcher: Watcher) -> None:
        """Tell a stream to end and forget it at once, the lock already held; raises nothing."""
        mine.remove(watcher)
        watcher.ended.set()


def event(snapshot: dict[str, Any]) -> str:
    """One SSE `snapshot` event with the seq as its id; raises TypeError for non-JSON values."""
    data = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
    return f"id: {snapshot['seq']}\nevent: snapshot\ndata: {data}\n\n"


def _from_the_box(address: str) -> bool:
    """Whether a stream comes from the box itself: a loopback address, or the box's LAN address (a demo
    laptop's tabs opened at its join address). Only the connection's own address counts: a Host header is
    the client's to write. Raises nothing."""
    try:
        loopback = ipaddress.ip_address(address).is_loopback
    except ValueError:
        loopback = False
    return loopback or address == lan_address()


@bp.get("/events")
def events() -> Response:
    """The event stream of snapshots for the token's holder; raises Refusal 403/429/503."""
    holder = reader()
    state = web_state()
    token = presented_token()
    address = request.remote_addr or "unknown"
    ended = state.streams.open(address, token=token or "", own=_from_the_box(address))
    keepalive = float(current_app.config.get("SSE_KEEPALIVE", 15.0))
    gone = request.environ.get("waitress.client_disconnected", lambda: False)  # reads on (channel_request_lookahead)
    ends = Ends(ended, state.stopping, gone, address)
    stream = _stream(state.port, holder, token, ends, keepalive)
    response = Response(Closing(stream, lambda: ends.closed(state.streams)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


class Closing:
    """An iterator of chunks that runs `on_close` once when the server closes it, even unstarted."""

    def __init__(self, chunks: Generator[str, None, None], on_close: Callable[[], None]) -> None:
        self._chunks = chunks
        self._on_close: Callable[[], None] | None = on_close

    def __iter__(self) -> "Closing":
        return self

    def __next__(self) -> str:
        return next(self._chunks)

    def close(self) -> None:
        """End the chunks and forget the stream (idempotent); raises nothing."""
        self._chunks.close()
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()


@dataclass(frozen=True)
class Ends:
    """What ends a stream: a newer stream in its place, the server stopping, or its phone gone."""

    ended: threading.Event
    stopping: threading.Event
    gone: Callable[[], bool]
    address: str

    def now(self) -> bool:
        """Whether the stream should end now; raises nothing."""
        return self.ended.is_set() or self.stopping.is_set() or self.gone()

    def closed(self, streams: StreamBook) -> None:
        """Forget the ended stream; a phone gone says one line in the log, whether the stream saw it go or the
        server did, writing to it; raises nothing."""
        streams.close(self.address, self.ended)
        if not (self.ended.is_set() or self.stopping.is_set()) and self.gone():
            log.info("a phone at %s closed its event stream", self.address)


def _stream(port: TablePort, holder: Holder, token: str | None, ends: Ends,
            keepalive: float) -> Generator[str, None, None]:
    snapshot = port.snapshot(holder.seat)
    seq = snapshot["seq"]
    yield f"retry: {RETRY_MS}\n" + event(snapshot)
    quiet_since = time.monotonic()
    while not ends.now():
        wait = min(WAIT_SLICE, max(0.01, keepalive - (time.monotonic() - quiet_since)))
        changed = port.wait_for_change(seq, timeout=wait) > seq
        if not admitted(port, token, holder):
            return  # re-issued by the host, or the seat left the table: end within a slice; the reconnect is refused
        if changed:
            snapshot = port.snapshot(holder.seat)
            seq = max(seq, snapshot["seq"])
            yield event(snapshot)
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= keepalive:
            yield f"event: ping\ndata: {json.dumps({'every': keepalive})}\n\n"  # a page can see it, not a comment
            quiet_since = time.monotonic()
