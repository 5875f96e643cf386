"""`companion check-hardware` on mock pins: a test thread presses the buttons when asked, every light is lit in its
own turn, a button never pressed is named with its pin, the synthetic camera gives a frame, and bad input changes
nothing."""
from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import cv2
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion import cli
from companion.commands.hardware import check_hardware

WAIT_SECONDS = 5.0  # the bound on every wait of the test's presser; a passing test waits far less
SEAT_PINS = (5, 6, 13, 19, 26)
STATUS_PINS = (16, 20, 21)
BUZZER_PIN = 12


class Recorder:
    """A MockFactory whose pins log every change of state, in order, across pins."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, float]] = []
        log = self.changes

        class RecordedPin(MockPWMPin):
            def _change_state(self, value: Any) -> bool:
                changed = super()._change_state(value)
                if changed:
                    log.append((int(self.info.name.removeprefix("GPIO")), float(value)))
                return changed

        self.factory = MockFactory(pin_class=RecordedPin)

    def rises(self, pins: tuple[int, ...]) -> list[tuple[int, set[int]]]:
        """Each time one of `pins` went high: the pin, and which of `pins` were high just after."""
        high: set[int] = set()
        rises = []
        for pin, state in self.changes:
            if pin not in pins:
                continue
            if state and pin not in high:
                high.add(pin)
                rises.append((pin, set(high)))
            elif not state:
                high.discard(pin)
        return rises


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    """A fresh recording mock factory, closed and reset afterwards."""
    made = Recorder()
    yield made
    made.factory.close()
    made.factory.reset()


class Lines(list):
    """What the command says, line by line, as a builder over SSH would read it."""

    def wait_for(self, text: str) -> bool:
        """Wait until a line starts with `text`; returns whether one did within WAIT_SECONDS."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not any(line.startswith(text) for line in list(self)):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True


def presser(factory: MockFactory, lines: Lines, buttons: dict[str, int]) -> threading.Thread:
    """A thread that presses each named button when the command asks for it, and lets go once it is seen."""
    def press() -> None:
        for name, pin in buttons.items():
            if not lines.wait_for(f"Press {name} "):
                return
            factory.pin(pin).drive_low()  # a button wired to ground pulls its pin low
            lines.wait_for(f"{name} works.")
            factory.pin(pin).drive_high()

    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread


def config_file(tmp_path: Path, gpio: str = "", camera: str = "synthetic") -> Path:
    """A config on mock pins and the given camera."""
    path = tmp_path / "companion.toml"
    path.write_text(f'[gpio]\nfactory = "mock"\n{gpio}\n[camera]\nsource = "{camera}"\n', encoding="utf-8")
    return path


def arguments(config: Path | None, **options: Any) -> argparse.Namespace:
    """The parsed command line, as `companion check-hardware` gets it."""
    argv = ["check-hardware", "--light-seconds", "0.02"] + (["--config", str(config)] if config else [])
    for option, value in options.items():
        argv += [f"--{option.replace('_', '-')}", str(value)]
    return cli.parser().parse_args(argv)


def test_every_part_answers(tmp_path, recorder) -> None:
    lines = Lines()
    buttons = {"ROLL": 17, "NEXT": 27, "UNDO": 22}
    thread = presser(recorder.factory, lines, buttons)
    code = check_hardware(arguments(config_file(tmp_path), seconds=5), pin_factory=recorder.factory, out=lines.append)
    thread.join(WAIT_SECONDS)
    assert code == 0, lines
    assert lines[0].startswith("The pins are make-believe")
    for name, pin in buttons.items():
        asked = lines.index(f"Press {name} (GPIO {pin}).")
        assert lines[asked + 1] == f"{name} works."
    for seat, pin in enumerate(SEAT_PINS, start=1):
        assert f"seat {seat} LED (GPIO {pin}): on." in lines
    for colour, pin in zip(("red", "green", "blue"), STATUS_PINS):
        assert f"status LED {colour} (GPIO {pin}): on." in lines
    assert "The camera (synthetic) gives frames of 640 × 480 pixels" in lines[-2]
    assert lines[-1].startswith("Every button was pressed and the camera gave a frame.")


def test_each_light_goes_on_alone_in_its_turn_and_the_buzzer_beeps_twice(tmp_path, recorder) -> None:
    lines = Lines()
    presser(recorder.factory, lines, {"ROLL": 17, "NEXT": 27, "UNDO": 22})
    check_hardware(arguments(config_file(tmp_path), seconds=5), pin_factory=recorder.factory, out=lines.append)
    outputs = (*SEAT_PINS, *STATUS_PINS, BUZZER_PIN)
    rises = recorder.rises(outputs)
    assert [pin for pin, _ in rises] == [*SEAT_PINS, *STATUS_PINS, BUZZER_PIN, BUZZER_PIN]
    assert all(high == {pin} for pin, high in rises), rises  # nothing else lit while it was
    assert all(recorder.factory.pin(pin).state == 0 for pin in outputs)  # and all off at the end


