"""Fixtures for the panel tests: a fresh PWM-capable MockFactory per test, and a panel wired to it."""
from __future__ import annotations

import queue
import time
from typing import Any, Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.rules.inputs import Press
from hardware.panel import Panel

PINS: dict[str, Any] = {
    "roll_pin": 5,
    "next_pin": 6,
    "undo_pin": 13,
    "seat_pins": (17, 27, 22),
    "status_pins": (23, 24, 25),
    "buzzer_pin": 12,
}
HOLD_SECONDS = 0.05
WAIT_SECONDS = 3.0  # the bound on every wait; a passing test waits far less


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory of MockPWMPins, closed and reset afterwards (close alone keeps reservations)."""
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.close()
    factory.reset()


@pytest.fixture
def presses() -> "queue.Queue[Press]":
    """Where the panel's on_press puts presses, as the daemon's queue would."""
    return queue.Queue()


@pytest.fixture
def make_panel(mock_factory: MockFactory, presses: "queue.Queue[Press]") -> Iterator[Callable[..., Panel]]:
    """Build panels on the test's mock factory (default pins, small hold time); close them afterwards."""
    made: list[Panel] = []

    def make(**overrides: Any) -> Panel:
        options: dict[str, Any] = {**PINS, "on_press": presses.put, "undo_hold_seconds": HOLD_SECONDS}
        options.update(overrides)
        panel = Panel(pin_factory=mock_factory, **options)
        made.append(panel)
        return panel

    yield make
    for panel in made:
        panel.close()


def _wait_until(check: Callable[[], bool], seconds: float = WAIT_SECONDS) -> bool:
    """Poll `check` every 5 ms until it is true or `seconds` pass; returns its last answer."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return check()
        time.sleep(0.005)
    return True


@pytest.fixture
def wait_until() -> Callable[..., bool]:
    """The bounded polling helper (a fixture, as importlib mode cannot import conftest)."""
    return _wait_until


@pytest.fixture
def pins() -> dict[str, Any]:
    """The pin layout every test panel uses (a copy, so a test may change it)."""
    return dict(PINS)
