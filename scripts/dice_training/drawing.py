"""Labelled crops drawn kind by kind, in set shares: what the face reader's and the d8 reader's examples share."""
from __future__ import annotations

import numpy as np

from vision.cutting import normalise


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

    def _example(self, kind: str) -> tuple[np.ndarray, int]:
        """Returns one (crop, class) of the given kind; raises NotImplementedError here."""
        raise NotImplementedError
