"""The read-dice command: one line per image, errors reported in-line, the rest still read."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from photo_files import png_claiming
from vision.cli import read_dice_main

REPO = Path(__file__).resolve().parents[2]


def test_json_lines_for_good_and_bad_files(shared_dice: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_4_1.jpg"
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg at all")
    missing = tmp_path / "missing.png"
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(50_000, 50_000))
    status = read_dice_main([str(missing), str(photo), str(broken), str(huge), str(photo)], as_json=True)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert [line["file"] for line in lines] == [str(missing), str(photo), str(broken), str(huge), str(photo)]
    assert lines[0]["error"].endswith(".") and "no file" in lines[0]["error"]
    assert "not an image" in lines[2]["error"]
    assert lines[3]["error"] == f"The file {huge} is too large an image to read." and "dice" in lines[4]
    good = lines[1]
    assert set(good) == {"file", "dice", "ms"}
    assert good["ms"] > 0
    assert [die["value"] for die in good["dice"]] == [4]
    die = good["dice"][0]
    assert set(die) == {"sides", "value", "box", "confidence", "unsure", "flags"}
    assert die["sides"] == 6 and len(die["box"]) == 4 and isinstance(die["unsure"], bool)


def test_human_lines(shared_dice: Path, capsys: pytest.CaptureFixture) -> None:
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_4_1.jpg"
    assert read_dice_main([str(photo)], as_json=False) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(str(photo)) and "1 dice: 4" in line


def test_python_dash_m_vision_cli(shared_dice: Path) -> None:
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_6_1.jpg"
    done = subprocess.run(
        [sys.executable, "-m", "vision.cli", str(photo), "--json"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert [die["value"] for die in record["dice"]] == [6]


def test_lines_read_by_a_reader_that_stops_early_end_without_a_traceback(shared_dice: Path) -> None:
    photos = [str(shared_dice / "tai-studio-d6-crops" / "eyes_6_1.jpg")] * 400  # seconds of lines: the pipe closes first
    reading = subprocess.Popen([sys.executable, "-m", "vision.cli", *photos, "--json"], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = reading.stdout.readline()  # as `| head -1` does: one line, then the pipe is closed
    reading.stdout.close()
    code = reading.wait(timeout=60)
    said = reading.stderr.read()
    assert json.loads(first)["dice"] and code == 1 and "Traceback" not in said, said


def test_a_name_too_long_for_the_file_system_is_an_error_line_and_the_rest_still_run(
        shared_dice: Path, capsys: pytest.CaptureFixture) -> None:
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_4_1.jpg"
    too_long = "x" * 300 + ".jpg"  # longer than any file name a file system takes (ENAMETOOLONG)
    status = read_dice_main([too_long, str(photo)], as_json=True)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0]["file"] == too_long and "could not be opened" in lines[0]["error"]
    assert [die["value"] for die in lines[1]["dice"]] == [4]


def test_a_file_too_large_to_be_a_photo_is_an_error_line_without_reading_it(
        shared_dice: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    huge = tmp_path / "huge.png"
    with huge.open("wb") as file:  # sparse: 8 GB on paper, nothing on disk
        file.truncate(8_000_000_000)
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_4_1.jpg"
    assert read_dice_main([str(huge), str(photo)], as_json=True) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "too large to be a photo" in lines[0]["error"] and [die["value"] for die in lines[1]["dice"]] == [4]
