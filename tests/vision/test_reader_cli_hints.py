"""read-dice takes the rig's hints, so a photo set can be read as a calibrated box would read it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.cli import read_dice_main
from vision.scoring import load_folder

REPO = Path(__file__).resolve().parents[2]


def _nell_tray(shared_dice: Path):
    """The first nell-byler photo and its labels: a tray of many dice."""
    return load_folder(shared_dice / "nell-byler-d6")[0]


def test_a_tray_hint_sets_the_dice_outside_it_aside(shared_dice: Path, capsys: pytest.CaptureFixture) -> None:
    photo = _nell_tray(shared_dice)
    left_half = "0,0,300,480"
    assert read_dice_main([str(photo.path)], as_json=True, tray=(0, 0, 300, 480)) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    off = [die for die in dice if "off_tray" in die["flags"]]
    assert off and all(die["box"][0] + die["box"][2] / 2 > 300 for die in off), left_half
    assert any("off_tray" not in die["flags"] for die in dice)


def test_a_die_size_hint_reads_the_same_dice(shared_dice: Path, capsys: pytest.CaptureFixture) -> None:
    photo = _nell_tray(shared_dice)
    side = sorted(box[2] for box in photo.boxes)[len(photo.boxes) // 2]
    read_dice_main([str(photo.path)], as_json=True)
    read_dice_main([str(photo.path)], as_json=True, die_px=side)
    plain, hinted = (json.loads(line)["dice"] for line in capsys.readouterr().out.splitlines())
    assert len(hinted) == len(plain) == len(photo.values)  # every labelled die found, with the hint or without


@pytest.mark.parametrize("hint", [["--die-px", "-3"], ["--die-px", "a lot"], ["--tray", "1,2,3"], ["--tray", "0,0,0,10"],
                                  ["--sides", "20"], ["--sides", "6,10"], ["--sides", ""]])
def test_a_bad_hint_is_refused_with_a_sentence_and_reads_nothing(shared_dice: Path, hint: list[str]) -> None:
    photo = shared_dice / "tai-studio-d6-crops" / "eyes_4_1.jpg"
    done = subprocess.run([sys.executable, "-m", "companion", "read-dice", str(photo), "--json", *hint],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert hint[0] in done.stderr and "must be" in done.stderr


def test_companion_read_dice_passes_the_hints_on(shared_dice: Path) -> None:
    photo = _nell_tray(shared_dice)
    done = subprocess.run([sys.executable, "-m", "companion", "read-dice", str(photo.path), "--json",
                           "--tray", "0,0,300,480", "--die-px", "40"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert any("off_tray" in die["flags"] for die in json.loads(done.stdout)["dice"])
