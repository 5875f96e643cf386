"""Train the dice reader's leave-one-source-out folds side by side: for each source, networks that never saw it.

Usage:  python scripts/train_folds.py --out DIR [--device cuda] [--workers N] [--minutes M] [--shared PATH]
                                      [--fold NAME ...] [--renders DIR] [--alone-share S] [--upright-views] [--at-once N]
                                      [--false-spots SHARE]

Writes DIR/<fold>/dice_finder.onnx and dice_faces.onnx (the face network also stands in for the second look,
which the folds do not train) and DIR/<fold>/*.log; the fold `none` is trained on every source. Each fold's
finder and face network are two processes. By default all start at once: on a GPU machine the cost is making
the views on its CPU cores, one core a process, or `--workers N` processes more for each part. `--at-once 2` runs
two at a time (a 2-core machine). A crop source's fold takes the finder of `none`: crops never reach the finder, so
leaving one out trains the same finder.
A part whose network is written is skipped, and a stopped part goes on from its checkpoint: a rerun resumes.
`--renders`, `--alone-share` and `--upright-views` go to the finder only (renders did not help the face network).
`--false-spots` goes to the face network, which then learns the spots its fold's own finder takes for a face where
no die lies: every finder is trained first, then the face networks.
`benchmarks/dice_sources.py --folds DIR` measures them.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from dice_training.data import CROP_FACE_SHARE, SCENE_FOLDERS  # noqa: E402

FOLDS = ("none", *SCENE_FOLDERS, *CROP_FACE_SHARE)
PARTS = {"finder": "dice_finder.onnx", "faces": "dice_faces.onnx"}


def command(fold: str, part: str, options: argparse.Namespace) -> list[str]:
    """The train_dice.py command line for one part of one fold; raises nothing."""
    line = [sys.executable, str(REPO / "scripts" / "train_dice.py"), "--sources", "every", "--part", part,
            "--face-dice", options.face_dice,
            "--out", str(options.out / fold), "--device", options.device, "--shared", str(options.shared),
            "--workers", str(options.workers)]
    if fold != "none":
        line += ["--leave-out", fold]
    if part == "faces" and options.false_spots:
        line += ["--false-spots", str(options.false_spots)]
    if options.minutes is not None:
        line += ["--minutes", str(options.minutes)]
    if part == "finder":
        line += [option for folder in options.renders for option in ("--renders", str(folder))]
        line += ["--alone-share", str(options.alone_share)] if options.alone_share else []
        line += ["--upright-views"] if options.upright_views else []
    return line


def main() -> int:
    """Trains the folds; returns 0 when every part wrote its network, else 1; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--workers", type=int, default=0, help="processes making each part's views (0: its own)")
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared" / "dice")
    parser.add_argument("--fold", choices=FOLDS, action="append", help="only these folds (default: all)")
    parser.add_argument("--face-dice", default="per-source", help="how the face network draws dice (train_dice.py)")
    parser.add_argument("--renders", type=Path, action="append", default=[], help="Blender renders for the finder")
    parser.add_argument("--alone-share", type=float, default=0.0, help="the finder's views of one die alone")
    parser.add_argument("--upright-views", action="store_true", help="the finder's views keep up as up")
    parser.add_argument("--at-once", type=int, help="parts trained at a time (default: all)")
    parser.add_argument("--false-spots", type=float, default=0.0,
                        help="the face network's share of its finder's false spots, as no die (train_dice.py)")
    options = parser.parse_args()
    if options.at_once is not None and options.at_once < 1:
        parser.error("--at-once must be 1 or more")
    if options.workers < 0:
        parser.error("--workers must be 0 or more")
    if not 0.0 <= options.false_spots < 1.0:
        parser.error("--false-spots is a share of the crops: 0 or more and under 1")
    started = time.time()
    folds = options.fold or FOLDS
    failed = 0
    for parts in waves(to_train(folds, options.out), finders_first=bool(options.false_spots)):
        with ThreadPoolExecutor(max_workers=options.at_once or max(1, len(parts))) as pool:
            failed += sum(not written for written in pool.map(lambda item: _train(*item, options, started), parts))
        for fold in folds:
            _finish(fold, options.out)
    return 1 if failed else 0


def waves(parts: list[tuple[str, str]], *, finders_first: bool) -> list[list[tuple[str, str]]]:
    """Returns the parts in the groups trained one after the other: the finders, then the face networks, when a
    face network learns from its finder, else all at once; raises nothing."""
    if not finders_first:
        return [parts]
    return [[item for item in parts if item[1] == part] for part in PARTS]


def finder_fold(fold: str) -> str:
    """Returns the fold whose finder `fold` uses: `none` for a crop source, which never reaches the finder, else
    itself; raises nothing."""
    return "none" if fold in CROP_FACE_SHARE else fold


def to_train(folds: list[str] | tuple[str, ...], out: Path) -> list[tuple[str, str]]:
    """Returns the (fold, part) pairs still to train for these folds, each once; raises nothing."""
    wanted: list[tuple[str, str]] = []
    for fold in folds:
        for part in PARTS:
            if (out / fold / PARTS[part]).is_file():
                continue
            trained_as = finder_fold(fold) if part == "finder" else fold
            if (trained_as, part) not in wanted and not (out / trained_as / PARTS[part]).is_file():
                wanted.append((trained_as, part))
    return wanted


def _finish(fold: str, out: Path) -> None:
    """Gives a crop fold the finder it shares and a fold its second look (its face network); raises OSError."""
    finder, shared = out / fold / PARTS["finder"], out / finder_fold(fold) / PARTS["finder"]
    if not finder.is_file() and shared.is_file():
        finder.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared, finder)
    faces = out / fold / PARTS["faces"]
    if faces.is_file():
        shutil.copyfile(faces, out / fold / "dice_faces_second.onnx")


def _train(fold: str, part: str, options: argparse.Namespace, started: float) -> bool:
    """Trains one part of one fold and waits for it; returns whether it wrote its network; raises OSError when its
    log cannot be written."""
    (options.out / fold).mkdir(parents=True, exist_ok=True)
    with open(options.out / fold / f"{part}.log", "a") as log:
        code = subprocess.run(command(fold, part, options), stdout=log, stderr=subprocess.STDOUT).returncode
    written = code == 0 and (options.out / fold / PARTS[part]).is_file()
    said = "" if written else ", nothing written"
    print(f"[{time.time() - started:5.0f} s] {fold} {part}: exit {code}{said}", flush=True)
    return written


if __name__ == "__main__":
    raise SystemExit(main())
