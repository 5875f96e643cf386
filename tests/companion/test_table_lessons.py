"""The table learns from the rolls it plays (companion/camera/table_lessons.py): which values stand for a read's dice."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.camera import table_lessons
from companion.camera.lessons import Lessons
from companion.camera.table_lessons import TableLessons, Waiting, open_lessons
from companion.rules.inputs import CorrectDice, DiceRolled, Move, StartGame, Undo
from vision.eyes import TableEyes
from vision.layer import Example, Features
from vision.reader import MODELS


def unlabelled(shade: int) -> Example:
    """An example as the camera hands it over: value 0 until the table says what stood."""
    return Example(np.full((64, 64, 3), shade, np.uint8), 0, np.full(8, 0.125, np.float32), None, False, f"roll-{shade}")


@pytest.fixture
def table(tmp_path: Path):
    lessons = TableLessons(tmp_path, TableEyes(), lambda: Features(MODELS / "dice_faces.onnx"))
    lessons.start()
    yield lessons
    lessons.stop()


def kept(state: Path) -> list[tuple[int, str]]:
    """The stored examples as (value, how), oldest first."""
    store = Lessons(state)
    try:
        return [(value, how) for value, how in store._db.execute("SELECT value, how FROM examples ORDER BY id")]
    finally:
        store.close()


def test_a_read_is_confirmed_by_the_next_roll_and_a_correction_labels_only_what_changed(table, tmp_path: Path) -> None:
    table.seen(Waiting(5, (unlabelled(10), unlabelled(20)), (3, 4), "read"))
    table.accepted(Move("gate", 0), 6)  # a move: the roll can still be corrected
    table.accepted(DiceRolled((2, 2), (6, 6)), 7)  # a later roll: the read stood
    table.seen(Waiting(8, (unlabelled(30), unlabelled(40)), (5, 6), "read"))
    table.accepted(CorrectDice((5, 1), (6, 6)), 9)
    table.stop()
    assert kept(tmp_path) == [(3, "confirmed"), (4, "confirmed"), (5, "confirmed"), (1, "corrected")]


def test_a_guess_is_labelled_by_the_roll_entered_for_it_and_the_d8_is_left_out(table, tmp_path: Path) -> None:
    table.seen(Waiting(4, (unlabelled(10), None), (2, None), "guess"))  # the second die was not found in the last look
    table.accepted(DiceRolled((7, 2, 6), (8, 6, 6), ("phone",) * 3), 5)
    table.stop()
    assert kept(tmp_path) == [(2, "confirmed")]


@pytest.mark.parametrize("then", [Undo(), StartGame("eight_gates", ("A", "B"))])
def test_a_guess_the_table_never_answered_teaches_nothing(table, tmp_path: Path, then) -> None:
    table.seen(Waiting(4, (unlabelled(10),), (2,), "guess"))
    table.accepted(then, 5)
    table.accepted(DiceRolled((3,), (6,)), 6)
    table.stop()
    assert kept(tmp_path) == []


def test_knocked_dice_teach_nothing_even_when_corrected(table, tmp_path: Path) -> None:
    table.seen(Waiting(5, (unlabelled(10),), (3,), "read"))
    table.bumped()
    table.accepted(CorrectDice((6,), (6,)), 6)
    table.stop()
    assert kept(tmp_path) == []


def test_a_half_read_waits_for_its_hand_dice_then_for_the_next_roll(table, tmp_path: Path) -> None:
    table.seen(Waiting(4, (unlabelled(10),), (5,), "half"))
    table.accepted(DiceRolled((5, 8), (6, 8), ("camera", "phone")), 5)
    table.accepted(CorrectDice((4, 8), (6, 8)), 6)
    table.stop()
    assert kept(tmp_path) == [(4, "corrected")]


def test_a_correction_that_does_not_pair_with_the_dice_teaches_nothing(table, tmp_path: Path) -> None:
    table.seen(Waiting(5, (unlabelled(10), unlabelled(20)), (3, 4), "read"))
    table.accepted(CorrectDice((3,), (6,)), 6)
    table.stop()
    assert kept(tmp_path) == []


def test_a_damaged_file_is_set_aside_and_the_table_learns_afresh(tmp_path: Path) -> None:
    (tmp_path / "learned-dice.sqlite").write_bytes(b"not a database at all" * 100)
    warnings: list[str] = []
    lessons = open_lessons(tmp_path, warnings)
    assert lessons is not None and lessons.status()["examples"] == 0
    lessons.stop()
    (aside,) = tmp_path.glob("learned-dice.sqlite.damaged-*")
    assert aside.read_bytes() == b"not a database at all" * 100
    assert len(warnings) == 1 and aside.name in warnings[0] and "afresh" in warnings[0]


def test_a_state_folder_that_cannot_hold_them_leaves_the_table_playing_without_learning(tmp_path: Path) -> None:
    (tmp_path / "learned-dice.sqlite").mkdir()  # a folder where the file should be: it cannot be opened
    warnings: list[str] = []
    assert open_lessons(tmp_path, warnings) is None
    assert len(warnings) == 1 and "learns nothing until the state folder can be written" in warnings[0]
    assert (tmp_path / "learned-dice.sqlite").is_dir() and not list(tmp_path.glob("*.damaged-*"))


def test_a_table_that_keeps_many_dice_learns_again_after_a_twentieth_more_not_after_every_five(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    learned_from: list[int] = []
    monkeypatch.setattr(table_lessons, "learn", lambda examples, features, previous: (learned_from.append(len(examples))
                                                                                        or (None, "learned nothing")))
    lessons = TableLessons(tmp_path, TableEyes(), lambda: None)
    lessons.start()
    for seq, (first, last) in enumerate([(0, 200), (200, 209), (209, 210)]):  # rolls whose reads the table let stand
        read = tuple(shade % 6 + 1 for shade in range(first, last))
        lessons.seen(Waiting(2 * seq, tuple(unlabelled(shade) for shade in range(first, last)), read, "read"))
        lessons.accepted(DiceRolled(read, (6,) * len(read)), 2 * seq + 1)
    lessons.stop()
    assert learned_from == [200, 210]  # not after the 9 dice that made 209: under a twentieth of those kept
