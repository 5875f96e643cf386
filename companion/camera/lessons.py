"""What the table taught, kept in the state folder beside the journal: the dice examples and the learned layer.

One SQLite file (WAL, synchronous=FULL, like the journal): a power cut loses at most the example being added.
Bounded: at most MOST_EXAMPLES examples, oldest dropped first. An example is a 64 px PNG surround (~8 KB) and
its figures, so the file stays under ~40 MB on the SD card. Nothing here leaves the box.
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import cv2
import numpy as np

from vision.layer import Example, Layer

FILE = "learned-dice.sqlite"
MOST_EXAMPLES = 4000  # ~8 KB each: ~32 MB; far more than a table needs (the layer learns from 50-500 dice)
HOW = ("taught", "confirmed", "corrected")  # a photo taught with labels, a roll the game moved on from, a roll a phone changed

SCHEMA = """
CREATE TABLE IF NOT EXISTS examples (
    id INTEGER PRIMARY KEY AUTOINCREMENT, added REAL NOT NULL, how TEXT NOT NULL, grp TEXT NOT NULL,
    value INTEGER NOT NULL CHECK (value BETWEEN 1 AND 6), surround BLOB NOT NULL, prior BLOB NOT NULL,
    base_value INTEGER, base_sure INTEGER NOT NULL, face REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS layer (id INTEGER PRIMARY KEY CHECK (id = 1), learned REAL NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Lessons:
    """The table's examples and learned layer in `state/learned-dice.sqlite`; one writer at a time."""

    def __init__(self, state: Path) -> None:
        """Opens (or makes) the file in the state folder; raises OSError or sqlite3.Error when it cannot."""
        state.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(state / FILE, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        if "face" not in {row[1] for row in self._db.execute("PRAGMA table_info(examples)")}:  # a file kept before
            self._db.execute("ALTER TABLE examples ADD COLUMN face REAL NOT NULL DEFAULT 0")  # faces were: size unknown

    def close(self) -> None:
        """Closes the file; raises nothing."""
        self._db.close()

    def add(self, examples: list[Example], how: str = "taught") -> int:
        """Keeps the examples (one transaction), dropping the oldest beyond MOST_EXAMPLES; returns how many are kept;
        raises ValueError for an unknown `how` or a value outside 1-6."""
        if how not in HOW:
            raise ValueError(f"an example is {', '.join(HOW)}, not {how!r}.")
        rows = [(time.time(), how, example.group, _checked(example.value), _png(example.surround),
                 np.asarray(example.prior, np.float32).tobytes(), example.base_value, int(example.base_sure),
                 float(example.face))
                for example in examples]
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO examples (added, how, grp, value, surround, prior, base_value, base_sure, "
                                 "face) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("DELETE FROM examples WHERE id NOT IN (SELECT id FROM examples ORDER BY id DESC LIMIT ?)",
                             (MOST_EXAMPLES,))
        return self.count()

    def count(self) -> int:
        """Returns how many examples are kept; raises sqlite3.Error."""
        return int(self._db.execute("SELECT COUNT(*) FROM examples").fetchone()[0])

    def base_check(self) -> tuple[int, int, int]:
        """Returns how the shipped reader read the kept dice: (dice, sure & right, sure & wrong); raises sqlite3.Error."""
        row = self._db.execute("SELECT COUNT(*), TOTAL(base_sure AND base_value = value), "
                               "TOTAL(base_sure AND base_value IS NOT value) FROM examples").fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def examples(self) -> list[Example]:
        """Returns every kept example, oldest first; raises sqlite3.Error."""
        rows = self._db.execute("SELECT grp, value, surround, prior, base_value, base_sure, face FROM examples ORDER BY id")
        return [Example(cv2.imdecode(np.frombuffer(surround, np.uint8), cv2.IMREAD_COLOR), value,
                        np.frombuffer(prior, np.float32).copy(), base_value, bool(base_sure), group, float(face))
                for group, value, surround, prior, base_value, base_sure, face in rows]

    def layer(self) -> Layer | None:
        """Returns the learned layer, or None when there is none or learning is off; raises ValueError for a damaged one."""
        if not self.learning_on():
            return None
        row = self._db.execute("SELECT data FROM layer WHERE id = 1").fetchone()
        return None if row is None else Layer.from_bytes(row[0])

    def keep_layer(self, layer: Layer) -> None:
        """Replaces the learned layer (one transaction); raises sqlite3.Error."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT OR REPLACE INTO layer (id, learned, data) VALUES (1, ?, ?)", (time.time(), layer.to_bytes()))

    def drop_layer(self) -> None:
        """Forgets the learned layer and keeps the examples (a layer that no longer reads better); raises sqlite3.Error."""
        with self._db:
            self._db.execute("DELETE FROM layer")

    def learning_on(self) -> bool:
        """Whether the host lets the box read with what it learned (on unless switched off); raises sqlite3.Error."""
        row = self._db.execute("SELECT value FROM settings WHERE name = 'learning'").fetchone()
        return row is None or row[0] == "on"

    def switch_learning(self, on: bool) -> None:
        """Switches reading with the learned layer on or off (the examples stay); raises sqlite3.Error."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('learning', ?)", ("on" if on else "off",))

    def wipe(self) -> None:
        """Forgets every example and the layer (the host's wipe); raises sqlite3.Error."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM examples")
            self._db.execute("DELETE FROM layer")


def _checked(value: int) -> int:
    """Returns a die's value; raises ValueError unless it is 1-6."""
    if not 1 <= int(value) <= 6:
        raise ValueError(f"a d6 shows 1 to 6, not {value}.")
    return int(value)


def _png(image: np.ndarray) -> bytes:
    """Returns the image as PNG bytes; raises ValueError when OpenCV cannot encode it."""
    done, data = cv2.imencode(".png", image)
    if not done:
        raise ValueError("the die's picture could not be kept.")
    return data.tobytes()
