"""Every die the journal saw, counted by game, by kind of die and by where it came from, kept up to date from
the newest entries only; and what those counts say, in English and Korean."""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any, Mapping

from companion.memory.fairness import ALPHA, BIAS, enough_rolls, p_value
from companion.memory.reader import JournalReader, MemoryUnreadable
from companion.memory.summary import Part, SummaryFile

CAMERA, HAND = "camera", "hand"
Counts = dict[str, dict[int, list[int]]]
"""origin (camera | hand) → sides → count of each face."""


def origin_kind(origin: str) -> str:
    """'camera' for a die the camera read; 'hand' for one people entered or corrected; raises nothing."""
    return CAMERA if origin == CAMERA else HAND


def _empty() -> Counts:
    return {CAMERA: {}, HAND: {}}


def _add(into: Counts, origin: str, sides: int, face: int, count: int) -> None:
    """Count `count` dice of `sides` that showed `face`; a face off the die is left out; raises nothing."""
    if not 1 <= face <= sides:
        return
    row = into[origin_kind(origin)].setdefault(sides, [0] * sides)
    row[face - 1] += count


def merged(*parts: Counts) -> Counts:
    """The sum of several counts; raises nothing."""
    total = _empty()
    for part in parts:
        for origin, kinds in part.items():
            for sides, row in kinds.items():
                mine = total[origin].setdefault(sides, [0] * sides)
                for index, count in enumerate(row):
                    mine[index] += count
    return total


DICE_PART = "dice"
"""The summary's part that keeps the counts of each game (Through The Gate, …) up to a mark."""
SAVE_EVERY = 10.0
"""Seconds between two writes of the summary while play goes on (the first, and the last at close, at once)."""


class DiceTally:
    """The counts of each game (Through The Gate, …), read incrementally: a start takes the summary beside the
    journal when it is still true of the journal, and each call reads only the entries since. The newest game's
    last roll is counted fresh each time (a correction may still replace it)."""

    def __init__(self, reader: JournalReader, summary: SummaryFile) -> None:
        """Start with nothing read; raises nothing."""
        self._reader, self._summary = reader, summary
        self._lock = threading.Lock()
        self._after, self._kept = 0, 0
        self._started = False
        self._saved_at: float | None = None
        self.by_kind: dict[str, Counts] = defaultdict(_empty)

    def _start(self) -> None:
        """Take the counts kept in the summary, if still true of the journal; raises MemoryUnreadable."""
        part = self._summary.load(DICE_PART)
        found = from_body(part.body) if part is not None and self.still_true(part) else None
        if part is not None and found is not None:
            self.by_kind, self._after, self._kept = found, part.mark, part.mark
        self._started = True

    def still_true(self, part: Part) -> bool:
        """Whether a summary part was read from this journal as it is now, and stops short of the newest game's last
        roll (which a correction may still replace: a journal restored from a backup can end on a roll the summary
        saw replaced); raises MemoryUnreadable."""
        if part.journal != self._reader.fingerprint() or part.mark_print != self._reader.entry_print(part.mark):
            return False
        newest = self._reader.newest_game()
        open_roll = self._reader.last_roll_of(newest) if newest is not None else 0
        return not open_roll or part.mark < open_roll

    def refresh(self) -> dict[str, Counts]:
        """Read what came since, and return the counts of each game (the open roll included); raises
        MemoryUnreadable."""
        with self._lock:
            if not self._started:
                self._start()
            newest = self._reader.newest_game()
            last = self._reader.last_seq()
            open_roll = self._reader.last_roll_of(newest) if newest is not None else 0
            upto = min(last, open_roll - 1) if open_roll > self._after else last
            if upto > self._after:
                for game, origin, sides, face, count in self._reader.dice_counts(self._after, upto):
                    _add(self.by_kind[game], origin, sides, face, count)
                self._after = upto
                self.keep(force=False)
            counts = dict(self.by_kind)  # read-only for the caller: only the game with the open roll is copied
            if open_roll > self._after:
                for game, origin, sides, face, count in self._reader.dice_counts(self._after, last):
                    if counts.get(game) is self.by_kind.get(game):
                        counts[game] = merged(self.by_kind[game])
                    _add(counts.setdefault(game, _empty()), origin, sides, face, count)
            return counts

    def keep(self, *, force: bool) -> None:
        """Write the counts to the summary (at most every SAVE_EVERY seconds unless `force`); raises
        MemoryUnreadable."""
        now = time.monotonic()
        if self._after == self._kept or (not force and self._saved_at is not None and now - self._saved_at < SAVE_EVERY):
            return
        part = Part(self._reader.fingerprint(), self._after, self._reader.entry_print(self._after), to_body(self.by_kind))
        self._summary.save(DICE_PART, part, self.still_true)
        self._saved_at, self._kept = now, self._after

    def close(self) -> None:
        """Keep what was read; raises nothing."""
        with self._lock:
            try:
                self.keep(force=True)
            except MemoryUnreadable:
                pass


