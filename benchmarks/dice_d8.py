"""The d8 reader on d8 it never saw: rendered frames kept from its training, and photos of a real d8.

Usage:  .venv/bin/python benchmarks/dice_d8.py [--renders DIR] [--models DIR] [--json]

Rows:
- `rendered d8, faces alone`: every d8 of the held-out rendered frames (vision.splits.measures_the_d8) whose top
  face lies flat and is seen whole, cut at its labelled box and read by the d8 network alone (no finder);
- `rendered frames, d8` and `rendered frames, d6`: the same frames read whole with sides 6 and 8, so the
  finder has to find each die and the reader tell a d8 from a d6;
- `rendered frames, the game's d8`: the held-out frames of one d8 beside one or more d6, each lying flat and seen
  whole, rolled as Gateway (rescue) rolls them (companion.camera.roller: the d6 voted over three frames, the d8
  beside them read when the reader is sure of it); right when the roll takes the d8's value from the camera, an
  abstention when it leaves the d8 to a phone (or asks for the roll again);
- `burksbuilds-d8-numerals`: the shared photos of one blue d8 (../shared/dice), read whole with sides 8.
A die is right when its kind and value are; a sure wrong one (value or kind) is a silent error. A die the
reader does not find counts as neither. The renders come from `make renders` (default RENDER_DIR/blender-v1).
"""
from __future__ import annotations

import argparse
import json
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

from companion.camera.roller import Roller  # noqa: E402
from dice_training.rendered import SEEN_WHOLE  # noqa: E402  (a die the training may read, the same here)
from vision.cutting import pyramid  # noqa: E402
from vision.numerals import D8_FILE, NumeralReader  # noqa: E402
from vision.reader import D8_SURE, MODELS, DiceReader  # noqa: E402
from vision.scoring import Tally, load_folder, pair_dice  # noqa: E402
from vision.splits import measures_the_d8  # noqa: E402

RENDERS = Path.home() / ".cache" / "companion" / "renders" / "blender-v1"
PHOTOS = REPO.parent / "shared" / "dice" / "burksbuilds-d8-numerals"


def _count(tally: Tally, right: bool, sure: bool) -> None:
    """Counts one labelled die the reader gave an answer for: right (kind and value), sure, or both; raises nothing."""
    tally.correct += right
    tally.sure_correct += right and sure
    tally.silent_errors += sure and not right
    tally.abstained += not sure


def held_out_frames(renders: Path) -> list[tuple[Path, list[dict]]]:
    """Returns each held-out rendered frame and its fairly readable dice; raises FileNotFoundError without renders."""
    records = sorted(path for path in renders.glob("frame_*.json") if measures_the_d8(path.stem))
    if not records:
        raise FileNotFoundError(f"{renders} holds no rendered frames; `make renders` makes them")
    frames = []
    for record in records:
        dice = [die for die in json.loads(record.read_text())["dice"]
                if die.get("box") and not die["cocked"] and die["seen"] >= SEEN_WHOLE]
        frames.append((record.with_suffix(".jpg"), dice))
    return frames


def faces_alone(numerals: NumeralReader, frames: list[tuple[Path, list[dict]]]) -> Tally:
    """Reads each held-out d8 face at its labelled box with the d8 network alone; raises nothing."""
    count = Tally()
    for image, dice in frames:
        d8 = [die for die in dice if die["sides"] == 8]
        if not d8:
            continue
        places = [(x + w / 2, y + h / 2, (w + h) / 2) for x, y, w, h in (die["box"] for die in d8)]
        chances, agreed = numerals.read(pyramid(cv2.imread(str(image))), places)
        for die, chance, agree in zip(d8, chances, agreed):
            count.dice += 1
            _count(count, int(np.argmax(chance)) == die["value"], bool(agree) and float(chance.max()) >= D8_SURE)
    return count


