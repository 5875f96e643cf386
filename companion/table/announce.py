"""The box's address as a person types it: the name avahi announces (table-companion.local on the Pi), and its number.

`make install-pi` names the Pi table-companion and installs avahi-daemon, which announces the machine's hostname
as `<hostname>.local`. The host page prints that name where avahi runs, with the IP address beside it: .local names
are unreliable on Android, so the QR codes keep the number.
"""
from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Callable

from companion.table.network import advertised, join_base, serves_every_interface

AVAHI_PID = Path("/run/avahi-daemon/pid")
"""Written by avahi-daemon while it runs (Debian's runstatedir): then `<hostname>.local` is announced."""


def announced_name(*, pid_file: Path = AVAHI_PID, hostname: Callable[[], str] = socket.gethostname) -> str | None:
    """`<hostname>.local` while avahi-daemon runs here, else None; raises nothing."""
    try:
        running = pid_file.is_file()
        name = hostname().split(".")[0].strip()
    except OSError:
        return None
    return f"{name}.local" if running and name and name != "localhost" else None


def box_address(host: str, advertise: str, port: int, *, name: str | None) -> dict[str, Any]:
    """Where phones find the box: `name`, the announced name's URL (None without one, or when the companion
    listens on one address only, which that name may not lead to), and `number`, the URL the QR codes name;
    raises nothing."""
    named = None
    if name and serves_every_interface(host):
        named = f"http://{name}/" if port == 80 else f"http://{name}:{port}/"
    return {"name": named, "number": f"{join_base(advertised(host, advertise), port)}/"}
