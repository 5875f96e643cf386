"""The roller reads: settle, read K still frames, vote; how many dice it counts, which it leaves to the players and
what it says (re-captures and re-rolls: test_roller_rerolls.py; the watch after a read: test_roller_watch.py)."""
from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.camera.roll_sentences import NO_DICE_MESSAGE, REROLL_MESSAGE, UNMOVED_MESSAGE
from companion.camera.roller import Roller
from vision.pictures import crop_jpeg
from vision.sources import SyntheticCamera
from vision.reader import read_dice
from vision.types import NOT_PIPS, OFF_TRAY, UNSURE, DiceReading, DieReading

from roller_parts import FakeClock, StandInReader, left_to_right as _left_to_right, roller_with as _roller


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

    result = _roller(camera, read, clock).roll((6,), others=(8,))  # a d8 + d6 roll: the d8 is entered by hand
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
    result = roller.roll((6,), others=(8,))
    assert result.kind == "read" and len(result.values) == 1
    shade[0] = 0.6  # a hand's shadow over the tray: the tray is read again
    assert roller.watch(result).verdict == "same"  # not "changed" for the d8 it sees beside the d6
    waited = _roller(Shaded(), read, clock, max_wait_seconds=2).roll((6,), since=result.scene, since_dice=result.lying)
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)  # the same d6 and d8 are no new roll


class D8Beside:
    """The roll's d6 on the left, the d8 on the right: `read` as the d6 reader takes it, `read_d8` as the d8 reader."""

    def __init__(self, camera: SyntheticCamera, d6_reads_d8: DieReading, d8: DieReading) -> None:
        self.camera, self.reader = camera, StandInReader(camera)
        self.d6_reads_d8, self.d8, self.d8_reads = d6_reads_d8, d8, 0

    def read(self, frame: np.ndarray) -> DiceReading:
        left, right = self.reader(frame).dice
        return DiceReading((left, replace(self.d6_reads_d8, box=right.box)))

    def read_d8(self, frame: np.ndarray) -> DiceReading:
        self.d8_reads += 1
        left, right = self.reader(frame).dice
        return DiceReading((left, replace(self.d8, box=right.box)))


UNSURE_PIPS = DieReading(6, 3, (0, 0, 1, 1), 0.6, (UNSURE,))  # how the d6 reader may take a d8 (its box is the d8's)
NO_PIPS = DieReading(6, None, (0, 0, 1, 1), 0.9, (NOT_PIPS, UNSURE))
SURE_D8 = DieReading(8, 7, (0, 0, 1, 1), 0.95)


@pytest.mark.parametrize("d6_reads_d8", [UNSURE_PIPS, NO_PIPS], ids=["unsure pips", "no pips"])
def test_a_d8_the_reader_is_sure_of_beside_the_read_d6_is_read_too(d6_reads_d8: DieReading) -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])  # the right one stands in for the d8
    table = D8Beside(camera, d6_reads_d8, SURE_D8)
    roller = _roller(camera, table.read, clock, read_d8=table.read_d8)
    result = roller.roll((6,), others=(8,))
    d6 = _left_to_right(camera)[0]
    assert (result.kind, result.values, result.sides, len(result.crops)) == ("read", (d6, 7), (6, 8), 2)
    assert result.d6_values == (d6,) and result.message == f"Rolled {d6} and 7."
    assert table.d8_reads == 1  # once, in the last voted frame
    assert roller.watch(result).verdict == "same"  # the watch reads the d6 again, not the d8
    waited = _roller(camera, table.read, clock, max_wait_seconds=2, read_d8=table.read_d8).roll(
        (6,), since=result.scene, since_dice=result.lying, others=(8,))
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)  # the same d6 and d8 are no new roll


@pytest.mark.parametrize("d8", [replace(SURE_D8, confidence=0.6, flags=(UNSURE,)), replace(SURE_D8, flags=(OFF_TRAY,)),
                                replace(SURE_D8, value=None, flags=(UNSURE,))],
                         ids=["unsure", "off the tray", "no numeral"])
def test_a_d8_the_reader_is_not_sure_of_is_left_to_the_players(d8: DieReading) -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    table = D8Beside(camera, UNSURE_PIPS, d8)
    result = _roller(camera, table.read, clock, read_d8=table.read_d8).roll((6,), others=(8,))
    d6 = _left_to_right(camera)[0]
    assert (result.kind, result.values, result.sides, len(result.crops)) == ("read", (d6,), (6,), 1)


def test_a_sure_d8_where_no_die_was_left_unread_is_not_the_rolls() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    table = D8Beside(camera, UNSURE_PIPS, SURE_D8)

    def read_d8(frame: np.ndarray) -> DiceReading:  # the d8 reader is sure of a d8, but on the left die
        left, right = table.reader(frame).dice
        return DiceReading((replace(SURE_D8, box=left.box), replace(UNSURE_PIPS, box=right.box)))

    result = _roller(camera, table.read, clock, read_d8=read_d8).roll((6,), others=(8,))
    assert (result.values, result.sides) == ((_left_to_right(camera)[0],), (6,))


def test_the_d8_reader_is_asked_only_for_a_roll_with_a_d8_beside() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    table = D8Beside(camera, replace(UNSURE_PIPS, value=5, confidence=0.95, flags=()), SURE_D8)  # two sure d6
    result = _roller(camera, table.read, clock, read_d8=table.read_d8).roll((6, 6))
    assert (result.kind, result.sides, table.d8_reads) == ("read", (6, 6), 0)
    other = _roller(camera, table.read, clock, read_d8=table.read_d8).roll((6,), others=(10,))  # no d8 reader for it
    assert (other.kind, table.d8_reads) == ("reroll", 0)


def test_when_it_cannot_tell_the_d8_from_the_d6_it_asks_again_rather_than_about_the_count() -> None:
    camera, clock = SyntheticCamera(3), FakeClock()
    camera.throw([3, 5])
    reader = StandInReader(camera)  # both read as sure pip dice: which one is the d8?
    result = _roller(camera, reader, clock).roll((6,), others=(8,))
    assert (result.kind, result.message) == ("reroll", REROLL_MESSAGE)


def test_one_die_expected_and_none_seen_is_asked_about_in_the_singular() -> None:
    camera, clock = SyntheticCamera(4), FakeClock()
    camera.throw([])
    result = _roller(camera, StandInReader(camera), clock).roll((6,))
    assert result.message == "I see no dice, expecting 1 — is it off the tray?"


def test_an_empty_tray_is_read_at_the_deadline_and_reported() -> None:
    camera, clock = SyntheticCamera(12), FakeClock()
    reader = StandInReader(camera)
    result = _roller(camera, reader, clock, max_wait_seconds=2).roll((6, 6))
    assert (result.kind, result.message) == ("wrong_count", "I see no dice, expecting 2 — are they off the tray?")
    result = _roller(camera, reader, clock, max_wait_seconds=2).roll()
    assert (result.kind, result.message) == ("reroll", NO_DICE_MESSAGE)


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
