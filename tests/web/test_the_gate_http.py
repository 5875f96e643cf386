"""A whole game of The Gate (게이트) through the HTTP API of the real companion (demo mode)."""
from __future__ import annotations

import re
from typing import Any

GAME = "the-gate"
HANGUL = re.compile("[가-힣]")


def _refused(server: Any, token: str, seat: int, move: str, sentence: str, **args: Any) -> None:
    status, body = server.api("POST", "/api/actions", json={"seat": seat, "move": move, "args": args}, token=token)
    assert status == 409 and body["error"] in ("illegal_move", "not_your_turn"), body
    assert sentence in body["message"] and HANGUL.search(body["message_ko"]), body


def _gate(snap: dict[str, Any], seat: int, number: int) -> dict[str, Any]:
    return snap["view"]["players"][seat]["gates"][number - 1]


def _start(server: Any) -> tuple[dict[str, Any], list[str]]:
    status, snap = server.api("POST", "/api/game", json={"game": GAME, "players": ["Ann", "Bo"], "options": {}},
                              token=server.host_token)
    assert status == 200, snap
    assert snap["game"] == GAME and snap["outcome"] is None and sorted(snap["whose_turn"]) == [0, 1]
    assert {entry["move"] for entry in snap["legal_moves"]} == {"toss_coin", "choose_first"}
    assert [gate["level"] for gate in snap["view"]["players"][0]["gates"]] == [2, 2, 2, 2]
    return snap, [server.seat_token(seat) for seat in range(2)]


def test_a_whole_game_of_the_gate(companion_server: Any) -> None:
    server = companion_server
    snap, tokens = _start(server)
    snap = server.act(tokens[1], 1, "toss_coin")
    first = snap["view"]["first"]
    second = 1 - first
    assert snap["whose_turn"] == [first] and snap["view"]["coin"] in ("heads", "tails")
    assert first == (0 if snap["view"]["coin"] == "heads" else 1)
    _refused(server, tokens[second], second, "toss_coin", "already chosen")

    # The first player guards and reinforces gate 1 and summons from gate 2.
    server.act(tokens[first], first, "place_guardian", gate=1, defence=2)
    server.act(tokens[first], first, "reinforce", gate=1, kind="gate", amount=1)
    _refused(server, tokens[first], first, "reinforce", "once a turn", gate=2, kind="attack", amount=1)
    snap = server.act(tokens[first], first, "summon", gate=2, level=3)
    assert _gate(snap, first, 1)["capacity"] == 3 and _gate(snap, first, 2)["level"] == 3
    status, theirs = server.api("GET", "/api/state", token=tokens[second])
    assert status == 200 and _gate(theirs, first, 1)["guardian"] == {"face_down": True, "defence": None}
    status, mine = server.api("GET", "/api/state", token=tokens[first])
    assert _gate(mine, first, 1)["guardian"] == {"face_down": True, "defence": 2}
    server.act(tokens[first], first, "end_turn")

    # The second player attacks gate 1: 6 against guardian 2 + level 2, and removes the reinforcement.
    _refused(server, tokens[second], second, "attack", "At most 3", gate=1, attackers=[{"attack": 1}] * 4)
    _refused(server, tokens[second], second, "attack", "attack 0", gate=1, attackers=[{"attack": 0}])
    snap = server.act(tokens[second], second, "attack", gate=1, attackers=[{"attack": 3, "bonus": 1}, {"attack": 2}])
    battle = snap["view"]["battle"]
    assert (battle["attack_total"], battle["guardian_defence"], battle["defence_total"]) == (6, 2, 4)
    _refused(server, tokens[second], second, "end_turn", "Finish the battle")
    snap = server.act(tokens[second], second, "clash")
    assert snap["view"]["battle"]["won"]
    snap = server.act(tokens[second], second, "remove_reinforcement", card=1)
    assert _gate(snap, first, 1)["reinforcements"] == [] and _gate(snap, first, 1)["guardian"] is None
    assert _gate(snap, first, 1)["damage"] == 0 and snap["view"]["battle"] is None
    _refused(server, tokens[second], second, "attack", "already attacked", gate=1, attackers=[{"attack": 9}])
    snap = server.act(tokens[second], second, "attack", gate=2, attackers=[{"attack": 4}])
    snap = server.act(tokens[second], second, "clash")
    assert _gate(snap, first, 2)["damage"] == 1
    server.act(tokens[second], second, "end_turn")
    server.act(tokens[first], first, "end_turn")

    # Two of the first player's gates close: the second player wins at once.
    for number in (1, 3):
        server.act(tokens[second], second, "attack", gate=number, attackers=[{"attack": 9}])
        snap = server.act(tokens[second], second, "clash")
    server.act(tokens[second], second, "end_turn")
    server.act(tokens[first], first, "end_turn")
    snap = server.act(tokens[second], second, "attack", gate=1, attackers=[{"attack": 9}])
    snap = server.act(tokens[second], second, "clash")
    assert _gate(snap, first, 1)["closed"] and snap["view"]["players"][first]["closed_gates"] == 1
    assert snap["outcome"] is None
    _refused(server, tokens[second], second, "attack", "closed", gate=1, attackers=[{"attack": 9}])
    server.act(tokens[second], second, "attack", gate=3, attackers=[{"attack": 9}])
    snap = server.act(tokens[second], second, "clash")

    outcome = snap["outcome"]
    assert outcome["winners"] == [second] and outcome["detail"]["reason"] == "closed"
    assert outcome["detail"]["closed_gates"][first] == 2 and HANGUL.search(outcome["detail"]["summary_ko"])
    assert snap["legal_moves"] == [] and snap["view"]["winner"] == second
    assert all(set(line) == {"en", "ko"} and HANGUL.search(line["ko"]) for line in snap["view"]["log"])
    status, body = server.api("POST", "/api/actions", json={"seat": first, "move": "end_turn", "args": {}}, token=tokens[first])
    assert status == 409 and body["error"] == "game_over", body


