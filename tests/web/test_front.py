"""A hostile café Wi-Fi against the real companion and its real nginx front (issue 36, items 1, 2, 6), short:
slow heads and bodies from many loopback addresses while a phone's taps and pushes go on, an unauthenticated
20 MB upload refused before it is read with nothing on disk, the front restarted when it dies, a link's share of
the event streams, a gone phone's stream freed at once, and no traceback in the log. The long versions, with
their figures, are benchmarks/hostile_wifi.py.
"""
from __future__ import annotations

import logging
import os
import signal
import socket
import statistics
import struct
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from web.front import BODY_SECONDS, HEAD_SECONDS, Front, find_nginx

if find_nginx() is None:  # make test installs Debian's nginx first (the Makefile's `front`)
    pytest.fail("nginx is not installed: run `make test`, or apt-get install nginx", pytrace=False)

SLOW_ADDRESSES = [f"127.0.2.{number}" for number in range(1, 13)]


class Slow:
    """One slow client: a head (or a body) that trickles one line (byte) every `every` seconds."""

    def __init__(self, port: int, source: str, *, body: bool, every: float = 2.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        self.sock.setblocking(False)
        self.body, self.every, self.opened, self.closed_at = body, every, time.monotonic(), None
        head = "POST /api/dice HTTP/1.1\r\nHost: box\r\nContent-Type: application/json\r\nContent-Length: 9000\r\n\r\n"
        self.sock.send((head if body else "GET /api/state HTTP/1.1\r\n").encode())
        self.next = time.monotonic() + every

    def tick(self, now: float) -> None:
        """Send the next trickle when it is due; notes when the box closed the connection; raises nothing."""
        if self.closed_at is not None or now < self.next:
            return
        try:
            if self.sock.recv(4096, socket.MSG_PEEK) == b"":
                self.closed_at = now
                return
        except BlockingIOError:
            pass
        except OSError:
            self.closed_at = now
            return
        try:
            self.sock.send(b"{" if self.body else b"X-Slow: 1\r\n")
        except OSError:
            self.closed_at = now
        self.next = now + self.every


def _slowloris(port: int, *, count: int, seconds: float, stop: threading.Event, slow: list[Slow]) -> None:
    """Keep `count` slow clients trickling for `seconds`; raises nothing."""
    end = time.monotonic() + seconds
    for number in range(count):
        slow.append(Slow(port, SLOW_ADDRESSES[number % len(SLOW_ADDRESSES)], body=number % 2 == 1))
    while not stop.is_set() and (now := time.monotonic()) < end:
        for client in list(slow):
            client.tick(now)
        time.sleep(0.05)


def test_slow_heads_and_bodies_hold_no_place_while_a_phone_plays_on(companion_server: Any, open_events: Any,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    server = companion_server
    caplog.set_level(logging.INFO)
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    phone = open_events(server.url, token=server.seat_token(0), source="127.0.3.1")
    seq = phone.next_snapshot(timeout=10.0)["seq"]
    slow: list[Slow] = []
    stop = threading.Event()
    attack = threading.Thread(target=_slowloris, args=(server.companion.port,),
                              kwargs={"count": 60, "seconds": 10.0, "stop": stop, "slow": slow})
    attack.start()
    times, pushed, held = [], 0, 0
    try:
        while attack.is_alive():
            held = max(held, len(server.companion.server._waitress._map))  # what waitress itself holds
            started = time.monotonic()
            status, _ = server.api("GET", "/api/state", token=server.seat_token(1))
            times.append(time.monotonic() - started)
            assert status == 200
            if len(times) % 10 == 0:  # a move now and then: its push reaches the phone
                game = {"game": "through-the-gate", "players": ["Ann", "Bob"], **server.ending_this_game()}
                assert server.api("POST", "/api/game", game, token=server.host_token)[0] == 200
                got = phone.next_snapshot(timeout=5.0)["seq"]
                assert got > seq
                seq, pushed = got, pushed + 1
            time.sleep(0.1)
    finally:
        stop.set()
        attack.join()
    assert pushed >= 3 and len(times) >= 40, (pushed, len(times))
    assert held < 30, f"waitress held {held} connections: the slow ones reached it"
    assert statistics.quantiles(times, n=20)[-1] < 1.0, f"p95 {statistics.quantiles(times, n=20)[-1]:.3f} s"
    heads = [client for client in slow if not client.body]
    bodies = [client for client in slow if client.body]
    # waitress alone holds them all as long as they trickle; the front ends each at its deadline
    assert all(client.closed_at is not None and client.closed_at - client.opened < HEAD_SECONDS + 3 for client in heads)
    assert all(client.closed_at is None or client.closed_at - client.opened > BODY_SECONDS for client in bodies)
    assert server.companion.server.app.extensions["companion"].streams.count() == 1  # only the phone's
    assert not [record for record in caplog.records if record.exc_info], "a traceback in the log"


def _send_head(port: int, head: str, source: str) -> tuple[int, bytes, socket.socket]:
    """Send a request's head only; returns the status the box answers with, its body and the socket."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(head.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    return int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2], sock


def _rest(sock: socket.socket, first: bytes) -> bytes:
    """What the box sends until it closes the connection (5 s at most); raises nothing."""
    sock.settimeout(5)
    rest = first
    try:
        while chunk := sock.recv(4096):
            rest += chunk
    except OSError:
        pass
    return rest


def _size(folder: Path) -> int:
    """Bytes under a folder; raises nothing."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _temp_files() -> set[str]:
    """The files in the temp folder waitress would spool to; raises nothing."""
    import tempfile

    return set(os.listdir(tempfile.gettempdir()))


def test_an_unauthenticated_20_mb_upload_is_refused_before_it_is_read(companion_server: Any) -> None:
    server = companion_server
    front_run = server.companion.front._run
    state = Path(server.companion.journal.path).parent
    before, temp_before = _size(state), _temp_files()
    head = "POST /api/dice HTTP/1.1\r\nHost: box\r\nContent-Type: application/json\r\nContent-Length: 20971520\r\n\r\n"
    status, body, sock = _send_head(server.companion.port, head, "127.0.2.1")  # not a byte of the body sent
    sock.close()
    assert status == 413 and b"too_large" in body
    sock = socket.create_connection(("127.0.0.1", server.companion.port), timeout=5)
    sock.sendall(b"POST /api/dice HTTP/1.1\r\nHost: box\r\nTransfer-Encoding: chunked\r\n\r\n")
    sock.sendall(b"10000\r\n" + b"x" * 0x10000 + b"\r\n")  # a body without a length: refused past the limit
    answer = sock.recv(4096)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert server.api("POST", "/api/press", {"button": "next"}, token=server.host_token)[0] in (200, 409)
    assert not [path for path in front_run.rglob("*") if path.is_file() and path.parent.name == "body"]
    assert _size(state) - before < 64 * 1024  # the press's journal entry, not 20 MB
    assert _temp_files() <= temp_before | {front_run.name}


def _group_ends(group: int, seconds: float = 3.0) -> bool:
    """Whether every process of that process group is gone (or a zombie) within `seconds`; raises nothing."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        living = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                living.append(stat.parent.name)
        if not living:
            return True
        time.sleep(0.05)
    return False


def test_a_dead_front_is_started_again_and_none_is_left_after_the_stop(start_server: Callable[..., Any]) -> None:
    server = start_server()
    front = server.companion.front
    first = front._process.pid
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (front._process.pid == first or not front.running):
        time.sleep(0.1)
    status = None
    while time.monotonic() < deadline and status != 200:
        try:
            status, _ = server.api("GET", "/api/state", token=server.host_token)
        except OSError:
            time.sleep(0.1)
    assert status == 200 and front.restarts == 1
    assert _group_ends(first), "the dead nginx's worker was left holding the port"
    run, second = front._run, front._process.pid
    server.companion.stop()
    assert front._process.poll() is not None and not run.exists()
    assert _group_ends(second)


def test_the_port_a_front_chose_is_given_to_no_other_socket_until_nginx_listens_on_it() -> None:
    front = Front(str(find_nginx()), host="127.0.0.1", port=0, max_body=1024)
    try:
        given = []
        for _ in range(2000):  # the web server binds 127.0.0.1:0 after the front chose its port
            with socket.socket() as other:
                other.bind(("127.0.0.1", 0))
                given.append(other.getsockname()[1])
        assert front.port not in given
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", front.port))
        front.start(app_port=9)  # nginx listens without asking the app anything
        with socket.create_connection(("127.0.0.1", front.port), timeout=5):
            pass
    finally:
        front.close()


def test_without_nginx_the_box_says_so_and_serves_directly(start_server: Callable[..., Any],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import web.front

    monkeypatch.setattr(web.front, "find_nginx", lambda: None)
    server = start_server()
    assert server.companion.front is None and server.companion.port == server.companion.server.port
    assert any("nginx is not installed" in warning for warning in server.companion.warnings)
    status, snapshot = server.api("GET", "/api/state", token=server.host_token)
    assert status == 200 and "nginx is not installed" in str(snapshot)  # the host page shows it


def test_a_forged_forwarded_for_is_not_believed(companion_server: Any, raw: Any) -> None:
    headers = {"Authorization": "Bearer wrong", "X-Forwarded-For": "127.0.9.9"}
    statuses = [raw(companion_server.url, "GET", "/api/state", None, {**headers, "X-Forwarded-For": f"10.0.0.{n}"},
                    source="127.0.5.1")[0] for n in range(12)]
    assert statuses[-1] == 429, statuses  # counted as one address: its own
    assert raw(companion_server.url, "GET", "/api/state", None, headers, source="127.0.5.2")[0] == 403


def test_one_link_holds_at_most_its_share_of_the_streams(companion_server: Any, open_events: Any) -> None:
    from web.events import PER_TOKEN

    server = companion_server
    token = server.seat_token(0)
    streams = [open_events(server.url, token=token, source=f"127.0.4.{number + 1}") for number in range(PER_TOKEN)]
    assert all(stream.status == 200 for stream in streams)
    refused = open_events(server.url, token=token, source="127.0.4.100")
    assert refused.status == 429 and "close it on one of them" in _rest(refused.sock, refused.buffer).decode()
    assert open_events(server.url, token=server.seat_token(1), source="127.0.4.101").status == 200
    again = open_events(server.url, token=token, source="127.0.4.1")  # a phone back: its own old stream ends
    assert again.status == 200 and streams[0].ends_within(5.0)


@pytest.mark.parametrize("front", [True, False], ids=["front", "direct"])
def test_a_gone_phone_s_stream_is_freed_within_seconds(start_server: Callable[..., Any], open_events: Any,
                                                       monkeypatch: pytest.MonkeyPatch, front: bool,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    import web.front

    caplog.set_level(logging.INFO)
    if not front:
        monkeypatch.setattr(web.front, "find_nginx", lambda: None)
    server = start_server()
    streams = server.companion.server.app.extensions["companion"].streams
    quiet = open_events(server.url, token=server.host_token, source="127.0.6.1")
    reset = open_events(server.url, token=server.host_token, source="127.0.6.2")
    quiet.next_snapshot(timeout=5.0), reset.next_snapshot(timeout=5.0)
    assert streams.count() == 2
    quiet.sock.close()  # the page closed
    reset.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    reset.sock.close()  # the phone's Wi-Fi reset the connection
    deadline = time.monotonic() + 3.0  # the keepalive ping, which used to find it, comes every 15 s
    while time.monotonic() < deadline and streams.count():
        time.sleep(0.05)
    assert streams.count() == 0
    time.sleep(0.5)
    gone = [record.getMessage() for record in caplog.records if "closed its event stream" in record.getMessage()]
    assert len(gone) == 2, gone
    assert not [record for record in caplog.records if record.exc_info], "a traceback in the log"
