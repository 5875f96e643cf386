"""GPIO side of the table companion: gpiozero buttons become Press inputs; LEDs and buzzer show the table.

`make_pin_factory` picks the pin library by name; `Panel` takes that factory, never a global one.
"""
from __future__ import annotations

from hardware.factory import FACTORY_NAMES, GpioUnavailable, make_pin_factory
from hardware.panel import STATUSES, Lights, Panel

__all__ = ["FACTORY_NAMES", "STATUSES", "GpioUnavailable", "Lights", "Panel", "make_pin_factory"]
