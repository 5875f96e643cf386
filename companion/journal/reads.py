"""What the journal is asked: the games, their inputs, history and the seat links (read-only queries)."""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

from companion.journal.checks import JournalError, damaged
from companion.journal.codec import decode
from companion.journal.records import Entry, PastGame
from companion.rules.errors import CompanionError


class JournalReads:
    """The journal's read-only queries, over the connection and lock that Journal opens."""

    path: Path
    _db: sqlite3.Connection
    _lock: threading.Lock

    def is_finished(self, game_id: int) -> bool:
        """Whether the game's end is recorded; raises JournalError."""
        rows = self._query("SELECT finished FROM games WHERE id = ?", (game_id,))
        return bool(rows) and rows[0][0] is not None

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
                raise damaged(self.path, f"entry {seq} cannot be read ({error.message.rstrip('.')})") from None

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

    def last_player(self, seat: int, before_game: int) -> str | None:
        """Who sat in the seat in the newest game before that one that had the seat (None: no game had it);
        raises JournalError."""
        rows = self._query("SELECT players FROM games WHERE id < ? AND json_array_length(players) > ? "
                           "ORDER BY id DESC LIMIT 1", (before_game, seat))
        return str(json.loads(rows[0][0])[seat]) if rows else None

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

    def tokens_older_than(self, game_id: int) -> set[str]:
        """The holders whose token was issued before that game started; raises JournalError."""
        sql = "SELECT holder FROM tokens WHERE issued < (SELECT started FROM games WHERE id = ?)"
        return {row[0] for row in self._query(sql, (game_id,))}