def test_a_button_never_pressed_is_named_with_its_pin(tmp_path, recorder) -> None:
    lines = Lines()
    presser(recorder.factory, lines, {"ROLL": 23, "UNDO": 22})  # NEXT is never pressed
    config = config_file(tmp_path, gpio="roll = 23\nnext = 24")
    code = check_hardware(arguments(config, seconds=0.3), pin_factory=recorder.factory, out=lines.append)
    assert code == 1
    assert "ROLL works." in lines and "UNDO works." in lines
    assert "NEXT: no press in 0.3 s — check its wire to GPIO 24 and ground." in lines
    assert lines[-1] == "Not answered: NEXT (GPIO 24)."


def test_a_pin_already_taken_is_said_and_listed(tmp_path, recorder) -> None:
    from gpiozero import LED

    lines = Lines()
    presser(recorder.factory, lines, {"ROLL": 17, "NEXT": 27, "UNDO": 22})
    with LED(6, pin_factory=recorder.factory):  # as the running companion would hold it
        code = check_hardware(arguments(config_file(tmp_path), seconds=5), pin_factory=recorder.factory,
                              out=lines.append)
    assert code == 1
    said = next(line for line in lines if line.startswith("seat 2 LED (GPIO 6) cannot be used"))
    assert "stop the companion first" in said
    assert "seat 3 LED (GPIO 13): on." in lines  # the others are still checked
    assert lines[-1] == "Not answered: seat 2 LED (GPIO 6)."


def test_a_camera_that_cannot_open_is_said_and_listed(tmp_path, recorder) -> None:
    lines = Lines()
    presser(recorder.factory, lines, {"ROLL": 17, "NEXT": 27, "UNDO": 22})
    empty = tmp_path / "no photos"
    empty.mkdir()
    code = check_hardware(arguments(config_file(tmp_path), seconds=5, camera=f"folder:{empty}"),
                          pin_factory=recorder.factory, out=lines.append)
    assert code == 1
    assert any(line.startswith(f"The camera (folder:{empty}) cannot be opened: ") for line in lines), lines
    assert lines[-1] == "Not answered: the camera."


def test_the_frame_is_saved_where_asked(tmp_path, recorder) -> None:
    lines = Lines()
    presser(recorder.factory, lines, {"ROLL": 17, "NEXT": 27, "UNDO": 22})
    target = tmp_path / "frame.png"
    code = check_hardware(arguments(config_file(tmp_path), seconds=5, frame_out=target),
                          pin_factory=recorder.factory, out=lines.append)
    assert code == 0
    assert f"Saved the frame to {target}." in lines
    saved = cv2.imread(str(target))
    assert saved is not None and saved.shape == (480, 640, 3) and saved.mean() > 10


def test_the_command_line_runs_it_on_the_configs_mock_pins(tmp_path, capsys) -> None:
    code = cli.main(["check-hardware", "--config", str(config_file(tmp_path, camera="none")),
                     "--seconds", "0.05", "--light-seconds", "0.01"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # nobody presses make-believe buttons
    assert out[0].startswith('The pins are make-believe (gpio.factory = "mock")')
    assert "ROLL: no press in 0.05 s — check its wire to GPIO 17 and ground." in out
    assert out[-1] == "Not answered: ROLL (GPIO 17), NEXT (GPIO 27), UNDO (GPIO 22)."


@pytest.mark.parametrize(("extra", "config_text", "sentence"), [
    (["--seconds", "-1"], None, "--seconds -1 must be a number of seconds above 0"),
    (["--light-seconds", "nan"], None, "--light-seconds nan must be a number of seconds above 0"),
    (["--frame-out", "FRAME.txt"], None, "must end in .png, .jpg, .jpeg"),
    (["--frame-out", "missing/frame.png"], None, "the folder"),
    (["--camera", "webcam"], None, "--camera = 'webcam' is not a camera"),
    ([], '[gpio]\nfactory = "mock"\nroll = 5\n', "gpio: pin 5 is used twice"),
])
def test_bad_input_is_one_sentence_and_touches_nothing(tmp_path, capsys, monkeypatch, extra, config_text,
                                                       sentence) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text(config_text or '[gpio]\nfactory = "mock"\n', encoding="utf-8")
    before = config.read_bytes()
    code = cli.main(["check-hardware", "--config", str(config), *extra])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""  # not a pin was touched, nor the camera opened
    assert captured.err.startswith("companion: ") and sentence in captured.err and captured.err.count("\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["companion.toml"] and config.read_bytes() == before
