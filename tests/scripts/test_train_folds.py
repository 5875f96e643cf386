"""scripts/train_folds.py trains the leave-one-source-out folds, resumably and a few at a time, and
benchmarks/dice_sources.py --folds finds what it wrote. No PyTorch needed: the training command is stood in for."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def train_folds(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script as a module, imported from scripts/."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    import train_folds

    return train_folds


def _options(tmp_path: Path, **given: object) -> argparse.Namespace:
    defaults = {"out": tmp_path, "device": "cpu", "minutes": None, "shared": tmp_path, "face_dice": "per-source",
                "renders": [], "alone_share": 0.0, "upright_views": False, "workers": 0,
                "false_spots": 0.0}
    return argparse.Namespace(**{**defaults, **given})


def test_renders_alone_and_upright_views_go_to_the_finder_only(train_folds: ModuleType, tmp_path: Path) -> None:
    options = _options(tmp_path, renders=[tmp_path / "blender-v1"], alone_share=0.1, upright_views=True)
    finder = train_folds.command("nell-byler-d6", "finder", options)
    faces = train_folds.command("nell-byler-d6", "faces", options)
    assert finder[finder.index("--leave-out") + 1] == "nell-byler-d6"
    assert finder[finder.index("--renders") + 1] == str(tmp_path / "blender-v1")
    assert finder[finder.index("--alone-share") + 1] == "0.1"
    assert "--upright-views" in finder
    assert "--renders" not in faces and "--alone-share" not in faces and "--upright-views" not in faces
    assert "--leave-out" in faces
    assert "--leave-out" not in train_folds.command("none", "faces", options)  # `none` learns every source


def test_false_spots_go_to_the_face_network_only(train_folds: ModuleType, tmp_path: Path) -> None:
    options = _options(tmp_path, false_spots=0.1)
    faces = train_folds.command("aws-vegas-d6", "faces", options)
    assert faces[faces.index("--false-spots") + 1] == "0.1"
    assert "--false-spots" not in train_folds.command("aws-vegas-d6", "finder", options)
    assert "--false-spots" not in train_folds.command("aws-vegas-d6", "faces", _options(tmp_path))


def test_worker_processes_go_to_both_parts(train_folds: ModuleType, tmp_path: Path) -> None:
    options = _options(tmp_path, workers=3, device="cuda")
    for part in ("finder", "faces"):
        line = train_folds.command("aws-vegas-d6", part, options)
        assert line[line.index("--workers") + 1] == "3" and line[line.index("--device") + 1] == "cuda"


def _writes_its_network(tmp_path: Path, started: list[str]) -> Callable[[str, str, argparse.Namespace], list[str]]:
    """A stand-in for train_dice.py: writes the part's network file at once."""
    def command(fold: str, part: str, options: argparse.Namespace) -> list[str]:
        started.append(f"{fold} {part}")
        network = options.out / fold / {"finder": "dice_finder.onnx", "faces": "dice_faces.onnx"}[part]
        writes = "import pathlib, sys; pathlib.Path(sys.argv[1]).write_bytes(b'net')"
        return [sys.executable, "-c", writes, str(network)]
    return command


def test_a_rerun_trains_only_the_parts_not_yet_written(train_folds: ModuleType, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "aws-vegas-d6").mkdir()
    (tmp_path / "aws-vegas-d6" / "dice_finder.onnx").write_bytes(b"trained before a stop")
    started: list[str] = []
    monkeypatch.setattr(train_folds, "command", _writes_its_network(tmp_path, started))
    arguments = ["train_folds.py", "--out", str(tmp_path), "--fold", "aws-vegas-d6", "--fold", "nell-byler-d6",
                 "--at-once", "2"]
    monkeypatch.setattr(sys, "argv", arguments)
    assert train_folds.main() == 0
    assert sorted(started) == ["aws-vegas-d6 faces", "nell-byler-d6 faces", "nell-byler-d6 finder"]
    assert (tmp_path / "aws-vegas-d6" / "dice_finder.onnx").read_bytes() == b"trained before a stop"
    assert (tmp_path / "nell-byler-d6" / "dice_faces_second.onnx").read_bytes() == b"net"
    started.clear()
    assert train_folds.main() == 0 and started == []


