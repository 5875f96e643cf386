"""The dice reader on tables it has never seen: each source of ../shared/dice read by networks that never saw it.

Usage:  .venv/bin/python benchmarks/dice_sources.py [--fold SOURCE=DIR ...] [--folds DIR] [--only SOURCE ...]
        [--calibrated] [--repeat N] [--json]

Each row is one source (skovy-webcam-d6 twice: its full frames and its crops of single dice). A source is
read by the networks given for it with `--fold SOURCE=DIR` (trained without it: scripts/train_folds.py;
`--folds DIR` gives each DIR/SOURCE that holds a finder, as `make folds` writes them), else by the shipped
networks when they never saw it; a source the shipped networks saw, with no fold
given, is still measured but marked `seen` (a figure that says little about the next table).
Columns: sure & right, right (sure or not), abstentions (unsure or no value), silent errors (a sure wrong
number), false dice a photo and the median ms a photo, counted as vision/scoring.py says.
`--calibrated` reads each row as a calibrated box would: with one die size for the whole row, `die_px` in the
table. A box's calibration measures it with the reader (DiceReading.die_px of one frame read without a hint); the
row takes the median of that measure over its photos, so the labels play no part in it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from dice_reader import measure_photos  # noqa: E402
from vision.reader import MODELS, DiceReader  # noqa: E402
from vision.scoring import LabelledPhoto, load_folder  # noqa: E402

SHARED = REPO.parent / "shared" / "dice"
SHIPPED_SAW = tuple(json.loads((MODELS / "sources.json").read_text())["trained_on"])
PARTS = {"skovy-webcam-d6": (("frames", "frame_"), ("crops", "crop_"))}  # sources measured as two rows
COLUMNS = (("row", "source"), ("networks", "networks"), ("photos", "photos"), ("dice", "dice"),
           ("sure_per_die", "sure & right"), ("per_die", "right"), ("abstained", "abstentions"),
           ("silent_errors", "silent errors"), ("false_per_photo", "false dice / photo"), ("ms", "median ms"),
           ("die_px", "die_px"))
PERCENT = ("sure_per_die", "per_die", "abstained", "silent_errors")


def rows_of(source: str, photos: list[LabelledPhoto]) -> list[tuple[str, list[LabelledPhoto]]]:
    """The rows one source is measured as: its name and photos, or one row per part; raises nothing."""
    parts = PARTS.get(source)
    if parts is None:
        return [(source, photos)]
    return [(f"{source} {part}", [photo for photo in photos if photo.path.name.startswith(prefix)])
            for part, prefix in parts]


def networks_for(source: str, folds: dict[str, Path]) -> tuple[str, Path]:
    """(what the row is read by, the folder of its networks); raises nothing."""
    if source in folds:
        return f"without it ({folds[source].name})", folds[source]
    return ("shipped, seen" if source in SHIPPED_SAW else "shipped, never seen"), MODELS


def parsed_folds(given: list[str]) -> dict[str, Path]:
    """The --fold SOURCE=DIR options as a dict; raises SystemExit naming a malformed one or a missing folder."""
    folds = {}
    for item in given:
        source, _, folder = item.partition("=")
        if not folder or not (Path(folder) / "dice_finder.onnx").is_file():
            raise SystemExit(f"--fold {item!r}: give SOURCE=DIR, where DIR holds dice_finder.onnx and the face networks")
        folds[source] = Path(folder)
    return folds


def add_fold_options(parser: argparse.ArgumentParser) -> None:
    """Adds --fold SOURCE=DIR and --folds DIR, the networks trained without a source; raises nothing."""
    parser.add_argument("--fold", action="append", default=[], help="SOURCE=DIR: networks trained without SOURCE")
    parser.add_argument("--folds", type=Path, help="a folder of folds, one subfolder per source left out")


def folds_given(arguments: argparse.Namespace) -> dict[str, Path]:
    """The folds --folds and --fold name, by source; raises SystemExit naming a bad one."""
    return parsed_folds(folds_in(arguments.folds) + arguments.fold)


def folds_in(folder: Path | None) -> list[str]:
    """The --fold options for each subfolder of `folder` named after a source and holding a finder; raises SystemExit
    when `folder` is not a folder."""
    if folder is None:
        return []
    if not folder.is_dir():
        raise SystemExit(f"--folds {folder}: there is no such folder (make folds writes one)")
    return [f"{fold.name}={fold}" for fold in sorted(folder.iterdir()) if (fold / "dice_finder.onnx").is_file()]


def calibrated_size(reader: DiceReader, photos: list[LabelledPhoto]) -> float | None:
    """The one die size calibration would save for these photos: the median over them of the size it measures on
    one photo (None where the reader finds no die in any); raises nothing."""
    sizes = [size for size in (reader.read(cv2.imread(str(photo.path))).die_px for photo in photos) if size]
    return float(statistics.median(sizes)) if sizes else None


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table; raises nothing."""
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = [f"{100 * row[key]:.1f} %" if key in PERCENT else
                 f"{row[key]:.2f}" if isinstance(row[key], float) else str(row[key]) for key, _ in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    """Runs the benchmark; returns the exit status; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_fold_options(parser)
    parser.add_argument("--only", action="append", default=[], help="measure only this source (may be given again)")
    parser.add_argument("--calibrated", action="store_true", help="read each row with one die size, as a box would")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--shared", type=Path, default=SHARED)
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    folds = folds_given(arguments)
    readers: dict[Path, DiceReader] = {}
    rows = []
    for folder in sorted(path for path in arguments.shared.iterdir() if (path / "labels.csv").is_file()
                         and (not arguments.only or path.name in arguments.only)):
        networks, models = networks_for(folder.name, folds)
        reader = readers.setdefault(models, DiceReader(models))
        for row, photos in rows_of(folder.name, load_folder(folder)):
            die_px = calibrated_size(reader, photos) if arguments.calibrated else None
            figures, _ = measure_photos(reader, photos, max(1, arguments.repeat), die_px)
            rows.append({"row": row, "networks": networks, **figures, "die_px": die_px or "-"})
    print(json.dumps(rows, indent=2) if arguments.json else markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
