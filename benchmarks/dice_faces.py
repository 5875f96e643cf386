"""Benchmark the face reader alone: every labelled die of nell-byler and matteop65 (or of `--folder`) read at its label box.

No finder: the crop is cut where the label says the face is, at the face size training uses, so a face
recipe can be compared without training a finder for it. Prints, per folder, the share of dice whose
likeliest class is their value, the share read so and sure (chance >= 0.9, the views agreeing), and the share
read sure with another value.

Usage:  .venv/bin/python benchmarks/dice_faces.py [--photos all|dev|check|q1..q4|loose-dev|loose-check] [--models DIR] [--alone]
                                                 [--misses] [--folder NAME ...] [--renders FOLDER[:N] [--skip K]]
`--alone` reads both looks with the first network (a recipe measured without its second look).
`--folder` measures other sources with boxes, or crop sources (a crop's face is its share of the crop that
scripts/dice_training/data.py gives: chase-casino-d6-crops, tomitomi3-gray-d6), as the face reader alone sees them.
`--renders FOLDER[:N]` measures a Blender render set (`make renders`), from its frame `--skip` on (N: up to frame N):
the d6 whose top face is seen whole and lies flat.
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

from dice_training.data import CROP_FACE_SHARE, SCENE_FOLDERS, TRAIN_FOLDERS, Photo, load_photos  # noqa: E402
from dice_training.rendered import load_renders, render_set  # noqa: E402
from vision.cutting import pyramid  # noqa: E402
from vision.faces import FaceReader  # noqa: E402
from vision.reader import MODELS  # noqa: E402
from vision.splits import SHARES  # noqa: E402

SHARED = REPO / ".." / "shared" / "dice"
SURE = 0.9  # the reader's bar for a value without `unsure` (vision.reader)


def photo_groups(share: str, folders: tuple[str, ...] = TRAIN_FOLDERS) -> dict[str, list[Photo]]:
    """Returns {folder: its photos of `share`} for folders of the shared photos; raises FileNotFoundError without them."""
    return {folder: load_photos(SHARED, share, (folder,)) for folder in folders}


def render_groups(folder: Path, last: int | None, skip: int) -> dict[str, list[Photo]]:
    """Returns {name: the frames of a render set from frame `skip` on (to frame `last`)}; raises FileNotFoundError
    when the set has no finished frame."""
    frames = [photo for photo in load_renders(folder, last) if int(photo.name.rpartition("_")[2]) >= skip]
    return {f"{folder.name} from frame {skip}": frames}


def measure(faces: FaceReader, groups: dict[str, list[Photo]], misses: bool) -> dict[str, tuple[int, int, int, int]]:
    """Returns {group: (dice, read right, read right and sure, read wrong and sure)} for groups of photos, counting
    the dice with a pip value; raises nothing."""
    counts: dict[str, tuple[int, int, int, int]] = {}
    for group, photos in groups.items():
        tally = [0, 0, 0, 0]
        for photo in photos:
            dice = [die for die in photo.dice if 1 <= die.value <= 6]
            readings = faces.read(pyramid(photo.image), [(die.x, die.y, die.face) for die in dice])
            for die, chances, agreed in zip(dice, readings.chances, readings.agreed):
                value, sure = int(chances.argmax()), float(chances.max()) >= SURE and bool(agreed)
                tally[0] += 1
                tally[1] += value == die.value
                tally[2] += value == die.value and sure
                tally[3] += value != die.value and sure
                if misses and value != die.value:
                    print(f"{group}/{photo.name} at {die.x:.0f},{die.y:.0f}: {die.value} read {value} "
                          f"({float(chances.max()):.2f})", file=sys.stderr)
        counts[group] = (tally[0], tally[1], tally[2], tally[3])
    return counts


def main() -> int:
    """Runs the benchmark from the command line; returns the exit status; raises nothing."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", "--half", choices=SHARES, default="all", help="a half or quarter of each folder")
    parser.add_argument("--models", type=Path, default=MODELS, help="the networks' folder")
    parser.add_argument("--alone", action="store_true", help="read both looks with the first network")
    parser.add_argument("--misses", action="store_true", help="list every misread die on stderr")
    parser.add_argument("--folder", action="append", choices=SCENE_FOLDERS + tuple(CROP_FACE_SHARE),
                        help="measure this source instead (repeatable)")
    parser.add_argument("--renders", type=render_set, metavar="FOLDER[:N]", help="measure a render set instead")
    parser.add_argument("--skip", type=int, default=0, help="the render set's first frames to leave out")
    options = parser.parse_args()
    cv2.setNumThreads(1)
    first = options.models / "dice_faces.onnx"
    faces = FaceReader(first, first if options.alone else options.models / "dice_faces_second.onnx")
    try:
        groups = (render_groups(*options.renders, options.skip) if options.renders
                  else photo_groups(options.photos, tuple(options.folder or TRAIN_FOLDERS)))
    except FileNotFoundError as error:
        print(f"dice_faces: {error}", file=sys.stderr)
        return 2
    print("| folder | dice | read right | right and sure | wrong and sure |\n|---|---|---|---|---|")
    for group, (dice, right, sure, wrong) in measure(faces, groups, options.misses).items():
        share = 100 / max(dice, 1)
        print(f"| {group} | {dice} | {share * right:.1f} % | {share * sure:.1f} % | {share * wrong:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
