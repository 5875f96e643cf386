"""The roller: settle, read K still frames, vote, re-capture, ask for a re-roll (the watch after a read:
test_roller_watch.py)."""
from __future__ import annotations

import functools
from typing import Callable

import cv2
import numpy as np
import pytest

from companion.camera.roll_sentences import (
    COCKED_MESSAGE,
    NO_DICE_MESSAGE,
    OFFLINE_MESSAGE,
    REROLL_MESSAGE,
    UNMOVED_MESSAGE,
    UNSETTLED_MESSAGE,
)
from companion.camera.roller import Roller, RollResult
from vision.pictures import crop_jpeg
from vision.settle import motion, thumbnail
from vision.frames import CameraError
from vision.sources import SyntheticCamera
from vision.reader import read_dice
from vision.types import COCKED, NOT_PIPS, UNSURE, DiceReading, DieReading

from roller_parts import FakeClock, roller_with as _roller


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


def _left_to_right(camera: SyntheticCamera) -> tuple[int, ...]:
    return tuple(value for _, value in sorted(zip(camera.boxes, camera.values)))


def test_still_dice_are_read_with_crops_and_a_sentence() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    reader = StandInReader(camera)
    result = _roller(camera, reader, clock).roll((6, 6))
    assert result.kind == "read"
    assert result.values == _left_to_right(camera) and sorted(result.values) == [3, 5]
    assert result.sides == (6, 6)
    assert result.message in ("Rolled 3 and 5.", "Rolled 5 and 3.")
    assert reader.calls == 3 and clock.now >= 0.6
    for crop in result.crops:
        image = cv2.imdecode(np.frombuffer(crop, np.uint8), cv2.IMREAD_COLOR)
        assert max(image.shape[:2]) == 96
    assert result.reading is not None and result.reading.values == result.values


@pytest.mark.parametrize(("values", "message"), [
    ([4], "I see 1 die, expecting 2 — is one off the tray?"),
    ([4, 4, 4], "I see 3 dice, expecting 2 — is an extra die on the tray?"),
])
def test_the_wrong_number_of_dice_is_said_plainly(values: list[int], message: str) -> None:
    camera, clock = SyntheticCamera(4), FakeClock()
    camera.throw(values)
    result = _roller(camera, StandInReader(camera), clock).roll((6, 6))
    assert (result.kind, result.message, result.values) == ("wrong_count", message, ())
    assert len(result.crops) == len(values)


def test_dice_outside_the_calibrated_tray_are_not_part_of_the_roll() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    (x, y, width, height), value = sorted(zip(camera.boxes, camera.values))[0]  # the left die
    read = functools.partial(read_dice, tray=(x - 10, y - 10, width + 20, height + 20))
    one = _roller(camera, read, clock).roll((6,))
    assert (one.kind, one.values) == ("read", (value,))
    two = _roller(camera, read, clock).roll((6, 6))
    assert two.message == "I see 1 die, expecting 2 — is one off the tray? (1 die outside the tray as calibrated)"
    tray_moved = functools.partial(read_dice, tray=(0, 0, 20, 20))  # the camera was knocked since calibration
    none = _roller(camera, tray_moved, clock).roll((6, 6))
    assert none.message.endswith("(2 dice outside the tray as calibrated — has the camera moved? Then calibrate "
                                 "it again on the host page)")


def test_a_die_without_pips_beside_the_d6_is_left_to_the_players() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])  # the right one stands in for Gateway's d8, whose numerals the reader does not read
    reader = StandInReader(camera)

    def read(frame: np.ndarray) -> DiceReading:
        left, right = reader(frame).dice
        return DiceReading((left, DieReading(6, None, right.box, 0.9, (NOT_PIPS, UNSURE))))

    result = _roller(camera, read, clock).roll((6,))
    assert (result.kind, result.values, len(result.crops)) == ("read", (_left_to_right(camera)[0],), 1)


