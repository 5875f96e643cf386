"""The memory's summary beside the journal: a start takes it when it is true of the journal, and a summary that is
missing, cut, damaged, from another table's journal or from before a restored backup is never believed: every answer
is the one read from the journal itself (a Memory that keeps no summary)."""
from __future__ import annotations

import random
import shutil
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.games import registered_games
from companion.journal.store import Journal
from companion.memory import plays
from companion.memory.reader import JournalReader
from companion.memory.service import Memory
from companion.memory.summary import FILE
from companion.rules.inputs import CorrectDice, DiceRolled, Move, StartGame
from companion.table.session import Session
from memory_games import play_out

GAMES = registered_games()
KINDS = ("through-the-gate", "eight-gates", "gateway-rescue", "the-gate", "gateway-city")
NAMES = ("Ann", "bob", "Cy")


def play(path: Path, seed: int, games: int) -> None:
    """Play `games` seeded random games into the journal at `path` (made if missing)."""
    journal = Journal(path)
    session = Session(games=GAMES, journal=journal)
    rng = random.Random(seed)
    for number in range(games):
        play_out(session, KINDS[number % len(KINDS)], NAMES, rng, Counter())
    journal.close()


def luck(memory: Memory, name: str) -> dict[str, Any]:
    """A player's all-time luck once every game is counted."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = memory.player(name)["luck"]
        if not found["counting"]:
            return found
        time.sleep(0.05)
    raise AssertionError("the games were never all counted")


def answers(path: Path, **options: Any) -> dict[str, Any]:
    """What a fresh Memory on the journal answers: the plays list first (as a phone opening the history), each
    player's page (its luck apart), the dice of all games, the CSV, every player's luck, the plays' export."""
    memory = Memory(path, GAMES, **options)
    try:
        found: dict[str, Any] = {"plays": memory.plays()}
        found["players"] = {name: {**memory.player(name), "luck": None} for name in NAMES}
        found.update({"dice": memory.dice("all"), "csv": memory.dice_csv(),
                      "luck": {name: luck(memory, name) for name in NAMES}, "export": memory.export_json()})
        return found
    finally:
        memory.close()


def from_the_journal(path: Path) -> dict[str, Any]:
    return answers(path, summary=None)


