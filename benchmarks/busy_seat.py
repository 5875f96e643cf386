"""One busy seat (issue 36, item 3): one phone sends 4,000 moves out of turn as fast as the box answers, while the
host reads the table and another player taps, with 8 event streams open.

Starts the real daemon (`companion run --demo --camera none`, benchmarks/daemon.py) on 127.0.0.1 with Through
the Gate for four; Ann declares her speed (a move she can take back), then Bob's phone sends diaries (set_tallies,
out of turn) on one kept-alive connection. Meanwhile the host reads /api/state every 100 ms (the host's snapshot)
and Cyd's phone enters her diary every 200 ms (a tap's answer); 8 streams, each from its own loopback address,
read every snapshot. Three modes: `quiet`, Bob sends nothing for QUIET_SECONDS (the machine's own figures);
`limited`, the box as shipped (10 inputs a second after 20 at once: most of Bob's are refused, 429); `raised`, its
limit raised so all of Bob's are taken (what the table does with them).
The engine's own figure: one host snapshot in process, with no diary out of turn and with all of them.
Targets: the host's snapshot and a tap's answer p95 < 20 ms in both modes.
Run: .venv/bin/python benchmarks/busy_seat.py [--inputs 4000] [--mode quiet|limited|raised|all] [--json]
"""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.daemon import SCRIPTED_CLIENTS, Daemon  # noqa: E402
from benchmarks.evening import Host, percentile, seat_token  # noqa: E402
from benchmarks.evening_phones import Phones, open_stream  # noqa: E402
from companion.games.through_the_gate import GAME as TTG  # noqa: E402
from companion.rules import engine  # noqa: E402
from companion.rules.inputs import DiceRolled, Move, StartGame  # noqa: E402
from companion.table.snapshot import Extras, snapshot  # noqa: E402

STREAMS = 8
READ_EVERY = 0.1
TAP_EVERY = 0.2
TARGET_MS = 20.0
QUIET_SECONDS = 5.0
MODES = ("quiet", "limited", "raised")
FIRST_ROLLS = (6, 1, 1, 1)
"""Ann rolls highest for first player."""


def diary(seat: int, count: int) -> dict[str, Any]:
    """A diary body for /api/actions, each a little different."""
    return {"seat": seat, "move": "set_tallies", "args": {"strength": count % 5, "diary": count % 7}}


class Phone:
    """A phone's kept-alive JSON client with its token."""

    def __init__(self, port: int, token: str) -> None:
        """Connect to the daemon on 127.0.0.1; raises nothing (the first request connects)."""
        self.token = token
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """One request; returns (status, parsed body, ms to the answer); raises OSError or HTTPException."""
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        sent = time.perf_counter()
        self._connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = self._connection.getresponse()
        parsed = json.loads(answer.read())
        return answer.status, parsed, (time.perf_counter() - sent) * 1000


def busy_seat(*, inputs: int = 4000, mode: str = "limited") -> dict[str, Any]:
    """One run against a fresh daemon; returns its figures (see the module's docstring); raises RuntimeError."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(Path(folder), config=SCRIPTED_CLIENTS if mode == "raised" else "")
        phones = Phones()
        try:
            figures = _run(daemon, phones, 0 if mode == "quiet" else inputs)
        finally:
            phones.close()
            code = daemon.stop()
    return {"mode": mode, **figures, "exit_code": code}


def _run(daemon: Daemon, phones: Phones, inputs: int) -> dict[str, Any]:
    """Set the table up, open the streams, send Bob's diaries while timing the host and Cyd; returns the figures;
    raises RuntimeError when Ann cannot declare her speed, OSError when the daemon does not answer."""
    host = Host(daemon.port, daemon.token, 1)
    host.start_game("through-the-gate")
    tokens = [daemon.token] + [seat_token(host, seat) for seat in range(4)]
    first = Phone(daemon.port, daemon.token)
    for value in FIRST_ROLLS:
        first.call("POST", "/api/dice", {"values": [value], "sides": [6]})
    status, answer, _ = first.call("POST", "/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 7}})
    if status != 200 or not answer["can_undo"]:
        raise RuntimeError(f"Ann could not declare her speed: {answer}")
    for number in range(STREAMS):
        phones.add(open_stream(daemon.port, tokens[number % len(tokens)], f"127.0.0.{number + 2}"))
    reader, bob, cyd = Phone(daemon.port, daemon.token), Phone(daemon.port, tokens[2]), Phone(daemon.port, tokens[3])
    sent: dict[int, int] = {}
    flood = threading.Thread(target=lambda: sent.update(_flood(bob, inputs)), name="bob")
    began = time.perf_counter()
    flood.start()
    reads, taps, tap_statuses = _watch(reader, cyd, flood)
    seconds = time.perf_counter() - began
    _, state, _ = reader.call("GET", "/api/state")
    return {"inputs": inputs, "accepted": sent.get(200, 0), "refused_429": sent.get(429, 0),
            "other": sum(count for status, count in sent.items() if status not in (200, 429)),
            "seconds": round(seconds, 2), "host_snapshot_ms": _summary(reads), "tap_answer_ms": _summary(taps),
            "taps_refused": sum(status != 200 for status in tap_statuses),
            "can_undo_at_end": state["can_undo"], "seq_at_end": state["seq"]}


def _flood(bob: Phone, inputs: int) -> dict[int, int]:
    """Bob's diaries, as fast as the box answers (none: he waits QUIET_SECONDS); returns how many got each status."""
    counts: dict[int, int] = {}
    if not inputs:
        time.sleep(QUIET_SECONDS)
    for count in range(inputs):
        status, _, _ = bob.call("POST", "/api/actions", diary(1, count))
        counts[status] = counts.get(status, 0) + 1
    return counts


