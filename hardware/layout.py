"""The panel's pins and timings, checked before any gpiozero device is made."""
from __future__ import annotations

MAX_SEATS = 5


def check_layout(*, roll_pin: int, next_pin: int, undo_pin: int, seat_pins: tuple[int, ...],
                  status_pins: tuple[int, int, int], buzzer_pin: int) -> None:
    """Refuse a pin layout before any device is made; raises ValueError naming the problem."""
    if len(seat_pins) > MAX_SEATS:
        raise ValueError(f"{len(seat_pins)} seat LED pins given; the panel has at most {MAX_SEATS} seats")
    if len(status_pins) != 3:
        raise ValueError(f"the status LED needs 3 pins (red, green, blue), got {len(status_pins)}")
    uses = [("ROLL button", roll_pin), ("NEXT button", next_pin), ("UNDO button", undo_pin)]
    uses += [(f"seat {number} LED", pin) for number, pin in enumerate(seat_pins, start=1)]
    uses += [(f"status LED {part}", pin) for part, pin in zip(("red", "green", "blue"), status_pins)]
    uses.append(("buzzer", buzzer_pin))
    seen: dict[int, str] = {}
    for use, pin in uses:
        if not isinstance(pin, int) or isinstance(pin, bool):
            raise ValueError(f"the {use} pin must be a BCM GPIO number such as 17, got {pin!r}")
        if pin in seen:
            raise ValueError(
                f"GPIO {pin} is given for both the {seen[pin]} and the {use}; each needs its own pin")
        seen[pin] = use


def check_timing(*, undo_hold_seconds: float, bounce_seconds: float | None) -> None:
    """Refuse hold and bounce times that would misfire; raises ValueError."""
    if not undo_hold_seconds > 0:
        raise ValueError(f"undo_hold_seconds must be more than 0 (got {undo_hold_seconds!r}), "
                         "or every tap of UNDO would undo")
    if bounce_seconds is not None and not bounce_seconds > 0:
        raise ValueError(f"bounce_seconds must be more than 0 or None, got {bounce_seconds!r}")
