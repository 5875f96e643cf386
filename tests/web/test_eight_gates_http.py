"""Whole games of 8 Gates through the HTTP API of the real companion (demo mode, real journal)."""
from __future__ import annotations

from typing import Any

import pytest

GAME = "eight-gates"


def _start(server: Any, players: list[str]) -> dict[str, Any]:
    status, snap = server.api("POST", "/api/game", json={"game": GAME, "players": players, "options": {}},
                              token=server.host_token)
    assert status == 200, snap
    assert snap["game"] == GAME and snap["outcome"] is None and snap["view"]["phase"] == "archivist"
    return snap


def _play_turn(server: Any, snap: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    """The current player (on their own phone) plays a Gate on a legal cell and ends the turn."""
    seat = snap["whose_turn"][0]
    status, snap = server.api("GET", "/api/state", token=tokens[seat])
    assert status == 200 and snap["you"] == seat
    view = snap["view"]
    assert view["current"] == seat
    moves = {entry["move"] for entry in snap["legal_moves"] if entry["seat"] == seat}
    assert "place_gate" in moves and "end_turn" not in moves
    cell = view["legal_cells"][0]
    value = 1 + view["turn"] % 6
    snap = server.act(tokens[seat], seat, "place_gate", x=cell["x"], y=cell["y"], value=value)
    placed = [gate for gate in snap["view"]["middle"] if (gate["x"], gate["y"]) == (cell["x"], cell["y"])]
    assert placed == [{"x": cell["x"], "y": cell["y"], "value": value, "type": None, "ruins": False}]
    return server.act(tokens[seat], seat, "end_turn")


def _play_until_the_end(server: Any, snap: dict[str, Any], tokens: list[str], rounds: int) -> dict[str, Any]:
    archivist = snap["view"]["archivist"]
    archivist_turns = 0
    while snap["view"]["phase"] == "playing":
        view = snap["view"]
        assert view["round_text"] == f"Round {archivist_turns + 1} of {rounds}"
        assert (view["warning"] is not None) == (archivist_turns + 1 >= rounds - 1)
        assert snap["lights"]["seats"] == [seat == view["current"] for seat in range(len(tokens))]
        was_archivist = view["current"] == archivist
        snap = _play_turn(server, snap, tokens)
        archivist_turns += was_archivist
        assert (snap["view"]["phase"] == "reveal") == (archivist_turns == rounds)
    assert archivist_turns == rounds and snap["view"]["face_down"] == rounds
    assert snap["view"]["turn"] == rounds * len(tokens)
    return snap


@pytest.mark.parametrize(("players", "rounds"), [(["Ann", "Bo", "Cy"], 5), (["Ann", "Bo", "Cy", "Di"], 4)])
def test_a_whole_game_ends_exactly_after_the_archivists_last_turn(companion_server: Any, players: list[str],
                                                                   rounds: int) -> None:
    server = companion_server
    snap = _start(server, players)
    tokens = [server.seat_token(seat) for seat in range(len(players))]
    host = server.host_token
    if len(players) == 3:
        snap = server.act(host, 0, "deal", values=[5, 5, 2])
        assert snap["view"]["archivist_draw"]["contenders"] == [0, 1] and snap["whose_turn"] == [0, 1]
        snap = server.act(host, 0, "deal", values=[3, 6])
        archivist = 1
    else:
        snap = server.act(host, 0, "choose_archivist", seat=3)
        archivist = 3
    view = snap["view"]
    assert view["archivist"] == archivist and view["phase"] == "opening" and snap["whose_turn"] == [archivist]
    assert [player["hand_size"] for player in view["players"]] == [1 if seat == archivist else 2 for seat in range(len(players))]

    snap = server.act(tokens[archivist], archivist, "starting_gates", values=[2, 4, 2])
    assert snap["whose_turn"] == [(archivist + 1) % len(players)]
    assert len(snap["view"]["legal_cells"]) == 8

    status, refusal = server.api("POST", "/api/actions", token=tokens[snap["whose_turn"][0]],
                                 json={"seat": snap["whose_turn"][0], "move": "place_gate", "args": {"x": 1, "y": 0, "value": 3}})
    assert status == 409 and refusal["error"] == "illegal_move" and "already holds" in refusal["message"]

    snap = _play_until_the_end(server, snap, tokens, rounds)
    assert sorted(snap["whose_turn"]) == list(range(len(players)))
    assert snap["outcome"] is None

    status, refusal = server.api("POST", "/api/actions", token=tokens[0],
                                 json={"seat": 0, "move": "reveal", "args": {"values": [1, 3]}})
    assert status == 409 and "neither a Run" in refusal["message"]
    held = snap["view"]["players"][0]["hand_size"]  # Ann's last Gate said "draw 1"; the turn was ended before it was entered
    status, refusal = server.api("POST", "/api/actions", token=tokens[0],
                                 json={"seat": 0, "move": "reveal", "args": {"values": [5] * (held + 1)}})
    assert status == 409 and refusal["message"].startswith(f"The companion counts {held} cards in Ann's hand, not {held + 1}.")
    snap = server.act(tokens[0], 0, "draw_cards", cards=1)
    snap = server.act(tokens[0], 0, "reveal", values=[5] * (held + 1))
    assert snap["view"]["players"][0]["revealed"] == [5] * (held + 1)
    for seat in range(1, len(players) - 1):
        snap = server.act(tokens[seat], seat, "reveal", values=[seat + 1] * min(2, seat + 1))
    last = len(players) - 1
    snap = server.act(tokens[last], last, "enter_hand", hand=[2, 3, 4, 4])
    assert snap["view"]["players"][last]["proposal"] == [2, 3, 4]
    snap = server.act(tokens[last], last, "accept_proposal")

    outcome = snap["outcome"]
    assert outcome is not None and snap["legal_moves"] == []
    view = snap["view"]
    totals = [row["total"] for row in view["scoresheet"]["rows"]]
    assert totals == [player["points"] for player in view["players"]] == outcome["detail"]["totals"]
    assert view["scoresheet"]["rows"][last]["reveal"] == 12
    series = view["result"]["series"]
    assert series["labels"] == ["start", *map(str, range(1, rounds * len(players) + 1)), "end"]
    assert [points[-1] for points in series["players"]] == totals
    assert set(outcome["winners"]) <= set(range(len(players))) and max(totals) == totals[outcome["winners"][0]]

    status, refusal = server.api("POST", "/api/actions", token=tokens[0], json={"seat": 0, "move": "end_turn", "args": {}})
    assert status == 409 and refusal["error"] == "game_over"
