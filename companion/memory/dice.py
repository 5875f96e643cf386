"""Every die the journal saw, counted by game, by kind of die and by where it came from, kept up to date from
the newest entries only; and what those counts say, in English and Korean."""
from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any, Mapping

from companion.memory.fairness import ALPHA, BIAS, enough_rolls, p_value
from companion.memory.reader import JournalReader

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


class DiceTally:
    """The counts of every game, read incrementally: each call reads only the entries since the last one. The
    newest game's last roll is counted fresh each time (a correction may still replace it)."""

    def __init__(self, reader: JournalReader) -> None:
        """Start with nothing read; raises nothing."""
        self._reader = reader
        self._lock = threading.Lock()
        self._after = 0
        self.by_game: dict[int, Counts] = defaultdict(_empty)

    def refresh(self) -> dict[int, Counts]:
        """Read what came since, and return the counts of every game (the open roll included); raises
        MemoryUnreadable."""
        with self._lock:
            newest = self._reader.newest_game()
            last = self._reader.last_seq()
            open_roll = self._reader.last_roll_of(newest) if newest is not None else 0
            upto = min(last, open_roll - 1) if open_roll > self._after else last
            if upto > self._after:
                for game, origin, sides, face, count in self._reader.dice_counts(self._after, upto):
                    _add(self.by_game[game], origin, sides, face, count)
                self._after = upto
            counts = dict(self.by_game)  # read-only for the caller: only the game with the open roll is copied
            if open_roll > self._after:
                for game, origin, sides, face, count in self._reader.dice_counts(self._after, last):
                    if counts.get(game) is self.by_game.get(game):
                        counts[game] = merged(self.by_game[game])
                    _add(counts[game], origin, sides, face, count)
            return counts


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


def by_game_kind(counts: Mapping[int, Counts], kinds_of: Mapping[int, str]) -> dict[str, Counts]:
    """The counts summed per game (Through The Gate, …); raises nothing."""
    grouped: dict[str, list[Counts]] = defaultdict(list)
    for game_id, found in counts.items():
        grouped[kinds_of.get(game_id, "?")].append(found)
    return {kind: merged(*parts) for kind, parts in grouped.items()}


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
