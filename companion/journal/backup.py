"""`companion backup`: the journal copied into one self-contained file, safe while the companion runs.

SQLite's online backup reads the journal as one consistent snapshot (its WAL included) through a
connection of its own, beside the running companion's, and writes it page by page into a draft;
the draft is then made a plain single file (no WAL, marked stopped cleanly) and renamed. To restore:
stop the companion, move journal.sqlite and its -wal and -shm files aside, copy the backup to
journal.sqlite, and start it.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.journal.checks import JournalError, check_contents, check_main_file, opening_error
from companion.journal.fresh import sync
from companion.journal.schema import COLUMNS, TABLES
from companion.journal.wal_checks import check_index, check_wal, left_in_use, missing_wal, side_file
from companion.journal.wal_index import read_wal_index


@dataclass(frozen=True)
class Copied:
    """What a backup holds: games, moves, the newest entry; and a warning when the journal had lost its WAL."""

    games: int
    entries: int
    last_entry: int
    warning: str | None = None


def backup(journal: Path, target: Path) -> Copied:
    """Copy the journal into the new file `target`; raises JournalError (nothing written) when the journal is
    damaged or missing, or `target` exists or cannot be written."""
    if not journal.exists():
        raise JournalError(f"There is no journal at {journal}; check the state folder (--state).")
    if target.exists() or target.is_symlink():
        raise JournalError(f"{target} already exists; name a new file for the backup.")
    warning = _check(journal)
    draft = target.with_name(f".{target.name}.part")
    try:
        copied = _copy(journal, draft)
        sync(draft)
        os.replace(draft, target)
        sync(target.parent)
    except sqlite3.Error as error:
        _remove(draft)
        raise opening_error(journal, error) from None
    except OSError as error:
        _remove(draft)
        raise JournalError(f"The backup could not be written to {target} ({error.strerror or error}); nothing was "
                           "written.", code="storage_error") from None
    return Copied(*copied, warning=warning)


def _check(journal: Path) -> str | None:
    """The start-up checks of a journal's files; returns a warning when its WAL is missing while the journal says it
    was in use (the copy then holds only what the file holds); raises JournalError when damaged."""
    index = read_wal_index(side_file(journal, "-shm"))
    scan = check_wal(journal)
    check_index(journal, index, scan)
    check_main_file(journal, wal_in_use=scan is not None and scan.frames > 0)
    last = left_in_use(journal) if scan is None else None
    if last is None:
        return None
    return f"The journal {journal} is damaged: {missing_wal(journal, last)}. The backup holds the moves up to entry {last}."


def _copy(journal: Path, draft: Path) -> tuple[int, int, int]:
    """Back the journal up into the draft and make it one clean file; returns (games, entries, newest entry); raises
    JournalError when the journal is damaged, sqlite3.Error or OSError when it cannot be read or the draft written."""
    source = sqlite3.connect(f"{journal.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        tables = check_contents(source, journal, COLUMNS)
        if not TABLES <= tables:
            raise JournalError(f"The journal {journal} holds no games yet; there is nothing to back up.")
        copy = sqlite3.connect(draft, isolation_level=None)
        try:
            source.backup(copy)
            return _made_clean(copy)
        finally:
            copy.close()
    finally:
        source.close()


def _made_clean(copy: sqlite3.Connection) -> tuple[int, int, int]:
    """Mark the copy stopped cleanly and make it a single file (no WAL); returns (games, entries, newest entry);
    raises sqlite3.Error."""
    copy.execute("CREATE TABLE IF NOT EXISTS in_use (id INTEGER PRIMARY KEY CHECK (id = 1))")
    copy.execute("DELETE FROM in_use")
    copy.execute("PRAGMA journal_mode=DELETE")
    copy.execute("PRAGMA synchronous=FULL")
    verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise sqlite3.DatabaseError(f"the copy fails SQLite's integrity check ({verdict})")
    games = int(copy.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    entries, newest = copy.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM entries").fetchone()
    return games, int(entries), int(newest)


def _remove(draft: Path) -> None:
    """Remove a half-written backup and its side files; raises nothing."""
    for path in (draft, side_file(draft, "-journal"), side_file(draft, "-wal"), side_file(draft, "-shm")):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass
