"""Turning a read photo and its labels into the table's examples: each labelled die the reader found, and its value."""
from __future__ import annotations

import numpy as np

from vision.faces import FaceReadings
from vision.layer import Example, base_reading, surround_of
from vision.reader import DiceReader
from vision.scoring import pair_dice
from vision.types import Box, DiceReading


def examples_from(reader: DiceReader, frame: np.ndarray, values: tuple[int, ...], boxes: tuple[Box, ...] | None,
                  *, group: str, die_px: float | None = None) -> tuple[list[Example], int]:
    """Returns (the examples of one labelled photo, how many labelled dice the reader did not find); raises
    ValueError for a bad frame, or for several dice and no boxes.

    With boxes, each read die is paired with the label box it sits in; without, the photo is one die's crop and
    its die is the one the reader found nearest the middle. A photo of no dice teaches nothing.
    """
    if not values:
        return [], 0
    if boxes is None and len(values) != 1:
        raise ValueError(f"a photo of {len(values)} dice needs their boxes: only a crop of one die may go without.")
    seen: dict[str, object] = {}
    taught = reader.taught

    def capture(images: list[np.ndarray], places: list[tuple[float, float, float]], faces: FaceReadings) -> FaceReadings:
        seen.update(images=images, places=places, faces=faces)
        return faces if taught is None else taught(images, places, faces)

    reader.taught = capture
    try:
        reading = reader.read(frame, die_px=die_px)
    finally:
        reader.taught = taught
    if not reading.dice:
        return [], len(values)
    pairs = pair_dice(reading, boxes) if boxes is not None else _middle_die(reading, frame.shape)
    places, faces = seen["places"], seen["faces"]
    examples = []
    for label, die_index in pairs.items():
        place = _place_of(reading.dice[die_index].box, places)  # type: ignore[arg-type]
        prior = faces.chances[place]  # type: ignore[attr-defined]
        examples.append(Example(surround_of(seen["images"], *places[place]), values[label], prior,  # type: ignore[index, arg-type]
                                *base_reading(prior, bool(faces.agreed[place])), group,  # type: ignore[attr-defined]
                                float(places[place][2])))  # type: ignore[index]
    return examples, len(values) - len(pairs)


def _place_of(box: Box, places: list[tuple[float, float, float]]) -> int:
    """Returns the index of the finder's place a read die's box came from (the nearest centre); raises nothing."""
    centre_x, centre_y = box[0] + box[2] / 2, box[1] + box[3] / 2
    return min(range(len(places)), key=lambda index: (places[index][0] - centre_x) ** 2 + (places[index][1] - centre_y) ** 2)


def _middle_die(reading: DiceReading, shape: tuple[int, ...]) -> dict[int, int]:
    """Returns {0: the read die nearest the photo's middle}; raises nothing."""
    middle_x, middle_y = shape[1] / 2, shape[0] / 2
    nearest = min(range(len(reading.dice)), key=lambda index: (reading.dice[index].box[0] + reading.dice[index].box[2] / 2
                                                              - middle_x) ** 2 + (reading.dice[index].box[1]
                                                              + reading.dice[index].box[3] / 2 - middle_y) ** 2)
    return {0: nearest}
