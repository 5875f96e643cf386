"""A journal whose saved moves are not all there any more stops the start with a sentence and is left byte for
byte; a clean stop and a game's end leave journal.sqlite alone holding every move.

What is simulated, and how: a crash image is the journal's files copied while its Session is open (as a SIGKILL
leaves them: the WAL holds the recent moves, the -shm index records how many frames were saved); then one file is
cut, emptied or deleted, as a damaged SD card or a careless copy leaves it.
"""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Callable

import pytest

from companion.games import registered_games
from companion.journal.store import Journal
from companion.journal.wal_index import read_wal_index
from companion.rules import engine
from companion.rules.autoplay import random_input
from companion.rules.errors import CompanionError
from companion.rules.inputs import Move, StartGame
from companion.table.session import Session

GAMES = registered_games()
JOURNAL = "journal.sqlite"
WAL, SHM = f"{JOURNAL}-wal", f"{JOURNAL}-shm"
FRAME = 24 + 4096
FolderBytes = Callable[[Path], dict[str, bytes]]
RefusedStart = Callable[[Path], tuple[str, dict[str, bytes]]]


def _playing(folder: Path, inputs: int = 60, seed: int = 5) -> Session:
    """An open session on a fresh journal with a game of Gateway City and `inputs` accepted inputs, none of which
    ended it (the end of a game copies the WAL into the file)."""
    session = Session(games=GAMES, journal=Journal(folder / JOURNAL))
    session.submit(StartGame("gateway-city", ("Ann", "Bob"), {}, seed), source="host")
    rng = random.Random(seed)
    for _ in range(50 * inputs):
        if session.seq > inputs:
            break
        table, game = session.table, session.game
        given = random_input(table, game, rng)  # type: ignore[arg-type]
        try:
            if given is None or game.outcome(engine.apply(table, game, given).state) is not None:  # type: ignore[arg-type, union-attr]
                continue
            session.submit(given, source="phone")
        except CompanionError:  # a random input the rules refuse: try another
            continue
    assert session.seq > inputs
    return session


def _crash_image(folder: Path, *, with_index: bool = True, with_wal: bool = True) -> None:
    """The journal's files as a SIGKILL leaves them while a game is played (some left out, as a careless copy)."""
    live = folder.parent / "live"
    session = _playing(live)
    folder.mkdir(parents=True)
    names = [JOURNAL] + [WAL] * with_wal + [SHM] * with_index
    for name in names:
        shutil.copyfile(live / name, folder / name)
    session.journal.close()
    if with_wal:
        assert (folder / WAL).stat().st_size > 10 * FRAME, "the recent moves are in the WAL"


def _clean_stop(folder: Path) -> None:
    _playing(folder).journal.close()
    assert sorted(os.listdir(folder)) == [JOURNAL]


def _main_emptied_wal_holding_everything(folder: Path) -> None:
    _crash_image(folder)
    os.truncate(folder / JOURNAL, 0)


def _main_emptied_after_a_clean_stop(folder: Path) -> None:
    _clean_stop(folder)
    os.truncate(folder / JOURNAL, 0)


