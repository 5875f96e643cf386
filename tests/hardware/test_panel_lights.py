"""The panel's show() on mock pins: the seat LEDs, the status LED's colours, blinks and flash, the buzzer's beeps,
no pin written for the same lights again, and an unknown status refused."""
from __future__ import annotations

import time
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.panel import BEEPS, COLOURS, FLASH_SECONDS, FLASHES, STATUSES, Lights, look_for


def rgb(factory: MockFactory, pins: dict[str, Any]) -> tuple[float, float, float]:
    """The red, green and blue pin states of the status LED."""
    red, green, blue = (factory.pin(pin).state for pin in pins["status_pins"])
    return (red, green, blue)


def seat_states(factory: MockFactory, pins: dict[str, Any]) -> list[bool]:
    """Whether each seat LED pin is high."""
    return [bool(factory.pin(pin).state) for pin in pins["seat_pins"]]


def history(factory: MockFactory, pin: int) -> list[float]:
    """The states a mock pin went through since its last clear_states()."""
    return [float(change.state) for change in factory.pin(pin).states]


def test_show_lights_the_seats_whose_turn_it_is(make_panel, mock_factory, pins) -> None:
    make_panel().show(Lights(seats=(True, False, True)))
    assert seat_states(mock_factory, pins) == [True, False, True]


def test_extra_seats_are_ignored_and_missing_seats_are_off(make_panel, mock_factory, pins) -> None:
    panel = make_panel()
    panel.show(Lights(seats=(True,) * 5))
    assert seat_states(mock_factory, pins) == [True, True, True]
    panel.show(Lights(seats=(False, True)))
    assert seat_states(mock_factory, pins) == [False, True, False]


@pytest.mark.parametrize(("status", "colour"), [
    ("ready", (0, 1, 0)), ("reading", (0, 0, 1)), ("offline", (1, 0, 0)), ("game_over", (1, 0, 1)),
])
def test_steady_statuses_set_the_rgb_colour(make_panel, mock_factory, pins, status, colour) -> None:
    make_panel().show(Lights(status=status))
    assert rgb(mock_factory, pins) == colour


def test_reroll_blinks_amber(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="reroll"))
    assert wait_until(lambda: rgb(mock_factory, pins) == COLOURS["amber"])
    assert wait_until(lambda: rgb(mock_factory, pins) == COLOURS["off"])
    assert panel.state()["colour"] == "amber" and panel.state()["pattern"] == "blink"


def test_a_half_read_roll_blinks_blue_until_the_rest_is_entered(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="read_part"))  # the camera read the d6; the d8 is still to come from a phone
    assert wait_until(lambda: rgb(mock_factory, pins) == COLOURS["blue"])
    assert wait_until(lambda: rgb(mock_factory, pins) == COLOURS["off"])
    assert panel.state()["colour"] == "blue" and panel.state()["pattern"] == "blink"


def test_read_ok_flashes_then_stays_green(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="ready"))
    green = pins["status_pins"][1]
    mock_factory.pin(green).clear_states()
    panel.show(Lights(status="read_ok"))
    expected = [1.0] + [0.0, 1.0] * FLASHES
    assert wait_until(lambda: history(mock_factory, green) == expected)
    time.sleep(FLASH_SECONDS * 3)
    assert history(mock_factory, green) == expected
    assert rgb(mock_factory, pins) == (0, 1, 0)


def _count_writes(factory: MockFactory, pin_numbers: list[int], monkeypatch) -> list[int]:
    """Spy on every write to the given mock pins; returns the list the spies append to."""
    writes: list[int] = []
    for number in pin_numbers:
        pin = factory.pin(number)

        def spy(value: float, pin=pin, number=number) -> None:
            writes.append(number)
            type(pin)._set_state(pin, value)

        monkeypatch.setattr(pin, "_set_state", spy)
    return writes


