"""The journal file's own word on whether a companion is writing to it, and the checkpoints that make it true.

From its first write a companion keeps one row in the `in_use` table, copied into the journal file at
once (a checkpoint); a clean stop deletes it and copies the whole WAL into the file. So a file alone
that still holds the row was not stopped cleanly, and needs its WAL (wal_checks.py).
"""
from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from companion.journal.schema import Transaction

log = logging.getLogger(__name__)


def mark_in_use(db: sqlite3.Connection, path: Path) -> None:
    """Write the row and copy it into the file (waiting for readers a moment); raises sqlite3.Error."""
    with Transaction(db):
        db.execute("INSERT OR IGNORE INTO in_use (id) VALUES (1)")
    if not checkpoint(db, path, "FULL"):
        log.warning("the journal's in-use mark is not in %s yet (a reader held the WAL)", path)


def mark_stopped(db: sqlite3.Connection, path: Path) -> None:
    """Delete the row and copy the whole WAL into the file, emptying the WAL; raises sqlite3.Error."""
    with Transaction(db):
        db.execute("DELETE FROM in_use")
    checkpoint(db, path, "TRUNCATE")


def checkpoint(db: sqlite3.Connection, path: Path, mode: str) -> bool:
    """Copy the WAL into the journal file (PASSIVE, FULL or TRUNCATE); returns whether all of it went.

    Raises nothing: a checkpoint that fails loses nothing, the WAL still holds it all.
    """
    try:
        busy, frames, copied = db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
    except sqlite3.Error:
        log.warning("could not copy the WAL into %s", path, exc_info=True)
        return False
    return not busy and frames == copied
