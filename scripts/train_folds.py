"""Train the dice reader's leave-one-source-out folds side by side: for each source, networks that never saw it.

Usage:  python scripts/train_folds.py --out DIR [--device cuda] [--minutes M] [--shared PATH] [--fold NAME ...]

Writes DIR/<fold>/dice_finder.onnx and dice_faces.onnx (the face network also stands in for the second look,
which the folds do not train) and DIR/<fold>/*.log; the fold `none` is trained on every source. Each fold's
finder and face network are two processes, all started at once: on a GPU machine the cost is making the
views on its CPU cores, one core a process. `benchmarks/dice_sources.py --folds DIR` measures them.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
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
            "--out", str(options.out / fold), "--device", options.device, "--shared", str(options.shared)]
    if fold != "none":
        line += ["--leave-out", fold]
    if options.minutes is not None:
        line += ["--minutes", str(options.minutes)]
    return line


def main() -> int:
    """Trains the folds; returns 0 when every part wrote its network, else 1; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared" / "dice")
    parser.add_argument("--fold", choices=FOLDS, action="append", help="only these folds (default: all)")
    parser.add_argument("--face-dice", default="per-source", help="how the face network draws dice (train_dice.py)")
    options = parser.parse_args()
    started = time.time()
    running = []
    for fold in options.fold or FOLDS:
        (options.out / fold).mkdir(parents=True, exist_ok=True)
        for part in PARTS:
            log = open(options.out / fold / f"{part}.log", "w")
            running.append((fold, part, subprocess.Popen(command(fold, part, options), stdout=log, stderr=subprocess.STDOUT)))
    failed = 0
    for fold, part, process in running:
        code = process.wait()
        written = (options.out / fold / PARTS[part]).is_file()
        failed += code != 0 or not written
        print(f"[{time.time() - started:5.0f} s] {fold} {part}: exit {code}{'' if written else ', nothing written'}", flush=True)
    for fold in options.fold or FOLDS:
        faces = options.out / fold / PARTS["faces"]
        if faces.is_file():
            shutil.copyfile(faces, options.out / fold / "dice_faces_second.onnx")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
