"""A refused button press says "no" at the box itself: one long beep and two red flashes (the phones say why)."""
from __future__ import annotations

import time
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion.rules.inputs import StartGame
from companion.table.next_guard import DOUBLE_TAP_SECONDS
from companion.table.port import Seen
from hardware.panel import COLOURS, REFUSAL_BEEP_SECONDS, REFUSAL_FLASHES, Lights


def _pin(factory: MockFactory, number: int) -> Any:
    return factory.pin(number)


def _beeps(factory: MockFactory, buzzer: int) -> list[float]:
    """How long each beep of the buzzer lasted, in seconds, since its states were last cleared."""
    states = list(_pin(factory, buzzer).states)
    return [off.timestamp - on.timestamp for on, off in zip(states, states[1:]) if on.state and not off.state]


def test_a_refusal_beeps_once_long(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="ready"))
    _pin(mock_factory, pins["buzzer_pin"]).clear_states()
    panel.refuse()
    assert wait_until(lambda: len(_beeps(mock_factory, pins["buzzer_pin"])) == 1)
    time.sleep(REFUSAL_BEEP_SECONDS)
    beeps = _beeps(mock_factory, pins["buzzer_pin"])
    assert len(beeps) == 1 and beeps[0] >= 0.75 * REFUSAL_BEEP_SECONDS  # unlike the game's end: three 0.08 s beeps


def test_a_refusal_flashes_red_then_shows_the_status_again(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="ready"))
    red = pins["status_pins"][0]
    _pin(mock_factory, red).clear_states()
    panel.refuse()
    assert wait_until(lambda: [change.state for change in _pin(mock_factory, red).states][1:] == [1, 0] * REFUSAL_FLASHES)
    red_now, green_now, blue_now = (_pin(mock_factory, pin).state for pin in pins["status_pins"])
    assert (red_now, green_now, blue_now) == COLOURS["green"]
    assert panel.state()["status"] == "ready"


def test_a_refusal_leaves_the_roll_again_blink_blinking(make_panel, mock_factory, pins, wait_until,
                                                         monkeypatch) -> None:
    panel = make_panel()
    panel.show(Lights(status="reroll"))
    blinks: list[dict[str, Any]] = []
    led = panel._status_led
    monkeypatch.setattr(led, "blink", lambda **given: blinks.append(given))
    panel.refuse()
    assert blinks == []  # the amber "roll again" blink goes on as it was
    assert wait_until(lambda: len(_beeps(mock_factory, pins["buzzer_pin"])) == 1)
    assert panel.state()["colour"] == "amber" and panel.state()["pattern"] == "blink"


def test_a_closed_panel_ignores_a_refusal(make_panel) -> None:
    panel = make_panel()
    panel.close()
    panel.refuse()  # the box is shutting down: nothing to say, nothing raised
    assert panel.state()["closed"] is True


def test_the_box_says_no_to_a_refused_next_and_nothing_to_a_taken_one(companion_server, wait_until) -> None:
    companion = companion_server.companion
    loop, pins = companion.loop, companion.config.pins
    factory = companion.panel._devices[0].pin_factory
    next_button = _pin(factory, pins.next)
    loop.submit(StartGame("gateway-city", ("Ann", "Bob"), {}, 3), source="host")
    _pin(factory, pins.buzzer).clear_states()
    before = loop.snapshot(None)["seq"]
    next_button.drive_low()  # NEXT moves the city's turn to its next phase
    next_button.drive_high()
    assert wait_until(lambda: loop.snapshot(None)["seq"] > before)
    time.sleep(max(2 * REFUSAL_BEEP_SECONDS, DOUBLE_TAP_SECONDS))  # and the next NEXT is no double tap
    assert _beeps(factory, pins.buzzer) == []
    ending = Seen(ends_game=loop.snapshot(None)["game_no"])  # the host confirms ending the city's game
    loop.submit(StartGame("gateway-rescue", ("Ann", "Bob"), {}, 3), source="host", seen=ending)
    next_button.drive_low()  # Ann must roll for first player before any turn can end
    next_button.drive_high()
    assert wait_until(lambda: len(_beeps(factory, pins.buzzer)) == 1)
    assert "first player" in loop.snapshot(None)["message"]  # the phones say why
