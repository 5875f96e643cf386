"""The host page's picture of the camera's view: the frame left as it was, shrunk to the page, the tray and every
die marked in the colour that says how it was read."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pictures import OFF_TRAY_COLOUR, SURE_COLOUR, TRAY_COLOUR, UNSURE_COLOUR, marked_view
from vision.types import OFF_TRAY, UNSURE, DiceReading, DieReading

DICE = DiceReading((DieReading(6, 4, (100, 100, 80, 80), 0.99), DieReading(6, 2, (400, 300, 80, 80), 0.6, (UNSURE,)),
                    DieReading(6, 5, (1100, 700, 80, 80), 0.98, (OFF_TRAY,))))


def test_the_view_is_shrunk_to_the_page_and_every_die_is_marked_in_its_colour() -> None:
    frame = np.full((960, 1280, 3), 128, np.uint8)
    before = frame.copy()
    view = cv2.imdecode(np.frombuffer(marked_view(frame, (50, 50, 1000, 800), DICE), np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(frame, before)
    assert view.shape == (480, 640, 3)
    for (x, y), colour in (((25, 100), TRAY_COLOUR), ((50, 70), SURE_COLOUR), ((200, 170), UNSURE_COLOUR),
                           ((550, 370), OFF_TRAY_COLOUR)):
        assert np.abs(view[y, x].astype(int) - colour).max() < 40, (x, y, view[y, x], colour)


def test_a_small_frame_is_not_blown_up_and_no_tray_is_drawn_when_none_was_calibrated() -> None:
    frame = np.full((240, 320, 3), 128, np.uint8)
    view = cv2.imdecode(np.frombuffer(marked_view(frame, None, DiceReading(())), np.uint8), cv2.IMREAD_COLOR)
    assert view.shape == (240, 320, 3) and np.abs(view.astype(int) - 128).max() < 6


@pytest.mark.parametrize("frame", [np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32), "a frame"])
def test_anything_but_a_colour_picture_is_refused(frame: object) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        marked_view(frame, None, DiceReading(()))  # type: ignore[arg-type]
