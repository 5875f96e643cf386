"""The journal read through a connection of its own, opened read-only: the engine loop's connection and lock are
never touched, so reading the memory never slows a move."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

from companion.journal.codec import decode
from companion.journal.records import Entry, PastGame
from companion.rules.errors import CompanionError

DICE_ROWS = """
WITH picked AS MATERIALIZED (
    SELECT id, game_id, source, kind, body FROM entries WHERE kind IN ('dice', 'correct') AND id > :after {one_game}
), rolls AS (
    SELECT id, game_id, source, kind, body, LEAD(kind) OVER (PARTITION BY game_id ORDER BY id) AS next_kind FROM picked
)
SELECT games.game,
       CASE WHEN rolls.kind = 'correct' THEN 'corrected'
            ELSE COALESCE(json_extract(rolls.body, '$.origins[' || face.key || ']'), rolls.source) END AS origin,
       sides.value, face.value, COUNT(*)
FROM rolls JOIN games ON games.id = rolls.game_id,
     json_each(rolls.body, '$.values') AS face, json_each(rolls.body, '$.sides') AS sides
WHERE rolls.id <= :upto AND sides.key = face.key AND (rolls.next_kind IS NULL OR rolls.next_kind != 'correct')
GROUP BY games.game, origin, sides.value, face.value
"""
"""Every die that landed, counted by game (Through The Gate, …), origin, kind of die and face; a roll a correction
replaced counts not (the correction counts instead, as said by people)."""
ALL_DICE, ONE_GAMES_DICE = DICE_ROWS.format(one_game=""), DICE_ROWS.format(one_game="AND game_id = :game")
EARLY_ENTRIES = 3
"""How many of the journal's first entries tell one journal from another (with its first game)."""


def _digest(rows: list[tuple[Any, ...]]) -> str:
    """A short hash of some rows; raises nothing."""
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:32]


class MemoryUnreadable(CompanionError, OSError):
    """The journal could not be read for the memory; the message says why."""

    code = "memory_unreadable"


class JournalReader:
    """A read-only SQLite connection to the journal, opened at the first read; safe from any thread."""

    def __init__(self, path: Path) -> None:
        """Remember the journal's path (nothing is opened yet); raises nothing."""
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _query(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        """Rows of a query, read-only; raises MemoryUnreadable."""
        with self._lock:
            try:
                if self._db is None:
                    if not self.path.exists():
                        return []
                    self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                               check_same_thread=False)
                    self._db.execute("PRAGMA query_only = 1")
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                raise MemoryUnreadable(f"The journal could not be read for the table's memory ({error}).") from None

    def close(self) -> None:
        """Close the connection; raises nothing."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def last_seq(self) -> int:
        """The newest entry's number (0: none); raises MemoryUnreadable."""
        rows = self._query("SELECT MAX(id) FROM entries")
        return int(rows[0][0] or 0) if rows else 0

    def newest_game(self) -> int | None:
        """The newest game's id (None: no game yet); raises MemoryUnreadable."""
        rows = self._query("SELECT MAX(id) FROM games")
        return rows[0][0] if rows else None

    def last_roll_of(self, game_id: int) -> int:
        """The number of a game's newest roll or correction (0: none); raises MemoryUnreadable."""
        rows = self._query("SELECT MAX(id) FROM entries WHERE game_id = ? AND kind IN ('dice', 'correct')", (game_id,))
        return int(rows[0][0] or 0) if rows else 0

    def dice_counts(self, after: int, upto: int, game_id: int | None = None) -> list[tuple[str, str, int, int, int]]:
        """(game, origin, sides, face, count) of the dice of entries after..upto (of one game, or all); raises
        MemoryUnreadable."""
        rows = self._query(ALL_DICE if game_id is None else ONE_GAMES_DICE, {"after": after, "upto": upto, "game": game_id})
        return [(str(game), str(origin), int(sides), int(face), int(count)) for game, origin, sides, face, count in rows]

    def fingerprint(self) -> str:
        """What tells this journal from another: a hash of its first entries and its first game ('' when it has
        none); raises MemoryUnreadable."""
        rows = self._query("SELECT id, game_id, at, source, kind, body FROM entries ORDER BY id LIMIT ?", (EARLY_ENTRIES,))
        rows += self._query("SELECT id, game, players, seed, started FROM games ORDER BY id LIMIT 1")
        return _digest(rows) if rows else ""

    def entry_print(self, seq: int) -> str:
        """A hash of entry number `seq` ('' for 0, 'missing' when the journal lacks it); raises MemoryUnreadable."""
        if seq == 0:
            return ""
        rows = self._query("SELECT id, game_id, at, source, kind, body FROM entries WHERE id = ?", (seq,))
        return _digest(rows) if rows else "missing"

    def game_print(self, game_id: int) -> str:
        """A hash of a game and of its last entry ('' for 0, 'missing' when the journal lacks it); raises
        MemoryUnreadable."""
        if game_id == 0:
            return ""
        rows = self._query("SELECT id, game, players, seed, started, finished FROM games WHERE id = ?", (game_id,))
        last = self._query("SELECT MAX(id) FROM entries WHERE game_id = ?", (game_id,))
        return _digest(rows) + self.entry_print(int(last[0][0] or 0)) if rows else "missing"

    def games(self, *, finished_only: bool = False, after: int = 0, limit: int = -1) -> list[PastGame]:
        """The games with id above `after`, oldest first (at most `limit`; -1: all); raises MemoryUnreadable."""
        where = "WHERE id > ?" + (" AND finished IS NOT NULL" if finished_only else "")
        rows = self._query(f"SELECT id, game, players, started, finished, outcome FROM games {where} ORDER BY id LIMIT ?",
                           (after, limit))
        return [PastGame(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4],
                         json.loads(row[5]) if row[5] else None) for row in rows]

    def game(self, game_id: int) -> PastGame | None:
        """One game, or None; raises MemoryUnreadable."""
        rows = self._query("SELECT id, game, players, started, finished, outcome FROM games WHERE id = ?", (game_id,))
        return next((PastGame(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4],
                              json.loads(row[5]) if row[5] else None) for row in rows), None)

    def entries(self, game_id: int) -> Iterator[Entry]:
        """A game's inputs, oldest first; raises MemoryUnreadable (an entry that does not decode too)."""
        rows = self._query("SELECT id, game_id, at, source, kind, body FROM entries WHERE game_id = ? ORDER BY id",
                           (game_id,))
        for seq, game, at, source, kind, body in rows:
            try:
                yield Entry(seq, game, at, source, decode(kind, body))
            except CompanionError as error:
                raise MemoryUnreadable(f"Entry {seq} of the journal cannot be read ({error.message.rstrip('.')}).") from None
