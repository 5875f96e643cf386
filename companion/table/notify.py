"""systemd's notify protocol (READY=1, WATCHDOG=1, STOPPING=1) over $NOTIFY_SOCKET; stdlib only."""
from __future__ import annotations

import os
import socket
from typing import Callable, Mapping

PING_SECONDS = 1.0
"""The engine loop pings the watchdog after every job and after this long idle."""
SHORTEST_PING = 0.05
"""However short the watchdog, the loop waits at least this long idle between pings."""


def notifier(environ: Mapping[str, str] | None = None) -> Callable[[str], None]:
    """A function that sends one notify message, or does nothing outside systemd; raises nothing."""
    address = (environ if environ is not None else os.environ).get("NOTIFY_SOCKET", "")
    if not address:
        return lambda message: None
    target = "\0" + address[1:] if address.startswith("@") else address

    def send(message: str) -> None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), target)
        except OSError:
            pass  # systemd went away; the watchdog will say so

    return send


def ping_interval(environ: Mapping[str, str] | None = None) -> float:
    """Seconds between idle watchdog pings: PING_SECONDS, or half of systemd's WATCHDOG_USEC when
    that is shorter (WatchdogSec under 2 s); raises nothing."""
    given = environ if environ is not None else os.environ
    usec, pid = given.get("WATCHDOG_USEC", ""), given.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return PING_SECONDS
    return max(SHORTEST_PING, min(PING_SECONDS, int(usec) / 2_000_000))