def read_from(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Spy on where each dice read of the journal starts."""
    starts: list[int] = []
    counts = JournalReader.dice_counts

    def spied(self: JournalReader, after: int, upto: int, game_id: int | None = None) -> Any:
        if game_id is None:
            starts.append(after)
        return counts(self, after, upto, game_id)

    monkeypatch.setattr(JournalReader, "dice_counts", spied)
    return starts


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    path = tmp_path / "table" / "journal.sqlite"
    play(path, 7, 6)
    return path


def test_a_start_takes_the_summary_and_answers_as_the_journal_does(journal, monkeypatch):
    first = answers(journal)
    assert (journal.parent / FILE).is_file()
    starts = read_from(journal, monkeypatch)
    again = answers(journal)
    assert starts and starts[0] > 0  # read from the summary's mark, not from the start of the journal
    assert again == first == from_the_journal(journal)
    assert first["luck"]["Ann"]["dice"] > 0


def test_a_summary_then_more_games_answers_as_a_fresh_read(journal):
    before = answers(journal)
    play(journal, 8, 3)
    after = answers(journal)
    assert after == from_the_journal(journal) and after != before


def test_a_summary_from_another_tables_journal_is_not_believed(journal, tmp_path):
    answers(journal)
    other = tmp_path / "other" / "journal.sqlite"
    play(other, 99, 9)  # longer than the first: the first summary's mark is inside it
    shutil.copy(journal.parent / FILE, other.parent / FILE)
    assert answers(other) == from_the_journal(other)


def test_a_journal_restored_from_a_backup_and_played_on_is_read_again(journal, tmp_path):
    backup = tmp_path / "backup.sqlite"
    shutil.copy(journal, backup)
    play(journal, 8, 4)
    answers(journal)  # the summary now reaches past the backup
    shutil.copy(backup, journal)
    play(journal, 1234, 6)  # other games than those the summary counted, past its mark
    assert answers(journal) == from_the_journal(journal)


@pytest.mark.parametrize("damage", ["cut", "garbage", "missing", "tampered"])
def test_a_damaged_or_missing_summary_is_rebuilt_and_never_believed(journal, damage):
    answers(journal)
    summary = journal.parent / FILE
    if damage == "cut":
        summary.write_bytes(summary.read_bytes()[:1500])
    elif damage == "garbage":
        summary.write_bytes(b"not a summary at all" * 100)
    elif damage == "missing":
        summary.unlink()
    else:  # counts changed inside the file, every page of it still sound
        db = sqlite3.connect(summary)
        assert db.execute("UPDATE parts SET body = replace(body, '1', '2')").rowcount == 3  # dice, luck, plays
        db.commit()
        db.close()
    if damage != "tampered":
        for side in ("-wal", "-shm"):
            Path(f"{summary}{side}").unlink(missing_ok=True)
    assert answers(journal) == from_the_journal(journal)
    assert answers(journal) == from_the_journal(journal)  # the rebuilt summary holds


def games_read_after(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Spy on where each read of the journal's finished games starts."""
    starts: list[int] = []
    games = JournalReader.games

    def spied(self: JournalReader, *, finished_only: bool = False, after: int = 0, limit: int = -1) -> Any:
        if finished_only and limit == -1:
            starts.append(after)
        return games(self, finished_only=finished_only, after=after, limit=limit)

    monkeypatch.setattr(JournalReader, "games", spied)
    return starts


def test_a_start_takes_the_plays_from_the_summary_and_reads_only_the_games_since(journal, monkeypatch):
    first = answers(journal)
    play(journal, 8, 2)
    starts = games_read_after(monkeypatch)
    again = answers(journal)
    assert starts == [5]  # the summary's plays reach game 5 of the 6 (the newest is read fresh each time)
    assert again == from_the_journal(journal) and again != first
    assert [found["id"] for found in again["plays"]] == list(range(1, 9))


def test_plays_tampered_inside_the_summary_are_never_believed(journal):
    answers(journal)
    db = sqlite3.connect(journal.parent / FILE)
    assert db.execute("""UPDATE parts SET body = replace(body, '"Ann"', '"Eve"') WHERE name = 'plays'""").rowcount == 1
    db.commit()
    db.close()
    found = answers(journal)
    assert found == from_the_journal(journal)
    assert {seat["name"] for play in found["plays"] for seat in play["players"]} == set(NAMES)


def test_plays_kept_by_an_older_form_of_the_code_are_read_again(journal, monkeypatch):
    answers(journal)  # kept as the code works now
    monkeypatch.setattr(plays, "FORM", plays.FORM + 1)  # the code now takes a game's scores otherwise
    monkeypatch.setitem(plays.SCORES, "eight-gates", lambda outcome: None)
    found = answers(journal)
    assert found == from_the_journal(journal)
    assert all(seat["score"] is None for play in found["plays"] if play["game"] == "eight-gates"
               for seat in play["players"])


def test_a_backup_restored_to_the_summary_s_last_game_is_not_counted_twice(tmp_path):
    journal, backup = tmp_path / "table" / "journal.sqlite", tmp_path / "backup.sqlite"
    play(journal, 7, 3)  # the third, Gateway: rescue, credits camera dice to seats
    shutil.copy(journal, backup)  # its newest game, the third, is finished
    play(journal, 8, 1)
    answers(journal)  # the summary now reaches the third game, no longer the newest
    shutil.copy(backup, journal)
    found = answers(journal)
    assert found == from_the_journal(journal)
    assert [play["id"] for play in found["plays"]] == [1, 2, 3] and found["luck"]["Ann"]["dice"] > 0


def test_another_journal_that_differs_only_in_its_first_game_is_told_apart(journal, tmp_path):
    answers(journal)
    other = tmp_path / "other" / "journal.sqlite"
    other.parent.mkdir()
    shutil.copy(journal, other)
    shutil.copy(journal.parent / FILE, other.parent / FILE)
    db = sqlite3.connect(other)  # the same games from the second on: only the fingerprint tells the two apart
    assert db.execute("UPDATE games SET players = replace(players, 'Ann', 'Zed') WHERE id = 1").rowcount == 1
    db.commit()
    db.close()
    found = answers(other)
    assert found == from_the_journal(other) and found["plays"][0]["players"][0]["name"] == "Zed"


def test_a_backup_restored_to_end_on_the_roll_the_summary_saw_corrected_counts_that_roll(tmp_path):
    journal, backup = tmp_path / "table" / "journal.sqlite", tmp_path / "backup.sqlite"
    play(journal, 7, 3)  # finished games first, with every player
    book = Journal(journal)
    session = Session(games=GAMES, journal=book)
    session.submit(StartGame("through-the-gate", ("Ann",), {"hourglasses": 999}, 1), source="host")
    session.submit(Move(0, "declare_speed", {"speed": 4}), source="phone")
    session.submit(Move(0, "check", {"kind": "less"}), source="phone")
    session.submit(DiceRolled((2,), (6,), ("camera",)), source="camera")
    book.close()
    shutil.copy(journal, backup)  # the backup ends on the roll of 2, the open roll
    book = Journal(journal)
    Session(games=GAMES, journal=book).submit(CorrectDice((3,), (6,)), source="phone")  # the 2 was a 3
    book.close()
    answers(journal)  # the summary's mark reaches the roll of 2, which the correction replaced
    shutil.copy(backup, journal)  # the correction is gone: the 2 stands again, and may still be corrected
    assert answers(journal) == from_the_journal(journal)
