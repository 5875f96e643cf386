"""Python's cycle collector paused while the memory builds many objects at once (the plays of a long journal).

Every 700 new containers start a collection, and as the new objects pile up some of those collections walk every
object of the process: building the 10,000 plays of a long journal took about twice as long with the collector on,
and each full collection holds the interpreter (and so the engine loop's thread) in one stretch. Plain reference
counting goes on while it is paused; only cycles wait, and the memory builds none.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator


class _Pause:
    """How many blocks want the collector paused, and whether it was on before the first; safe from any thread."""

    def __init__(self) -> None:
        """Nothing paused yet; raises nothing."""
        self.lock = threading.Lock()
        self.depth = 0
        self.was_on = False


_PAUSE = _Pause()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block; blocks may nest or run in several threads at once, and it is switched
    back on when the last ends, only if it was on before the first began; raises what the block raises."""
    with _PAUSE.lock:
        if _PAUSE.depth == 0:
            _PAUSE.was_on = gc.isenabled()
            gc.disable()
        _PAUSE.depth += 1
    try:
        yield
    finally:
        with _PAUSE.lock:
            _PAUSE.depth -= 1
            if _PAUSE.depth == 0 and _PAUSE.was_on:
                gc.enable()