def test_a_d8_read_as_an_unsure_pip_die_beside_the_d6_is_left_to_the_players() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])  # the right one stands in for a real d8, which the reader takes for an unsure pip die
    reader = StandInReader(camera)

    def read(frame: np.ndarray) -> DiceReading:
        left, right = reader(frame).dice
        return DiceReading((left, DieReading(6, 3, right.box, 0.6, (UNSURE,))))

    result = _roller(camera, read, clock).roll((6,), others=1)  # a d8 + d6 roll: the d8 is entered by hand
    assert (result.kind, result.values, len(result.crops)) == ("read", (_left_to_right(camera)[0],), 1)
    assert result.beside is not None and len(result.beside.dice) == 1
    alone = _roller(camera, read, clock).roll((6,))  # no d8 awaited: two dice are one too many
    assert (alone.kind, alone.message) == ("wrong_count", "I see 2 dice, expecting 1 — is an extra die on the tray?")


def test_the_d8_beside_a_read_d6_is_no_new_die_when_a_shadow_passes() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    dice = sorted(zip(camera.boxes, camera.values))
    shade = [1.0]

    class Shaded:
        def frame(self) -> np.ndarray:
            return (camera.frame() * shade[0]).astype(np.uint8)

    def read(frame: np.ndarray) -> DiceReading:  # the d6 on the left, the d8 as an unsure pip die on the right
        return DiceReading((DieReading(6, dice[0][1], dice[0][0], 0.95), DieReading(6, 3, dice[1][0], 0.6, (UNSURE,))))

    roller = _roller(Shaded(), read, clock)
    result = roller.roll((6,), others=1)
    assert result.kind == "read" and len(result.values) == 1
    shade[0] = 0.6  # a hand's shadow over the tray: the tray is read again
    assert roller.watch(result).verdict == "same"  # not "changed" for the d8 it sees beside the d6
    waited = _roller(Shaded(), read, clock, max_wait_seconds=2).roll((6,), since=result.scene, since_dice=result.lying)
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)  # the same d6 and d8 are no new roll


def test_when_it_cannot_tell_the_d8_from_the_d6_it_asks_again_rather_than_about_the_count() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    reader = StandInReader(camera)  # both read as sure pip dice: which one is the d8?
    result = _roller(camera, reader, clock).roll((6,), others=1)
    assert (result.kind, result.message) == ("reroll", REROLL_MESSAGE)


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


def test_one_die_expected_and_none_seen_is_asked_about_in_the_singular() -> None:
    camera, clock = SyntheticCamera(4), FakeClock()
    camera.throw([])
    result = _roller(camera, StandInReader(camera), clock).roll((6,))
    assert result.message == "I see no dice, expecting 1 — is it off the tray?"


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


def test_an_empty_tray_is_read_at_the_deadline_and_reported() -> None:
    camera, clock = SyntheticCamera(12), FakeClock()
    reader = StandInReader(camera)
    result = _roller(camera, reader, clock, max_wait_seconds=2).roll((6, 6))
    assert (result.kind, result.message) == ("wrong_count", "I see no dice, expecting 2 — are they off the tray?")
    result = _roller(camera, reader, clock, max_wait_seconds=2).roll()
    assert (result.kind, result.message) == ("reroll", NO_DICE_MESSAGE)


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


def test_crops_keep_inside_the_frame_and_settings_are_checked() -> None:
    frame = np.zeros((100, 100, 3), np.uint8)
    assert crop_jpeg(frame, (90, 90, 30, 30)).startswith(b"\xff\xd8")
    with pytest.raises(ValueError, match="outside"):
        crop_jpeg(frame, (200, 200, 10, 10))
    with pytest.raises(ValueError):
        Roller(SyntheticCamera(0), lambda frame: DiceReading(()), frames_to_vote=0)


def test_with_the_real_reader_a_roll_is_read_right_or_not_at_all() -> None:
    from vision.reader import read_dice

    for seed in (1, 2):
        camera, clock = SyntheticCamera(seed), FakeClock()
        camera.throw()
        result = _roller(camera, read_dice, clock).roll((6, 6))
        assert result.kind in ("read", "reroll", "wrong_count")
        if result.kind == "read":
            assert result.values == _left_to_right(camera)
