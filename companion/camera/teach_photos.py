"""`companion teach`: teach the box a table's dice from labelled photos, as if each die had been confirmed at the table."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from companion.camera.lessons import Lessons
from vision.layer import Features, relook
from vision.learning import learn
from vision.photo_files import load_photo
from vision.reader import MODELS, DiceReader
from vision.teaching import examples_from


def labels_of(labels: Path, images: list[Path]) -> dict[Path, tuple[tuple[int, ...], tuple | None]]:
    """Returns {image: (values, boxes or None)} from a `file,dice,boxes` file; raises ValueError with a sentence on bad input."""
    if not labels.is_file():
        raise ValueError(f"There is no labels file at {labels}.")
    with open(labels, newline="") as handle:
        rows = {row.get("file", ""): row for row in csv.DictReader(handle)}
    found = {}
    for image in images:
        if not image.is_file():
            raise ValueError(f"There is no photo at {image}.")
        row = rows.get(image.name)
        if row is None:
            raise ValueError(f"{labels} has no line for {image.name}.")
        found[image] = _label(image, row.get("dice") or "", row.get("boxes") or "")
    return found


def _label(image: Path, dice: str, boxes: str) -> tuple[tuple[int, ...], tuple | None]:
    """Returns one photo's (values, boxes); raises ValueError when the label does not fit a photo of d6 dice."""
    try:
        values = tuple(int(value) for value in dice.split())
        placed = tuple(tuple(int(number) for number in box.split(",")) for box in boxes.split(";")) if boxes.strip() else None
    except ValueError:
        raise ValueError(f"The label of {image.name} is not whole numbers ({dice!r}, {boxes!r}).") from None
    if not values or not all(1 <= value <= 6 for value in values):
        raise ValueError(f"The label of {image.name} must name its dice, each 1 to 6, not {dice!r}.")
    if placed is None and len(values) != 1:
        raise ValueError(f"The label of {image.name} names {len(values)} dice but no boxes: say where each die is.")
    if placed is not None and (len(placed) != len(values) or any(len(box) != 4 or box[2] <= 0 or box[3] <= 0 for box in placed)):
        raise ValueError(f"The label of {image.name} names {len(values)} dice but its boxes do not place each one (x,y,w,h).")
    return values, placed


def _photo(image: Path, boxes: tuple | None) -> np.ndarray:
    """Returns the photo, read; raises ValueError when it cannot be read or a box of its label lies outside it."""
    frame, error = load_photo(str(image))
    if frame is None:
        raise ValueError(error)
    for box in boxes or ():
        if box[0] >= frame.shape[1] or box[1] >= frame.shape[0] or box[0] + box[2] <= 0 or box[1] + box[3] <= 0:
            raise ValueError(f"A box of {image.name}'s label, {box}, lies outside the photo.")
    return frame


def teach(state: Path, labels: Path, images: list[Path], *, die_px: float | None = None, models: Path = MODELS) -> str:
    """Teaches the labelled photos and learns; returns one line on what was learned; raises ValueError on bad input
    (nothing kept then)."""
    labelled = labels_of(labels, images)
    for image in images:  # every photo checked before anything is kept; one frame in memory at a time
        _photo(image, labelled[image][1])
    reader, features = DiceReader(models), Features(models / "dice_faces.onnx")
    lessons = Lessons(state)
    try:
        previous = lessons.layer()
        if previous is not None:
            reader.taught = relook(previous, features)
        examples, missed = [], 0
        for image in images:
            values, boxes = labelled[image]
            frame = _photo(image, boxes)
            found, lost = examples_from(reader, frame, values, boxes, group=image.name, die_px=die_px)
            examples += found
            missed += lost
        kept = lessons.add(examples, "taught")
        layer, said = learn(lessons.examples(), features, previous=previous) if kept else (previous, "learned nothing")
        if layer is None and previous is not None:  # the earlier layer read the new dice no better than the reader
            lessons.drop_layer()
        elif layer is not previous:
            lessons.keep_layer(layer)
    finally:
        lessons.close()
    unseen = f"; the reader did not find {missed} labelled dice, which cannot teach it" if missed else ""
    return f"Taught {len(examples)} dice from {len(images)} photos ({kept} kept in all){unseen}; {said}"
