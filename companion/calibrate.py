"""`companion calibrate`: find the tray, measure a die, lock the Pi camera's exposure, save to the config."""
from __future__ import annotations

import os
import re
import stat
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from companion import config as config_module

SETTLE_SECONDS = 2.0


def measure(source: Any, read: Callable[[Any], Any], *, settle_seconds: float = SETTLE_SECONDS,
            sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """The camera settings to save: tray box, die size, locked exposure; raises CameraError."""
    from vision.tray import find_tray

    sleep(settle_seconds)  # let the camera's automatic exposure and white balance settle
    found: dict[str, Any] = {}
    lock = getattr(source, "lock_exposure", None)
    if lock is not None:
        controls = lock()
        found.update(exposure_us=int(controls["ExposureTime"]), analogue_gain=round(float(controls["AnalogueGain"]), 3),
                     colour_gains=[round(float(gain), 3) for gain in controls["ColourGains"]])
    frame = source.frame()
    found["tray"] = list(find_tray(frame))
    sizes = [max(die.box[2], die.box[3]) for die in read(frame).dice]
    if sizes:
        found["die_px"] = int(statistics.median(sizes))
    return found


def save(path: Path, settings: dict[str, Any]) -> None:
    """Write the settings into the config's [camera] table, keeping everything else and who may read it;
    raises ConfigError, or OSError when the file cannot be written."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    for key, value in settings.items():
        text = _set_camera_key(text, key, _toml(value))
    config_module.from_dict(_parse(text))  # refuse to write a config that would not load
    folder = path.resolve().parent
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, encoding="utf-8") as temporary:
        temporary.write(text)
        temporary.flush()
        os.fsync(temporary.fileno())
    _same_access(path, Path(temporary.name))
    os.replace(temporary.name, path)
    _sync(folder)


def _same_access(path: Path, written: Path) -> None:
    """Give the new file the old one's mode and owner (0644 when new), so the service can still read
    a config calibrated under sudo; raises OSError."""
    if not path.exists():
        written.chmod(0o644)
        return
    old = path.stat()
    written.chmod(stat.S_IMODE(old.st_mode))
    if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.chown(written, old.st_uid, old.st_gid)  # root may (calibrate under sudo)
        except PermissionError:
            pass  # anyone else may only own what they write; the mode is kept all the same


def _sync(folder: Path) -> None:
    """Flush the folder's entry for the replaced file, so a power cut keeps the new config; raises nothing."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _parse(text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise config_module.ConfigError(f"Calibration would break the config file: {error}.") from None


def _set_camera_key(text: str, key: str, value: str) -> str:
    lines = text.splitlines()
    start = next((index for index, line in enumerate(lines) if line.strip() == "[camera]"), None)
    if start is None:
        return text.rstrip("\n") + f"\n\n[camera]\n{key} = {value}\n"
    end = next((index for index in range(start + 1, len(lines)) if lines[index].lstrip().startswith("[")), len(lines))
    pattern = re.compile(rf"^\s*#?\s*{re.escape(key)}\s*=")
    for index in range(start + 1, end):
        if pattern.match(lines[index]):
            lines[index] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    lines.insert(start + 1, f"{key} = {value}")
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return repr(value) if isinstance(value, (int, float)) else f'"{value}"'


def describe(settings: dict[str, Any]) -> str:
    """The saved settings in a sentence for the person calibrating; raises nothing."""
    parts = [f"tray {settings['tray']}"]
    parts.append(f"die size {settings['die_px']} px" if "die_px" in settings else "no die seen (put one on the tray to measure it)")
    if "exposure_us" in settings:
        parts.append(f"exposure locked at {settings['exposure_us']} µs, gain {settings['analogue_gain']}")
    return "Calibrated: " + "; ".join(parts) + "."
