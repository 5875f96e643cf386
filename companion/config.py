"""The companion's TOML config, checked whole: every bad value names its key and what is accepted."""
from __future__ import annotations

import ipaddress
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from companion.rules.errors import CompanionError

PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
CAMERA_KINDS = ("synthetic", "usb:N", "folder:PATH", "pi", "none")
EXPOSURE_KEYS = ("exposure_us", "analogue_gain")  # a locked exposure needs both; colour_gains too on a colour camera
HOST_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")  # one dot-separated part of a host name


class ConfigError(CompanionError, ValueError):
    """The config cannot be used; the message names the key, the value and what is accepted."""

    code = "bad_config"


@dataclass(frozen=True)
class GameConfig:
    """The game started when the journal has none yet."""

    id: str = "through-the-gate"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pins:
    """BCM pin numbers of the buttons, seat LEDs, status RGB LED and buzzer, and the pin factory."""

    factory: str = "lgpio"
    roll: int = 17
    next: int = 27
    undo: int = 22
    seat_leds: tuple[int, ...] = (5, 6, 13, 19, 26)
    status_rgb: tuple[int, int, int] = (16, 20, 21)
    buzzer: int = 12


@dataclass(frozen=True)
class Camera:
    """Where frames come from, and what the reader may assume about the tray."""

    source: str = "pi"  # the box's camera; "synthetic" when a config says demo = true
    tray: tuple[int, int, int, int] | None = None
    tray_view: Path | None = None  # the tray's view at calibration (a PNG calibration writes beside the config)
    die_px: int | None = None
    still_seconds: float = 0.6
    frames_to_vote: int = 3
    exposure_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None

    @property
    def locked_exposure(self) -> dict[str, object] | None:
        """The Pi camera controls saved by calibration, or None to let it adjust; raises nothing."""
        if self.exposure_us is None or self.analogue_gain is None:
            return None
        controls: dict[str, object] = {"ExposureTime": self.exposure_us, "AnalogueGain": self.analogue_gain}
        if self.colour_gains is not None:  # a camera without colour has no white balance to fix
            controls["ColourGains"] = self.colour_gains
        return controls


@dataclass(frozen=True)
class Config:
    """Everything the daemon needs to start."""

    game: GameConfig = field(default_factory=GameConfig)
    pins: Pins = field(default_factory=Pins)
    camera: Camera = field(default_factory=Camera)
    host: str = "0.0.0.0"
    port: int = 8080
    advertise: str = ""
    state: Path = Path("state")
    demo: bool = False


def load(path: Path) -> Config:
    """The config read from a TOML file; raises ConfigError with one clear sentence."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8-sig"))  # a BOM (Notepad) is not an error
    except OSError as error:
        raise ConfigError(f"Cannot read the config file {path}: {error.strerror}.") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"The config file {path} is not valid TOML: {error}.") from None
    except UnicodeDecodeError:
        raise ConfigError(f"The config file {path} is not UTF-8 text.") from None
    return beside(from_dict(data), Path(path).parent)


def beside(config: Config, folder: Path) -> Config:
    """The config with the files it names by a relative path found in `folder` (the config's own); raises nothing."""
    view = config.camera.tray_view
    if view is None or view.is_absolute():
        return config
    return replace(config, camera=replace(config.camera, tray_view=folder / view))


def from_dict(data: dict[str, Any]) -> Config:
    """The config from parsed TOML; raises ConfigError naming the first bad key."""
    _only(data, "", {"game", "gpio", "camera", "web", "state", "demo"})
    web = _table(data, "web")
    _only(web, "web.", {"host", "port", "advertise"})
    state = _table(data, "state")
    _only(state, "state.", {"folder"})
    demo = _get(data, "demo", False, _boolean)
    return Config(
        game=_game(_table(data, "game")),
        pins=_pins(_table(data, "gpio")),
        camera=_camera(_table(data, "camera"), demo=demo),
        host=_get(web, "web.host", "0.0.0.0", _host),
        port=_get(web, "web.port", 8080, _port),
        advertise=_get(web, "web.advertise", "", _host_or_empty),
        state=Path(_get(state, "state.folder", "state", _text)),
        demo=demo,
    )


def _game(table: dict[str, Any]) -> GameConfig:
    _only(table, "game.", {"id", "players", "options"})
    players = _get(table, "game.players", ["Player 1", "Player 2"], _names)
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"game.options = {options!r} must be a table of the game's options.")
    return GameConfig(_get(table, "game.id", "through-the-gate", _text), tuple(players), dict(options))


