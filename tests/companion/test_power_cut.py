"""Power cuts: the real daemon SIGKILLed at random moments of seeded random games loses no input a
client was told of, keeps a sound journal, and the game goes on after every restart.

The short version of benchmarks/power_cut.py (5 kills; the long one makes 50 per run). What a SIGKILL
simulates: the process dies at any instruction, with SQLite's writes that reached the kernel kept.
It does not simulate losing the kernel's unsynced page cache; that is what synchronous=FULL's
fsync at every commit is for.
"""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Callable

from companion.games import registered_games
from companion.rules.inputs import Move, StartGame
from companion.journal.store import Journal
from companion.table.session import Session

GAMES = registered_games()


def test_power_cuts_at_random_moments_lose_no_input_a_client_was_told_of(
    tmp_path: Path, benchmark: Callable[[str], ModuleType]
) -> None:
    cuts = benchmark("power_cut").PowerCuts(tmp_path / "state", seed=7, game_inputs=8, kill_within=0.3)
    figures = cuts.run(5, seconds=60)
    assert figures.mismatches == []
    assert figures.kills == 5 and figures.restarts == 5 and figures.integrity_failures == 0
    assert figures.games_started >= 2, "several games, so the history is checked across restarts"
    assert figures.accepted >= 6, "an input is accepted after every restart"


def test_a_game_ends_in_the_same_commit_as_its_last_input(tmp_path: Path) -> None:
    session = Session(games=GAMES, journal=Journal(tmp_path / "journal.sqlite"), clock=lambda: 1000.0)
    session.submit(StartGame("through-the-gate", ("Ann",), {"hourglasses": 1}, 3), source="host")
    session.submit(Move(0, "end_turn", {}), source="phone")
    session.submit(Move(0, "set_tallies", {"diary": 5}), source="phone")
    statements: list[str] = []
    session.journal._db.set_trace_callback(statements.append)
    session.submit(Move(0, "finish_scoring", {}), source="phone")
    assert session.game.outcome(session.table.state) is not None  # type: ignore[union-attr]
    kinds = [statement.split()[0] for statement in statements]
    assert kinds == ["BEGIN", "INSERT", "UPDATE", "COMMIT", "PRAGMA"]  # then a checkpoint: the file holds the end
    assert session.journal.is_finished(session.game_id)  # type: ignore[arg-type]
    session.journal.close()


def test_a_finished_game_whose_end_was_not_recorded_gets_it_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    session = Session(games=GAMES, journal=Journal(path), clock=lambda: 1000.0)
    session.submit(StartGame("through-the-gate", ("Ann",), {"hourglasses": 1}, 3), source="host")
    session.submit(Move(0, "end_turn", {}), source="phone")
    session.submit(Move(0, "set_tallies", {"diary": 5}), source="phone")
    session.submit(Move(0, "finish_scoring", {}), source="phone")
    session.journal.close()
    db = sqlite3.connect(path)  # as a journal from before one-commit endings could be left by a power cut
    db.execute("UPDATE games SET finished = NULL, outcome = NULL")
    db.commit()
    db.close()
    restarted = Session(games=GAMES, journal=Journal(path), clock=lambda: 2000.0)
    past = restarted.journal.history()[0]
    assert past.finished == 2000.0 and past.outcome is not None and past.outcome["mode"] == "solo"
    restarted.journal.close()


def test_a_power_cut_in_a_rollback_journal_transaction_is_rolled_back_at_the_next_start(tmp_path: Path) -> None:
    from companion.journal.schema import SCHEMA

    live, image = tmp_path / "live.sqlite", tmp_path / "state" / "journal.sqlite"
    db = sqlite3.connect(live, isolation_level=None)  # rollback mode, as before the first start turns to WAL
    db.executescript(SCHEMA)
    db.execute("INSERT INTO games (game, players, options, seed, started) VALUES ('the-gate', '[\"Ann\"]', '{}', 1, 0)")
    db.execute("PRAGMA cache_size = 5")
    db.execute("BEGIN IMMEDIATE")
    for number in range(3000):  # spills to the file: only the -journal can undo it
        db.execute("INSERT INTO tokens (holder, token, issued) VALUES (?, 'x', 0)", (f"h{number}",))
    image.parent.mkdir()
    for suffix in ("", "-journal"):
        shutil.copyfile(f"{live}{suffix}", f"{image}{suffix}")
    db.close()
    journal = Journal(image)
    assert journal.current_game() == 1 and journal.token_rows() == [] and journal.integrity() == "ok"
    journal.close()
