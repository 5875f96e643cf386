"""A hostile café Wi-Fi against the real daemon (issue 36, items 1 and 2), with and without its nginx front.

Slow: 300 slow connections from 60 loopback addresses (half send a head one line every 10 s, half a body one byte
every 10 s; each one the box drops is opened again) for --seconds, while 16 phones hold event streams (host and
seats 0 and 1, the seats every game has), the host plays a move every 0.5 s, and a joining phone asks GET
/api/state every 0.2 s on a new connection. Figures: that phone's p50/p95/max and failures before, during and
after; the pushes the 16 phones missed (5 s); how long after the attack the first answer took.
Uploads: 20 unauthenticated 20 MB uploads at once, a move in the middle. Figures: their statuses, how much of each
the box took before it answered, the least free space of the temp folder and the state folder's growth.

    .venv/bin/python benchmarks/hostile_wifi.py [--seconds 60] [--no-front]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import daemon as daemon_module  # noqa: E402
from evening import Host, percentile, seat_token  # noqa: E402
from evening_phones import Phones, open_stream  # noqa: E402

SLOW, ADDRESSES, TRICKLE_SECONDS = 300, 60, 10.0
UPLOADS, UPLOAD_BYTES = 20, 20 * 1024 * 1024


class Slowloris(threading.Thread):
    """SLOW connections from ADDRESSES loopback addresses that trickle a head or a body; dropped ones reopened."""

    def __init__(self, port: int, seconds: float) -> None:
        super().__init__(name="slowloris", daemon=True)
        self.port, self.seconds, self.dropped, self.opened = port, seconds, 0, 0
        self._socks: list[tuple[socket.socket, bool, float]] = []

    def _open(self, number: int) -> tuple[socket.socket, bool, float]:
        """One slow client, its head (or its body's head) sent; raises OSError."""
        body = number % 2 == 1
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((f"127.0.8.{1 + number % ADDRESSES}", 0))
        sock.connect_ex(("127.0.0.1", self.port))
        self.opened += 1
        return sock, body, time.monotonic()

    def run(self) -> None:
        """Trickle until the time is up, then close every connection; raises nothing."""
        end = time.monotonic() + self.seconds
        self._socks = [self._open(number) for number in range(SLOW)]
        sent_head: set[int] = set()
        while time.monotonic() < end:
            for index, (sock, body, last) in enumerate(self._socks):
                if time.monotonic() - last < (0.2 if index not in sent_head else TRICKLE_SECONDS):
                    continue
                head = (b"POST /api/dice HTTP/1.1\r\nHost: box\r\nContent-Length: 9000\r\n\r\n" if body
                        else b"GET /api/state HTTP/1.1\r\n")
                try:
                    sock.send((b"{" if body else b"X-Slow: 1\r\n") if index in sent_head else head)
                    sent_head.add(index)
                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    pass
                except OSError:
                    sock.close()
                    self.dropped += 1
                    sent_head.discard(index)
                    self._socks[index] = self._open(index)
                    continue
                self._socks[index] = (sock, body, time.monotonic())
            time.sleep(0.05)
        for sock, _, _ in self._socks:
            sock.close()


def ask_state(port: int, token: str, source: str) -> float | None:
    """Seconds a new connection's GET /api/state took, or None when it failed (10 s); raises nothing."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", "/api/state", headers={"Authorization": f"Bearer {token}"})
        answer = connection.getresponse()
        answer.read()
        return time.monotonic() - started if answer.status == 200 else None
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def figures(times: list[float | None]) -> dict[str, Any]:
    """p50/p95/max in ms of the answered, and how many failed; raises nothing."""
    done = [value * 1000 for value in times if value is not None]
    if not done:
        return {"asked": len(times), "failed": len(times)}
    return {"asked": len(times), "failed": len(times) - len(done), "p50_ms": round(statistics.median(done), 1),
            "p95_ms": round(percentile(done, 0.95), 1), "max_ms": round(max(done), 1)}


def slow_evening(daemon: daemon_module.Daemon, seconds: float) -> dict[str, Any]:
    """The slow attack over an evening of 16 phones; returns the figures."""
    host = Host(daemon.port, daemon.token, 1)
    host.start_game("through-the-gate")
    tokens = [daemon.token, seat_token(host, 0), seat_token(host, 1)]
    phones = Phones()
    for number in range(16):
        phones.add(open_stream(daemon.port, tokens[number % 3], f"127.0.0.{number + 2}"))
    try:
        before = [ask_state(daemon.port, tokens[1], "127.0.0.100") for _ in range(25)]
        attack = Slowloris(daemon.port, seconds)
        attack.start()
        during, pushes = [], []
        next_move = time.monotonic()
        while attack.is_alive():
            during.append(ask_state(daemon.port, tokens[1], "127.0.0.100"))
            if time.monotonic() >= next_move:
                action = host.act()
                if action.accepted:
                    pushes += phones.latencies(action.seq, action.sent)
                next_move = time.monotonic() + 0.5
            time.sleep(0.2)
        attack.join()
        stopped = time.monotonic()
        first = ask_state(daemon.port, tokens[1], "127.0.0.100")
        recovered_ms = (time.monotonic() - stopped) * 1000 if first is not None else None
        after = [ask_state(daemon.port, tokens[1], "127.0.0.100") for _ in range(25)]
    finally:
        phones.close()
    return {"before": figures(before), "during": figures(during), "after": figures(after),
            "recovered_ms": None if recovered_ms is None else round(recovered_ms, 1),
            "pushes": len(pushes), "missed_pushes": sum(value >= 5000 for value in pushes),
            "push_p95_ms": round(percentile(pushes, 0.95), 1) if pushes else None,
            "slow_opened": attack.opened, "slow_dropped_by_box": attack.dropped}


def upload(port: int, source: str, result: list[tuple[int | None, int]]) -> None:
    """One unauthenticated 20 MB upload, sent as fast as the box takes it; notes (status, bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sent = 0
    try:
        sock.sendall(f"POST /api/dice HTTP/1.1\r\nHost: box\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {UPLOAD_BYTES}\r\n\r\n".encode())
        sock.settimeout(0.5)
        try:
            answer = sock.recv(4096)  # a box that refuses from the head answers now
        except socket.timeout:
            answer = b""
        sock.settimeout(30)
        chunk = b"x" * 65536
        while not answer and sent < UPLOAD_BYTES:
            sock.sendall(chunk)
            sent += len(chunk)
        answer = answer or sock.recv(4096)
        result.append((int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else None, sent))
    except OSError:
        result.append((None, sent))
    finally:
        sock.close()


def uploads(daemon: daemon_module.Daemon, state: Path) -> dict[str, Any]:
    """UPLOADS at once, a move in the middle; returns the figures."""
    host = Host(daemon.port, daemon.token, 2)
    host.start_game("through-the-gate")
    temp = tempfile.gettempdir()
    free_before, state_before = _free(temp), _size(state)
    result: list[tuple[int | None, int]] = []
    senders = [threading.Thread(target=upload, args=(daemon.port, f"127.0.9.{number + 1}", result))
               for number in range(UPLOADS)]
    least = free_before
    for sender in senders:
        sender.start()
    move = None
    while any(sender.is_alive() for sender in senders):
        least = min(least, _free(temp))
        if move is None:
            action = host.act()
            move = (action.accepted, round(action.answer_ms, 1))
        time.sleep(0.02)
    return {"statuses": sorted({str(status) for status, _ in result}), "most_taken_kb": max(sent for _, sent in result) // 1024,
            "temp_free_drop_mb": round((free_before - least) / 2**20, 1), "state_growth_kb": (_size(state) - state_before) // 1024,
            "move_in_the_middle": move}


def _free(folder: str) -> int:
    """Free bytes where the folder is; raises OSError."""
    stats = os.statvfs(folder)
    return stats.f_bavail * stats.f_frsize


def _size(folder: Path) -> int:
    """Bytes under a folder; raises nothing."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main() -> int:
    """Run both attacks on a fresh daemon and print the figures as JSON; returns 0."""
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--seconds", type=float, default=60.0)
    options.add_argument("--no-front", action="store_true", help="the daemon without nginx in front")
    args = options.parse_args()
    plain = daemon_module.run_command
    if args.no_front:
        daemon_module.run_command = lambda *given, **named: [*plain(*given, **named), "--no-front"]
    with tempfile.TemporaryDirectory() as folder:
        daemon = daemon_module.Daemon(Path(folder))
        found: dict[str, Any] = {}
        try:
            found = {"front": not args.no_front, "slow": slow_evening(daemon, args.seconds),
                     "uploads": uploads(daemon, Path(folder))}
        finally:
            found["exit_code"] = daemon.stop()
    print(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
