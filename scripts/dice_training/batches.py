"""Training batches made on this process's thread, or by worker processes when a GPU waits for them."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import torch


class _Made(torch.utils.data.IterableDataset):
    """Endless batches, each worker drawing with its own seeded generator."""

    def __init__(self, make: Callable[[np.random.Generator], Any], seed: int) -> None:
        super().__init__()
        self.make, self.seed = make, seed

    def __iter__(self) -> Iterator[Any]:
        worker = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, worker.id if worker else 0])
        while True:
            yield self.make(rng)


def batches(make: Callable[[np.random.Generator], Any], rng: np.random.Generator, seed: int,
            workers: int) -> Iterator[Any]:
    """Endless batches from `make`: drawn with `rng` here (workers 0: the same stream as ever), or by `workers`
    processes each seeded from `seed` and its number (reproducible for the same count); raises nothing."""
    if workers <= 0:
        while True:
            yield make(rng)
    loader = torch.utils.data.DataLoader(_Made(make, seed), batch_size=None, num_workers=workers,
                                         collate_fn=lambda batch: batch, prefetch_factor=4)
    yield from loader
