"""Camera sources: folder replay, synthetic rolls, spec parsing, and that the camera code never imports picamera2
(the Pi and USB adapters are in test_sources_live.py)."""
from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from photo_files import png_claiming

from vision import sources_live
from vision.settle import motion, thumbnail
from vision.frames import CameraError
from vision.sources import FolderCamera, SyntheticCamera, open_source
from vision.sources_live import PICAMERA2_MISSING

REPO = Path(__file__).resolve().parents[2]


def _photo(folder: Path, name: str, grey: int) -> None:
    cv2.imwrite(str(folder / name), np.full((40, 60, 3), grey, np.uint8))


@pytest.fixture()
def photos(tmp_path: Path) -> Path:
    _photo(tmp_path, "b.png", 20)
    _photo(tmp_path, "a.jpg", 200)
    _photo(tmp_path, "c.PNG", 120)
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg at all")
    (tmp_path / "notes.txt").write_text("ignored")
    return tmp_path


def test_folder_replays_sorted_photos_holding_each_and_looping(photos: Path, caplog: Any) -> None:
    with caplog.at_level(logging.WARNING):
        camera = FolderCamera(photos, hold_frames=2)
        greys = [int(camera.frame()[0, 0, 0]) for _ in range(8)]
    assert greys == [200, 200, 20, 20, 120, 120, 200, 200]  # a.jpg, b.png, (broken.jpg skipped), c.PNG
    assert "broken.jpg" in caplog.text


def test_folder_skips_a_photo_too_large_to_read_with_a_sentence(tmp_path: Path, caplog: Any) -> None:
    (tmp_path / "a.png").write_bytes(png_claiming(50_000, 50_000))  # cv2.imread raised cv2.error on it
    _photo(tmp_path, "b.png", 90)
    with caplog.at_level(logging.WARNING):
        camera = FolderCamera(tmp_path, hold_frames=None)
    assert camera.current.name == "b.png" and int(camera.frame()[0, 0, 0]) == 90
    assert "a.png: The file" in caplog.text and "too large an image to read" in caplog.text


def test_folder_next_photo_moves_on_and_frames_are_copies(photos: Path) -> None:
    camera = FolderCamera(photos, hold_frames=None)
    assert camera.current.name == "a.jpg"
    first = camera.frame()
    first[:] = 0
    assert camera.frame()[0, 0, 0] == 200
    assert camera.next_photo().name == "b.png"
    assert [int(camera.frame()[0, 0, 0]) for _ in range(50)] == [20] * 50


def test_folder_without_photos_is_a_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no jpg or png photos"):
        FolderCamera(tmp_path)
    with pytest.raises(CameraError, match="no photo folder"):
        FolderCamera(tmp_path / "missing")
    (tmp_path / "x.jpg").write_bytes(b"junk")
    with pytest.raises(CameraError, match="could be read"):
        FolderCamera(tmp_path)


def test_synthetic_camera_rolls_then_rests_and_is_deterministic() -> None:
    camera, twin = SyntheticCamera(5), SyntheticCamera(5)
    assert camera.values == () and twin.values == ()
    assert camera.throw() == twin.throw()
    frames = [camera.frame() for _ in range(7)]
    assert all(np.array_equal(mine, theirs) for mine, theirs in zip(frames, [twin.frame() for _ in range(7)]))
    thumbs = [thumbnail(frame) for frame in frames]
    jumps = [motion(before, after) for before, after in zip(thumbs, thumbs[1:])]
    assert min(jumps[:4]) > 0.02 and max(jumps[4:]) < 0.005  # 4 tumbling frames, then at rest
    assert len(camera.values) == 2 and all(1 <= value <= 6 for value in camera.values)


def test_synthetic_camera_throws_chosen_values_and_clears() -> None:
    camera = SyntheticCamera(1, motion_frames=0)
    assert camera.throw([6, 6, 1]) == (6, 6, 1) and len(camera.boxes) == 3
    assert len(camera.throw(count=1)) == 1 and len(camera.throw()) == 2
    camera.clear()
    assert camera.values == () and camera.boxes == ()
    with pytest.raises(ValueError):
        camera.throw([9])


def test_open_source_understands_every_spec(photos: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[int] = []
    monkeypatch.setattr(sources_live, "UsbCamera", lambda index: opened.append(index) or "usb camera")
    assert isinstance(open_source("synthetic"), SyntheticCamera)
    assert np.array_equal(open_source("synthetic:7").frame(), SyntheticCamera(7).frame())
    folder = open_source(f"folder:{photos}")
    assert isinstance(folder, FolderCamera) and folder.hold_frames is None
    assert open_source("usb:2") == "usb camera" and open_source("usb") == "usb camera"
    assert opened == [2, 0]


@pytest.mark.parametrize("spec", ["", "webcam", "usb:x", "usb:-1", "synthetic:seed", "folder:", "pi:3"])
def test_open_source_refuses_bad_specs_naming_what_works(spec: str) -> None:
    with pytest.raises(ValueError, match="usb:N, folder:PATH, pi, or synthetic"):
        open_source(spec)


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="this machine has picamera2")
def test_pi_camera_without_picamera2_is_a_camera_error() -> None:
    with pytest.raises(CameraError, match="python3-picamera2") as caught:
        open_source("pi")
    assert str(caught.value) == PICAMERA2_MISSING


def test_importing_the_camera_code_never_imports_picamera2() -> None:
    probe = (
        "import sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('picamera2'): raise AssertionError('picamera2 imported')\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import vision.sources, vision.sources_live, vision.settle, vision.synthetic, companion.camera.roller\n"
    )
    subprocess.run([sys.executable, "-c", probe], cwd=REPO, check=True, timeout=60)
