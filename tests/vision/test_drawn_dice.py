"""Drawn whole dice at a slant for the face network: a real die's faces, its top face at the crop's centre."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cubes(monkeypatch: pytest.MonkeyPatch):
    """The drawn dice module, imported from scripts/ as the training script does."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training import cubes as module

    return module


def test_a_drawn_die_has_each_value_once_and_opposite_faces_sum_to_seven(cubes) -> None:
    rng = np.random.default_rng(3)
    for top in range(1, 7):
        for _ in range(20):
            sides = cubes.die_values(rng, top)
            assert sorted([top, 7 - top, *sides.values()]) == [1, 2, 3, 4, 5, 6]
            for (x, y, z), value in sides.items():
                assert sides[(-x, -y, -z)] == 7 - value


def test_from_straight_down_only_the_top_face_is_seen_and_it_is_the_whole_crop_face(cubes) -> None:
    seen = cubes.seen_faces(0.0, 37.0)
    assert list(seen) == [(0, 0, 1)]
    corners = seen[(0, 0, 1)]
    assert np.allclose(corners.mean(axis=0), 0.0)
    assert np.allclose(np.sort(np.hypot(*corners.T)), np.sqrt(0.5))  # a unit square about the centre


def test_from_low_down_the_top_face_is_squashed_at_the_centre_and_a_side_face_shows_below_it(cubes) -> None:
    seen = cubes.seen_faces(60.0, 0.0)
    top = seen.pop((0, 0, 1))
    assert np.allclose(top.mean(axis=0), 0.0)
    assert np.ptp(top[:, 1]) == pytest.approx(np.cos(np.radians(60.0)))  # a face 60 degrees off is half as tall
    assert len(seen) == 1  # seen square to one side: that side alone
    (side,) = seen.values()
    assert side[:, 1].min() == pytest.approx(top[:, 1].max())  # it hangs from the top face's near edge
    assert np.ptp(side[:, 1]) == pytest.approx(np.sin(np.radians(60.0)))


def test_a_drawn_crop_is_a_face_crop_and_its_centre_is_the_top_face(cubes) -> None:
    from vision.cutting import FACE_CROP

    rng = np.random.default_rng(5)
    middles, corners = [], []
    for _ in range(200):
        crop = cubes.cube_crop(rng, 1)
        assert crop.shape == (FACE_CROP, FACE_CROP, 3) and crop.dtype == np.float32
        assert 0 <= crop.min() and crop.max() <= 255
        grey = crop.mean(axis=2)
        middles.append(abs(grey[14:18, 14:18].mean() - np.median(grey[8:24, 8:24])))
        corners.append(abs(grey[8:12, 8:12].mean() - np.median(grey[8:24, 8:24])))
    assert np.median(middles) > 2 * np.median(corners)  # a 1's pip stands out at the centre, not off it


def test_the_face_network_takes_drawn_dice_at_their_shares_and_refuses_shares_of_all(cubes) -> None:
    from dice_training.data import synthetic_photos
    from dice_training.face_examples import CUBES, SHARES, SIDE_FACES, FaceExamples
    from vision.faces import NOTHING

    photos = synthetic_photos(2, 1)
    drawn = FaceExamples(photos, np.random.default_rng(1), cubes=0.2, sides=0.05)
    share = dict(zip(drawn.kinds, drawn.shares))
    assert share[CUBES] == pytest.approx(0.2) and share[SIDE_FACES] == pytest.approx(0.05)
    assert share["die"] == pytest.approx(0.75 * SHARES["die"])
    assert sum(share.values()) == pytest.approx(1.0)
    shipped = FaceExamples(photos, np.random.default_rng(1)).kinds
    assert CUBES not in shipped and SIDE_FACES not in shipped  # the shipped recipe draws none
    crop, value = drawn._example(CUBES)
    assert crop.shape[:2] == (32, 32) and 1 <= value <= 6
    assert all(drawn._example(SIDE_FACES)[1] == NOTHING for _ in range(5))  # a side face is no top face
    for cubes_share, sides_share in ((1.0, 0.0), (0.6, 0.4), (-0.1, 0.2)):
        with pytest.raises(ValueError, match="shares of drawn dice"):
            FaceExamples(photos, np.random.default_rng(1), cubes=cubes_share, sides=sides_share)


def test_speckled_ground_is_taught_as_no_die_at_its_share_and_the_shipped_recipe_draws_none(cubes) -> None:
    from dice_training.data import synthetic_photos
    from dice_training.face_examples import SHARES, SPECKLED, FaceExamples
    from dice_training.renders import speckled_crop
    from vision.cutting import FACE_CROP
    from vision.faces import NOTHING

    photos = synthetic_photos(2, 1)
    drawn = FaceExamples(photos, np.random.default_rng(1), specks=0.1)
    share = dict(zip(drawn.kinds, drawn.shares))
    assert share[SPECKLED] == pytest.approx(0.1) and share["ground"] == pytest.approx(0.9 * SHARES["ground"])
    assert SPECKLED not in FaceExamples(photos, np.random.default_rng(1)).kinds
    assert all(drawn._example(SPECKLED)[1] == NOTHING for _ in range(5))
    rng, specks = np.random.default_rng(4), []
    for _ in range(50):
        crop = speckled_crop(rng)
        assert crop.shape == (FACE_CROP, FACE_CROP, 3) and 0 <= crop.min() and crop.max() <= 255
        grey = crop.mean(axis=2)
        specks.append(np.abs(grey - cv2.GaussianBlur(grey, (0, 0), 4))[8:24, 8:24].max())
    assert np.median(specks) > 30  # specks in the face's square stand out of the ground (its grain: about 10)
    with pytest.raises(ValueError, match="shares of drawn dice and ground"):
        FaceExamples(photos, np.random.default_rng(1), cubes=0.5, specks=0.5)
