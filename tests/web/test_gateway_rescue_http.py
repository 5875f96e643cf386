"""A whole game of Gateway (rescue the creatures) through the HTTP API of the real companion (demo mode)."""
from __future__ import annotations

import time
from typing import Any

GAME = "gateway-rescue"


def _roll(server: Any, token: str, values: list[int], sides: list[int]) -> dict[str, Any]:
    status, body = server.api("POST", "/api/dice", json={"values": values, "sides": sides}, token=token)
    assert status == 200, f"roll {values} refused: {body}"
    return body


def _start(server: Any) -> tuple[dict[str, Any], list[str]]:
    status, snap = server.api("POST", "/api/game", json={"game": GAME, "players": ["Ann", "Bo", "Cy"], "options": {}},
                              token=server.host_token)
    assert status == 200, snap
    assert snap["game"] == GAME and snap["outcome"] is None and snap["view"]["creatures_left"] == 6
    assert snap["awaiting_dice"]["sides"] == [6] and snap["awaiting_dice"]["seats"] == [0]
    return snap, [server.seat_token(seat) for seat in range(3)]


def _roll_off(server: Any, tokens: list[str]) -> dict[str, Any]:
    """Ann and Bo tie lowest on 3 and roll again; Bo's 2 beats Ann's 4, so Bo goes first."""
    for seat, value in ((0, 3), (1, 3), (2, 5)):
        snap = _roll(server, tokens[seat], [value], [6])
    assert snap["view"]["roll_off"] == {"contenders": [0, 1], "rolls": []}
    assert snap["awaiting_dice"]["seats"] == [0]
    _roll(server, tokens[0], [4], [6])
    snap = _roll(server, tokens[1], [2], [6])
    assert snap["view"]["phase"] == "playing" and snap["whose_turn"] == [1]
    assert "Bo rolled lowest and goes first." in snap["view"]["log"]
    return snap


def _turn(server: Any, tokens: list[str], snap: dict[str, Any], d8: int) -> dict[str, Any]:
    """The current player comes home through the portal, or tries a rescue with this D8."""
    seat = snap["whose_turn"][0]
    token = tokens[seat]
    if snap["view"]["players"][seat]["world"] == "creatures":
        status, body = server.api("POST", "/api/actions", json={"seat": seat, "move": "rescue", "args": {}}, token=token)
        assert status == 409 and body["error"] == "illegal_move" and "creatures' world" in body["message"], body
        server.act(token, seat, "move")
        snap = _roll(server, token, [5], [6])
        assert snap["view"]["allowance"] == 5
        snap = server.act(token, seat, "through_portal")
        player = snap["view"]["players"][seat]
        assert player["world"] == "home" and player["held_at_centre"]
        return snap
    snap = server.act(token, seat, "rescue")
    assert snap["awaiting_dice"]["sides"] == [8, 6]
    left = snap["view"]["creatures_left"]
    snap = _roll(server, token, [3, d8], [6, 8])
    last = snap["view"]["last_roll"]
    assert (last["d8"], last["d6"], last["d8_origin"], last["d6_origin"]) == (d8, 3, "phone", "phone")
    assert snap["view"]["creatures_left"] == left - (d8 in (1, 5))
    assert any(f"D8 {d8} (phone), D6 3 (phone)" in line for line in snap["view"]["log"])
    return snap


def test_a_whole_game_of_gateway_rescue(companion_server: Any) -> None:
    server = companion_server
    snap, tokens = _start(server)
    status, body = server.api("POST", "/api/actions", json={"seat": 0, "move": "move", "args": {}}, token=tokens[0])
    assert status == 409, body
    snap = _roll_off(server, tokens)

    status, body = server.api("POST", "/api/actions", json={"seat": 1, "move": "end_turn", "args": {}}, token=tokens[1])
    assert status == 409 and "action first" in body["message"], body
    status, body = server.api("POST", "/api/actions", json={"seat": 2, "move": "rescue", "args": {}}, token=tokens[2])
    assert status == 409 and body["error"] == "not_your_turn", body

    d8s = iter([2, 3, 4, 6, 7, 8, 1, 5, 1, 5, 1, 5] + [1] * 40)
    turns = 0
    while snap["outcome"] is None:
        snap = _turn(server, tokens, snap, next(d8s))
        turns += 1
        assert turns < 60
    outcome = snap["outcome"]
    rescues = [player["rescues"] for player in snap["view"]["players"]]
    assert sum(rescues) == 6 and snap["view"]["creatures_left"] == 0
    assert outcome["winners"] == [seat for seat, count in enumerate(rescues) if count == max(rescues)]
    assert outcome["detail"]["rescues"] == rescues
    assert snap["legal_moves"] == [] and snap["awaiting_dice"] is None

    status, body = server.api("POST", "/api/actions", json={"seat": 0, "move": "move", "args": {}}, token=tokens[0])
    assert status == 409 and body["error"] == "game_over", body


