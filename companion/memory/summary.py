"""The memory's summary beside the journal (`memory-summary.sqlite`): counts read from the journal up to a mark,
so a start reads the counts plus the entries since instead of the whole journal.

It is derived data: a summary that is missing, cut, damaged, written for another journal or for a journal since
restored from a backup is found out (the journal's fingerprint and a hash of the entry or game at its mark) and
the counts are read from the journal again. Each part is one row written in one transaction, so a power cut
leaves the part before or the part after, never a mix. It never touches the journal itself.
"""
from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

FILE = "memory-summary.sqlite"
VERSION = 1
"""The layout of the summary; a file of another version is started afresh."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS parts (
    name TEXT PRIMARY KEY,
    journal TEXT NOT NULL,
    mark INTEGER NOT NULL,
    mark_print TEXT NOT NULL,
    body TEXT NOT NULL,
    body_hash TEXT NOT NULL
);
"""
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Part:
    """One part of the summary: counts read from `journal` (its fingerprint) up to `mark`, whose hash is
    `mark_print`."""

    journal: str
    mark: int
    mark_print: str
    body: Any


def _hash(text: str) -> str:
    """The hash a part's body is checked by; raises nothing."""
    return hashlib.sha256(text.encode()).hexdigest()


class SummaryFile:
    """The summary file; every failure to read or write it is taken as 'no summary' (it only costs time)."""

    def __init__(self, path: Path | None) -> None:
        """Remember where the summary is kept (None: keep none); raises nothing."""
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _open(self) -> sqlite3.Connection:
        """The summary's connection, the file started afresh when damaged or of another version; raises
        sqlite3.Error, OSError."""
        if self._db is None:
            assert self.path is not None
            try:
                self._db = self._connect()
            except sqlite3.DatabaseError as error:
                if isinstance(error, sqlite3.OperationalError):  # locked, or cannot be opened: not damage
                    raise
                log.warning("The memory's summary %s is unreadable (%s); it is started afresh.", self.path, error)
                self._remove()
                self._db = self._connect()
        return self._db

    def _connect(self) -> sqlite3.Connection:
        """Open (or make) the file and check it; raises sqlite3.Error, OSError."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=2)
        try:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed")
            if db.execute("PRAGMA user_version").fetchone()[0] not in (0, VERSION):
                db.execute("DROP TABLE IF EXISTS parts")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a power cut may lose the newest part, never mix two
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version = {VERSION}")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _remove(self) -> None:
        """Delete the file and its side files; raises OSError."""
        assert self.path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def load(self, name: str, *, text: bool = False) -> Part | None:
        """The part kept under `name`, or None when there is none or it cannot be read whole (`text`: its body as
        kept, undecoded); raises nothing."""
        if self.path is None:
            return None
        with self._lock:
            try:
                row = self._open().execute("SELECT journal, mark, mark_print, body, body_hash FROM parts WHERE name = ?",
                                           (name,)).fetchone()
                if row is None or _hash(row[3]) != row[4]:
                    return None
                return Part(str(row[0]), int(row[1]), str(row[2]), row[3] if text else json.loads(row[3]))
            except (sqlite3.Error, OSError, ValueError, TypeError) as error:
                log.warning("The memory's summary could not be read (%s); the journal is read instead.", error)
                self._forget()
                return None

    def save(self, name: str, part: Part, still_true: Callable[[Part], bool], *, text: bool = False) -> bool:
        """Keep `part` under `name` (`text`: its body is already text), unless the part kept there is still true of
        the journal and reaches as far or further (another reader of the same journal got there first); returns
        whether it was written; raises nothing."""
        if self.path is None:
            return False
        body = str(part.body) if text else json.dumps(part.body, separators=(",", ":"), sort_keys=True)
        with self._lock:
            try:
                db = self._open()
                db.execute("BEGIN IMMEDIATE")
                try:
                    kept = self._kept(db, name)
                    if kept is not None and kept.mark >= part.mark and still_true(kept):
                        db.execute("ROLLBACK")
                        return False
                    db.execute("INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?, ?)",
                               (name, part.journal, part.mark, part.mark_print, body, _hash(body)))
                    db.execute("COMMIT")
                    return True
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except Exception as error:  # noqa: BLE001 - the summary is optional: any failure only costs time
                log.warning("The memory's summary could not be kept (%s).", error)
                self._forget()
                return False

    def _kept(self, db: sqlite3.Connection, name: str) -> Part | None:
        """The part kept under `name` if it reads whole; raises sqlite3.Error."""
        row = db.execute("SELECT journal, mark, mark_print, body, body_hash FROM parts WHERE name = ?", (name,)).fetchone()
        if row is None or _hash(row[3]) != row[4]:
            return None
        return Part(str(row[0]), int(row[1]), str(row[2]), None)

    def _forget(self) -> None:
        """Close the connection so the next use opens (and checks) the file again; raises nothing."""
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    def close(self) -> None:
        """Close the file; raises nothing."""
        with self._lock:
            self._forget()
