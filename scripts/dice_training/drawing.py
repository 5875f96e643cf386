"""Labelled crops drawn kind by kind, in set shares: what the face reader's and the d8 reader's examples share."""
from __future__ import annotations

import math

import numpy as np

from dice_training.augment import squashed
from dice_training.data import Die
from vision.cutting import cut_face, normalise


class CropDraws:
    """Draws batches of (crop, class); a subclass sets `kinds`, `shares` (summing to 1) and `rng`, and draws
    one example of a kind in `_example`."""

    kinds: list[str]
    shares: np.ndarray
    rng: np.random.Generator

    def drawing_with(self, rng: np.random.Generator) -> "CropDraws":
        """These examples, drawn from now on with `rng` (a worker process's own); raises nothing."""
        self.rng = rng
        return self

    def batch(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """Returns (normalised crops, classes) for one training batch; raises nothing."""
        crops, classes = [], []
        for kind in self.rng.choice(self.kinds, size=size, p=self.shares):
            crop, label = self._example(str(kind))
            crops.append(crop)
            classes.append(label)
        return normalise(np.stack(crops)), np.array(classes, np.int64)

    def _cut_die(self, levels: list[np.ndarray], die: Die, *, zoom: float = 1.0, mirror: bool = True) -> np.ndarray:
        """Returns a labelled die's crop as the table cuts it, `zoom` face sides across: jittered, resized, turned,
        sometimes mirrored (where `mirror`) and squashed, not yet recoloured; raises nothing."""
        rng = self.rng
        x = die.x + rng.normal(0, 0.08) * die.face
        y = die.y + rng.normal(0, 0.08) * die.face
        face = die.face * zoom * math.exp(rng.normal(0, 0.14))
        angle = float(rng.uniform(0, 360))
        mirrored = mirror and bool(rng.random() < 0.5)  # no draw where it may not: the same views as before
        return squashed(cut_face(levels, x, y, face, angle, mirrored), rng)

    def _example(self, kind: str) -> tuple[np.ndarray, int]:
        """Returns one (crop, class) of the given kind; raises NotImplementedError here."""
        raise NotImplementedError
