"""Choose the gpiozero pin factory by name: lgpio on a Pi (5 included), RPi.GPIO on a Pi 1-4, or mock.

Nothing here touches hardware or imports a GPIO library at import time: every import happens
inside make_pin_factory, so the daemon can fall back to web-only when the GPIO cannot start.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # for the annotation only; never imported at run time here
    from gpiozero import Factory

FACTORY_NAMES: tuple[str, ...] = ("lgpio", "rpigpio", "mock")
DEFAULT_FACTORY = "lgpio"


class GpioUnavailable(RuntimeError):
    """The GPIO pin factory could not start (library missing, not a Pi, no /dev/gpiochip)."""


def make_pin_factory(name: str = DEFAULT_FACTORY) -> Factory:
    """Make the named pin factory; raises ValueError for an unknown name, GpioUnavailable if it cannot start."""
    key = name.strip().lower() if isinstance(name, str) else None
    makers: dict[str, Callable[[], Factory]] = {
        "lgpio": _make_lgpio,
        "rpigpio": _make_rpigpio,
        "mock": _make_mock,
    }
    if key not in makers:
        raise ValueError(
            f"unknown GPIO pin factory {name!r}: use one of {', '.join(FACTORY_NAMES)} "
            f"({DEFAULT_FACTORY} is the default and the only one that works on a Raspberry Pi 5)"
        )
    return makers[key]()


def _make_lgpio() -> Factory:
    """Start gpiozero's LGPIOFactory; raises GpioUnavailable when lgpio or a gpiochip is missing."""
    try:
        # gpiozero/pins/lgpio.py does `import lgpio` at its top, so a missing library is an ImportError.
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as error:
        raise GpioUnavailable(
            "the lgpio library is not installed (apt install python3-lgpio, or pip install lgpio "
            f"on a Pi), so the buttons and LEDs are off: {error}"
        ) from error
    try:
        # Opens /dev/gpiochip<N>; raises lgpio.error ("can not open gpiochip") or PinUnknownPi off a Pi.
        return LGPIOFactory()
    except Exception as error:  # lgpio.error derives from Exception only: catch it by its base
        raise GpioUnavailable(_cannot_start("lgpio", error)) from error


def _make_rpigpio() -> Factory:
    """Start gpiozero's RPiGPIOFactory (Pi 1-4 only); raises GpioUnavailable when it cannot."""
    try:
        # Importing RPi.GPIO off a Pi raises RuntimeError, not ImportError: catch both here.
        from gpiozero.pins.rpigpio import RPiGPIOFactory
    except (ImportError, RuntimeError) as error:
        raise GpioUnavailable(
            "the RPi.GPIO library is not installed or not usable here (it works on a Pi 1-4, "
            f'never on a Pi 5: use "lgpio" there), so the buttons and LEDs are off: {error}'
        ) from error
    try:
        return RPiGPIOFactory()
    except Exception as error:
        raise GpioUnavailable(_cannot_start("rpigpio", error)) from error


def _make_mock() -> Factory:
    """Make a MockFactory of PWM-capable mock pins (the RGB status LED needs PWM)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def _cannot_start(name: str, error: Exception) -> str:
    """A sentence saying why the named factory could not start, with a hint for the usual cause."""
    if not any(Path("/dev").glob("gpiochip*")):
        hint = "no /dev/gpiochip* device exists, so this does not look like a Raspberry Pi"
    else:
        hint = "check that the service user may open /dev/gpiochip* (the gpio group)"
    if name == "rpigpio":
        hint += '; RPi.GPIO never works on a Pi 5, use "lgpio" there'
    return f"the {name} GPIO pin factory could not start ({hint}), so the buttons and LEDs are off: {error}"
