"""A calibration made at the table (from the host's page), kept in the state folder beside the journal.

The service may not write its config (/etc is read-only to it), so the host page's calibration is kept in
`calibration.json` in the state folder, with its tray view beside it. It names the config's camera
settings it was made over: when the config's have changed since (`companion calibrate` run again, or an
edit by hand), the config's newer ones are used and the kept one is set aside.
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.camera import calibrate
from companion.config import Camera, ConfigError, from_dict
from companion.rules.said import Said

log = logging.getLogger(__name__)
FILE = "calibration.json"
UNUSABLE = (ValueError, TypeError, AttributeError)  # what a kept file that cannot be used raises
KEYS = ("tray", "tray_view", "die_px", "exposure_us", "analogue_gain", "colour_gains")  # what calibration sets


class NotReadable(ValueError):
    """A kept calibration this user may not read (the service's own user, who made it, may)."""


def keep(state: Path, found: dict[str, Any], *, config: Camera) -> Camera:
    """Keep what calibration found in the state folder, over the config's camera settings; returns the camera
    settings to use from now on; raises ConfigError for a value the config would refuse, OSError when the folder
    cannot be written (nothing is kept then)."""
    target = state / FILE
    _applied(config, {key: found[key] for key in KEYS if key != "tray_view" and found.get(key) is not None}, state)
    try:
        before = _stored(target)
    except ValueError:
        before = None  # a kept file that cannot be read is replaced whole
    settings, view = calibrate.with_view_file(target, {key: found.get(key) for key in KEYS})
    record = {"camera": {key: value for key, value in settings.items() if value is not None}, "over": fingerprint(config)}
    try:
        calibrate.replace_file(target, json.dumps(record, indent=1).encode("utf-8"), like=target)
    except BaseException:
        if view is not None:
            view.unlink(missing_ok=True)
        raise
    old = (before or {}).get("camera", {}).get("tray_view")
    if isinstance(old, str) and Path(old).name == old and old != settings["tray_view"]:
        (state / old).unlink(missing_ok=True)
    return _applied(config, record["camera"], state)


def kept(config: Camera, state: Path, warnings: list[str]) -> Camera:
    """The camera settings to use: the state folder's calibration when it was made over these config settings,
    else the config's (a kept one that cannot be read adds a warning); raises nothing."""
    try:
        return in_use(config, state)
    except UNUSABLE as error:
        warnings.append(unusable(state, error))
        log.warning(warnings[-1])
        return config


def in_use(config: Camera, state: Path) -> Camera:
    """The camera settings the table uses: the state folder's calibration when it was made over these config
    settings, else the config's; raises ValueError (NotReadable for one this user may not read), TypeError or
    AttributeError for a kept file that cannot be used."""
    target = state / FILE
    record = _stored(target)
    if record is None:
        return config
    if record.get("over") != fingerprint(config):
        log.info("the calibration made on the host page (%s) was made over other camera settings than the "
                 "config's now (calibrated again, or edited), so the config's are used", target)
        return config
    return _applied(config, record.get("camera"), state)


def unusable(state: Path, error: Exception) -> Said:
    """What a kept calibration that cannot be used means for the table; raises nothing."""
    return Said(f"The calibration made on the host page ({state / FILE}) cannot be used ({error}), so the config's "
                "camera settings are used; calibrate again from the host page.",
                f"호스트 페이지에서 한 보정({state / FILE})을 쓸 수 없어({error}) 설정 파일의 카메라 설정을 씁니다. "
                "호스트 페이지에서 다시 보정하세요.")


def fingerprint(camera: Camera) -> dict[str, Any]:
    """The config's camera settings a calibration replaces, and its camera, as JSON values; raises nothing."""
    return {"source": camera.source, "tray": None if camera.tray is None else list(camera.tray),
            "tray_view": None if camera.tray_view is None else camera.tray_view.name, "die_px": camera.die_px,
            "exposure_us": camera.exposure_us, "analogue_gain": camera.analogue_gain,
            "colour_gains": None if camera.colour_gains is None else list(camera.colour_gains)}


def _applied(config: Camera, settings: Any, state: Path) -> Camera:
    """The config's camera with every calibrated setting taken from `settings` (absent ones cleared); raises
    ValueError (a ConfigError) naming a bad one."""
    if not isinstance(settings, dict) or set(settings) - set(KEYS):
        raise ConfigError(f"its camera settings must be some of {', '.join(KEYS)}")
    checked = from_dict({"camera": settings}).camera
    calibrated = {key: getattr(checked, key) for key in KEYS}
    calibrated["tray_view"] = None if checked.tray_view is None else state / checked.tray_view.name
    return replace(config, **calibrated)


def _stored(target: Path) -> dict[str, Any] | None:
    """The kept record, or None when there is none; raises NotReadable for one this user may not read, ValueError
    for a file that is not one."""
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except PermissionError as error:
        raise NotReadable(f"it cannot be read: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"it cannot be read: {error}") from None
    record = json.loads(text)
    if not isinstance(record, dict):
        raise ValueError("it is not a JSON object")
    return record
