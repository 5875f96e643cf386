"""Storage faults under a running companion: a full or failing disk, or a read-only state folder,
refuses new input with a sentence while the table is still served; once the fault is gone, play goes
on from the last saved move. (A damaged journal at the start: test_damaged_journal.py.)

What is simulated, and how:
- a full disk: SQLite's own page limit (`PRAGMA max_page_count` set to the journal's size) on the
  live journal of the companion running in this process, so the next page SQLite needs is refused
  with SQLITE_FULL, as on a full card (an ENOSPC from the kernel also reaches us as SQLITE_FULL);
- a write the storage refuses: the daemon subprocess's file-size limit (RLIMIT_FSIZE, set with
  prlimit) just past the end of its WAL, so the kernel refuses SQLite's next write (EFBIG, which
  SQLite reports as SQLITE_IOERR, as it would EIO or EROFS from a failing card);
- a read-only state folder: chmod 0555/0444. As root, the daemon runs without CAP_DAC_OVERRIDE and
  CAP_DAC_READ_SEARCH (dropped from its bounding set) so the modes bind it as they bind the
  `companion` user. A chmod under the running daemon does not stop it: SQLite's files are already
  open for writing; the folder is found read-only at the next start.
"""
from __future__ import annotations

import http.client
import json
import resource
import sqlite3
import subprocess
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import pytest

from companion.journal.checks import storage_refusal
from file_modes import bound_by_file_modes

JOURNAL = "journal.sqlite"
NOT_SAVED = "this move was not saved and nothing changed."
Benchmark = Callable[[str], ModuleType]  # the `benchmark` fixture: loads benchmarks/NAME.py
FolderBytes = Callable[[Path], dict[str, bytes]]  # the `folder_bytes` fixture
RunCompanion = Callable[..., subprocess.CompletedProcess[str]]  # the `run_companion` fixture


# --- a full disk under the running daemon -----------------------------------------------------
def _state_and_events(daemon: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """GET /api/state, and the first snapshot of a new event stream (within 5 s)."""
    status, shown = daemon.call("GET", "/api/state")
    assert status == 200
    return shown, _first_event(daemon.port, daemon.token)


def _first_event(port: int, token: str) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token}"})
        answer = connection.getresponse()
        assert answer.status == 200
        for _ in range(50):
            line = answer.fp.readline().decode()
            if line.startswith("data:"):
                return json.loads(line[5:])
        raise AssertionError("no snapshot on the event stream")
    finally:
        connection.close()


