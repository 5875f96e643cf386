"""Who may do what: tokens from the header or the cookie, same-site writes, the wrong-token limit.

A phone joins through /join?token=…, which sets an HttpOnly SameSite=Strict cookie; API clients
send `Authorization: Bearer <token>` (any other Authorization header is refused, never taken for a
token). Tokens are compared only by the port's TokenBook. A seat's token opens the table only while
the game on it has that seat: a phone of a larger game played earlier waits, refused, until a game
gives it its seat back.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import current_app, request

from companion.rules.said import Said
from companion.table.port import CameraPort, Holder, TablePort

COOKIE = "companion_token"
COOKIE_SECONDS = 30 * 24 * 3600
MAX_TOKEN_LENGTH = 200
ALLOWED_FETCH_SITES = ("same-origin", "none")


class Refusal(Exception):
    """A request refused by the web front: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class FailureLimiter:
    """Counts wrong tokens per client address; too many within the window locks it out."""

    def __init__(self, *, limit: int = 10, window: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 max_addresses: int = 4096) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._max_addresses = max_addresses
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def blocked(self, address: str) -> bool:
        """Whether that address has used up its wrong tokens for now; raises nothing."""
        with self._lock:
            return len(self._recent(address)) >= self.limit

    def fail(self, address: str) -> None:
        """Count one wrong token from that address; raises nothing."""
        with self._lock:
            times = self._recent(address)
            times.append(self._clock())
            self._failures[address] = times
            self._failures.move_to_end(address)
            while len(self._failures) > self._max_addresses:
                self._failures.popitem(last=False)

    def _recent(self, address: str) -> deque[float]:
        times = self._failures.get(address, deque())
        cutoff = self._clock() - self.window
        while times and times[0] < cutoff:
            times.popleft()
        if not times:
            self._failures.pop(address, None)
        return times


@dataclass
class WebState:
    """What the web front keeps on the app: the port, the limiter, the streams, the stop flag, the camera."""

    port: TablePort
    limiter: FailureLimiter
    streams: Any
    stopping: threading.Event = field(default_factory=threading.Event)
    camera: CameraPort | None = None


def web_state() -> WebState:
    """The running app's WebState; raises KeyError outside an app made by create_app."""
    return current_app.extensions["companion"]


NOT_AT_TABLE = Said("Your seat is not in the game being played now; your phone joins again when a game gives it "
                    "your seat, or ask the host for this game's QR code.",
                    "지금 게임에는 이 자리가 없습니다. 이 자리가 있는 게임이 시작되면 다시 참가되며, 지금 게임의 QR 코드는 "
                    "호스트에게 요청하세요.")


def presented_token() -> str | None:
    """The token the request carries (Bearer header first, then the cookie), or None; raises Refusal 403 for an
    Authorization header that is not `Bearer <token>`."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refusal(403, "forbidden", "Send the token as 'Authorization: Bearer <token>'.")
        return token.strip()
    return request.cookies.get(COOKIE)


def check_token(token: str | None) -> Holder:
    """Whose token this is; raises Refusal 429 when locked out, 403 when missing or wrong."""
    state = web_state()
    address = request.remote_addr or "unknown"
    if state.limiter.blocked(address):
        raise Refusal(429, "too_many_attempts", "Too many wrong links from this device; wait a minute, then scan the QR code again.")
    if not token:
        raise Refusal(403, "forbidden", "Join the table first: scan the QR code of your seat.")
    holder = state.port.tokens.holder(token) if len(token) <= MAX_TOKEN_LENGTH and token.isprintable() else None
    if holder is None:
        state.limiter.fail(address)
        raise Refusal(403, "forbidden", "This link is not valid (any more); ask the host for a new QR code.")
    return holder


def reader() -> Holder:
    """The holder of the request's token, for reading the table; raises Refusal (403/429), 403 for a seat the game
    being played does not have."""
    holder = check_token(presented_token())
    if not seated(web_state().port, holder):
        raise Refusal(403, "not_at_table", NOT_AT_TABLE)
    return holder


def seated(port: TablePort, holder: Holder) -> bool:
    """Whether the holder is the host or a seat of the game being played; raises nothing."""
    return holder.seat is None or holder.seat < len(port.snapshot(None)["players"])


def admitted(port: TablePort, token: str | None, holder: Holder) -> bool:
    """Whether a token still opens the table to that holder (not re-issued, the seat still at the table), as an
    open event stream asks; raises nothing."""
    return port.tokens.holder(token) == holder and seated(port, holder)


def writer() -> Holder:
    """The holder of a same-site JSON request's token, for changing the table; raises Refusal."""
    check_same_site()
    return reader()


def host_writer() -> Holder:
    """Like writer(), but only the host's token passes; raises Refusal (403/429)."""
    holder = writer()
    if not holder.is_host:
        raise Refusal(403, "forbidden", "Only the host can do that.")
    return holder


def host_reader() -> Holder:
    """Like reader(), but only the host's token passes; raises Refusal (403/429)."""
    holder = reader()
    if not holder.is_host:
        raise Refusal(403, "forbidden", "Only the host can see that.")
    return holder


def may_act_for(holder: Holder, seat: int) -> None:
    """Check a holder may act for that seat (the host for all); raises Refusal 403."""
    if not holder.is_host and holder.seat != seat:
        raise Refusal(403, "forbidden", "Your phone acts only for your own seat.")


def check_same_site() -> None:
    """Refuse cross-site requests and anything but a JSON body; raises Refusal 403."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ALLOWED_FETCH_SITES:
        raise Refusal(403, "cross_site", "Requests from other sites are refused.")
    origin = request.headers.get("Origin")
    if origin is not None and _origin_host(origin) != request.host.lower():
        raise Refusal(403, "cross_site", "Requests from other sites are refused.")
    if request.mimetype != "application/json":
        raise Refusal(403, "json_required", "Send the request as JSON (Content-Type: application/json).")


def _origin_host(origin: str) -> str | None:
    if origin == "null":
        return None
    parts = urlsplit(origin)
    return parts.netloc.lower() if parts.scheme in ("http", "https") and parts.netloc else None
