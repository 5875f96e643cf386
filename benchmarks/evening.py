"""A simulated evening: 16 phones on the event stream, thousands of actions, 1,000 reconnects.

Starts the real daemon (`companion run --demo --camera none`) as a subprocess on 127.0.0.1. The host
plays seeded random legal moves through the HTTP API (the snapshot's legal_moves and awaiting_dice,
arguments drawn by `autoplay.sample`), starting the next game when one ends. Every phone has its own
loopback source address. Meanwhile streams connect and disconnect (a clean close, a reset, a close
before the answer), each from a new address. The first half of the actions runs calm; in the second a
stuck phone (tiny receive buffer, never reads) holds a stream. Push latency is the time from sending
an action to each phone receiving the snapshot that shows it. The warm-up plays a little of every
game, a tenth of the actions and reconnects (at least 60) of its own; then the daemon's threads, resident memory and open files
are read from /proc (start), again after the calm half (middle) and after the stuck phone has gone
(end). stuck_behind_kb is how much less the stuck phone took than a reading one. Each run is a
fresh daemon with its own seed; main() prints the median of every figure.
Targets: p95 push latency < 100 ms with and without the stuck phone; threads and open files back to
the start; resident memory within 10 % of the start. The phones are in benchmarks/evening_phones.py.
Run: .venv/bin/python benchmarks/evening.py [--runs 3] [--actions 3000] [--cycles 1000] [--json]
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.daemon import Daemon, Resources  # noqa: E402
from benchmarks.evening_phones import MISSED_MS, WAIT_SECONDS, Cycler, Phones, StuckPhone, open_stream  # noqa: E402
from companion.rules.autoplay import sample  # noqa: E402

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
WARM_SHARE = 0.1
"""The warm-up plays a tenth of the evening's actions and reconnects, and at least:"""
WARM_CYCLES = 60
"""reconnects enough for every server thread to have served a stream, and"""
WARM_PER_GAME = 20
"""inputs in each game before the next, so that every game's code has run."""


@dataclass(frozen=True)
class Action:
    """One request the host made: accepted or not, the seq it led to, when sent, how long the answer took."""

    accepted: bool
    seq: int
    sent: float
    answer_ms: float


class Host:
    """The host's browser: plays seeded random legal inputs through the API, starting new games."""

    def __init__(self, port: int, token: str, seed: int, *, per_game: int = 150) -> None:
        """Connect and read the games and the state; raises OSError when the daemon does not answer."""
        self.port, self.token, self.rng, self.per_game = port, token, random.Random(seed), per_game
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.games = sorted(game["id"] for game in self.call("GET", "/api/games")[1])
        self.state: dict[str, Any] = self.call("GET", "/api/state")[1]
        self.played = self.refused = self.started = 0
        self._in_game = 0

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One JSON request on the kept-alive connection (once more on a new one); returns (status, body)."""
        try:
            return self._request(method, path, body)
        except (OSError, http.client.HTTPException):
            self._connection.close()  # the server closed the idle connection: http.client opens a new one
            return self._request(method, path, body)

    def _request(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """One JSON request with the host's token; raises OSError or HTTPException when the connection fails."""
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        self._connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = self._connection.getresponse()
        return answer.status, json.loads(answer.read())

    def start_game(self, game: str) -> Action:
        """Start a game with as many of PLAYERS as it takes; returns the action."""
        info = next(each for each in self.call("GET", "/api/games")[1] if each["id"] == game)
        players = list(PLAYERS[: max(info["min_players"], min(info["max_players"], len(PLAYERS)))])
        self.started += 1
        self._in_game = 0
        under_way = self.state["game_no"] if self.state.get("game") is not None else None  # the host confirms ending it
        return self._send("/api/game", {"game": game, "players": players, "options": {},
                                        **({} if under_way is None else {"ends_game": under_way})})

    def act(self) -> Action:
        """Play one random input the table should take now (or start the next game); returns it."""
        state = self.state
        if state["game"] is None or state["outcome"] is not None or self._in_game >= self.per_game:
            return self.start_game(self.games[self.started % len(self.games)])
        self._in_game += 1
        awaited, legal = state["awaiting_dice"], state["legal_moves"]
        if awaited is not None and (self.rng.random() < 0.85 or not legal):
            values = [self.rng.randint(1, sides) for sides in awaited["sides"]]
            return self._send("/api/dice", {"values": values, "sides": awaited["sides"]})
        if state["can_undo"] and self.rng.random() < 0.03:
            return self._send("/api/undo", {})
        if not legal:
            self._in_game = self.per_game  # nothing to do: the next act starts a new game
            return self.act()
        entry = self.rng.choice(legal)
        body = {"seat": entry["seat"], "move": entry["move"], "args": sample(entry["args"], self.rng)}
        return self._send("/api/actions", body)

    def _send(self, path: str, body: Any) -> Action:
        """POST an input, timing the answer and keeping the state it shows; raises OSError."""
        sent = time.perf_counter()
        status, answer = self.call("POST", path, body)
        answer_ms = (time.perf_counter() - sent) * 1000
        if status != 200:
            self.refused += 1
            return Action(False, self.state["seq"], sent, answer_ms)
        self.played += 1
        self.state = answer
        return Action(True, answer["seq"], sent, answer_ms)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (share in 0..1) of a non-empty list; raises IndexError when empty."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def phase(host: Host, phones: Phones, actions: int, cycler: Cycler | None) -> dict[str, float]:
    """Play `actions` inputs while the cycler runs; returns push and answer latency figures (ms)."""
    pushes: list[float] = []
    answers: list[float] = []
    if cycler is not None:
        cycler.start()
    for index in range(actions):
        action = host.act()
        answers.append(action.answer_ms)
        if action.accepted:
            pushes += phones.latencies(action.seq, action.sent)
        if cycler is not None:
            cycler.progress = (index + 1) / actions
    if cycler is not None:
        cycler.progress = 1.0
        cycler.join(WAIT_SECONDS * 4)
    if not pushes:
        raise RuntimeError("the table took none of the actions")
    return {"p50_ms": statistics.median(pushes), "p95_ms": percentile(pushes, 0.95), "max_ms": max(pushes),
            "answer_p95_ms": percentile(answers, 0.95), "missed": sum(value >= MISSED_MS for value in pushes),
            "pushes": len(pushes)}


