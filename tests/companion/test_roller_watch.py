"""The roller's watch after a read, with the real reader on rendered trays: the same faces pass, other
faces or more dice are told, fewer dice are being picked up, a moving hand is waited out."""
from __future__ import annotations

import itertools

import cv2
import numpy as np

from companion.camera.roll_sentences import CAMERA_MOVED_MESSAGE, REROLL_MESSAGE, UNMOVED_MESSAGE
from companion.camera.roller import Roller, RollResult, Watch
from roller_parts import FakeClock, roller_with
from tray_scene import knocked
from vision.reader import read_dice
from vision.synthetic import render_dice


class Tray:
    """A camera over a tray a test arranges: `show` puts rendered dice down, still until the next `show`."""

    def __init__(self, values: list[int], seed: int = 1) -> None:
        self.show(values, seed)

    def show(self, values: list[int], seed: int = 1, *, shade: float = 1.0) -> None:
        """Lay `values` out as the renderer places them for `seed`; `shade` darkens the dice's half of the tray."""
        self.view = with_walls(render_dice(values, seed=seed)[0])
        self.view[:, 320:] = (self.view[:, 320:] * shade).astype(np.uint8)

    def knock(self, dx: float, dy: float, degrees: float = 0.0) -> None:
        """The camera is knocked: the whole view shifts by (dx, dy) px and turns by `degrees`."""
        self.view = knocked(self.view, dx, dy, degrees)

    def frame(self) -> np.ndarray:
        return self.view.copy()


def with_walls(floor: np.ndarray) -> np.ndarray:
    """The rendered floor inside a tray's wooden walls, as a camera over a dice tray sees it."""
    height, width = floor.shape[:2]
    cv2.rectangle(floor, (0, 0), (width - 1, height - 1), (40, 70, 110), 24)
    cv2.rectangle(floor, (12, 12), (width - 13, height - 13), (90, 140, 190), 3)
    return floor


def _read_then_watch(tray: Tray) -> tuple[Roller, RollResult]:
    roller = roller_with(tray, read_dice, FakeClock())
    result = roller.roll((6, 6))
    assert result.kind == "read" and sorted(result.values) == [3, 6]
    return roller, result


def test_watch_lets_a_shadow_or_a_nudge_pass_when_the_faces_stay_the_same() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    assert roller.watch(result) == Watch("same", scene=result.scene)  # nothing changed: no second read
    tray.show([6, 3], shade=0.55)  # a hand's shadow over the dice
    shadowed = roller.watch(result)
    assert shadowed.verdict == "same" and sorted(shadowed.now) == [3, 6] and shadowed.scene != result.scene
    tray.show([6, 3], seed=1, shade=0.9)  # the light changes a little
    assert roller.watch(result).verdict == "same"


def test_watch_tells_when_a_knocked_die_shows_another_face_or_a_die_is_added() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    tray.show([6, 5])
    knocked = roller.watch(result)
    assert knocked.verdict == "changed" and sorted(knocked.now) == [5, 6] and knocked.scene
    tray.show([6, 3, 2])
    added = roller.watch(result)
    assert added.verdict == "changed" and sorted(added.now) == [2, 3, 6]


def test_watch_tells_dice_thrown_again_from_a_knocked_die() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    tray.show([5, 2], seed=3)  # picked up and thrown again at once (three rolls in a row): not a knock
    again = roller.watch(result)
    assert again.verdict == "thrown" and sorted(again.now) == [2, 5] and again.dice is not None
    tray.show([6, 3], seed=2)  # thrown again onto the same faces, elsewhere
    assert roller.watch(result).verdict == "thrown"


def test_a_shadow_over_the_dice_of_the_last_read_is_no_new_roll() -> None:
    tray = Tray([6, 3])
    clock = FakeClock()
    roller, result = _read_then_watch(tray)
    tray.show([6, 3], shade=0.55)  # ROLL pressed, then an arm's shadow lies still over the dice: nobody threw
    waited = roller_with(tray, read_dice, clock, max_wait_seconds=3).roll((6, 6), since=result.scene,
                                                                          since_dice=result.reading)
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)
    tray.show([5, 2], seed=3, shade=0.55)  # now they are thrown, in the same shade
    thrown = roller_with(tray, read_dice, clock).roll((6, 6), since=result.scene, since_dice=result.reading)
    assert thrown.kind == "read" and sorted(thrown.values) == [2, 5]


def test_dice_left_on_the_tray_at_start_are_no_roll_in_other_light() -> None:
    tray = Tray([4, 1])  # read before the power cut, still lying there
    clock = FakeClock()
    scene, dice = roller_with(tray, read_dice, clock).resting()
    assert sorted(die.value for die in dice.dice) == [1, 4]
    tray.show([4, 1], shade=0.7)  # the evening light
    waited = roller_with(tray, read_dice, clock, max_wait_seconds=3).roll((6, 6), since=scene, since_dice=dice)
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)


