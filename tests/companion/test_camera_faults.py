"""Camera faults: a camera that raises, gives nothing, hangs or is unplugged never stops the table."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.camera.guard import GuardedCamera
from companion.rules.inputs import DiceRolled, StartGame
from vision.frames import CameraError
from vision.sources import SyntheticCamera


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Unpluggable:
    """A synthetic camera on a cable: unplugged, opening it and reading it fail; frames can hang."""

    def __init__(self) -> None:
        self.inner = SyntheticCamera(3, dice=1)
        self.plugged = True
        self.hang = threading.Event()
        self.give_none = False

    def open(self) -> "Unpluggable":
        if not self.plugged:
            raise CameraError("no camera on /dev/video0")
        return self

    def frame(self) -> Any:
        if not self.plugged:
            raise CameraError("the camera was unplugged")
        if self.hang.is_set():
            time.sleep(30)
        return None if self.give_none else self.inner.frame()

    def throw(self, **kwargs: Any) -> Any:
        return self.inner.throw(**kwargs)


def test_a_camera_that_hangs_while_opening_is_offline_and_closed_once_it_opens() -> None:
    opened, closed = threading.Event(), threading.Event()

    class Late:
        def frame(self) -> Any:
            return SyntheticCamera(3, dice=1).frame()

        def close(self) -> None:
            closed.set()

    def open_slowly() -> Late:
        opened.wait(5)  # a driver stuck in its open call
        return Late()

    camera = GuardedCamera(open_slowly, open_timeout=0.2)
    assert not camera.online and camera.reason == "opening it took over 0.2 s"
    opened.set()
    assert closed.wait(5)  # the camera that opened too late is not left open


def test_an_unplugged_camera_goes_offline_and_comes_back_with_back_off() -> None:
    cable, clock = Unpluggable(), Clock()
    camera = GuardedCamera(cable.open, clock=clock)
    assert camera.online and camera.frame().shape == (480, 640, 3)
    cable.plugged = False
    with pytest.raises(CameraError, match="failed"):
        camera.frame()
    assert not camera.online
    cable.plugged = True
    with pytest.raises(CameraError, match="offline"):
        camera.frame()  # inside its pause: no waiting on a dead camera
    clock.now += 0.6
    assert camera.probe() and camera.frame() is not None


def test_back_off_grows_while_the_camera_stays_away() -> None:
    cable, clock = Unpluggable(), Clock()
    cable.plugged = False
    camera = GuardedCamera(cable.open, clock=clock)
    pauses = []
    for _ in range(4):
        retry = camera._retry_at
        pauses.append(retry - clock.now)
        clock.now = retry
        camera.probe()
    assert pauses == [0.5, 1.0, 2.0, 4.0]


def test_a_hanging_camera_is_given_up_on_within_its_timeout() -> None:
    cable = Unpluggable()
    camera = GuardedCamera(cable.open, timeout=0.2)
    cable.hang.set()
    began = time.monotonic()
    with pytest.raises(CameraError, match="stopped answering"):
        camera.frame()
    assert time.monotonic() - began < 1.0 and not camera.online


def test_a_camera_that_gives_nothing_is_offline() -> None:
    cable = Unpluggable()
    camera = GuardedCamera(cable.open)
    cable.give_none = True
    with pytest.raises(CameraError, match="no picture"):
        camera.frame()


def test_grey_four_channel_and_16_bit_pictures_are_read_as_colour_and_others_are_refused() -> None:
    colour = SyntheticCamera(3, dice=1).frame()
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    shown = {
        "bgra": cv2.cvtColor(colour, cv2.COLOR_BGR2BGRA),
        "grey": grey,
        "grey in one channel": grey[:, :, None],
        "16-bit": colour.astype(np.uint16) * 257,
    }
    for name, picture in shown.items():
        camera = GuardedCamera(lambda: _Giving(picture))
        frame = camera.frame()
        expected = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR) if name.startswith("grey") else colour
        assert frame.dtype == np.uint8 and np.array_equal(frame, expected), name
    camera = GuardedCamera(lambda: _Giving(colour.astype(np.float64)))
    with pytest.raises(CameraError, match=r"float64 picture of shape \(480, 640, 3\)"):
        camera.frame()
    assert not camera.online


class _Giving:
    """A camera that gives one picture, over and over."""

    def __init__(self, picture: np.ndarray) -> None:
        self.picture = picture

    def frame(self) -> np.ndarray:
        return self.picture.copy()


def _wait(check: Any, seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the table never showed the expected state")


def test_the_daemon_says_camera_offline_takes_rolls_by_hand_and_recovers(tmp_path: Path, request: Any) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import Camera, Config
    from companion.daemon import build

    cable = Unpluggable()
    config = Config(demo=True, host="127.0.0.1", port=0, advertise="127.0.0.1", state=tmp_path,
                    camera=Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2))
    companion = build(config, pin_factory=MockFactory(pin_class=MockPWMPin), frames=cable)
    companion.start()
    request.addfinalizer(companion.stop)
    loop = companion.loop
    loop.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 4), source="host")
    _wait(lambda: loop.snapshot(None)["camera"]["status"] == "ready")
    cable.plugged = False
    loop.press("roll")
    offline = _wait(lambda: (shown := loop.snapshot(None))["camera"]["status"] == "offline" and shown)
    assert offline["message"] == "Camera offline — enter rolls by hand."
    assert offline["lights"]["status"] == "offline"
    assert companion.panel.state()["colour"] == "red"
    shown = loop.submit(DiceRolled((5,), (6,), ("phone",)), source="phone")  # the game goes on by hand
    assert shown["view"]["roll_off"]["rolls"] == [5]
    cable.plugged = True
    _wait(lambda: loop.snapshot(None)["camera"]["status"] == "ready", seconds=15)
    for _attempt in range(4):  # the reader may ask for a re-roll of a synthetic die, as at a real table
        loop.press("roll")
        time.sleep(0.2)
        answered = _wait(lambda: (shown := loop.snapshot(None))["camera"]["status"] != "reading" and shown)
        if answered["camera"]["status"] == "read_ok":
            break
    assert answered["dice"]["origins"] == ["camera"]
    assert answered["view"]["roll_off"] is None or answered["view"]["roll_off"]["rolls"] != [5]


def test_roll_with_the_camera_offline_is_refused_at_once_never_reading(tmp_path: Path, request: Any) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import Camera, Config
    from companion.daemon import build

    cable = Unpluggable()
    cable.plugged = False
    config = Config(demo=True, host="127.0.0.1", port=0, advertise="127.0.0.1", state=tmp_path,
                    camera=Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2))
    companion = build(config, pin_factory=MockFactory(pin_class=MockPWMPin), frames=cable)
    shown: list[str] = []
    show_lights = companion.loop.on_lights
    companion.loop.on_lights = lambda lights: (shown.append(lights["status"]), show_lights(lights))
    companion.start()
    request.addfinalizer(companion.stop)
    loop = companion.loop
    loop.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 4), source="host")
    _wait(lambda: loop.snapshot(None)["camera"]["status"] == "offline")
    loop.press("roll")
    refused = _wait(lambda: (now := loop.snapshot(None))["message"] and now)
    assert refused["message"] == "Camera offline — enter rolls by hand."
    assert refused["camera"]["status"] == "offline" and "reading" not in shown  # the LED never turned blue
    assert companion.panel.state()["colour"] == "red"


def _mock_pins() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def test_a_picture_too_small_too_thin_or_too_big_keeps_the_camera_offline_with_its_reason() -> None:
    colour = SyntheticCamera(3, dice=1).frame()
    for picture, reason in ((colour[:2, :2], "2x2 pixels is too small"), (colour[:12, :], "640x12 pixels is too small"),
                            (np.zeros((20, 5000, 3), np.uint8), "5000x20 pixels is no view of a tray"),
                            (np.zeros((5000, 5000), np.uint8), "5000x5000 pixels is over 24 megapixels")):
        clock = Clock()
        camera = GuardedCamera(lambda: _Giving(picture), clock=clock)
        assert not camera.online and reason in camera.reason, (picture.shape, camera.reason)
        clock.now += 60
        assert not camera.probe()  # opened again, and dropped again at its first picture: no "ready" in between
        clock.now += 60
        with pytest.raises(CameraError, match=f"The camera is offline \\({reason}"):  # what ROLL says on the phones
            camera.frame()
    assert GuardedCamera(lambda: _Giving(colour[:, :100])).online  # 100x480: narrow, but a view of a tray
