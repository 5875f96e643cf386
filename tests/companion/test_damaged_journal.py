"""A damaged journal stops the start with a clear sentence and is left as it was; a write torn by a
crash is normal recovery and keeps every committed input.

What is simulated, and how:
- damage: bytes of the journal's files are cut or overwritten (main file, WAL file, one entry);
- a torn write: a crash image of the journal (its files copied while it is open, as a SIGKILL
  leaves them) whose WAL is cut inside the last transaction.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Callable

import pytest

from companion.games import registered_games
from companion.rules.inputs import StartGame
from companion.journal.store import Journal, JournalError
from companion.rules.autoplay import random_input
from companion.rules.errors import CompanionError
from companion.table.session import Session

GAMES = registered_games()
JOURNAL = "journal.sqlite"
Benchmark = Callable[[str], ModuleType]  # the `benchmark` fixture: loads benchmarks/NAME.py
FolderBytes = Callable[[Path], dict[str, bytes]]  # the `folder_bytes` fixture
RunCompanion = Callable[..., subprocess.CompletedProcess[str]]  # the `run_companion` fixture
RefusedStart = Callable[[Path], tuple[str, dict[str, bytes]]]  # the `refused_start` fixture


# --- journals to damage ---------------------------------------------------------------------
def _played(folder: Path, inputs: int = 40, seed: int = 3) -> Session:
    """A session on a fresh journal with a game of Through The Gate and `inputs` accepted inputs."""
    session = Session(games=GAMES, journal=Journal(folder / JOURNAL))
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, seed), source="host")
    rng = random.Random(seed)
    for _ in range(20 * inputs):
        if session.seq > inputs:
            break
        given = random_input(session.table, session.game, rng)  # type: ignore[arg-type]
        if given is None or session.game.outcome(session.table.state) is not None:  # type: ignore[union-attr]
            given = StartGame("through-the-gate", ("Ann", "Bob"), {}, rng.randrange(1000))
        try:
            session.submit(given, source="phone")
        except JournalError:
            raise
        except CompanionError:  # a random input the rules refuse: try another
            continue
    assert session.seq > inputs
    return session


def _clean_journal(folder: Path) -> None:
    """A journal closed cleanly: everything is in the main file, no WAL."""
    _played(folder).journal.close()
    assert not (folder / f"{JOURNAL}-wal").exists()


def _crash_image(folder: Path, into: Path) -> None:
    """Copy the open journal's files as a SIGKILL would leave them (no checkpoint)."""
    into.mkdir(parents=True, exist_ok=True)
    for name in (JOURNAL, f"{JOURNAL}-wal"):
        shutil.copyfile(folder / name, into / name)


def _crashed_journal(folder: Path) -> None:
    """A journal as a power cut leaves it: its recent inputs only in the WAL file."""
    session = _played(folder.parent / "live")
    _crash_image(folder.parent / "live", folder)
    session.journal.close()
    assert (folder / f"{JOURNAL}-wal").stat().st_size > 10_000


