"""A whole game of Gateway (the city) through the HTTP API of the real companion (demo mode)."""
from __future__ import annotations

import time
from typing import Any

GAME = "gateway-city"
ARMY = [{"name": "Rebel", "attack": 2, "defence": 1}, {"name": "Rebel", "attack": 1, "defence": 1}]


def _refused(server: Any, token: str, seat: int, move: str, sentence: str, **args: Any) -> None:
    status, body = server.api("POST", "/api/actions", json={"seat": seat, "move": move, "args": args}, token=token)
    assert status == 409, body
    assert sentence in body["message"], body


def _next(server: Any, tokens: list[str], snap: dict[str, Any], times: int) -> dict[str, Any]:
    for _ in range(times):
        seat = snap["whose_turn"][0]
        status, mine = server.api("GET", "/api/state", token=tokens[seat])
        assert status == 200 and mine["you"] == seat
        assert any(entry["move"] == "next_phase" and entry["seat"] == seat for entry in mine["legal_moves"])
        snap = server.act(tokens[seat], seat, "next_phase")
    return snap


def _press_next(server: Any, snap: dict[str, Any]) -> dict[str, Any]:
    """The snapshot once the (virtual) NEXT button's move went through the engine loop."""
    status, _ = server.api("POST", "/api/press", json={"button": "next"}, token=server.host_token)
    assert status == 200
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        status, now = server.api("GET", "/api/state", token=server.host_token)
        assert now["message"] is None, now["message"]
        if now["view"]["log"] != snap["view"]["log"]:
            return now
        time.sleep(0.02)
    raise AssertionError("NEXT changed nothing")


def _start(server: Any) -> dict[str, Any]:
    options = {"event_cards_1": 1, "event_cards_2": 1, "event_cards_3": 0, "shuffle_tokens": False}
    status, snap = server.api("POST", "/api/game", json={"game": GAME, "players": ["Ann", "Bo"], "options": options},
                              token=server.host_token)
    assert status == 200, snap
    view = snap["view"]
    assert snap["game"] == GAME and snap["outcome"] is None and snap["whose_turn"] == [0]
    assert [district["controller"] for district in view["districts"]] == ["guard"] * 4
    assert view["districts"][0]["tokens"] == ["1", "5"] and view["districts"][2]["event_tokens"] == ["3"]
    assert [tier["left"] for tier in view["deck"]["tiers"]] == [1, 1, 0]
    assert view["round"] == 1 and view["phase"] == "deployment"
    return snap


def _round_one(server: Any, tokens: list[str], snap: dict[str, Any]) -> dict[str, Any]:
    _refused(server, tokens[0], 0, "attack", "Attack phase", district=1, army=ARMY)
    snap = _press_next(server, snap)
    assert snap["view"]["phase"] == "drafting"
    snap = _next(server, tokens, snap, 1)
    assert snap["view"]["phase"] == "attack"
    snap = server.act(tokens[0], 0, "attack", district=1, army=ARMY)
    preview = snap["view"]["battle"]
    assert preview["attacker"]["damage"] == 3 and preview["defender"]["damage"] == 2
    assert preview["result"]["taken"] and preview["result"]["attacker_vp"] == 1
    assert snap["view"]["districts"][0]["controller"] == "guard"
    _refused(server, tokens[0], 0, "next_phase", "fight it or call it off first")
    snap = server.act(tokens[0], 0, "fight")
    assert snap["view"]["districts"][0]["holder_name"] == "Ann"
    assert snap["view"]["players"][0]["vp"] == 1 and snap["view"]["last_battle"]["result"]["holder_name"] == "Ann"
    _refused(server, tokens[0], 0, "attack", "already attacked once", district=2, army=ARMY)
    snap = _next(server, tokens, snap, 2)
    assert snap["whose_turn"] == [1] and snap["view"]["phase"] == "deployment"
    snap = _next(server, tokens, snap, 2)
    _refused(server, tokens[1], 1, "attack", "Enter Ann's army", district=1, army=ARMY)
    snap = server.act(tokens[1], 1, "attack", district=1, army=ARMY, defending_army=[{"attack": 1, "defence": 2}])
    snap = server.act(tokens[1], 1, "fight")
    assert snap["view"]["districts"][0]["holder_name"] == "Bo" and snap["view"]["players"][1]["vp"] == 0
    snap = _next(server, tokens, snap, 2)
    assert snap["view"]["phase"] == "event" and snap["whose_turn"] == [0]
    return snap


