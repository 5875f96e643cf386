"""Learning curves: the box taught N photos of a source it never saw, then reading the rest of that source.

Usage:  .venv/bin/python benchmarks/dice_learning.py [--source NAME ...] [--taught 1,3,5,10] [--folds DIR] [--json]
        .venv/bin/python benchmarks/dice_learning.py --source aws-vegas-d6 --learning-time 500

Each row is one source of ../shared/dice the base networks never saw (skovy-webcam-d6 as its frames and its
crops), taught with N photos of a seeded draw (files are often sorted by value) as if their dice had been confirmed
at the table, then read with that table's layer on all its other photos; N = 0 is the reader alone. The base
networks are the shipped ones, or a fold trained without the source (`--folds DIR`, as `make folds` writes them;
`--fold SOURCE=DIR` for one), which adds the sources the shipped networks saw. Columns as
benchmarks/dice_sources.py counts them (vision/scoring.py), plus what the teaching kept and how long learning took;
the reader alone's figures on the same rest stand beside in brackets (the same where no layer was kept).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from dice_sources import SHARED, SHIPPED_SAW, add_fold_options, folds_given, networks_for, rows_of  # noqa: E402
from vision.layer import Example, Features, relook  # noqa: E402
from vision.learning import learn  # noqa: E402
from vision.reader import DiceReader, Relook  # noqa: E402
from vision.scoring import LabelledPhoto, Tally, load_folder, score_photo  # noqa: E402
from vision.teaching import examples_from  # noqa: E402

TAUGHT = (1, 3, 5, 10)
SEED = 34  # the draw of taught photos
TIMINGS = 3  # learnings timed, for `--learning-time`
CROPS_TOO = (50,)  # crop sources (one die a photo) are also taught 50 dice: the "3 photos (or 50 dice)"


def curve(reader: DiceReader, features: Features, photos: list[LabelledPhoto], taught: tuple[int, ...]) -> list[dict]:
    """Returns one row per number of taught photos (0 first): figures on the rest and the learning; raises nothing."""
    photos = random.Random(SEED).sample(photos, len(photos))
    frames = [cv2.imread(str(photo.path)) for photo in photos]
    lessons: list[list[Example]] = []
    rows = []
    for count in sorted({0, *(number for number in taught if number < len(photos))}):  # each once
        while len(lessons) < count:
            photo = photos[len(lessons)]
            found, _ = examples_from(reader, frames[len(lessons)], photo.values, photo.boxes, group=photo.path.name)
            lessons.append(found)
        examples = [example for lesson in lessons[:count] for example in lesson]
        started = time.process_time()
        layer, said = learn(examples, features) if examples else (None, "no example")
        took = time.process_time() - started
        figures = read_rest(reader, relook(layer, features) if layer is not None else None, photos[count:], frames[count:])
        alone = read_rest(reader, None, photos[count:], frames[count:]) if layer is not None else figures
        rows.append({"taught": count, "examples": len(examples), "learned": layer is not None,
                     "learn_s": round(took, 2), "said": said, **figures,
                     "alone_sure_per_die": alone["sure_per_die"], "alone_silent_errors": alone["silent_errors"]})
    return rows


def read_rest(reader: DiceReader, taught: Relook | None, photos: list[LabelledPhoto], frames: list) -> dict:
    """Returns the figures of the photos read with the `taught` hook (None: the reader alone); raises nothing."""
    reader.taught, tally = taught, Tally()
    for photo, frame in zip(photos, frames):
        tally.add(score_photo(reader.read(frame), photo))
    reader.taught = None
    return tally.figures()


def learning_time(features: Features, examples: list[Example], count: int) -> float:
    """Returns the median CPU seconds of TIMINGS learnings from `count` examples (repeated from those given); raises
    ZeroDivisionError with none."""
    many = [examples[index % len(examples)] for index in range(count)]
    many = [Example(e.surround, e.value, e.prior, e.base_value, e.base_sure, f"{e.group}#{i // len(examples)}", e.face)
            for i, e in enumerate(many)]
    times = []
    for _ in range(TIMINGS):
        started = time.process_time()
        learn(many, features)
        times.append(time.process_time() - started)
    return statistics.median(times)


def timed(reader: DiceReader, features: Features, photos: list[LabelledPhoto], count: int) -> str:
    """Returns a sentence on how long learning from `count` dice of these photos takes; raises ValueError with no die."""
    examples: list[Example] = []
    for photo in photos:
        if len(examples) >= count:
            break
        examples += examples_from(reader, cv2.imread(str(photo.path)), photo.values, photo.boxes, group=photo.path.name)[0]
    if not examples:
        raise ValueError("the reader found none of these photos' labelled dice: there is nothing to learn from.")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    took = learning_time(features, examples, count)
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    return (f"learning from {count} dice ({len(examples)} taught, repeated) took {took:.1f} s of CPU (median of "
            f"{TIMINGS}); the process's peak memory grew by {grown:.0f} MB")


def markdown(table: list[dict]) -> str:
    """Returns the curves as a markdown table; raises nothing."""
    lines = ["| source | networks | taught photos | taught dice | layer kept | rest: dice | sure & right (alone) "
             "| right | silent errors (alone) | false dice / photo | learning s |", "|" + "---|" * 11]
    for row in table:
        kept = "yes" if row["learned"] else "no"
        lines.append(f"| {row['row']} | {row['networks']} | {row['taught']} | {row['examples']} | {kept} | "
                     f"{row['dice']} | {100 * row['sure_per_die']:.1f} % ({100 * row['alone_sure_per_die']:.1f} %) | "
                     f"{100 * row['per_die']:.1f} % | {100 * row['silent_errors']:.2f} % "
                     f"({100 * row['alone_silent_errors']:.2f} %) | {row['false_per_photo']:.2f} | {row['learn_s']:.2f} |")
    return "\n".join(lines)


def main() -> int:
    """Runs the benchmark; returns the exit status; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only these sources (default: every one never seen)")
    parser.add_argument("--taught", default=",".join(map(str, TAUGHT)), help="numbers of photos to teach, e.g. 1,3,5,10")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--learning-time", type=int, metavar="N", help="only time learning from N dice of the first source")
    add_fold_options(parser)
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    taught = tuple(int(number) for number in arguments.taught.split(","))
    folds = folds_given(arguments)
    table, networks = [], {}
    for folder in sorted(path for path in arguments.shared.iterdir() if (path / "labels.csv").is_file()):
        never_saw = folder.name in folds or folder.name not in SHIPPED_SAW
        if not never_saw or (arguments.source and folder.name not in arguments.source):
            continue
        read_by, models = networks_for(folder.name, folds)
        reader, features = networks.setdefault(models, (DiceReader(models), Features(models / "dice_faces.onnx")))
        for name, photos in rows_of(folder.name, load_folder(folder)):
            if any(value > 6 for photo in photos for value in photo.values):
                continue  # the layer learns d6 faces only
            if len({len(photo.values) for photo in photos}) == 1 and photos[0].boxes is None and len(photos[0].values) != 1:
                continue  # several dice a photo and no boxes: no die can be placed
            if arguments.learning_time:
                print(timed(reader, features, photos, arguments.learning_time))
                return 0
            crops = all(photo.boxes is None for photo in photos)
            for row in curve(reader, features, photos, taught + (CROPS_TOO if crops else ())):
                table.append({"row": name, "networks": read_by, **row})
                print(json.dumps(table[-1]), file=sys.stderr, flush=True)
    print(json.dumps(table, indent=2) if arguments.json else markdown(table))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
