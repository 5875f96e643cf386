"""Start-up checks of the journal's WAL file: is every change saved in it still there? (stdlib only)

Three witnesses say what the WAL must hold, and each is checked before SQLite opens anything (its
recovery would silently drop what is missing, and a connection would rewrite the index):
- the WAL itself: a frame broken in the middle with saved commits after it (wal_scan.py);
- its index, the `-shm` file: SQLite records there how many frames hold saved commits and how many
  a checkpoint already copied into the journal, only after those frames were synced (wal_index.py).
  A WAL that holds fewer (cut short, emptied, deleted) has lost saved moves;
- the journal file alone: from its first write until a clean stop, a companion keeps a row in its
  `in_use` table, and copies that row into the file itself at once (a checkpoint). A clean stop
  deletes the row and copies the whole WAL into the file. So a file that still says "in use" was
  not stopped cleanly, and its WAL holds whatever was saved after its last checkpoint: when that
  WAL is missing or empty, those moves are gone.

What cannot be known: a WAL cut short together with its index deleted or left from a power cut
looks like a torn last write, which is normal recovery; and a journal whose row says "in use"
while its WAL is gone may have lost nothing (the companion was killed right after a checkpoint):
it is refused all the same, since nothing can tell that from a lost evening.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.journal.checks import damaged
from companion.journal.wal_index import WalIndex, read_wal_index
from companion.journal.wal_scan import WAL_HEADER, WalScan, scan_wal


def side_file(path: Path, suffix: str) -> Path:
    """The journal's SQLite side file with that suffix ('-wal', '-shm'); raises nothing."""
    return path.with_name(path.name + suffix)


def check_side_files(path: Path) -> bool:
    """Check the WAL against its index and the journal; returns whether the WAL holds frames.

    Raises JournalError when saved changes would be lost.
    """
    index = read_wal_index(side_file(path, "-shm"))  # read before the WAL: a running companion only adds to it
    scan = check_wal(path)
    check_index(path, index, scan)
    if scan is None and path.exists():
        last = left_in_use(path)
        if last is not None:
            raise damaged(path, missing_wal(path, last))
    return scan is not None and scan.frames > 0


def check_wal(path: Path) -> WalScan | None:
    """What SQLite's recovery would make of the WAL; None when there is no WAL or it is shorter than its header.

    Raises JournalError when the journal is missing beside a WAL, the WAL's header is damaged, or
    saved commits lie past a damaged frame.
    """
    wal = side_file(path, "-wal")
    if not wal.exists():
        return None
    if not path.exists() and wal.stat().st_size > 0:
        raise damaged(path, f"the journal itself is missing but {wal.name} is still there; put the journal back or move {wal.name} aside too")
    raw = wal.read_bytes()
    if len(raw) < WAL_HEADER:
        return None
    scan = scan_wal(raw)
    if scan is None:
        raise damaged(path, f"the header of {wal.name} is damaged, so SQLite would silently ignore every change saved in it")
    if scan.lost_commits:
        raise damaged(path, f"{wal.name} is damaged at frame {scan.kept + 1} of {scan.frames}: SQLite would "
                            f"silently drop the {scan.lost_commits} saved change(s) after it")
    return scan


def check_index(path: Path, index: WalIndex | None, scan: WalScan | None) -> None:
    """Refuse a WAL that holds fewer saved frames than its index recorded; raises JournalError."""
    if index is None or index.frames == 0:
        return
    wal = side_file(path, "-wal")
    if scan is None:
        if index.frames > index.backfilled:
            raise damaged(path, f"{wal.name} is missing or empty, but {path.name}-shm records "
                                f"{index.frames - index.backfilled} frame(s) of saved changes in it that are not in "
                                "the journal yet, so those moves would be lost")
        return
    if scan.salts == index.salts and scan.kept < index.frames:  # the same WAL as the index describes, cut short
        raise damaged(path, f"{wal.name} was cut short or overwritten: it holds {scan.kept} of the {index.frames} "
                            f"frames {path.name}-shm records as saved, so SQLite would silently drop the last saved moves")


def left_in_use(path: Path) -> int | None:
    """The newest entry in the journal file alone when its `in_use` row says a companion did not stop cleanly, else
    None (also when the file cannot be read: the other checks say why); raises nothing."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)  # the file, not its WAL
    except sqlite3.Error:
        return None
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "in_use" not in tables or db.execute("SELECT COUNT(*) FROM in_use").fetchone()[0] == 0:
            return None
        return int(db.execute("SELECT MAX(id) FROM entries").fetchone()[0] or 0) if "entries" in tables else 0
    except sqlite3.Error:
        return None
    finally:
        db.close()


def missing_wal(path: Path, last: int) -> str:
    """Why a journal left in use without its WAL is refused (`last`: the newest entry in the file); raises nothing."""
    wal = side_file(path, "-wal")
    return (f"the companion was not stopped cleanly, and {wal.name}, which holds every move saved after entry {last}, "
            f"is missing or empty (put it back beside the journal if you can: without it those moves are lost)")
