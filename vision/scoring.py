"""Scoring the dice reader against labelled photos (shared by the benchmark, the tests and training)."""
from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from vision.types import DiceReading, DieReading

GROWTH = 1.15  # a label box is grown by 15 % (width and height) before a read die's centre must fall inside


@dataclass(frozen=True)
class LabelledPhoto:
    """One labelled photo: its path, the top-face values, and the boxes (None when the source has none)."""

    path: Path
    values: tuple[int, ...]
    boxes: tuple[tuple[int, int, int, int], ...] | None


@dataclass
class Tally:
    """Running counts for one folder of photos."""

    photos: int = 0
    dice: int = 0
    correct: int = 0
    sure_correct: int = 0
    abstained: int = 0
    silent_errors: int = 0
    false_dice: int = 0
    exact_photos: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        """Adds another tally's counts into this one; raises nothing."""
        for name in ("photos", "dice", "correct", "sure_correct", "abstained", "silent_errors", "false_dice"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.exact_photos += other.exact_photos
        self.misses.extend(other.misses)

    def figures(self) -> dict[str, float]:
        """Returns the rates the benchmark reports; raises nothing."""
        dice = max(self.dice, 1)
        photos = max(self.photos, 1)
        return {
            "photos": self.photos,
            "dice": self.dice,
            "per_die": self.correct / dice,
            "sure_per_die": self.sure_correct / dice,
            "exact_photos": self.exact_photos / photos,
            "false_per_photo": self.false_dice / photos,
            "abstained": self.abstained / dice,
            "silent_errors": self.silent_errors / dice,
        }


def load_folder(folder: Path) -> list[LabelledPhoto]:
    """Returns the labelled photos of one source folder from its labels.csv; raises FileNotFoundError if absent."""
    photos = []
    with open(folder / "labels.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            values = tuple(int(value) for value in row["dice"].split())
            boxes = None
            if row.get("boxes"):
                boxes = tuple(
                    tuple(int(number) for number in box.split(",")) for box in row["boxes"].split(";")
                )
            photos.append(LabelledPhoto(folder / row["file"], values, boxes))  # type: ignore[arg-type]
    return photos


def score_photo(reading: DiceReading, photo: LabelledPhoto) -> Tally:
    """Returns the counts for one photo (box matching when boxes exist, else value multisets); raises nothing."""
    if photo.boxes is None:
        return _score_by_values(reading, photo)
    return _score_by_boxes(reading, photo)


def _inside(box: tuple[int, int, int, int], x: float, y: float, *, growth: float = GROWTH) -> bool:
    """Whether (x, y) falls inside the box grown by `growth`; raises nothing."""
    centre_x, centre_y = _centre(box)
    return abs(x - centre_x) <= box[2] * growth / 2 and abs(y - centre_y) <= box[3] * growth / 2


def _score_by_boxes(reading: DiceReading, photo: LabelledPhoto) -> Tally:
    """Returns the counts for a photo whose labels have boxes; raises nothing."""
    tally = Tally(photos=1, dice=len(photo.values))
    labels = list(zip(photo.values, photo.boxes or ()))
    pairs = pair_dice(reading, [box for _, box in labels])
    all_right = len(pairs) == len(labels)
    for label_index, (value, box) in enumerate(labels):
        if label_index not in pairs:
            tally.misses.append(f"{photo.path.name}: missed a {value} at {box}")
            continue
        all_right &= _count_die(tally, reading.dice[pairs[label_index]], value, photo, box)
    used = set(pairs.values())
    tally.false_dice = len(reading.dice) - len(used)
    for index, die in enumerate(reading.dice):
        if index not in used:
            tally.misses.append(f"{photo.path.name}: false die {die.value} at {die.box}")
    tally.exact_photos = int(all_right and tally.false_dice == 0)
    return tally


def pair_dice(reading: DiceReading, boxes: Sequence[tuple[int, int, int, int]]) -> dict[int, int]:
    """Returns {label index: read die index}, one to one, closest centres paired first; raises nothing.

    A read die belongs to a label when its centre falls in the label box grown by GROWTH, or its box holds the label's
    centre: some sources box only a face's pip pattern (matteop65: a 1 is boxed around its one pip), which a read
    face's centre may miss. A read die may fall inside several grown label boxes when dice touch; it belongs to the
    one it sits on.
    """
    candidates = sorted(
        (_apart(label, die.box), label_index, die_index)
        for label_index, label in enumerate(boxes)
        for die_index, die in enumerate(reading.dice)
        if _inside(label, *_centre(die.box)) or _inside(die.box, *_centre(label), growth=1.0)
    )
    pairs: dict[int, int] = {}
    for _, label_index, die_index in candidates:
        if label_index not in pairs and die_index not in pairs.values():
            pairs[label_index] = die_index
    return pairs


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    """Returns a box's centre; raises nothing."""
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def _apart(one: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> float:
    """Returns the squared distance between two boxes' centres; raises nothing."""
    (one_x, one_y), (other_x, other_y) = _centre(one), _centre(other)
    return (one_x - other_x) ** 2 + (one_y - other_y) ** 2


def _count_die(tally: Tally, die: DieReading, value: int, photo: LabelledPhoto, box: tuple[int, ...]) -> bool:
    """Adds one matched die to the tally; returns whether it was read right and sure; raises nothing."""
    if die.value == value:
        tally.correct += 1
        if not die.unsure:
            tally.sure_correct += 1
            return True
    if die.unsure:
        tally.abstained += 1
    elif die.value != value:
        tally.silent_errors += 1
    tally.misses.append(f"{photo.path.name}: a {value} at {box} read {die.value} flags {die.flags}")
    return False


def _score_by_values(reading: DiceReading, photo: LabelledPhoto) -> Tally:
    """Returns the counts for a photo without boxes, matching the multisets of values; raises nothing."""
    tally = Tally(photos=1, dice=len(photo.values))
    wanted = Counter(photo.values)
    given = Counter(die.value for die in reading.dice if die.value is not None)
    tally.correct = sum((wanted & given).values())
    sure = Counter(die.value for die in reading.dice if not die.unsure)
    tally.sure_correct = sum((wanted & sure).values())
    tally.silent_errors = min(len(photo.values), sum((sure - wanted).values()))
    tally.abstained = min(len(photo.values), sum(1 for die in reading.dice if die.unsure))
    tally.false_dice = max(0, len(reading.dice) - len(photo.values))
    tally.exact_photos = int(sorted(sure.elements()) == sorted(photo.values) and len(reading.dice) == len(photo.values))
    if not tally.exact_photos:
        tally.misses.append(f"{photo.path.name}: wanted {sorted(photo.values)} read {[d.value for d in reading.dice]}")
    return tally
