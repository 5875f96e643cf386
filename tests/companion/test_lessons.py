"""The table's lessons (companion/camera/lessons.py) and `companion teach` / `read-dice --state`."""
from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from companion.camera import lessons as lessons_module
from companion.camera.lessons import FILE, Lessons
from companion.cli import main
from photo_files import png_claiming
from vision.layer import Check, Example, Layer


def example(value: int, group: str = "roll-1") -> Example:
    surround = np.full((64, 64, 3), 40 * value, np.uint8)
    return Example(surround, value, np.eye(8, dtype=np.float32)[value], value, True, group)


def test_examples_survive_closing_and_keep_their_pictures(tmp_path: Path) -> None:
    kept = Lessons(tmp_path)
    assert kept.add([example(3), example(5)], "confirmed") == 2
    kept.close()
    again = Lessons(tmp_path)
    found = again.examples()
    assert [item.value for item in found] == [3, 5]
    assert np.array_equal(found[0].surround, example(3).surround)
    assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again.close()


def test_a_file_kept_before_faces_were_measured_opens_with_its_examples(tmp_path: Path) -> None:
    old = sqlite3.connect(tmp_path / FILE)
    old.executescript(lessons_module.SCHEMA.replace(", face REAL NOT NULL DEFAULT 0", ""))
    old.execute("INSERT INTO examples (added, how, grp, value, surround, prior, base_value, base_sure) VALUES "
                "(1, 'taught', 'roll-1', 4, ?, ?, 4, 1)", (lessons_module._png(example(4).surround),
                                                        example(4).prior.tobytes()))
    old.commit()
    old.close()
    kept = Lessons(tmp_path)
    kept.add([dataclasses.replace(example(2), face=31.5)])
    assert [(item.value, item.face) for item in kept.examples()] == [(4, 0.0), (2, 31.5)]  # 0: its size is not known
    kept.close()


def test_the_oldest_are_dropped_beyond_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lessons_module, "MOST_EXAMPLES", 3)
    kept = Lessons(tmp_path)
    kept.add([example(value) for value in (1, 2, 3, 4, 5)])
    assert [item.value for item in kept.examples()] == [3, 4, 5]
    kept.close()


def test_bad_examples_change_nothing(tmp_path: Path) -> None:
    kept = Lessons(tmp_path)
    with pytest.raises(ValueError):
        kept.add([example(2), Example(example(2).surround, 7, example(2).prior, None, False, "x")])
    with pytest.raises(ValueError):
        kept.add([example(2)], "guessed")
    assert kept.count() == 0
    kept.close()


def test_learning_can_be_switched_off_and_wiped(tmp_path: Path) -> None:
    kept = Lessons(tmp_path)
    layer = Layer(np.zeros((193, 7)), 0.9, Check(4, 3, 0), Check(4, 1, 0), 4)
    kept.keep_layer(layer)
    assert kept.layer() is not None
    kept.switch_learning(False)
    assert kept.layer() is None
    kept.switch_learning(True)
    kept.add([example(1)])
    kept.wipe()
    assert kept.layer() is None and kept.count() == 0
    kept.close()


def test_a_layer_that_reads_no_better_is_dropped_and_the_examples_stay(tmp_path: Path) -> None:
    kept = Lessons(tmp_path)
    kept.add([example(value) for value in range(1, 7)])
    kept.keep_layer(Layer(np.zeros((193, 7)), 0.9, Check(4, 3, 0), Check(4, 1, 0), 4))
    kept.drop_layer()
    kept.close()
    again = Lessons(tmp_path)
    assert again.layer() is None and again.count() == 6
    again.close()


@pytest.fixture()
def tomitomi(shared_dice: Path) -> tuple[Path, list[Path]]:
    folder = shared_dice / "tomitomi3-gray-d6"
    photos = [next(folder.glob(f"d6_{value}_*.png")) for value in range(1, 7) for _ in range(1)]
    return folder / "labels.csv", photos


def test_teach_prints_one_line_and_read_dice_keeps_its_contract(tmp_path: Path, tomitomi: tuple[Path, list[Path]],
                                                                capsys: pytest.CaptureFixture) -> None:
    labels, photos = tomitomi
    assert main(["teach", "--state", str(tmp_path), "--labels", str(labels), *map(str, photos)]) == 0
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and line.startswith(f"Taught ") and "dice from 6 photos" in line
    assert Lessons(tmp_path).count() >= 5
    assert main(["read-dice", "--state", str(tmp_path), "--json", str(photos[0])]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {"file", "dice", "ms"} and set(record["dice"][0]) == {"sides", "value", "box", "confidence", "unsure", "flags"}


def test_teach_refuses_bad_input_with_a_sentence_and_keeps_nothing(tmp_path: Path, tomitomi: tuple[Path, list[Path]],
                                                                   capsys: pytest.CaptureFixture) -> None:
    labels, photos = tomitomi
    assert main(["teach", "--state", str(tmp_path), "--labels", str(labels), str(tmp_path / "gone.png")]) == 2
    assert "There is no photo at" in capsys.readouterr().err
    wrong = tmp_path / "wrong.csv"
    wrong.write_text(f"file,dice,boxes\n{photos[0].name},3 4,\n")
    assert main(["teach", "--state", str(tmp_path), "--labels", str(wrong), str(photos[0])]) == 2
    assert "names 2 dice but no boxes" in capsys.readouterr().err
    wrong.write_text(f"file,dice,boxes\n{photos[0].name},9,\n")
    assert main(["teach", "--state", str(tmp_path), "--labels", str(wrong), str(photos[0])]) == 2
    assert "each 1 to 6" in capsys.readouterr().err
    huge = tmp_path / photos[1].name  # a photo whose header claims 50,000 x 50,000 pixels, beside a good one
    huge.write_bytes(png_claiming(50_000, 50_000))
    assert main(["teach", "--state", str(tmp_path), "--labels", str(labels), str(photos[0]), str(huge)]) == 2
    assert "too large an image to read" in capsys.readouterr().err
    assert not (tmp_path / FILE).exists()
