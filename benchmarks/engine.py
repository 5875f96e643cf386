"""Engine speed: applying one input, and replaying 10,000 journaled inputs from SQLite.

Medians over repeated runs. Targets: apply < 1 ms; replay of 10,000 inputs < 2 s.
Run: .venv/bin/python benchmarks/engine.py [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games import registered_games  # noqa: E402
from companion.rules.inputs import StartGame  # noqa: E402
from companion.journal.store import Journal  # noqa: E402
from companion.rules import engine  # noqa: E402
from companion.rules.autoplay import random_input  # noqa: E402
from companion.rules.errors import CompanionError  # noqa: E402
from companion.table.session import Session  # noqa: E402

GAMES = registered_games()
LONG_GAME = {"through-the-gate": {"hourglasses": 999}}


def accepted_inputs(game_id: str, count: int, seed: int) -> tuple[StartGame, list]:
    """A start and `count` inputs a random table accepted, in order."""
    game = GAMES[game_id]
    rng = random.Random(seed)
    start = StartGame(game_id, tuple(f"P{index}" for index in range(game.max_players)), LONG_GAME.get(game_id, {}), seed)
    table = engine.start(game, start)
    kept = []
    while len(kept) < count:
        if game.outcome(table.state) is not None:
            table = engine.start(game, start)
            kept.append(start)
            continue
        given = random_input(table, game, rng)
        try:
            table = engine.apply(table, game, given)
        except CompanionError:
            continue
        kept.append(given)
    return start, kept


def apply_ms(game_id: str, repeats: int = 5, count: int = 2000) -> float:
    """Median milliseconds to apply one input (median of per-run means)."""
    game = GAMES[game_id]
    start, inputs = accepted_inputs(game_id, count, 1)
    runs = []
    for _ in range(repeats):
        table = engine.start(game, start)
        began = time.perf_counter()
        for given in inputs:
            table = engine.start(game, given) if isinstance(given, StartGame) else engine.apply(table, game, given)
        runs.append((time.perf_counter() - began) * 1000 / len(inputs))
    return statistics.median(runs)


def replay_seconds(repeats: int = 5, count: int = 10_000) -> float:
    """Median seconds to rebuild the table from a journal of `count` inputs (one long game)."""
    start, inputs = accepted_inputs("through-the-gate", count, 2)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite"
        journal = Journal(path)
        game_id = None
        for given in [start] + [each for each in inputs if not isinstance(each, StartGame)][: count - 1]:
            _, game_id = journal.append(game_id, given, source="phone", at=0.0)
        journal.close()
        runs = []
        for _ in range(repeats):
            began = time.perf_counter()
            session = Session(games=GAMES, journal=Journal(path))
            runs.append(time.perf_counter() - began)
            assert session.table is not None
            session.journal.close()
    return statistics.median(runs)


def main() -> int:
    """Print the figures (a markdown table, or JSON); returns 0."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    figures = {f"apply_ms[{game_id}]": round(apply_ms(game_id), 4) for game_id in sorted(GAMES)}
    figures["replay_10000_s"] = round(replay_seconds(), 3)
    if args.json:
        print(json.dumps(figures))
    else:
        print("| measure | median |\n|---|---|")
        for key, value in figures.items():
            print(f"| {key} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
