"""The table's panel: ROLL, NEXT and UNDO buttons in; seat LEDs, an RGB status LED and a buzzer out.

Buttons only hand a `Press` to `on_press` (which just enqueues it for the engine loop), and NEXT and UNDO held
together call `on_claim` (hardware/chord.py: then neither acts alone); the engine
loop calls `show(Lights(...))` after every input. Importing this module touches no hardware:
gpiozero makes no pin factory until a device is built, and every device here gets `pin_factory=`.
Wiring: each button between its GPIO and ground (internal pull-up); LEDs and buzzer active-high;
the RGB LED common-cathode.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from types import MappingProxyType, TracebackType
from typing import Any, Callable, Mapping, NamedTuple, TypeVar

from gpiozero import LED, RGBLED, Button, Buzzer, Device, Factory

from companion.rules.inputs import Press
from hardware.chord import CLAIM_HOLD_SECONDS, NextAndUndo
from hardware.layout import check_layout, check_timing

_log = logging.getLogger(__name__)


Colour = tuple[float, float, float]
COLOURS: Mapping[str, Colour] = MappingProxyType({
    "off": (0.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "amber": (1.0, 0.3, 0.0),  # green looks brighter than red at the same duty: tune on the real LED
    "red": (1.0, 0.0, 0.0),
    "magenta": (1.0, 0.0, 1.0),
    "white": (1.0, 1.0, 1.0),
})


class Look(NamedTuple):
    """How the status LED shows a status: a colour and a pattern ("steady", "flash" or "blink")."""

    colour: str
    pattern: str = "steady"


STATUS_LOOKS: Mapping[str, Look] = MappingProxyType({
    "ready": Look("green"),
    "reading": Look("blue"),
    "read_ok": Look("green", "flash"),  # three quick dark flashes, then steady green: "got it, your move"
    "read_part": Look("blue", "blink"),  # the camera read its dice; the others (a d8) are still to be entered by hand
    "reroll": Look("amber", "blink"),  # blinks until the next status: "roll again"
    "offline": Look("red"),
    "game_over": Look("magenta"),  # not white, which looks like a stuck "all on"
    "changed": Look("amber"),  # steady, not blinking: a die changed after the read, which stands; see the phones
    "claiming": Look("white", "blink"),  # NEXT and UNDO were held: a phone may become the host for a minute
})
STATUSES: tuple[str, ...] = tuple(STATUS_LOOKS)

FLASH_SECONDS = 0.1
FLASHES = 3
BLINK_SECONDS = 0.4
BEEP_SECONDS = 0.08
BEEPS = 3
REFUSAL_BEEP_SECONDS = 0.4  # one long beep: "no", unlike the game's end (three short ones)
REFUSAL_FLASHES = 2
CHIRP_SECONDS = 0.04  # two quick beeps as the claim window opens: "a phone may take the box now"
CHIRPS = 2

DeviceT = TypeVar("DeviceT", bound=Device)


def look_for(status: str) -> Look:
    """The look of a status; raises ValueError naming the statuses when it is unknown."""
    try:
        return STATUS_LOOKS[status]
    except (KeyError, TypeError):
        raise ValueError(f"unknown panel status {status!r}: use one of {', '.join(STATUSES)}") from None


@dataclass(frozen=True)
class Lights:
    """What the panel shows: lit seats (whose turn), a status, a buzz; raises ValueError for an unknown status."""

    seats: tuple[bool, ...] = ()
    status: str = "ready"
    buzz: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(bool(seat) for seat in self.seats))
        look_for(self.status)


class Panel:
    """The buttons, seat LEDs, status LED and buzzer on one pin factory; raises ValueError for a bad layout.

    Threads: gpiozero calls `when_pressed` from the pin library's callback thread on a Pi
    (lgpio.callback / RPi.GPIO add_event_detect), from the caller of `drive_low()` under MockFactory,
    and `when_held` from its own HoldThread everywhere, mock included. So callbacks only call `on_press` or
    `on_claim`, and never let an exception escape: an exception in `when_held` would end gpiozero's hold thread and
    UNDO would never fire again.
    """

    def __init__(
        self,
        *,
        pin_factory: Factory,
        roll_pin: int,
        next_pin: int,
        undo_pin: int,
        seat_pins: tuple[int, ...],
        status_pins: tuple[int, int, int],
        buzzer_pin: int,
        on_press: Callable[[Press], None],
        undo_hold_seconds: float = 1.0,
        bounce_seconds: float | None = 0.05,
        on_claim: Callable[[], None] = lambda: None,
        claim_hold_seconds: float = CLAIM_HOLD_SECONDS,
    ) -> None:
        check_layout(roll_pin=roll_pin, next_pin=next_pin, undo_pin=undo_pin, seat_pins=seat_pins,
                      status_pins=status_pins, buzzer_pin=buzzer_pin)
        check_timing(undo_hold_seconds=undo_hold_seconds, bounce_seconds=bounce_seconds)
        self._on_press = on_press
        self._on_claim = on_claim
        self._claim_hold = claim_hold_seconds
        self._chord: NextAndUndo | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._devices: list[Device] = []
        self._seat_states: tuple[bool, ...] = (False,) * len(seat_pins)
        self._status: str | None = None
        self._buzz = False
        try:
            self._build(pin_factory, roll_pin, next_pin, undo_pin, seat_pins, status_pins, buzzer_pin,
                        undo_hold_seconds, bounce_seconds)
        except BaseException:
            self._close_devices()  # a half-built panel must not keep pins reserved
            raise

    def _build(
        self, factory: Factory, roll_pin: int, next_pin: int, undo_pin: int, seat_pins: tuple[int, ...],
        status_pins: tuple[int, int, int], buzzer_pin: int, hold: float, bounce: float | None,
    ) -> None:
        """Make every gpiozero device on `factory`, then wire the button callbacks."""
        roll = self._keep(Button(roll_pin, bounce_time=bounce, pin_factory=factory))
        next_ = self._keep(Button(next_pin, bounce_time=bounce, pin_factory=factory))
        undo = self._keep(Button(undo_pin, bounce_time=bounce, hold_time=hold, hold_repeat=False,
                                 pin_factory=factory))
        self._seat_leds = tuple(self._keep(LED(pin, pin_factory=factory)) for pin in seat_pins)
        red, green, blue = status_pins
        self._status_led = self._keep(RGBLED(red, green, blue, pin_factory=factory))
        self._buzzer = self._keep(Buzzer(buzzer_pin, pin_factory=factory))
        roll.when_pressed = self._sender("roll")
        self._chord = NextAndUndo(next_, undo, on_next=self._sender("next"), on_undo=self._sender("undo"),
                                  on_claim=self._claimer(), claim_hold_seconds=self._claim_hold)

    def _keep(self, device: DeviceT) -> DeviceT:
        """Remember a device so close() releases it."""
        self._devices.append(device)
        return device

    def _sender(self, button: str) -> Callable[[], None]:
        """A gpiozero callback that hands Press(button) to on_press and logs, never raises, on failure."""
        press = Press(button)

        def send_press() -> None:
            try:
                self._on_press(press)
            except Exception:
                _log.exception("on_press failed for the %s button; that press was dropped", button)

        return send_press

    def _claimer(self) -> Callable[[], None]:
        """The chord's callback: calls on_claim and logs, never raises, on failure."""

        def claim() -> None:
            try:
                self._on_claim()
            except Exception:
                _log.exception("on_claim failed; NEXT and UNDO held together did nothing")

        return claim

    def show(self, lights: Lights) -> None:
        """Set seats, status and buzzer, touching only what changed; raises ValueError, RuntimeError once closed."""
        look = look_for(lights.status)
        wanted = tuple(index < len(lights.seats) and lights.seats[index]
                       for index in range(len(self._seat_states)))
        with self._lock:
            if self._closed:
                raise RuntimeError("the panel is closed; make a new Panel to show lights")
            self._show_seats(wanted)
            if lights.status != self._status:
                self._show_look(look)
                if lights.status == "claiming":
                    self._buzzer.beep(on_time=CHIRP_SECONDS, off_time=CHIRP_SECONDS, n=CHIRPS)
                self._status = lights.status
            if lights.buzz != self._buzz:
                self._show_buzz(lights.buzz)
                self._buzz = lights.buzz

    def _show_seats(self, wanted: tuple[bool, ...]) -> None:
        """Switch only the seat LEDs whose state changes."""
        for led, was_lit, lit in zip(self._seat_leds, self._seat_states, wanted):
            if lit != was_lit:
                led.value = lit
        self._seat_states = wanted

    def _show_look(self, look: Look) -> None:
        """Show a colour on the status LED, steady or as a background flash/blink."""
        colour = COLOURS[look.colour]
        if look.pattern == "flash":  # ends on off_color, so "flashing dark" settles on the colour
            self._status_led.blink(on_time=FLASH_SECONDS, off_time=FLASH_SECONDS,
                                   on_color=COLOURS["off"], off_color=colour, n=FLASHES)
        elif look.pattern == "blink":
            self._status_led.blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS, on_color=colour)
        else:
            self._status_led.value = colour  # also stops any running blink

    def _show_buzz(self, buzz: bool) -> None:
        """Start a short beep pattern in the background when buzz turns on; silence it when it turns off."""
        if buzz:
            self._buzzer.beep(on_time=BEEP_SECONDS, off_time=BEEP_SECONDS, n=BEEPS)
        else:
            self._buzzer.off()

    def refuse(self) -> None:
        """Say "no" to a button press: one long beep and two red flashes, then the status as it was; never raises.

        A blinking status ("roll again") keeps its blink: it already asks the players for something.
        """
        with self._lock:
            if self._closed:
                return
            self._buzzer.beep(on_time=REFUSAL_BEEP_SECONDS, off_time=REFUSAL_BEEP_SECONDS, n=1)
            look = STATUS_LOOKS.get(self._status or "", Look("off"))
            if look.pattern != "blink":  # ends on off_color: the status's own colour again
                self._status_led.blink(on_time=FLASH_SECONDS, off_time=FLASH_SECONDS, on_color=COLOURS["red"],
                                       off_color=COLOURS[look.colour], n=REFUSAL_FLASHES)

    def state(self) -> dict[str, Any]:
        """What the panel shows now: seats, status, colour name, pattern, buzzer sounding, closed; never raises."""
        with self._lock:
            if self._closed:
                return {"seats": [False] * len(self._seat_states), "status": None, "colour": "off",
                        "pattern": "steady", "buzzer": False, "closed": True}
            look = STATUS_LOOKS.get(self._status or "", Look("off"))
            return {"seats": list(self._seat_states), "status": self._status, "colour": look.colour,
                    "pattern": look.pattern, "buzzer": bool(self._buzzer.is_active), "closed": False}

    def close(self) -> None:
        """Release every pin and stop every blink/beep thread; safe to call twice, never raises."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._close_devices()

    def _close_devices(self) -> None:
        """Close the devices made so far side by side, logging (not raising) any failure.

        Side by side because each Button's hold thread takes up to 0.1 s to notice it must stop
        (gpiozero's HoldThread polls every 0.1 s), and the devices share no pins.
        """
        if self._chord is not None:
            self._chord.close()
        devices, self._devices = self._devices, []
        closers = [threading.Thread(target=_close_quietly, args=(device,), daemon=True) for device in devices]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _close_quietly(device: Device) -> None:
    """Close one gpiozero device, logging instead of raising if it fails."""
    try:
        device.close()
    except Exception:
        _log.exception("could not close a %s", type(device).__name__)
