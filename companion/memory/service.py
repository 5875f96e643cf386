"""The table's memory as the web front and the command line use it: plain JSON values, read from the journal
through its own read-only connection (never the engine loop's), kept up to date from the newest entries."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Mapping

from companion.memory import dice, plays, players
from companion.memory.finished import FinishedGames
from companion.memory.luck import LuckTally, seat_luck
from companion.memory.reader import JournalReader, MemoryUnreadable
from companion.memory.replay import safe_replay, step_line, step_snapshot
from companion.memory.summary import FILE as SUMMARY_FILE, SummaryFile
from companion.rules.errors import BadInput, CompanionError
from companion.rules.game import Game

NAMES_FILE = "memory-names.json"


class NoSuchPlay(CompanionError, LookupError):
    """No game of that number is in the journal."""

    code = "not_found"


class Memory:
    """What the journal remembers: dice, plays, players, exports; safe from any thread."""

    def __init__(self, journal: Path, games: Mapping[str, Game[Any]], *, names: Path | None = None,
                 summary: Path | None | bool = True) -> None:
        """Read `journal` (opened at the first question); `names`: the file of merged names (default beside the
        journal); `summary`: the summary's file (True: beside the journal; None or False: keep none); raises
        nothing."""
        self._reader = JournalReader(journal)
        self._games = games
        where = Path(journal).parent / SUMMARY_FILE if summary is True else summary or None
        self._summary = SummaryFile(where)
        self._tally = dice.DiceTally(self._reader, self._summary)
        self._luck = LuckTally(self._reader, self._summary, games)
        self.merges = players.NameMerges(names if names is not None else Path(journal).parent / NAMES_FILE)
        self._finished = FinishedGames(self._reader, self._summary, self.titles)

    def close(self) -> None:
        """Keep what was counted in the summary and close the files; raises nothing."""
        self._luck.close()
        self._tally.close()
        self._finished.close()
        self._summary.close()
        self._reader.close()

    @property
    def titles(self) -> dict[str, str]:
        """Each game's title by id; raises nothing."""
        return {game_id: game.title for game_id, game in self._games.items()}

    def plays(self) -> list[dict[str, Any]]:
        """The finished games, oldest first; raises MemoryUnreadable."""
        return self._finished.plays()

    def play(self, game_id: int) -> dict[str, Any]:
        """One finished game; raises NoSuchPlay, MemoryUnreadable."""
        past = self._reader.game(game_id)
        if past is None or past.finished is None:
            raise NoSuchPlay(f"There is no finished game number {game_id} in the journal.")
        return plays.play(past, self.titles)

    def bgstats(self, game_id: int) -> dict[str, Any]:
        """The play as BG Stats' push-plays link and JSON; raises NoSuchPlay, MemoryUnreadable."""
        found = self.play(game_id)
        replayed = safe_replay(list(self._reader.entries(game_id)), self._games)
        return plays.bgstats(found, start_player=None if replayed is None else replayed.start_player)

    def steps(self, game_id: int) -> dict[str, Any]:
        """A game's steps, as the replay page lists them; raises NoSuchPlay, MemoryUnreadable."""
        past = self._reader.game(game_id)
        if past is None:
            raise NoSuchPlay(f"There is no game number {game_id} in the journal.")
        entries = list(self._reader.entries(game_id))
        return {"id": game_id, "game": past.game, "title": self.titles.get(past.game, past.game),
                "players": list(past.players), "finished": past.finished is not None,
                "steps": [step_line(entry) for entry in entries]}

    def step(self, game_id: int, step: int) -> dict[str, Any]:
        """The table after a game's step `step` (0: its start), as the host saw it; raises NoSuchPlay,
        BadInput for a step the game lacks, MemoryUnreadable."""
        entries = list(self._reader.entries(game_id))
        if not entries:
            raise NoSuchPlay(f"There is no game number {game_id} in the journal.")
        if not 0 <= step < len(entries):
            raise BadInput(f"Game {game_id} has steps 0 to {len(entries) - 1}; there is no step {step}.")
        try:
            return step_snapshot(entries, step, self._games)
        except CompanionError as refusal:
            raise MemoryUnreadable(f"Step {step} of game {game_id} cannot be replayed with these rules "
                                   f"({refusal.message.rstrip('.')}).") from None

    def dice(self, scope: str = "all", game_id: int | None = None) -> dict[str, Any]:
        """The dice statistics of every game ('all') or of one ('game': `game_id`, default the newest), with
        each seat's luck in one game; raises BadInput for another scope, NoSuchPlay, MemoryUnreadable."""
        if scope not in ("all", "game"):
            raise BadInput(f"The scope is 'all' or 'game', not {scope!r}.")
        if scope == "all":
            counts = self._tally.refresh()
            return {"scope": "all", "game_id": None, **dice.report(dice.merged(*counts.values())),
                    "games": {kind: {"title": self.titles.get(kind, kind), **dice.report(found)}
                              for kind, found in sorted(counts.items())}}
        chosen = game_id if game_id is not None else self._reader.newest_game()
        past = self._reader.game(chosen) if chosen is not None else None
        if past is None:
            raise NoSuchPlay("There is no such game in the journal." if game_id is not None else "No game has been played yet.")
        counts = dice.counted(self._reader.dice_counts(0, self._reader.last_seq(), past.id))
        return {"scope": "game", "game_id": past.id, "game": past.game, "title": self.titles.get(past.game, past.game),
                **dice.report(counts), "luck": self.luck(past.id, past.players)}

    def luck(self, game_id: int, names: tuple[str, ...]) -> list[dict[str, Any]]:
        """Each seat's dice against the average a fair die gives, in one game; raises MemoryUnreadable."""
        replayed = safe_replay(list(self._reader.entries(game_id)), self._games)
        return seat_luck(replayed.rolled if replayed is not None else [], names)

    def players(self) -> list[dict[str, Any]]:
        """Every player with plays and wins; raises MemoryUnreadable."""
        return players.players(self.plays(), self.merges)

    def player(self, name: str) -> dict[str, Any]:
        """One player's record; raises NoSuchPlay for a name never played, MemoryUnreadable."""
        found = players.player(name, self.plays(), self.merges)
        if found is None:
            raise NoSuchPlay(f"No finished game has a player called {name.strip() or '(nobody)'}.")
        return {**found, "luck": self._luck.player(found["key"], self.merges)}

    def merge(self, name: str, into: str) -> dict[str, Any]:
        """Count `name` as the same player as `into`; returns `into`'s record; raises BadInput with a sentence
        (nothing kept), MemoryUnreadable when it cannot be kept."""
        known = {players.name_key(seat["name"]) for play in self.plays() for seat in play["players"]}
        for each in (name, into):
            if players.name_key(each) not in known:
                raise BadInput(f"No finished game has a player called {each.strip() or '(nobody)'}, so nothing was merged.")
        try:
            self.merges.merge(name, into)
        except ValueError as error:
            raise BadInput(str(error)) from None
        except OSError as error:
            raise MemoryUnreadable(f"The merge could not be kept ({error.strerror or error}); nothing changed.") from None
        return self.player(into)

    def export_json(self) -> str:
        """Every finished game as JSON (newest first); raises MemoryUnreadable."""
        return json.dumps({"plays": self.plays()[::-1], "merged_names": self.merges.as_json()}, ensure_ascii=False, indent=1)

    def export_csv(self) -> str:
        """Every finished game as CSV, one row per player (newest first); raises MemoryUnreadable."""
        return _csv(plays.CSV_COLUMNS, plays.csv_rows(self.plays()[::-1]))

    def dice_csv(self) -> str:
        """The dice counts as CSV: all games together, then each game kind; raises MemoryUnreadable."""
        counts = self._tally.refresh()
        scopes = {"all": dice.merged(*counts.values()), **dict(sorted(counts.items()))}
        return _csv(dice.CSV_COLUMNS, dice.csv_rows(scopes))


def _csv(columns: tuple[str, ...], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()
