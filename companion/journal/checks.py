"""Start-up checks of the journal's files, and the sentences for storage faults (stdlib only).

The WAL and its index are checked in companion/journal/wal_checks.py.
"""
from __future__ import annotations

import json
import os
import sqlite3
import struct
from pathlib import Path

from companion.journal.codec import decode
from companion.rules.errors import CompanionError

SQLITE_MAGIC = b"SQLite format 3\x00"

FORMAT = 1  # the journal format this version writes (SQLite's user_version; 0: written before it was stamped)


class JournalError(CompanionError, RuntimeError):
    """The journal cannot be opened, read or written; the message says what to do."""

    code = "journal_error"


def damaged(path: Path, detail: str) -> JournalError:
    """The error for a damaged journal: names the file and what to do; raises nothing."""
    return JournalError(
        f"The journal {path} is damaged: {detail}. It was left as it is. To go on, stop the companion, "
        f"move {path.name} and its {path.name}-wal and {path.name}-shm files out of {path.parent} "
        f"(keep them: `sqlite3 {path.name} .recover` can often save the games), then start it again "
        "for a fresh journal, or put back a backup.",
        code="journal_damaged",
    )


def check_main_file(path: Path, wal_in_use: bool) -> None:
    """Check the database file's header and length; raises JournalError when it was cut or overwritten."""
    size = path.stat().st_size
    if size == 0:  # a journal is made whole before it takes its name: an empty one was cut or overwritten
        raise damaged(path, "it is empty (0 bytes), so it was cut off or overwritten")
    with path.open("rb") as file:
        header = file.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise damaged(path, "it does not start like an SQLite database (its first bytes were overwritten or cut)")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or size % page_size:
        raise damaged(path, f"its length ({size} bytes) is not a whole number of {page_size}-byte pages, so it was cut off")
    counter, pages, valid_for = (struct.unpack(">I", header[at:at + 4])[0] for at in (24, 28, 92))
    if not wal_in_use and counter == valid_for and pages * page_size > size:
        raise damaged(path, f"it holds {size // page_size} of the {pages} pages its header records, so it was cut off")


def absent_side_files(path: Path) -> list[Path]:
    """SQLite's -wal and -shm files of the journal that do not exist yet; raises nothing."""
    return [side for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))
            if not side.exists()]


def remove_new_side_files(absent: list[Path]) -> None:
    """After a failed opening, remove the -shm index and the empty -wal the check created; raises nothing."""
    for side in absent:
        try:
            if side.name.endswith("-shm") or side.stat().st_size == 0:
                side.unlink()
        except OSError:
            pass  # it was not created, or cannot be removed: it holds no data either way


def writable(path: Path) -> bool:
    """Whether this process may write the journal and its folder; raises nothing."""
    folder = path.parent
    can = os.access(folder, os.W_OK, effective_ids=True)
    return can and (not path.exists() or os.access(path, os.W_OK, effective_ids=True))


def read_only_place(path: Path) -> Path:
    """The folder when it cannot be written, else the journal file itself; raises nothing."""
    return path if os.access(path.parent, os.W_OK, effective_ids=True) else path.parent


def storage_refusal(path: Path, error_name: str, error: str, *, what: str,
                    folder_state: tuple[bool, int | None] | None = None) -> JournalError:
    """The refusal for a failed write: full, read-only, busy, damaged or a disk error; raises nothing.

    An I/O error is told apart by the folder's file system (`folder_state`: mounted read-only,
    bytes free; read with statvfs when not given).
    """
    folder = path.parent
    read_only_mount, free = folder_state if folder_state is not None else _folder_state(folder)
    tail = f"{what} was not saved and nothing changed."
    if error_name.startswith("SQLITE_FULL") or (error_name.startswith("SQLITE_IOERR") and free == 0):
        return JournalError(f"The state folder {folder} is full: {tail} Free some space; the game goes on from "
                            "the last saved move.", code="storage_full")
    if error_name.startswith("SQLITE_READONLY") or (error_name.startswith("SQLITE_IOERR") and read_only_mount):
        return read_only(read_only_place(path), what=what)
    if error_name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return JournalError(f"The journal {path} is busy (another program holds it): {tail} Try again.",
                            code="journal_busy")
    if error_name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return JournalError(f"The journal {path} looks damaged ({error}): {tail} Restart the companion so it "
                            "checks the journal.", code="journal_damaged")
    return JournalError(f"The state folder {folder} could not be written ({error}): {tail} Check the storage "
                        "card; the game goes on from the last saved move.", code="storage_error")


def read_only(place: Path, *, what: str) -> JournalError:
    """The refusal while the state cannot be written; raises nothing."""
    return JournalError(f"The {place_name(place)} is read-only: {what} was not saved and nothing changed. Make "
                        "it writable and restart the companion; the game goes on from the last saved move.",
                        code="storage_read_only")


def place_name(place: Path, *, korean: bool = False) -> str:
    """'state folder PATH' or 'journal PATH' (in Korean: '상태 폴더 PATH', '저널 PATH'); raises nothing."""
    if korean:
        return f"{'상태 폴더' if place.is_dir() else '저널'} {place}"
    return f"{'state folder' if place.is_dir() else 'journal'} {place}"


def opening_error(path: Path, error: Exception) -> JournalError:
    """The start-up error for whatever stopped the journal opening; raises nothing."""
    if isinstance(error, JournalError):
        return error
    if isinstance(error, sqlite3.Error):
        return cannot_open(path, str(getattr(error, "sqlite_errorname", "") or ""), str(error))
    return JournalError(f"The state folder {path.parent} cannot be used ({getattr(error, 'strerror', error)}); "
                        "check that it exists and the companion may write it.")