# --- the phone page, in Debian's headless chromium (`make browser` installs it) -----------------
def test_the_phone_shows_worlds_rescues_and_the_last_rescue_roll(companion_server: Any, browser: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    _roll_off(server, tokens)
    server.act(tokens[1], 1, "rescue")
    _roll(server, tokens[1], [8, 4], [8, 6])
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 400, "height": 900})
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/join?token={tokens[2]}")
        page.wait_for_selector("ul.gr-players", timeout=5000)
        assert page.locator("li.gr-player").count() == 3
        assert "creatures' world" in page.locator("li.gr-player").nth(1).inner_text()
        assert page.locator("li.gr-player.current").inner_text().startswith("▶ Cy")
        assert "Creatures still lost: 6 of 6" in page.locator(".gr-creatures").inner_text()
        last = page.locator(".gr-last").inner_text()
        assert "D8 8 (phone), D6 4 (phone)" in last and "creatures' world alone" in last
        assert page.locator("svg.gr-creature-marks circle").count() == 6
        page.get_by_role("button", name="Move (roll the D6)").click()
        page.wait_for_selector("text=Roll the D6 to move.", timeout=5000)
    finally:
        context.close()
    assert errors == []


def test_a_players_world_is_corrected_from_any_phone_and_the_rescue_follows_it(companion_server: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    _roll_off(server, tokens)
    server.act(tokens[1], 1, "rescue")
    snap = _roll(server, tokens[1], [3, 4], [6, 8])  # D8 4: Bo goes to the creatures' world alone; Cy's turn
    assert snap["view"]["players"][1]["world"] == "creatures" and snap["whose_turn"] == [2]
    snap = server.act(tokens[0], 0, "set_world", player=1, world="home")  # Ann's phone, out of turn
    assert snap["view"]["players"][1]["world"] == "home"
    assert snap["view"]["log"][-1] == "Corrected: Bo is in the players' world, not the creatures' world."
    again = {"seat": 2, "move": "set_world", "args": {"player": 1, "world": "home"}}
    body = server.refused("/api/actions", again, tokens[2], status=409, code="illegal_move")
    assert body["message"] == "Bo is already in the players' world: there is nothing to correct."
    server.act(server.host_token, 2, "set_world", player=2, world="creatures")  # the host, for Cy
    body = server.refused("/api/actions", {"seat": 2, "move": "rescue", "args": {}}, tokens[2], status=409)
    assert "Cy is in the creatures' world" in body["message"], body


def test_the_phone_corrects_where_a_player_is_in_a_fold(companion_server: Any, browser: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    _roll_off(server, tokens)
    server.act(tokens[1], 1, "rescue")
    _roll(server, tokens[1], [8, 4], [8, 6])  # Bo goes to the creatures' world alone
    context = browser.new_context(viewport={"width": 400, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/join?token={tokens[0]}")  # Ann's phone: not her turn
        page.wait_for_selector("details.gr-correct", timeout=5000)
        assert page.get_by_role("button", name="Correct where a player is").count() == 0  # not among the moves
        page.locator("details.gr-correct summary").click()
        page.locator("#f-gr-correct-player").select_option(label="Bo")
        page.locator("#f-gr-correct-world").select_option(label="players' world")
        page.locator("details.gr-correct button[type=submit]").click()
        page.wait_for_selector("text=Corrected: Bo is in the players' world, not the creatures' world.", timeout=5000)
        assert "players' world" in page.locator("li.gr-player").nth(1).inner_text()
    finally:
        context.close()
    _, snap = server.api("GET", "/api/state", token=tokens[0])
    assert snap["view"]["players"][1]["world"] == "home"


def test_the_camera_reads_the_d6_and_a_phone_enters_the_d8(companion_server: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    snap = _roll_off(server, tokens)
    server.act(tokens[1], 1, "rescue")
    snap = _half_read(server, tokens[1])
    # not "read" (a green "got it" at the box): half the roll is still to be entered
    assert snap["lights"]["status"] == "read_part" and "enter the d8 by hand" in snap["message"], snap["camera"]
    assert snap["awaiting_dice"]["sides"] == [8, 6]
    snap = _roll(server, tokens[1], [5], [8])
    last = snap["view"]["last_roll"]
    assert (last["d8"], last["d8_origin"], last["d6_origin"]) == (5, "phone", "camera")
    assert any(f"D8 5 (phone), D6 {last['d6']} (camera) — rescued!" in line for line in snap["view"]["log"])
    assert (snap["camera"]["status"], snap["lights"]["status"]) == ("read_ok", "read_ok")  # now it is all read
    assert snap["camera"]["message"] == f"Read d6 {last['d6']}, d8 5."


def test_a_half_read_roll_that_is_undone_leaves_the_camera_ready(companion_server: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    _roll_off(server, tokens)
    server.act(tokens[1], 1, "rescue")
    assert _half_read(server, tokens[1])["camera"]["status"] == "read_part"
    status, snap = server.api("POST", "/api/undo", json={}, token=tokens[1])
    assert status == 200, snap
    assert (snap["camera"]["status"], snap["lights"]["status"]) == ("ready", "ready")  # its half roll is gone


def _half_read(server: Any, token: str) -> dict[str, Any]:
    """Presses ROLL until the camera has read the d6 of a d6 + d8 roll (the demo camera may ask again)."""
    for _ in range(3):  # a throw the reader is not sure of asks for a re-roll, as at the table: press ROLL again
        snap = _press_roll_and_wait(server, token)
        if snap["camera"]["status"] == "read_part":
            break
    assert snap["camera"]["status"] == "read_part", snap["camera"]
    return snap


def _press_roll_and_wait(server: Any, token: str) -> dict[str, Any]:
    """Presses ROLL (the demo camera throws) and returns the state once the camera has ruled or asked again."""
    _, before = server.api("GET", "/api/state", token=token)
    status, _ = server.api("POST", "/api/press", json={"button": "roll"}, token=server.host_token)
    assert status == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status, snap = server.api("GET", "/api/state", token=token)
        if snap["seq"] > before["seq"] and snap["camera"]["status"] in ("read_ok", "read_part", "reroll", "wrong_count"):
            return snap
        time.sleep(0.05)
    return snap


def test_a_mistyped_d8_that_ended_the_game_is_corrected_and_the_game_goes_on(start_server: Any) -> None:
    server = start_server()
    game = {"game": GAME, "players": ["Ann", "Bo"], "options": {"creatures": 1}}
    assert server.api("POST", "/api/game", json=game, token=server.host_token)[0] == 200
    ann, bo = server.seat_token(0), server.seat_token(1)
    _roll(server, ann, [1], [6])
    _roll(server, bo, [2], [6])  # Ann rolled lowest and goes first
    server.act(ann, 0, "rescue")
    over = _roll(server, ann, [3, 1], [6, 8])  # the D8 shows 2; Ann typed 1: the last creature "rescued"
    assert over["outcome"] is not None and over["can_correct"] is True
    assert server.api("GET", "/api/history", token=server.host_token)[1][0]["finished"] is not None
    status, fixed = server.api("POST", "/api/dice/correct", json={"values": [3, 2], "sides": [6, 8]}, token=ann)
    assert status == 200, fixed
    assert fixed["outcome"] is None and fixed["view"]["creatures_left"] == 1 and fixed["whose_turn"], fixed["whose_turn"]
    past = server.api("GET", "/api/history", token=server.host_token)[1][0]
    assert (past["finished"], past["outcome"]) == (None, None)  # the history no longer says the game ended
    server.companion.stop()
    again = start_server().api("GET", "/api/state", token=server.host_token)[1]  # a restart replays the correction
    assert again["outcome"] is None and again["view"]["creatures_left"] == 1
