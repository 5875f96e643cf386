"""The address phones use to reach the box: its LAN IP, found without sending anything.

Asked afresh each time a join address is shown: a box switched on before its Wi-Fi came up, or one that
made its own Wi-Fi after start (at a café whose Wi-Fi keeps guests' phones apart), shows the address it
has now.
"""
from __future__ import annotations

import socket
import struct
from typing import Callable, Iterable

GET_ADDRESS = 0x8915  # Linux's SIOCGIFADDR: an interface's IPv4 address
EVERY_INTERFACE = ("0.0.0.0", "", "::")
NOT_FOR_PHONES = ("lo", "docker", "veth", "virbr", "br-", "tun", "tap", "ifb")  # interfaces no phone reaches


def lan_address() -> str:
    """The IP address of the interface on the default route; with no default route (a box making its own
    Wi-Fi, with no way out), that of its Wi-Fi or wired interface; else 127.0.0.1; raises nothing."""
    return _routed_address() or interface_address(name for _, name in _interfaces()) or "127.0.0.1"


def advertised(host: str, advertise: str = "") -> str:
    """The address the join URLs name: `advertise` when set, this machine's LAN address when the companion
    listens on every interface, else the one it listens on; raises nothing."""
    return advertise or (lan_address() if serves_every_interface(host) else host)


def serves_every_interface(host: str) -> bool:
    """Whether listening on `host` means every interface of the machine (so phones on its network); raises nothing."""
    return host in EVERY_INTERFACE


def interface_address(names: Iterable[str], address_of: Callable[[str], str | None] | None = None) -> str | None:
    """The IPv4 address of the first interface with one, Wi-Fi (wl…) before wired (e…) before the rest,
    never loopback or a container's bridge; None when there is none; raises nothing."""
    address_of = address_of or ipv4_of
    usable = [name for name in names if not name.startswith(NOT_FOR_PHONES)]
    for name in sorted(usable, key=lambda name: (not name.startswith("wl"), not name.startswith("e"), name)):
        address = address_of(name)
        if address is not None and not address.startswith("127."):
            return address
    return None


def ipv4_of(name: str) -> str | None:
    """The IPv4 address of the interface called `name`, or None (none set, no such interface, not Linux);
    raises nothing."""
    try:
        import fcntl  # Linux and the other Unixes; a Windows laptop in demo mode has none

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            answer = fcntl.ioctl(probe.fileno(), GET_ADDRESS, struct.pack("256s", name[:15].encode()))
    except (ImportError, OSError):
        return None
    return socket.inet_ntoa(answer[20:24])


def join_base(host: str, port: int) -> str:
    """The start of every join URL, e.g. http://192.168.1.20:8080; raises nothing."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _routed_address() -> str | None:
    """The address of the interface on the default route, or None when there is no such route; raises nothing.

    Connecting a UDP socket only picks a route; no packet is sent.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _interfaces() -> list[tuple[int, str]]:
    """The machine's network interfaces, or none when they cannot be listed; raises nothing."""
    try:
        return socket.if_nameindex()
    except OSError:
        return []
