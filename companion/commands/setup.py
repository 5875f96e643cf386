"""Setting the box up from a shell: calibrate the camera, check a config file."""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from companion import config as config_module
from companion.commands import say
from companion.config import Config


def calibrate(args: argparse.Namespace) -> int:
    """Calibrate the camera and save the result to the config; returns the exit code (2 with one sentence
    when the camera or the config file fails); raises ConfigError or CompanionError."""
    from companion.camera import calibrate as calibration
    from vision.reader import read_dice
    from vision.frames import CameraError
    from vision.sources import open_source

    calibration.target_of(args.config)  # a config it could not write is said before the camera is opened
    chosen = config_module.load(args.config) if args.config.exists() else Config()
    spec = config_module.camera_source("--camera", args.camera) if args.camera else chosen.camera.source
    try:
        source = open_source(spec)
    except (CameraError, ValueError) as error:
        return say(f"cannot open the camera {spec!r}: {error}")
    try:
        found = calibration.measure(source, read_dice)
    except CameraError as error:
        return say(f"the camera {spec!r} failed while calibrating: {error} Nothing was saved.")
    finally:
        getattr(source, "close", lambda: None)()
    if args.camera:  # the calibration is this camera's: the table must use it too
        found["source"] = spec
    try:
        calibration.save(args.config, found)
    except OSError as error:
        return say(f"cannot write the config file {args.config}: {error.strerror or error}. Nothing was saved; "
                    "run calibrate as a user who may write it (sudo).")
    print(calibration.describe(found) + f" Saved to {args.config}; restart the companion to use it.")
    return 0


def check_config(path: Path, state: Path | None = None) -> int:
    """Check a config as `run` would, its first game included, and say what the state folder's calibration from
    the host page changes; returns the exit code; raises ConfigError."""
    from companion.camera import calibration_store
    from companion.daemon import check_first_game

    chosen = config_module.load(path)
    chosen = chosen if state is None else replace(chosen, state=state)
    check_first_game(chosen)
    try:
        camera = calibration_store.in_use(chosen.camera, chosen.state)
    except calibration_store.NotReadable:  # the service's own folder, checked by another user: not a fault
        notes, camera = [_not_checked(chosen.state)], chosen.camera
    except calibration_store.UNUSABLE as error:  # run goes on with the config's: no error
        notes, camera = [calibration_store.unusable(chosen.state, error)], chosen.camera
    else:
        notes = [] if camera == chosen.camera else [_calibrated_on_the_page(chosen.state, camera)]
    view = camera.tray_view
    if view is not None:
        from vision.tray import read_view

        try:
            read_view(view)
        except ValueError as error:  # run goes on without it, so this is no error, but it is worth knowing
            notes.append(f"camera.tray_view: {error}, so the tray will not follow a knocked camera.")
    print(f"{path}: fine." if not notes else f"{path}: fine, but " + " ".join(notes))
    return 0


def _not_checked(state: Path) -> str:
    """What check-config says of a state folder this user may not read; raises nothing."""
    return (f"this user may not read the state folder {state}, so a calibration made on the host page and kept "
            "there was not checked; run check-config as the service's user (sudo -u companion companion "
            "check-config ...) to check it.")


def _calibrated_on_the_page(state: Path, camera: config_module.Camera) -> str:
    """What the host page's calibration, kept in the state folder, sets over the config; raises nothing."""
    from companion.camera.calibration_store import FILE

    x, y, width, height = camera.tray or (0, 0, 0, 0)
    tray = f"the tray at {x}, {y}, {width} x {height} px" if camera.tray else "no tray"
    size = f"dice {camera.die_px} px across" if camera.die_px else "no die size"
    light = "the light fixed" if camera.locked_exposure else "automatic light"
    return (f"the camera was calibrated on the host page since ({state / FILE}), and the table uses "
            f"that instead of this file's [camera] calibration: {tray}, {size}, {light}.")
