"""The reader's rules across one photo's spots: nested spots (a die's pips, a tray taken for one big die
around a die) and specks far smaller than the dice."""
from __future__ import annotations

import numpy as np

from vision.finder import Spot
from vision.nesting import without_nesting
from vision.marks import mark_outsized_ones, mark_specks
from vision.types import UNSURE, DieReading


def _chances(value: int, chance: float) -> np.ndarray:
    """Class chances (nothing, 1-6, not pips) with `chance` on `value` and the rest spread evenly."""
    spread = np.full(8, (1.0 - chance) / 7)
    spread[value] = chance
    return spread


def test_a_die_keeps_its_pips_out_and_its_views_agreeing() -> None:
    die = (Spot(100, 100, 60, 0.9), _chances(2, 0.95), True)
    pips = [(Spot(90, 90, 12, 0.5), _chances(1, 0.4), True), (Spot(110, 110, 12, 0.45), _chances(1, 0.4), True)]
    assert without_nesting([die, *pips]) == [die]


def test_a_tray_read_as_a_one_around_a_die_the_finder_was_surer_of_is_not_sure() -> None:
    tray = (Spot(660, 610, 680, 0.56), _chances(1, 0.89), True)
    numeral_die = (Spot(663, 609, 158, 0.78), _chances(3, 0.33), True)
    (kept,) = without_nesting([tray, numeral_die])
    assert kept[0] == tray[0] and kept[2] is False  # kept (surer reading) but no longer agreed: `unsure`


def test_a_big_two_whose_pips_the_finder_was_surer_of_stays_agreed() -> None:
    die = (Spot(245, 189, 244, 0.7), _chances(2, 0.95), True)  # a die filling the photo: its pips look like dice
    pips = [(Spot(217, 143, 52, 0.79), _chances(5, 0.3), True), (Spot(248, 251, 52, 0.7), _chances(6, 0.3), True)]
    assert without_nesting([die, *pips]) == [die]


def test_a_cluster_read_as_one_big_die_gives_way_to_its_dice() -> None:
    cluster = (Spot(100, 100, 120, 0.5), _chances(4, 0.5), True)
    dice = [(Spot(70, 70, 50, 0.9), _chances(5, 0.97), True), (Spot(130, 130, 50, 0.9), _chances(2, 0.97), True)]
    assert without_nesting([cluster, *dice]) == dice


def test_one_die_found_at_two_sizes_between_alike_and_nested_is_one_die() -> None:
    # tomitomi3 d6_2_00027.png: one die found 88 and 54 px wide at one place, both read as sure 2s (two dice, one
    # silently false). 54 / 88 = 0.61 was too big a face to nest (under 0.6) and too small to be alike (over 1 / 1.6).
    big = (Spot(68, 61, 88, 0.8), _chances(2, 0.97), True)
    small = (Spot(74, 61.5, 54, 0.7), _chances(2, 0.96), True)
    assert without_nesting([big, small]) == [big]


def test_a_neighbour_sized_too_big_does_not_swallow_the_die_beside_it() -> None:
    neighbour = (Spot(305, 234, 54, 0.76), _chances(4, 0.97), True)  # a red 4 of 35 px, found 54 px big
    beside = (Spot(315, 262, 30, 0.59), _chances(6, 0.97), True)  # its centre is inside that box, its face is not
    assert without_nesting([neighbour, beside]) == [neighbour, beside]


def test_a_speck_far_smaller_than_the_die_beside_it_is_unsure() -> None:
    die = DieReading(6, 1, (170, 128, 190, 190), 0.97)
    speck = DieReading(6, 1, (1, 403, 20, 20), 0.93)  # a patch of cloth at the frame's edge read as a 1
    assert mark_specks([die, speck]) == [die, DieReading(6, 1, (1, 403, 20, 20), 0.93, (UNSURE,))]


def test_dice_of_a_mixed_set_stay_sure() -> None:
    dice = [DieReading(6, 4, (10, 10, 38, 36), 0.98), DieReading(6, 2, (90, 10, 70, 72), 0.99)]  # about 2x apart
    assert mark_specks(dice) == dice


def test_a_one_far_bigger_than_the_dice_beside_it_is_unsure() -> None:
    # A fold that never saw nell-byler read the screw hole in its light table's corner as a sure 1 (IMG_20191209_100405.jpg).
    hole = DieReading(6, 1, (0, 0, 95, 91), 0.95)
    die = DieReading(6, 1, (268, 348, 35, 35), 0.97)
    assert mark_outsized_ones([hole, die]) == [DieReading(6, 1, (0, 0, 95, 91), 0.95, (UNSURE,)), die]


def test_a_big_one_of_a_mixed_set_and_a_big_one_beside_a_speck_stay_sure() -> None:
    mixed = [DieReading(6, 1, (90, 10, 70, 72), 0.99), DieReading(6, 4, (10, 10, 38, 36), 0.98)]  # about 2x apart
    assert mark_outsized_ones(mixed) == mixed
    beside_a_speck = [DieReading(6, 1, (170, 128, 190, 190), 0.97), DieReading(6, 3, (1, 403, 20, 20), 0.6, (UNSURE,))]
    assert mark_outsized_ones(beside_a_speck) == beside_a_speck


def test_a_small_unsure_die_keeps_its_flags_as_they_were() -> None:
    speck = DieReading(6, 3, (5, 5, 12, 12), 0.6, (UNSURE,))
    die = DieReading(6, 5, (40, 40, 120, 120), 0.99)
    assert mark_specks([speck, die]) == [speck, die]


def test_a_lone_dot_on_a_face_like_the_ground_is_an_unsure_one_and_other_faint_faces_stay_sure() -> None:
    # A finder trained with renders read a speck on a black tray (burksbuilds d8_A_5.jpg) as a sure 1: its face
    # stood 10 grey levels apart from the cloth, where every sure and right 1 of the shared photos stood 19.5 or more.
    from vision.reader import _die_from

    frame = np.zeros((200, 200, 3), np.uint8)
    spot = Spot(100, 100, 40, 0.9)
    assert _die_from(spot, _chances(1, 0.97), True, frame, faint=True).unsure
    assert not _die_from(spot, _chances(1, 0.97), True, frame).unsure
    assert not _die_from(spot, _chances(5, 0.97), True, frame, faint=True).unsure
