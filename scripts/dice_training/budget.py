"""Fitting a training run into a time budget: as many steps as the views of a batch can be made for."""
from __future__ import annotations

import time
from collections.abc import Callable

TIMED_BATCHES = 20


def affordable_steps(make_batch: Callable[[], object], steps: int, minutes: float | None,
                     log: Callable[[str], None], *, workers: int = 0) -> int:
    """Returns `steps`, or fewer when making that many batches (`workers` processes at a time) would outlast
    `minutes`; raises nothing.

    The batches made to time it are thrown away (the budget is for a GPU, where making views is the cost).
    """
    if minutes is None:
        return steps
    started = time.perf_counter()
    for _ in range(TIMED_BATCHES):
        make_batch()
    each = (time.perf_counter() - started) / TIMED_BATCHES / max(1.0, 0.8 * workers)  # workers share the cores
    fitted = max(1, min(steps, int(minutes * 60 / (each * 1.15))))  # 15 % for the network and the logging
    log(f"a batch's views take {each * 1000:.0f} ms: {fitted} of {steps} steps fit in {minutes:g} min")
    return fitted
