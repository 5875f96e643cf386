"""Calibration: the tray is found, the die measured, the exposure locked, the config updated in place."""
from __future__ import annotations

import stat
from pathlib import Path

import numpy as np

from companion import calibrate, config
from vision.tray import find_tray
from vision.types import DiceReading, DieReading

EXAMPLE = Path(__file__).resolve().parents[2] / "companion.example.toml"


def _tray_frame() -> np.ndarray:
    frame = np.full((480, 640, 3), 40, np.uint8)
    frame[100:400, 150:550] = (200, 200, 190)  # a light tray on a dark table
    return frame


def test_the_tray_is_the_largest_outline_and_the_frame_is_not_changed() -> None:
    frame = _tray_frame()
    before = frame.copy()
    x, y, w, h = find_tray(frame)
    assert abs(x - 150) <= 6 and abs(y - 100) <= 6 and abs(w - 400) <= 12 and abs(h - 300) <= 12
    assert np.array_equal(frame, before)


def test_a_plain_frame_gives_the_whole_frame() -> None:
    assert find_tray(np.full((240, 320, 3), 90, np.uint8)) == (0, 0, 320, 240)


class _PiLike:
    def __init__(self) -> None:
        self.locked = False

    def lock_exposure(self) -> dict:
        self.locked = True
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def frame(self) -> np.ndarray:
        return _tray_frame()


def _reader(frame: np.ndarray) -> DiceReading:
    return DiceReading((DieReading(6, 3, (200, 150, 40, 42), 0.99), DieReading(6, 5, (300, 200, 44, 40), 0.99)))


def test_calibration_is_saved_into_the_config_keeping_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(EXAMPLE.read_text())
    camera = _PiLike()
    found = calibrate.measure(camera, _reader, sleep=lambda seconds: None)
    calibrate.save(path, found)
    assert camera.locked
    loaded = config.load(path).camera
    assert loaded.die_px == 43 and loaded.tray is not None and loaded.exposure_us == 12000
    assert loaded.locked_exposure == {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}
    assert "# BCM pin numbers." in path.read_text()  # the rest of the file is untouched
    assert "die size 43 px" in calibrate.describe(found)


def test_a_calibrated_config_can_still_be_read_by_whoever_could_read_it(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nport = 8080\n')
    path.chmod(0o640)  # e.g. root:companion, as the service reads it
    calibrate.save(path, {"tray": [1, 2, 300, 200]})
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and config.load(path).camera.tray == (1, 2, 300, 200)
    fresh = tmp_path / "new.toml"
    calibrate.save(fresh, {"die_px": 40})
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # not the private 0600 of a temporary file


def test_calibration_adds_a_camera_table_when_there_is_none(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nport = 8080\n')
    calibrate.save(path, {"tray": [1, 2, 300, 200]})
    assert config.load(path).camera.tray == (1, 2, 300, 200)
