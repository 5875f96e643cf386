"""A calibration made on the host page, kept in the state folder: used while the config's camera settings are
those it was made over, set aside once they change, and never half-written."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.camera import calibrate

from companion.camera import calibration_store
from companion.config import Camera, ConfigError
from file_modes import bound_by_file_modes

CONFIG = Camera(source="pi", tray=(10, 10, 300, 200), die_px=40)
FOUND = {"tray": [20, 30, 400, 250], "die_px": 52, "exposure_us": 12000, "analogue_gain": 2.5,
         "colour_gains": [1.9, 1.4], "tray_view": np.full((120, 160), 90, np.uint8)}


def test_a_kept_calibration_is_used_over_the_config_it_was_made_over(tmp_path: Path) -> None:
    used = calibration_store.keep(tmp_path, FOUND, config=CONFIG)
    assert (used.tray, used.die_px, used.exposure_us, used.colour_gains) == ((20, 30, 400, 250), 52, 12000, (1.9, 1.4))
    assert used.tray_view is not None and used.tray_view.parent == tmp_path and used.tray_view.exists()
    warnings: list[str] = []
    assert calibration_store.kept(CONFIG, tmp_path, warnings) == used and warnings == []


def test_a_config_calibrated_again_since_wins(tmp_path: Path) -> None:
    calibration_store.keep(tmp_path, FOUND, config=CONFIG)
    newer = replace(CONFIG, tray=(0, 0, 640, 480))  # `companion calibrate` run again, or the file edited
    assert calibration_store.kept(newer, tmp_path, []) == newer
    assert calibration_store.kept(replace(CONFIG, source="usb:0"), tmp_path, []).tray == CONFIG.tray


def test_without_a_kept_calibration_the_config_is_used(tmp_path: Path) -> None:
    assert calibration_store.kept(CONFIG, tmp_path, []) == CONFIG


@pytest.mark.parametrize("text", ["{", "[]", '{"camera": {"tray": [1, 2]}, "over": null}', "\xff"])
def test_a_kept_file_that_is_not_one_is_a_warning_and_the_config_is_used(tmp_path: Path, text: str) -> None:
    (tmp_path / calibration_store.FILE).write_text(text, encoding="latin-1")
    if text.startswith('{"camera"'):  # made over these very settings, but its tray is no tray
        (tmp_path / calibration_store.FILE).write_text(text.replace("null", _over(CONFIG)))
    warnings: list[str] = []
    assert calibration_store.kept(CONFIG, tmp_path, warnings) == CONFIG
    assert len(warnings) == 1 and "cannot be used" in warnings[0] and "calibrate again from the host page" in warnings[0]


def test_calibrating_again_replaces_the_old_view_and_a_bad_old_file(tmp_path: Path) -> None:
    (tmp_path / calibration_store.FILE).write_text("{")
    first = calibration_store.keep(tmp_path, FOUND, config=CONFIG)
    second = calibration_store.keep(tmp_path, {**FOUND, "tray_view": np.full((120, 160), 30, np.uint8)}, config=CONFIG)
    assert first.tray_view is not None and not first.tray_view.exists()
    assert second.tray_view is not None and second.tray_view.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([calibration_store.FILE, second.tray_view.name])


def test_a_value_the_config_would_refuse_keeps_nothing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="colour_gains"):
        calibration_store.keep(tmp_path, {**FOUND, "colour_gains": [40.0, 1.0]}, config=CONFIG)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = calibrate.replace_file

    def full(target: Path, data: bytes, *, like: Path) -> None:
        if target.name == calibration_store.FILE:
            raise OSError(28, "No space left on device")
        written(target, data, like=like)

    monkeypatch.setattr(calibrate, "replace_file", full)
    with pytest.raises(OSError):
        calibration_store.keep(tmp_path, FOUND, config=CONFIG)
    assert list(tmp_path.iterdir()) == []


def _over(camera: Camera) -> str:
    import json

    return json.dumps(calibration_store.fingerprint(camera))


def test_check_config_says_the_host_pages_calibration_is_used_over_the_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = tmp_path / "companion.toml"
    path.write_text(f'[camera]\nsource = "pi"\ntray = [10, 10, 300, 200]\ndie_px = 40\n[state]\nfolder = "{tmp_path / "state"}"\n')
    (tmp_path / "state").mkdir()
    assert main(["check-config", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: fine."
    calibration_store.keep(tmp_path / "state", FOUND, config=CONFIG)
    assert main(["check-config", str(path)]) == 0
    told = capsys.readouterr().out
    assert "calibrated on the host page since" in told and "the tray at 20, 30, 400 x 250 px, dice 52 px across" in told
    (tmp_path / "state" / calibration_store.FILE).write_text("{")
    assert main(["check-config", str(path), "--state", str(tmp_path / "state")]) == 0
    assert "cannot be used" in capsys.readouterr().out
    assert main(["check-config", str(path), "--state", str(tmp_path / "elsewhere")]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: fine."  # run's --state is the folder that counts


def test_check_config_by_a_user_who_may_not_read_the_state_folder_says_so_not_that_the_calibration_is_broken(
        tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[camera]\nsource = "pi"\ntray = [10, 10, 300, 200]\ndie_px = 40\n')
    state = tmp_path / "state"  # the service's own folder (StateDirectoryMode=0700), checked by the pi user
    state.mkdir()
    calibration_store.keep(state, FOUND, config=CONFIG)
    state.chmod(0)
    try:
        finished = subprocess.run([sys.executable, "-m", "companion", "check-config", str(path), "--state", str(state)],
                                  capture_output=True, text=True, timeout=30, preexec_fn=bound_by_file_modes())
    finally:
        state.chmod(0o700)
    assert finished.returncode == 0, finished.stderr
    assert f"this user may not read the state folder {state}" in finished.stdout, finished.stdout
    assert "sudo -u companion" in finished.stdout and "cannot be used" not in finished.stdout
