"""Benchmark the dice reader on every folder of ../shared/dice (single-threaded); prints a markdown table.

Usage:  .venv/bin/python benchmarks/dice_reader.py [--json] [--photos all|dev|check|q1..q4|loose-dev|loose-check] [--repeat N]
                                                  [--models DIR] [--folder NAME ...] [--misses]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # single-threaded numpy too, set before numpy loads

import cv2  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.reader import MODELS, DiceReader  # noqa: E402
from vision.scoring import LabelledPhoto, Tally, load_folder, score_photo  # noqa: E402
from vision.splits import SHARES, choose_photos  # noqa: E402

SHARED = REPO / ".." / "shared" / "dice"
COLUMNS = (
    ("folder", "folder"),
    ("photos", "photos"),
    ("dice", "dice"),
    ("per_die", "per-die accuracy"),
    ("sure_per_die", "sure & right"),
    ("exact_photos", "whole-photo exact"),
    ("false_per_photo", "false dice / photo"),
    ("abstained", "abstentions"),
    ("silent_errors", "silent errors"),
    ("ms", "median ms / photo"),
    ("ms_640", "median ms / 640x640"),
    ("cpu_ms_640", "median CPU ms / 640x640"),
)


def measure_folder(reader: DiceReader, folder: Path, share: str, repeat: int) -> tuple[dict, Tally]:
    """Returns the figures and the tally of one share of a folder's photos; raises FileNotFoundError without labels."""
    figures, tally = measure_photos(reader, choose_photos(load_folder(folder), share), repeat)
    return {"folder": folder.name, **figures}, tally


def measure_photos(reader: DiceReader, photos: list[LabelledPhoto], repeat: int,
                   die_px: float | None = None) -> tuple[dict, Tally]:
    """Returns the figures (ms: median of `repeat` runs a photo) and the tally of some labelled photos, read
    with the die size hint `die_px` when given; raises nothing."""
    tally = Tally()
    times, times_640, cpu_640 = [], [], []
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        runs, cpu_runs = [], []
        reading = None
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.thread_time()
            reading = reader.read(frame, die_px=die_px)
            runs.append((time.perf_counter() - started) * 1000)
            cpu_runs.append((time.thread_time() - started_cpu) * 1000)
        tally.add(score_photo(reading, photo))
        to_640 = 640 * 640 / (frame.shape[0] * frame.shape[1])
        times.append(statistics.median(runs))
        times_640.append(statistics.median(runs) * to_640)
        cpu_640.append(statistics.median(cpu_runs) * to_640)
    figures = tally.figures()
    figures["ms"] = statistics.median(times) if times else 0.0
    figures["ms_640"] = statistics.median(times_640) if times_640 else 0.0
    figures["cpu_ms_640"] = statistics.median(cpu_640) if cpu_640 else 0.0
    return figures, tally


def markdown(rows: list[dict]) -> str:
    """Returns the figures as a markdown table; raises nothing."""
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = []
        for key, _ in COLUMNS:
            value = row[key]
            if key in ("per_die", "sure_per_die", "exact_photos", "abstained", "silent_errors"):
                cells.append(f"{100 * value:.1f} %")
            elif isinstance(value, float):
                cells.append(f"{value:.2f}")
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    """Runs the benchmark from the command line; returns the exit status; raises nothing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a markdown table")
    parser.add_argument("--photos", "--half", choices=SHARES, default="all", help="a half or quarter of each folder")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per photo (the median is kept)")
    parser.add_argument("--models", type=Path, default=MODELS, help="measure the networks in another folder")
    parser.add_argument("--folder", action="append", help="only these folders (repeatable)")
    parser.add_argument("--misses", action="store_true", help="also list every miss")
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(arguments.models)
    folders = sorted(path for path in SHARED.iterdir() if (path / "labels.csv").is_file())
    if arguments.folder:
        folders = [path for path in folders if path.name in arguments.folder]
    rows = []
    for folder in folders:
        figures, tally = measure_folder(reader, folder, arguments.photos, max(1, arguments.repeat))
        rows.append(figures)
        if arguments.misses:
            print("\n".join(tally.misses), file=sys.stderr)
    print(json.dumps(rows, indent=2) if arguments.json else markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