def _watch(reader: Phone, cyd: Phone, flood: threading.Thread) -> tuple[list[float], list[float], list[int]]:
    """Until the flood ends: the host reads the table and Cyd taps, each on its own beat; returns the ms and statuses."""
    reads: list[float] = []
    taps: list[float] = []
    statuses: list[int] = []
    next_read = next_tap = time.perf_counter()
    while flood.is_alive():
        now = time.perf_counter()
        if now >= next_read:
            reads.append(reader.call("GET", "/api/state")[2])
            next_read = now + READ_EVERY
        elif now >= next_tap:
            status, _, ms = cyd.call("POST", "/api/actions", diary(2, len(taps)))
            taps.append(ms)
            statuses.append(status)
            next_tap = now + TAP_EVERY
        else:
            time.sleep(min(next_read, next_tap) - now)
    return reads, taps, statuses


def _summary(values: list[float]) -> dict[str, float]:
    """p50, p95 and max of a list of ms (zeros when empty); raises nothing."""
    if not values:
        return {"count": 0, "p50": 0.0, "p95": 0.0, "max": 0.0}
    return {"count": len(values), "p50": round(statistics.median(values), 2),
            "p95": round(percentile(values, 0.95), 2), "max": round(max(values), 2)}


def engine_snapshot_ms(inputs: int = 4000, repeats: int = 10) -> dict[str, float]:
    """The median ms of one host snapshot in process, before Bob's diaries out of turn and after `inputs` of them."""
    table = engine.start(TTG, StartGame(TTG.id, ("Ann", "Bob", "Cyd", "Dee"), {}, 1))
    for value in FIRST_ROLLS:
        table = engine.apply(table, TTG, DiceRolled((value,), (6,)))
    table = engine.apply(table, TTG, Move(0, "declare_speed", {"speed": 7}))

    def timed() -> float:
        """The median ms of one host snapshot of the table now; raises nothing."""
        times = []
        for _ in range(repeats):
            began = time.perf_counter()
            snapshot(table, TTG, seat=None, seq=table.seq, extras=Extras())
            times.append((time.perf_counter() - began) * 1000)
        return round(statistics.median(times), 3)

    quiet = timed()
    for count in range(inputs):
        body = diary(1, count)
        table = engine.apply(table, TTG, Move(1, body["move"], body["args"]))
    return {"quiet": quiet, "busy": timed(), "undo_entries": len(table.undo)}


def main() -> int:
    """Run the modes asked for and print the figures; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=4000)
    parser.add_argument("--mode", choices=(*MODES, "all"), default="all")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    modes = MODES if args.mode == "all" else (args.mode,)
    figures = {"engine_snapshot_ms": engine_snapshot_ms(args.inputs),
               **{mode: busy_seat(inputs=args.inputs, mode=mode) for mode in modes}}
    print(json.dumps(figures, indent=None if args.json else 2))
    missed = [mode for mode in modes if max(figures[mode]["host_snapshot_ms"]["p95"],
                                            figures[mode]["tap_answer_ms"]["p95"]) >= TARGET_MS]
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
