"""The table's memory on a journal of 10,000 games: how long each question takes to answer the first time after a
start (the summary beside the journal read, plus the entries since) and later (the newest entries only), medians
over fresh starts; the first dice question with no summary (the journal read whole); how long the all-time luck
takes to replay every past game once; and whether asking again and again slows the engine loop's moves.

The journal is built from 200 seeded random games of every kind (the engine's seeded player, corrections
included), each written 50 times over as new games with the journal's own schema and codec, in one transaction
(playing 10,000 games move by move with synchronous=FULL would take hours and measure the disk, not the memory).
Target: first and later answers under 200 ms; moves no slower while the memory is asked.
Run: .venv/bin/python benchmarks/memory.py [--games 10000] [--runs 7] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games import registered_games  # noqa: E402
from companion.journal.codec import encode  # noqa: E402
from companion.journal.fresh import create  # noqa: E402
from companion.journal.store import Journal  # noqa: E402
from companion.memory.service import Memory  # noqa: E402
from companion.memory.summary import FILE as SUMMARY  # noqa: E402
from companion.rules import engine  # noqa: E402
from companion.rules.autoplay import random_input  # noqa: E402
from companion.rules.errors import CompanionError  # noqa: E402
from companion.rules.inputs import CorrectDice, DiceRolled, StartGame  # noqa: E402
from companion.table.session import Session  # noqa: E402

GAMES = registered_games()
NAMES = ("Ann", "Bob", "Cy", "Di")


def seeded_game(game_id: str, seed: int) -> tuple[list[Any], dict[str, Any]]:
    """One finished seeded random game: its accepted inputs (start first) and its outcome as the journal keeps it."""
    game, rng = GAMES[game_id], random.Random(seed)
    start = StartGame(game_id, NAMES[:max(2, game.min_players)], {}, seed)
    table, inputs = engine.start(game, start), [start]
    while game.outcome(table.state) is None and len(inputs) < 3000:
        given = random_input(table, game, rng)
        if isinstance(given, DiceRolled) and table.last_roll is not None and rng.random() < 0.05:
            given = CorrectDice(tuple(rng.randint(1, s) for s in table.last_roll.roll.sides), table.last_roll.roll.sides)
        try:
            table = engine.apply(table, game, given)
        except CompanionError:
            continue
        inputs.append(given)
    found = game.outcome(table.state)
    assert found is not None, f"{game_id} {seed} did not end"
    return inputs, {"winners": list(found.winners), "summary": found.summary, **dict(found.detail)}


def build(path: Path, games: int, distinct: int = 200) -> int:
    """A journal of `games` finished games at `path`; returns its number of entries."""
    kinds = sorted(GAMES)
    played = [seeded_game(kinds[index % len(kinds)], index) for index in range(distinct)]
    create(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN")
    at, entries = 1.7e9, 0
    for number in range(games):
        inputs, outcome = played[number % distinct]
        start = inputs[0]
        db.execute("INSERT INTO games (id, game, players, options, seed, started, finished, outcome) VALUES "
                   "(?, ?, ?, '{}', ?, ?, ?, ?)", (number + 1, start.game, json.dumps(list(start.players)), start.seed,
                                                  at, at + 20 * len(inputs), json.dumps(outcome)))
        rows = []
        for given in inputs:
            kind, body = encode(given)
            source = "camera" if kind == "dice" and entries % 3 else "phone"
            rows.append((number + 1, at, source, kind, body))
            at += 20
            entries += 1
        db.executemany("INSERT INTO entries (game_id, at, source, kind, body) VALUES (?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    db.close()
    return entries


def timed(call: Any, repeats: int = 5) -> float:
    """The median milliseconds of a call."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def move_ms(session: Session, rng: random.Random, moves: int) -> float:
    """The median milliseconds of one accepted move through the session (engine + journal commit)."""
    times = []
    while len(times) < moves:
        game = GAMES[session.table.game]
        if game.outcome(session.table.state) is not None:
            session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {"hourglasses": 999}, rng.randrange(9999)),
                           source="host")
            continue
        given = random_input(session.table, game, rng)
        began = time.perf_counter()
        try:
            session.submit(given, source="phone")
        except CompanionError:
            continue
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


