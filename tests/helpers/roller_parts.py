"""What the roller's tests share: a clock that moves only when the roller sleeps, and a roller on it."""
from __future__ import annotations

from typing import Any, Callable

from companion.camera.roller import Roller


class FakeClock:
    """A clock that only moves when the roller sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def roller_with(source: Any, read: Callable, clock: FakeClock, **settings: Any) -> Roller:
    """A Roller on `source` and `read` whose sleeps move `clock` instead of waiting."""
    return Roller(source, read, clock=clock, sleep=clock.sleep, **settings)
