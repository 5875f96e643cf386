"""The only persistence of play: an SQLite log of every accepted input, and the games it belongs to.

WAL and synchronous=FULL, so an input reported as accepted survives a power cut; an input and the
end of the game it brings are one commit. Restarting is replaying the current game's inputs.
Finished games stay, with their outcome, for history. At opening, the files are checked (checks.py,
wal_checks.py) and a damaged journal is reported, never repaired or cut; a state folder that
cannot be written opens read-only, and every write it refuses says why in players' words.

The WAL is copied into the journal file (a checkpoint) when a game ends and at a clean stop, which
also deletes the WAL: after a clean stop, journal.sqlite alone holds every move. From its first
write until then, the file says it is in use (wal_checks.py says what that tells a later start).
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

from companion.journal.codec import encode
from companion.rules.inputs import Input, StartGame
from companion.journal.checks import (
    FORMAT,
    JournalError,
    absent_side_files,
    damaged,
    nothing_saved_yet,
    open_checked,
    opening_error,
    place_name,
    read_only,
    read_only_place,
    remove_new_side_files,
    roll_back_unfinished,
    storage_refusal,
    writable,
)
from companion.journal.fresh import create
from companion.journal.in_use import checkpoint, mark_in_use, mark_stopped
from companion.journal.reads import JournalReads
from companion.journal.records import Entry, PastGame
from companion.journal.schema import COLUMNS, SCHEMA, TABLES, Transaction
from companion.journal.wal_checks import check_side_files
from companion.rules.said import Said

__all__ = ["Entry", "Journal", "JournalError", "PastGame"]

log = logging.getLogger(__name__)
NO_TABLES = ("it holds no tables, so it is not a journal this companion made whole: it was overwritten, or its "
             "WAL file, which held everything, is missing")

class Journal(JournalReads):
    """The SQLite event log; the engine loop writes, tokens and history may be read elsewhere."""

    def __init__(self, path: Path, *, visitor: bool = False) -> None:
        """Open (or create) the journal and check it; raises JournalError when damaged or unusable.

        A damaged journal is reported and left byte for byte as it was: an existing journal is
        checked and read through a read-only connection, and opened for writing only at the first
        write (so one the replay finds wrong is closed unwritten, with no checkpoint). When the state
        cannot be written, `read_only` is True and every write is refused with a sentence.
        `visitor`: the command line, beside a companion that may be running: it never marks the
        journal in use or stopped, and never lets SQLite fold the WAL into the file as it closes.
        """
        self.path = Path(path)
        self._lock = threading.RLock()
        self.read_only = False
        self._writing = False
        self._visitor = visitor
        self._in_use = False  # whether this companion has marked the journal in use
        self._kept: sqlite3.Connection | None = None  # a visitor's reader, closed after its writer
        self._version: int | None = None  # SQLite's data_version when the tokens were last read
        self._closed = False
        self._absent = absent_side_files(self.path)
        try:
            self._db = self._open()
        except (sqlite3.Error, OSError, JournalError) as error:
            remove_new_side_files(self._absent)
            raise opening_error(self.path, error) from None

    def _open(self) -> sqlite3.Connection:
        exists = self.path.exists()
        wal_in_use = check_side_files(self.path)
        if not exists:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.read_only = not writable(self.path)
        if not exists and self.read_only:
            raise nothing_saved_yet(self.path)
        if not exists:
            create(self.path)
        elif not self.read_only:
            roll_back_unfinished(self.path)
        reader, tables = open_checked(self.path, read_only=self.read_only, wal_in_use=wal_in_use, columns=COLUMNS)
        if TABLES <= tables:
            return reader
        reader.close()
        if not tables & TABLES:
            raise damaged(self.path, NO_TABLES)
        if self.read_only:
            raise nothing_saved_yet(self.path)
        self._writing = True  # a journal of an older version, without a table this one adds: add it now
        return self._open_for_writing()

    def _open_for_writing(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            if int(db.execute("PRAGMA user_version").fetchone()[0]) < FORMAT:
                db.execute(f"PRAGMA user_version = {FORMAT}")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _writer(self, what: str) -> sqlite3.Connection:
        """The connection to write with (opened at the first write, which marks the journal in use; lock held);
        raises JournalError."""
        if self.read_only:
            raise read_only(read_only_place(self.path), what=what)
        if not self._writing:
            try:
                db = self._open_for_writing()
            except sqlite3.Error as error:
                raise self._refusal(error, what) from None
            if self._visitor:
                self._kept = self._db  # open until the writer closes, so SQLite leaves the WAL as it is
            else:
                self._db.close()
            self._db, self._writing, self._version = db, True, None
        if not self._visitor and not self._in_use:
            self._mark_in_use(what)
        return self._db

    def _mark_in_use(self, what: str) -> None:
        """Say in the journal file itself that a companion writes to it (lock held); raises JournalError."""
        try:
            mark_in_use(self._db, self.path)
        except sqlite3.Error as error:
            raise self._refusal(error, what) from None
        self._in_use = True

    def _checkpoint(self, mode: str) -> None:
        """Copy the WAL into the journal file (lock held); raises nothing."""
        checkpoint(self._db, self.path, mode)

    def damaged(self, detail: str) -> JournalError:
        """The error naming this journal as damaged and saying what to do; raises nothing."""
        return damaged(self.path, detail)

    def read_only_warning(self) -> Said:
        """The start-up warning while the state cannot be written; raises nothing."""
        place = read_only_place(self.path)
        return Said(f"The {place_name(place)} is read-only: the table is shown as it was last saved, but every new "
                    "move is refused until it is writable again (then restart the companion).",
                    f"{place_name(place, korean=True)}이(가) 읽기 전용입니다: 테이블은 마지막으로 저장된 대로 보이지만, "
                    "다시 쓸 수 있게 될 때까지 새 행동은 모두 거절됩니다(그 뒤 도우미를 다시 시작하세요).")

    def _refusal(self, error: sqlite3.Error, what: str) -> JournalError:
        name = str(getattr(error, "sqlite_errorname", "") or "")
        return storage_refusal(self.path, name, str(error), what=what)

    def close(self) -> None:
        """Close the database: a companion's journal is first copied whole into its file, its WAL removed and the file
        marked stopped cleanly, so journal.sqlite alone holds every move; raises nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if not self._visitor and not self.read_only:
                self._stop_cleanly()
            self._db.close()
            if self._kept is not None:
                self._kept.close()
                self._kept = None

    def _stop_cleanly(self) -> None:
        """Mark the journal stopped and copy the whole WAL into the file (lock held); raises nothing."""
        try:
            mark_stopped(self._writer("the clean stop"), self.path)
        except (JournalError, sqlite3.Error):
            log.warning("could not mark the journal %s stopped cleanly", self.path, exc_info=True)

    def abandon(self) -> None:
        """Close after a failed start (nothing written), removing the index files opening made; raises nothing."""
        self._db.close()
        if not self._writing:
            remove_new_side_files(self._absent)

    def append(self, game_id: int | None, given: Input, *, source: str, at: float,
               outcome: dict[str, Any] | None = None, reopens: bool = False) -> tuple[int, int]:
        """Store an accepted input (a StartGame opens a game; an outcome ends it, in the same commit;
        `reopens`: the input, a corrected roll, may have undone or changed the end).

        Returns (seq, game id); raises JournalError, and then nothing was stored.
        """
        kind, body = encode(given)
        what = "the new game" if isinstance(given, StartGame) else "this move"
        try:
            with self._lock, Transaction(self._writer(what)):
                if isinstance(given, StartGame):
                    game_id = self._new_game(given, at)
                cursor = self._db.execute(
                    "INSERT INTO entries (game_id, at, source, kind, body) VALUES (?, ?, ?, ?, ?)",
                    (game_id, at, source, kind, body),
                )
                if reopens:
                    self._db.execute("UPDATE games SET finished = NULL, outcome = NULL WHERE id = ?", (game_id,))
                if outcome is not None:
                    self._finish(int(game_id or 0), outcome, at)
            if outcome is not None:  # a game ended: the file alone holds it now
                with self._lock:
                    self._checkpoint("PASSIVE")
        except sqlite3.Error as error:
            raise self._refusal(error, what) from None
        return int(cursor.lastrowid or 0), int(game_id or 0)

    def _new_game(self, given: StartGame, at: float) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (game, players, options, seed, started) VALUES (?, ?, ?, ?, ?)",
            (given.game, json.dumps(list(given.players)), json.dumps(dict(given.options)), given.seed, at),
        )
        return int(cursor.lastrowid or 0)

    def _finish(self, game_id: int, outcome: dict[str, Any], at: float) -> None:
        self._db.execute(
            "UPDATE games SET finished = ?, outcome = ? WHERE id = ? AND finished IS NULL",
            (at, json.dumps(outcome, ensure_ascii=False), game_id),
        )

    def finish(self, game_id: int, outcome: dict[str, Any], *, at: float) -> None:
        """Mark a game finished with its outcome (kept when already set); raises JournalError."""
        try:
            with self._lock:
                self._writer("the end of the game")
                self._finish(game_id, outcome, at)
                self._checkpoint("PASSIVE")
        except sqlite3.Error as error:
            raise self._refusal(error, "the end of the game") from None

    def save_token(self, holder: str, token: str, *, at: float) -> None:
        """Store (or replace) a holder's token; raises JournalError."""
        sql = "INSERT OR REPLACE INTO tokens (holder, token, issued) VALUES (?, ?, ?)"
        try:
            with self._lock:
                self._writer("the new link").execute(sql, (holder, token, at))
                if self._visitor:  # in the file at once: the WAL stays until a companion copies it
                    self._checkpoint("PASSIVE")
        except sqlite3.Error as error:
            raise self._refusal(error, "the new link") from None

    def changed_elsewhere(self) -> bool:
        """Whether another connection (the command line's) changed the journal since the last call; raises nothing."""
        try:
            with self._lock:
                version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
                changed, self._version = version != self._version, version
        except sqlite3.Error:
            return False
        return changed
