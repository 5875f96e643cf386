"""The power-cut benchmark's view of the table from outside the daemon: the journal read through a
read-only connection, the mirror (the pure engine applying the inputs the daemon accepted, in this
process) and the seeded random player who chooses the next input from the state it was told."""
from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games import registered_games
from companion.rules.game import Game
from companion.rules.inputs import DiceRolled, Input, Move, StartGame, Undo
from companion.rules import engine
from companion.rules.autoplay import sample
from companion.rules.errors import CompanionError
from companion.rules.table import Table
from companion.table.snapshot import Extras, snapshot

GAME_KEYS = ("game", "players", "view", "legal_moves", "awaiting_dice", "outcome")
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay")
JOURNAL = "journal.sqlite"


def game_part(shown: dict[str, Any]) -> dict[str, Any]:
    """The part of a snapshot that is the game (not seq, dice or messages), as plain JSON."""
    return json.loads(json.dumps({key: shown.get(key) for key in GAME_KEYS}))


def _read_only(state: Path) -> sqlite3.Connection:
    """A read-only connection to the journal in a state folder; raises sqlite3.Error when it cannot open."""
    return sqlite3.connect(f"{(state / JOURNAL).resolve().as_uri()}?mode=ro", uri=True, timeout=5)


def newest_game(state: Path) -> tuple[int, int] | None:
    """(id, seed) of the journal's newest game, read through a read-only connection; None when none."""
    db = _read_only(state)
    try:
        row = db.execute("SELECT id, seed FROM games ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    return None if row is None else (int(row[0]), int(row[1]))


def entries_in(state: Path, game_id: int) -> int:
    """How many inputs the journal holds for a game (its StartGame included), read-only."""
    db = _read_only(state)
    try:
        return int(db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()[0])
    finally:
        db.close()


def integrity(state: Path) -> str:
    """SQLite's integrity check of the journal as the power cut left it (read-only); returns its verdict."""
    try:
        db = _read_only(state)
    except sqlite3.Error as error:
        return f"cannot open: {error}"
    try:
        return "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))
    except sqlite3.Error as error:
        return f"cannot read: {error}"
    finally:
        db.close()


@dataclass
class Sent:
    """One input as sent: the API path and body, and the same input for the mirror."""

    path: str
    body: dict[str, Any]
    given: Input


def choose(told: dict[str, Any], rng: random.Random, games: Mapping[str, Game[Any]], *, long_game: bool) -> Sent:
    """A random input a player could send next, seen from the told state: mostly legal, sometimes a new game."""
    awaiting = told["awaiting_dice"]
    if told["outcome"] is not None or long_game or rng.random() < 0.004 or not (awaiting or told["legal_moves"]):
        return new_game(rng, games, ends=told.get("game_no"))
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


def new_game(rng: random.Random, games: Mapping[str, Game[Any]], *, ends: int | None = None) -> Sent:
    """A StartGame of a random one of `games` with a random number of its players (ending game `ends`, as a
    host who confirmed, when one is under way)."""
    game = games[rng.choice(sorted(games))]
    count = rng.randint(game.min_players, min(game.max_players, len(NAMES)))
    players = list(NAMES[:count])
    body = {"game": game.id, "players": players, "options": {}, **({} if ends is None else {"ends_game": ends})}
    return Sent("/api/game", body,
                StartGame(game.id, tuple(players), {}, 0))


class Mirror:
    """The table as it must be: the pure engine applying every accepted input, and every game told of."""

    def __init__(self, state: Path) -> None:
        """A mirror of the daemon on `state`, with no game yet; raises nothing."""
        self.state = state
        self.games = registered_games()
        self.table: Table | None = None
        self.game_id = 0
        self.inputs_in_game = 0
        self.known: dict[int, dict[str, Any]] = {}  # game id: its game, players and outcome as told

    def adopt(self, shown: dict[str, Any]) -> None:
        """Mirror the game the daemon opened on its first start (its seed read from the journal); raises
        AssertionError when the journal has none."""
        self._start(StartGame(shown["game"], tuple(shown["players"]), {}, 0), newest_game(self.state))

    def apply(self, given: Input) -> None:
        """Apply an input the daemon accepted; raises CompanionError when the mirror refuses it."""
        if isinstance(given, StartGame):
            self._start(given, newest_game(self.state))
        else:
            self.table = engine.apply(self.table, self.games[self.table.game], given)  # type: ignore[union-attr]
            self.inputs_in_game += 1

    def after(self, pending: Sent | None) -> tuple[Table, int] | None:
        """The table after the input in flight, and its game id; None when it cannot apply."""
        if pending is None or self.table is None:
            return None
        given = pending.given
        if isinstance(given, StartGame):
            newest = newest_game(self.state)
            if newest is None or newest[0] != self.game_id + 1:
                return None
            request = StartGame(given.game, given.players, given.options, newest[1])
            return engine.start(self.games[given.game], request), newest[0]
        try:
            return engine.apply(self.table, self.games[self.table.game], given), self.game_id
        except CompanionError:
            return None

    def accept(self, pending: Sent, candidate: tuple[Table, int]) -> None:
        """Take the table after the input in flight as the mirror's (the restart showed it was saved)."""
        self.table, game_id = candidate
        if isinstance(pending.given, StartGame):
            self._remember(game_id, pending.given)
        else:
            self.inputs_in_game += 1

    def note_outcome(self, shown: dict[str, Any]) -> None:
        """Remember the outcome a client was told of, for the history check."""
        if shown["outcome"] is not None:
            self.known[self.game_id]["outcome"] = {key: shown["outcome"][key] for key in ("winners", "summary")}

    def part(self, table: Table | None = None) -> dict[str, Any] | None:
        """The game part of the snapshot of `table` (default: the mirror's), as game_part gives it."""
        table = self.table if table is None else table
        if table is None:
            return None
        return game_part(snapshot(table, self.games[table.game], seat=None, seq=0, extras=Extras()))

    def _start(self, given: StartGame, newest: tuple[int, int] | None) -> None:
        """Start the mirror's game as the journal's newest (id, seed); raises AssertionError when none."""
        assert newest is not None, "the journal holds no game"
        game_id, seed = newest
        self.table = engine.start(self.games[given.game], StartGame(given.game, given.players, given.options, seed))
        self._remember(game_id, given)

    def _remember(self, game_id: int, given: StartGame) -> None:
        """Make `game_id` the game on the table, told of with the players `given` names."""
        self.game_id, self.inputs_in_game = game_id, 0
        self.known[game_id] = {"game": given.game, "players": list(given.players), "outcome": None}
