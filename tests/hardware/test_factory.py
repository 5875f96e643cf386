"""make_pin_factory: mock works, unknown names are refused, a factory that cannot start says so."""
from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.factory import FACTORY_NAMES, GpioUnavailable, make_pin_factory

ON_A_PI = any(Path("/dev").glob("gpiochip*"))


def test_mock_makes_a_pwm_capable_mock_factory() -> None:
    factory = make_pin_factory("mock")
    try:
        assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin
    finally:
        factory.close()
        factory.reset()


def test_names_ignore_case_and_spaces() -> None:
    factory = make_pin_factory(" Mock ")
    factory.close()
    assert isinstance(factory, MockFactory)


@pytest.mark.parametrize("name", ["nonsense", "", "pigpio", None])
def test_an_unknown_name_is_refused_with_the_accepted_names(name) -> None:
    with pytest.raises(ValueError) as refused:
        make_pin_factory(name)
    assert all(known in str(refused.value) for known in FACTORY_NAMES)


@pytest.mark.skipif(ON_A_PI, reason="on a Raspberry Pi with lgpio the factory may really start")
@pytest.mark.parametrize("name", ["lgpio", "rpigpio"])
def test_a_real_factory_off_a_pi_is_unavailable_not_a_crash(name) -> None:
    with pytest.raises(GpioUnavailable, match=name.replace("rpigpio", "RPi.GPIO|rpigpio")) as failed:
        make_pin_factory(name)
    assert isinstance(failed.value, RuntimeError)
    assert failed.value.__cause__ is not None


def test_a_missing_lgpio_library_is_unavailable(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", None)  # makes `import lgpio` raise ImportError
    with pytest.raises(GpioUnavailable, match="lgpio library is not installed"):
        make_pin_factory("lgpio")


@pytest.mark.parametrize("failure", [OSError("can not open gpiochip"), RuntimeError("not a Pi")])
def test_an_lgpio_factory_that_cannot_start_is_unavailable(monkeypatch, failure) -> None:
    def refuse() -> None:
        raise failure

    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = refuse  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    with pytest.raises(GpioUnavailable, match="could not start") as failed:
        make_pin_factory("lgpio")
    assert failed.value.__cause__ is failure and str(failure) in str(failed.value)


def test_rpigpio_refusing_to_import_off_a_pi_is_unavailable(monkeypatch) -> None:
    """RPi.GPIO raises RuntimeError (not ImportError) when imported off a Pi."""
    monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio", raising=False)
    fake = types.ModuleType("gpiozero.pins.rpigpio")

    def failing_getattr(name: str) -> None:
        raise RuntimeError("This module can only be run on a Raspberry Pi!")

    fake.__getattr__ = failing_getattr  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.rpigpio", fake)
    with pytest.raises(GpioUnavailable, match="Pi 5"):
        make_pin_factory("rpigpio")


def test_importing_hardware_touches_no_gpio() -> None:
    """Importing the modules loads no pin library and makes no pin factory."""
    check = (
        "import sys, hardware.factory, hardware.panel\n"
        "from gpiozero import Device\n"
        "assert Device.pin_factory is None, Device.pin_factory\n"
        "loaded = [m for m in sys.modules if m.startswith(('gpiozero.pins.', 'lgpio', 'RPi'))]\n"
        "assert set(loaded) <= {'gpiozero.pins.data', 'gpiozero.pins.pi', 'gpiozero.pins.style'}, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr


class _GpioBusy(Exception):
    """What lgpio raises when another program holds a line."""


class _BusyRollPin(MockPWMPin):
    """GPIO 17 (ROLL) is held by another program."""

    def __init__(self, factory: Any, info: Any) -> None:
        if info.name == "GPIO17":
            raise _GpioBusy("GPIO busy")
        super().__init__(factory, info)


def test_a_pin_another_program_holds_leaves_the_box_running_web_only(tmp_path: Path) -> None:
    from companion.config import Camera, Config
    from companion.daemon import build

    config = Config(host="127.0.0.1", port=0, advertise="127.0.0.1", state=tmp_path, camera=Camera(source="none"))
    companion = build(config, pin_factory=MockFactory(pin_class=_BusyRollPin))
    try:
        assert companion.panel is None
        assert companion.warnings == ["The GPIO pins could not be opened (_GpioBusy: GPIO busy); is another program "
                                      "using them? Running web-only: use the phones."]
    finally:
        companion.stop()
