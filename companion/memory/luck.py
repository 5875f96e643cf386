"""Luck: a seat's dice against a fair die's average, in one game (every die) or all time for a player (the dice the
camera read, in finished games). A roll is credited as the replay credits it: to the seat that entered it, else to
the one seat the table waited on; rolls the table asked of several seats at once are credited to nobody.

All-time luck needs each finished game replayed once by the rules; what was replayed is kept in the summary beside
the journal, so a start replays only the games finished since. A journal with many games not yet replayed is
replayed by a background thread, in small steps; until it is done the answer says so rather than give a part.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Mapping

from companion.journal.records import PastGame
from companion.memory.players import NameMerges, name_key
from companion.memory.reader import JournalReader, MemoryUnreadable
from companion.memory.replay import Rolled, safe_replay
from companion.memory.summary import Part, SummaryFile
from companion.rules.game import Game

CAMERA = "camera"
LUCK_PART = "luck"
WAIT = 0.15
"""Seconds a question waits for the games still to replay before it answers 'still counting'."""
SAVE_EVERY = 2.0
BATCH = 50
"""Games read from the journal at a time while catching up."""
Sums = dict[str, list[float]]
"""name key → [dice, their total, a fair die's total for them]."""


def fair(sides: int) -> float:
    """A fair die's average; raises nothing."""
    return (sides + 1) / 2


def seat_luck(rolled: list[Rolled], names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each seat's every die against a fair die's, in one game; raises nothing."""
    rows = [{"seat": seat, "name": name, "dice": 0, "total": 0.0, "expected": 0.0} for seat, name in enumerate(names)]
    for roll in rolled:
        if roll.seat is not None and roll.seat < len(rows):
            row = rows[roll.seat]
            row["dice"] += len(roll.values)
            row["total"] += sum(roll.values)
            row["expected"] += sum(fair(side) for side in roll.sides)
    for row in rows:
        row["luck"] = average(row["dice"], row["total"], row["expected"])
    return rows


def average(dice: float, total: float, expected: float) -> float | None:
    """Pips a die above (or below) a fair die's average, 3 decimals (None: no dice); raises nothing."""
    return round((total - expected) / dice, 3) if dice else None


def camera_sums(rolled: list[Rolled], names: tuple[str, ...]) -> Sums:
    """The dice the camera read in one game, summed per player's name key; raises nothing."""
    found: Sums = {}
    for roll in rolled:
        if roll.seat is None or roll.seat >= len(names):
            continue
        row = found.setdefault(name_key(names[roll.seat]), [0, 0.0, 0.0])
        for value, sides, origin in zip(roll.values, roll.sides, roll.origins):
            if origin == CAMERA:
                row[0] += 1
                row[1] += value
                row[2] += fair(sides)
    return found


def _add(into: Sums, part: Sums) -> None:
    """Add one game's sums to the sums so far; raises nothing."""
    for key, (dice, total, expected) in part.items():
        row = into.setdefault(key, [0, 0.0, 0.0])
        row[0] += dice
        row[1] += total
        row[2] += expected


class LuckTally:
    """Every player's camera-read dice in the finished games, kept up to date and in the summary."""

    def __init__(self, reader: JournalReader, summary: SummaryFile, games: Mapping[str, Game[Any]]) -> None:
        """Start with nothing replayed; raises nothing."""
        self._reader, self._summary, self._games = reader, summary, games
        self._lock = threading.Lock()
        self._sums: Sums = {}
        self._upto = 0  # every game up to this one is counted (older than the newest: they never change)
        self._started = False
        self._worker: threading.Thread | None = None
        self._stop = threading.Event()
        self._newest: tuple[int, int, Sums] | None = None  # the newest game, when finished: (id, last entry, sums)

    def still_true(self, part: Part) -> bool:
        """Whether a summary part was read from this journal as it is now; raises MemoryUnreadable."""
        return part.journal == self._reader.fingerprint() and part.mark_print == self._reader.game_print(part.mark)

    def _start(self, newest: int) -> None:
        """Take the sums kept in the summary, if still true of the journal and of games older than the newest (the
        newest is summed apart); raises MemoryUnreadable."""
        part = self._summary.load(LUCK_PART)
        found = _from_body(part.body) if part is not None and part.mark < newest and self.still_true(part) else None
        if part is not None and found is not None:
            self._sums, self._upto = found, part.mark
        self._started = True

    def player(self, key: str, merges: NameMerges) -> dict[str, Any]:
        """One player's all-time luck (`key`: merges followed): {luck, dice, counting}; raises MemoryUnreadable."""
        newest = self._reader.newest_game() or 0
        if not self._settled(newest):
            worker = self._begin(newest)
            worker.join(WAIT)
        with self._lock:
            if self._upto < newest - 1:
                left = newest - 1 - self._upto
                return {"luck": None, "dice": None, "counting": left}
            sums = dict(self._sums)
        total = [0, 0.0, 0.0]
        for part in (sums, self._newest_sums(newest)):
            for name, row in part.items():
                if merges.key(name) == key:
                    total = [a + b for a, b in zip(total, row)]
        return {"luck": average(*total), "dice": int(total[0]), "counting": 0}

    def _settled(self, newest: int) -> bool:
        """Whether every game older than the newest is counted; raises MemoryUnreadable."""
        with self._lock:
            if not self._started:
                self._start(newest)
            return self._upto >= newest - 1

    def _begin(self, newest: int) -> threading.Thread:
        """The thread replaying the games older than `newest` not yet counted (started if none runs); raises
        nothing."""
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._catch_up, args=(newest,), name="memory-luck", daemon=True)
                self._worker.start()
            return self._worker

    def _catch_up(self, newest: int) -> None:
        """Replay the finished games older than `newest`, one at a time, keeping the sums now and then; raises
        nothing (an unreadable journal stops it: the next question tries again)."""
        saved = time.monotonic()
        try:
            while not self._stop.is_set() and self._upto < newest - 1:
                batch = [past for past in self._reader.games(finished_only=True, after=self._upto, limit=BATCH)
                         if past.id < newest]
                if not batch:
                    break
                for past in batch:
                    if self._stop.is_set():
                        break
                    found = self._game_sums(past)
                    with self._lock:
                        _add(self._sums, found)
                        self._upto = past.id
                    time.sleep(0)  # let the engine loop's thread go first
                if time.monotonic() - saved > SAVE_EVERY:
                    self.keep()
                    saved = time.monotonic()
            if not self._stop.is_set():
                with self._lock:
                    self._upto = max(self._upto, newest - 1)
            self.keep()
        except MemoryUnreadable:
            return

    def _game_sums(self, past: PastGame) -> Sums:
        """The camera's dice of one game per player; raises MemoryUnreadable."""
        replayed = safe_replay(list(self._reader.entries(past.id)), self._games)
        return camera_sums(replayed.rolled, past.players) if replayed is not None else {}

    def _newest_sums(self, newest: int) -> Sums:
        """The newest game's sums when it is finished (it may still be reopened, so never kept); raises
        MemoryUnreadable."""
        last = self._reader.last_seq()
        if self._newest is not None and self._newest[:2] == (newest, last):
            return self._newest[2]
        past = self._reader.game(newest) if newest else None
        found = self._game_sums(past) if past is not None and past.finished is not None else {}
        self._newest = (newest, last, found)
        return found

    def keep(self) -> None:
        """Write the sums to the summary; raises MemoryUnreadable."""
        with self._lock:
            upto, body = self._upto, {key: list(row) for key, row in self._sums.items()}
        if upto:
            part = Part(self._reader.fingerprint(), upto, self._reader.game_print(upto), body)
            self._summary.save(LUCK_PART, part, self.still_true)

    def close(self) -> None:
        """Stop replaying (what was counted is kept); raises nothing."""
        self._stop.set()
        worker = self._worker
        if worker is not None:
            worker.join()


def _from_body(body: Any) -> Sums | None:
    """The sums from the summary's body, or None when it is not sums; raises nothing."""
    if not isinstance(body, dict):
        return None
    found: Sums = {}
    for key, row in body.items():
        if not (isinstance(row, list) and len(row) == 3 and all(isinstance(n, (int, float)) for n in row) and row[0] >= 0):
            return None
        found[key] = [int(row[0]), float(row[1]), float(row[2])]
    return found
