"""The table's memory read from a real journal: dice counted once each (a corrected roll as the correction),
counted alike read in pieces or at once, plays with scores and winners, players matched and merged, the BG Stats
link as its support page describes it, and `companion export`."""
from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion.cli import main
from companion.games import registered_games
from companion.journal.store import Journal
from companion.memory.service import Memory
from companion.rules.errors import BadInput
from companion.rules.inputs import CorrectDice, DiceRolled, StartGame
from companion.table.session import Session
from memory_games import play_out

GAMES = registered_games()


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, Counter]:
    """A journal of ten seeded games of every kind, and the dice that were rolled (corrections applied)."""
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session(games=GAMES, journal=journal)
    rng, rolled = random.Random(7), Counter()
    for game in ("through-the-gate", "eight-gates", "gateway-rescue", "the-gate", "gateway-city") * 2:
        play_out(session, game, ("Ann", "bob", "Cy"), rng, rolled)
    journal.close()
    return tmp_path / "journal.sqlite", rolled


def faces(report: dict) -> Counter:
    return Counter({(int(sides), face + 1): count for sides, kind in report["kinds"].items()
                    for face, count in enumerate(kind["counts"]) if count})


def test_every_die_is_counted_once_and_a_corrected_roll_as_its_correction(played):
    path, rolled = played
    memory = Memory(path, GAMES)
    report = memory.dice("all")
    assert faces(report) == +rolled and report["rolls"] == sum(rolled.values()) > 100
    for kind in report["kinds"].values():
        assert [a + b for a, b in zip(kind["camera"]["counts"], kind["hand"]["counts"])] == kind["counts"]
    assert report["camera_rolls"] > 0 and report["hand_rolls"] > 0


def test_read_in_pieces_as_play_goes_on_the_counts_are_those_read_at_once(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session(games=GAMES, journal=journal)
    memory = Memory(tmp_path / "journal.sqlite", GAMES)
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 1), source="host")
    session.submit(DiceRolled((6,), (6,)), source="camera")
    assert faces(memory.dice("game")) == Counter({(6, 6): 1})
    session.submit(CorrectDice((2,), (6,)), source="phone")  # the open roll was misread: it counts as corrected
    assert faces(memory.dice("game")) == Counter({(6, 2): 1})
    assert memory.dice("game")["kinds"]["6"]["hand"]["counts"] == [0, 1, 0, 0, 0, 0]
    rng, rolled = random.Random(3), Counter()
    play_out(session, "eight-gates", ("Ann", "Bob", "Cy"), rng, rolled)
    piecewise = memory.dice("all")
    fresh = Memory(tmp_path / "journal.sqlite", GAMES).dice("all")
    assert piecewise == fresh and faces(fresh) == +rolled + Counter({(6, 2): 1})
    journal.close()


def test_plays_have_players_scores_winners_and_durations_newest_last(played):
    memory = Memory(played[0], GAMES)
    plays = memory.plays()
    assert [play["game"] for play in plays][:5] == ["through-the-gate", "eight-gates", "gateway-rescue", "the-gate",
                                                   "gateway-city"]
    eight = plays[1]
    assert [seat["name"] for seat in eight["players"]] == ["Ann", "bob", "Cy"] and eight["duration_min"] >= 1
    assert eight["winners"] and all(isinstance(seat["score"], float) for seat in eight["players"])
    best = max(seat["score"] for seat in eight["players"])
    assert {seat["seat"] for seat in eight["players"] if seat["score"] == best} == set(eight["winners"])
    assert all(seat["score"] is None for seat in plays[3]["players"])  # The Gate keeps no score


def test_players_are_matched_by_name_whatever_the_case_and_the_host_can_merge_two(tmp_path, played):
    memory = Memory(played[0], GAMES, names=tmp_path / "names.json")
    rows = {row["key"]: row for row in memory.players()}
    assert set(rows) == {"ann", "bob", "cy"} and rows["cy"]["plays"] == 2 and rows["ann"]["plays"] == 10
    ann = memory.player("  ANN ")
    assert ann["plays"] == 10 and sum(game["plays"] for game in ann["games"]) == 10
    assert ann["wins"] == sum(seat["winner"] for play in memory.plays() for seat in play["players"] if seat["name"] == "Ann")
    assert ann["streak"]["kind"] in ("win", "loss") and ann["streak"]["length"] >= 1
    merged = memory.merge("BOB", "ann")
    assert merged["plays"] == 20 and set(merged["names"]) == {"Ann", "bob"}
    assert Memory(played[0], GAMES, names=tmp_path / "names.json").player("bob")["plays"] == 20  # kept
    with pytest.raises(BadInput, match="already count as the same player"):
        memory.merge("bob", "Ann")
    with pytest.raises(BadInput, match="No finished game has a player called Zed"):
        memory.merge("Zed", "Ann")


def test_the_bgstats_link_carries_the_play_as_its_support_page_describes(played):
    memory = Memory(played[0], GAMES)
    play = memory.plays()[1]
    found = memory.bgstats(play["id"])
    assert found["url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert found["app_url"].startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(found["url"].split("?data=", 1)[1]))
    assert data == found["play"]
    assert data["sourceName"] == "Table companion" and data["game"]["name"] == "8 Gates"
    assert data["game"]["highestWins"] is True and data["game"]["noPoints"] is False
    assert data["durationMin"] == play["duration_min"] and len(data["playDate"]) == 19
    assert [row["name"] for row in data["players"]] == ["Ann", "bob", "Cy"]
    assert [row["winner"] for row in data["players"]] == [seat["winner"] for seat in play["players"]]
    assert sum(row["startPlayer"] for row in data["players"]) == 1
    assert [row["score"] for row in data["players"]] == [seat["score"] for seat in play["players"]]


def test_a_game_replays_step_by_step_as_the_table_was(played):
    memory = Memory(played[0], GAMES)
    play = memory.plays()[0]
    steps = memory.steps(play["id"])["steps"]
    assert steps[0]["kind"] == "StartGame"
    first, last = memory.step(play["id"], 0), memory.step(play["id"], len(steps) - 1)
    assert first["outcome"] is None and last["outcome"]["winners"] == play["winners"]
    with pytest.raises(BadInput, match="there is no step"):
        memory.step(play["id"], len(steps))


def test_companion_export_prints_plays_as_csv_and_json_and_the_dice(played, capsys):
    path = played[0]
    assert main(["export", "--state", str(path.parent), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 22 and rows[0]["id"] == "10" and {row["player"] for row in rows} == {"Ann", "bob", "Cy"}
    assert main(["export", "--state", str(path.parent), "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["plays"]) == 10
    assert main(["export", "--state", str(path.parent), "--dice"]) == 0
    dice = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sum(int(row["count"]) for row in dice if row["scope"] == "all") == sum(played[1].values())
    assert main(["export", "--state", str(path.parent / "nowhere")]) == 2
    assert "There is no journal at" in capsys.readouterr().err