def test_a_crop_fold_takes_the_finder_of_every_source(train_folds: ModuleType, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(train_folds, "command", _writes_its_network(tmp_path, started))
    monkeypatch.setattr(sys, "argv", ["train_folds.py", "--out", str(tmp_path), "--fold", "chase-casino-d6-crops",
                                      "--fold", "tomitomi3-gray-d6", "--at-once", "1"])
    assert train_folds.main() == 0
    assert started == ["none finder", "chase-casino-d6-crops faces", "tomitomi3-gray-d6 faces"]  # one finder for both
    for fold in ("chase-casino-d6-crops", "tomitomi3-gray-d6"):
        assert (tmp_path / fold / "dice_finder.onnx").read_bytes() == b"net"
        assert (tmp_path / fold / "dice_faces_second.onnx").read_bytes() == b"net"
    assert not (tmp_path / "none" / "dice_faces.onnx").exists()  # `none` trains its face network only when asked


def test_a_face_network_that_learns_its_finders_false_spots_starts_once_that_finder_is_written(
        train_folds: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []

    def command(fold: str, part: str, options: argparse.Namespace) -> list[str]:
        """A stand-in for train_dice.py whose face network, as with --false-spots, fails without its fold's finder."""
        started.append(f"{fold} {part}")
        folder = options.out / fold
        if part == "finder":
            return [sys.executable, "-c", "import pathlib, sys, time; time.sleep(0.3); "
                    "pathlib.Path(sys.argv[1]).write_bytes(b'net')", str(folder / "dice_finder.onnx")]
        needs = "import pathlib, sys; faces = pathlib.Path(sys.argv[1]); " \
                "sys.exit(1) if not (faces.parent / 'dice_finder.onnx').is_file() else faces.write_bytes(b'net')"
        return [sys.executable, "-c", needs, str(folder / "dice_faces.onnx")]

    monkeypatch.setattr(train_folds, "command", command)
    monkeypatch.setattr(sys, "argv", ["train_folds.py", "--out", str(tmp_path), "--fold", "aws-vegas-d6",
                                      "--fold", "chase-casino-d6-crops", "--false-spots", "0.1"])
    assert train_folds.main() == 0
    assert sorted(started[:2]) == ["aws-vegas-d6 finder", "none finder"]
    assert sorted(started[2:]) == ["aws-vegas-d6 faces", "chase-casino-d6-crops faces"]
    for fold in ("aws-vegas-d6", "chase-casino-d6-crops"):
        assert (tmp_path / fold / "dice_faces_second.onnx").read_bytes() == b"net"


def test_a_part_that_writes_no_network_fails_the_run(train_folds: ModuleType, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train_folds, "command", lambda fold, part, options: [sys.executable, "-c", "pass"])
    monkeypatch.setattr(sys, "argv", ["train_folds.py", "--out", str(tmp_path), "--fold", "nell-byler-d6"])
    assert train_folds.main() == 1
    assert (tmp_path / "nell-byler-d6" / "finder.log").is_file()
    assert not (tmp_path / "nell-byler-d6" / "dice_faces_second.onnx").exists()


def test_the_script_refuses_a_bad_option_with_a_sentence(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "train_folds.py"), "--out", str(tmp_path),
                          "--at-once", "0"], capture_output=True, text=True)
    assert run.returncode == 2 and "--at-once must be 1 or more" in run.stderr
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "train_folds.py"), "--out", str(tmp_path),
                          "--workers", "-1"], capture_output=True, text=True)
    assert run.returncode == 2 and "--workers must be 0 or more" in run.stderr
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "train_folds.py"), "--out", str(tmp_path),
                          "--false-spots", "1"], capture_output=True, text=True)
    assert run.returncode == 2 and "--false-spots is a share of the crops" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_benchmark_reads_each_fold_the_folder_holds(benchmark: Callable[[str], ModuleType], tmp_path: Path) -> None:
    dice_sources = benchmark("dice_sources")
    (tmp_path / "nell-byler-d6").mkdir()
    (tmp_path / "nell-byler-d6" / "dice_finder.onnx").write_bytes(b"net")
    (tmp_path / "aws-vegas-d6").mkdir()  # a fold still training: no finder yet
    assert dice_sources.folds_in(tmp_path) == [f"nell-byler-d6={tmp_path / 'nell-byler-d6'}"]
    assert dice_sources.folds_in(None) == []
    with pytest.raises(SystemExit, match="no such folder"):
        dice_sources.folds_in(tmp_path / "missing")
