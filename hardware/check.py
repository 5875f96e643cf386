"""`companion check-hardware`'s walk through the panel: press each button, watch each light, hear the buzzer.

It builds its own gpiozero devices, one at a time and always with `pin_factory=`, so it shares nothing with the
daemon's Panel; the companion must be stopped first, as it holds the pins. Lines go to `say` (stdout): a box
with no screen is checked over SSH.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from gpiozero import LED, RGBLED, Button, Buzzer, Device, Factory

Say = Callable[[str], None]
DeviceT = TypeVar("DeviceT", bound=Device)
STATUS_COLOURS: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("red", (1, 0, 0)), ("green", (0, 1, 0)), ("blue", (0, 0, 1)))
BEEPS = 2
PINS_BUSY = "stop the companion first (sudo systemctl stop companion), as it holds the pins"


@dataclass(frozen=True)
class Wiring:
    """The panel's BCM pins, as the config gives them; raises nothing."""

    roll: int
    next: int
    undo: int
    seat_leds: tuple[int, ...]
    status_rgb: tuple[int, int, int]
    buzzer: int

    @property
    def buttons(self) -> tuple[tuple[str, int], ...]:
        """Each button's name as printed on the box, with its pin; raises nothing."""
        return (("ROLL", self.roll), ("NEXT", self.next), ("UNDO", self.undo))


def walk_through(wiring: Wiring, *, pin_factory: Factory, seconds: float, light_seconds: float,
                 say: Say = print) -> list[str]:
    """Check the buttons, then show each light and beep; returns what did not answer ("NEXT (GPIO 27)", ...);
    raises nothing for a pin that cannot be used (it is said and listed)."""
    missing = check_buttons(wiring, pin_factory=pin_factory, seconds=seconds, say=say)
    missing += show_lights(wiring, pin_factory=pin_factory, light_seconds=light_seconds, say=say)
    return missing


def check_buttons(wiring: Wiring, *, pin_factory: Factory, seconds: float, say: Say = print) -> list[str]:
    """Ask for each button in turn and wait up to `seconds` for it; returns the buttons not pressed; raises nothing."""
    say(f"The buttons: press each one when asked (up to {seconds:g} s each).")
    missing = []
    for name, pin in wiring.buttons:
        if not _pressed(name, pin, pin_factory=pin_factory, seconds=seconds, say=say):
            missing.append(f"{name} (GPIO {pin})")
    return missing


def _pressed(name: str, pin: int, *, pin_factory: Factory, seconds: float, say: Say) -> bool:
    """Whether the button was pressed within `seconds`, saying which; raises nothing."""
    button = _device(f"{name} (GPIO {pin})", lambda: Button(pin, pull_up=True, pin_factory=pin_factory), say)
    if button is None:
        return False
    with button:
        say(f"Press {name} (GPIO {pin}).")
        if button.wait_for_press(timeout=seconds):
            say(f"{name} works.")
            return True
    say(f"{name}: no press in {seconds:g} s — check its wire to GPIO {pin} and ground.")
    return False


def show_lights(wiring: Wiring, *, pin_factory: Factory, light_seconds: float, say: Say = print) -> list[str]:
    """Light each seat LED, then the status LED red, green and blue, then beep the buzzer, saying which pin each is
    on (the builder watches); returns the parts whose pin could not be used; raises nothing."""
    say(f"The lights: each one that is named stays on for {light_seconds:g} s. Watch for it.")
    missing = []
    for seat, pin in enumerate(wiring.seat_leds, start=1):
        if not _light(f"seat {seat} LED (GPIO {pin})", pin, pin_factory=pin_factory, seconds=light_seconds, say=say):
            missing.append(f"seat {seat} LED (GPIO {pin})")
    if not _status_colours(wiring.status_rgb, pin_factory=pin_factory, seconds=light_seconds, say=say):
        missing.append("status LED (GPIO {}, {}, {})".format(*wiring.status_rgb))
    if not _beep(wiring.buzzer, pin_factory=pin_factory, seconds=light_seconds, say=say):
        missing.append(f"buzzer (GPIO {wiring.buzzer})")
    say("A light that stayed dark: check it is the right way round (an LED's long leg goes towards the pin, "
        "the RGB LED's longest leg to ground) and its wires through the resistor to the pin and to ground.")
    return missing


def _light(label: str, pin: int, *, pin_factory: Factory, seconds: float, say: Say) -> bool:
    """Light one LED for `seconds`; returns False when its pin could not be used; raises nothing."""
    led = _device(label, lambda: LED(pin, pin_factory=pin_factory), say)
    if led is None:
        return False
    with led:
        say(f"{label}: on.")
        led.on()
        time.sleep(seconds)
        led.off()
    return True


def _status_colours(pins: tuple[int, int, int], *, pin_factory: Factory, seconds: float, say: Say) -> bool:
    """Show red, green and blue on the status LED in turn; returns False when its pins could not be used."""
    red, green, blue = pins
    status = _device(f"status LED (GPIO {red}, {green}, {blue})",
                     lambda: RGBLED(red, green, blue, pwm=False, pin_factory=pin_factory), say)
    if status is None:
        return False
    with status:
        for (name, colour), pin in zip(STATUS_COLOURS, pins):
            say(f"status LED {name} (GPIO {pin}): on.")
            status.color = colour
            time.sleep(seconds)
        status.off()
    return True


def _beep(pin: int, *, pin_factory: Factory, seconds: float, say: Say) -> bool:
    """Beep the buzzer twice; returns False when its pin could not be used; raises nothing."""
    buzzer = _device(f"buzzer (GPIO {pin})", lambda: Buzzer(pin, pin_factory=pin_factory), say)
    if buzzer is None:
        return False
    with buzzer:
        say(f"buzzer (GPIO {pin}): {BEEPS} beeps.")
        buzzer.beep(on_time=seconds / 2, off_time=seconds / 2, n=BEEPS, background=False)
    return True


def _device(label: str, make: Callable[[], DeviceT], say: Say) -> DeviceT | None:
    """The device `make` builds, or None after saying why its pin cannot be used; raises nothing."""
    try:
        return make()
    except Exception as error:  # gpiozero's GPIOZeroError, lgpio.error ("GPIO busy"): both mean the same here
        say(f"{label} cannot be used ({error}); {PINS_BUSY}, and check the pin number in the config.")
        return None
