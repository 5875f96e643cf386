"""Power cuts: SIGKILL the real daemon at random moments of seeded random games, restart it, compare.

Starts `companion run --demo --camera none` as a subprocess on 127.0.0.1 and plays seeded random
legal inputs through the HTTP API (the snapshot's legal_moves and awaiting_dice, arguments drawn by
`autoplay.sample`), starting new games as games end (or grow long), so the history is used too. A
timer SIGKILLs the daemon at a random moment; then the crash image must pass SQLite's
`PRAGMA integrity_check` (read-only), the daemon is restarted, and its table must equal the last
state a client was told of, or that state with the one input that was in flight when the kill came
applied (its commit may have landed). Nothing else. The history must keep every game told of, with
its outcome. The game must go on: an input is accepted after every restart.

The "state after the in-flight input" is computed by a mirror: the pure engine applying the same
inputs in this process. The API does not show a game's random seed, so the mirror reads it from the
journal (read-only) once a StartGame is answered.

Before the first full start, the daemon is also killed three times while it starts on the empty
folder (creating the journal, the first game and the host token): the journal must then open.

Figures: kills, start-up kills, restarts, mismatches, integrity failures, kills with an input in flight and how many
of those were saved, inputs accepted, games started, the median restart time and the run time.
Run: .venv/bin/python benchmarks/power_cut.py [--kills 50] [--runs 3] [--seed 1] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.daemon import ANSWER_SECONDS, Daemon, free_port, run_command  # noqa: E402
from companion.games import registered_games  # noqa: E402
from companion.inputs import DiceRolled, Input, Move, StartGame, Undo  # noqa: E402
from companion.rules import engine  # noqa: E402
from companion.rules.autoplay import sample  # noqa: E402
from companion.rules.errors import CompanionError  # noqa: E402
from companion.rules.table import Table  # noqa: E402
from companion.snapshot import Extras, snapshot  # noqa: E402

GAME_KEYS = ("game", "players", "view", "legal_moves", "awaiting_dice", "outcome")
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay")
JOURNAL = "journal.sqlite"


def game_part(shown: dict[str, Any]) -> dict[str, Any]:
    """The part of a snapshot that is the game (not seq, dice or messages), as plain JSON."""
    return json.loads(json.dumps({key: shown.get(key) for key in GAME_KEYS}))


def kill_while_starting(state: Path, after: float) -> None:
    """Start the daemon and SIGKILL it `after` seconds later, whatever it is doing; raises nothing."""
    process = subprocess.Popen(run_command(state, free_port()), cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        process.wait(after)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)


def newest_game(state: Path) -> tuple[int, int] | None:
    """(id, seed) of the journal's newest game, read through a read-only connection; None when none."""
    db = sqlite3.connect(f"{(state / JOURNAL).resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        row = db.execute("SELECT id, seed FROM games ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    return None if row is None else (int(row[0]), int(row[1]))


def entries_in(state: Path, game_id: int) -> int:
    """How many inputs the journal holds for a game (its StartGame included), read-only."""
    db = sqlite3.connect(f"{(state / JOURNAL).resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        return int(db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()[0])
    finally:
        db.close()


def integrity(state: Path) -> str:
    """SQLite's integrity check of the journal as the power cut left it (read-only); returns its verdict."""
    try:
        db = sqlite3.connect(f"{(state / JOURNAL).resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as error:
        return f"cannot open: {error}"
    try:
        return "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))
    except sqlite3.Error as error:
        return f"cannot read: {error}"
    finally:
        db.close()


class Stopped(Exception):
    """A mismatch was found: the run stops there (the mirror can no longer be trusted)."""


@dataclass
class Sent:
    """One input as sent: the API path and body, and the same input for the mirror."""

    path: str
    body: dict[str, Any]
    given: Input


@dataclass
class Figures:
    """What one run counted."""

    kills: int = 0
    start_up_kills: int = 0
    restarts: int = 0
    mismatches: list[str] = field(default_factory=list)
    integrity_failures: int = 0
    in_flight: int = 0
    in_flight_saved: int = 0
    accepted: int = 0
    refused: int = 0
    games_started: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0


class PowerCuts:
    """The scripted table: plays, kills, restarts and checks, keeping what clients were told."""

    def __init__(self, state: Path, *, seed: int, game_inputs: int = 120, kill_within: float = 0.4) -> None:
        """Prepare a run on an empty state folder; raises nothing."""
        self.state = state
        self.rng = random.Random(seed)
        self.games = registered_games()
        self.game_inputs = game_inputs
        self.kill_within = kill_within
        self.figures = Figures()
        self.mirror: Table | None = None
        self.told: dict[str, Any] = {}
        self.game_id = 0
        self.inputs_in_game = 0
        self.known: dict[int, dict[str, Any]] = {}
        self.pending: Sent | None = None

    # --- the run --------------------------------------------------------------------------
    def run(self, kills: int, *, seconds: float = 600.0) -> Figures:
        """Play, kill and restart `kills` times within `seconds`; returns the figures."""
        began = time.monotonic()
        self._kill_the_first_starts()
        daemon = self._start()
        try:
            self._adopt_first_game(daemon)
            self._go_on(daemon)
            while self.figures.kills < kills and time.monotonic() - began < seconds:
                self._play_until_killed(daemon)
                daemon = self._after_power_cut()
                self._go_on(daemon)
        except Stopped:
            pass
        except (OSError, RuntimeError) as error:
            self.figures.mismatches.append(f"after kill {self.figures.kills}: the daemon failed ({error})")
        finally:
            daemon.stop()
        self.figures.seconds = time.monotonic() - began
        return self.figures

    def _kill_the_first_starts(self, times: int = 3) -> None:
        """Cut the power while the very first start creates the journal; it must still open after."""
        for _ in range(times):
            kill_while_starting(self.state, self.rng.uniform(0.1, 1.0))
            self.figures.start_up_kills += 1
            if (self.state / JOURNAL).exists() and integrity(self.state) != "ok":
                self.figures.integrity_failures += 1
                self.figures.mismatches.append("a power cut during the first start damaged the journal")

    def _start(self) -> Daemon:
        daemon = Daemon(self.state)
        self.figures.restart_seconds.append(daemon.start_seconds)
        return daemon

    def _adopt_first_game(self, daemon: Daemon) -> None:
        """Mirror the game the daemon opened on its first start (its seed read from the journal)."""
        status, shown = daemon.call("GET", "/api/state")
        newest = newest_game(self.state)
        assert status == 200 and newest is not None, "the first start opened no game"
        self.game_id, seed = newest
        request = StartGame(shown["game"], tuple(shown["players"]), {}, seed)
        self.mirror = engine.start(self.games[request.game], request)
        self.known[self.game_id] = {"game": request.game, "players": list(request.players), "outcome": None}
        self._told(shown)
        self._check_mirror("the first game")

    def _play_until_killed(self, daemon: Daemon) -> None:
        """Send inputs until the timer's SIGKILL cuts the daemon off; notes the input in flight."""
        timer = threading.Timer(self.rng.uniform(0.0, self.kill_within), daemon.kill)
        timer.start()
        deadline = time.monotonic() + self.kill_within + ANSWER_SECONDS
        try:
            while time.monotonic() < deadline:
                sent = self._choose()
                try:
                    status, answer = daemon.call("POST", sent.path, sent.body)
                except OSError:
                    self.pending = sent
                    break
                self._answered(sent, status, answer)
            else:
                self._mismatch("the kill never came")
        finally:
            timer.cancel()
            daemon.kill()
        self.figures.kills += 1

    def _after_power_cut(self) -> Daemon:
        verdict = integrity(self.state)
        if verdict != "ok":
            self.figures.integrity_failures += 1
            self._mismatch(f"kill {self.figures.kills}: integrity_check says {verdict}")
        daemon = self._start()
        self.figures.restarts += 1
        self._check_restart(daemon)
        self._check_history(daemon)
        return daemon

    def _go_on(self, daemon: Daemon) -> None:
        """The game goes on: send inputs until one is accepted (at most 50); a mismatch otherwise."""
        before = self.figures.accepted
        for _ in range(50):
            sent = self._choose()
            status, answer = daemon.call("POST", sent.path, sent.body)
            self._answered(sent, status, answer)
            if self.figures.accepted > before:
                return
        self._mismatch(f"after kill {self.figures.kills}: no input was accepted")

    def _mismatch(self, text: str) -> None:
        """Note a mismatch and stop the run; raises Stopped."""
        self.figures.mismatches.append(text)
        raise Stopped(text)

    # --- choosing and answering -------------------------------------------------------------
    def _choose(self) -> Sent:
        told, rng = self.told, self.rng
        awaiting = told["awaiting_dice"]
        if told["outcome"] is not None or self.inputs_in_game >= self.game_inputs or rng.random() < 0.004 \
                or not (awaiting or told["legal_moves"]):
            return self._new_game()
        if awaiting and (rng.random() < 0.85 or not told["legal_moves"]):
            sides = list(awaiting["sides"])
            values = [rng.randint(1, count) for count in sides]
            return Sent("/api/dice", {"values": values, "sides": sides},
                        DiceRolled(tuple(values), tuple(sides), origins=("phone",) * len(values)))
        if told["can_undo"] and rng.random() < 0.04:
            return Sent("/api/undo", {}, Undo())
        entry = rng.choice(told["legal_moves"])
        args = sample(entry["args"], rng)
        return Sent("/api/actions", {"seat": entry["seat"], "move": entry["move"], "args": args},
                    Move(entry["seat"], entry["move"], args))

    def _new_game(self) -> Sent:
        game = self.games[self.rng.choice(sorted(self.games))]
        count = self.rng.randint(game.min_players, min(game.max_players, len(NAMES)))
        players = list(NAMES[:count])
        return Sent("/api/game", {"game": game.id, "players": players, "options": {}},
                    StartGame(game.id, tuple(players), {}, 0))

    def _answered(self, sent: Sent, status: int, answer: Any) -> None:
        if status != 200:
            self.figures.refused += 1
            if status not in (400, 409):
                self._mismatch(f"{sent.path} answered {status}: {answer}")
            return
        self.figures.accepted += 1
        self._advance_mirror(sent.given)
        self._told(answer)
        self._check_mirror(f"after {sent.path}")

    def _advance_mirror(self, given: Input) -> None:
        if isinstance(given, StartGame):
            self._mirror_new_game(given)
        else:
            self.mirror = engine.apply(self.mirror, self.games[self.mirror.game], given)  # type: ignore[arg-type]
            self.inputs_in_game += 1

    def _mirror_new_game(self, given: StartGame) -> None:
        newest = newest_game(self.state)
        assert newest is not None
        self.game_id, seed = newest
        request = StartGame(given.game, given.players, given.options, seed)
        self.mirror = engine.start(self.games[given.game], request)
        self.known[self.game_id] = {"game": given.game, "players": list(given.players), "outcome": None}
        self.inputs_in_game = 0
        self.figures.games_started += 1

    def _told(self, shown: dict[str, Any]) -> None:
        self.told = shown
        if shown["outcome"] is not None:
            self.known[self.game_id]["outcome"] = {key: shown["outcome"][key] for key in ("winners", "summary")}

    def _mirror_part(self, table: Table | None) -> dict[str, Any] | None:
        if table is None:
            return None
        return game_part(snapshot(table, self.games[table.game], seat=None, seq=0, extras=Extras()))

    def _check_mirror(self, when: str) -> None:
        if self._mirror_part(self.mirror) != game_part(self.told):
            self._mismatch(f"{when}: the mirror and the daemon disagree")

    # --- the checks after a restart -----------------------------------------------------------
    def _check_restart(self, daemon: Daemon) -> None:
        """The table equals the last told state, or that state with the input in flight applied."""
        status, shown = daemon.call("GET", "/api/state")
        pending, self.pending = self.pending, None
        if pending is not None:
            self.figures.in_flight += 1
        restarted = game_part(shown) if status == 200 else None
        candidate = self._with_pending(pending)
        lost = restarted == game_part(self.told)
        saved = candidate is not None and restarted == self._mirror_part(candidate[0])
        if lost and saved:  # the input changed nothing a client sees: the journal says which it was
            lost = entries_in(self.state, self.game_id) == self.mirror.seq + 1  # type: ignore[union-attr]
        if saved and not lost:
            self.figures.in_flight_saved += 1
            self._accept_candidate(pending, candidate)  # type: ignore[arg-type]
        elif not lost:
            self._mismatch(f"kill {self.figures.kills}: the restarted table is neither the last told state nor "
                           f"that state after the input in flight ({pending.path if pending else 'none'})")
        newest = newest_game(self.state)
        if newest is None or newest[0] != self.game_id:
            self._mismatch(f"kill {self.figures.kills}: the journal's newest game is not the one on the table")
        self._told(shown)

    def _with_pending(self, pending: Sent | None) -> tuple[Table, int] | None:
        """The mirror's table after the input in flight, and its game id; None when it cannot apply."""
        if pending is None or self.mirror is None:
            return None
        given = pending.given
        if isinstance(given, StartGame):
            newest = newest_game(self.state)
            if newest is None or newest[0] != self.game_id + 1:
                return None
            request = StartGame(given.game, given.players, given.options, newest[1])
            return engine.start(self.games[given.game], request), newest[0]
        try:
            return engine.apply(self.mirror, self.games[self.mirror.game], given), self.game_id
        except CompanionError:
            return None

    def _accept_candidate(self, pending: Sent, candidate: tuple[Table, int]) -> None:
        self.mirror, game_id = candidate
        if isinstance(pending.given, StartGame):
            self.known[game_id] = {"game": pending.given.game, "players": list(pending.given.players), "outcome": None}
            self.game_id, self.inputs_in_game = game_id, 0
            self.figures.games_started += 1
        else:
            self.inputs_in_game += 1

    def _check_history(self, daemon: Daemon) -> None:
        """Every game told of is in the history, with the same players and the outcome told."""
        status, history = daemon.call("GET", "/api/history")
        if status != 200:
            self._mismatch(f"kill {self.figures.kills}: /api/history answered {status}")
        shown = {past["id"]: past for past in history}
        oldest = min(shown) if shown else 1
        for game_id, known in self.known.items():
            past = shown.get(game_id)
            if game_id < oldest:
                continue
            if past is None or past["game"] != known["game"] or past["players"] != known["players"]:
                self._mismatch(f"kill {self.figures.kills}: game {game_id} is missing or changed in the history")
            elif known["outcome"] is not None and (past["outcome"] is None or any(
                    past["outcome"].get(key) != value for key, value in known["outcome"].items())):
                self._mismatch(f"kill {self.figures.kills}: game {game_id} lost its outcome in the history")
        unknown = sorted(set(shown) - set(self.known))
        if unknown:
            self._mismatch(f"kill {self.figures.kills}: games {unknown} were never told of")


def one_run(kills: int, seed: int, *, game_inputs: int = 120, kill_within: float = 0.4,
            seconds: float = 600.0) -> Figures:
    """One run on a fresh state folder; returns its figures."""
    with tempfile.TemporaryDirectory(prefix="power-cut-") as folder:
        return PowerCuts(Path(folder), seed=seed, game_inputs=game_inputs, kill_within=kill_within).run(
            kills, seconds=seconds)


def summary(runs: list[Figures]) -> dict[str, Any]:
    """Totals over the runs, and medians for the times; raises nothing."""
    restarts = [seconds for run in runs for seconds in run.restart_seconds[1:]]
    return {
        "runs": len(runs),
        "kills": sum(run.kills for run in runs),
        "start_up_kills": sum(run.start_up_kills for run in runs),
        "restarts": sum(run.restarts for run in runs),
        "mismatches": sum(len(run.mismatches) for run in runs),
        "integrity_failures": sum(run.integrity_failures for run in runs),
        "kills_with_input_in_flight": sum(run.in_flight for run in runs),
        "in_flight_inputs_saved": sum(run.in_flight_saved for run in runs),
        "inputs_accepted": sum(run.accepted for run in runs),
        "inputs_refused_by_rules": sum(run.refused for run in runs),
        "games_started": sum(run.games_started for run in runs),
        "restart_s_median": round(statistics.median(restarts), 3) if restarts else None,
        "run_s_median": round(statistics.median(run.seconds for run in runs), 1),
        "first_mismatches": [text for run in runs for text in run.mismatches][:10],
    }


def main() -> int:
    """Run the power cuts and print the figures; returns 1 when anything did not match."""
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--kills", type=int, default=50, help="power cuts per run")
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--seed", type=int, default=1)
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    runs = [one_run(args.kills, args.seed + run) for run in range(args.runs)]
    figures = summary(runs)
    print(json.dumps(figures) if args.json else "\n".join(f"{key}: {value}" for key, value in figures.items()))
    return 0 if figures["mismatches"] == 0 and figures["integrity_failures"] == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
