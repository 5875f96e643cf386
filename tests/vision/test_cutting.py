"""The networks' inputs: the finder's downscaled frame and the face reader's crops, cut the same way in training."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cutting import (
    CONTEXT, FACE_CROP, FINDER_MULTIPLE, cut_face, cut_views, face_contrast, finder_input, normalise, pyramid,
)


def _frame_with_a_mark() -> np.ndarray:
    """A grey 480x640 frame with a dark square centred at (400, 200) and a white dot right of it."""
    frame = np.full((480, 640, 3), 128, np.uint8)
    frame[180:220, 380:420] = 20
    frame[198:202, 430:434] = 255
    return frame


def test_finder_input_keeps_the_shape_and_leaves_the_frame_alone() -> None:
    frame = _frame_with_a_mark()
    before = frame.copy()
    blob, scale = finder_input(pyramid(frame), 256)
    assert np.array_equal(frame, before)
    assert scale == pytest.approx(256 / 640)
    assert blob.shape == (1, 3, 192, 256) and blob.dtype == np.float32
    assert blob.shape[2] % FINDER_MULTIPLE == 0 and 0.0 <= blob.min() and blob.max() <= 1.0
    darkest = np.unravel_index(np.argmin(blob[0, 0]), blob.shape[2:])
    assert abs(darkest[0] / scale - 200) < 25 and abs(darkest[1] / scale - 400) < 25


def test_odd_sizes_are_padded_to_the_finders_multiple() -> None:
    blob, _ = finder_input(pyramid(np.zeros((100, 130, 3), np.uint8)), 130)
    assert blob.shape[2] % FINDER_MULTIPLE == 0 and blob.shape[3] % FINDER_MULTIPLE == 0


def test_a_face_crop_is_centred_turned_and_mirrored_as_asked() -> None:
    frame = _frame_with_a_mark()
    images = pyramid(frame)
    plain = cut_face(images, 400, 200, 60)
    assert plain.shape == (FACE_CROP, FACE_CROP, 3)
    middle = FACE_CROP // 2
    assert plain[middle, middle, 0] < 40  # the dark square sits in the middle
    bright = np.unravel_index(np.argmax(plain[:, :, 0]), plain.shape[:2])
    assert bright[1] > middle + 4  # the dot lies to the right as seen
    turned = cut_face(images, 400, 200, 60, angle=90.0)
    assert not np.allclose(turned, plain)
    mirrored = cut_face(images, 400, 200, 60, mirror=True)
    assert np.argmax(mirrored[middle - 2: middle + 2].max(axis=(0, 2))) < middle - 4  # now on the left


def test_big_faces_are_cut_from_a_smaller_level_without_aliasing_to_noise() -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, (960, 960, 3)).astype(np.uint8)
    crop = cut_face(pyramid(noise), 480, 480, 600)
    assert crop.std() < 30  # averaged down, not sampled from single noisy pixels


def test_a_face_shrunk_less_than_a_level_is_smoothed_so_small_pips_do_not_come_and_go() -> None:
    noise = np.random.default_rng(2).integers(0, 256, (640, 640, 3)).astype(np.uint8)
    face = 1.9 * FACE_CROP / CONTEXT  # 1.9 frame pixels per crop pixel, from the frame itself
    for angle in (0.0, 33.0):
        crop = cut_face(pyramid(noise), 320, 320, face, angle)
        assert crop.std() < 30  # sampled unsmoothed, every 1.9th pixel keeps the noise's full spread (~74)


def test_several_views_of_one_face_are_the_crops_cut_one_by_one() -> None:
    noise = np.random.default_rng(3).integers(0, 256, (640, 640, 3)).astype(np.uint8)
    images = pyramid(noise)
    views = ((0.0, False), (90.0, True), (180.0, False), (270.0, True))
    for face in (20.0, 1.6 * FACE_CROP / CONTEXT, 300.0):  # unsmoothed, smoothed, from a smaller level
        together = cut_views(images, 300.5, 310.25, face, views)
        alone = [cut_face(images, 300.5, 310.25, face, angle, mirror) for angle, mirror in views]
        assert len(together) == len(views)
        assert all(np.array_equal(one, other) for one, other in zip(together, alone))
        assert not np.array_equal(together[0], together[1])


def test_a_face_off_the_frame_gives_the_replicated_edge() -> None:
    frame = _frame_with_a_mark()
    crop = cut_face(pyramid(frame), -500, -500, 45)
    assert crop.shape == (FACE_CROP, FACE_CROP, 3) and np.allclose(crop, 128)


def test_normalise_centres_each_crop_and_spares_flat_ones_from_stretching() -> None:
    busy = np.random.default_rng(1).uniform(0, 255, (FACE_CROP, FACE_CROP, 3)).astype(np.float32)
    flat = np.full((FACE_CROP, FACE_CROP, 3), 90.0, np.float32)
    flat[0, 0] = 92.0
    batch = normalise(np.stack([busy, flat]))
    assert batch.shape == (2, 3, FACE_CROP, FACE_CROP)
    assert abs(batch[0].mean()) < 1e-4 and batch[0].std() == pytest.approx(1.0, abs=1e-3)
    assert np.abs(batch[1]).max() < 0.25  # two grey levels of difference stay small


def test_face_contrast_tells_a_die_from_a_speck_on_black() -> None:
    speck = np.zeros((200, 200, 3), np.uint8)
    speck[99:102, 99:102] = 255
    die = np.full((200, 200, 3), 128, np.uint8)
    die[80:120, 80:120] = 240
    assert face_contrast(cut_face(pyramid(speck), 100, 100, 40)) < 4.0
    assert face_contrast(cut_face(pyramid(die), 100, 100, 40)) > 100.0
