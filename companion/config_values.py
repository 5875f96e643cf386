"""Checks of one config value each: the value as it is used, or a ConfigError naming the key, the value and what
is accepted."""
from __future__ import annotations

import ipaddress
import re
from typing import Any, Callable

from companion.rules.errors import CompanionError

HOST_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")  # one dot-separated part of a host name


class ConfigError(CompanionError, ValueError):
    """The config cannot be used; the message names the key, the value and what is accepted."""

    code = "bad_config"


def text(key: str, value: Any) -> str:
    """Some text, not blank; raises ConfigError."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key} = {value!r} must be some text.")
    return value


def host(key: str, value: Any) -> str:
    """An IP address or a host name, nothing more (no scheme, port or path); raises ConfigError."""
    if isinstance(value, str) and is_host(value):
        return value
    raise ConfigError(f"{key} = {value!r} must be an IP address or a host name alone, "
                      "such as 192.168.1.20 or table.local (no http://, port or path).")


def host_or_empty(key: str, value: Any) -> str:
    """A host, or nothing (""); raises ConfigError."""
    return value if value == "" else host(key, value)


def is_host(text: str) -> bool:
    """Whether the text is an IP address, or a host name whose labels are not all numbers; raises nothing."""
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        labels = text.rstrip(".").split(".")
        return all(HOST_LABEL.fullmatch(label) for label in labels) and not all(label.isdigit() for label in labels)


def boolean(key: str, value: Any) -> bool:
    """true or false; raises ConfigError."""
    if not isinstance(value, bool):
        raise ConfigError(f"{key} = {value!r} must be true or false.")
    return value


def whole(low: int, high: int) -> Callable[[str, Any], int]:
    """The check of a whole number from `low` to `high`; raises nothing (the check it makes raises ConfigError)."""
    def check(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{key} = {value!r} must be a whole number from {low} to {high}.")
        return value
    return check


port = whole(1, 65535)
pin = whole(0, 27)


def still_seconds(key: str, value: Any) -> float:
    """How long dice must lie still: at least a frame apart, and well within the roller's 8 s wait; raises ConfigError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.1 <= value <= 5:
        raise ConfigError(f"{key} = {value!r} must be a number of seconds from 0.1 to 5 "
                          "(the camera waits 8 s at most for the dice to settle).")
    return float(value)


def gain(key: str, value: Any) -> float:
    """A gain above 0, at most 64; raises ConfigError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 64:
        raise ConfigError(f"{key} = {value!r} must be a number above 0 and at most 64.")
    return float(value)


def gains(key: str, value: Any) -> list[float]:
    """White balance: libcamera takes red and blue gains from 0 to 32; raises ConfigError."""
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(f"{key} = {value!r} must be [red gain, blue gain].")
    gains = [gain(f"{key}[{index}]", number) for index, number in enumerate(value)]
    if max(gains) > 32:
        raise ConfigError(f"{key} = {value!r}: each colour gain must be above 0 and at most 32.")
    return gains


def choice(accepted: tuple[str, ...]) -> Callable[[str, Any], str]:
    """The check of one of the `accepted` words; raises nothing (the check it makes raises ConfigError)."""
    def check(key: str, value: Any) -> str:
        if value not in accepted:
            raise ConfigError(f"{key} = {value!r} is not accepted; use one of: {', '.join(accepted)}.")
        return value
    return check


def pin_list(low: int, high: int) -> Callable[[str, Any], list[int]]:
    """The check of a list of `low` to `high` GPIO pin numbers; raises nothing (the check it makes raises ConfigError)."""
    def check(key: str, value: Any) -> list[int]:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise ConfigError(f"{key} = {value!r} must be a list of {low} to {high} pin numbers.")
        return [pin(f"{key}[{index}]", number) for index, number in enumerate(value)]
    return check


def tray(key: str, value: Any) -> list[int]:
    """A tray box [x, y, width, height] in pixels, at least 8 a side; raises ConfigError."""
    if not isinstance(value, list) or len(value) != 4:
        raise ConfigError(f"{key} = {value!r} must be [x, y, width, height] in pixels.")
    numbers = [whole(0, 10000)(f"{key}[{index}]", number) for index, number in enumerate(value)]
    if numbers[2] < 8 or numbers[3] < 8:
        raise ConfigError(f"{key} = {value!r}: the tray must be at least 8 pixels wide and high.")
    return numbers


def names(key: str, value: Any) -> list[str]:
    """One to eight player names; raises ConfigError."""
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ConfigError(f"{key} = {value!r} must be a list of 1 to 8 player names.")
    return [text(f"{key}[{index}]", name) for index, name in enumerate(value)]
