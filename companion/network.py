"""The address phones use to reach the box: its LAN IP, found without sending anything."""
from __future__ import annotations

import socket


def lan_address() -> str:
    """The IP address of the interface on the default route, else 127.0.0.1; raises nothing.

    Connecting a UDP socket only picks a route; no packet is sent.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def join_base(host: str, port: int) -> str:
    """The start of every join URL, e.g. http://192.168.1.20:8080; raises nothing."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
