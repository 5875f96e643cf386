"""`companion calibrate`: find the tray, measure a die, lock the Pi camera's exposure, save to the config."""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from companion import config as config_module
from companion.rules.errors import CompanionError
from companion.rules.said import Said

SETTLE_SECONDS = 2.0
VIEW_INFIX = "-tray-view-"  # a tray view calibration writes is named <config's name>-tray-view-<content>.png


class CalibrationRefused(CompanionError):
    """What the camera saw cannot be saved as the table's calibration; the message says why and what to do."""

    code = "calibration_refused"


def measure(source: Any, read: Callable[[Any], Any], *, settle_seconds: float = SETTLE_SECONDS,
            sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """The camera settings to save: tray box and its view, die size (None: no die seen), locked exposure;
    raises CameraError, or CalibrationRefused when the tray found leaves out dice on it."""
    from vision.settle import thumbnail
    from vision.tray import find_tray
    from vision.view_shift import floor

    sleep(settle_seconds)  # let the camera's automatic exposure and white balance settle
    found: dict[str, Any] = {}
    lock = getattr(source, "lock_exposure", None)
    if lock is not None:
        controls = lock()
        gains = controls.get("ColourGains")  # none on a camera without colour
        found.update(exposure_us=int(controls["ExposureTime"]), analogue_gain=float(controls["AnalogueGain"]),
                     colour_gains=None if gains is None else [float(gain) for gain in gains])  # as read: rounding may pass the range
    frame = source.frame()
    found["tray"] = list(find_tray(frame))
    reading = read(frame)
    boxes = [die.box for die in reading.dice]
    _check_dice_inside(found["tray"], boxes)
    found["die_px"] = reading.die_px
    found["tray_view"] = floor(thumbnail(frame), tuple(boxes), frame.shape[1])  # to follow the tray when knocked
    return found


def _check_dice_inside(tray: list[int], boxes: list[tuple[int, int, int, int]]) -> None:
    """Refuse a tray that leaves out dice seen on it (the reader would set them aside as off the tray);
    raises CalibrationRefused."""
    from vision.places import in_tray

    outside = [box for box in boxes if not in_tray(tray, box[0] + box[2] / 2, box[1] + box[3] / 2)]
    if outside:
        raise CalibrationRefused(Said(
            f"The tray I found, {tray}, leaves out {len(outside)} of the {len(boxes)} dice I see, so those would be "
            "set aside at the table. Put the whole tray in view, with the dice inside it, and calibrate again; "
            "nothing was saved.",
            f"찾은 트레이 {tray}에서 보이는 주사위 {len(boxes)}개 중 {len(outside)}개가 빠져, 게임 중에 그 주사위는 "
            "읽지 않게 됩니다. 트레이 전체가 보이고 주사위가 그 안에 있게 한 뒤 다시 보정하세요. 아무것도 저장하지 "
            "않았습니다."))


def save(path: Path, settings: dict[str, Any]) -> None:
    """Write the settings into the config's [camera] table (a None value removes the key), keeping everything
    else, its comments and line endings, and who may read it; a link is written through to its target;
    raises ConfigError, or OSError when the file cannot be written.

    A tray view (an image) is written to a PNG beside the config, named by its content, and the config names it;
    the view it named before is removed once the new config is in place (a power cut leaves one or the other)."""
    target = target_of(path)
    before = _read_config(target)
    settings, view = with_view_file(target, settings)
    try:
        updated = _with_camera(before, settings)
        config_module.from_dict(_parse(updated, "Calibration would break the config file"))  # never write what would not load
        replace_file(target, updated.encode("utf-8"), like=target)
    except BaseException:
        if view is not None:
            view.unlink(missing_ok=True)
        raise
    _drop_old_view(target, before, view)


def with_view_file(target: Path, settings: dict[str, Any]) -> tuple[dict[str, Any], Path | None]:
    """The settings with a tray view image replaced by the name of the PNG written for it beside the config, and
    that file (None: no image, or the same view already saved there); raises OSError."""
    view = settings.get("tray_view")
    if view is None or isinstance(view, str):
        return settings, None
    from vision.pictures import encode_png

    picture = encode_png(view)
    written = target.parent / f"{target.stem}{VIEW_INFIX}{hashlib.sha256(picture).hexdigest()[:12]}.png"
    named = {**settings, "tray_view": written.name}
    if written.exists():
        return named, None
    replace_file(written, picture, like=target)
    return named, written


def _drop_old_view(target: Path, before: str, kept: Path | None) -> None:
    """Remove the tray view the config named before calibrating, when calibration wrote it and it is replaced;
    raises nothing (a file left behind is only untidy)."""
    try:
        old = _parse(before, "").get("camera", {}).get("tray_view")
    except config_module.ConfigError:
        return
    mine = isinstance(old, str) and Path(old).name == old and old.startswith(target.stem + VIEW_INFIX)
    if kept is None or not mine or old == kept.name:
        return
    try:
        (target.parent / old).unlink(missing_ok=True)
    except OSError:
        pass


def target_of(path: Path) -> Path:
    """The file calibration writes: the config, or the file its link points to; raises ConfigError for a link
    that leads in a circle or a folder that does not exist."""
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError for a symlink loop, later ones OSError
        raise config_module.ConfigError(f"{path} is a symbolic link that leads in a circle; "
                                        "point it at the config file.") from None
    if not target.parent.is_dir():
        raise config_module.ConfigError(f"There is no folder {target.parent} for the config file {path}; "
                                        "make it first, or give a --config in a folder that exists.")
    return target


def replace_file(target: Path, data: bytes, *, like: Path) -> None:
    """Write the data to a file beside the target, with the access of `like` (the config), then put it in the
    target's place in one step (a power cut leaves the old file or the new one); raises OSError, leaving no
    half-written file."""
    with tempfile.NamedTemporaryFile("wb", dir=target.parent, delete=False) as temporary:
        written = Path(temporary.name)
        try:
            temporary.write(data)
            temporary.flush()
            os.fsync(temporary.fileno())
        except OSError:
            written.unlink(missing_ok=True)
            raise
    try:
        _same_access(like, written)
        os.replace(written, target)
    except OSError:
        written.unlink(missing_ok=True)
        raise
    _sync(target.parent)


def _read_config(path: Path) -> str:
    """The config's text, "" for a file not made yet; raises ConfigError for a file that is not UTF-8 TOML text,
    OSError when it cannot be read."""
    if not path.exists():
        return ""
    try:
        with path.open(encoding="utf-8-sig", newline="") as file:  # a BOM (Notepad) is dropped
            return file.read()
    except UnicodeDecodeError:
        raise config_module.ConfigError(f"{path} is not UTF-8 text; calibration changes only a readable config.") from None


def _with_camera(text: str, settings: dict[str, Any]) -> str:
    """The config text with the [camera] keys set or removed, the rest untouched; raises ConfigError."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    config_module.from_dict(_parse(text, "The config file is not valid TOML"))  # so [camera] is a table
    try:
        document = tomlkit.parse(text)
        if "camera" not in document:
            document["camera"] = tomlkit.table()
        camera = document["camera"]
        for key, value in settings.items():
            if value is not None:
                camera[key] = value
            elif key in camera:
                del camera[key]
        updated = tomlkit.dumps(document)
    except TOMLKitError as error:
        raise config_module.ConfigError(f"Calibration could not update the config's [camera] table: {error}.") from None
    return _same_line_ends(text, updated)


def _same_line_ends(original: str, updated: str) -> str:
    """The updated text with the original's Windows line ends, when it had them; raises nothing."""
    if "\r\n" not in original:
        return updated
    return updated.replace("\r\n", "\n").replace("\n", "\r\n")


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


def _parse(text: str, trouble: str) -> dict[str, Any]:
    """The text as TOML; raises ConfigError saying where it is broken."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise config_module.ConfigError(f"{trouble}: {error}.") from None


def describe(settings: dict[str, Any]) -> str:
    """The saved settings in a sentence for the person calibrating; raises nothing."""
    parts = [f"camera {settings['source']}"] if settings.get("source") else []
    parts.append(f"tray {settings['tray']}" + (" (its view kept, to follow it when the camera is knocked)"
                                               if settings.get("tray_view") is not None else ""))
    parts.append(f"die size {settings['die_px']} px" if settings.get("die_px") else
                 "no die seen, so no die size is saved (put one on the tray and calibrate again to measure it)")
    if "exposure_us" in settings:
        parts.append(f"exposure locked at {settings['exposure_us']} µs, gain {settings['analogue_gain']}")
    return "Calibrated: " + "; ".join(parts) + "."
