"""The table's memory through the HTTP API of the real companion, after seeded random games played through that
API: the dice counted are the dice sent, the plays are the games finished, the BG Stats link holds the play, and
only the host exports or merges."""
from __future__ import annotations

import json
import random
import sqlite3
import time
from collections import Counter
from typing import Any
from urllib.parse import unquote

import pytest

from companion.config import Camera
from vision.sources import SyntheticCamera
from memory_games import call, play_game

GAMES = (("through-the-gate", ["Ann", "Bob"]), ("through-the-gate", ["Ann", "cy"]), ("through-the-gate", ["ann ", "Bob"]))


@pytest.fixture
def played(start_server: Any) -> tuple[Any, Counter]:
    """The real companion without a camera (every die comes from the test), after three seeded games played
    through its API; and the dice those games took."""
    server = start_server(camera=Camera(source="none"))
    rng, rolled = random.Random(37), Counter()
    for game, players in GAMES:
        play_game(server, game, players, rng, rolled)
    return server, rolled


def test_the_dice_counted_are_the_dice_sent_and_say_so(played, api_schemas):
    server, rolled = played
    status, found = call(server, "GET", "/api/stats/dice?scope=all", None, server.seat_token(0))
    assert status == 200
    api_schemas.check("GET", "/api/stats/dice", 200, found)
    counted = Counter({(int(sides), face + 1): count for sides, kind in found["kinds"].items()
                       for face, count in enumerate(kind["counts"]) if count})
    assert counted == +rolled and found["rolls"] == sum(rolled.values()) and found["camera_rolls"] == 0
    six = found["kinds"]["6"]
    assert six["hand"]["counts"] == six["counts"] and six["p_value"] is not None
    assert six["verdict"].startswith(("Too few rolls to tell", "These d6 dice look fair")), six["verdict"]
    assert set(found["games"]) == {"through-the-gate"}
    status, game = call(server, "GET", "/api/stats/dice?scope=game", None, server.host_token)
    api_schemas.check("GET", "/api/stats/dice", 200, game)
    assert game["scope"] == "game" and [row["name"] for row in game["luck"]] == ["ann ", "Bob"]
    assert sum(row["dice"] for row in game["luck"]) <= game["rolls"]


def test_the_plays_are_the_games_finished_newest_first(played, api_schemas):
    server, _ = played
    status, found = call(server, "GET", "/api/plays", None, server.host_token)
    assert status == 200
    api_schemas.check("GET", "/api/plays", 200, found)
    assert [play["game"] for play in found["plays"][:3]] == ["through-the-gate"] * 3
    newest = found["plays"][0]
    assert [seat["name"] for seat in newest["players"]] == ["ann ", "Bob"] and newest["winners"]
    assert newest["duration_min"] >= 1
    status, link = call(server, "GET", f"/api/plays/{newest['id']}/bgstats", None, server.seat_token(1))
    api_schemas.check("GET", "/api/plays/{play}/bgstats", 200, link)
    data = json.loads(unquote(link["url"].split("?data=", 1)[1]))
    assert data["game"]["name"] == "Through The Gate" and data["sourcePlayId"] == str(newest["id"])
    assert [row["winner"] for row in data["players"]] == [seat["winner"] for seat in newest["players"]]


def test_players_match_whatever_the_spaces_and_case(played, api_schemas):
    server, _ = played
    status, ann = call(server, "GET", "/api/players/ANN", None, server.host_token)
    assert status == 200
    api_schemas.check("GET", "/api/players/{name}", 200, ann)
    assert ann["plays"] == 3 and set(ann["names"]) == {"Ann", "ann "}


def test_only_the_host_exports_and_merges_and_bad_input_changes_nothing(played, is_sentence):
    server, _ = played
    seat = server.seat_token(0)
    for path in ("/api/plays.csv", "/api/plays.json", "/api/stats/dice.csv"):
        assert call(server, "GET", path, None, seat)[0] == 403
        status, text = call(server, "GET", path, None, server.host_token)
        assert status == 200 and (len(text["plays"]) == 3 if isinstance(text, dict) else text.count("\n") > 3)
    assert call(server, "GET", "/api/plays", None, None)[0] == 403
    status, answer = call(server, "GET", "/api/stats/dice?scope=week", None, seat)
    assert status == 400 and is_sentence(answer)
    status, answer = call(server, "GET", "/api/plays/9999/bgstats", None, seat)
    assert status == 404 and is_sentence(answer)
    status, answer = call(server, "POST", "/api/merges", {"name": "cy", "into": "Bob"}, seat)
    assert status == 403
    status, answer = call(server, "POST", "/api/merges", {"name": "Zed", "into": "Bob"}, server.host_token)
    assert status == 400 and is_sentence(answer) and "nothing was merged" in answer["message"]
    assert call(server, "GET", "/api/players/bob", None, server.host_token)[1]["plays"] == 2
    status, merged = call(server, "POST", "/api/merges", {"name": "cy", "into": "Bob"}, server.host_token)
    assert status == 200 and merged["plays"] == 3


def test_a_players_all_time_luck_is_their_camera_dice_against_a_fair_die(start_server, api_schemas):
    """Two games where some rolls are thrown for the camera: a player's all-time luck is worked out here from the
    journal's rows (the camera's dice of the rolls this test threw for that player's seat) and must be the API's."""
    server = start_server(frames=SyntheticCamera(11, dice=1))
    rng, thrown = random.Random(3), {}
    for players in (["Ann", "Bob"], ["Cy", " ANN"]):
        play_game(server, "through-the-gate", players, rng, Counter(), thrown)
    journal = sqlite3.connect(f"{(server.companion.config.state / 'journal.sqlite').as_uri()}?mode=ro", uri=True)
    rows = journal.execute("SELECT entries.id, games.players, entries.body FROM entries JOIN games ON games.id = "
                           "entries.game_id WHERE entries.kind = 'dice'").fetchall()
    journal.close()
    expected: dict[str, list[float]] = {}
    for seq, players, body in rows:
        dice = json.loads(body)
        if seq in thrown and dice["origins"] == ["camera"]:
            name = " ".join(json.loads(players)[thrown[seq]].split()).casefold()
            row = expected.setdefault(name, [0, 0.0])
            row[0] += 1
            row[1] += dice["values"][0] - 3.5
    assert expected.get("ann", [0])[0] >= 2, (thrown, expected)
    for name, (dice, total) in expected.items():
        deadline = time.monotonic() + 30
        while True:  # past games are replayed once, in the background: until then the answer says it is counting
            status, found = call(server, "GET", f"/api/players/{name.upper()}", None, server.host_token)
            assert status == 200
            if not found["luck"]["counting"] or time.monotonic() > deadline:
                break
            assert found["luck"]["luck"] is None and found["luck"]["dice"] is None
            time.sleep(0.1)
        api_schemas.check("GET", "/api/players/{name}", 200, found)
        assert found["luck"] == {"luck": round(total / dice, 3), "dice": dice, "counting": 0}, name
