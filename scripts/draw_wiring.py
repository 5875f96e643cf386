"""Draw docs/img/wiring.svg, the box's wiring, from the config's default pins (companion.config.Pins).

Run it after changing a default pin: `python scripts/draw_wiring.py` (or `--out FILE`). It writes plain SVG text, the
same bytes for the same pins, so tests/scripts/test_draw_wiring.py can tell a stale drawing. The drawing is 480 units
wide with no text under 16 units, so text stays 12 px or more on a 360 px wide phone.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape

from companion.config import Pins

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "docs" / "img" / "wiring.svg"
WIDTH = 480
FONT = 16  # the smallest text; WIDTH / 30, so 12 px on a 360 px phone
ROW = 26
PART_HEIGHT = 60
SEAT_RESISTOR = 330
STATUS_RESISTORS = {"red": 330, "green": 100, "blue": 100}  # docs/build-the-box.md says why
LEG_COLOURS = {"red": "#e53935", "green": "#43a047", "blue": "#1e88e5"}
SEAT_COLOUR = "#fdd835"

# The 40-pin header, the same on every Pi from the B+ to the 5: physical pin -> name (BCM GPIO numbers).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND", 10: "GPIO15",
    11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND",
    35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
GROUNDS = tuple(pin for pin, name in HEADER.items() if name == "GND")


def physical(gpio: int) -> int:
    """The header pin of a BCM GPIO number; raises ValueError for one the header does not carry."""
    for pin, name in HEADER.items():
        if name == f"GPIO{gpio}":
            return pin
    raise ValueError(f"GPIO {gpio} is not on the 40-pin header (GPIO 0 to 27 are).")


def nearest_ground(pin: int) -> int:
    """The ground pin nearest a header pin (any ground works; the nearest keeps the wire short); raises nothing."""
    def distance(ground: int) -> tuple[float, int]:
        rows = abs((ground - 1) // 2 - (pin - 1) // 2)
        return rows + 0.5 * abs((ground - 1) % 2 - (pin - 1) % 2), ground

    return min(GROUNDS, key=distance)


def parts(pins: Pins) -> list[tuple[str, str, int]]:
    """Every part as (label in the players' words, short tag for the header, GPIO); raises nothing."""
    found = [("ROLL button", "ROLL", pins.roll), ("NEXT button", "NEXT", pins.next), ("UNDO button", "UNDO", pins.undo)]
    found += [(f"seat {seat} LED", f"seat {seat}", gpio) for seat, gpio in enumerate(pins.seat_leds, start=1)]
    found += [(f"status LED, {leg} leg", f"status {leg}", gpio) for leg, gpio in zip(STATUS_RESISTORS, pins.status_rgb)]
    return found + [("buzzer", "buzzer", pins.buzzer)]


def text(x: float, y: float, words: str, **attributes: str | float) -> str:
    """One SVG text element; raises nothing."""
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:g}" y="{y:g}"{extra}>{escape(words)}</text>'


def line(x1: float, y1: float, x2: float, y2: float) -> str:
    """One wire; raises nothing."""
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#222" stroke-width="2"/>'


def header(pins: Pins, top: float) -> Iterator[str]:
    """The 40-pin header as two columns of numbered pads, each named, the panel's pins tagged; raises nothing."""
    used = {physical(gpio): tag for _, tag, gpio in parts(pins)}
    grounds = {nearest_ground(physical(gpio)) for _, _, gpio in parts(pins)}
    for pin, name in HEADER.items():
        left = pin % 2 == 1
        y = top + (pin - 1) // 2 * ROW
        fill, ink = _pad_colours(name, pin in used or pin in grounds)
        yield (f'<rect x="{176 if left else 212}" y="{y - 15:g}" width="32" height="20" rx="3" fill="{fill}" '
               f'stroke="#555"/>')
        yield text(192 if left else 228, y, str(pin), text_anchor="middle", fill=ink)
        label = name if pin not in used else (f"{used[pin]} · {name}" if left else f"{name} · {used[pin]}")
        weight = {"font_weight": "bold"} if pin in used else {}
        yield text(168 if left else 252, y, label, text_anchor="end" if left else "start", **weight)


def _pad_colours(name: str, used: bool) -> tuple[str, str]:
    """A pad's fill and number colour: grounds black, power red, pins in use yellow; raises nothing."""
    if name == "GND":
        return "#222", "#fff"
    if name in ("3V3", "5V"):
        return "#c62828", "#fff"
    return ("#ffe082" if used else "#fff"), "#222"


def ground(x: float, y: float, pin: int) -> Iterator[str]:
    """A ground symbol at the end of a wire, named with its header pin; raises nothing."""
    yield line(x, y, x, y + 8)
    for step, half in enumerate((10, 6, 2)):
        yield line(x - half, y + 8 + 4 * step, x + half, y + 8 + 4 * step)
    yield text(x + 16, y + 6, f"GND · pin {pin}")


def resistor(x: float, y: float, ohms: int) -> Iterator[str]:
    """A resistor 64 wide from x, its value inside; raises nothing."""
    yield f'<rect x="{x:g}" y="{y - 12:g}" width="64" height="24" fill="#fff" stroke="#222" stroke-width="2"/>'
    yield text(x + 32, y + 6, f"{ohms} Ω", text_anchor="middle")


def led(x: float, y: float, colour: str) -> Iterator[str]:
    """An LED 24 wide from x, pointing right (anode left, the long leg); raises nothing."""
    yield (f'<polygon points="{x:g},{y - 11:g} {x:g},{y + 11:g} {x + 20:g},{y:g}" fill="{colour}" stroke="#222" '
           'stroke-width="2"/>')
    yield line(x + 20, y - 11, x + 20, y + 11)


