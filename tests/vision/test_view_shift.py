"""Whether the camera moved: a knock (real photos shifted and turned) is found with its shift; dice thrown
on an unmoved tray, a frame with fresh sensor noise, or one die thrown again on a bare floor are not."""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tray_scene import knocked, moved
from vision.scoring import load_folder
from vision.settle import thumbnail
from vision.sources import SyntheticCamera
from vision.view_shift import view_shift

KNOCKED_FOLDERS = ("nell-byler-d6", "matteop65-webcam-d6")


@pytest.mark.parametrize("folder", KNOCKED_FOLDERS)
def test_a_knock_on_a_real_tray_is_found_with_its_shift(shared_dice: Path, folder: str) -> None:
    rng = np.random.default_rng(5)
    photos = load_folder(shared_dice / folder)[::6]
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        dx, dy = rng.uniform(-25, 25, size=2)
        degrees = rng.uniform(-2, 2)
        boxes = photo.boxes or ()
        shift = view_shift(thumbnail(frame), thumbnail(knocked(frame, dx, dy, degrees)), boxes,
                           moved(boxes, dx, dy), frame.shape[1])
        if math.hypot(dx, dy) < 8:  # under two thumbnail pixels: it may count as unmoved
            continue
        assert shift is not None, f"{photo.path.name}: a knock of ({dx:.0f}, {dy:.0f}) px not seen"
        assert math.hypot(shift[0] - dx, shift[1] - dy) < 6, f"{photo.path.name}: {shift} for ({dx:.0f}, {dy:.0f})"
    assert len(photos) > 20


@pytest.mark.parametrize("folder", KNOCKED_FOLDERS)
def test_a_real_tray_seen_again_has_not_moved(shared_dice: Path, folder: str) -> None:
    rng = np.random.default_rng(6)
    for photo in load_folder(shared_dice / folder)[::12]:
        frame = cv2.imread(str(photo.path))
        noisy = cv2.add(frame, rng.normal(0, 3, frame.shape).astype(np.int16), dtype=cv2.CV_8U)  # the sensor's grain
        boxes = photo.boxes or ()
        assert view_shift(thumbnail(frame), thumbnail(noisy), boxes, boxes, frame.shape[1]) is None, photo.path.name


def test_one_die_thrown_again_onto_the_same_face_on_a_bare_floor_is_no_knock() -> None:
    """On a floor with nothing on it to match, the die itself would match itself at its new place."""
    for seed in range(30):
        camera = SyntheticCamera(seed, dice=1)
        before = _thrown(camera, 5)
        boxes_before = camera.boxes
        now = _thrown(camera, 5)
        assert view_shift(thumbnail(before), thumbnail(now), boxes_before, camera.boxes, now.shape[1]) is None, seed


def test_a_knock_over_the_synthetic_tray_is_found() -> None:
    camera = SyntheticCamera(3, dice=2)
    before = _thrown(camera, 2)
    after = knocked(before, -40, 30, 1.0)
    shift = view_shift(thumbnail(before), thumbnail(after), camera.boxes, moved(camera.boxes, -40, 30), 640)
    assert shift is not None and math.hypot(shift[0] + 40, shift[1] - 30) < 6


def test_views_of_different_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="different sizes"):
        view_shift(np.zeros((120, 160, 3), np.uint8), np.zeros((90, 160, 3), np.uint8), (), (), 640)


def _thrown(camera: SyntheticCamera, value: int) -> np.ndarray:
    """A still frame of the camera after a throw of one `value` (the others random)."""
    camera.throw([value] + [int(v) for v in np.random.default_rng(value).integers(1, 7, camera.dice - 1)])
    for _ in range(camera.motion_frames):  # the tumbling frames
        camera.frame()
    return camera.frame()
