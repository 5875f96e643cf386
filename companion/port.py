"""What the web front sees of the running companion: one protocol, plain JSON values.

The daemon's engine loop implements it; `web/` codes against it and never touches the session,
the journal or the hardware directly. Every method is safe to call from any request thread.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from companion.inputs import Input

JSON = dict[str, Any]
HOST = "host"


class TableBusy(TimeoutError):
    """The engine loop did not answer a request in time; the message tells players whether anything changed."""


@dataclass(frozen=True)
class Holder:
    """Who a token belongs to: the host, or one seat."""

    seat: int | None

    @property
    def is_host(self) -> bool:
        """Whether this is the host's token, which acts for every seat; raises nothing."""
        return self.seat is None


class TokenBook(Protocol):
    """The seat and host tokens: issued from `secrets`, checked in constant time."""

    def holder(self, token: str | None) -> Holder | None:
        """Whose token this is, or None for a wrong or missing token; raises nothing."""

    def seat_token(self, seat: int) -> str:
        """The current token of a seat (issuing one if there is none); raises JournalError."""

    def host_token(self) -> str:
        """The host's token; raises nothing."""

    def reissue(self, seat: int) -> str:
        """Revoke a seat's token and issue a new one; raises JournalError."""


class TablePort(Protocol):
    """The running table as the web front uses it."""

    tokens: TokenBook

    def snapshot(self, seat: int | None) -> JSON:
        """The full state for a seat (None: host/spectator view), with `seq`; raises nothing."""

    def submit(self, given: Input, *, source: str) -> JSON:
        """Apply an input on the engine loop and wait; returns the new snapshot for the input's seat.

        Raises CompanionError (IllegalMove, BadInput, …) with a sentence when refused, or
        TableBusy (a TimeoutError) if the engine loop does not answer in time.
        """

    def press(self, button: str) -> None:
        """Act as a hardware button (demo panel): 'roll', 'next' or 'undo'; raises ValueError."""

    def wait_for_change(self, after_seq: int, timeout: float) -> int:
        """Block until the published seq exceeds after_seq or timeout; returns the current seq."""

    def games(self) -> list[JSON]:
        """The registered games: id, title, summary, min/max seats, options as JSON Schema."""

    def history(self) -> list[JSON]:
        """The games played, newest first, with players, times and outcome; raises nothing."""

    def crop(self, name: str) -> bytes | None:
        """A die's crop image (JPEG) from the last roll, by the name the snapshot gives; or None."""

    def join_url(self, holder: Holder) -> str:
        """The URL a phone opens to join as that holder (IP address, port and token)."""

    @property
    def demo(self) -> bool:
        """Whether the companion runs in demo mode (virtual panel shown)."""
