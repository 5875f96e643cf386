"""Camera sources: folder replay, synthetic rolls, spec parsing, and the Pi/USB adapters with fakes."""
from __future__ import annotations

import importlib.util
import logging
import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import sources_live
from vision.settle import motion, thumbnail
from vision.frames import CameraError
from vision.sources import FolderCamera, SyntheticCamera, open_source
from vision.sources_live import PICAMERA2_MISSING, PiCamera, UsbCamera

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


class FakePicamera2:
    """Just enough of picamera2.Picamera2 for the adapter (with no control ranges listed)."""

    camera_controls: dict = {}

    def __init__(self, number: int, *, fail_capture: bool = False) -> None:
        self.number, self.fail_capture, self.calls = number, fail_capture, []
        self.controls: dict = {}

    def create_preview_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_array(self, stream: str) -> np.ndarray:
        if self.fail_capture:
            raise RuntimeError("camera timed out")
        return np.full((480, 640, 3), 7, np.uint8)

    def capture_metadata(self) -> dict:
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4), "Lux": 300.0}

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", controls))
        self.controls.update(controls)

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))


def test_pi_camera_configures_rgb888_and_locks_exposure() -> None:
    made: list[FakePicamera2] = []
    camera = PiCamera(size=(320, 240), camera_factory=lambda number: made.append(FakePicamera2(number)) or made[-1])
    fake = made[0]
    assert fake.calls[:2] == [("configure", {"main": {"size": (320, 240), "format": "RGB888"}}), ("start",)]
    assert camera.frame().shape == (480, 640, 3)
    assert camera.lock_exposure() == {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4)}
    assert fake.calls[-1] == ("set_controls", {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                                               "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4)})
    camera.close()
    assert fake.calls[-2:] == [("stop",), ("close",)]


def test_pi_camera_failures_are_camera_errors() -> None:
    def refuse(number: int) -> FakePicamera2:
        raise IndexError("list index out of range")

    with pytest.raises(CameraError, match="did not start"):
        PiCamera(camera_factory=refuse)
    camera = PiCamera(camera_factory=lambda number: FakePicamera2(number, fail_capture=True))
    with pytest.raises(CameraError, match="stopped giving frames"):
        camera.frame()


class FakeCapture:
    """A VideoCapture stand-in fed frame by frame from the test; (False, None) once `unplug()` is called."""

    def __init__(self, index: int, *, opened: bool = True) -> None:
        self.index, self.opened, self.released = index, opened, False
        self.frames: queue.Queue = queue.Queue()
        self.settings: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        image = self.frames.get()  # a real webcam blocks until the next frame
        return (False, None) if image is None else (True, image)

    def release(self) -> None:
        self.released = True

    def unplug(self) -> None:
        for _ in range(100):
            self.frames.put(None)


def _wait_for(condition: Any, seconds: float = 2.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_usb_camera_gives_the_newest_frame_not_a_stale_one() -> None:
    fake = FakeCapture(0)
    camera = UsbCamera(0, capture_factory=lambda index: fake, size=(640, 480))
    try:
        for number in range(1, 6):
            fake.frames.put(np.full((4, 4, 3), number, np.uint8))
        _wait_for(lambda: camera.frames_grabbed == 5)
        assert camera.frame()[0, 0, 0] == 5
        fake.frames.put(np.full((4, 4), 9, np.uint8))  # a grey webcam frame comes out as BGR
        _wait_for(lambda: camera.frames_grabbed == 6)
        assert camera.frame().shape == (4, 4, 3) and camera.frame()[0, 0, 2] == 9
        assert fake.settings[cv2.CAP_PROP_FRAME_WIDTH] == 640
    finally:
        fake.unplug()
        camera.close()
    assert fake.released and not camera._thread.is_alive()


def test_usb_camera_that_disappears_raises_camera_error() -> None:
    fake = FakeCapture(1)
    camera = UsbCamera(1, capture_factory=lambda index: fake, failures_allowed=3)
    fake.frames.put(np.zeros((4, 4, 3), np.uint8))
    _wait_for(lambda: camera.frames_grabbed == 1)
    fake.unplug()
    _wait_for(lambda: not camera._thread.is_alive())
    with pytest.raises(CameraError, match="stopped sending frames"):
        camera.frame()
    camera.close()


def test_usb_camera_whose_driver_repeats_its_last_picture_raises_camera_error() -> None:
    """Unplugged, some drivers give the last picture as new for ever (opencv/opencv#5221)."""
    rng = np.random.default_rng(4)
    tray = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    dark = np.full((48, 64, 3), 3, np.uint8)  # a covered lens: nothing to tell frames apart by
    fake = FakeCapture(2)
    camera = UsbCamera(2, capture_factory=lambda index: fake, frozen_seconds=0.2)
    try:
        for _ in range(30):  # 0.3 s in a dark room: the same flat picture again is no fault
            fake.frames.put(dark.copy())
            time.sleep(0.01)
        for _ in range(30):  # 0.3 s of a live sensor over the tray: its noise makes every frame differ
            fake.frames.put(cv2.add(tray, rng.integers(0, 2, tray.shape, dtype=np.uint8)))
            time.sleep(0.01)
        _wait_for(lambda: fake.frames.empty())
        assert camera.frame().shape == (48, 64, 3) and camera._thread.is_alive()
        for _ in range(40):  # the cable is kicked: the same picture, again and again
            fake.frames.put(tray.copy())
            time.sleep(0.01)
        _wait_for(lambda: not camera._thread.is_alive())
        with pytest.raises(CameraError, match="sends the same picture over and over; is it unplugged"):
            camera.frame()
    finally:
        fake.unplug()
        camera.close()


def test_usb_camera_that_sends_nothing_or_never_opens_raises_camera_error() -> None:
    fake = FakeCapture(0)
    camera = UsbCamera(0, capture_factory=lambda index: fake, timeout_seconds=0.05)
    with pytest.raises(CameraError, match="sent no frame"):
        camera.frame()
    fake.unplug()
    camera.close()
    closed = FakeCapture(3, opened=False)
    with pytest.raises(CameraError, match="usb:3"):
        UsbCamera(3, capture_factory=lambda index: closed)
    assert closed.released


def test_the_pi_camera_applies_saved_exposure_with_automatic_control_off() -> None:
    from vision.sources_live import PiCamera

    camera = PiCamera(camera_factory=FakePicamera2)
    camera.apply_exposure({"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4)})
    assert camera._camera.controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                                       "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4)}


class _RangedPicamera2(FakePicamera2):
    """Lists its controls as picamera2 does: name -> (min, max, default); a monochrome sensor, no white balance."""

    camera_controls = {"AeEnable": (False, True, True), "ExposureTime": (114, 694422939, None),
                       "AnalogueGain": (1.0, 22.26, 1.0)}


def test_the_pi_camera_sets_only_the_saved_controls_it_has() -> None:
    from vision.sources_live import PiCamera

    camera = PiCamera(camera_factory=_RangedPicamera2)
    camera.apply_exposure({"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4)})
    assert camera._camera.controls == {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0}


def test_a_saved_gain_beyond_the_cameras_range_is_a_sentence_and_sets_nothing() -> None:
    from vision.sources_live import PiCamera

    camera = PiCamera(camera_factory=_RangedPicamera2)
    with pytest.raises(CameraError, match=r"AnalogueGain 64.0 is outside this camera's range, 1.0 to 22.26"):
        camera.apply_exposure({"ExposureTime": 12000, "AnalogueGain": 64.0, "ColourGains": (1.8, 1.4)})
    assert camera._camera.controls == {}


def test_a_pi_camera_held_by_another_program_says_to_stop_it_not_to_check_the_cable() -> None:
    from vision.sources_live import PiCamera

    def busy_picamera2(number: int) -> Any:  # as picamera2 fails when the service holds the camera
        try:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        except RuntimeError:
            raise RuntimeError("Camera __init__ sequence did not complete.")

    with pytest.raises(CameraError, match="in use by another program") as raised:
        PiCamera(camera_factory=busy_picamera2)
    assert "ribbon" not in str(raised.value)
    with pytest.raises(CameraError, match="ribbon cable"):
        PiCamera(camera_factory=lambda number: (_ for _ in ()).throw(IndexError("list index out of range")))


def test_a_pi_camera_without_colour_locks_its_exposure_and_leaves_white_balance_alone() -> None:
    class Monochrome(FakePicamera2):
        def capture_metadata(self) -> dict:
            return {"ExposureTime": 9000, "AnalogueGain": 4.0, "Lux": 80.0}  # no ColourGains on a mono sensor

    camera = PiCamera(camera_factory=Monochrome)
    assert camera.lock_exposure() == {"ExposureTime": 9000, "AnalogueGain": 4.0}
    assert camera._camera.controls == {"AeEnable": False, "ExposureTime": 9000, "AnalogueGain": 4.0}
