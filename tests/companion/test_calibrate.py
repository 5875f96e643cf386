"""Calibration: the tray is found, the die measured, the exposure locked, the config updated in place."""
from __future__ import annotations

import functools
import stat
from pathlib import Path

import numpy as np
import pytest

from companion import config

from companion.camera import calibrate
from vision.frames import CameraError
from vision.tray import find_tray, read_view
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


TRAY = [10, 20, 300, 200]


@pytest.mark.parametrize("text, kept", [
    ('[camera]  # the tray camera\nsource = "pi"\n', "# the tray camera"),
    ('[ camera ]\nsource = "pi"\n', "[ camera ]"),
    ('demo = false\ncamera.source = "pi"\n\n[web]\nport = 8080\n', "[web]"),
    ('[camera]\n# die_px = 48 (the old camera)\ndie_px = 40\n', "# die_px = 48 (the old camera)"),
    ('[camera]\ntray = [\n  1, 2,\n  300, 300,\n]\ndie_px = 40  # measured by hand\n', "# measured by hand"),
    ('[camera]\r\nsource = "pi"  # the ribbon one\r\ndie_px = 40\r\n', "# the ribbon one"),
])
def test_calibration_updates_any_valid_config_keeping_its_comments(tmp_path: Path, text: str, kept: str) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(text.encode())
    calibrate.save(path, {"tray": TRAY, "die_px": 52})
    written = path.read_bytes().decode()
    loaded = config.load(path).camera
    assert loaded.tray == tuple(TRAY) and loaded.die_px == 52
    assert kept in written
    if "\r\n" in text:  # a file edited on Windows keeps its line ends
        assert written.count("\n") == written.count("\r\n")


def test_calibrating_a_linked_config_updates_the_file_it_links_to(tmp_path: Path) -> None:
    real = tmp_path / "etc" / "companion.toml"
    real.parent.mkdir()
    real.write_text('[web]\nport = 8080\n')
    link = tmp_path / "companion.toml"
    link.symlink_to(real)
    calibrate.save(link, {"tray": TRAY})
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert config.load(real).camera.tray == tuple(TRAY)


