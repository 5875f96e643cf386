"""A new journal is made whole under another name and then renamed, so `journal.sqlite` is never half made.

A power cut while the first start writes leaves only the draft, which the next start makes again;
so a journal.sqlite of 0 bytes, or one without its tables, is never one of ours being born: it
was cut or overwritten, and is refused as damaged.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.journal.checks import FORMAT
from companion.journal.schema import SCHEMA

DRAFT = ".new"


def create(path: Path) -> None:
    """Make an empty journal at `path` (which must not exist) in one rename; raises sqlite3.Error or OSError."""
    draft = path.with_name(path.name + DRAFT)
    _remove(draft)
    db = sqlite3.connect(draft, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        db.execute(f"PRAGMA user_version = {FORMAT}")
    finally:
        db.close()  # the only connection: SQLite copies its WAL into the draft and removes it
    sync(draft)
    os.replace(draft, path)
    sync(path.parent)
    _remove(draft)  # the draft's side files, should SQLite have left any


def _remove(draft: Path) -> None:
    """Remove a draft and its side files left by a cut first start; raises OSError when one cannot be removed."""
    for leftover in (draft, *(draft.with_name(draft.name + suffix) for suffix in ("-wal", "-shm", "-journal"))):
        leftover.unlink(missing_ok=True)


def sync(path: Path) -> None:
    """Flush a file or a folder to the storage; raises OSError."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
