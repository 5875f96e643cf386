"""The finished games as the plays list gives them, kept up to date from the journal and in the summary beside it.

A finished game older than the newest never changes, so its play is worked out once. The summary's `plays` part
keeps those plays up to a game, with the checks every part has (the journal's fingerprint, a hash of the game at its
mark, a hash of its own body): a start takes it when it is still true of the journal and reads only the games
since; otherwise they are read from the journal again. The part is text, CHUNK plays a line, each line decoded (and
written) on its own, so no single step holds the interpreter for long; it is written by a thread of its own, so an
answer never waits for the writing. The newest game is read fresh each time (it may still be reopened).
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Mapping

from companion.memory import plays
from companion.memory.collector import collector_paused
from companion.memory.reader import JournalReader, MemoryUnreadable
from companion.memory.summary import Part, SummaryFile

PLAYS_PART = "plays"
CHUNK = 200
"""Plays a line of the summary's part."""
SAVE_EVERY = 10.0
"""Seconds between two writes of the part while play goes on (the first at once, the last at close)."""


class FinishedGames:
    """The plays of the finished games, oldest first, read incrementally; safe from any thread."""

    def __init__(self, reader: JournalReader, summary: SummaryFile, titles: Mapping[str, str]) -> None:
        """Start with nothing read (`titles`: each game's title by id); raises nothing."""
        self._reader, self._summary, self._titles = reader, summary, dict(titles)
        self._lock = threading.Lock()
        self._plays: list[dict[str, Any]] = []  # the finished games up to `_upto`, oldest first
        self._upto = 0  # every game up to this one is read (older than the newest: they never change)
        self._kept = 0  # the summary's part reaches this game
        self._started = self._closed = False
        self._saved_at: float | None = None
        self._writer: threading.Thread | None = None

    def still_true(self, part: Part) -> bool:
        """Whether a summary part was read from this journal as it is now; raises MemoryUnreadable."""
        return part.journal == self._reader.fingerprint() and part.mark_print == self._reader.game_print(part.mark)

    def plays(self) -> list[dict[str, Any]]:
        """The finished games, oldest first (the newest game too once finished); raises MemoryUnreadable."""
        with self._lock, collector_paused():
            newest = self._reader.newest_game() or 0
            if not self._started:
                self._start(newest)
            if self._upto < newest - 1:
                for past in self._reader.games(finished_only=True, after=self._upto):
                    if past.id < newest:
                        self._plays.append(plays.play(past, self._titles))
                self._upto = newest - 1
            found = list(self._plays)
            current = self._reader.game(newest) if newest else None
        self._keep_soon()
        if current is not None and current.finished is not None:
            found.append(plays.play(current, self._titles))
        return found

    def _start(self, newest: int) -> None:
        """Take the plays kept in the summary when the part is still true of the journal and reaches only games older
        than the newest; raises MemoryUnreadable."""
        part = self._summary.load(PLAYS_PART, text=True)
        if part is not None and part.mark < newest and self.still_true(part):
            found = self._decoded(part)
            if found is not None:
                self._plays, self._upto, self._kept = found, part.mark, part.mark
        self._started = True

    def _decoded(self, part: Part) -> list[dict[str, Any]] | None:
        """The plays of a part's text, or None when it is not plays of this form up to its mark; raises nothing."""
        lines = str(part.body).split("\n")
        try:
            form, count = json.loads(lines[0])
            found: list[dict[str, Any]] = []
            for line in lines[1:]:
                found.extend(plays.from_kept(json.loads(line), self._titles))
            ids = [play["id"] for play in found]
            in_order = all(type(one) is int and one < two for one, two in zip(ids, ids[1:] + [part.mark + 1]))
        except (TypeError, ValueError):
            return None
        return found if form == plays.FORM and count == len(found) and in_order else None

    def _keep_soon(self) -> None:
        """Start writing the plays read since the part's mark, by a thread of its own: one at a time, at most every
        SAVE_EVERY seconds; raises nothing."""
        with self._lock:
            due = self._upto > self._kept and (self._saved_at is None or time.monotonic() - self._saved_at >= SAVE_EVERY)
            if not due or self._closed or (self._writer is not None and self._writer.is_alive()):
                return
            self._saved_at = time.monotonic()
            self._writer = threading.Thread(target=self._keep_quietly, name="memory-plays", daemon=True)
            self._writer.start()

    def _keep_quietly(self) -> None:
        """Keep the plays; a journal that cannot be read leaves them for the next time; raises nothing."""
        try:
            self.keep()
        except MemoryUnreadable:
            pass

    def keep(self) -> None:
        """Write the plays read so far to the summary, CHUNK plays a line; raises MemoryUnreadable."""
        with self._lock:
            upto, found = self._upto, self._plays[:]
        if upto <= self._kept:
            return
        lines = [json.dumps([plays.FORM, len(found)])]
        for start in range(0, len(found), CHUNK):
            lines.append(json.dumps([plays.kept_row(play) for play in found[start:start + CHUNK]], separators=(",", ":")))
        part = Part(self._reader.fingerprint(), upto, self._reader.game_print(upto), "\n".join(lines))
        self._summary.save(PLAYS_PART, part, self.still_true, text=True)
        with self._lock:
            self._kept = max(self._kept, upto)

    def close(self) -> None:
        """Wait for a write under way, then keep what was read; raises nothing."""
        with self._lock:
            self._closed = True
            writer = self._writer
        if writer is not None:
            writer.join()
        try:
            self.keep()
        except MemoryUnreadable:
            pass
