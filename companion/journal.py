"""The only persistence: an SQLite log of every accepted input, and the games it belongs to.

WAL and synchronous=FULL, so an input reported as accepted survives a power cut. Restarting is
replaying the current game's inputs. Finished games stay, with their outcome, for history.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from companion.codec import decode, encode
from companion.inputs import Input, StartGame
from companion.rules.errors import CompanionError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_game ON entries(game_id, id);
CREATE TABLE IF NOT EXISTS tokens (
    holder TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    issued REAL NOT NULL
);
"""


class JournalError(CompanionError, RuntimeError):
    """The journal cannot be opened, read or written; the message says what to do."""

    code = "journal_error"


@dataclass(frozen=True)
class Entry:
    """One journaled input with its number, game, time and source."""

    seq: int
    game_id: int
    at: float
    source: str
    input: Input


@dataclass(frozen=True)
class PastGame:
    """A game in the history: who played, when, and how it ended (None while unfinished)."""

    id: int
    game: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    outcome: dict[str, Any] | None


class Journal:
    """The SQLite event log; the engine loop writes, tokens and history may be read elsewhere."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the journal and check it; raises JournalError when it is damaged."""
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._check_integrity()
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise JournalError(
                f"The journal {self.path} cannot be used ({error}). It was left as it is; "
                "move it aside to start a fresh one, or restore a backup."
            ) from None

    def _check_integrity(self) -> None:
        verdict = self._db.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise JournalError(
                f"The journal {self.path} is damaged ({verdict}). It was left as it is; "
                "move it aside to start a fresh one, or restore a backup."
            )

    def close(self) -> None:
        """Close the database; raises nothing."""
        self._db.close()

    def append(self, game_id: int | None, given: Input, *, source: str, at: float) -> tuple[int, int]:
        """Store an accepted input (a StartGame opens a game); returns (seq, game id); raises JournalError."""
        kind, body = encode(given)
        try:
            with self._lock, self._transaction():
                if isinstance(given, StartGame):
                    game_id = self._new_game(given, at)
                cursor = self._db.execute(
                    "INSERT INTO entries (game_id, at, source, kind, body) VALUES (?, ?, ?, ?, ?)",
                    (game_id, at, source, kind, body),
                )
        except sqlite3.Error as error:
            raise JournalError(f"Could not save that to the journal ({error}); nothing was changed.") from None
        return int(cursor.lastrowid or 0), int(game_id or 0)

    def _new_game(self, given: StartGame, at: float) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (game, players, options, seed, started) VALUES (?, ?, ?, ?, ?)",
            (given.game, json.dumps(list(given.players)), json.dumps(dict(given.options)), given.seed, at),
        )
        return int(cursor.lastrowid or 0)

    def _transaction(self) -> Any:
        return _Transaction(self._db)

    def finish(self, game_id: int, outcome: dict[str, Any], *, at: float) -> None:
        """Mark a game finished with its outcome; raises JournalError."""
        try:
            with self._lock:
                self._db.execute(
                    "UPDATE games SET finished = ?, outcome = ? WHERE id = ? AND finished IS NULL",
                    (at, json.dumps(outcome, ensure_ascii=False), game_id),
                )
        except sqlite3.Error as error:
            raise JournalError(f"Could not record the end of the game ({error}).") from None

    def current_game(self) -> int | None:
        """The id of the newest game, or None before the first; raises JournalError."""
        rows = self._query("SELECT MAX(id) FROM games")
        return rows[0][0] if rows and rows[0][0] is not None else None

    def entries(self, game_id: int) -> Iterator[Entry]:
        """A game's inputs, oldest first; raises JournalError when one does not decode."""
        rows = self._query("SELECT id, game_id, at, source, kind, body FROM entries WHERE game_id = ? ORDER BY id", (game_id,))
        for seq, game, at, source, kind, body in rows:
            try:
                yield Entry(seq, game, at, source, decode(kind, body))
            except CompanionError as error:
                raise JournalError(f"Journal entry {seq} cannot be read: {error.message}") from None

    def last_seq(self) -> int:
        """The number of the newest entry (0 when empty); raises JournalError."""
        return int(self._query("SELECT MAX(id) FROM entries")[0][0] or 0)

    def history(self, limit: int = 100) -> list[PastGame]:
        """The newest games first, finished or not; raises JournalError."""
        rows = self._query(
            "SELECT id, game, players, started, finished, outcome FROM games ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [PastGame(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4],
                         json.loads(row[5]) if row[5] else None) for row in rows]

    def finished_outcomes(self, game: str) -> list[dict[str, Any]]:
        """The outcomes of every finished game of one kind, oldest first; raises JournalError."""
        rows = self._query("SELECT outcome FROM games WHERE game = ? AND outcome IS NOT NULL ORDER BY id", (game,))
        return [json.loads(row[0]) for row in rows]

    def integrity(self) -> str:
        """SQLite's own integrity check verdict ('ok' when sound); raises JournalError."""
        return str(self._query("PRAGMA integrity_check")[0][0])

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise JournalError(f"Could not read the journal ({error}).") from None

    def token_rows(self) -> list[tuple[str, str]]:
        """Every (holder, token) pair issued; raises JournalError."""
        return [(row[0], row[1]) for row in self._query("SELECT holder, token FROM tokens")]

    def save_token(self, holder: str, token: str, *, at: float) -> None:
        """Store (or replace) a holder's token; raises JournalError."""
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO tokens (holder, token, issued) VALUES (?, ?, ?)", (holder, token, at))
        except sqlite3.Error as error:
            raise JournalError(f"Could not save the token ({error}).") from None


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
