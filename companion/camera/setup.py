"""The box's camera as the host's page sets it up: a picture of what it sees, and calibrating it at the table.

Both run on the camera thread between reads (`DiceCamera.errand`), so they never meet a roll half-read. A
calibration is measured as `companion calibrate` measures it, kept in the state folder (the service may not
write its config) and used at once: the reader's tray and die size, the exposure a re-opened camera gets.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

from companion.camera import calibration_store
from companion.camera.calibrate import SETTLE_SECONDS, measure
from companion.config import Camera
from companion.rules.errors import CompanionError
from companion.rules.said import Said
from companion.table.snapshot import JSON

log = logging.getLogger(__name__)
CALIBRATE_SECONDS = 20.0  # how long the page waits for the camera thread to come to it: a roll read is 8-12 s
LOOK_SECONDS = 15.0
NOTICE_SECONDS = 2.0  # how long a calibration waits for the host's page to drop a notice it answers
LIGHT = "camera-light"  # what the host's notice about the camera's light is about


class NoCamera(CompanionError, LookupError):
    """The box runs without a dice camera."""

    code = "no_camera"


class CameraUnavailable(CompanionError, RuntimeError):
    """The camera is offline, or failed while it was being looked at."""

    code = "camera_offline"


class NotKept(CompanionError, OSError):
    """The calibration could not be written to the state folder."""

    code = "not_saved"


NO_CAMERA = Said("This box runs without a dice camera (camera.source = \"none\"), so there is nothing to calibrate.",
                 "이 상자는 주사위 카메라 없이 동작합니다(camera.source = \"none\"). 보정할 것이 없습니다.")


class CameraSetup:
    """The camera's calibration in use, and what the host's page may ask of the camera."""

    def __init__(self, config: Camera, state: Path, warnings: list[str], *,
                 tell_host: Callable[..., None] = lambda about, sentence, wait=0.0: None,
                 settle_seconds: float = SETTLE_SECONDS) -> None:
        """Take the config's camera settings, or the calibration kept in the state folder over them; raises nothing."""
        self.config = config  # as the config file gives them: what a kept calibration is made over
        self.settings = calibration_store.kept(config, state, warnings)  # in use now
        self.settle_seconds = settle_seconds
        self._tell_host = tell_host
        self._state = state
        self._parts: tuple[Any, Any, Any] | None = None

    def opened(self, camera: Any) -> Any:
        """A camera just opened, given the light it was calibrated in; one that refuses that light (another camera
        module, a saved value out of its range) reads in automatic light and the host is told to calibrate again,
        since a camera kept offline could not be calibrated from the page; raises nothing."""
        locked = self.settings.locked_exposure
        apply = getattr(camera, "apply_exposure", None)
        if apply is None:
            return camera
        if locked is None:  # never calibrated: its own light, also after a refused calibration that locked one
            _automatic(camera)
            return camera
        try:
            apply(locked)
        except Exception as error:  # a camera that is really gone fails its first frame, and is dropped then
            _automatic(camera)
            log.warning("the camera refused its calibrated light (%s); it reads in automatic light", error)
            self._tell_host(LIGHT, _light_refused(error))
        else:
            self._tell_host(LIGHT, None)
        return camera

    def attach(self, dice_camera: Any, source: Any, reading: Any) -> None:
        """Use this camera thread, guarded camera and tray reading; raises nothing."""
        self._parts = (dice_camera, source, reading)

    def calibrate(self) -> JSON:
        """Calibrate the camera as it sees the tray now, keep it and use it at once; raises NoCamera,
        CalibrationRefused, CameraUnavailable, NotKept or TableBusy (each changing nothing)."""
        return self._camera_thread().errand(self._calibrate_here, CALIBRATE_SECONDS)

    def view(self) -> bytes:
        """What the camera sees now (JPEG), the tray outlined and every die boxed with its value; raises NoCamera,
        CameraUnavailable or TableBusy."""
        return self._camera_thread().errand(self._view_here, LOOK_SECONDS)

    def errand(self, call: Callable[[Any, Any], Any]) -> Any:
        """Runs call(guarded camera, tray reading) on the camera thread between reads and returns what it returns;
        raises NoCamera, TableBusy, or call's own error."""
        _, source, reading = self._parts if self._parts is not None else (None, None, None)
        return self._camera_thread().errand(lambda: call(source, reading), LOOK_SECONDS)

    def _camera_thread(self) -> Any:
        if self._parts is None:
            raise NoCamera(NO_CAMERA)
        return self._parts[0]

    def _view_here(self) -> bytes:
        from vision.pictures import marked_view
        from vision.frames import CameraError

        _, source, reading = self._parts  # type: ignore[misc]
        try:
            frame = source.frame()
        except CameraError as error:
            raise CameraUnavailable(_offline(error)) from None
        dice, tray = reading.look(frame)
        return marked_view(frame, tray, dice)

    def _calibrate_here(self) -> JSON:
        from vision.frames import CameraError

        dice_camera, source, reading = self._parts  # type: ignore[misc]
        opened = source.camera if source.probe() else None
        if opened is None:
            raise CameraUnavailable(_offline(source.reason))
        unlock = getattr(opened, "unlock_exposure", None)
        try:
            if unlock is not None:
                unlock()  # let it find the light as it is now; measure waits for it to settle, then locks it
            found = measure(_Measured(source, opened), reading.reader.read, sleep=time.sleep,
                            settle_seconds=self.settle_seconds if unlock is not None else 0.0)
            settings = calibration_store.keep(self._state, found, config=self.config)
        except CameraError as error:
            self.opened(opened)  # the light it had before
            raise CameraUnavailable(_offline(error)) from None
        except OSError as error:
            self.opened(opened)  # the light it had before
            raise NotKept(_not_kept(self._state, error)) from None
        except BaseException:
            self.opened(opened)  # the light it had before
            raise
        return self._use(settings, dice_camera, reading)

    def _use(self, settings: Camera, dice_camera: Any, reading: Any) -> JSON:
        """Read with the new calibration from now on, and say what it is; raises nothing."""
        self.settings = settings
        self._tell_host(LIGHT, None, wait=NOTICE_SECONDS)  # locked as found just now; gone when the page looks again
        reading.calibrated(settings, [])
        dice_camera.look_again()  # the dice lying there, seen in the new light, are not a throw
        log.info("calibrated from the host page: %s", settings)
        message = calibrated(settings)
        return {"message": str(message), "message_ko": message.ko, "tray": list(settings.tray or ()),
                "die_px": settings.die_px, "light_fixed": settings.locked_exposure is not None}


