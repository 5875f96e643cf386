"""The live reader's eyes at the table: it reads faces with the table's learned layer (when there is one) and
remembers the faces of its last read, so the dice of a roll can become the table's examples once their values
stand. Set as the reader's `taught` hook; the layer is swapped by a plain assignment from any thread."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.faces import FaceReadings
from vision.layer import Example, Features, Layer, base_reading, relook, surround_of
from vision.types import Box

NEAR = 0.5  # a read die's box belongs to the finder's place whose centre lies within this many face sides


@dataclass(frozen=True)
class Seen:
    """The faces of one read: the frame's pyramid, the finder's (x, y, face) places, the face reader's readings."""

    images: list[np.ndarray]
    places: list[tuple[float, float, float]]
    faces: FaceReadings


class TableEyes:
    """A DiceReader's `taught` hook for one table; called on the reading thread only."""

    def __init__(self) -> None:
        """Starts without a layer and without a read; raises nothing."""
        self._relook = None
        self.last: Seen | None = None

    def use(self, layer: Layer | None, features: Features | None) -> None:
        """Reads with `layer` from the next read on (None: the shipped reader alone); raises nothing."""
        self._relook = relook(layer, features) if layer is not None and features is not None else None

    def __call__(self, images: list[np.ndarray], places: list[tuple[float, float, float]], faces: FaceReadings) -> FaceReadings:
        """Remembers the read and returns its faces as the table taught them; raises nothing."""
        self.last = Seen(images, places, faces)
        hook = self._relook
        return faces if hook is None else hook(images, places, faces)

    def examples_at(self, boxes: tuple[Box, ...], group: str) -> list[Example | None]:
        """Returns, for each box of the last read's dice, an example with value 0 (its value is known later), or None
        where no face of that read lies there; raises nothing."""
        seen = self.last
        if seen is None:
            return [None] * len(boxes)
        return [_example(seen, box, group) for box in boxes]


def _example(seen: Seen, box: Box, group: str) -> Example | None:
    """Returns the example of the read face nearest the box's centre, or None when none is near; raises nothing."""
    centre_x, centre_y = box[0] + box[2] / 2, box[1] + box[3] / 2
    near = [(math.hypot(x - centre_x, y - centre_y), index) for index, (x, y, face) in enumerate(seen.places)
            if math.hypot(x - centre_x, y - centre_y) <= NEAR * face]
    if not near:
        return None
    index = min(near)[1]
    prior = np.asarray(seen.faces.chances[index], np.float32)
    base_value, base_sure = base_reading(prior, bool(seen.faces.agreed[index]))
    return Example(surround_of(seen.images, *seen.places[index]), 0, prior, base_value, base_sure, group,
                   float(seen.places[index][2]))