def to_body(by_kind: Mapping[str, Counts]) -> list[list[Any]]:
    """The counts as the summary keeps them: [game, origin, sides, [count of each face]]; raises nothing."""
    return [[game, origin, sides, list(row)] for game, counts in sorted(by_kind.items())
            for origin, kinds in sorted(counts.items()) for sides, row in sorted(kinds.items())]


def from_body(body: Any) -> dict[str, Counts] | None:
    """The counts from the summary's body, or None when it is not counts; raises nothing."""
    found: dict[str, Counts] = defaultdict(_empty)
    try:
        for game, origin, sides, row in body:
            good = (isinstance(game, str) and origin in (CAMERA, HAND) and type(sides) is int and sides >= 1
                    and isinstance(row, list) and len(row) == sides and all(type(n) is int and n >= 0 for n in row))
            if not good or sides in found[game][origin]:
                return None
            found[game][origin][sides] = list(row)
    except (TypeError, ValueError):
        return None
    return found


def kind_report(row: list[int], sides: int) -> dict[str, Any]:
    """One kind of die: counts, shares, p-value and the verdict in both languages; raises nothing."""
    rolls = sum(row)
    found = p_value(row)
    english, korean = verdict(row, sides, found)
    return {"rolls": rolls, "counts": list(row), "shares": [round(count / rolls, 4) if rolls else 0.0 for count in row],
            "p_value": None if found is None else round(found, 6), "flagged": found is not None and found < ALPHA,
            "enough": enough_rolls(sides), "verdict": english, "verdict_ko": korean}


def _p(found: float) -> str:
    return "p < 0.001" if found < 0.001 else f"p = {found:.3f}"


def verdict(row: list[int], sides: int, found: float | None) -> tuple[str, str]:
    """The plain sentence of a die's counts, in English and Korean; raises nothing."""
    rolls, enough = sum(row), enough_rolls(sides)
    if found is None:
        return f"No d{sides} has been rolled yet.", f"아직 굴린 d{sides}이(가) 없습니다."
    if found < ALPHA:
        face = max(range(sides), key=lambda index: abs(row[index] - rolls / sides))
        share = round(100 * row[face] / rolls)
        often = "came up" if row[face] > rolls / sides else "came up only"
        return (f"The {face + 1} {often} {share} % of the time over {rolls} d{sides} rolls — unlikely for a fair "
                f"die, {_p(found)}.",
                f"d{sides} {rolls}번 중 {face + 1}이(가) {share}% 나왔습니다 — 공정한 주사위라면 드문 일입니다, {_p(found)}.")
    if rolls < enough:
        return (f"Too few rolls to tell: {rolls} d{sides} rolls so far; it takes about {enough} to see a die that "
                f"lands one face {BIAS:g} times as often.",
                f"판단하기에는 굴림이 부족합니다: 지금까지 d{sides} {rolls}번. 한 면이 {BIAS:g}배 자주 나오는 주사위를 "
                f"알아보려면 약 {enough}번이 필요합니다.")
    return (f"These d{sides} dice look fair over {rolls} rolls ({_p(found)}).",
            f"d{sides} 주사위는 {rolls}번 굴린 결과 공정해 보입니다({_p(found)}).")


def report(counts: Counts) -> dict[str, Any]:
    """All dice of some counts, every kind apart, the camera's reads apart from the hand's; raises nothing."""
    both = merged({CAMERA: counts[CAMERA], HAND: {}}, {CAMERA: counts[HAND], HAND: {}})[CAMERA]
    kinds = {str(sides): {**kind_report(row, sides),
                          "camera": kind_report(counts[CAMERA].get(sides, [0] * sides), sides),
                          "hand": kind_report(counts[HAND].get(sides, [0] * sides), sides)}
             for sides, row in sorted(both.items())}
    return {"rolls": sum(kind["rolls"] for kind in kinds.values()),
            "camera_rolls": sum(kind["camera"]["rolls"] for kind in kinds.values()),
            "hand_rolls": sum(kind["hand"]["rolls"] for kind in kinds.values()), "kinds": kinds}


def counted(rows: list[tuple[str, str, int, int, int]]) -> Counts:
    """The counts of some (game, origin, sides, face, count) rows, all together; raises nothing."""
    found = _empty()
    for _game, origin, sides, face, count in rows:
        _add(found, origin, sides, face, count)
    return found


CSV_COLUMNS = ("scope", "origin", "sides", "face", "count", "share")


def csv_rows(scopes: Mapping[str, Counts]) -> list[list[Any]]:
    """One row per scope, origin, kind of die and face, for the dice CSV; raises nothing."""
    rows: list[list[Any]] = []
    for scope, counts in scopes.items():
        for origin in (CAMERA, HAND):
            for sides, row in sorted(counts[origin].items()):
                total = sum(row)
                rows.extend([scope, origin, sides, face + 1, count, round(count / total, 4) if total else 0]
                            for face, count in enumerate(row))
    return rows
