"""Benchmark the face reader alone: every labelled die of nell-byler and matteop65 (or of `--folder`) read at its label box.

No finder: the crop is cut where the label says the face is, at the face size training uses, so a face
recipe can be compared without training a finder for it. Prints, per folder, the share of dice whose
likeliest class is their value, and the share read so and sure (chance >= 0.9, the views agreeing).

Usage:  .venv/bin/python benchmarks/dice_faces.py [--photos all|dev|check|q1..q4|loose-dev|loose-check] [--models DIR] [--alone]
                                                 [--misses] [--folder NAME ...]
`--alone` reads both looks with the first network (a recipe measured without its second look).
`--folder` measures other sources with boxes, or crop sources (a crop's face is its share of the crop that
scripts/dice_training/data.py gives: chase-casino-d6-crops, tomitomi3-gray-d6), as the face reader alone sees them.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # single-threaded numpy too, set before numpy loads

import cv2  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from dice_training.data import CROP_FACE_SHARE, SCENE_FOLDERS, TRAIN_FOLDERS, load_photos  # noqa: E402
from vision.cutting import pyramid  # noqa: E402
from vision.faces import FaceReader  # noqa: E402
from vision.reader import MODELS  # noqa: E402
from vision.splits import SHARES  # noqa: E402

SHARED = REPO / ".." / "shared" / "dice"
SURE = 0.9  # the reader's bar for a value without `unsure` (vision.reader)


def measure(faces: FaceReader, share: str, misses: bool,
            folders: tuple[str, ...] = TRAIN_FOLDERS) -> dict[str, tuple[int, int, int]]:
    """Returns {folder: (dice, read right, read right and sure)}; raises FileNotFoundError without the photos."""
    counts: dict[str, list[int]] = {}
    for folder in folders:
        tally = counts.setdefault(folder, [0, 0, 0])
        for photo in load_photos(SHARED, share, (folder,)):
            readings = faces.read(pyramid(photo.image), [(die.x, die.y, die.face) for die in photo.dice])
            for die, chances, agreed in zip(photo.dice, readings.chances, readings.agreed):
                value, chance = int(chances.argmax()), float(chances.max())
                tally[0] += 1
                tally[1] += value == die.value
                tally[2] += value == die.value and chance >= SURE and bool(agreed)
                if misses and value != die.value:
                    print(f"{folder}/{photo.name} at {die.x:.0f},{die.y:.0f}: {die.value} read {value} "
                          f"({chance:.2f})", file=sys.stderr)
    return {folder: (dice, right, sure) for folder, (dice, right, sure) in counts.items()}


def main() -> int:
    """Runs the benchmark from the command line; returns the exit status; raises nothing."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", "--half", choices=SHARES, default="all", help="a half or quarter of each folder")
    parser.add_argument("--models", type=Path, default=MODELS, help="the networks' folder")
    parser.add_argument("--alone", action="store_true", help="read both looks with the first network")
    parser.add_argument("--misses", action="store_true", help="list every misread die on stderr")
    parser.add_argument("--folder", action="append", choices=SCENE_FOLDERS + tuple(CROP_FACE_SHARE),
                        help="measure this source instead (repeatable)")
    options = parser.parse_args()
    cv2.setNumThreads(1)
    first = options.models / "dice_faces.onnx"
    faces = FaceReader(first, first if options.alone else options.models / "dice_faces_second.onnx")
    print("| folder | dice | read right | right and sure |\n|---|---|---|---|")
    folders = tuple(options.folder or TRAIN_FOLDERS)
    for folder, (dice, right, sure) in measure(faces, options.photos, options.misses, folders).items():
        print(f"| {folder} | {dice} | {100 * right / max(dice, 1):.1f} % | {100 * sure / max(dice, 1):.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