def _wal_cut_in_half(folder: Path) -> None:
    _crash_image(folder)
    index = read_wal_index(folder / SHM)
    assert index is not None and index.frames > 10
    os.truncate(folder / WAL, 32 + index.frames // 2 * FRAME + 100)  # inside what the index records as saved


def _wal_deleted(folder: Path) -> None:
    _crash_image(folder)
    (folder / WAL).unlink()


def _wal_emptied(folder: Path) -> None:
    _crash_image(folder)
    os.truncate(folder / WAL, 0)


def _only_the_journal_copied_while_running(folder: Path) -> None:
    _crash_image(folder, with_index=False, with_wal=False)


def _an_empty_database_in_its_place(folder: Path) -> None:
    folder.mkdir(parents=True)
    db = sqlite3.connect(folder / JOURNAL)
    db.execute("PRAGMA journal_mode=WAL")  # as an older companion's first start left it, its WAL now gone
    db.close()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "journal cut to 0 bytes, its WAL holding the games": (_main_emptied_wal_holding_everything, "is empty (0 bytes)"),
    "journal cut to 0 bytes after a clean stop": (_main_emptied_after_a_clean_stop, "is empty (0 bytes)"),
    "WAL cut in half after a crash": (_wal_cut_in_half, "journal.sqlite-wal was cut short"),
    "WAL deleted after a crash": (_wal_deleted, "journal.sqlite-wal is missing or empty, but journal.sqlite-shm records"),
    "WAL emptied after a crash": (_wal_emptied, "journal.sqlite-wal is missing or empty, but journal.sqlite-shm records"),
    "only journal.sqlite copied while it ran": (_only_the_journal_copied_while_running, "was not stopped cleanly"),
    "an empty database in its place": (_an_empty_database_in_its_place, "holds no tables"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_journal_missing_saved_moves_stops_the_start_with_a_sentence_and_is_left_byte_for_byte(
    tmp_path: Path, damage: str, folder_bytes: FolderBytes, refused_start: RefusedStart,
) -> None:
    state = tmp_path / "state"
    make, words = DAMAGE[damage]
    make(state)
    before = folder_bytes(state)
    sentence, after = refused_start(state)
    assert words in sentence and "start it again" in sentence, sentence
    assert after == before  # every file, the -shm index included


def test_a_crash_image_with_all_its_files_opens_with_every_move(tmp_path: Path) -> None:
    live, image = tmp_path / "live", tmp_path / "image"
    session = _playing(live)
    image.mkdir()
    for name in (JOURNAL, WAL, SHM):
        shutil.copyfile(live / name, image / name)
    restarted = Session(games=GAMES, journal=Journal(image / JOURNAL))
    assert restarted.table == session.table and restarted.seq == session.seq
    restarted.journal.close()
    session.journal.close()


def _file_alone(path: Path) -> sqlite3.Connection:
    """The journal file as it is on the card, without its WAL."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def test_a_clean_stop_leaves_journal_sqlite_alone_with_every_move(tmp_path: Path) -> None:
    session = _playing(tmp_path / "live")
    session.journal.close()
    assert sorted(os.listdir(tmp_path / "live")) == [JOURNAL]
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copyfile(tmp_path / "live" / JOURNAL, copy / JOURNAL)  # what people back up
    again = Session(games=GAMES, journal=Journal(copy / JOURNAL))
    assert again.table == session.table and again.seq == session.seq
    again.journal.close()


def test_a_clean_stop_after_a_power_cut_copies_the_moves_left_in_the_wal_into_the_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _crash_image(state)
    again = Session(games=GAMES, journal=Journal(state / JOURNAL))  # a start that plays nothing, then a clean stop
    table, seq = again.table, again.seq
    again.journal.close()
    assert sorted(os.listdir(state)) == [JOURNAL]
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copyfile(state / JOURNAL, copy / JOURNAL)
    alone = Session(games=GAMES, journal=Journal(copy / JOURNAL))
    assert alone.table == table and alone.seq == seq
    alone.journal.close()


def test_a_game_that_ends_is_in_the_journal_file_at_once(tmp_path: Path) -> None:
    session = Session(games=GAMES, journal=Journal(tmp_path / JOURNAL), clock=lambda: 1000.0)
    session.submit(StartGame("through-the-gate", ("Ann",), {"hourglasses": 1}, 3), source="host")
    for move in (Move(0, "end_turn", {}), Move(0, "set_tallies", {"diary": 5}), Move(0, "finish_scoring", {})):
        session.submit(move, source="phone")
    assert session.journal.is_finished(session.game_id)  # type: ignore[arg-type]
    alone = _file_alone(tmp_path / JOURNAL)
    try:
        assert alone.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == session.seq
        assert alone.execute("SELECT finished FROM games").fetchone()[0] == 1000.0
    finally:
        alone.close()
    session.journal.close()


def test_a_new_journal_is_made_whole_before_it_takes_its_name(tmp_path: Path) -> None:
    journal = Journal(tmp_path / JOURNAL)
    alone = _file_alone(tmp_path / JOURNAL)
    try:
        tables = {row[0] for row in alone.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        alone.close()
    assert {"games", "entries", "tokens", "in_use"} <= tables
    assert not (tmp_path / f"{JOURNAL}.new").exists()
    journal.close()