def _pins(table: dict[str, Any]) -> Pins:
    _only(table, "gpio.", {"factory", "roll", "next", "undo", "seat_leds", "status_rgb", "buzzer"})
    defaults = Pins()
    pins = Pins(
        factory=_get(table, "gpio.factory", defaults.factory, _choice(PIN_FACTORIES)),
        roll=_get(table, "gpio.roll", defaults.roll, _pin),
        next=_get(table, "gpio.next", defaults.next, _pin),
        undo=_get(table, "gpio.undo", defaults.undo, _pin),
        seat_leds=tuple(_get(table, "gpio.seat_leds", list(defaults.seat_leds), _pin_list(1, 5))),
        status_rgb=tuple(_get(table, "gpio.status_rgb", list(defaults.status_rgb), _pin_list(3, 3))),  # type: ignore[arg-type]
        buzzer=_get(table, "gpio.buzzer", defaults.buzzer, _pin),
    )
    used = [pins.roll, pins.next, pins.undo, *pins.seat_leds, *pins.status_rgb, pins.buzzer]
    twice = sorted({pin for pin in used if used.count(pin) > 1})
    if twice:
        raise ConfigError(f"gpio: pin {twice[0]} is used twice; every button, LED and the buzzer need their own pin.")
    return pins


def _camera(table: dict[str, Any], *, demo: bool) -> Camera:
    _only(table, "camera.", {"source", "tray", "tray_view", "die_px", "still_seconds", "frames_to_vote",
                             "exposure_us", "analogue_gain", "colour_gains"})
    tray, gains = table.get("tray"), table.get("colour_gains")
    locked = [key for key in (*EXPOSURE_KEYS, "colour_gains") if key in table]
    if locked and not all(key in table for key in EXPOSURE_KEYS):
        missing = ", ".join(f"camera.{key}" for key in EXPOSURE_KEYS if key not in table)
        raise ConfigError(f"camera.{locked[0]} locks the exposure only with {missing} too "
                          "(calibration saves them together); give them all or none.")
    return Camera(
        source=_get(table, "camera.source", "synthetic" if demo else "pi", camera_source),  # the box has a Pi camera
        tray=None if tray is None else tuple(_get(table, "camera.tray", None, _tray)),  # type: ignore[arg-type]
        tray_view=None if "tray_view" not in table else Path(_get(table, "camera.tray_view", None, _text)),
        die_px=_get(table, "camera.die_px", None, _whole(8, 2000)),
        still_seconds=_get(table, "camera.still_seconds", 0.6, _still_seconds),
        frames_to_vote=_get(table, "camera.frames_to_vote", 3, _whole(1, 15)),
        exposure_us=_get(table, "camera.exposure_us", None, _whole(1, 1_000_000)),  # a frame must come within 2 s
        analogue_gain=_get(table, "camera.analogue_gain", None, _gain),
        colour_gains=None if gains is None else tuple(_get(table, "camera.colour_gains", None, _gains)),  # type: ignore[arg-type]
    )


def camera_source(key: str, value: Any) -> str:
    """A camera source spec, checked; raises ConfigError naming what is accepted."""
    text = _text(key, value)
    kind, _, rest = text.partition(":")
    whole = rest.isascii() and rest.isdigit()  # not "²", which str.isdigit takes for a digit
    fine = (kind in ("synthetic", "pi", "none") and (not rest or kind == "synthetic" and whole)
            or kind == "usb" and whole or kind == "folder" and bool(rest))
    if not fine:
        raise ConfigError(f"{key} = {value!r} is not a camera; use one of: {', '.join(CAMERA_KINDS)}.")
    return text


