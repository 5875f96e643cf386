"""Where dice lie: the same dice where they lay, or dice thrown somewhere else."""
from __future__ import annotations

from vision.places import left_lying, same_dice, thrown
from vision.types import DiceReading, DieReading


def _dice(*placed: tuple[int, int, int]) -> DiceReading:
    """Dice of side 40 px: (value, x, y) of each box's corner."""
    return DiceReading(tuple(DieReading(6, value, (x, y, 40, 40), 0.99) for value, x, y in placed))


def test_the_same_dice_where_they_lay_are_the_same_dice() -> None:
    before = _dice((3, 100, 100), (5, 300, 120))
    assert same_dice(before, _dice((5, 305, 118), (3, 98, 104)))  # a few pixels off: the reader's jitter
    assert not same_dice(before, _dice((3, 100, 100), (6, 300, 120)))  # a face turned
    assert not same_dice(before, _dice((3, 100, 100), (5, 360, 120)))  # a die slid by 1.5 sides
    assert not same_dice(before, _dice((3, 100, 100)))  # one taken away


def test_most_dice_far_away_is_a_throw_and_a_die_rolled_over_once_is_not() -> None:
    before = _dice((3, 100, 100), (5, 300, 120))
    assert thrown(before, _dice((2, 500, 400), (6, 40, 380)))
    assert not thrown(before, _dice((3, 100, 100), (2, 340, 120)))  # one die knocked one side over
    assert not thrown(_dice((4, 100, 100)), _dice((2, 140, 100)))
    assert thrown(_dice((4, 100, 100)), _dice((2, 300, 300)))
    assert not thrown(_dice(), _dice((2, 300, 300)))  # nothing was there to move


def test_the_dice_left_when_some_are_taken_away_are_left_lying() -> None:
    before = _dice((3, 100, 100), (5, 300, 120))
    assert left_lying(before, _dice((5, 302, 118)))  # the 3 was taken off the tray
    assert left_lying(before, before)
    assert not left_lying(before, _dice((6, 300, 120)))  # the 5 turned over: a new face
    assert not left_lying(before, _dice((5, 300, 120), (5, 302, 121)))  # a second 5 where one lay
    assert not left_lying(before, _dice())  # nothing left to read