def test_showing_the_same_lights_again_writes_no_pin(make_panel, mock_factory, pins, monkeypatch) -> None:
    panel = make_panel()
    panel.show(Lights(seats=(True, False, True), status="offline"))
    outputs = [*pins["seat_pins"], *pins["status_pins"], pins["buzzer_pin"]]
    writes = _count_writes(mock_factory, outputs, monkeypatch)
    panel.show(Lights(seats=(True, False, True), status="offline"))
    panel.show(Lights(seats=(True, False, True, False), status="offline"))  # same LEDs lit
    assert writes == []
    panel.show(Lights(seats=(True, True, True), status="offline"))
    assert writes == [pins["seat_pins"][1]]  # only the seat that changed


def test_showing_read_ok_again_does_not_flash_again(make_panel, mock_factory, pins, wait_until,
                                                    monkeypatch) -> None:
    panel = make_panel()
    panel.show(Lights(status="read_ok"))
    green = pins["status_pins"][1]
    assert wait_until(lambda: history(mock_factory, green) == [0.0] + [1.0, 0.0] * (FLASHES - 1) + [1.0])
    time.sleep(FLASH_SECONDS * 2)  # let the flash thread finish its last wait
    writes = _count_writes(mock_factory, list(pins["status_pins"]), monkeypatch)
    panel.show(Lights(status="read_ok"))
    time.sleep(FLASH_SECONDS * 2)
    assert writes == []


def test_buzz_beeps_once_per_turn_on(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    buzzer = pins["buzzer_pin"]
    beeps = [0.0] + [1.0, 0.0] * BEEPS
    panel.show(Lights(status="game_over", buzz=True))
    panel.show(Lights(status="game_over", buzz=True))  # still buzz: no second pattern
    assert wait_until(lambda: history(mock_factory, buzzer) == beeps)
    time.sleep(0.1)
    assert history(mock_factory, buzzer) == beeps
    panel.show(Lights(status="game_over", buzz=False))
    panel.show(Lights(status="game_over", buzz=True))
    assert wait_until(lambda: history(mock_factory, buzzer) == beeps + [1.0, 0.0] * BEEPS)


def test_buzz_off_silences_the_buzzer(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(buzz=True))
    assert wait_until(lambda: mock_factory.pin(pins["buzzer_pin"]).state == 1)
    panel.show(Lights(buzz=False))
    assert mock_factory.pin(pins["buzzer_pin"]).state == 0
    assert panel.state()["buzzer"] is False


def test_an_unknown_status_is_refused() -> None:
    with pytest.raises(ValueError, match="party.*ready"):
        Lights(status="party")
    with pytest.raises(ValueError, match="party"):
        look_for("party")


def test_show_refuses_an_unknown_status_and_changes_nothing(make_panel, mock_factory, pins) -> None:
    panel = make_panel()
    panel.show(Lights(seats=(True,), status="ready"))
    sneaky = object.__new__(Lights)  # a Lights that skipped __post_init__'s check
    for name, value in (("seats", (False,)), ("status", "party"), ("buzz", False)):
        object.__setattr__(sneaky, name, value)
    with pytest.raises(ValueError, match="party"):
        panel.show(sneaky)
    assert panel.state()["status"] == "ready" and seat_states(mock_factory, pins)[0] is True


def test_every_status_has_a_known_colour() -> None:
    assert set(STATUSES) == {"ready", "reading", "read_ok", "read_part", "reroll", "offline", "game_over", "changed",
                             "claiming"}
    assert all(look_for(status).colour in COLOURS for status in STATUSES)


def test_state_says_what_the_panel_shows(make_panel) -> None:
    panel = make_panel()
    assert panel.state() == {"seats": [False, False, False], "status": None, "colour": "off",
                             "pattern": "steady", "buzzer": False, "closed": False}
    panel.show(Lights(seats=(False, True), status="offline"))
    assert panel.state() == {"seats": [False, True, False], "status": "offline", "colour": "red",
                             "pattern": "steady", "buzzer": False, "closed": False}


def test_a_panel_without_seat_leds_still_shows_status(make_panel, mock_factory, pins) -> None:
    panel = make_panel(seat_pins=(), bounce_seconds=None)
    panel.show(Lights(seats=(True, True), status="reading"))
    assert rgb(mock_factory, pins) == (0, 0, 1) and panel.state()["seats"] == []
