"""NEXT and UNDO held together on mock pins: they claim the box once, and are then neither a NEXT nor an UNDO; each
alone still acts as before; while a phone may become the host the status LED blinks white and the buzzer chirps."""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

import pytest

from companion.rules.inputs import Press
from hardware.panel import CHIRPS, COLOURS, Lights
from queued_presses import drained

CLAIM_HOLD = 0.15  # the test's chord time (the box's is 3 s)
ROOMY_HOLD = 1.0  # for a test that lets go before the chord's time: a busy machine cannot make it a claim
UNDO_HOLD = 0.05  # matches conftest's undo_hold_seconds


@pytest.fixture
def claims() -> list[float]:
    """When on_claim was called, one entry per call."""
    return []


@pytest.fixture
def chord_panel(make_panel, claims) -> Callable[..., Any]:
    """A panel whose NEXT and UNDO held CLAIM_HOLD seconds together call on_claim (recorded in `claims`)."""
    def make(**overrides: Any) -> Any:
        options = {"on_claim": lambda: claims.append(time.monotonic()), "claim_hold_seconds": CLAIM_HOLD, **overrides}
        return make_panel(**options)
    return make


def _buttons(mock_factory, pins) -> tuple[Any, Any]:
    return mock_factory.pin(pins["next_pin"]), mock_factory.pin(pins["undo_pin"])


def test_holding_next_and_undo_together_claims_once_and_is_no_next_or_undo(chord_panel, mock_factory, pins, presses,
                                                                            claims, wait_until) -> None:
    chord_panel()
    next_pin, undo_pin = _buttons(mock_factory, pins)
    started = time.monotonic()
    next_pin.drive_low()
    undo_pin.drive_low()
    assert wait_until(lambda: len(claims) == 1)
    assert claims[0] - started >= CLAIM_HOLD * 0.9  # not before the hold time
    time.sleep(CLAIM_HOLD * 3)  # still held: no second claim, and UNDO's own hold (0.05 s) did not undo
    undo_pin.drive_high()
    next_pin.drive_high()
    time.sleep(UNDO_HOLD * 2)
    assert len(claims) == 1
    assert drained(presses) == []  # letting go of NEXT after the chord is no NEXT


def test_letting_go_before_the_hold_time_claims_nothing_and_presses_nothing(chord_panel, mock_factory, pins, presses,
                                                                           claims) -> None:
    chord_panel(undo_hold_seconds=0.3, claim_hold_seconds=ROOMY_HOLD)
    next_pin, undo_pin = _buttons(mock_factory, pins)
    undo_pin.drive_low()
    next_pin.drive_low()
    time.sleep(0.1)
    next_pin.drive_high()
    undo_pin.drive_high()
    time.sleep(ROOMY_HOLD * 1.5)
    assert claims == [] and drained(presses) == []


def test_undo_held_alone_still_undoes_and_next_alone_still_passes(chord_panel, mock_factory, pins, presses, claims,
                                                                  wait_until) -> None:
    chord_panel()
    next_pin, undo_pin = _buttons(mock_factory, pins)
    undo_pin.drive_low()
    assert wait_until(lambda: not presses.empty())
    time.sleep(CLAIM_HOLD * 2)  # held well past the chord's time: alone, it claims nothing
    undo_pin.drive_high()
    next_pin.drive_low()
    next_pin.drive_high()
    assert drained(presses) == [Press("undo"), Press("next")] and claims == []


def test_next_acts_when_let_go_not_when_pressed(chord_panel, mock_factory, pins, presses) -> None:
    chord_panel()
    next_pin, _ = _buttons(mock_factory, pins)
    next_pin.drive_low()
    assert drained(presses) == []  # UNDO may still join it: nothing yet
    next_pin.drive_high()
    assert drained(presses) == [Press("next")]


def test_a_tap_of_next_while_undo_is_held_does_nothing(chord_panel, mock_factory, pins, presses, claims,
                                                      wait_until) -> None:
    chord_panel()
    next_pin, undo_pin = _buttons(mock_factory, pins)
    undo_pin.drive_low()
    assert wait_until(lambda: not presses.empty())  # UNDO alone: its hold has undone
    assert drained(presses) == [Press("undo")]
    next_pin.drive_low()
    next_pin.drive_high()  # a quick tap: no NEXT, and too short to claim
    time.sleep(CLAIM_HOLD * 2)
    undo_pin.drive_high()
    assert drained(presses) == [] and claims == []


def test_undo_held_while_next_is_held_does_not_undo(chord_panel, mock_factory, pins, presses, claims) -> None:
    chord_panel(claim_hold_seconds=ROOMY_HOLD)
    next_pin, undo_pin = _buttons(mock_factory, pins)
    next_pin.drive_low()
    undo_pin.drive_low()
    time.sleep(UNDO_HOLD * 2)  # UNDO's hold time passes with NEXT down: no undo
    undo_pin.drive_high()  # let go before the chord's time
    time.sleep(ROOMY_HOLD * 1.5)
    next_pin.drive_high()  # NEXT was part of a chord: no NEXT either
    assert drained(presses) == [] and claims == []
    next_pin.drive_low()  # both were up: NEXT alone acts again
    next_pin.drive_high()
    assert drained(presses) == [Press("next")]


def test_a_raising_on_claim_is_logged_and_the_buttons_go_on(make_panel, mock_factory, pins, presses, caplog,
                                                            wait_until) -> None:
    called = threading.Event()

    def broken() -> None:
        called.set()
        raise RuntimeError("loop is gone")

    make_panel(on_claim=broken, claim_hold_seconds=CLAIM_HOLD)
    next_pin, undo_pin = _buttons(mock_factory, pins)
    with caplog.at_level(logging.ERROR, logger="hardware.panel"):
        next_pin.drive_low()
        undo_pin.drive_low()
        assert called.wait(3)
        assert wait_until(lambda: "loop is gone" in caplog.text)
    next_pin.drive_high()
    undo_pin.drive_high()
    next_pin.drive_low()
    next_pin.drive_high()
    assert drained(presses) == [Press("next")]


def test_claim_hold_seconds_must_be_positive(make_panel) -> None:
    with pytest.raises(ValueError, match="claim_hold_seconds"):
        make_panel(claim_hold_seconds=0)


# --- what the box shows while a phone may become the host ---------------------------------------
def test_claiming_blinks_the_status_led_white(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="ready"))
    panel.show(Lights(status="claiming"))
    rgb = lambda: tuple(mock_factory.pin(pin).state for pin in pins["status_pins"])  # noqa: E731
    assert wait_until(lambda: rgb() == COLOURS["white"])
    assert wait_until(lambda: rgb() == COLOURS["off"])  # blinking, not steady
    assert panel.state()["colour"] == "white" and panel.state()["pattern"] == "blink"
    panel.show(Lights(status="ready"))  # the window ends: the game's own status again
    assert rgb() == COLOURS["green"]


def test_claiming_chirps_once_as_it_opens(make_panel, mock_factory, pins, wait_until) -> None:
    panel = make_panel()
    panel.show(Lights(status="ready"))
    buzzer = mock_factory.pin(pins["buzzer_pin"])
    buzzer.clear_states()
    panel.show(Lights(status="claiming"))
    beeps = lambda: [change.state for change in buzzer.states][1:].count(1)  # noqa: E731
    assert wait_until(lambda: beeps() == CHIRPS)
    panel.show(Lights(status="claiming"))  # still open: no second chirp
    time.sleep(0.3)
    assert beeps() == CHIRPS
