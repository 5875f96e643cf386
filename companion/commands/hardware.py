"""`companion check-hardware`: walk the builder through the box's buttons, lights, buzzer and camera."""
from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from companion import config as config_module
from companion.commands import say
from companion.config import Config

Say = Callable[[str], None]

BUTTON_SECONDS = 20.0
LIGHT_SECONDS = 1.0
SETTLE_SECONDS = 1.0  # the Pi camera finds its light over its first frames: the newest frame after this is kept
FRAME_GAP_SECONDS = 0.05
FRAME_SUFFIXES = (".png", ".jpg", ".jpeg")
MOST_SECONDS = 600.0


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """`companion check-hardware`'s arguments; raises nothing."""
    check = commands.add_parser("check-hardware", help="press each button, see each light, hear the buzzer, "
                                                       "see a camera frame (stop the companion first)")
    check.add_argument("--config", type=Path, help="the TOML config file (default: the default pins and the Pi camera)")
    check.add_argument("--camera", help="usb:0 | folder:PATH | pi | synthetic | none (default: the config's)")
    check.add_argument("--seconds", type=float, default=BUTTON_SECONDS, help="how long to wait for each button")
    check.add_argument("--light-seconds", type=float, default=LIGHT_SECONDS, help="how long each light stays on")
    check.add_argument("--frame-out", type=Path, help="save the camera's frame here (.png or .jpg)")


def check_hardware(args: argparse.Namespace, *, pin_factory: Any = None, out: Say = print) -> int:
    """Walk through every part and list what did not answer; returns 0 when all did, 1 when some did not, 2 with
    one sentence for bad input (nothing is touched then); raises ConfigError for a bad config."""
    problem = _bad_arguments(args)
    if problem:
        return say(problem)
    chosen = config_module.load(args.config) if args.config else Config()
    if args.camera:
        chosen = replace(chosen, camera=replace(chosen.camera, source=config_module.camera_source("--camera", args.camera)))
    missing = _check_panel(chosen, pin_factory=pin_factory, seconds=args.seconds,
                           light_seconds=args.light_seconds, out=out)
    if not check_camera(chosen.camera.source, frame_out=args.frame_out, out=out):
        missing.append("the camera")
    if missing:
        out(f"Not answered: {', '.join(missing)}.")
        return 1
    camera = " and the camera gave a frame" if chosen.camera.source != "none" else " (no camera to check)"
    out(f"Every button was pressed{camera}. The lights and the buzzer were yours to see and hear.")
    return 0


def _bad_arguments(args: argparse.Namespace) -> str | None:
    """The sentence saying what is wrong with the command line, or None; raises nothing."""
    for option, value in (("--seconds", args.seconds), ("--light-seconds", args.light_seconds)):
        if not (math.isfinite(value) and 0 < value <= MOST_SECONDS):
            return f"{option} {value:g} must be a number of seconds above 0 and at most {MOST_SECONDS:g}."
    target = args.frame_out
    if target is not None:
        if target.suffix.lower() not in FRAME_SUFFIXES:
            return f"--frame-out {target} must end in {', '.join(FRAME_SUFFIXES)}, so the frame can be saved as a picture."
        if not target.parent.is_dir():
            return f"--frame-out {target}: the folder {target.parent} does not exist."
        if target.is_dir():
            return f"--frame-out {target} is a folder; give a file name."
    return None


def _check_panel(chosen: Config, *, pin_factory: Any, seconds: float, light_seconds: float, out: Say) -> list[str]:
    """The buttons and lights on the given factory, or on the config's own (closed after); returns what did not
    answer; raises nothing."""
    from hardware.check import Wiring, walk_through  # gpiozero: imported by this command only, not by every one
    from hardware.factory import GpioUnavailable, make_pin_factory

    pins = chosen.pins
    if pins.factory == "mock":
        out('The pins are make-believe (gpio.factory = "mock"): no real button, light or buzzer is checked.')
    factory = pin_factory
    if factory is None:
        try:
            factory = make_pin_factory(pins.factory)
        except GpioUnavailable as error:
            out(f"The GPIO cannot start: {error}.")
            return ["the buttons, lights and buzzer (no GPIO)"]
    wiring = Wiring(roll=pins.roll, next=pins.next, undo=pins.undo, seat_leds=pins.seat_leds,
                    status_rgb=pins.status_rgb, buzzer=pins.buzzer)
    try:
        return walk_through(wiring, pin_factory=factory, seconds=seconds, light_seconds=light_seconds, say=out)
    finally:
        if pin_factory is None:
            factory.close()


def check_camera(spec: str, *, frame_out: Path | None = None, out: Say = print,
                 settle_seconds: float = SETTLE_SECONDS) -> bool:
    """Grab one frame and say its size and mean brightness (and save it to `frame_out`); returns whether a frame
    came (True for no camera configured); raises nothing."""
    from vision.frames import CameraError
    from vision.sources import open_source

    if spec == "none":
        out('The camera: camera.source is "none", so there is no camera to check.')
        return True
    try:
        source = open_source(spec)
    except (CameraError, ValueError) as error:
        out(f"The camera ({spec}) cannot be opened: {error}")
        return False
    try:
        frame = _newest_frame(source, settle_seconds)
    except CameraError as error:
        out(f"The camera ({spec}) opened but gave no frame: {error}")
        return False
    finally:
        getattr(source, "close", lambda: None)()
    height, width = frame.shape[:2]
    out(f"The camera ({spec}) gives frames of {width} × {height} pixels, mean brightness {frame.mean():.0f} of 255.")
    if frame_out is not None:
        _save(frame, frame_out, out)
    return True


def _newest_frame(source: Any, settle_seconds: float) -> Any:
    """The newest frame once `settle_seconds` have passed (at least one frame); raises CameraError."""
    until = time.monotonic() + settle_seconds
    frame = source.frame()
    while time.monotonic() < until:
        time.sleep(FRAME_GAP_SECONDS)
        frame = source.frame()
    return frame


def _save(frame: Any, target: Path, out: Say) -> None:
    """Write the frame to `target` and say where, or say why not; raises nothing."""
    import cv2

    try:
        written = cv2.imwrite(str(target), frame)
    except cv2.error as error:
        written, reason = False, str(error)
    else:
        reason = "the file could not be written"
    out(f"Saved the frame to {target}." if written else f"Could not save the frame to {target}: {reason}.")