def _play_a_little(daemon: Any) -> dict[str, Any]:
    """A new game of Through The Gate and three inputs; returns the last answer."""
    for path, body in (("/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}),
                       ("/api/dice", {"values": [6], "sides": [6]}), ("/api/dice", {"values": [1], "sides": [6]}),
                       ("/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 3}})):
        status, answer = daemon.call("POST", path, body)
        assert status == 200, answer
    return answer


def _tally(wisdom: int) -> dict[str, Any]:
    """A move Through The Gate accepts at any time: Bob's wisdom tally set to a number."""
    return {"seat": 1, "move": "set_tallies", "args": {"wisdom": wisdom}}


def _limit_file_size(pid: int, limit: int) -> None:
    hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))


def test_a_full_disk_refuses_input_with_a_sentence_and_the_table_is_still_served(
    companion_server: Any, benchmark: Benchmark
) -> None:
    server, game_part = companion_server, benchmark("power_cut").game_part
    daemon = _InProcess(server)
    told = game_part(_play_a_little(daemon))
    db = server.companion.journal._db  # SQLite's own page limit: the journal cannot grow, as on a full card
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for wisdom in range(10, 500):  # a page fills within a few dozen inputs
        status, answer = daemon.call("POST", "/api/actions", _tally(wisdom))
        if status != 200:
            break
        told = game_part(answer)
    assert status == 503 and answer["error"] == "storage_full", answer
    assert answer["message"] == (f"The state folder {server.companion.journal.path.parent} is full: {NOT_SAVED} "
                                 "Free some space; the game goes on from the last saved move.")
    shown, pushed = _state_and_events(daemon)
    assert game_part(shown) == told and game_part(pushed) == told
    ends = {"ends_game": shown["game_no"]}  # the host confirmed ending the game: the disk still refuses it
    assert daemon.call("POST", "/api/game", {"game": "the-gate", "players": ["Cy", "Di"], **ends})[0] == 503
    db.execute("PRAGMA max_page_count = 1073741823")  # room again: the game goes on, no restart needed
    status, answer = daemon.call("POST", "/api/actions", _tally(wisdom))
    assert status == 200 and game_part(answer) != told


def test_a_failing_write_refuses_input_and_a_power_cut_then_loses_nothing(tmp_path: Path, benchmark: Benchmark) -> None:
    state, power_cut = tmp_path / "state", benchmark("power_cut")
    daemon = benchmark("daemon").Daemon(state)
    try:
        told = power_cut.game_part(_play_a_little(daemon))
        wal = state / f"{JOURNAL}-wal"
        _limit_file_size(daemon.process.pid, wal.stat().st_size + 10)  # the kernel cuts the WAL's next write
        for wisdom in (7, 8):
            status, answer = daemon.call("POST", "/api/actions", _tally(wisdom))
            assert status == 503 and answer["error"] == "storage_error", answer
            assert answer["message"].startswith(f"The state folder {state} could not be written (disk I/O error): "
                                                f"{NOT_SAVED}")
            shown, pushed = _state_and_events(daemon)
            assert power_cut.game_part(shown) == told and power_cut.game_part(pushed) == told
        _limit_file_size(daemon.process.pid, resource.RLIM_INFINITY)
        status, answer = daemon.call("POST", "/api/actions", _tally(9))
        assert status == 200, answer  # the fault is gone: the game goes on without a restart
        told = power_cut.game_part(answer)
        _limit_file_size(daemon.process.pid, wal.stat().st_size + 10)
        assert daemon.call("POST", "/api/actions", _tally(10))[0] == 503  # leaves a torn frame in the WAL
    finally:
        daemon.kill()  # a power cut while the write still fails
    again = power_cut.Daemon(state)
    try:
        assert power_cut.game_part(again.call("GET", "/api/state")[1]) == told
        assert again.call("POST", "/api/actions", _tally(11))[0] == 200
    finally:
        assert again.stop() == 0


class _InProcess:
    """The in-process companion (tests/conftest.py) with the subprocess Daemon's call() and port."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.port = server.companion.port
        self.token = server.host_token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One request as the host; returns (status, parsed body)."""
        return self.server.api(method, path, body, token=self.token)  # type: ignore[no-any-return]


# --- a read-only state folder -------------------------------------------------------------------
def _make_read_only(state: Path, read_only: bool) -> None:
    for path in state.iterdir():
        path.chmod(0o444 if read_only else 0o644)
    state.chmod(0o555 if read_only else 0o755)


@pytest.fixture
def state_folder(tmp_path: Path) -> Iterator[Path]:
    """A state folder that is made writable again at the end, whatever happened."""
    state = tmp_path / "state"
    state.mkdir()
    yield state
    if state.exists():
        _make_read_only(state, False)


@pytest.mark.parametrize("ending", ["a clean stop", "a power cut"])
def test_a_read_only_state_folder_serves_the_table_and_refuses_input(
    state_folder: Path, ending: str, benchmark: Benchmark, folder_bytes: FolderBytes
) -> None:
    power_cut, daemons, preexec = benchmark("power_cut"), benchmark("daemon"), bound_by_file_modes()
    daemon = daemons.Daemon(state_folder, preexec=preexec)
    told = power_cut.game_part(_play_a_little(daemon))
    if ending == "a clean stop":
        assert daemon.stop() == 0
        _make_read_only(state_folder, True)
    else:
        _make_read_only(state_folder, True)  # under the running daemon: its files are open, it goes on
        status, answer = daemon.call("POST", "/api/actions", _tally(2))
        assert status == 200 or (status == 503 and NOT_SAVED in answer["message"]), answer
        told = power_cut.game_part(answer) if status == 200 else told
        daemon.kill()
    _check_read_only_start(benchmark, folder_bytes, state_folder, preexec, told)
    _make_read_only(state_folder, False)
    again = daemons.Daemon(state_folder, preexec=preexec)
    try:
        assert power_cut.game_part(again.call("GET", "/api/state")[1]) == told
        status, answer = again.call("POST", "/api/actions", _tally(5))
        assert status == 200, answer  # writable again: the game goes on
    finally:
        assert again.stop() == 0


def _check_read_only_start(
    benchmark: Benchmark, folder_bytes: FolderBytes, state: Path, preexec: Any, told: dict[str, Any]
) -> None:
    before = folder_bytes(state)
    power_cut = benchmark("power_cut")
    daemon = benchmark("daemon").Daemon(state, preexec=preexec)
    try:
        assert f"warning: The state folder {state} is read-only" in daemon.output()
        assert _host_notice(daemon, "is read-only")["message_ko"].startswith(f"상태 폴더 {state}이(가) 읽기 전용입니다: ")
        shown, pushed = _state_and_events(daemon)
        assert power_cut.game_part(shown) == told and power_cut.game_part(pushed) == told
        for path, body in (("/api/actions", _tally(4)),
                           ("/api/game", {"game": "through-the-gate", "players": ["Cy", "Di"],
                                          "ends_game": shown["game_no"]})):
            status, answer = daemon.call("POST", path, body)
            assert status == 503 and answer["error"] == "storage_read_only", answer
            assert answer["message"].startswith(f"The state folder {state} is read-only: ")
            assert "was not saved and nothing changed." in answer["message"]
        assert power_cut.game_part(daemon.call("GET", "/api/state")[1]) == told
    finally:
        assert daemon.stop() == 0
    assert folder_bytes(state) == before


def _host_notice(daemon: Any, words: str) -> dict[str, Any]:
    """The box's notice with these words on the host's page, once it is there (5 s at most); raises AssertionError."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        notices = [notice for notice in daemon.call("GET", "/api/state")[1]["notices"] if words in notice["message"]]
        if notices:
            return notices[0]
        time.sleep(0.05)
    raise AssertionError(f"the host's page never showed the box's notice saying {words!r}")


def test_an_empty_read_only_state_folder_stops_the_start_with_a_sentence(
    state_folder: Path, benchmark: Benchmark, free_port: int, run_companion: RunCompanion
) -> None:
    _make_read_only(state_folder, True)
    command = benchmark("daemon").run_command(state_folder, free_port)
    finished = run_companion(command, preexec_fn=bound_by_file_modes())
    assert finished.returncode == 2, finished.stdout + finished.stderr
    assert f"The state folder {state_folder} is read-only and holds no journal yet" in finished.stderr
    assert list(state_folder.iterdir()) == []


# --- the sentences ---------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "mount_read_only", "free", "words"), [
    ("SQLITE_FULL", False, 10**9, "is full: this move"),
    ("SQLITE_IOERR_WRITE", False, 0, "is full: this move"),
    ("SQLITE_IOERR_WRITE", True, 10**9, "is read-only: this move"),
    ("SQLITE_READONLY", False, 10**9, "is read-only: this move"),
    ("SQLITE_IOERR_FSYNC", False, 10**9, "could not be written (disk I/O error): this move"),
    ("SQLITE_BUSY", False, 10**9, "is busy (another program holds it): this move"),
])
def test_each_storage_fault_has_its_sentence(tmp_path: Path, name: str, mount_read_only: bool, free: int,
                                             words: str) -> None:
    refusal = storage_refusal(tmp_path / JOURNAL, name, "disk I/O error", what="this move",
                              folder_state=(mount_read_only, free))
    assert words in refusal.message and refusal.message.endswith(("move.", "again."))
    assert NOT_SAVED in refusal.message


class _CommitFails:
    """A connection whose COMMIT fails and leaves the transaction open (as SQLITE_BUSY can)."""

    def __init__(self) -> None:
        self.in_transaction = False
        self.executed: list[str] = []

    def execute(self, sql: str) -> None:
        self.executed.append(sql)
        if sql == "BEGIN IMMEDIATE":
            self.in_transaction = True
        elif sql == "COMMIT":
            raise sqlite3.OperationalError("database is locked")
        elif sql == "ROLLBACK":
            self.in_transaction = False


def test_a_failed_commit_is_rolled_back_so_the_next_write_can_start() -> None:
    from companion.journal.schema import Transaction

    connection = _CommitFails()
    with pytest.raises(sqlite3.OperationalError):
        with Transaction(connection):  # type: ignore[arg-type]
            pass
    assert connection.executed == ["BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"] and not connection.in_transaction