def _overwrite(path: Path, at: int, length: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[at:at + length] = random.Random(at).randbytes(length)
    path.write_bytes(bytes(raw))


def _truncate_main(folder: Path) -> None:
    _clean_journal(folder)
    path = folder / JOURNAL
    os.truncate(path, path.stat().st_size // 2 // 4096 * 4096)


def _cut_main_mid_page(folder: Path) -> None:
    _clean_journal(folder)
    path = folder / JOURNAL
    os.truncate(path, path.stat().st_size - 1000)


def _garbage_in_main(folder: Path) -> None:
    _clean_journal(folder)
    path = folder / JOURNAL
    pages = path.stat().st_size // 4096
    _overwrite(path, pages // 2 * 4096, 4096)


def _garbage_in_wal(folder: Path) -> None:
    _crashed_journal(folder)
    wal = folder / f"{JOURNAL}-wal"
    frames = (wal.stat().st_size - 32) // 4120
    _overwrite(wal, 32 + frames // 2 * 4120 + 500, 200)


def _garbage_in_wal_header(folder: Path) -> None:
    _crashed_journal(folder)
    _overwrite(folder / f"{JOURNAL}-wal", 8, 16)


def _entry_that_does_not_decode(folder: Path) -> None:
    _clean_journal(folder)
    db = sqlite3.connect(folder / JOURNAL)
    db.execute("UPDATE entries SET body = '{\"values\": [6' WHERE id = 3")
    db.commit()
    db.close()


def _entry_the_rules_refuse(folder: Path) -> None:
    _clean_journal(folder)
    db = sqlite3.connect(folder / JOURNAL)
    last = db.execute("SELECT MAX(id) FROM entries").fetchone()[0]
    db.execute("UPDATE entries SET kind = 'move', body = ? WHERE id = ?",
               (json.dumps({"seat": 0, "move": "fly_to_the_moon", "args": {}}), last))
    db.commit()
    db.close()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "main file cut in half": (_truncate_main, "cut off"),
    "main file cut mid-page": (_cut_main_mid_page, "cut off"),
    "garbage page in the main file": (_garbage_in_main, "damaged"),
    "garbage in the middle of the WAL": (_garbage_in_wal, "would silently drop"),
    "garbage in the WAL header": (_garbage_in_wal_header, "header of journal.sqlite-wal is damaged"),
    "an entry that does not decode": (_entry_that_does_not_decode, "entry 3 cannot be read"),
    "an entry the rules refuse": (_entry_the_rules_refuse, "refused by the rules"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_journal_stops_the_start_with_a_sentence_and_is_left_untouched(
    tmp_path: Path, damage: str, folder_bytes: FolderBytes, refused_start: RefusedStart,
) -> None:
    state = tmp_path / "state"
    make, words = DAMAGE[damage]
    make(state)
    before = folder_bytes(state)
    message, after = refused_start(state)
    assert words in message and "move journal.sqlite" in message and "start it again" in message
    assert set(before) <= set(after) and set(after) - set(before) <= {f"{JOURNAL}-shm"}
    for name in before:
        if name != f"{JOURNAL}-shm":
            assert after[name] == before[name], f"{name} was changed"


# --- a torn last write is normal recovery -----------------------------------------------------
@pytest.mark.parametrize("cut", ["inside the first frame", "inside the commit frame"])
def test_a_wal_torn_in_its_last_transaction_keeps_every_committed_input(tmp_path: Path, cut: str) -> None:
    live = tmp_path / "live"
    session = _played(live, inputs=30)
    _crash_image(live, tmp_path / "before")
    committed = session.table
    session.submit(StartGame("the-gate", ("Ann", "Bob"), {}, 5), source="host")  # a transaction of several frames
    _crash_image(live, tmp_path / "after")
    session.journal.close()
    short = (tmp_path / "before" / f"{JOURNAL}-wal").stat().st_size
    wal = tmp_path / "after" / f"{JOURNAL}-wal"
    full = wal.stat().st_size
    assert full - short >= 2 * 4120, "the last transaction should span several frames"
    os.truncate(wal, short + 2000 if cut == "inside the first frame" else full - 1000)
    restarted = Session(games=GAMES, journal=Journal(tmp_path / "after" / JOURNAL))
    assert restarted.table == committed and restarted.table.game == "through-the-gate"  # type: ignore[union-attr]
    assert restarted.journal.integrity() == "ok"
    restarted.submit(StartGame("the-gate", ("Ann", "Bob"), {}, 5), source="host")  # the game goes on
    restarted.journal.close()


# --- a journal from another version -------------------------------------------------------------
def test_a_journal_is_stamped_with_its_format(tmp_path: Path) -> None:
    _played(tmp_path, inputs=3).journal.close()
    with sqlite3.connect(tmp_path / JOURNAL) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_journal_from_a_newer_version_is_named_so_not_damaged_and_left_untouched(
    tmp_path: Path, benchmark: Benchmark, free_port: int, folder_bytes: FolderBytes, run_companion: RunCompanion,
) -> None:
    state = tmp_path / "state"
    _played(state, inputs=5).journal.close()
    with sqlite3.connect(state / JOURNAL) as db:
        db.execute("PRAGMA user_version = 2")  # as a later companion, with kinds of entries this one lacks, leaves it
        db.execute("INSERT INTO entries (game_id, at, source, kind, body) SELECT game_id, at, source, 'pass', '{}' "
                   "FROM entries ORDER BY id DESC LIMIT 1")
    before = folder_bytes(state)
    finished = run_companion(benchmark("daemon").run_command(state, free_port))
    assert finished.returncode == 2, finished.stdout + finished.stderr
    message = finished.stderr.strip().splitlines()[-1]
    assert "was written by a newer version of the companion (journal format 2; this version reads format 1)" in message
    assert "damaged" not in message and "move journal.sqlite" not in message  # moving it aside would drop the game
    after = folder_bytes(state)
    assert all(after[name] == before[name] for name in before if name != f"{JOURNAL}-shm")


def test_a_journal_from_an_older_version_is_named_so_and_left_untouched(
    tmp_path: Path, benchmark: Benchmark, free_port: int, folder_bytes: FolderBytes, run_companion: RunCompanion,
) -> None:
    state = tmp_path / "state"
    _played(state, inputs=5).journal.close()
    with sqlite3.connect(state / JOURNAL) as db:  # as the versions before entries recorded where they came from
        db.execute("ALTER TABLE entries DROP COLUMN source")
        db.execute("PRAGMA user_version = 0")
    before = folder_bytes(state)
    finished = run_companion(benchmark("daemon").run_command(state, free_port))
    assert finished.returncode == 2, finished.stdout + finished.stderr
    message = finished.stderr.strip().splitlines()[-1]
    assert "was written by an older version of the companion: its entries table has no source column" in message
    assert "damaged" not in message and "(no such column" not in message
    after = folder_bytes(state)
    assert all(after[name] == before[name] for name in before if name != f"{JOURNAL}-shm")