def _only(table: dict[str, Any], prefix: str, known: set[str]) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"Unknown key {prefix}{unknown[0]}; accepted here: {', '.join(sorted(known))}.")


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{key} must be a table ([{key}]), not {value!r}.")
    return value


def _get(table: dict[str, Any], key: str, default: Any, check: Callable[[str, Any], Any]) -> Any:
    name = key.rsplit(".", 1)[-1]
    return check(key, table[name]) if name in table else default


def _text(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key} = {value!r} must be some text.")
    return value


def _host(key: str, value: Any) -> str:
    """An IP address or a host name, nothing more (no scheme, port or path); raises ConfigError."""
    if isinstance(value, str) and _is_host(value):
        return value
    raise ConfigError(f"{key} = {value!r} must be an IP address or a host name alone, "
                      "such as 192.168.1.20 or table.local (no http://, port or path).")


def _host_or_empty(key: str, value: Any) -> str:
    return value if value == "" else _host(key, value)


def _is_host(text: str) -> bool:
    """Whether the text is an IP address, or a host name whose labels are not all numbers; raises nothing."""
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        labels = text.rstrip(".").split(".")
        return all(HOST_LABEL.fullmatch(label) for label in labels) and not all(label.isdigit() for label in labels)


def _boolean(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{key} = {value!r} must be true or false.")
    return value


def _whole(low: int, high: int) -> Callable[[str, Any], int]:
    def check(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{key} = {value!r} must be a whole number from {low} to {high}.")
        return value
    return check


_port = _whole(1, 65535)
_pin = _whole(0, 27)


def _still_seconds(key: str, value: Any) -> float:
    """How long dice must lie still: at least a frame apart, and well within the roller's 8 s wait; raises ConfigError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.1 <= value <= 5:
        raise ConfigError(f"{key} = {value!r} must be a number of seconds from 0.1 to 5 "
                          "(the camera waits 8 s at most for the dice to settle).")
    return float(value)


def _gain(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 64:
        raise ConfigError(f"{key} = {value!r} must be a number above 0 and at most 64.")
    return float(value)


def _gains(key: str, value: Any) -> list[float]:
    """White balance: libcamera takes red and blue gains from 0 to 32; raises ConfigError."""
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(f"{key} = {value!r} must be [red gain, blue gain].")
    gains = [_gain(f"{key}[{index}]", gain) for index, gain in enumerate(value)]
    if max(gains) > 32:
        raise ConfigError(f"{key} = {value!r}: each colour gain must be above 0 and at most 32.")
    return gains


def _choice(accepted: tuple[str, ...]) -> Callable[[str, Any], str]:
    def check(key: str, value: Any) -> str:
        if value not in accepted:
            raise ConfigError(f"{key} = {value!r} is not accepted; use one of: {', '.join(accepted)}.")
        return value
    return check


def _pin_list(low: int, high: int) -> Callable[[str, Any], list[int]]:
    def check(key: str, value: Any) -> list[int]:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise ConfigError(f"{key} = {value!r} must be a list of {low} to {high} pin numbers.")
        return [_pin(f"{key}[{index}]", pin) for index, pin in enumerate(value)]
    return check


def _tray(key: str, value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) != 4:
        raise ConfigError(f"{key} = {value!r} must be [x, y, width, height] in pixels.")
    numbers = [_whole(0, 10000)(f"{key}[{index}]", number) for index, number in enumerate(value)]
    if numbers[2] < 8 or numbers[3] < 8:
        raise ConfigError(f"{key} = {value!r}: the tray must be at least 8 pixels wide and high.")
    return numbers


def _names(key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ConfigError(f"{key} = {value!r} must be a list of 1 to 8 player names.")
    return [_text(f"{key}[{index}]", name) for index, name in enumerate(value)]