def test_a_recalibration_that_sees_no_die_drops_the_old_die_size(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[camera]\ntray = [1, 2, 300, 200]\ndie_px = 48\n')
    found = calibrate.measure(_PiLike(), lambda frame: DiceReading(()), sleep=lambda seconds: None)
    calibrate.save(path, found)
    assert config.load(path).camera.die_px is None  # a die size from before the camera moved would mislead the reader
    assert "no die size is saved" in calibrate.describe(found)


def test_a_tray_that_leaves_out_the_dice_on_it_is_not_saved(tmp_path: Path) -> None:
    def reader(frame: np.ndarray) -> DiceReading:  # one die on the tray, one on the table beside it
        return DiceReading((DieReading(6, 3, (200, 150, 40, 42), 0.99), DieReading(6, 5, (580, 420, 40, 40), 0.99)))

    with pytest.raises(calibrate.CalibrationRefused, match="leaves out 1 of the 2 dice"):
        calibrate.measure(_PiLike(), reader, sleep=lambda seconds: None)


class _BrokenCamera:
    def frame(self) -> np.ndarray:
        raise CameraError("The Pi camera stopped giving frames (timeout).")

    def close(self) -> None:
        pass


def _calibrate_command(monkeypatch: pytest.MonkeyPatch, camera: object, config_path: Path) -> int:
    from companion import cli
    from companion.camera import calibrate as calibration
    from vision import sources

    monkeypatch.setattr(sources, "open_source", lambda spec: camera)
    monkeypatch.setattr(calibration, "measure", functools.partial(calibration.measure, sleep=lambda seconds: None))
    return cli.main(["calibrate", "--config", str(config_path), "--camera", "pi"])


def test_a_camera_failing_while_calibrating_is_one_sentence_and_saves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nport = 8080\n')
    assert _calibrate_command(monkeypatch, _BrokenCamera(), path) == 2
    error = capsys.readouterr().err
    assert "failed while calibrating" in error and "Nothing was saved" in error and "Traceback" not in error
    assert path.read_text() == '[web]\nport = 8080\n'


def test_a_config_that_cannot_be_written_is_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    missing_folder = tmp_path / "no such folder" / "companion.toml"
    assert _calibrate_command(monkeypatch, _PiLike(), missing_folder) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion: There is no folder") and error.count("\n") == 1
    assert not missing_folder.parent.exists()


def test_the_calibrate_command_tells_to_restart_the_companion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "companion.toml"
    monkeypatch.setattr("vision.reader.read_dice", _reader)
    assert _calibrate_command(monkeypatch, _PiLike(), path) == 0
    assert "restart the companion" in capsys.readouterr().out
    assert config.load(path).camera.die_px == 43


def test_the_camera_calibrated_is_the_one_the_table_then_uses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[camera]\nsource = "usb:0"\n')  # the webcam used before the Pi camera was fitted
    monkeypatch.setattr("vision.reader.read_dice", _reader)
    assert _calibrate_command(monkeypatch, _PiLike(), path) == 0  # --camera pi
    assert config.load(path).camera.source == "pi"  # not the webcam, with the Pi camera's tray and exposure
    assert "Calibrated: camera pi; tray" in capsys.readouterr().out


def test_a_failed_write_leaves_the_old_config_and_no_stray_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nport = 8080\n')

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    for step in ("fsync", "replace"):  # the disk fills while writing, or at the last step
        with monkeypatch.context() as patch:
            patch.setattr(calibrate.os, step, full_disk)
            with pytest.raises(OSError):
                calibrate.save(path, {"tray": TRAY})
    assert path.read_text() == '[web]\nport = 8080\n' and [entry.name for entry in tmp_path.iterdir()] == ["companion.toml"]


def test_a_config_link_that_leads_in_a_circle_is_one_sentence_before_the_camera_opens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    opened: list[str] = []
    monkeypatch.setattr("vision.sources.open_source", lambda spec: opened.append(spec) or _PiLike())
    from companion.cli import main

    assert main(["calibrate", "--config", str(tmp_path / "a.toml"), "--camera", "pi"]) == 2
    assert "leads in a circle" in capsys.readouterr().err and opened == []


def test_the_gains_are_saved_as_the_camera_gave_them_so_they_stay_within_its_range(tmp_path: Path) -> None:
    class TopGain(_PiLike):
        def lock_exposure(self) -> dict:
            return {"ExposureTime": 66000, "AnalogueGain": 10.666666984558105, "ColourGains": (1.8, 1.4)}

    found = calibrate.measure(TopGain(), _reader, sleep=lambda seconds: None)
    assert found["analogue_gain"] <= 10.666666984558105  # a camera whose highest gain is that refuses 10.667
    path = tmp_path / "companion.toml"
    calibrate.save(path, found)
    assert config.load(path).camera.analogue_gain == 10.666666984558105


def test_a_config_the_user_may_not_write_is_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def refused(path: Path, settings: dict) -> None:  # as for a user without sudo on /etc/companion
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(calibrate, "save", refused)
    assert _calibrate_command(monkeypatch, _PiLike(), tmp_path / "companion.toml") == 2
    error = capsys.readouterr().err
    assert error.startswith("companion: cannot write the config file") and "Permission denied" in error
    assert error.count("\n") == 1


def test_a_camera_without_colour_is_calibrated_without_colour_gains(tmp_path: Path) -> None:
    class Monochrome(_PiLike):
        def lock_exposure(self) -> dict:
            return {"ExposureTime": 9000, "AnalogueGain": 4.0}

    path = tmp_path / "companion.toml"
    path.write_text('[camera]\nexposure_us = 1\nanalogue_gain = 1.0\ncolour_gains = [1.0, 1.0]\n')  # a colour camera before
    calibrate.save(path, calibrate.measure(Monochrome(), _reader, sleep=lambda seconds: None))
    assert config.load(path).camera.locked_exposure == {"ExposureTime": 9000, "AnalogueGain": 4.0}


def _view_files(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir() if entry.suffix == ".png")


def test_calibration_keeps_the_trays_view_beside_the_config_and_drops_the_one_before(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[web]\nport = 8080\n')
    found = calibrate.measure(_PiLike(), _reader, sleep=lambda seconds: None)
    assert found["tray_view"].shape == (120, 160) and "its view kept" in calibrate.describe(found)
    calibrate.save(path, found)
    first = config.load(path).camera.tray_view
    assert first is not None and first.parent == tmp_path and first.name.startswith("companion-tray-view-")
    assert np.array_equal(read_view(first), found["tray_view"])
    calibrate.save(path, found)  # the same view again: the same file, kept
    assert config.load(path).camera.tray_view == first and _view_files(tmp_path) == [first.name]
    calibrate.save(path, {**found, "tray_view": found["tray_view"] // 2})  # the camera was moved and calibrated again
    second = config.load(path).camera.tray_view
    assert second is not None and second != first and _view_files(tmp_path) == [second.name]


def test_a_view_the_config_names_by_hand_is_never_removed(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[camera]\ntray_view = "my-tray.png"\n')
    (tmp_path / "my-tray.png").write_bytes(b"kept by the owner")
    calibrate.save(path, calibrate.measure(_PiLike(), _reader, sleep=lambda seconds: None))
    assert (tmp_path / "my-tray.png").read_bytes() == b"kept by the owner" and len(_view_files(tmp_path)) == 2


def test_a_config_that_cannot_be_written_keeps_its_view_and_leaves_no_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "companion.toml"
    found = calibrate.measure(_PiLike(), _reader, sleep=lambda seconds: None)
    calibrate.save(path, found)
    first, before = config.load(path).camera.tray_view, path.read_text()
    written = calibrate.replace_file

    def config_fails(target: Path, data: bytes, *, like: Path) -> None:  # the view is written, then the disk fills
        if target.suffix == ".toml":
            raise OSError(28, "No space left on device")
        written(target, data, like=like)

    monkeypatch.setattr(calibrate, "replace_file", config_fails)
    with pytest.raises(OSError):
        calibrate.save(path, {**found, "tray_view": found["tray_view"] // 2})
    assert path.read_text() == before and first is not None and _view_files(tmp_path) == [first.name]
    with pytest.raises(config.ConfigError):  # a setting that would not load: nothing is written, no view either
        calibrate.save(path, {**found, "tray": [0, 0, 2, 2], "tray_view": found["tray_view"] // 3})
    assert path.read_text() == before and _view_files(tmp_path) == [first.name]
