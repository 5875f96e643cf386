"""Draws a rendered set's labels on its frames, for a person to check that every box sits on a top face
showing its value (run with the project's Python: `python scripts/render_dice/check.py SET_DIR OUT_DIR`).

Green: a level die; red: a cocked one. The frames are tiled into contact sheets of 4, twice their size.
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np


def drawn(frame: np.ndarray, values: list[str], boxes: list[tuple[int, ...]], cocked: list[str]) -> np.ndarray:
    """A copy of the frame, doubled, with each box and value drawn; raises nothing."""
    picture = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    for value, (x, y, w, h), flag in zip(values, boxes, cocked):
        colour = (0, 0, 255) if flag == "1" else (0, 255, 0)
        cv2.rectangle(picture, (2 * x, 2 * y), (2 * (x + w), 2 * (y + h)), colour, 1)
        cv2.putText(picture, value, (2 * x, max(12, 2 * y - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1,
                    cv2.LINE_AA)
    return picture


def sheets(folder: Path, out: Path, *, per_sheet: int = 4, across: int = 2) -> list[Path]:
    """Writes contact sheets of the set's labelled frames into out; returns their paths; raises OSError or
    KeyError for a missing or broken labels.csv."""
    with open(folder / "labels.csv") as handle:
        rows = list(csv.DictReader(handle))
    with open(folder / "details.csv") as handle:
        cocked = {row["file"]: row["cocked"].split() for row in csv.DictReader(handle)}
    pictures = []
    for row in rows:
        boxes = [tuple(int(part) for part in box.split(",")) for box in row["boxes"].split(";") if box]
        frame = cv2.imread(str(folder / row["file"]))
        picture = drawn(frame, row["dice"].split(), boxes, cocked.get(row["file"], []))
        cv2.putText(picture, row["file"][6:12], (4, picture.shape[0] - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (255, 255, 0), 1, cv2.LINE_AA)
        pictures.append(picture)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for start in range(0, len(pictures), per_sheet):
        group = pictures[start:start + per_sheet]
        group += [np.zeros_like(group[0])] * (-len(group) % across)
        rows_of_four = [np.hstack(group[index:index + across]) for index in range(0, len(group), across)]
        path = out / f"sheet_{start // per_sheet:03d}.png"
        cv2.imwrite(str(path), np.vstack(rows_of_four))
        written.append(path)
    return written


def main() -> int:
    """Draws the sheets; returns 0; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("out", type=Path)
    arguments = parser.parse_args()
    for path in sheets(arguments.folder, arguments.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
