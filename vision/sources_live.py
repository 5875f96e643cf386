"""Live camera adapters: the Pi camera (picamera2, imported only when one is opened) and USB webcams."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

import cv2
import numpy as np

from vision.frames import CameraError, as_bgr

PICAMERA2_MISSING = "picamera2 is not installed; on the Pi install python3-picamera2"
FLAT = 2.0  # a picture whose grey levels spread less than this (a covered lens, a dark room) may repeat exactly


class PiCamera:
    """The Raspberry Pi camera through picamera2, giving RGB888 frames (already BGR order for OpenCV)."""

    def __init__(
        self,
        *,
        size: tuple[int, int] = (640, 480),
        camera_number: int = 0,
        camera_factory: Callable[[int], Any] | None = None,
    ) -> None:
        """Open and start the camera; raises CameraError when picamera2 or the camera is missing."""
        if camera_factory is None:
            try:
                from picamera2 import Picamera2
            except ImportError as error:
                raise CameraError(PICAMERA2_MISSING) from error
            camera_factory = Picamera2
        try:
            self._camera = camera_factory(camera_number)
            config = self._camera.create_preview_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # libcamera raises RuntimeError/IndexError when no camera answers
            if _in_use(error):
                raise CameraError(f"The Pi camera {camera_number} is in use by another program; stop it first "
                                  "(the companion service: sudo systemctl stop companion).") from error
            raise CameraError(f"The Pi camera {camera_number} did not start ({error}); check its ribbon cable.") from error

    def frame(self) -> np.ndarray:
        """Return the newest frame as BGR uint8 HxWx3; raises CameraError when the camera stops answering."""
        try:
            array = self._camera.capture_array("main")
        except Exception as error:
            raise CameraError(f"The Pi camera stopped giving frames ({error}).") from error
        return np.ascontiguousarray(array[:, :, :3])

    def lock_exposure(self) -> dict[str, Any]:
        """Freeze exposure (and white balance, on a colour camera) at their current values and return them;
        raises CameraError."""
        try:
            metadata = self._camera.capture_metadata()
            controls = {name: metadata[name] for name in ("ExposureTime", "AnalogueGain")}
            automatic = {"AeEnable": False}
            if "ColourGains" in metadata:  # a camera without colour has no white balance
                controls["ColourGains"] = metadata["ColourGains"]
                automatic["AwbEnable"] = False
            self._camera.set_controls({**automatic, **controls})
        except Exception as error:
            raise CameraError(f"Could not lock the Pi camera's exposure ({error}).") from error
        return controls

    def apply_exposure(self, controls: dict[str, Any]) -> None:
        """Fix exposure and white balance at saved values (from calibration), as far as this camera has those
        controls; raises CameraError, naming a saved value outside this camera's range."""
        wanted = {"AeEnable": False, "AwbEnable": False, **controls}
        ranges = getattr(self._camera, "camera_controls", None) or {}
        if ranges:  # e.g. a camera without colour has no white balance: set only what it has
            wanted = {name: value for name, value in wanted.items() if name in ranges}
            _check_ranges(ranges, wanted)
        try:
            self._camera.set_controls(wanted)
        except Exception as error:
            raise CameraError(f"Could not set the Pi camera's saved exposure ({error}).") from error

    def unlock_exposure(self) -> None:
        """Let the camera adjust exposure and white balance again; raises CameraError."""
        try:
            self._camera.set_controls({"AeEnable": True, "AwbEnable": True})
        except Exception as error:
            raise CameraError(f"Could not unlock the Pi camera's exposure ({error}).") from error

    def close(self) -> None:
        """Stop and release the camera; raises nothing."""
        try:
            self._camera.stop()
        finally:
            self._camera.close()