def button(pins: Pins, label: str, gpio: int, top: float) -> Iterator[str]:
    """A button between its pin and ground (the Pi's pull-up holds it high until pressed); raises nothing."""
    pin, y = physical(gpio), top + 36
    yield from _wired(label, gpio, top)
    yield line(160, y, 206, y)
    yield f'<circle cx="210" cy="{y:g}" r="4" fill="#fff" stroke="#222" stroke-width="2"/>'
    yield line(213, y - 2, 248, y - 16)
    yield f'<circle cx="252" cy="{y:g}" r="4" fill="#fff" stroke="#222" stroke-width="2"/>'
    yield line(256, y, 330, y)
    yield from ground(330, y, nearest_ground(pin))


def seat_led(pins: Pins, label: str, gpio: int, top: float) -> Iterator[str]:
    """A seat LED: pin, resistor, LED, ground; raises nothing."""
    y = top + 36
    yield from _wired(label, gpio, top)
    yield from _resistor_and_led(y, SEAT_RESISTOR, SEAT_COLOUR)
    yield line(290, y, 330, y)
    yield from ground(330, y, nearest_ground(physical(gpio)))


def buzzer(pins: Pins, label: str, gpio: int, top: float) -> Iterator[str]:
    """The active buzzer: pin to its + leg, its − leg to ground; raises nothing."""
    y = top + 36
    yield from _wired(label, gpio, top)
    yield line(160, y, 186, y)
    yield f'<rect x="186" y="{y - 13:g}" width="110" height="26" rx="13" fill="#eee" stroke="#222" stroke-width="2"/>'
    yield text(241, y + 6, "+ buzzer −", text_anchor="middle")
    yield line(296, y, 330, y)
    yield from ground(330, y, nearest_ground(physical(gpio)))


def status_leg(pins: Pins, label: str, gpio: int, top: float) -> Iterator[str]:
    """One leg of the RGB status LED: pin, its resistor, the leg's LED, on to the common leg; raises nothing."""
    leg = label.split(", ")[1].split(" ")[0]
    y = top + 36
    yield from _wired(label, gpio, top)
    yield from _resistor_and_led(y, STATUS_RESISTORS[leg], LEG_COLOURS[leg])
    yield line(290, y, 330, y)


def common_leg(pins: Pins, top: float) -> Iterator[str]:
    """The RGB LED's common cathode, joining its three legs, to ground; raises nothing."""
    y = top + 36
    yield text(12, top + 14, "status LED, longest leg", font_weight="bold")
    yield text(12, y + 6, "common cathode")
    yield line(330, y - len(pins.status_rgb) * PART_HEIGHT, 330, y)
    yield from ground(330, y, nearest_ground(physical(pins.status_rgb[-1])))


def _resistor_and_led(y: float, ohms: int, colour: str) -> Iterator[str]:
    """Pin wire, resistor, LED, from x 160 to 290; raises nothing."""
    yield line(160, y, 170, y)
    yield from resistor(170, y, ohms)
    yield line(234, y, 266, y)
    yield from led(266, y, colour)
    yield line(286, y, 290, y)


def _wired(label: str, gpio: int, top: float) -> Iterator[str]:
    """A part's name and the pin its wire starts from; raises nothing."""
    yield text(12, top + 14, label, font_weight="bold")
    yield text(12, top + 42, f"pin {physical(gpio)} · GPIO{gpio}")


def circuits(pins: Pins, top: float) -> tuple[list[str], float]:
    """How each part is wired, one under another; returns the elements and the bottom; raises nothing."""
    drawn: list[str] = []
    for label, _, gpio in parts(pins):
        kind = "leg" if label.startswith("status LED") else label.rsplit(" ", 1)[-1]
        draw = {"button": button, "LED": seat_led, "leg": status_leg, "buzzer": buzzer}[kind]
        drawn += [f'<g class="part" data-gpio="{gpio}">', *draw(pins, label, gpio, top), "</g>"]
        top += PART_HEIGHT
        if gpio == pins.status_rgb[-1]:
            drawn += list(common_leg(pins, top))
            top += PART_HEIGHT
    return drawn, top


def svg(pins: Pins) -> str:
    """The whole drawing as SVG text; raises ValueError for a pin the header does not carry."""
    body = [text(12, 28, "Wiring: the config's default pins", font_size=20, font_weight="bold"),
            text(12, 54, "Header pin numbers are in the boxes, GPIO"),
            text(12, 74, "numbers beside them. Pin 1 is at the end away"),
            text(12, 94, "from the USB ports. Ground is black, power red.")]
    body += list(header(pins, 130))
    top = 130 + 20 * ROW + 20
    body.append(text(12, top + 10, "How each part is wired", font_size=20, font_weight="bold"))
    parts_drawn, bottom = circuits(pins, top + 30)
    body += parts_drawn
    body.append(text(12, bottom + 10, "Any ground pin will do: the nearest is shown."))
    height = bottom + 30
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- Drawn by scripts/draw_wiring.py from companion.config.Pins; run it again, do not edit by hand. -->",
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}" viewBox="0 0 {WIDTH} {height:g}" '
        f'font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="{FONT}" fill="#222">',
        "<title>How the table companion's buttons, LEDs and buzzer are wired to the Raspberry Pi</title>",
        f'<rect width="{WIDTH}" height="{height:g}" fill="#fff"/>',
        *body,
        "</svg>",
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    """Write the drawing; returns the exit code; raises OSError when the file cannot be written."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--out", type=Path, default=TARGET, help="where to write it (default: docs/img/wiring.svg)")
    target = options.parse_args(argv).out
    target.write_text(svg(Pins()), encoding="utf-8")
    print(f"Wrote {target}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
