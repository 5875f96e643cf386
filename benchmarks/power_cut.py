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
journal (read-only) once a StartGame is answered. The mirror, the journal reads and the random player
are in benchmarks/power_cut_table.py; the figures and their totals in benchmarks/power_cut_figures.py.

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
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.daemon import ANSWER_SECONDS, Daemon, free_port, run_command  # noqa: E402
from benchmarks.power_cut_figures import Figures, summary  # noqa: E402
from benchmarks.power_cut_table import (  # noqa: E402
    JOURNAL, Mirror, Sent, choose, entries_in, game_part, integrity, newest_game,
)
from companion.rules.inputs import StartGame  # noqa: E402


def kill_while_starting(state: Path, after: float) -> None:
    """Start the daemon and SIGKILL it `after` seconds later, whatever it is doing; raises nothing."""
    process = subprocess.Popen(run_command(state, free_port()), cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        process.wait(after)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)


class Stopped(Exception):
    """A mismatch was found: the run stops there (the mirror can no longer be trusted)."""


class PowerCuts:
    """The scripted table: plays, kills, restarts and checks, keeping what clients were told."""

    def __init__(self, state: Path, *, seed: int, game_inputs: int = 120, kill_within: float = 0.4) -> None:
        """Prepare a run on an empty state folder; raises nothing."""
        self.state = state
        self.rng = random.Random(seed)
        self.game_inputs = game_inputs
        self.kill_within = kill_within
        self.figures = Figures()
        self.mirror = Mirror(state)
        self.told: dict[str, Any] = {}
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
        """Start the daemon on the state folder, noting how long it took; raises RuntimeError when it does not answer."""
        daemon = Daemon(self.state)
        self.figures.restart_seconds.append(daemon.start_seconds)
        return daemon

    def _adopt_first_game(self, daemon: Daemon) -> None:
        """Mirror the game the daemon opened on its first start (its seed read from the journal)."""
        status, shown = daemon.call("GET", "/api/state")
        assert status == 200, "the first start opened no game"
        self.mirror.adopt(shown)
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
        """Check the journal the kill left, restart, and check the table and history; raises Stopped on a mismatch."""
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
        """The next input to send, from the told state (a new game once this one has run long)."""
        long_game = self.mirror.inputs_in_game >= self.game_inputs
        return choose(self.told, self.rng, self.mirror.games, long_game=long_game)

    def _answered(self, sent: Sent, status: int, answer: Any) -> None:
        """Follow an answer: an accepted input moves the mirror too; raises Stopped on a mismatch."""
        if status != 200:
            self.figures.refused += 1
            if status not in (400, 409):
                self._mismatch(f"{sent.path} answered {status}: {answer}")
            return
        self.figures.accepted += 1
        self.mirror.apply(sent.given)
        self.figures.games_started += isinstance(sent.given, StartGame)
        self._told(answer)
        self._check_mirror(f"after {sent.path}")

    def _told(self, shown: dict[str, Any]) -> None:
        """Keep the state a client was just shown."""
        self.told = shown
        self.mirror.note_outcome(shown)

    def _check_mirror(self, when: str) -> None:
        """The mirror must show what the daemon told; raises Stopped otherwise."""
        if self.mirror.part() != game_part(self.told):
            self._mismatch(f"{when}: the mirror and the daemon disagree")

    # --- the checks after a restart -----------------------------------------------------------
    def _check_restart(self, daemon: Daemon) -> None:
        """The table equals the last told state, or that state with the input in flight applied."""
        status, shown = daemon.call("GET", "/api/state")
        pending, self.pending = self.pending, None
        if pending is not None:
            self.figures.in_flight += 1
        restarted = game_part(shown) if status == 200 else None
        candidate = self.mirror.after(pending)
        lost = restarted == game_part(self.told)
        saved = candidate is not None and restarted == self.mirror.part(candidate[0])
        if lost and saved:  # the input changed nothing a client sees: the journal says which it was
            lost = entries_in(self.state, self.mirror.game_id) == self.mirror.table.seq + 1  # type: ignore[union-attr]
        if saved and not lost:
            self.figures.in_flight_saved += 1
            self.mirror.accept(pending, candidate)  # type: ignore[arg-type]
            self.figures.games_started += isinstance(pending.given, StartGame)  # type: ignore[union-attr]
        elif not lost:
            self._mismatch(f"kill {self.figures.kills}: the restarted table is neither the last told state nor "
                           f"that state after the input in flight ({pending.path if pending else 'none'})")
        newest = newest_game(self.state)
        if newest is None or newest[0] != self.mirror.game_id:
            self._mismatch(f"kill {self.figures.kills}: the journal's newest game is not the one on the table")
        self._told(shown)

    def _check_history(self, daemon: Daemon) -> None:
        """Every game told of is in the history, with the same players and the outcome told."""
        status, history = daemon.call("GET", "/api/history")
        if status != 200:
            self._mismatch(f"kill {self.figures.kills}: /api/history answered {status}")
        shown = {past["id"]: past for past in history}
        oldest = min(shown) if shown else 1
        for game_id, known in self.mirror.known.items():
            past = shown.get(game_id)
            if game_id < oldest:
                continue
            if past is None or past["game"] != known["game"] or past["players"] != known["players"]:
                self._mismatch(f"kill {self.figures.kills}: game {game_id} is missing or changed in the history")
            elif known["outcome"] is not None and (past["outcome"] is None or any(
                    past["outcome"].get(key) != value for key, value in known["outcome"].items())):
                self._mismatch(f"kill {self.figures.kills}: game {game_id} lost its outcome in the history")
        unknown = sorted(set(shown) - set(self.mirror.known))
        if unknown:
            self._mismatch(f"kill {self.figures.kills}: games {unknown} were never told of")


def one_run(kills: int, seed: int, *, game_inputs: int = 120, kill_within: float = 0.4,
            seconds: float = 600.0) -> Figures:
    """One run on a fresh state folder; returns its figures."""
    with tempfile.TemporaryDirectory(prefix="power-cut-") as folder:
        return PowerCuts(Path(folder), seed=seed, game_inputs=game_inputs, kill_within=kill_within).run(
            kills, seconds=seconds)


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
