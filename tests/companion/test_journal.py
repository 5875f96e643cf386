"""The journal: every accepted input with time and source; replay; history; damage detected."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import registered_games
from companion.rules.inputs import DiceRolled, Move, StartGame
from companion.journal.store import Journal, JournalError
from companion.rules.errors import IllegalMove
from companion.table.session import Session

GAMES = registered_games()


def _session(path: Path) -> Session:
    return Session(games=GAMES, journal=Journal(path), clock=lambda: 1000.0)


def test_inputs_are_kept_with_source_and_replayed_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    session = _session(path)
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 3), source="host")
    session.submit(DiceRolled((6,), (6,), ("camera",)), source="camera")
    session.submit(DiceRolled((2,), (6,), ("phone",)), source="phone")
    session.submit(Move(0, "declare_speed", {"speed": 4}), source="phone")
    entries = list(session.journal.entries(session.game_id))
    assert [entry.source for entry in entries] == ["host", "camera", "phone", "phone"]
    assert entries[1].input == DiceRolled((6,), (6,), ("camera",))
    restarted = _session(path)
    assert restarted.table == session.table and restarted.seq == session.seq == 4


def test_a_refused_input_is_not_journaled(tmp_path: Path) -> None:
    session = _session(tmp_path / "journal.sqlite")
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 3), source="host")
    with pytest.raises(IllegalMove):
        session.submit(Move(1, "end_turn", {}), source="phone")
    assert session.seq == 1


def test_wal_and_full_sync_are_on(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_new_game_keeps_the_old_one_in_history(tmp_path: Path) -> None:
    session = _session(tmp_path / "journal.sqlite")
    session.submit(StartGame("through-the-gate", ("Ann",), {"hourglasses": 1}, 3), source="host")
    session.submit(Move(0, "end_turn", {}), source="phone")
    session.submit(Move(0, "set_tallies", {"diary": 5}), source="phone")
    session.submit(Move(0, "finish_scoring", {}), source="phone")
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 4), source="host")
    history = session.journal.history()
    assert [past.players for past in history] == [("Ann", "Bob"), ("Ann",)]
    assert history[1].outcome["mode"] == "solo" and history[0].outcome is None


def test_a_damaged_journal_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    session = _session(path)
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 3), source="host")
    session.journal.close()
    raw = bytearray(path.read_bytes())
    raw[0:16] = b"this is not sql!"
    path.write_bytes(bytes(raw))
    with pytest.raises(JournalError, match="left as it is"):
        Journal(path)
    assert path.read_bytes()[:16] == b"this is not sql!"


def test_a_game_journaled_with_a_name_the_older_rule_took_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    blank_looking = "\u3164"  # a Hangul filler: printable to the older rule, blank to what people see
    session = _session(path)
    session.submit(StartGame("through-the-gate", ("Ann", blank_looking), {}, 3), source="host")
    session.submit(DiceRolled((6,), (6,), ("camera",)), source="camera")
    restarted = _session(path)
    assert restarted.table == session.table and restarted.table.players == ("Ann", blank_looking)
