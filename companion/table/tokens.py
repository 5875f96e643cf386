"""Seat and host tokens: drawn from `secrets`, kept in the journal, compared in constant time.

A seat's token is issued when a game gives it a player (never by a request that only reads); the
host's can be ended and issued anew, from the host's page or `companion host-url --new` (another
process: the book reads the journal's tokens again whenever another connection changed it).
"""
from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from typing import TYPE_CHECKING, Callable

from companion.journal.store import Journal, JournalError
from companion.table.port import HOST, Holder

if TYPE_CHECKING:
    from companion.table.session import Session

log = logging.getLogger(__name__)

TOKEN_BYTES = 18


class Tokens:
    """The token book; the engine loop and request threads share it, so it holds a lock."""

    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.time) -> None:
        """Load the issued tokens (a host token is made on first start); raises JournalError."""
        self._journal = journal
        self._clock = clock
        self._lock = threading.Lock()
        self._by_holder = dict(journal.token_rows())
        if HOST not in self._by_holder:
            self._issue(HOST)

    def _issue(self, holder: str) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._journal.save_token(holder, token, at=self._clock())
        self._by_holder[holder] = token
        return token

    def holder(self, token: str | None) -> Holder | None:
        """Whose token this is, or None for a wrong or missing one; compares in constant time."""
        if not token or not isinstance(token, str) or len(token) > 100:
            return None
        given = token.encode("utf-8", "replace")
        self._read_again_if_changed()
        with self._lock:
            pairs = list(self._by_holder.items())
        found: Holder | None = None
        for holder, known in pairs:
            if hmac.compare_digest(given, known.encode()):
                found = Holder(None if holder == HOST else int(holder))
        return found

    def _read_again_if_changed(self) -> None:
        """Read the tokens from the journal again when another process (the command line) changed it; raises nothing."""
        if not self._journal.changed_elsewhere():
            return
        try:
            rows = dict(self._journal.token_rows())
        except JournalError:
            log.warning("could not read the tokens again", exc_info=True)
            return
        with self._lock:
            self._by_holder.update(rows)

    def host_token(self) -> str:
        """The host's token; raises nothing."""
        self._read_again_if_changed()
        with self._lock:
            return self._by_holder[HOST]

    def reissue_host(self) -> str:
        """End the host's token and issue a new one: the old link is refused from the next request on; raises
        JournalError (and the old one stays)."""
        with self._lock:
            return self._issue(HOST)

    def has_seat_token(self, seat: int) -> bool:
        """Whether the seat holds a token; raises nothing."""
        with self._lock:
            return str(seat) in self._by_holder

    def issue_missing(self, seats: int) -> None:
        """Issue a token to each of the first `seats` seats that has none; raises JournalError."""
        with self._lock:
            for seat in range(seats):
                if str(seat) not in self._by_holder:
                    self._issue(str(seat))

    def seat_token(self, seat: int) -> str:
        """A seat's current token, issued on first use; raises JournalError."""
        with self._lock:
            known = self._by_holder.get(str(seat))
            return known if known is not None else self._issue(str(seat))

    def renew(self, seats: list[int]) -> None:
        """Give new tokens to those seats that hold one, so their old links stop working; raises JournalError."""
        with self._lock:
            for seat in seats:
                if str(seat) in self._by_holder:
                    self._issue(str(seat))

    def reissue(self, seat: int) -> str:
        """Revoke a seat's token and issue a new one; raises JournalError."""
        with self._lock:
            return self._issue(str(seat))


def renew_seat_links(tokens: Tokens, session: Session, *, missed_only: bool = False) -> None:
    """New links for the seats the session's new game gives to someone else; a rematch, or a smaller game in
    between, keeps them (`missed_only`: at start, those a power cut between the new game and its renewal left with
    the last game's links); and a link for every seat of the game that has none; raises nothing."""
    try:
        seats = session.seats_given_to_others()
        if missed_only and seats and session.game_id:
            older = session.journal.tokens_older_than(session.game_id)
            seats = [seat for seat in seats if str(seat) in older]
        tokens.renew(seats)
        tokens.issue_missing(len(session.table.players) if session.table is not None else 0)
    except JournalError:  # the game has started; the old links stay until the host renews them by hand
        log.warning("could not renew the links of the seats of the new game", exc_info=True)