def _event_one(server: Any, tokens: list[str], snap: dict[str, Any]) -> dict[str, Any]:
    _refused(server, tokens[1], 1, "draw_event", "The starting player, Ann")
    spawn = {"district": 1, "kind": "horde", "name": "Drueggar", "attack": 1, "defence": 2, "vp": 2}
    snap = server.act(tokens[0], 0, "draw_event", spawns=[spawn])
    assert snap["whose_turn"] == [1] and snap["view"]["battle"]["event"] and not snap["view"]["battle"]["ready"]
    assert snap["view"]["deck"]["left"] == 1 and snap["view"]["deck"]["next_tier"] == "II"
    snap = server.act(tokens[1], 1, "defend", army=ARMY)
    assert snap["view"]["battle"]["result"]["defender_vp"] == 2
    snap = server.act(tokens[1], 1, "fight")
    assert snap["view"]["players"][1]["vp"] == 2 and snap["view"]["districts"][0]["holder_name"] == "Bo"
    assert snap["view"]["round"] == 2 and snap["whose_turn"] == [0]
    return snap


def test_a_whole_game_through_the_http_api(companion_server: Any) -> None:
    server = companion_server
    started = _start(server)  # seats whose player changes get new links, so take them after the start
    tokens = [server.seat_token(0), server.seat_token(1)]
    snap = _round_one(server, tokens, started)
    snap = _event_one(server, tokens, snap)
    snap = _next(server, tokens, snap, 8)
    assert snap["view"]["phase"] == "event"
    snap = server.act(tokens[0], 0, "draw_event")
    outcome = snap["outcome"]
    assert outcome is not None and outcome["winners"] == [1]
    assert outcome["detail"]["reason"] == "event_deck_empty" and outcome["detail"]["vp"] == [1, 2]
    assert snap["view"]["messages"] == [outcome["summary"]] and snap["legal_moves"] == []
    status, body = server.api("POST", "/api/actions", json={"seat": 0, "move": "next_phase", "args": {}}, token=tokens[0])
    assert status == 409 and body["error"] == "game_over"
    status, history = server.api("GET", "/api/history", token=server.host_token)
    assert status == 200 and history[0]["outcome"]["winners"] == [1]


# --- the phone page, in Debian's headless chromium (`make browser` installs it) -----------------

def _phone(browser: Any, server: Any, token: str, errors: list[str]) -> Any:
    """A phone joined with this token: a page in its own browser context (its own cookie jar)."""
    page = browser.new_context(viewport={"width": 400, "height": 900}).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/join?token={token}")
    page.wait_for_selector("svg.gateway-districts", timeout=5000)
    return page


def test_the_phones_draw_the_table_and_enter_an_attack_and_an_event_battle(companion_server: Any, browser: Any) -> None:
    server = companion_server
    _start(server)
    tokens = [server.seat_token(0), server.seat_token(1)]
    snap = server.act(tokens[0], 0, "set_district", district=4, controller="player", player=1)
    _next(server, tokens, snap, 2)
    errors: list[str] = []
    try:
        ann = _phone(browser, server, tokens[0], errors)
        assert ann.locator("g.district").count() == 4
        ann.locator("g.district").nth(1).click()
        ann.locator("#gc-army-0-attack").fill("3")
        ann.get_by_role("button", name="Preview").click()
        ann.wait_for_selector(".gateway-battle.pending >> text=Ann takes District 2.", timeout=5000)
        ann.get_by_role("button", name="Fight!").click()
        ann.wait_for_selector(".gateway-battle:not(.pending) >> text=Ann earns 1 VP.", timeout=5000)
        snap = _next(server, tokens, server.api("GET", "/api/state", token=tokens[0])[1], 6)
        assert snap["view"]["phase"] == "event" and snap["view"]["players"][0]["vp"] == 1
        ann.get_by_role("button", name="+ card").click()
        ann.locator("#gc-spawn-0-district").select_option(index=3)
        ann.locator("#gc-spawn-0-vp").fill("2")
        ann.get_by_role("button", name="Record the event card").click()
        bo = _phone(browser, server, tokens[1], errors)
        bo.wait_for_selector("text=Defend the district", timeout=5000)
        bo.locator("#gc-defend-0-defence").fill("3")
        bo.get_by_role("button", name="Preview").click()
        bo.get_by_role("button", name="Fight!").click()
        bo.wait_for_selector("text=Bo earns 2 VP.", timeout=5000)
    finally:
        for context in browser.contexts:
            context.close()
    assert errors == []
    status, snap = server.api("GET", "/api/state", token=server.host_token)
    assert [player["vp"] for player in snap["view"]["players"]] == [1, 2]
    assert snap["view"]["round"] == 2 and snap["view"]["districts"][3]["holder_name"] == "Bo"