class _Measured:
    """The guarded camera's frames, with the open camera's exposure lock when it has one, for `measure`."""

    def __init__(self, source: Any, opened: Any) -> None:
        self.frame = source.frame
        lock = getattr(opened, "lock_exposure", None)
        if lock is not None:
            self.lock_exposure = lock


def calibrated(settings: Camera) -> Said:
    """What a calibration set, in both languages; raises nothing."""
    x, y, width, height = settings.tray or (0, 0, 0, 0)
    size = (f"dice {settings.die_px} px across", f"주사위 크기 {settings.die_px} px") if settings.die_px else (
        "no die seen, so no die size (lay one on the tray and calibrate again)",
        "주사위가 보이지 않아 크기는 저장하지 않았습니다(트레이에 주사위를 하나 놓고 다시 보정하세요)")
    light = ("; the light fixed" if settings.locked_exposure else "", "; 노출 고정" if settings.locked_exposure else "")
    return Said(f"Calibrated: the tray at {x}, {y}, {width} x {height} px; {size[0]}{light[0]}. "
                "Dice off the tray are set aside from now on.",
                f"보정했습니다: 트레이 {x}, {y}, {width} x {height} px; {size[1]}{light[1]}. "
                "이제부터 트레이 밖의 주사위는 읽지 않습니다.")


def _automatic(camera: Any) -> None:
    """Leave a camera's exposure and white balance to itself; raises nothing."""
    try:
        getattr(camera, "unlock_exposure", lambda: None)()
    except Exception:
        log.warning("could not set the camera to automatic light", exc_info=True)


def _light_refused(error: Exception) -> Said:
    return Said(f"The camera did not take the light it was calibrated in ({error}), so it reads in automatic light, "
                "which may drift. Calibrate it again below.",
                f"카메라가 보정된 노출을 받아들이지 않아({error}) 자동 노출로 읽고 있습니다. 읽기가 흔들릴 수 있으니 "
                "아래에서 다시 보정하세요.")


def _offline(why: object) -> Said:
    return Said(f"The camera is offline ({why}), so nothing changed; calibrate once it is back.",
                f"카메라가 꺼져 있어({why}) 아무것도 바꾸지 않았습니다. 카메라가 돌아오면 보정하세요.")


def _not_kept(state: Path, error: OSError) -> Said:
    why = error.strerror or str(error)
    return Said(f"The calibration could not be saved in the state folder {state} ({why}), so nothing changed.",
                f"상태 폴더 {state}에 보정을 저장하지 못해({why}) 아무것도 바꾸지 않았습니다.")
