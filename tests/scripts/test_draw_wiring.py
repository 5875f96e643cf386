"""docs/img/wiring.svg is drawn from the config's default pins (scripts/draw_wiring.py): redrawn it is the same file,
every default pin is on it with its part's name and header pin, and its text is readable on a phone."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest

from companion.config import Pins

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "docs" / "img" / "wiring.svg"
SVG = "{http://www.w3.org/2000/svg}"
PHONE_PX = 360  # a small phone's width in CSS pixels, where the drawing is shown at 100 %
SMALLEST_PX = 12


@pytest.fixture()
def draw_wiring(monkeypatch):
    """The script as a module, imported from scripts/."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    import draw_wiring

    return draw_wiring


def labelled_pins(pins: Pins) -> list[tuple[str, int]]:
    """Every part of the panel in the players' words, with its GPIO."""
    named = [("ROLL button", pins.roll), ("NEXT button", pins.next), ("UNDO button", pins.undo)]
    named += [(f"seat {seat} LED", gpio) for seat, gpio in enumerate(pins.seat_leds, start=1)]
    named += [(f"status LED, {leg} leg", gpio) for leg, gpio in zip(("red", "green", "blue"), pins.status_rgb)]
    return named + [("buzzer", pins.buzzer)]


def test_the_committed_drawing_is_drawn_from_the_default_pins(tmp_path) -> None:
    fresh = tmp_path / "wiring.svg"
    subprocess.run([sys.executable, str(REPO / "scripts" / "draw_wiring.py"), "--out", str(fresh)], check=True,
                   capture_output=True, timeout=60)
    assert fresh.read_bytes() == COMMITTED.read_bytes(), (
        "docs/img/wiring.svg is not drawn from the config's default pins (companion.config.Pins): "
        "run `python scripts/draw_wiring.py` and commit docs/img/wiring.svg")


def test_a_moved_pin_changes_the_drawing(draw_wiring) -> None:
    moved = draw_wiring.svg(replace(Pins(), roll=4))
    assert moved != COMMITTED.read_text(encoding="utf-8")
    assert "ROLL · GPIO4" in moved and "pin 7 · GPIO4" in moved and "ROLL · GPIO17" not in moved


def test_every_default_pin_is_drawn_with_its_label_and_header_pin(draw_wiring) -> None:
    root = ElementTree.parse(COMMITTED).getroot()
    parts = {int(group.get("data-gpio")): " | ".join(text.text or "" for text in group.iter(f"{SVG}text"))
             for group in root.iter(f"{SVG}g") if group.get("class") == "part"}
    everything = [text.text for text in root.iter(f"{SVG}text")]
    for label, gpio in labelled_pins(Pins()):
        assert gpio in parts, f"GPIO {gpio} ({label}) is not drawn"
        assert label in parts[gpio] and f"pin {draw_wiring.physical(gpio)} · GPIO{gpio} |" in parts[gpio] + " |"
        assert any(text and f"GPIO{gpio} ·" in text or text and text.endswith(f"· GPIO{gpio}") for text in everything)
    assert "GND · pin" in " ".join(parts.values())


def test_the_header_table_is_the_pis(draw_wiring) -> None:
    header = draw_wiring.HEADER
    assert sorted(header) == list(range(1, 41))
    assert sorted(name for name in header.values() if name.startswith("GPIO")) == sorted(f"GPIO{n}" for n in range(28))
    assert draw_wiring.GROUNDS == (6, 9, 14, 20, 25, 30, 34, 39)
    assert (header[1], header[2], header[11], header[12], header[40]) == ("3V3", "5V", "GPIO17", "GPIO18", "GPIO21")
    with pytest.raises(ValueError, match="GPIO 28 is not on the 40-pin header"):
        draw_wiring.physical(28)


def test_its_text_is_readable_on_a_phone() -> None:
    root = ElementTree.parse(COMMITTED).getroot()
    width = float(root.get("viewBox").split()[2])
    sizes = [float(element.get("font-size")) for element in root.iter() if element.get("font-size")]
    assert sizes and root.get("font-size")  # every text inherits a size from the drawing at least
    assert min(sizes) * PHONE_PX / width >= SMALLEST_PX
