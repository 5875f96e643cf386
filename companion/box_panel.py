"""The box's own panel wired to the engine loop: its buttons only enqueue, its lights show the loop's table."""
from __future__ import annotations

import logging
from typing import Any, Callable

from companion.config import Config
from companion.rules.inputs import Press
from companion.rules.said import Said
from companion.table.jobs import Job
from companion.table.loop import EngineLoop

log = logging.getLogger("companion.daemon")


def box_panel(config: Config, pin_factory: Any, loop: EngineLoop, warnings: list[str]) -> Any:
    """The box's panel on the config's pins (or `pin_factory`), its buttons enqueueing on the loop; None, with a
    warning, when the pins cannot be opened; raises nothing."""
    from hardware.factory import GpioUnavailable, make_pin_factory
    from hardware.panel import Panel

    pins = config.pins
    if not config.demo and pin_factory is None and pins.factory == "mock":
        warnings.append(Said('gpio.factory is "mock": the buttons and LEDs are make-believe, so the box\'s own buttons '
                             'do nothing and its LEDs stay dark. Set gpio.factory = "lgpio" (or "rpigpio") on the Pi.',
                             'gpio.factory가 "mock"입니다: 버튼과 LED가 가상이라 상자의 버튼은 아무것도 하지 않고 LED는 '
                             '켜지지 않습니다. 파이에서는 gpio.factory = "lgpio"(또는 "rpigpio")로 설정하세요.'))
        log.warning(warnings[-1])
    try:
        factory = pin_factory if pin_factory is not None else make_pin_factory(pins.factory)
        return Panel(pin_factory=factory, roll_pin=pins.roll, next_pin=pins.next, undo_pin=pins.undo,
                     seat_pins=pins.seat_leds, status_pins=pins.status_rgb, buzzer_pin=pins.buzzer,
                     on_press=press_from_gpio(loop), on_claim=lambda: loop.press("claim"))
    except GpioUnavailable as error:
        warnings.append(Said(f"GPIO unavailable ({error}); running web-only: use the phones.",
                             f"GPIO를 쓸 수 없습니다({error}). 웹으로만 동작합니다: 휴대폰을 쓰세요."))
        log.warning(warnings[-1])
        return None
    except Exception as error:  # a pin another program holds (lgpio: "GPIO busy"), or a driver fault
        why = f"{type(error).__name__}: {error}"
        warnings.append(Said(f"The GPIO pins could not be opened ({why}); is another program using them? Running "
                             "web-only: use the phones.",
                             f"GPIO 핀을 열 수 없습니다({why}). 다른 프로그램이 쓰고 있나요? 웹으로만 동작합니다: "
                             "휴대폰을 쓰세요."))
        log.warning(warnings[-1])
        return None


def show_lights(panel: Any) -> Callable[[dict[str, Any]], None]:
    """What the loop calls to show its lights on the panel; raises nothing."""
    from hardware.panel import Lights

    def show(shown: dict[str, Any]) -> None:
        panel.show(Lights(seats=tuple(shown["seats"]), status=shown["status"], buzz=shown["buzz"]))

    return show


def press_from_gpio(loop: EngineLoop) -> Callable[[Press], None]:
    """The callback the buttons call: it only enqueues; raises nothing."""
    return lambda press: loop.enqueue(Job("press", press.button, "button"))
