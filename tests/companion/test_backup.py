"""`companion backup`: a copy of the journal made while the daemon runs and a game is played restores to the
table that was backed up.

Over the real daemon (a subprocess on 127.0.0.1, demo mode) and its HTTP API; `companion backup` is run as a
second process beside it, as a host would from a shell; the restore is what the README says: the backup put in
a new state folder as journal.sqlite, and the daemon started on it.
"""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from companion.journal.store import Journal

REPO = Path(__file__).resolve().parents[2]
Benchmark = Callable[[str], ModuleType]


def _backup(state: Path, target: Path) -> subprocess.CompletedProcess[str]:
    """`companion backup TARGET --state STATE`, run to its end."""
    return subprocess.run([sys.executable, "-m", "companion", "backup", str(target), "--state", str(state)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)


def _restored(backup: Path, state: Path, benchmark: Benchmark) -> dict[str, Any]:
    """The table a daemon started on the backup shows (its game part), the daemon stopped again."""
    state.mkdir()
    shutil.copyfile(backup, state / "journal.sqlite")
    daemon = benchmark("daemon").Daemon(state)
    try:
        status, shown = daemon.call("GET", "/api/state")
        assert status == 200, shown
        return benchmark("power_cut").game_part(shown)  # type: ignore[no-any-return]
    finally:
        assert daemon.stop() == 0


def _entries(path: Path) -> int:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
    finally:
        db.close()


def test_a_backup_made_while_a_game_is_played_restores_to_the_table_backed_up(tmp_path: Path, benchmark: Benchmark) -> None:
    state, power_cut = tmp_path / "state", benchmark("power_cut")
    daemon = benchmark("daemon").Daemon(state)
    host = benchmark("evening").Host(daemon.port, daemon.token, 3)
    try:
        for _ in range(80):
            host.act()
        quiet_table = power_cut.game_part(host.state)
        quiet = _backup(state, tmp_path / "quiet.sqlite")  # the table still, the daemon running
        assert quiet.returncode == 0, quiet.stderr
        assert "To restore it: stop the companion" in quiet.stdout
        seen: list[dict[str, Any]] = [power_cut.game_part(host.state)]
        playing = threading.Event()

        def play() -> None:
            while not playing.is_set():
                if host.act().accepted:
                    seen.append(power_cut.game_part(host.state))

        player = threading.Thread(target=play)
        player.start()
        try:
            busy = _backup(state, tmp_path / "busy.sqlite")  # moves come in meanwhile
        finally:
            playing.set()
            player.join(30)
        assert busy.returncode == 0, busy.stderr
    finally:
        assert daemon.stop() == 0
    for name in ("quiet.sqlite", "busy.sqlite"):
        assert sorted(path.name for path in tmp_path.glob(f"{name}*")) == [name], "one self-contained file"
    assert _restored(tmp_path / "quiet.sqlite", tmp_path / "restored-quiet", benchmark) == quiet_table
    assert _restored(tmp_path / "busy.sqlite", tmp_path / "restored-busy", benchmark) in seen
    assert 80 < _entries(tmp_path / "busy.sqlite") <= _entries(state / "journal.sqlite")


def test_a_backup_never_overwrites_a_file_and_a_missing_journal_is_said(tmp_path: Path) -> None:
    target = tmp_path / "taken.sqlite"
    target.write_bytes(b"keep me")
    missing = _backup(tmp_path / "no-state", tmp_path / "new.sqlite")
    assert missing.returncode == 2 and "There is no journal at" in missing.stderr
    assert not (tmp_path / "new.sqlite").exists()
    Journal(tmp_path / "state" / "journal.sqlite").close()
    taken = _backup(tmp_path / "state", target)
    assert taken.returncode == 2 and "already exists; name a new file" in taken.stderr
    assert target.read_bytes() == b"keep me"
