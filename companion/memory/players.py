"""Who wins what: each player across the finished games, a player being a name with case and spaces ignored,
and names the host said are the same person counted as one."""
from __future__ import annotations

import json
import os
import tempfile
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any


def name_key(name: str) -> str:
    """A name as players are matched: case and spaces ignored ('  ann  LEE' is 'ann lee'); raises nothing."""
    return " ".join(str(name).split()).casefold()


class NameMerges:
    """The names the host said are one person, kept in a small JSON file beside the journal."""

    def __init__(self, path: Path | None) -> None:
        """Read the merges kept (none when the file is missing or unreadable); raises nothing."""
        self.path = path
        self._lock = threading.Lock()
        self._into: dict[str, str] = {}
        if path is not None and path.exists():
            try:
                self._into = {str(key): str(value) for key, value in json.loads(path.read_text()).items()}
            except (OSError, ValueError, AttributeError):
                self._into = {}

    def key(self, name: str) -> str:
        """The key a name counts under, merges followed; raises nothing."""
        key = name_key(name)
        seen = set()
        while key in self._into and key not in seen:
            seen.add(key)
            key = self._into[key]
        return key

    def merge(self, name: str, into: str) -> None:
        """Count `name` as `into` from now on (kept on disk); raises ValueError with a sentence for a name that is
        empty or already the same person, OSError when it cannot be kept."""
        source, target = self.key(name), self.key(into)
        if not source or not target:
            raise ValueError("Say both names to merge.")
        if source == target:
            raise ValueError(f"{name.strip()} and {into.strip()} already count as the same player.")
        with self._lock:
            merged = {**self._into, source: target}
            if self.path is not None:
                self._write(merged)
            self._into = merged

    def _write(self, merged: dict[str, str]) -> None:
        """Write the merges aside, then rename them in; raises OSError."""
        assert self.path is not None
        handle, aside = tempfile.mkstemp(dir=self.path.parent, prefix=".names-")
        try:
            with os.fdopen(handle, "w") as out:
                json.dump(merged, out, ensure_ascii=False, indent=1)
            os.replace(aside, self.path)
        except OSError:
            Path(aside).unlink(missing_ok=True)
            raise

    def as_json(self) -> dict[str, str]:
        """Every merge: name key → the key it counts as; raises nothing."""
        return dict(self._into)


def players(plays: list[dict[str, Any]], merges: NameMerges) -> list[dict[str, Any]]:
    """Every player with plays and wins, most plays first; raises nothing."""
    found: dict[str, dict[str, Any]] = {}
    for play in plays:
        for seat in play["players"]:
            key = merges.key(seat["name"])
            row = found.setdefault(key, {"key": key, "name": seat["name"], "plays": 0, "wins": 0})
            row["name"] = seat["name"]
            row["plays"] += 1
            row["wins"] += bool(seat["winner"])
    return sorted(found.values(), key=lambda row: (-row["plays"], row["key"]))


def player(key: str, plays: list[dict[str, Any]], merges: NameMerges) -> dict[str, Any] | None:
    """One player's record across the finished games, oldest play first (None: never played); raises nothing."""
    key = merges.key(key)
    mine = [(play, seat) for play in plays for seat in play["players"] if merges.key(seat["name"]) == key]
    if not mine:
        return None
    per_game: dict[str, dict[str, Any]] = {}
    scores: dict[str, list[float]] = defaultdict(list)
    solo: dict[str, float] = {}
    for play, seat in mine:
        row = per_game.setdefault(play["game"], {"game": play["game"], "title": play["title"], "plays": 0, "wins": 0})
        row["plays"] += 1
        row["wins"] += bool(seat["winner"])
        if seat["score"] is not None:
            scores[play["game"]].append(seat["score"])
            if len(play["players"]) == 1:
                solo[play["game"]] = max(solo.get(play["game"], seat["score"]), seat["score"])
    for game, row in per_game.items():
        row["win_rate"] = round(row["wins"] / row["plays"], 3)
        row["best"] = max(scores[game]) if scores[game] else None
        row["average"] = round(sum(scores[game]) / len(scores[game]), 2) if scores[game] else None
    return {"key": key, "name": mine[-1][1]["name"], "plays": len(mine), "wins": sum(bool(seat["winner"]) for _, seat in mine),
            "games": sorted(per_game.values(), key=lambda row: -row["plays"]), "solo_bests": solo,
            "streak": streak([bool(seat["winner"]) for _, seat in mine]),
            "names": sorted({seat["name"] for _, seat in mine}),
            "scores": [{"id": play["id"], "date": play["date"], "started": play["started"], "game": play["game"],
                        "score": seat["score"], "winner": seat["winner"]} for play, seat in mine]}


def streak(results: list[bool]) -> dict[str, Any]:
    """The current run of wins or of losses, newest play last ({kind: win|loss|none, length}); raises nothing."""
    if not results:
        return {"kind": "none", "length": 0}
    last = results[-1]
    length = 0
    for result in reversed(results):
        if result != last:
            break
        length += 1
    return {"kind": "win" if last else "loss", "length": length}
