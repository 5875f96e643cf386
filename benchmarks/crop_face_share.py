"""How large the reader reads a crop source's die: its face side over the crop's side, for each crop.

Usage:  .venv/bin/python benchmarks/crop_face_share.py [--models DIR] [FOLDER ...]

The face reader learns and is measured on a crop source's die cut at a share of the crop
(CROP_FACE_SHARE in scripts/dice_training/data.py). The reader cuts a die where and as large as the
finder marks it, so that share should be the one the reader reads it at. Prints, per folder, how many crops are read with a die near
their centre, and the 10th, 50th and 90th percentile of that die's share (the largest such die: a pip read as a
die of its own is smaller). A reader that reads a crop's die at the size of a pip gives no share to trust.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from dice_training.data import CROP_FACE_SHARE  # noqa: E402
from vision.reader import MODELS, DiceReader  # noqa: E402
from vision.scoring import LabelledPhoto, load_folder  # noqa: E402

SHARED = REPO / ".." / "shared" / "dice"
CENTRE = 0.25  # a die read this far from the crop's centre, in crop sides, at most, is the crop's die


def face_shares(reader: DiceReader, photos: list[LabelledPhoto]) -> list[float]:
    """Returns, for each crop read with a die near its centre, that die's face side (the side of the box the reader
    read it in) over the crop's side; an unreadable crop is passed over; raises nothing."""
    shares: list[float] = []
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        side = min(image.shape[:2])
        near = [die.box for die in reader.read(image).dice if _off_centre(die.box, image.shape) < CENTRE * side]
        if near:
            shares.append(max(max(box[2], box[3]) for box in near) / side)
    return shares


def _off_centre(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> float:
    """Returns how far the box's centre lies from the picture's, in pixels; raises nothing."""
    left, top, width, height = box
    return math.hypot(left + width / 2 - shape[1] / 2, top + height / 2 - shape[0] / 2)


def main() -> int:
    """Prints each crop source's shares; returns 2 when a folder is missing, else 0; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", help=f"default: every crop source ({', '.join(CROP_FACE_SHARE)})")
    parser.add_argument("--models", type=Path, default=MODELS, help="the networks' folder")
    options = parser.parse_args()
    unknown = [name for name in options.folders if name not in CROP_FACE_SHARE]
    if unknown:
        parser.error(f"{', '.join(unknown)}: not a crop source; expected {', '.join(CROP_FACE_SHARE)}")
    cv2.setNumThreads(1)
    reader = DiceReader(options.models)
    print("| folder | crops | read with a die at the centre | its share: 10th / median / 90th | CROP_FACE_SHARE |")
    print("|---|---|---|---|---|")
    for name in options.folders or CROP_FACE_SHARE:
        try:
            photos = load_folder(SHARED / name)
        except FileNotFoundError as error:
            print(f"crop_face_share: {error}", file=sys.stderr)
            return 2
        shares = face_shares(reader, photos)
        low, middle, high = np.percentile(shares, [10, 50, 90]) if shares else (math.nan,) * 3
        print(f"| {name} | {len(photos)} | {len(shares)} | {low:.2f} / {middle:.2f} / {high:.2f} | {CROP_FACE_SHARE[name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
