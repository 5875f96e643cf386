"""The scoring rules the benchmark and the figure tests rely on."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.scoring import LabelledPhoto, score_photo
from vision.splits import choose_photos, near_duplicate_groups, split_like_the_source, split_photos
from vision.types import UNSURE, DiceReading, DieReading


def _die(value: int | None, box: tuple[int, int, int, int], unsure: bool = False) -> DieReading:
    return DieReading(6, value, box, 0.9, (UNSURE,) if unsure else ())


PHOTO = LabelledPhoto(Path("photo.jpg"), (3, 5), ((100, 100, 40, 40), (200, 100, 40, 40)))


def test_right_dice_inside_grown_boxes_count() -> None:
    reading = DiceReading((_die(3, (99, 101, 44, 42)), _die(5, (203, 98, 40, 40))))
    figures = score_photo(reading, PHOTO).figures()
    assert figures["per_die"] == 1.0 and figures["exact_photos"] == 1.0 and figures["false_per_photo"] == 0


def test_wrong_sure_value_is_a_silent_error_and_unsure_is_an_abstention() -> None:
    reading = DiceReading((_die(4, (100, 100, 40, 40)), _die(6, (200, 100, 40, 40), unsure=True)))
    tally = score_photo(reading, PHOTO)
    assert (tally.correct, tally.silent_errors, tally.abstained) == (0, 1, 1)


def test_die_far_from_any_label_is_false() -> None:
    reading = DiceReading((_die(3, (100, 100, 40, 40)), _die(5, (200, 100, 40, 40)), _die(1, (400, 400, 40, 40))))
    tally = score_photo(reading, PHOTO)
    assert tally.false_dice == 1 and tally.exact_photos == 0


def test_a_die_inside_two_touching_labels_belongs_to_the_one_it_sits_on() -> None:
    touching = LabelledPhoto(Path("touching.jpg"), (1, 6), ((116, 100, 33, 33), (100, 119, 36, 36)))
    reading = DiceReading((_die(6, (102, 112, 35, 35)),))  # centre 7 px from the 6's, 18 px from the 1's
    tally = score_photo(reading, touching)
    assert (tally.correct, tally.silent_errors, tally.false_dice) == (1, 0, 0)
    assert tally.misses == ["touching.jpg: missed a 1 at (116, 100, 33, 33)"]


def test_a_label_boxing_only_the_pips_belongs_to_the_read_face_around_it() -> None:
    pips_only = LabelledPhoto(Path("train_dice_1.jpg"), (1, 3), ((140, 140, 12, 12), (240, 150, 40, 12)))  # matteop65
    reading = DiceReading((_die(1, (110, 118, 50, 50)), _die(3, (236, 134, 52, 52))))  # faces 11 and 4 px off the pips'
    tally = score_photo(reading, pips_only)
    assert (tally.correct, tally.false_dice, tally.exact_photos) == (2, 0, 1), tally.misses


def test_photos_without_boxes_match_by_values() -> None:
    photo = LabelledPhoto(Path("numeral.jpg"), (4,), None)
    assert score_photo(DiceReading((_die(None, (0, 0, 9, 9), unsure=True),)), photo).silent_errors == 0
    assert score_photo(DiceReading((_die(2, (0, 0, 9, 9)),)), photo).silent_errors == 1
    assert score_photo(DiceReading((_die(4, (0, 0, 9, 9)),)), photo).exact_photos == 1


def test_split_is_stable_and_covers_every_photo() -> None:
    photos = [LabelledPhoto(Path(f"train_two_{number}.jpg"), (2,), None) for number in range(40)]
    dev, check = split_photos(photos)
    assert sorted(photo.path.name for photo in dev + check) == sorted(photo.path.name for photo in photos)
    assert abs(len(dev) - len(check)) <= 5
    assert split_photos(photos) == (dev, check)


def test_quarters_split_the_halves_and_leave_one_out() -> None:
    photos = [LabelledPhoto(Path(f"train_two_{number}.jpg"), (2,), None) for number in range(80)]
    names = [{photo.path.name for photo in choose_photos(photos, f"q{number}")} for number in range(1, 5)]
    dev, check = ({photo.path.name for photo in half} for half in split_photos(photos))
    assert names[0] | names[1] == dev and names[2] | names[3] == check
    assert not names[0] & names[1] and not names[2] & names[3]
    assert all(len(quarter) >= 10 for quarter in names)
    rest = {photo.path.name for photo in choose_photos(photos, "not-q3")}
    assert rest == names[0] | names[1] | names[3]


def _photo_of(folder: Path, name: str, values: tuple[int, ...], seed: int, noise: int = 0) -> LabelledPhoto:
    """A labelled photo written to `folder`: a random picture by `seed`, plus `noise` grey levels of jitter."""
    picture = np.random.default_rng(seed).integers(0, 256, (64, 64), dtype=np.uint8).astype(np.int16)
    picture += np.random.default_rng(seed + 1000).integers(-noise, noise + 1, picture.shape, dtype=np.int16)
    cv2.imwrite(str(folder / name), np.clip(picture, 0, 255).astype(np.uint8))
    return LabelledPhoto(folder / name, values, None)


def test_the_loose_split_keeps_near_duplicate_frames_together_and_the_values_even(tmp_path: Path) -> None:
    photos = [_photo_of(tmp_path, f"shot_{number}.png", (number % 6 + 1, (number * 5) % 6 + 1), seed=number)
              for number in range(30)]
    twin = _photo_of(tmp_path, "shot_30.png", photos[4].values, seed=4, noise=3)  # the same frame taken again
    other_dice = _photo_of(tmp_path, "shot_31.png", (6, 6), seed=7)  # the same picture, other labels: no twin
    photos += [twin, other_dice]
    groups = near_duplicate_groups(photos)
    assert [photos[4], twin] in groups and [photos[7]] in groups and [other_dice] in groups
    one, other = split_like_the_source(photos)
    assert sorted(photo.path.name for photo in one + other) == sorted(photo.path.name for photo in photos)
    assert (photos[4] in one) == (twin in one)
    assert abs(len(one) - len(other)) <= 2
    counts = [Counter(value for photo in half for value in photo.values) for half in (one, other)]
    assert all(abs(counts[0][value] - counts[1][value]) <= 2 for value in range(1, 7))
    assert split_like_the_source(list(reversed(photos))) == (one, other)
    assert choose_photos(photos, "loose-check") == other


def test_the_loose_split_names_a_photo_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="cannot read the photo .*gone.jpg to split its folder"):
        choose_photos([LabelledPhoto(tmp_path / "gone.jpg", (3,), None)], "loose-dev")


def test_an_unknown_share_of_photos_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown share of photos 'q5'"):
        choose_photos([], "q5")
