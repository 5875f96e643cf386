"""The calibrated tray follows a knocked camera: matched with the view at calibration (never the frame before), so
dice by its walls stay on it, knocks do not add up, and a view that cannot be matched leaves the tray in place."""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tray_scene import TableTray, knocked, moved
from vision.places import on_tray
from vision.reader import read_dice
from vision.scoring import load_folder
from vision.settle import thumbnail
from vision.tray import CalibratedTray, find_tray, followed, read_view
from vision.types import OFF_TRAY, Box, DiceReading, DieReading
from vision.view_shift import floor


def calibrated(frame: np.ndarray, dice: tuple[Box, ...]) -> CalibratedTray:
    """The tray as `companion calibrate` saves it from this frame, whose dice lie at `dice`."""
    return CalibratedTray(find_tray(frame), floor(thumbnail(frame), dice, frame.shape[1]))


def lying_at(boxes: tuple[Box, ...]) -> DiceReading:
    return DiceReading(tuple(DieReading(6, 4, box, 0.99) for box in boxes))


def off(box: Box, expected: Box) -> float:
    return max(abs(got - wanted) for got, wanted in zip(box, expected))


def test_the_tray_moves_with_a_knocked_view_and_back() -> None:
    table = TableTray()
    table.show([4], seed=2)
    tray = calibrated(table.frame(), table.boxes)
    assert tray.where(table.frame(), read_dice(table.frame())) == tray.box  # unmoved
    for dx, dy in [(30, 0), (-50, 20), (0, -60), (90, -40), (0, 0)]:  # knocked again and again, then set back
        table.knock(dx, dy)
        frame = table.frame()
        x, y, width, height = tray.box
        assert off(tray.where(frame, read_dice(frame)), (x + dx, y + dy, width, height)) <= 4, (dx, dy)


def test_a_die_by_the_wall_stays_on_the_tray_after_a_knock() -> None:
    table = TableTray()
    table.show([5], seed=4)
    tray = calibrated(table.frame(), table.boxes)
    table.knock_past_the_wall(tray.box)
    frame = table.frame()
    reading = read_dice(frame)
    assert [OFF_TRAY in die.flags for die in on_tray(reading, tray.box).dice] == [True]  # as calibrated, it is off
    assert [(die.value, OFF_TRAY in die.flags) for die in tray.flagged(frame, reading)[0].dice] == [(5, False)]


@pytest.mark.parametrize("folder", ["nell-byler-d6", "matteop65-webcam-d6"])
def test_a_real_tray_is_followed_when_the_camera_is_knocked(shared_dice: Path, folder: str) -> None:
    rng = np.random.default_rng(8)
    photos = load_folder(shared_dice / folder)[::12]
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        boxes = photo.boxes or ()
        tray = calibrated(frame, boxes)
        dx, dy = rng.uniform(-25, 25, size=2)
        if math.hypot(dx, dy) < 8:  # under two thumbnail pixels: it may count as unmoved
            continue
        now = knocked(frame, dx, dy, rng.uniform(-2, 2))
        expected = followed(tray.box, (dx, dy), (frame.shape[1], frame.shape[0]))
        assert off(tray.where(now, lying_at(moved(boxes, dx, dy))), expected) <= 6, photo.path.name
    assert len(photos) > 10


def test_an_edge_the_frame_cut_stays_at_the_frame_edge() -> None:
    assert followed((0, 40, 300, 440), (25, -10), (640, 480)) == (0, 30, 325, 450)
    assert followed((100, 0, 540, 480), (-30, 12), (640, 480)) == (70, 0, 570, 480)
    assert followed((0, 0, 640, 480), (50, 50), (640, 480)) == (0, 0, 640, 480)  # no tray was found: the whole view
    assert followed((600, 400, 30, 30), (80, 90), (640, 480)) == (639, 479, 1, 1)  # knocked out of view: still a box


def test_without_a_view_to_match_the_tray_stays_where_it_was_calibrated() -> None:
    table = TableTray()
    table.show([4], seed=2)
    frame = table.frame()
    box = find_tray(frame)
    table.knock(40, 30)
    assert CalibratedTray(box).where(table.frame(), read_dice(table.frame())) == box  # calibrated before views were saved
    wide = cv2.resize(frame, (640, 360))  # another camera mode: its thumbnails are another shape
    assert calibrated(frame, table.boxes).where(wide, DiceReading(())) == box
    plain = np.full((480, 640, 3), 90, np.uint8)
    assert CalibratedTray(box, floor(thumbnail(plain), (), 640)).where(table.frame(), DiceReading(())) == box


def test_on_tray_sets_and_clears_the_flag_from_each_die_centre() -> None:
    reading = DiceReading((DieReading(6, 2, (10, 10, 20, 20), 0.9, (OFF_TRAY, "unsure")),
                           DieReading(6, 3, (190, 10, 20, 20), 0.9)))
    flagged = on_tray(reading, (0, 0, 100, 100))
    assert [die.flags for die in flagged.dice] == [("unsure",), (OFF_TRAY,)]
    assert on_tray(flagged, (0, 0, 100, 100)) == flagged


def test_a_view_that_is_not_calibrations_is_refused_with_a_sentence(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="grey 160-pixel-wide image"):
        CalibratedTray((0, 0, 10, 10), np.zeros((120, 160, 3), np.uint8))
    with pytest.raises(ValueError, match="cannot read the tray's view"):
        read_view(tmp_path / "gone.png")
    (tmp_path / "notes.png").write_text("not a picture")
    with pytest.raises(ValueError, match="is not a picture"):
        read_view(tmp_path / "notes.png")
    saved = tmp_path / "view.png"
    saved.write_bytes(cv2.imencode(".png", np.full((120, 160), 7, np.uint8))[1].tobytes())
    assert read_view(saved).shape == (120, 160)


def test_other_light_or_a_shadow_over_half_the_tray_does_not_move_it() -> None:
    table = TableTray()
    table.show([4], seed=2)
    tray = calibrated(table.frame(), table.boxes)
    table.show([6, 2], seed=5)  # other dice, elsewhere
    evening = (table.frame() * 0.55).astype(np.uint8)  # the lamp instead of daylight
    shadow = table.frame()
    shadow[:, 320:] = (shadow[:, 320:] * 0.5).astype(np.uint8)  # a player leans over half of it
    warm = table.frame()
    warm[:, :, 0] = (warm[:, :, 0] * 0.7).astype(np.uint8)  # a warmer bulb: less blue
    for frame in (evening, shadow, warm):
        assert tray.where(frame, read_dice(frame)) == tray.box
