"""The join address: the box's address as it is when shown, also on a box making its own Wi-Fi (no
default route), never loopback or a container's bridge. Nothing here sends a packet."""
from __future__ import annotations

import socket

import pytest

from companion import cli, daemon

from companion.table import network
from companion.config import Config


def test_an_interfaces_address_is_read_from_the_machine() -> None:
    assert network.ipv4_of("lo") == "127.0.0.1"
    assert network.ipv4_of("no-such-interface") is None


def test_with_no_default_route_the_wifi_address_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box at a café making its own Wi-Fi: NetworkManager gives wlan0 10.42.0.1 and no way out."""
    addresses = {"lo": "127.0.0.1", "docker0": "172.17.0.1", "eth0": None, "wlan0": "10.42.0.1"}
    monkeypatch.setattr(network, "_routed_address", lambda: None)
    monkeypatch.setattr(network, "_interfaces", lambda: list(enumerate(addresses)))
    monkeypatch.setattr(network, "ipv4_of", addresses.get)
    assert network.lan_address() == "10.42.0.1"


def test_wifi_comes_before_wired_and_a_bridge_or_loopback_is_never_shown() -> None:
    addresses = {"lo": "127.0.0.1", "docker0": "172.17.0.1", "eth0": "192.168.1.7", "wlan0": "10.42.0.1"}
    assert network.interface_address(addresses, addresses.get) == "10.42.0.1"
    assert network.interface_address(["eth0", "docker0", "lo"], addresses.get) == "192.168.1.7"
    assert network.interface_address(["docker0", "lo", "veth1"], addresses.get) is None


def test_with_no_address_at_all_the_box_shows_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network, "_routed_address", lambda: None)
    monkeypatch.setattr(network, "_interfaces", lambda: [(1, "lo")])
    assert network.lan_address() == "127.0.0.1"


def test_on_this_machine_the_routed_address_is_one_of_its_interfaces() -> None:
    routed = network._routed_address()
    own = {network.ipv4_of(name) for _, name in socket.if_nameindex()}
    assert routed is None or routed in own
    assert network.lan_address() in own | {"127.0.0.1"}


def test_the_join_address_follows_the_wifi_coming_up_after_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box switched on before its Wi-Fi: the first QR codes would have shown 127.0.0.1 all evening."""
    now = ["127.0.0.1"]
    monkeypatch.setattr(network, "lan_address", lambda: now[0])
    join_url = daemon.join_urls(Config(host="0.0.0.0", advertise=""), 8080)
    assert join_url("abc") == "http://127.0.0.1:8080/join?token=abc"
    now[0] = "192.168.1.20"
    assert join_url("abc") == "http://192.168.1.20:8080/join?token=abc"
    assert daemon.join_urls(Config(host="0.0.0.0", advertise="box.local"), 80)("t") == "http://box.local:80/join?token=t"


class StartedBox:
    """What `companion run` announces from: the port and the host's join URL."""

    def __init__(self, url: str) -> None:
        self.url, self.port = url, 8080

    def host_url(self) -> str:
        return self.url


@pytest.mark.parametrize(("url", "host", "warned"), [
    ("http://127.0.0.1:8080/join?token=t", "0.0.0.0", True),  # meant for the phones, no network yet
    ("http://192.168.1.20:8080/join?token=t", "0.0.0.0", False),
    ("http://127.0.0.1:8080/join?token=t", "127.0.0.1", False),  # asked to serve this machine only
])
def test_a_box_with_no_network_address_yet_says_no_phone_can_reach_it(
        capsys: pytest.CaptureFixture[str], url: str, host: str, warned: bool) -> None:
    cli._announce(StartedBox(url), Config(demo=True, host=host, advertise=""))
    assert (cli.NO_ADDRESS_YET in capsys.readouterr().out) == warned


def test_host_url_names_the_same_address_as_the_qr_codes(tmp_path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion host-url` on a box listening on every interface, IPv6's '::' too (it printed '[::]')."""
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.20")
    assert cli.host_url(Config(host="::", advertise="", port=8080, state=tmp_path)) == 0
    assert capsys.readouterr().out.startswith("http://192.168.1.20:8080/join?token=")
