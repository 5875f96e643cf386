"""The board: what the phones and the box's LEDs show now, published by the engine loop after each job.

The loop thread publishes; request threads read snapshots (cached per seat) and wait for the next seq.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable

from companion.rules.inputs import CorrectDice, DiceRolled
from companion.journal.store import JournalError
from companion.table.session import Session
from companion.table.snapshot import JSON, Extras, LastDice, lights, snapshot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """What the phones see now: the table, the game, the seq and the box's extras."""

    table: Any
    game: Any
    seq: int
    extras: Extras


class Board:
    """The published table, its snapshots and the LEDs; the loop thread publishes, any thread reads."""

    def __init__(self, session: Session, extras: Extras, on_lights: Callable[[JSON], None]) -> None:
        """Hold the session's table as it is at start; nothing is shown until the first publish; raises nothing."""
        self._session = session
        self._on_lights = on_lights
        self._changed = threading.Condition()
        self._cache: dict[tuple[int, int | None], JSON] = {}
        self._records: JSON | None = None
        self._records_for: tuple[int | None, bool] | None = None
        self._published = Published(session.table, session.game, session.seq, extras)
        self._lights_shown = False  # the box shows the table once at start, changed or not
        self._heard_end = session.game_id if _is_over(session) else None  # its end beeped before this start

    @property
    def published(self) -> Published:
        """What is shown now; raises nothing."""
        return self._published

    def publish(self, extras: Extras) -> None:
        """Show the session's table with these extras, with a new seq when anything changed (loop thread only);
        raises nothing."""
        session = self._session
        extras = replace(extras, records=self._records_now(), game_no=session.game_id)
        published = Published(session.table, session.game, session.seq, extras)
        with self._changed:
            changed = replace(published, seq=self._published.seq) != self._published
            if changed:
                self._published = replace(published, seq=max(published.seq, self._published.seq + 1))
                self._cache = {}
                self._changed.notify_all()
        if changed or not self._lights_shown:
            self._show_lights(self._published)

    def snapshot(self, seat: int | None) -> JSON:
        """The full state for a seat (None: the host); raises nothing."""
        published = self._published
        key = (published.seq, seat)
        cached = self._cache.get(key)
        if cached is None:
            cached = snapshot(published.table, published.game, seat=seat, seq=published.seq, extras=published.extras)
            if self._published is published:
                self._cache[key] = cached
        return cached

    def wait_for_change(self, after_seq: int, timeout: float) -> int:
        """Block until the seq passes after_seq or timeout; returns the current seq."""
        with self._changed:
            self._changed.wait_for(lambda: self._published.seq > after_seq, timeout)
            return self._published.seq

    def _show_lights(self, published: Published) -> None:
        """Show the table on the box's LEDs; the buzzer sounds only for an end reached since the start; raises nothing."""
        shown = lights(published.table, published.game, published.extras)
        if not shown["buzz"]:
            self._heard_end = None  # a reopened game (a corrected last roll) beeps when it ends again
        elif published.extras.game_no == self._heard_end:
            shown["buzz"] = False  # a restart (a power cut) does not beep the players again
        try:
            self._on_lights(shown)
            self._lights_shown = True
        except Exception:  # the LEDs are a courtesy: the table goes on without them
            log.exception("could not show the lights")

    def _records_now(self) -> JSON | None:
        """The game's records over the finished games (read again only when the game or its end changes)."""
        session = self._session
        game, table = session.game, session.table
        if game is None or table is None or game.records is None:
            return None
        outcome = game.outcome(table.state)
        key = (session.game_id, outcome is not None)
        if key == self._records_for:
            return self._records  # records change only with the game or its end: no query per input
        try:
            finished = session.journal.finished_outcomes(game.id)
        except JournalError:  # the storage fails to read: keep showing the table with the last records
            log.warning("could not read the finished games for the records", exc_info=True)
            return self._records
        current = None if outcome is None else {"winners": list(outcome.winners), **dict(outcome.detail)}
        self._records_for = key
        self._records = game.records(finished[:-1] if current is not None else finished, current)
        return self._records


def last_dice(session: Session) -> LastDice | None:
    """The current game's last roll, as the phones saw it before a restart (without its crops); raises nothing."""
    if session.game_id is None:
        return None
    try:
        rolls = [entry for entry in session.journal.entries(session.game_id)
                 if isinstance(entry.input, (DiceRolled, CorrectDice))]
    except JournalError:  # the session has just replayed these entries; a failure now leaves the dice blank
        log.warning("could not read the last roll back", exc_info=True)
        return None
    if not rolls:
        return None
    return shown_roll(rolls[-1].input, rolls[-1].source, rolls[-1].seq)


def shown_roll(given: DiceRolled | CorrectDice, source: str, seq: int) -> LastDice:
    """A roll as the phones show it (no crops): each die's origin, else the input's source; raises nothing."""
    origins = getattr(given, "origins", ()) or (source,) * len(given.values)
    return LastDice(tuple(given.values), tuple(given.sides), tuple(origins), (), seq)


def _is_over(session: Session) -> bool:
    """Whether the session's game has ended; raises nothing."""
    game, table = session.game, session.table
    return game is not None and table is not None and game.outcome(table.state) is not None
