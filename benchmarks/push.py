"""Push latency and memory of the real daemon: 16 phones on the event stream, on 127.0.0.1.

Starts `companion run --demo` as a subprocess, connects 16 event streams, sends actions through
the HTTP API and measures, for every action and every stream, the time from sending the action to
that stream receiving the snapshot that shows it. Reports p50/p95 per run, the median over runs,
and the daemon's resident memory. Targets: p95 < 100 ms; memory < 150 MB.
Run: .venv/bin/python benchmarks/push.py [--runs 3] [--actions 200] [--phones 16] [--json]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.daemon import Daemon  # noqa: E402


class Phone(threading.Thread):
    """One event-stream client that notes when each seq arrived."""

    def __init__(self, port: int, token: str, number: int) -> None:
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.address = f"127.0.0.{number + 2}"  # each phone its own loopback source, as on a real Wi-Fi
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=(self.address, 0))
        connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {self.token}"})
        answer = connection.getresponse()
        stream = answer.fp  # the raw lines: iterating HTTPResponse would buffer
        try:
            for raw in iter(stream.readline, b""):
                line = raw.decode().strip()
                if line.startswith("id:"):
                    self.arrived[int(line[3:])] = time.perf_counter()
                    self.ready.set()
        except (OSError, ValueError):
            return  # the daemon stopped at the end of the run


def one_run(actions: int, phones: int) -> dict[str, float]:
    """Start a daemon, load it, and return p50/p95 push latency (ms) and RSS (MB)."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(Path(folder))
        try:
            daemon.call("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"], "options": {}})
            daemon.call("POST", "/api/dice", {"values": [6], "sides": [6]})
            daemon.call("POST", "/api/dice", {"values": [1], "sides": [6]})
            clients = [Phone(daemon.port, daemon.token, number) for number in range(phones)]
            for client in clients:
                client.start()
            for client in clients:
                client.ready.wait(10)
            latencies = []
            for index in range(actions):
                body = {"seat": 0, "move": "declare_speed", "args": {"speed": 2 + index % 6}}
                sent = time.perf_counter()
                seq = daemon.call("POST", "/api/actions", body)[1]["seq"]
                latencies += _wait_all(clients, seq, sent)
                daemon.call("POST", "/api/undo", {})
            rss = daemon.resources().rss_mb
        finally:
            daemon.stop()
    ordered = sorted(latencies)
    return {"p50_ms": statistics.median(ordered), "p95_ms": ordered[int(0.95 * (len(ordered) - 1))], "rss_mb": rss,
            "max_ms": ordered[-1]}


def _wait_all(clients: list[Phone], seq: int, sent: float) -> list[float]:
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline and not all(_got(client, seq) for client in clients):
        time.sleep(0.0005)
    return [(_got(client, seq) or deadline) * 1000 - sent * 1000 for client in clients]


def _got(client: Phone, seq: int) -> float | None:
    return next((when for arrived, when in list(client.arrived.items()) if arrived >= seq), None)


def main() -> int:
    """Run the benchmark and print the figures; returns 0."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--actions", type=int, default=200)
    options.add_argument("--phones", type=int, default=16)
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    runs = [one_run(args.actions, args.phones) for _ in range(args.runs)]
    figures = {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}
    figures.update(runs=args.runs, actions=args.actions, phones=args.phones)
    print(json.dumps(figures) if args.json else "\n".join(f"{key}: {value}" for key, value in figures.items()))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
