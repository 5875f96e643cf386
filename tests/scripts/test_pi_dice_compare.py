"""scripts/pi_dice_compare.py, which pi-check uses: the Pi and the laptop must read the same dice, and may differ only
where float sums between OpenCV builds can make them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DIE = (6, 6, (169, 137, 34, 34), False)  # sides, value, box, unsure


@pytest.fixture()
def compare(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script as a module, imported from scripts/."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    import pi_dice_compare

    return pi_dice_compare


def test_a_face_read_once_on_one_side_and_four_times_on_the_other_is_the_same_die(compare: ModuleType) -> None:
    assert compare.same_die((*DIE, 0.944), (*DIE, 0.972))  # seen on nell's IMG_20191208_111228.jpg, 28 Nov 2026


@pytest.mark.parametrize("one, other", [
    ((*DIE, 0.90), (*DIE, 0.94)),  # both well under CLEAR: the same look on both sides, so a real difference
    ((6, 5, (169, 137, 34, 34), False, 0.972), (*DIE, 0.972)),  # another value
    ((6, 6, (169, 137, 34, 34), True, 0.972), (*DIE, 0.972)),  # unsure on one side only
    ((6, 6, (170, 137, 34, 34), False, 0.972), (*DIE, 0.972)),  # another box
])
def test_dice_read_otherwise_differ(compare: ModuleType, one: tuple, other: tuple) -> None:
    assert not compare.same_die(one, other)


def test_the_script_says_which_photo_differs_and_fails(tmp_path: Path) -> None:
    def line(confidence: float) -> str:
        die = {"sides": 6, "value": 6, "box": [169, 137, 34, 34], "unsure": False, "confidence": confidence}
        return json.dumps({"file": "a.jpg", "dice": [die], "ms": 1.0})

    pi = tmp_path / "pi.jsonl"
    pi.write_text(line(0.90) + "\n")
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "pi_dice_compare.py"), str(pi)], input=line(0.94),
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "a.jpg: the Pi read" in run.stderr
    pi.write_text(line(0.944) + "\n")
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "pi_dice_compare.py"), str(pi)], input=line(0.972),
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "the same dice in 1 photos" in run.stdout