def test_watch_sees_dice_being_picked_up_and_waits_out_a_moving_hand() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    tray.show([6])
    assert roller.watch(result).verdict == "gathered"
    tray.show([])
    assert roller.watch(result).verdict == "gathered"
    scenes = itertools.cycle([render_dice([6, 5], seed=seed)[0] for seed in (1, 3)])
    tray.frame = lambda: next(scenes).copy()  # a hand keeps moving the dice about
    assert roller.watch(result).verdict == "moving"
    assert roller.watch(RollResult("reroll", message=REROLL_MESSAGE)).verdict == "gathered"  # nothing read: nothing to watch


def test_a_die_taken_off_the_tray_leaves_no_new_roll_in_the_one_still_there() -> None:
    tray = Tray([6, 3])  # a rescue's D6 and D8 lie there (entered by hand, or left before a restart)
    clock = FakeClock()
    scene, dice = roller_with(tray, read_dice, clock).resting()
    x, y, width, height = max(dice.dice, key=lambda die: die.box[0]).box  # the die on the right is taken away
    margin = max(width, height) // 4
    rows, columns = slice(max(0, y - margin), y + height + margin), slice(max(0, x - margin), x + width + margin)
    tray.view[rows, columns] = with_walls(render_dice([], seed=1)[0])[rows, columns]
    waited = roller_with(tray, read_dice, clock, max_wait_seconds=3).roll((6,), since=scene, since_dice=dice)
    assert (waited.kind, waited.message) == ("reroll", UNMOVED_MESSAGE)  # not the D6 of the rescue read again


def test_dice_lying_as_they_did_under_a_knocked_camera_are_no_new_roll() -> None:
    tray = Tray([6, 3])
    clock = FakeClock()
    roller, result = _read_then_watch(tray)
    tray.knock(-45, -30, 1.0)  # ROLL pressed, and an elbow knocks the camera before anyone throws
    waited = roller_with(tray, read_dice, clock, max_wait_seconds=3).roll((6, 6), since=result.scene,
                                                                          since_dice=result.reading)
    assert (waited.kind, waited.message) == ("reroll", CAMERA_MOVED_MESSAGE)  # not 6 and 3 again
    tray.show([5, 2], seed=3)  # now they are thrown
    tray.knock(-45, -30, 1.0)
    thrown = roller_with(tray, read_dice, clock).roll((6, 6), since=result.scene, since_dice=result.reading)
    assert thrown.kind == "read" and sorted(thrown.values) == [2, 5]


def test_one_die_thrown_again_onto_its_face_elsewhere_on_the_same_floor_is_a_roll() -> None:
    tray = Tray([4], seed=1)
    clock = FakeClock()
    result = roller_with(tray, read_dice, clock).roll((6,))
    assert result.kind == "read" and result.values == (4,)
    floor = with_walls(render_dice([], seed=1)[0])  # the same floor, the 4 picked up and thrown to where seed 2 puts it
    elsewhere, (box,) = render_dice([4], seed=2)
    x, y, width, height = box
    floor[y:y + height, x:x + width] = elsewhere[y:y + height, x:x + width]
    tray.view = floor
    again = roller_with(tray, read_dice, clock).roll((6,), since=result.scene, since_dice=result.reading)
    assert again.kind == "read" and again.values == (4,)
    tray.knock(30, -35)  # a knock now: the 4 lies as it did
    waited = roller_with(tray, read_dice, clock, max_wait_seconds=3).roll((6,), since=again.scene,
                                                                          since_dice=again.reading)
    assert (waited.kind, waited.message) == ("reroll", CAMERA_MOVED_MESSAGE)


def test_watch_takes_a_hard_knock_for_the_same_dice_not_a_new_throw() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    tray.knock(-110, -60)  # about two die sides: dice that far apart were thrown, unless the view moved
    seen = roller.watch(result)
    assert seen.verdict == "same" and sorted(seen.now) == [3, 6]


def test_after_a_knock_the_watch_follows_the_dice_where_the_camera_now_sees_them() -> None:
    tray = Tray([6, 3])
    roller, result = _read_then_watch(tray)
    tray.knock(-110, -60)
    seen = roller.watch(result)
    assert seen.verdict == "same" and seen.shift is not None
    result = seen.followed(result)  # as the camera thread keeps it
    tray.show([6, 5])  # then the 3 is knocked onto a 5
    tray.knock(-110, -60)
    knocked = roller.watch(result)
    assert knocked.verdict == "changed" and sorted(knocked.now) == [5, 6]  # not a new throw: the dice lie where they did
