"""Each finished game as a play: who played, their scores, who won, how long it took, the tie rule; and the
same play as the BG Stats app takes it (its published "push plays" link)."""
from __future__ import annotations

import json
import time
from typing import Any, Callable, Mapping
from urllib.parse import quote

from companion.journal.records import PastGame

SOURCE_NAME = "Table companion"
BGSTATS_HTTPS = "https://app.bgstatsapp.com/createPlay.html?data="
BGSTATS_APP = "bgstats://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' push-plays link, as its support page "Push plays to BG Stats from other apps or websites" gives it
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/): data= is the play as
url-encoded JSON."""
BGG_IDS: dict[str, int] = {}
"""BoardGameGeek ids of the games, where one is known: none of the five has one we could confirm, so the app
matches them by name (its import dialog asks once, then remembers)."""


def _victories(outcome: Mapping[str, Any]) -> list[float] | None:
    """Through The Gate, competitive: each player's victories; the team modes have no per-player score."""
    rows = outcome.get("victories")
    return [float(len(row)) for row in rows] if isinstance(rows, list) else None


def _key(name: str) -> Callable[[Mapping[str, Any]], list[float] | None]:
    def scores(outcome: Mapping[str, Any]) -> list[float] | None:
        rows = outcome.get(name)
        return [float(value) for value in rows] if isinstance(rows, list) and all(
            isinstance(value, (int, float)) for value in rows) else None
    return scores


SCORES: dict[str, Callable[[Mapping[str, Any]], list[float] | None]] = {
    "eight-gates": _key("totals"),
    "gateway-city": _key("vp"),
    "gateway-rescue": _key("rescues"),
    "through-the-gate": _victories,
}
"""Where each game's outcome keeps one score per seat (most wins in each); The Gate is won by damage and gates,
so it has no score."""


def scores_of(game: str, outcome: Mapping[str, Any] | None) -> list[float] | None:
    """One score per seat, or None where the game (or this mode of it) keeps none; raises nothing."""
    reader = SCORES.get(game)
    return reader(outcome) if reader is not None and outcome else None


def play(past: PastGame, titles: Mapping[str, str]) -> dict[str, Any]:
    """A finished game as the API and the exports give it; raises nothing."""
    outcome = past.outcome or {}
    scores = scores_of(past.game, outcome)
    winners = [int(seat) for seat in outcome.get("winners", [])]
    return {
        "id": past.id, "game": past.game, "title": titles.get(past.game, past.game),
        "started": past.started, "finished": past.finished,
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(past.started)),
        "duration_min": duration_min(past),
        "players": [{"seat": seat, "name": name, "score": None if scores is None or seat >= len(scores) else scores[seat],
                     "winner": seat in winners} for seat, name in enumerate(past.players)],
        "winners": winners, "summary": str(outcome.get("summary", "")), "summary_ko": outcome.get("summary_ko"),
        "tie_rule": outcome.get("tie_rule"), "tie_rule_ko": outcome.get("tie_rule_ko"),
        "mode": outcome.get("mode"),
    }


FORM = 1
"""The form of a play as the summary keeps it (`kept_row`); raise it whenever `play()` takes something else from a
game, so that a summary written by the older code is not believed (its plays are read from the journal again)."""


def kept_row(found: Mapping[str, Any]) -> list[Any]:
    """A play as the summary keeps it: what `play()` took from the journal, not the title or the date (both worked out
    again when it is read); raises KeyError for a dict that is not a play."""
    return [found["id"], found["game"], found["started"], found["finished"], found["duration_min"],
            [[seat["name"], seat["score"], seat["winner"]] for seat in found["players"]], found["winners"],
            found["summary"], found["summary_ko"], found["tie_rule"], found["tie_rule_ko"], found["mode"]]


def from_kept(rows: list[Any], titles: Mapping[str, str]) -> list[dict[str, Any]]:
    """The plays of rows the summary kept, each as `play()` gives it; raises TypeError, ValueError for rows of
    another form."""
    when, local = time.strftime, time.localtime
    return [{"id": game_id, "game": game, "title": titles.get(game, game), "started": started, "finished": finished,
             "date": when("%Y-%m-%d %H:%M", local(started)), "duration_min": minutes,
             "players": [{"seat": seat, "name": name, "score": score, "winner": winner}
                         for seat, (name, score, winner) in enumerate(seats)],
             "winners": winners, "summary": summary, "summary_ko": summary_ko, "tie_rule": tie_rule,
             "tie_rule_ko": tie_rule_ko, "mode": mode}
            for game_id, game, started, finished, minutes, seats, winners, summary, summary_ko, tie_rule, tie_rule_ko, mode
            in rows]


def duration_min(past: PastGame) -> int:
    """Whole minutes from start to end (at least 1 for a finished game, 0 unfinished); raises nothing."""
    if past.finished is None:
        return 0
    return max(1, round((past.finished - past.started) / 60))


def bgstats(found: Mapping[str, Any], *, start_player: int | None) -> dict[str, Any]:
    """The play as BG Stats' push-plays JSON and its link; raises nothing."""
    scored = any(player["score"] is not None for player in found["players"])
    ranks = _ranks(found["players"]) if scored else {}
    players = []
    for player in found["players"]:
        row: dict[str, Any] = {"name": player["name"], "sourcePlayerId": _player_id(player["name"]),
                               "startPlayer": player["seat"] == start_player, "winner": bool(player["winner"])}
        if player["score"] is not None:
            row["score"] = player["score"]
            row["rank"] = ranks[player["seat"]]
        players.append(row)
    game: dict[str, Any] = {"name": found["title"], "sourceGameId": found["game"], "highestWins": True,
                            "noPoints": not scored}
    if found["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[found["game"]]
    data = {"sourceName": SOURCE_NAME, "sourcePlayId": str(found["id"]),
            "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(found["started"])),
            "durationMin": found["duration_min"], "game": game, "players": players}
    encoded = quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
    return {"url": BGSTATS_HTTPS + encoded, "app_url": BGSTATS_APP + encoded, "play": data}


def _ranks(players: list[dict[str, Any]]) -> dict[int, int]:
    """Each seat's rank by score, highest first, equal scores sharing a rank; raises nothing."""
    scores = sorted({player["score"] for player in players if player["score"] is not None}, reverse=True)
    return {player["seat"]: 1 + sum(1 for player2 in players if (player2["score"] or 0) > (player["score"] or 0))
            for player in players} if scores else {}


def _player_id(name: str) -> str:
    """A player's id as the app remembers matches by: the name, case and spaces ignored; raises nothing."""
    return " ".join(name.split()).casefold()


CSV_COLUMNS = ("id", "date", "game", "title", "duration_min", "seat", "player", "score", "winner", "tie_rule")


def csv_rows(plays: list[dict[str, Any]]) -> list[list[Any]]:
    """One row per player per play, for the CSV export; raises nothing."""
    rows = []
    for found in plays:
        for player in found["players"]:
            rows.append([found["id"], found["date"], found["game"], found["title"], found["duration_min"],
                         player["seat"], player["name"], "" if player["score"] is None else player["score"],
                         "yes" if player["winner"] else "no", found["tie_rule"] or ""])
    return rows
