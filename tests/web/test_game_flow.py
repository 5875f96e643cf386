"""A whole game of Through The Gate played through the HTTP API of the real companion, each seat
acting from its own phone token: roll-off with a tie, speeds, an item check with a modifier, a
three-roll check with a re-roll, an eclipse, hourglasses running out, tallies, scoring, result."""
from __future__ import annotations

from typing import Any


class Phones:
    """Each seat's phone (its own token) and the host's, all talking HTTP to the real server."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def token(self, seat: int | None) -> str:
        return self.server.host_token if seat is None else self.server.seat_token(seat)

    def post(self, path: str, body: Any, seat: int | None) -> dict[str, Any]:
        status, answer = self.server.api("POST", path, body, token=self.token(seat))
        assert status == 200, (path, body, answer)
        return answer

    def act(self, seat: int, move: str, **args: Any) -> dict[str, Any]:
        return self.post("/api/actions", {"seat": seat, "move": move, "args": args}, seat)

    def roll(self, seat: int, value: int) -> dict[str, Any]:
        return self.post("/api/dice", {"values": [value], "sides": [6]}, seat)


def hourglasses(snapshot: dict[str, Any]) -> list[int]:
    return [player["hourglasses"] for player in snapshot["view"]["players"]]


def test_a_whole_game_of_through_the_gate(companion_server):
    phones = Phones(companion_server)
    ann, bob, cy = 0, 1, 2
    snap = phones.post("/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob", "Cy"],
                                     "options": {"variant": "competitive", "hourglasses": 2}}, None)
    assert snap["awaiting_dice"]["why"] == "Ann rolls for first player."

    # Roll-off: Ann and Bob tie on 5 and roll again; Bob wins and starts (one hourglass spent).
    phones.roll(ann, 5)
    phones.roll(bob, 5)
    snap = phones.roll(cy, 2)
    assert "Ann and Bob tied on 5: they roll again." in snap["view"]["log"]
    assert snap["view"]["roll_off"] == {"contenders": [0, 1], "rolls": []}
    phones.roll(ann, 3)
    snap = phones.roll(bob, 6)
    assert snap["whose_turn"] == [bob] and hourglasses(snap) == [2, 1, 2]
    assert snap["awaiting_dice"] is None and snap["view"]["direction"].startswith("left")

    # Bob: speed 4, an item check with the Brooch of Alertness (+2) on the die: 3 + 2 = 5 keeps it.
    phones.act(bob, "declare_speed", speed=4)
    phones.act(bob, "check", kind="item")
    phones.act(bob, "modify", card="brooch_of_alertness")
    snap = phones.roll(bob, 3)
    check = snap["view"]["check"]
    assert check["dice"] == [{"raw": 3, "modifier": 2, "value": 5}] and check["passed"] is True
    assert check["verdict"] == "Rolled 3 + 2 = 5 against speed 4: the item is kept."
    snap = phones.act(bob, "end_turn")
    assert snap["whose_turn"] == [cy] and hourglasses(snap) == [2, 1, 1]

    # Cy: speed 5, three rolls (2, 6, 4: two failures), Silver Apples re-rolls the first die (5),
    # then an Eclipse: play reverses at the end of the turn.
    phones.act(cy, "declare_speed", speed=5)
    phones.act(cy, "check", kind="three_less")
    for value in (2, 6, 4):
        snap = phones.roll(cy, value)
    assert snap["view"]["check"]["verdict"] == "Rolled 2, 6, 4 against speed 5: 2 failures — discard 2 cards."
    snap = phones.act(cy, "reroll", die=1)
    assert snap["awaiting_dice"]["seats"] == [cy]
    snap = phones.roll(cy, 5)
    assert snap["view"]["check"]["verdict"] == "Rolled 5, 6, 4 against speed 5: 1 failure — discard 1 card."
    assert snap["view"]["check"]["failures"] == 1
    snap = phones.act(cy, "eclipse")
    assert snap["view"]["reverse_at_end"] is True
    snap = phones.act(cy, "end_turn")
    assert "Play reverses direction." in snap["view"]["log"] and snap["view"]["direction"].startswith("right")
    assert snap["whose_turn"] == [bob] and hourglasses(snap) == [2, 0, 1]

    # Bob: a random pick (seeded, journaled), and Ann loses both her hourglasses: her turn is skipped.
    phones.act(bob, "declare_speed", speed=2)
    snap = phones.act(bob, "pick_random_player")
    assert snap["view"]["random_pick"] in (0, 1, 2)
    phones.act(bob, "lose_hourglass", player=ann)
    snap = phones.act(bob, "lose_hourglass", player=ann)
    assert hourglasses(snap) == [0, 0, 1]
    snap = phones.act(bob, "end_turn")
    assert "Ann has no hourglass: the turn is over at once." in snap["view"]["log"]
    assert snap["whose_turn"] == [cy] and hourglasses(snap) == [0, 0, 0]

    # Cy, the last hourglass: speed 6, "roll < speed?": 2 < 6, yes; then nobody has time left.
    phones.act(cy, "declare_speed", speed=6)
    phones.act(cy, "check", kind="less")
    snap = phones.roll(cy, 2)
    assert snap["view"]["check"]["verdict"] == "Rolled 2 against speed 6: 2 < 6? yes."
    snap = phones.act(cy, "end_turn")
    assert snap["view"]["log"][-1].startswith("Nobody has an hourglass left")
    assert snap["view"]["phase"] == "scoring" and snap["whose_turn"] == [0, 1, 2]

    # Tallies from each diary; Bob places his wild on strength; both Bob and Cy take two victories.
    phones.act(ann, "set_tallies", compassion=3, strength=1, wisdom=0, wild=0, companions=1, diary=6)
    phones.act(bob, "set_tallies", compassion=1, strength=3, wisdom=2, wild=1, companions=0, diary=8)
    phones.act(cy, "set_tallies", compassion=0, strength=0, wisdom=4, wild=0, companions=2, diary=5)
    snap = phones.act(bob, "choose_wilds", compassion=0, strength=1, wisdom=0)
    scoring = snap["view"]["scoring"]
    assert scoring["victories"] == [["diplomat"], ["knight", "explorer"], ["scholar", "leadership"]]
    assert scoring["totals"][1]["strength"] == 4 and scoring["wilds"][1] == [0, 1, 0]
    assert scoring["leaders"] == [1, 2]

    snap = phones.act(ann, "finish_scoring")
    assert snap["outcome"]["winners"] == [1, 2]
    assert snap["outcome"]["summary"] == "Bob and Cy win with 2 victories."
    assert snap["outcome"]["detail"]["summary_ko"] == "Bob, Cy 공동 승리: 승리 칭호 2개."
    assert "tie" in snap["outcome"]["detail"]["tie_rule"].lower()
    assert snap["legal_moves"] == [] and snap["lights"]["buzz"] is True

    status, refused = companion_server.api("POST", "/api/actions", {"seat": 0, "move": "end_turn"},
                                           token=phones.token(ann))
    assert status == 409 and refused["error"] == "game_over"
    status, history = companion_server.api("GET", "/api/history", token=phones.token(cy))
    assert history[0]["players"] == ["Ann", "Bob", "Cy"] and history[0]["outcome"]["winners"] == [1, 2]
