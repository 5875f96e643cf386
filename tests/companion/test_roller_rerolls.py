"""The roller asks again: it re-captures quietly when unsure, asks for a re-roll when frames disagree, a die is
cocked or the dice never settle, waits for the dice to land or to move since the last read, and a lost camera means
rolls entered by hand."""
from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

from companion.camera.roll_sentences import (
    COCKED_MESSAGE,
    OFFLINE_MESSAGE,
    REROLL_MESSAGE,
    UNMOVED_MESSAGE,
    UNSETTLED_MESSAGE,
)
from companion.camera.roller import RollResult
from vision.frames import CameraError
from vision.sources import SyntheticCamera
from vision.types import COCKED, DiceReading

from roller_parts import FakeClock, StandInReader, left_to_right as _left_to_right, roller_with as _roller


class NeverStill:
    """A tray whose dice never stop: every frame differs from the one before."""

    def __init__(self) -> None:
        self.views, self.count = [], 0
        for values in ([1], [6, 6]):
            camera = SyntheticCamera(9)
            camera.throw(values)
            self.views.append(camera.at_rest)

    def frame(self) -> np.ndarray:
        self.count += 1
        return self.views[self.count % 2].copy()


def test_dice_that_never_stop_end_at_the_deadline_even_without_a_still_time() -> None:
    clock = FakeClock()
    roller = _roller(NeverStill(), lambda frame: DiceReading(()), clock, still_seconds=0, max_wait_seconds=2)
    result = roller.roll((6,))
    assert (result.kind, result.message) == ("reroll", UNSETTLED_MESSAGE) and clock.now < 3


def test_low_confidence_recaptures_quietly_then_reads() -> None:
    camera, clock = SyntheticCamera(5), FakeClock()
    camera.throw([2, 6])
    reader = StandInReader(camera, confidence=lambda call: 0.5 if call <= 3 else 0.9)
    result = _roller(camera, reader, clock).roll((6, 6))
    assert result.kind == "read" and sorted(result.values) == [2, 6] and reader.calls == 6


def test_low_confidence_every_time_asks_for_a_reroll() -> None:
    camera, clock = SyntheticCamera(6), FakeClock()
    camera.throw([1, 1])
    reader = StandInReader(camera, confidence=lambda call: 0.5)
    result = _roller(camera, reader, clock, retries=2).roll((6, 6))
    assert (result.kind, result.message, result.values) == ("reroll", REROLL_MESSAGE, ())
    assert reader.calls == 9
    assert result.reading is not None and result.reading.values == _left_to_right(camera)  # its guess, for the phones
    assert result.sides == (6, 6) and len(result.crops) == 2
    assert all(crop[:2] == b"\xff\xd8" for crop in result.crops)


def test_frames_that_disagree_ask_for_a_reroll() -> None:
    camera, clock = SyntheticCamera(7), FakeClock()
    camera.throw([3, 4])
    result = _roller(camera, StandInReader(camera, flip=True), clock).roll()
    assert (result.kind, result.message) == ("reroll", REROLL_MESSAGE)


def test_a_cocked_die_asks_for_a_reroll() -> None:
    camera, clock = SyntheticCamera(8), FakeClock()
    camera.throw([5], cocked=(0,))
    result = _roller(camera, StandInReader(camera, flags=(COCKED,)), clock).roll((6,))
    assert (result.kind, result.message) == ("reroll", COCKED_MESSAGE)


class Unplugged:
    """A source whose camera works for `frames` frames and then is gone."""

    def __init__(self, camera: SyntheticCamera, frames: int) -> None:
        self.camera, self.left = camera, frames

    def frame(self) -> np.ndarray:
        self.left -= 1
        if self.left < 0:
            raise CameraError("The USB camera usb:0 stopped sending frames; is it unplugged?")
        return self.camera.frame()


@pytest.mark.parametrize("frames", [0, 4])
def test_a_lost_camera_means_enter_rolls_by_hand(frames: int) -> None:
    camera, clock = SyntheticCamera(9), FakeClock()
    camera.throw([6, 6])
    result = _roller(Unplugged(camera, frames), StandInReader(camera), clock).roll((6, 6))
    assert result == RollResult("offline", message=OFFLINE_MESSAGE)


class Restless:
    """A tray that never stops moving: two different frames, alternating."""

    def __init__(self) -> None:
        first, second = SyntheticCamera(1, motion_frames=0), SyntheticCamera(2, motion_frames=0)
        first.throw([1, 2])
        second.throw([3, 4])
        self.frames, self.count = (first.frame(), second.frame()), 0

    def frame(self) -> np.ndarray:
        self.count += 1
        return self.frames[self.count % 2]


def test_dice_that_never_settle_are_never_read() -> None:
    clock = FakeClock()
    reader = StandInReader(SyntheticCamera(0))
    result = _roller(Restless(), reader, clock, max_wait_seconds=3).roll((6, 6))
    assert (result.kind, result.message) == ("reroll", UNSETTLED_MESSAGE)
    assert reader.calls == 0 and clock.now == pytest.approx(3.0, abs=0.2)


class ThrowLater:
    """An empty tray that the dice land on once `after` frames were taken (or when `when()` says so)."""

    def __init__(self, camera: SyntheticCamera, values: list[int], after: int,
                 when: Callable[[], bool] = lambda: False) -> None:
        self.camera, self.values, self.after, self.when, self.count = camera, values, after, when, 0

    def frame(self) -> np.ndarray:
        self.count += 1
        if self.count == self.after or self.when():
            self.camera.throw(self.values)
            self.when = lambda: False
        return self.camera.frame()


def test_the_roller_waits_through_an_empty_tray_until_the_dice_land() -> None:
    camera, clock = SyntheticCamera(10), FakeClock()
    reader = StandInReader(camera)
    result = _roller(ThrowLater(camera, [4, 1], after=25), reader, clock).roll((6, 6))
    assert result.kind == "read" and sorted(result.values) == [1, 4]
    assert clock.now > 2.4 and reader.calls == 3


def test_dice_bumped_while_voting_are_settled_and_read_again() -> None:
    camera, clock = SyntheticCamera(11), FakeClock()
    camera.throw([2, 2])
    reader = StandInReader(camera)
    source = ThrowLater(camera, [5, 3], after=-1, when=lambda: reader.calls == 1)
    result = _roller(source, reader, clock).roll((6, 6))
    assert result.kind == "read" and sorted(result.values) == [3, 5] and reader.calls == 4


def test_a_roll_since_the_last_read_waits_for_the_dice_to_move() -> None:
    camera, clock = SyntheticCamera(14), FakeClock()
    camera.throw([2, 5])
    reader = StandInReader(camera)
    first = _roller(camera, reader, clock).roll((6, 6))
    again = _roller(camera, reader, clock, max_wait_seconds=2).roll((6, 6), since=first.scene)
    assert (again.kind, again.message) == ("reroll", UNMOVED_MESSAGE)
    camera.throw([1, 1])
    fresh = _roller(camera, reader, clock).roll((6, 6), since=first.scene)
    assert fresh.kind == "read" and fresh.values == (1, 1)
