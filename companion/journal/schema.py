"""The journal's SQLite tables, and the one way it writes to them: a transaction that leaves none open."""
from __future__ import annotations

import sqlite3
from typing import Any

from companion.journal.checks import schema_columns

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
CREATE TABLE IF NOT EXISTS in_use (
    id INTEGER PRIMARY KEY CHECK (id = 1)
);
"""
TABLES = {"games", "entries", "tokens"}
"""The tables a journal must hold; `in_use` (a row while a companion writes to it, gone after a clean stop) came
later and is made at the first write."""

COLUMNS = schema_columns(SCHEMA)  # what each table needs: a journal lacking one is from an older version


class Transaction:
    """BEGIN IMMEDIATE … COMMIT; rolled back on any error, a failed COMMIT included."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error:
                self._roll_back()
                raise
        self._roll_back()

    def _roll_back(self) -> None:
        """Leave no transaction open, so the next write can start once the fault is gone."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite has already rolled it back
