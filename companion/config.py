"""The companion's TOML config, checked whole: every bad value names its key and what is accepted."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from companion import config_values as checks
from companion.config_values import ConfigError  # raised by every check here, and imported from here

PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
CAMERA_KINDS = ("synthetic", "usb:N", "folder:PATH", "pi", "none")
EXPOSURE_KEYS = ("exposure_us", "analogue_gain")  # a locked exposure needs both; colour_gains too on a colour camera


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
    inputs_per_second: int = 10  # what one phone (a token) may send, after a burst of input_burst at once
    input_burst: int = 20
    streams_per_link: int = 8  # event streams one link (a seat's phones, the host's) may hold at once
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
    _only(web, "web.", {"host", "port", "advertise", "inputs_per_second", "input_burst",
                             "streams_per_link"})
    state = _table(data, "state")
    _only(state, "state.", {"folder"})
    demo = _get(data, "demo", False, checks.boolean)
    return Config(
        game=_game(_table(data, "game")),
        pins=_pins(_table(data, "gpio")),
        camera=_camera(_table(data, "camera"), demo=demo),
        host=_get(web, "web.host", "0.0.0.0", checks.host),
        port=_get(web, "web.port", 8080, checks.port),
        advertise=_get(web, "web.advertise", "", checks.host_or_empty),
        inputs_per_second=_get(web, "web.inputs_per_second", 10, checks.whole(1, 10_000)),
        input_burst=_get(web, "web.input_burst", 20, checks.whole(1, 100_000)),
        streams_per_link=_get(web, "web.streams_per_link", 8, checks.whole(1, 1_000)),
        state=Path(_get(state, "state.folder", "state", checks.text)),
        demo=demo,
    )


def _game(table: dict[str, Any]) -> GameConfig:
    _only(table, "game.", {"id", "players", "options"})
    players = _get(table, "game.players", ["Player 1", "Player 2"], checks.names)
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"game.options = {options!r} must be a table of the game's options.")
    return GameConfig(_get(table, "game.id", "through-the-gate", checks.text), tuple(players), dict(options))


def _pins(table: dict[str, Any]) -> Pins:
    _only(table, "gpio.", {"factory", "roll", "next", "undo", "seat_leds", "status_rgb", "buzzer"})
    defaults = Pins()
    pins = Pins(
        factory=_get(table, "gpio.factory", defaults.factory, checks.choice(PIN_FACTORIES)),
        roll=_get(table, "gpio.roll", defaults.roll, checks.pin),
        next=_get(table, "gpio.next", defaults.next, checks.pin),
        undo=_get(table, "gpio.undo", defaults.undo, checks.pin),
        seat_leds=tuple(_get(table, "gpio.seat_leds", list(defaults.seat_leds), checks.pin_list(1, 5))),
        status_rgb=tuple(_get(table, "gpio.status_rgb", list(defaults.status_rgb), checks.pin_list(3, 3))),  # type: ignore[arg-type]
        buzzer=_get(table, "gpio.buzzer", defaults.buzzer, checks.pin),
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
        tray=None if tray is None else tuple(_get(table, "camera.tray", None, checks.tray)),  # type: ignore[arg-type]
        tray_view=None if "tray_view" not in table else Path(_get(table, "camera.tray_view", None, checks.text)),
        die_px=_get(table, "camera.die_px", None, checks.whole(8, 2000)),
        still_seconds=_get(table, "camera.still_seconds", 0.6, checks.still_seconds),
        frames_to_vote=_get(table, "camera.frames_to_vote", 3, checks.whole(1, 15)),
        exposure_us=_get(table, "camera.exposure_us", None, checks.whole(1, 1_000_000)),  # a frame must come within 2 s
        analogue_gain=_get(table, "camera.analogue_gain", None, checks.gain),
        colour_gains=None if gains is None else tuple(_get(table, "camera.colour_gains", None, checks.gains)),  # type: ignore[arg-type]
    )


def camera_source(key: str, value: Any) -> str:
    """A camera source spec, checked; raises ConfigError naming what is accepted."""
    text = checks.text(key, value)
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


