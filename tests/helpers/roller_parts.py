"""What the roller's tests share: a clock that moves only when the roller sleeps, a roller on it, and a stand-in
reader that answers from what the synthetic camera threw."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from companion.camera.roller import Roller
from vision.settle import motion, thumbnail
from vision.sources import SyntheticCamera
from vision.types import DiceReading, DieReading


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


class StandInReader:
    """Answers from what the synthetic camera threw, and fails the test if shown a moving frame."""

    def __init__(self, camera: SyntheticCamera, *, confidence: Callable[[int], float] = lambda call: 0.95,
                 flip: bool = False, flags: tuple[str, ...] = ()) -> None:
        self.camera, self.confidence, self.flip, self.flags = camera, confidence, flip, flags
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> DiceReading:
        self.calls += 1
        assert motion(thumbnail(self.camera.at_rest), thumbnail(frame)) < 0.01, "the reader saw a moving frame"
        dice = sorted(zip(self.camera.boxes, self.camera.values))
        readings = [DieReading(6, value, box, self.confidence(self.calls), self.flags) for box, value in dice]
        if self.flip and readings:  # the first die reads differently on every frame
            first = readings[0]
            readings[0] = DieReading(6, 1 + self.calls % 6, first.box, first.confidence)
        return DiceReading(tuple(readings))


def left_to_right(camera: SyntheticCamera) -> tuple[int, ...]:
    """The values the camera threw, from the leftmost die; raises nothing."""
    return tuple(value for _, value in sorted(zip(camera.boxes, camera.values)))