def frames_whole(reader: DiceReader, frames: list[tuple[Path, list[dict]]]) -> dict[int, Tally]:
    """Reads the held-out frames whole with sides 6 and 8; returns the counts for d8 and for d6; raises nothing."""
    counts = {8: Tally(), 6: Tally()}
    for image, dice in frames:
        if not any(die["sides"] == 8 for die in dice):
            continue
        reading = reader.read(cv2.imread(str(image)), sides=(6, 8))
        pairs = pair_dice(reading, [tuple(die["box"]) for die in dice])
        for index, die in enumerate(dice):
            counts[die["sides"]].dice += 1
            if index in pairs:
                read = reading.dice[pairs[index]]
                _count(counts[die["sides"]], (read.sides, read.value) == (die["sides"], die["value"]), not read.unsure)
    return counts


class _StillFrame:
    """A camera over dice that lie still: the same frame each time, and a clock that moves only when waited on."""

    def __init__(self, image: Path) -> None:
        self.image, self.now = cv2.imread(str(image), cv2.IMREAD_COLOR), 0.0

    def frame(self) -> np.ndarray:
        return self.image.copy()

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def game_rolls(reader: DiceReader, renders: Path) -> Tally:
    """Rolls each held-out frame of one d8 beside d6 (each flat and seen whole) as Gateway (rescue) does: counts
    the d8, right when the roll takes its value from the camera; raises FileNotFoundError without renders."""
    count = Tally()
    for record in sorted(path for path in renders.glob("frame_*.json") if measures_the_d8(path.stem)):
        dice = json.loads(record.read_text())["dice"]
        kinds = [die["sides"] for die in dice]
        if kinds.count(8) != 1 or 6 not in kinds or any(die["cocked"] or die["seen"] < SEEN_WHOLE for die in dice):
            continue  # a roll of one d8 beside one or more d6, each lying flat and seen whole
        still = _StillFrame(record.with_suffix(".jpg"))
        roller = Roller(still, reader.read, read_d8=lambda frame: reader.read(frame, sides=(6, 8)), still_seconds=0.6,
                        frames_to_vote=3, clock=lambda: still.now, sleep=still.sleep)
        result = roller.roll((6,) * (len(dice) - 1), others=(8,))
        d8 = next(die["value"] for die in dice if die["sides"] == 8)
        taken = [value for value, sides in zip(result.values, result.sides) if sides == 8]  # only a read has values
        count.dice += 1
        _count(count, taken == [d8], bool(taken))
    return count


def photos_whole(reader: DiceReader, folder: Path) -> Tally:
    """Reads the photos of one d8 with sides 8 (each holds one labelled die, and no boxes): right when a die read
    says its value, a silent error when any sure die says another; raises FileNotFoundError."""
    count = Tally()
    for photo in load_folder(folder):
        reading = reader.read(cv2.imread(str(photo.path)), sides=(8,))
        count.dice += 1
        right = [die for die in reading.dice if die.sides == 8 and die.value == photo.values[0]]
        sure = [die for die in reading.dice if not die.unsure]
        count.correct += bool(right)
        count.sure_correct += any(not die.unsure for die in right)
        count.silent_errors += any(die not in right for die in sure)
        count.abstained += not sure
    return count


def main() -> int:
    """Prints the rows as a Markdown table (or JSON); returns 0; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=Path, default=RENDERS)
    parser.add_argument("--models", type=Path, default=MODELS, help=f"a folder with the networks and {D8_FILE}")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    frames = held_out_frames(options.renders)
    reader = DiceReader(options.models)
    whole = frames_whole(reader, frames)
    rows = {"rendered d8, faces alone": faces_alone(NumeralReader(options.models / D8_FILE), frames),
            "rendered frames, d8": whole[8], "rendered frames, d6": whole[6],
            "rendered frames, the game's d8": game_rolls(reader, options.renders),
            PHOTOS.name: photos_whole(reader, PHOTOS)}
    table = {name: count.figures() for name, count in rows.items()}
    keys = ("sure_per_die", "per_die", "abstained", "silent_errors")
    if options.json:
        print(json.dumps(table))
        return 0
    print("| row | dice | sure & right | right | abstentions | silent errors |\n|---|---|---|---|---|---|")
    for name, figures in table.items():
        rates = " | ".join(f"{100 * figures[key]:.1f} %" for key in keys)
        print(f"| {name} | {figures['dice']} | {rates} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