class GilWatch:
    """A thread that asks to run every millisecond and notes how late it got the interpreter: the longest stretch the
    other threads held it (Python lets a waiting thread in after its 5 ms switch interval, unless one step runs on)."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.perf_counter()
            time.sleep(0.001)
            self.late.append((time.perf_counter() - began - 0.001) * 1000)

    def __enter__(self) -> "GilWatch":
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        self._thread.join()

    def longest(self) -> float:
        return max(self.late, default=0.0)


def first_and_later(path: Path, runs: int) -> dict[str, float]:
    """Medians over `runs` fresh Memory objects on the journal (its summary kept between them): each question's
    first answer after the start, and its later answers."""
    found: dict[str, list[float]] = {}
    for _ in range(runs):
        memory = Memory(path, GAMES)
        for name, ask in (("dice_all", lambda: memory.dice("all")), ("dice_game", lambda: memory.dice("game")),
                          ("plays", memory.plays), ("player", lambda: memory.player("ann"))):
            with GilWatch() as watch:
                found.setdefault(f"{name}_first_ms", []).append(timed(ask, repeats=1))
            found.setdefault(f"{name}_first_late_max_ms", []).append(watch.longest())
            found.setdefault(f"{name}_later_ms", []).append(timed(ask, repeats=5))
        memory.close()
    return {key: round(statistics.median(values), 1) for key, values in found.items()}


def without_summary(path: Path, runs: int) -> float:
    """The median milliseconds of the first dice question with no summary beside the journal (it is read whole)."""
    times = []
    for _ in range(runs):
        for side in ("", "-wal", "-shm"):
            Path(f"{path.parent / SUMMARY}{side}").unlink(missing_ok=True)
        memory = Memory(path, GAMES)
        times.append(timed(lambda: memory.dice("all"), repeats=1))
        memory.close()
    return statistics.median(times)


def luck_catch_up(path: Path) -> float:
    """Seconds until every past game is replayed for the all-time luck, from no summary (once per journal)."""
    memory = Memory(path, GAMES)
    began = time.perf_counter()
    while memory.player("ann")["luck"]["counting"]:
        time.sleep(0.5)
    seconds = time.perf_counter() - began
    memory.close()
    return seconds


def measure(games: int, runs: int) -> dict[str, Any]:
    """Build the journal and measure; the figures as a dict."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite"
        began = time.perf_counter()
        entries = build(path, games)
        built = time.perf_counter() - began
        figures: dict[str, Any] = {"games": games, "entries": entries, "build_s": round(built, 1), "runs": runs,
                                   "dice_all_first_no_summary_ms": round(without_summary(path, runs), 1),
                                   "luck_catch_up_s": round(luck_catch_up(path), 1)}
        figures.update(first_and_later(path, runs))
        memory = Memory(path, GAMES)
        journal = Journal(path)
        session = Session(games=GAMES, journal=journal)
        session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {"hourglasses": 999}, 1), source="host")
        rng = random.Random(1)
        quiet = move_ms(session, rng, 1500)
        stop, asked = threading.Event(), [0]

        def ask() -> None:
            while not stop.is_set():
                memory.dice("all")
                memory.dice("game")
                memory.player("ann")
                asked[0] += 1

        asker = threading.Thread(target=ask)
        asker.start()
        busy = move_ms(session, rng, 1500)
        with GilWatch() as watch:  # apart from the moves, so as not to slow them
            time.sleep(3)
        stop.set()
        asker.join()
        held = sorted(watch.late)
        quiet = (quiet + move_ms(session, rng, 1500)) / 2  # before and after: neither order favoured
        stop.clear()
        asker = threading.Thread(target=ask)
        asker.start()
        interval = sys.getswitchinterval()
        shorter = []
        for each in (interval, 0.001, interval, 0.001):  # what a shorter switch interval would give the engine loop
            sys.setswitchinterval(each)
            shorter.append(move_ms(session, rng, 500))
        sys.setswitchinterval(interval)
        stop.set()
        asker.join()
        with GilWatch() as idle:  # how late the watch is with nobody holding the interpreter (the machine's own noise)
            time.sleep(3)
        alone = sorted(idle.late)
        figures.update({"move_ms_quiet": round(quiet, 2), "move_ms_while_asked": round(busy, 2),
                        "move_ms_while_asked_switch_5_vs_1ms": [round((shorter[0] + shorter[2]) / 2, 2),
                                                                 round((shorter[1] + shorter[3]) / 2, 2)],
                        "memory_answers_meanwhile": asked[0],
                        "late_ms_idle_p50_p99_max": [round(alone[len(alone) // 2], 2),
                                                     round(alone[len(alone) * 99 // 100], 2), round(alone[-1], 1)],
                        "late_ms_while_asked_p50_p99_max": [round(held[len(held) // 2], 2),
                                                            round(held[len(held) * 99 // 100], 2), round(held[-1], 1)]})
        memory.close()
        journal.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7, help="fresh starts to take the median of")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.games, args.runs)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