def nothing_saved_yet(path: Path) -> JournalError:
    """The start-up error for a read-only state folder with no journal to show; raises nothing."""
    return JournalError(f"The state folder {path.parent} is read-only and holds no journal yet; make it "
                        "writable for the companion and start it again.", code="storage_read_only")


def cannot_open(path: Path, error_name: str, error: str) -> JournalError:
    """The start-up error when SQLite cannot open the journal: full, read-only, busy or damaged."""
    folder = path.parent
    if error_name.startswith("SQLITE_FULL"):
        return JournalError(f"The state folder {folder} is full, so the journal {path} cannot be opened; free "
                            "some space and start the companion again.", code="storage_full")
    if error_name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
        return JournalError(f"The journal {path} cannot be opened for writing ({error}); make the state folder "
                            "writable for the companion and start it again.", code="storage_read_only")
    if error_name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return JournalError(f"The journal {path} is held by another program (is another companion running?); "
                            "stop it and start again.", code="journal_busy")
    if error_name.startswith("SQLITE_IOERR"):
        return JournalError(f"The state folder {folder} could not be read or written ({error}); check the "
                            "storage card and start the companion again.", code="storage_error")
    return damaged(path, f"SQLite cannot read it ({error})")


def roll_back_unfinished(path: Path) -> None:
    """Let SQLite roll back a transaction a power cut left in a rollback journal (`-journal`).

    Only the journal's very first start writes in rollback mode (before it turns to WAL), and a
    read-only connection cannot undo it; SQLite's own recovery does, as for a torn WAL.
    Raises sqlite3.Error.
    """
    hot = path.with_name(path.name + "-journal")
    if not hot.exists() or hot.stat().st_size == 0:
        return
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    finally:
        db.close()


def open_checked(path: Path, *, read_only: bool, wal_in_use: bool,
                 columns: dict[str, set[str]]) -> tuple[sqlite3.Connection, set[str]]:
    """A read-only connection to a journal that passed every check (`columns`: what each table needs), and its tables.

    Raises JournalError when it is damaged or cannot be read, sqlite3.Error when SQLite fails.
    """
    check_main_file(path, wal_in_use)
    # With no WAL content the file alone is the journal: `immutable` reads it without the -shm
    # index a read-only folder could not hold.
    immutable = "&immutable=1" if read_only and not wal_in_use else ""
    db = None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{immutable}", uri=True,
                             isolation_level=None, check_same_thread=False)
        return db, check_contents(db, path, columns)
    except (sqlite3.Error, JournalError) as error:
        if db is not None:
            db.close()
        name = str(getattr(error, "sqlite_errorname", "") or "")
        if read_only and name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
            raise JournalError(f"The state folder {path.parent} is read-only and the journal was not closed "
                               "cleanly, so it cannot be read; make the folder writable for the companion and "
                               "start it again.", code="storage_read_only") from None
        raise


def check_contents(db: sqlite3.Connection, path: Path, columns: dict[str, set[str]]) -> set[str]:
    """Run SQLite's integrity check and decode every entry and game; returns the tables there are.

    Raises JournalError when damaged or written by another companion version, sqlite3.Error when SQLite cannot read it.
    """
    verdict = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
    if verdict != ["ok"]:
        raise damaged(path, f"SQLite's integrity check says: {'; '.join(verdict)}")
    written_as = int(db.execute("PRAGMA user_version").fetchone()[0])
    if written_as > FORMAT:  # its entries may be of kinds this version does not know: not damage
        raise JournalError(f"The journal {path} was written by a newer version of the companion (journal format "
                           f"{written_as}; this version reads format {FORMAT}). Run that newer version; the journal "
                           "was left as it is.", code="journal_too_new")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    _check_columns(db, path, {table: needed for table, needed in columns.items() if table in tables})
    if "entries" in tables:
        for seq, kind, body in db.execute("SELECT id, kind, body FROM entries ORDER BY id"):
            try:
                decode(kind, body)
            except CompanionError as error:
                raise damaged(path, f"entry {seq} cannot be read ({error.message.rstrip('.')})") from None
    if "games" in tables:
        for game_id, players, options, outcome in db.execute("SELECT id, players, options, outcome FROM games"):
            try:
                json.loads(players), json.loads(options), json.loads(outcome or "null")
            except (TypeError, ValueError):
                raise damaged(path, f"game {game_id} cannot be read") from None
    return tables


def schema_columns(schema: str) -> dict[str, set[str]]:
    """Each table's columns, as the SQL `schema` makes them; raises sqlite3.Error for bad SQL."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")} for table in tables}
    finally:
        db.close()


def _check_columns(db: sqlite3.Connection, path: Path, columns: dict[str, set[str]]) -> None:
    """Refuse a journal whose tables lack columns this version reads; raises JournalError."""
    for table, needed in sorted(columns.items()):
        missing = needed - {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if missing:
            raise JournalError(
                f"The journal {path} was written by an older version of the companion: its {table} table has no "
                f"{', '.join(sorted(missing))} column, which this version needs. It was left as it is. To finish its "
                f"game, run that older version; to start afresh, stop the companion and move {path.name} and its "
                f"{path.name}-wal and {path.name}-shm files out of {path.parent}.", code="journal_too_old")


def _folder_state(folder: Path) -> tuple[bool, int | None]:
    """(mounted read-only, bytes free) for the folder; (False, None) when unknown."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False, None
    return bool(stats.f_flag & os.ST_RDONLY), stats.f_bavail * stats.f_frsize
