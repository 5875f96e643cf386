"""A camera that cannot take the table down: bounded waits, re-opened with back-off when it returns.

Wraps whatever opens the real FrameSource. A frame that does not come within `timeout` seconds,
a None or malformed frame, or an error all count as the camera going offline; the camera is then
closed and re-opened after a growing pause (0.5 s … 15 s), while every call in between raises
CameraError at once so nobody waits on a dead camera.
"""
from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

import numpy as np

from vision.checks import SMALLEST_FRAME
from vision.frames import CameraError, as_bgr

log = logging.getLogger(__name__)
BACKOFF_SECONDS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
WIDEST = 8  # a picture longer than this many times its height (or the other way) is no view of a tray
MOST_PIXELS = 24_000_000  # twice a 12 MP Pi camera's full size: the reader's copies of more would exhaust a Pi 4's memory


class GuardedCamera:
    """A FrameSource that never hangs its caller and re-opens its camera with back-off."""

    def __init__(self, open_camera: Callable[[], Any], *, timeout: float = 2.0, open_timeout: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Try to open the camera now (failure only marks it offline); raises nothing."""
        self._open_camera = open_camera
        self._timeout = timeout
        self._open_timeout = open_timeout
        self._clock = clock
        self._camera: Any = None
        self._failures = 0
        self._retry_at = 0.0
        self.reason = ""
        self.probe()

    @property
    def camera(self) -> Any:
        """The camera open now, or None while offline; raises nothing."""
        return self._camera

    @property
    def online(self) -> bool:
        """Whether a camera is open and answering; raises nothing."""
        return self._camera is not None

    def probe(self) -> bool:
        """Re-open the camera if it is offline and its pause is over; returns whether it is online."""
        if self._camera is None and self._clock() >= self._retry_at:
            try:
                camera = _within(self._open_camera, self._open_timeout, late=_close_quietly)
            except TimeoutError:  # a driver that hangs while opening must not hang the camera thread
                self._offline(f"opening it took over {self._open_timeout:g} s")
                return False
            except Exception as error:  # any failure to open is "offline", never a crash
                self._offline(f"{error}")
                return False
            self._camera = camera
            try:
                self.frame()  # back only once it gives a picture
            except CameraError:
                return False
            self._failures, self.reason = 0, ""
            log.info("camera online")
        return self.online

    def frame(self) -> np.ndarray:
        """The newest frame; raises CameraError at once while offline, or when the camera fails."""
        camera = self._camera
        if camera is None and not self.probe():
            raise CameraError(f"The camera is offline ({self.reason}).")
        camera = self._camera
        try:
            image = _within(camera.frame, self._timeout)
        except TimeoutError:
            self._drop(camera, f"no frame within {self._timeout:g} s")
            raise CameraError("The camera stopped answering.") from None
        except Exception as error:
            self._drop(camera, f"{error}")
            raise CameraError(f"The camera failed ({error}).") from None
        if not isinstance(image, np.ndarray) or image.size == 0:
            self._drop(camera, "it gave no picture")
            raise CameraError("The camera gave no picture.")
        picture = as_bgr(image)
        if picture is None:
            self._drop(camera, f"it gave a {image.dtype} picture of shape {image.shape}")
            raise CameraError(f"The camera gave a picture I cannot use ({image.dtype}, shape {image.shape}); "
                              "set it to 8-bit colour or grey.")
        trouble = size_trouble(picture)
        if trouble is not None:
            self._drop(camera, trouble)
            raise CameraError(f"The camera gave a picture I cannot use: {trouble}.")
        return picture

    def close(self) -> None:
        """Close the camera if open; raises nothing."""
        camera, self._camera = self._camera, None
        _close_quietly(camera)

    def _drop(self, camera: Any, reason: str) -> None:
        self._camera = None
        threading.Thread(target=_close_quietly, args=(camera,), daemon=True).start()  # a hung close must not block
        self._offline(reason)

    def _offline(self, reason: str) -> None:
        pause = BACKOFF_SECONDS[min(self._failures, len(BACKOFF_SECONDS) - 1)]
        self._failures += 1
        self._retry_at = self._clock() + pause
        self.reason = reason
        log.warning("camera offline (%s); trying again in %.1f s", reason, pause)


def size_trouble(picture: np.ndarray) -> str | None:
    """What makes a picture's size unfit for reading dice, or None; raises nothing."""
    height, width = picture.shape[:2]
    if min(height, width) < SMALLEST_FRAME:
        return f"{width}x{height} pixels is too small to find dice in (at least {SMALLEST_FRAME} a side); set a larger size"
    if max(height, width) > WIDEST * min(height, width):
        return f"{width}x{height} pixels is no view of a tray (over {WIDEST}:1); set a usual size such as 640x480"
    if height * width > MOST_PIXELS:
        return f"{width}x{height} pixels is over {MOST_PIXELS // 1_000_000} megapixels; set a smaller size such as 1280x960"
    return None


def _within(call: Callable[[], Any], timeout: float, late: Callable[[Any], None] | None = None) -> Any:
    """call() on a helper thread, waiting at most `timeout` (what comes later goes to `late`); raises
    TimeoutError or call's error."""
    result: Future[Any] = Future()

    def run() -> None:
        try:
            result.set_result(call())
        except BaseException as error:
            result.set_exception(error)

    threading.Thread(target=run, name="camera-frame", daemon=True).start()
    try:
        return result.result(timeout)
    except TimeoutError:
        if late is not None:
            result.add_done_callback(lambda done: None if done.exception() else late(done.result()))
        raise TimeoutError("no answer in time") from None


def _close_quietly(camera: Any) -> None:
    try:
        close = getattr(camera, "close", None)
        if close is not None:
            close()
    except Exception:
        log.exception("closing the camera failed")
