"""The live camera adapters with fakes: the Pi camera (picamera2's Picamera2 faked) and the USB camera (OpenCV's
VideoCapture faked): configuration, exposure, the newest frame, and every failure as a CameraError."""
from __future__ import annotations

import queue
import time
from typing import Any

import cv2
import numpy as np
import pytest

from vision.frames import CameraError
from vision.sources_live import PiCamera, UsbCamera


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
