"""Every endpoint against the real companion (demo mode): statuses, error bodies, nothing changed
on a refusal, and every JSON response checked against the OpenAPI schemas."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

NEW_GAME = {"game": "through-the-gate", "players": ["Ann", "Bob"], "options": {"hourglasses": 2}}


@pytest.fixture
def table(companion_server, api_schemas):
    """The real companion with a fresh two-player game, and a checked JSON client."""
    class Table:
        server = companion_server
        host = companion_server.host_token

        def call(self, method, path, body=None, token=None, headers=None, *, doc_path=None, expect=None):
            status, answer = companion_server.api(method, path, body, token=token, headers=headers)
            if isinstance(answer, (dict, list)):
                api_schemas.check(method, doc_path or path, status, answer)
            if expect is not None:
                assert status == expect, (status, answer)
            return status, answer

        def seq(self):
            return self.call("GET", "/api/state", token=self.host, expect=200)[1]["seq"]

        def seat(self, seat):
            return companion_server.seat_token(seat)

    found = Table()
    found.call("POST", "/api/game", NEW_GAME, token=found.host, expect=200)
    return found


def refused_without_change(table, method, path, body, *, status, code, token=None, headers=None, doc_path=None):
    before = table.seq()
    got, answer = table.call(method, path, body, token=token, headers=headers, doc_path=doc_path)
    assert (got, answer["error"]) == (status, code), answer
    assert answer["message"].strip() and set(answer) - {"message_ko"} == {"error", "message"}
    assert table.seq() == before


def test_state_for_the_host_and_for_a_seat(table):
    _, host = table.call("GET", "/api/state", token=table.host, expect=200)
    _, bob = table.call("GET", "/api/state", token=table.seat(1), expect=200)
    assert host["you"] is None and bob["you"] == 1
    assert host["players"] == ["Ann", "Bob"] and host["game"] == "through-the-gate" and host["demo"] is True
    wait = host["awaiting_dice"]
    assert (wait["sides"], wait["why"], wait["seats"]) == ([6], "Ann rolls for first player.", [0]) and "why_ko" in wait
    assert {move["seat"] for move in bob["legal_moves"]} <= {1}
    assert {move["seat"] for move in host["legal_moves"]} == {0, 1}


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_reading_needs_a_token(table, token):
    for path in ("/api/state", "/api/history", "/api/events", "/api/crops/x.jpg"):
        status, answer = table.server.api("GET", path, token=token)
        assert status == 403 and answer["error"] == "forbidden", path


def test_actions(table):
    table.call("POST", "/api/dice", {"values": [5], "sides": [6]}, token=table.seat(0), expect=200)
    _, after = table.call("POST", "/api/dice", {"values": [2], "sides": [6]}, token=table.seat(1), expect=200)
    assert after["whose_turn"] == [0] and after["view"]["current"] == 0
    _, moved = table.call("POST", "/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 4}},
                          token=table.seat(0), expect=200)
    assert moved["you"] == 0 and moved["view"]["speed"] == 4 and moved["can_undo"] is True
    _, host_view = table.call("POST", "/api/actions", {"seat": 0, "move": "eclipse"}, token=table.host, expect=200)
    assert host_view["you"] is None and host_view["view"]["reverse_at_end"] is True


def test_refused_actions_change_nothing(table):
    table.call("POST", "/api/dice", {"values": [6], "sides": [6]}, token=table.seat(0), expect=200)
    table.call("POST", "/api/dice", {"values": [1], "sides": [6]}, token=table.seat(1), expect=200)
    act = "/api/actions"
    refused_without_change(table, "POST", act, {"seat": 1, "move": "end_turn"}, token=table.seat(1), status=409, code="not_your_turn")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "check", "args": {"kind": "item"}},
                           token=table.seat(0), status=409, code="illegal_move")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "fly"}, token=table.seat(0), status=400, code="bad_input")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "declare_speed", "args": {"speed": 9}},
                           token=table.seat(0), status=400, code="bad_input")
    _, malformed = table.call("POST", act, {"seat": 0, "move": "declare_speed", "args": {"speed": 9}}, token=table.seat(0))
    assert malformed["message_ko"].startswith("Speed: ") and "받은 값: 9" in malformed["message_ko"]  # the Korean page's
    for body in ({"seat": "0", "move": "end_turn"}, {"seat": 0}, {"seat": 0, "move": "end_turn", "args": []},
                 {"seat": 0, "move": "end_turn", "extra": 1}, {"seat": True, "move": "end_turn"}, [1, 2]):
        refused_without_change(table, "POST", act, body, token=table.seat(0), status=400, code="bad_input" if isinstance(body, dict) else "bad_json")
    refused_without_change(table, "POST", act, b"{not json", token=table.seat(0), status=400, code="bad_json")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "end_turn"}, token=table.seat(1), status=403, code="forbidden")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "end_turn"}, token="wrong", status=403, code="forbidden")
    refused_without_change(table, "POST", act, {"seat": 0, "move": "end_turn"}, status=403, code="forbidden")


def test_oversized_cross_site_and_non_json_writes_are_refused(table):
    act, body = "/api/actions", {"seat": 0, "move": "end_turn"}
    huge = json.dumps({"seat": 0, "move": "end_turn", "args": {"x": "y" * 17000}}).encode()
    refused_without_change(table, "POST", act, huge, token=table.host, status=413, code="too_large")
    refused_without_change(table, "POST", act, body, token=table.host, headers={"Sec-Fetch-Site": "cross-site"},
                           status=403, code="cross_site")
    refused_without_change(table, "POST", act, body, token=table.host, headers={"Origin": "http://attacker.example"},
                           status=403, code="cross_site")
    refused_without_change(table, "POST", act, b"seat=0&move=end_turn", token=table.host,
                           headers={"Content-Type": "application/x-www-form-urlencoded"}, status=403, code="json_required")
    refused_without_change(table, "POST", act, b"{}", token=table.host, headers={"Content-Type": "text/plain"},
                           status=403, code="json_required")


def test_rate_limit_per_address(table, raw):
    """Ten wrong tokens from 127.0.0.2 lock that address out (429, even with a right token); 127.0.0.1 goes on."""
    url = table.server.url
    for _ in range(10):
        status, _headers, _body = raw(url, "GET", "/api/state", None, {"Authorization": "Bearer guess"}, source="127.0.0.2")
        assert status == 403
    status, headers, body = raw(url, "GET", "/api/state", None, {"Authorization": f"Bearer {table.host}"}, source="127.0.0.2")
    assert status == 429 and json.loads(body)["error"] == "too_many_attempts" and headers["content-type"] == "application/json"
    join, _headers, _body = raw(url, "GET", f"/join?token={table.host}", None, {}, source="127.0.0.2")
    assert join == 429
    table.call("GET", "/api/state", token=table.host, expect=200)


def test_dice_by_hand_and_corrections(table):
    refused_without_change(table, "POST", "/api/dice", {"values": [3, 4], "sides": [6, 6]}, token=table.seat(0),
                           status=409, code="wrong_dice")
    refused_without_change(table, "POST", "/api/dice", {"values": [3], "sides": [8]}, token=table.seat(0),
                           status=409, code="wrong_dice")
    refused_without_change(table, "POST", "/api/dice", {"values": [7], "sides": [6]}, token=table.seat(0),
                           status=400, code="bad_input")
    refused_without_change(table, "POST", "/api/dice", {"values": [3], "sides": [6, 6]}, token=table.seat(0),
                           status=400, code="bad_input")
    refused_without_change(table, "POST", "/api/dice", {"values": ["3"], "sides": [6]}, token=table.seat(0),
                           status=400, code="bad_input")
    _, rolled = table.call("POST", "/api/dice", {"values": [3], "sides": [6]}, token=table.seat(0), expect=200)
    assert rolled["dice"]["values"] == [3] and rolled["dice"]["origins"] == ["phone"]
    _, fixed = table.call("POST", "/api/dice/correct", {"values": [4], "sides": [6]}, token=table.seat(0), expect=200)
    assert fixed["view"]["roll_off"]["rolls"] == [4] and "Roll corrected: 3 → 4." in fixed["view"]["log"]
    table.call("POST", "/api/dice", {"values": [1], "sides": [6]}, token=table.seat(1), expect=200)
    refused_without_change(table, "POST", "/api/dice", {"values": [2], "sides": [6]}, token=table.seat(1),
                           status=409, code="no_roll_expected")


def test_undo(table):
    refused_without_change(table, "POST", "/api/undo", {}, token=table.seat(0), status=409, code="nothing_to_undo")
    table.call("POST", "/api/dice", {"values": [6], "sides": [6]}, token=table.seat(0), expect=200)
    table.call("POST", "/api/dice", {"values": [1], "sides": [6]}, token=table.seat(1), expect=200)
    table.call("POST", "/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 3}}, token=table.seat(0), expect=200)
    refused_without_change(table, "POST", "/api/undo", {"seat": 0}, token=table.seat(0), status=400, code="bad_input")
    _, undone = table.call("POST", "/api/undo", {}, token=table.seat(0), expect=200)
    assert undone["view"]["speed"] is None and undone["can_undo"] is False


def test_press_in_demo_mode(table):
    refused_without_change(table, "POST", "/api/press", {"button": "launch"}, token=table.seat(0), status=400, code="bad_input")
    refused_without_change(table, "POST", "/api/press", {"button": "next"}, status=403, code="forbidden")
    table.call("POST", "/api/press", {"button": "next"}, token=table.seat(0), expect=200)  # acts later, on the loop


def test_games_new_game_and_history(table):
    _, games = table.call("GET", "/api/games", expect=200)
    gate = next(game for game in games if game["id"] == "through-the-gate")
    assert gate["min_players"] == 1 and gate["max_players"] == 5 and gate["options"]["type"] == "object"
    refused_without_change(table, "POST", "/api/game", NEW_GAME, token=table.seat(0), status=403, code="forbidden")
    refused_without_change(table, "POST", "/api/game", {**NEW_GAME, "game": "chess"}, token=table.host, status=400, code="unknown_game")
    refused_without_change(table, "POST", "/api/game", {**NEW_GAME, "players": ["Ann", "ann"]}, token=table.host,
                           status=400, code="bad_input")
    refused_without_change(table, "POST", "/api/game", {**NEW_GAME, "players": "Ann"}, token=table.host, status=400, code="bad_input")
    refused_without_change(table, "POST", "/api/game", {**NEW_GAME, "options": {"hourglasses": 0}}, token=table.host,
                           status=400, code="bad_input")
    _, snap = table.call("POST", "/api/game", {"game": "through-the-gate", "players": ["Cy", "Di", "Ed"]}, token=table.host, expect=200)
    assert snap["players"] == ["Cy", "Di", "Ed"] and snap["you"] is None
    _, history = table.call("GET", "/api/history", token=table.seat(1), expect=200)
    assert [past["players"] for past in history[:2]] == [["Cy", "Di", "Ed"], ["Ann", "Bob"]]


def test_reissue_a_seat_token(table):
    old = table.seat(1)
    refused_without_change(table, "POST", "/api/seats/1/token", {}, token=old, status=403, code="forbidden",
                           doc_path="/api/seats/{seat}/token")
    refused_without_change(table, "POST", "/api/seats/9/token", {}, token=table.host, status=404, code="not_found",
                           doc_path="/api/seats/{seat}/token")
    _, link = table.call("POST", "/api/seats/1/token", {}, token=table.host, expect=200, doc_path="/api/seats/{seat}/token")
    new = parse_qs(urlsplit(link["url"]).query)["token"][0]
    assert link["seat"] == 1 and new != old and link["url"].startswith("http://127.0.0.1:")
    assert table.server.api("GET", "/api/state", token=old)[0] == 403
    assert table.call("GET", "/api/state", token=new, expect=200)[1]["you"] == 1


def test_qr_codes_and_crops(table):
    status, svg = table.server.api("GET", "/api/seats/0/qr.svg", token=table.host)
    assert status == 200 and svg.startswith("<svg") and "<path" in svg
    assert table.server.api("GET", "/api/seats/0/qr.svg", token=table.seat(0))[0] == 403
    status, answer = table.call("GET", "/api/crops/nothing.jpg", token=table.seat(0), doc_path="/api/crops/{name}.jpg")
    assert status == 404 and answer["error"] == "not_found"


def test_unknown_addresses_and_methods_are_json(table):
    assert table.server.api("GET", "/api/nothing")[1]["error"] == "not_found"
    status, answer = table.server.api("GET", "/api/actions", token=table.host)
    assert status == 405 and answer["error"] == "method_not_allowed"


def test_openapi_document_is_served(table):
    status, served = table.call("GET", "/api/openapi.json", expect=200)
    assert served["openapi"].startswith("3.") and "/api/actions" in served["paths"]
