"""The presses a panel under test handed on, read off its queue."""
from __future__ import annotations

import queue

from companion.rules.inputs import Press


def drained(presses: "queue.Queue[Press]") -> list[Press]:
    """Every press waiting on the queue, oldest first."""
    found = []
    while not presses.empty():
        found.append(presses.get_nowait())
    return found
