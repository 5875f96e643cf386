"""systemd's notify protocol (READY=1, WATCHDOG=1, STOPPING=1) over $NOTIFY_SOCKET; stdlib only."""
from __future__ import annotations

import os
import socket
from typing import Callable


def notifier(environ: dict[str, str] | None = None) -> Callable[[str], None]:
    """A function that sends one notify message, or does nothing outside systemd; raises nothing."""
    address = (environ if environ is not None else dict(os.environ)).get("NOTIFY_SOCKET", "")
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