# --- the phone page, in Debian's headless chromium (`make browser` installs it) -----------------
def test_the_phone_shows_both_players_gates_in_korean_and_sends_an_attack(companion_server: Any, browser: Any) -> None:
    server = companion_server
    _, tokens = _start(server)
    server.act(tokens[0], 0, "choose_first", player=1)
    server.act(tokens[1], 1, "place_guardian", gate=2, defence=3)
    server.act(tokens[1], 1, "reinforce", gate=2, kind="gate", amount=1)
    server.act(tokens[1], 1, "end_turn")
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 400, "height": 900})
    try:
        context.add_init_script("localStorage.setItem('companion.lang', 'ko')")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/join?token={tokens[0]}")
        page.wait_for_selector("form.tg-attack", timeout=5000)
        assert page.locator("li.tg-gate").count() == 8
        assert "Ann의 턴." in page.locator(".tg-status").inner_text()
        bo = page.locator(".tg-summoner").first.inner_text()
        assert "받은 데미지: 0 / 7" in bo and "폐문된 게이트: 0 / 2" in bo
        assert "게이트 +1" in bo and "뒷면" in bo and "방어력 3" not in bo
        page.select_option("#tg-attack-gate", "2")
        page.fill("#tg-attack-0", "4")
        page.fill("#tg-attack-1", "2")
        page.fill("#tg-bonus-1", "1")
        page.locator("form.tg-attack button[type=submit]").click()
        page.wait_for_selector(".tg-battle", timeout=5000)
        battle = page.locator(".tg-battle").inner_text()
        assert "공격력 7" in battle and "방어력 5 (가디언 3 + 레벨 2)" in battle
        page.get_by_role("button", name="충돌").click()
        page.wait_for_selector(".tg-battle.won", timeout=5000)
    finally:
        context.close()
    assert errors == []
    status, snap = server.api("GET", "/api/state", token=tokens[0])
    assert snap["view"]["battle"]["won"] and {entry["move"] for entry in snap["legal_moves"]} == {"deal_damage", "remove_reinforcement"}
