"""The panel on mock pins: buttons become presses, every device takes the injected pin factory, bad layouts are
refused and closing releases the pins (what show() does with the LEDs and buzzer is in test_panel_lights.py)."""
from __future__ import annotations

import logging
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.rules.inputs import BUTTONS, Press
from hardware.panel import Lights
from queued_presses import drained

HOLD_SECONDS = 0.05  # matches conftest's undo_hold_seconds


# --- buttons -----------------------------------------------------------------------------------


def test_the_panel_buttons_are_the_inputs_buttons() -> None:
    assert {"roll", "next", "undo"} == set(BUTTONS)


@pytest.mark.parametrize("button", ["roll", "next"])
def test_pressing_roll_or_next_sends_one_press(make_panel, mock_factory, presses, pins, button) -> None:
    make_panel()
    pin = mock_factory.pin(pins[f"{button}_pin"])
    pin.drive_low()  # pull-up button: pressed pulls the pin to ground
    pin.drive_high()
    assert drained(presses) == [Press(button)]


def test_a_short_undo_press_does_nothing(make_panel, mock_factory, presses, pins) -> None:
    make_panel(undo_hold_seconds=0.2)  # roomy, so a busy machine cannot turn the tap into a hold
    pin = mock_factory.pin(pins["undo_pin"])
    pin.drive_low()
    pin.drive_high()
    time.sleep(0.3)  # longer than the hold time: a hold would have fired by now
    assert drained(presses) == []


def test_holding_undo_sends_one_undo(make_panel, mock_factory, presses, pins, wait_until) -> None:
    make_panel()
    pin = mock_factory.pin(pins["undo_pin"])
    pin.drive_low()
    assert wait_until(lambda: not presses.empty())
    time.sleep(HOLD_SECONDS * 4)  # still held: hold_repeat is off, so no second undo
    pin.drive_high()
    assert drained(presses) == [Press("undo")]


def test_each_hold_of_undo_sends_its_own_undo(make_panel, mock_factory, presses, pins, wait_until) -> None:
    make_panel()
    pin = mock_factory.pin(pins["undo_pin"])
    for _ in range(2):
        pin.drive_low()
        assert wait_until(lambda: not presses.empty())
        pin.drive_high()
        assert drained(presses) == [Press("undo")]


def test_a_raising_on_press_is_logged_not_raised(make_panel, mock_factory, pins, caplog) -> None:
    def broken(press: Press) -> None:
        raise RuntimeError("queue is gone")

    make_panel(on_press=broken)
    with caplog.at_level(logging.ERROR, logger="hardware.panel"):
        mock_factory.pin(pins["roll_pin"]).drive_low()  # under the mock this runs the callback here
    mock_factory.pin(pins["roll_pin"]).drive_high()
    assert "roll" in caplog.text and "queue is gone" in caplog.text


def test_a_raising_on_press_does_not_stop_undo(make_panel, mock_factory, presses, pins, wait_until) -> None:
    calls: list[Press] = []

    def fails_first(press: Press) -> None:
        calls.append(press)
        if len(calls) == 1:
            raise RuntimeError("first undo lost")
        presses.put(press)

    make_panel(on_press=fails_first)
    pin = mock_factory.pin(pins["undo_pin"])
    pin.drive_low()
    assert wait_until(lambda: len(calls) == 1)
    pin.drive_high()
    pin.drive_low()  # gpiozero's hold thread must still be alive for this one
    assert wait_until(lambda: not presses.empty())
    pin.drive_high()
    assert drained(presses) == [Press("undo")]


def test_every_device_uses_the_injected_factory(make_panel, mock_factory, pins, monkeypatch) -> None:
    decoy = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(Device, "pin_factory", decoy)
    make_panel()
    assert decoy.pins == {}
    outputs = [*pins["seat_pins"], *pins["status_pins"], pins["buzzer_pin"]]
    assert all(mock_factory.pin(pin).function == "output" for pin in outputs)
    assert all(mock_factory.pin(pins[name]).pull == "up" for name in ("roll_pin", "next_pin", "undo_pin"))


# --- layout checks and closing -----------------------------------------------------------------


@pytest.mark.parametrize(("change", "message"), [
    ({"next_pin": 5}, "GPIO 5 .*ROLL button.*NEXT button"),
    ({"seat_pins": (17, 17)}, "GPIO 17 .*seat 1 LED.*seat 2 LED"),
    ({"buzzer_pin": 25}, "GPIO 25 .*status LED blue.*buzzer"),
    ({"seat_pins": (13,)}, "GPIO 13 .*UNDO button.*seat 1 LED"),
])
def test_a_pin_used_twice_is_refused_before_any_device(make_panel, mock_factory, change, message) -> None:
    with pytest.raises(ValueError, match=message):
        make_panel(**change)
    assert mock_factory.pins == {}


@pytest.mark.parametrize(("change", "message"), [
    ({"seat_pins": (14, 15, 16, 17, 18, 19)}, "at most 5 seats"),
    ({"status_pins": (23, 24)}, "3 pins"),
    ({"roll_pin": "GPIO5"}, "BCM GPIO number"),
    ({"undo_hold_seconds": 0}, "undo_hold_seconds"),
    ({"bounce_seconds": -0.1}, "bounce_seconds"),
])
def test_a_bad_layout_or_timing_is_refused(make_panel, mock_factory, change, message) -> None:
    with pytest.raises(ValueError, match=message):
        make_panel(**change)
    assert mock_factory.pins == {}


def test_a_failed_build_releases_the_pins_it_took(make_panel) -> None:
    with pytest.raises(ValueError):  # gpiozero's PinInvalidPin is a ValueError
        make_panel(buzzer_pin=99)
    make_panel()  # every pin is free again: no GPIOPinInUse


def test_close_releases_every_pin_and_can_repeat(make_panel, mock_factory, presses, pins) -> None:
    panel = make_panel()
    panel.show(Lights(seats=(True,), status="reroll", buzz=True))
    panel.close()
    panel.close()
    assert panel.state()["closed"] is True
    with pytest.raises(RuntimeError, match="closed"):
        panel.show(Lights())
    mock_factory.pin(pins["roll_pin"]).drive_low()
    assert drained(presses) == []
    again = make_panel()  # would raise GPIOPinInUse if any pin were still reserved
    again.show(Lights(seats=(True,)))


def test_the_panel_closes_as_a_context_manager(make_panel) -> None:
    with make_panel() as panel:
        panel.show(Lights(status="ready"))
    assert panel.state()["closed"] is True
    make_panel().close()