def _in_use(error: BaseException | None) -> bool:
    """Whether picamera2 failed because another process holds the camera (EBUSY, -16), looking through
    the errors it was raised from; raises nothing."""
    seen = 0
    while error is not None and seen < 5:
        text = str(error).lower()
        if "busy" in text or "in use" in text or "code: -16" in text:
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _check_ranges(ranges: dict[str, Any], controls: dict[str, Any]) -> None:
    """Check each control against the camera's (min, max, default); raises CameraError for a value out of range."""
    for name, value in controls.items():
        low, high = (tuple(ranges[name]) + (None, None))[:2]
        if isinstance(value, bool) or low is None or high is None:
            continue
        if any(not low <= part <= high for part in (value if isinstance(value, (tuple, list)) else (value,))):
            raise CameraError(f"the saved {name} {value} is outside this camera's range, {low} to {high}")


class UsbCamera:
    """A USB webcam through OpenCV, read continuously on a thread so `frame()` gives the newest frame."""

    def __init__(
        self,
        index: int = 0,
        *,
        capture_factory: Callable[[int], Any] = cv2.VideoCapture,
        size: tuple[int, int] | None = None,
        timeout_seconds: float = 2.0,
        failures_allowed: int = 20,
        frozen_seconds: float = 3.0,
    ) -> None:
        """Open the webcam and start grabbing; raises CameraError when it does not open.

        Unplugged, some webcams' drivers go on giving the last picture as new (opencv/opencv#5221, #14044),
        never failing a read. A sensor's noise makes two real frames differ, so a picture with some detail
        repeated exactly for `frozen_seconds` counts as the camera gone."""
        self.index, self.timeout_seconds, self.failures_allowed = index, timeout_seconds, failures_allowed
        self.frozen_seconds = frozen_seconds
        self._capture = capture_factory(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"No USB camera answers at usb:{index}; check the cable or try another number.")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._fresh = threading.Condition()
        self._newest: np.ndarray | None = None
        self._newest_at = 0.0
        self._same_since = 0.0  # when the picture last changed
        self.frames_grabbed = 0
        self._problem: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._grab, name=f"usb-camera-{index}", daemon=True)
        self._thread.start()

    def frame(self) -> np.ndarray:
        """Return a copy of the newest frame; raises CameraError when the webcam failed or sent nothing lately."""
        with self._fresh:
            self._fresh.wait_for(lambda: self._newest is not None or self._problem is not None,
                                 timeout=self.timeout_seconds)
            if self._problem is not None:
                raise CameraError(self._problem)
            if self._newest is None or time.monotonic() - self._newest_at > self.timeout_seconds:
                raise CameraError(f"The USB camera usb:{self.index} sent no frame for {self.timeout_seconds:g} s.")
            return self._newest.copy()

    def close(self) -> None:
        """Stop the grabbing thread and release the webcam; raises nothing."""
        self._stop.set()
        self._thread.join(timeout=self.timeout_seconds + 1.0)
        self._capture.release()

    def _grab(self) -> None:
        """Read frames until stopped, keeping only the newest; records a problem when reads keep failing."""
        failures = 0
        while not self._stop.is_set():
            try:
                ok, image = self._capture.read()
            except Exception:  # a driver error reads as one failed frame
                ok, image = False, None
            image = as_bgr(image) if ok and isinstance(image, np.ndarray) else None
            if image is not None:
                failures = 0
                if not self._keep(image):
                    return
                continue
            failures += 1
            if failures >= self.failures_allowed:
                with self._fresh:
                    self._problem = f"The USB camera usb:{self.index} stopped sending frames; is it unplugged?"
                    self._fresh.notify_all()
                return
            self._stop.wait(0.01)

    def _keep(self, image: np.ndarray) -> bool:
        """Make the image the newest frame; False (with the problem recorded) when the same detailed picture has
        come for `frozen_seconds`: the driver repeats its last one; raises nothing."""
        now = time.monotonic()
        with self._fresh:
            repeated = self._newest is not None and np.array_equal(self._newest, image)
            if not repeated:
                self._same_since = now
            elif now - self._same_since >= self.frozen_seconds and float(image[::8, ::8].std()) >= FLAT:
                self._problem = (f"The USB camera usb:{self.index} sends the same picture over and over; "
                                 "is it unplugged? Plug it in again.")
                self._fresh.notify_all()
                return False
            self._newest, self._newest_at = image, now
            self.frames_grabbed += 1
            self._fresh.notify_all()
        return True