def seat_token(host: Host, seat: int) -> str:
    """A fresh token for a seat of the current game, as the host's QR code carries; raises KeyError."""
    status, answer = host.call("POST", f"/api/seats/{seat}/token", {})
    if status != 200:
        raise KeyError(f"no token for seat {seat}: {answer}")
    return str(answer["url"].rsplit("token=", 1)[1])


def settled(daemon: Daemon, start: Resources, seconds: float = 10.0) -> Resources:
    """The daemon's resources once its threads and open files are back to the start's (or after `seconds`);
    raises OSError when it has exited."""
    deadline = time.monotonic() + seconds
    now = daemon.resources()
    while (now.threads > start.threads or now.fds > start.fds) and time.monotonic() < deadline:
        time.sleep(0.1)
        now = daemon.resources()
    return now


def evening(*, actions: int, cycles: int, phones: int = 16, seed: int = 1) -> dict[str, Any]:
    """One evening against a fresh daemon; returns its figures (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(Path(folder))
        readers = Phones()
        try:
            figures = _play(daemon, readers, actions=actions, cycles=cycles, phones=phones, seed=seed)
        finally:
            readers.close()
            code = daemon.stop()
        return {**figures, "exit_code": code, "log_tail": list(daemon.log)[-5:]}


def _play(daemon: Daemon, readers: Phones, *, actions: int, cycles: int, phones: int, seed: int) -> dict[str, Any]:
    """Warm up, play the calm half, then the half with a stuck phone; returns the figures. Raises RuntimeError."""
    host = Host(daemon.port, daemon.token, seed)
    host.start_game("through-the-gate")  # four seats to hand out tokens for
    tokens = [daemon.token] + [seat_token(host, seat) for seat in range(2)]  # seats every game has: a seat
    # a later game lacks is refused (403) and its stream ended
    for number in range(phones):
        readers.add(open_stream(daemon.port, tokens[number % len(tokens)], f"127.0.0.{number + 2}"))
    if not readers.wait_for(host.state["seq"], time.monotonic() + 10):
        raise RuntimeError("the phones did not all get the first snapshot")
    warm_cycles, calm_cycles = max(WARM_CYCLES, int(cycles * WARM_SHARE)), cycles // 2
    cyclers = [Cycler(daemon.port, tokens, warm_cycles, 0, seed),
               Cycler(daemon.port, tokens, calm_cycles, warm_cycles, seed + 1),
               Cycler(daemon.port, tokens, cycles - calm_cycles, warm_cycles + calm_cycles, seed + 2)]
    per_game, host.per_game = host.per_game, WARM_PER_GAME  # the warm-up plays a little of every game
    phase(host, readers, max((WARM_PER_GAME + 1) * len(host.games), int(actions * WARM_SHARE)), cyclers[0])
    host.per_game = per_game
    time.sleep(0.5)  # let the warm-up's last closes land
    start = daemon.resources()
    calm = phase(host, readers, actions // 2, cyclers[1])
    middle = daemon.resources()
    stuck = StuckPhone(daemon.port, daemon.token, "127.0.1.1")
    before = readers.phones[0].received  # phone 0 holds the host's token, as the stuck one does
    jammed = phase(host, readers, actions - actions // 2, cyclers[2])
    behind = readers.phones[0].received - before - stuck.queued()
    stuck.close()
    for _ in range(5):  # a stream whose phone left is noticed at its next write: a push (or the keepalive)
        host.act()
    end = settled(daemon, start)
    return {"actions": host.played + host.refused, "accepted": host.played, "refused": host.refused,
            "games": host.started,
            "cycles": sum(each.done for each in cyclers[1:]), "cycles_failed": sum(each.failed for each in cyclers),
            "calm": calm, "stuck": jammed, "stuck_behind_kb": round(behind / 1024, 1),
            "start": vars(start), "middle": vars(middle), "end": vars(end),
            "rss_growth_pct": round(100 * (end.rss_mb - start.rss_mb) / start.rss_mb, 2),
            "late_rss_growth_pct": round(100 * (end.rss_mb - middle.rss_mb) / middle.rss_mb, 2)}


def flat(figures: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """The numeric figures as (dotted name, value) pairs; raises nothing."""
    for key, value in figures.items():
        if isinstance(value, dict):
            yield from flat(value, f"{prefix}{key}.")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            yield f"{prefix}{key}", value


def main() -> int:
    """Run the evenings and print the median of every figure; returns 0."""
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--actions", type=int, default=3000)
    options.add_argument("--cycles", type=int, default=1000)
    options.add_argument("--phones", type=int, default=16)
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    runs = [dict(flat(evening(actions=args.actions, cycles=args.cycles, phones=args.phones, seed=run + 1)))
            for run in range(args.runs)]
    medians = {key: round(statistics.median(run[key] for run in runs), 2) for key in runs[0]}
    medians.update(runs=args.runs, phones=args.phones)
    print(json.dumps(medians) if args.json else "\n".join(f"{key}: {value}" for key, value in medians.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
