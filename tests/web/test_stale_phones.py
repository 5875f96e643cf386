"""A phone's tap made on a table that has since moved on (a new game, a newer roll) is refused, not applied
to whatever table is there when it arrives: the page says which game and which roll it showed."""
from __future__ import annotations

from typing import Any

GAME = {"game": "through-the-gate", "players": ["Ann"], "options": {}}


def _three_rolls(server: Any) -> tuple[str, dict[str, Any]]:
    """Ann alone, speed 4, a three-roll check with her first die in (a 2); returns her token and the table."""
    assert server.api("POST", "/api/game", GAME, token=server.host_token)[0] == 200
    ann = server.seat_token(0)
    server.act(ann, 0, "declare_speed", speed=4)
    server.act(ann, 0, "check", kind="three_less")
    status, snap = server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=ann)
    assert status == 200, snap
    return ann, snap


def test_a_correction_of_a_roll_since_followed_by_another_is_refused(companion_server: Any) -> None:
    server = companion_server
    ann, first = _three_rolls(server)
    status, second = server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)
    assert status == 200 and second["dice"]["seq"] != first["dice"]["seq"]
    answer = server.refused("/api/dice/correct", {"values": [5], "sides": [6], "roll_seq": first["dice"]["seq"]},
                            ann, status=409, code="table_moved_on")
    assert answer["message"].startswith("Another roll has come in since your phone showed the table")
    dice = server.api("GET", "/api/state", token=ann)[1]["view"]["check"]["dice"]
    assert [die["raw"] for die in dice] == [2, 6]  # the 6 was not turned into the 5 meant for the 2
    status, fixed = server.api("POST", "/api/dice/correct",
                               {"values": [5], "sides": [6], "roll_seq": second["dice"]["seq"]}, token=ann)
    assert status == 200 and [die["raw"] for die in fixed["view"]["check"]["dice"]] == [2, 5]


def test_a_roll_typed_after_another_roll_came_in_is_not_taken_for_the_next_roll(companion_server: Any) -> None:
    server = companion_server
    ann, first = _three_rolls(server)
    status, second = server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)
    assert status == 200  # the camera's read (or the host) came in while Ann typed the same die
    answer = server.refused("/api/dice", {"values": [6], "sides": [6], "roll_seq": first["dice"]["seq"]},
                            ann, status=409, code="table_moved_on")
    assert answer["message"].startswith("Another roll has come in since your phone showed the table")
    dice = server.api("GET", "/api/state", token=ann)[1]["view"]["check"]["dice"]
    assert [die["raw"] for die in dice] == [2, 6]  # not 2, 6, 6: her die counted once
    status, third = server.api("POST", "/api/dice", {"values": [3], "sides": [6], "roll_seq": second["dice"]["seq"]},
                               token=ann)
    assert status == 200 and [die["raw"] for die in third["view"]["check"]["dice"]] == [2, 6, 3]


def test_two_phones_entering_the_first_roll_of_a_game_count_it_once(companion_server: Any) -> None:
    server = companion_server
    two = {"game": "through-the-gate", "players": ["Ann", "Bob", "Cy"], "options": {}}
    assert server.api("POST", "/api/game", two, token=server.host_token)[0] == 200
    ann = server.seat_token(0)
    assert server.api("GET", "/api/state", token=ann)[1]["dice"] is None  # both pages show no roll yet
    status, snap = server.api("POST", "/api/dice", {"values": [6], "sides": [6], "roll_seq": 0}, token=ann)
    assert status == 200, snap
    server.refused("/api/dice", {"values": [6], "sides": [6], "roll_seq": 0}, server.host_token, status=409,
                   code="table_moved_on")  # the host typed Ann's 6 too: it must not become Bob's roll-off roll
    log = server.api("GET", "/api/state", token=ann)[1]["view"]["log"]
    assert sum("rolled 6" in line for line in log) == 1, log


def test_a_tap_for_the_last_game_is_refused_in_the_new_one(companion_server: Any) -> None:
    server = companion_server
    ann, old = _three_rolls(server)
    new = {"game": "gateway-rescue", "players": ["Ann", "Bo"], "options": {}, **server.ending_this_game()}
    assert server.api("POST", "/api/game", new, token=server.host_token)[0] == 200
    ann = server.seat_token(0)  # Ann keeps her seat (and her phone) from game to game
    late = {"game_no": old["game_no"]}
    for path, body in (("/api/dice", {"values": [6], "sides": [6], **late}),
                       ("/api/actions", {"seat": 0, "move": "rescue", "args": {}, **late}),
                       ("/api/undo", late),
                       ("/api/dice/correct", {"values": [5], "sides": [6], **late})):
        answer = server.refused(path, body, ann, status=409, code="table_moved_on")
        assert answer["message"].startswith("A new game has started since your phone showed the table"), answer
    now = server.api("GET", "/api/state", token=ann)[1]
    assert now["view"]["log"] and not any("rolled 6" in line for line in now["view"]["log"])
    status, snap = server.api("POST", "/api/dice", {"values": [6], "sides": [6], "game_no": now["game_no"]}, token=ann)
    assert status == 200, snap  # the same tap made on the new table goes in


def test_a_new_game_ends_one_under_way_only_when_the_host_names_it(companion_server: Any) -> None:
    server = companion_server
    ann, under_way = _three_rolls(server)
    other = {"game": "the-gate", "players": ["Cy", "Di"], "options": {}}
    for ends in ({}, {"ends_game": under_way["game_no"] - 1}, {"ends_game": under_way["game_no"] + 1}):
        answer = server.refused("/api/game", {**other, **ends}, server.host_token, status=409, code="game_in_progress")
        assert answer["message"] == ("The game of Through The Gate with Ann is not finished, so no new game was "
                                     "started: a new game would end it for good.")
    still = server.api("GET", "/api/state", token=ann)[1]
    assert (still["game_no"], still["view"]["log"]) == (under_way["game_no"], under_way["view"]["log"])
    status, started = server.api("POST", "/api/game", {**other, "ends_game": under_way["game_no"]}, token=server.host_token)
    assert status == 200 and started["game"] == "the-gate" and started["game_no"] == under_way["game_no"] + 1
    history = server.api("GET", "/api/history", token=server.host_token)[1]
    assert history[1]["id"] == under_way["game_no"] and history[1]["finished"] is None  # kept, as not finished


def test_a_game_nothing_has_happened_in_yet_is_replaced_without_asking(companion_server: Any) -> None:
    server = companion_server
    for players in (["Ann"], ["Ann", "Bob"]):  # the demo's own first game, then the host's mistyped one
        assert server.api("POST", "/api/game", {**GAME, "players": players}, token=server.host_token)[0] == 200
    assert server.api("GET", "/api/state", token=server.host_token)[1]["players"] == ["Ann", "Bob"]


def test_seen_numbers_must_be_whole_numbers(companion_server: Any) -> None:
    server = companion_server
    ann, snap = _three_rolls(server)
    for bad in ("1", 1.5, True, -1, [1]):
        server.refused("/api/dice", {"values": [3], "sides": [6], "game_no": bad}, ann, status=400, code="bad_input")
        server.refused("/api/dice/correct", {"values": [3], "sides": [6], "roll_seq": bad}, ann, status=400,
                       code="bad_input")
        server.refused("/api/game", {**GAME, "ends_game": bad}, server.host_token, status=400, code="bad_input")
