"""The Gate (게이트): the first player, summoning, guardians, reinforcements and both languages (battles, closing
and the win: test_the_gate_battles.py)."""
from __future__ import annotations

from companion.games.the_gate import GAME
from companion.games.the_gate.state import Reinforcement
from companion.rules.inputs import Undo
from companion.rules.errors import NotYourTurn

from the_gate_table import HANGUL, act, attackers, gate_of, moves_of, play, playing, refused, set_gate, start


# --- the first player --------------------------------------------------------------------------
def test_the_coin_toss_is_reproducible_from_the_seed_and_logged() -> None:
    firsts = set()
    for seed in range(12):
        once = play(start(seed), act(1, "toss_coin"))
        again = play(start(seed), act(1, "toss_coin"))
        assert once == again
        state = once.state
        assert state.phase == "playing" and state.current == state.first == (0 if state.coin == "heads" else 1)
        assert any(f"Coin toss (the companion's seeded draw): {state.coin}" in line for line in state.log)
        firsts.add(state.first)
    assert firsts == {0, 1}


def test_the_table_can_choose_after_rock_paper_scissors() -> None:
    table = play(start(), act(0, "choose_first", player=1))
    assert table.state.current == 1 and GAME.whose_turn(table.state) == (1,)
    assert "Ben holds 1 summoner and draws 2; Ana holds 1 summoner and draws 5." in list(table.state.log)
    refused(table, act(0, "toss_coin"))


def test_nothing_is_played_before_the_first_player_is_chosen() -> None:
    table = start()
    assert GAME.whose_turn(table.state) == (0, 1)
    assert moves_of(table, 0) == moves_of(table, 1) == {"toss_coin", "choose_first"}
    refused(table, act(0, "summon", gate=1, level=2))


# --- summoning ---------------------------------------------------------------------------------
def test_summoning_raises_the_level_to_the_card_now_on_top() -> None:
    table = playing()
    assert gate_of(table, 0, 1).level == 2
    table = play(table, act(0, "summon", gate=1, level=2), act(0, "summon", gate=1, level=3))
    assert gate_of(table, 0, 1).level == 3 and gate_of(table, 0, 1).capacity == 3
    assert "lowest level on top" in refused(table, act(0, "summon", gate=1, level=2))


def test_after_the_level_4_character_the_last_card_cannot_be_summoned() -> None:
    table = play(playing(), act(0, "summon", gate=2, level=4))
    assert not gate_of(table, 0, 2).last_card_only
    table = play(table, act(0, "summon", gate=2, level=4))
    assert gate_of(table, 0, 2).last_card_only and gate_of(table, 0, 2).level == 4
    assert "last card" in refused(table, act(0, "summon", gate=2, level=4))


def test_summoning_from_a_closed_gate_raises_its_level_but_never_reopens_it() -> None:
    table = set_gate(playing(), 0, 3, damage=2, closed=True)
    table = play(table, act(0, "summon", gate=3, level=3))
    assert gate_of(table, 0, 3).closed and gate_of(table, 0, 3).level == 3


# --- guardians ---------------------------------------------------------------------------------
def test_a_guardian_is_placed_face_down_one_per_gate_and_hidden_from_the_opponent() -> None:
    table = play(playing(), act(0, "place_guardian", gate=1, defence=3))
    assert gate_of(table, 0, 1).guardian == 3
    own = GAME.view(table.state, 0)["players"][0]["gates"][0]["guardian"]
    other = GAME.view(table.state, 1)["players"][0]["gates"][0]["guardian"]
    public = GAME.view(table.state, None)["players"][0]["gates"][0]["guardian"]
    assert own == {"face_down": True, "defence": 3}
    assert other == public == {"face_down": True, "defence": None}
    assert "one per gate" in refused(table, act(0, "place_guardian", gate=1, defence=2))
    table = play(table, act(0, "swap_guardian", gate=1, defence=5))
    assert gate_of(table, 0, 1).guardian == 5


def test_guardian_refusals() -> None:
    table = set_gate(playing(), 0, 2, damage=2, closed=True)
    assert "closed" in refused(table, act(0, "place_guardian", gate=2, defence=2))
    assert "no guardian to swap" in refused(table, act(0, "swap_guardian", gate=1, defence=2))
    assert "without defence" in refused(table, act(0, "place_guardian", gate=1, defence=0))
    refused(table, act(1, "place_guardian", gate=1, defence=2), NotYourTurn)


# --- reinforcements ----------------------------------------------------------------------------
def test_reinforce_once_a_turn() -> None:
    table = play(playing(), act(0, "reinforce", gate=1, kind="gate", amount=2))
    assert gate_of(table, 0, 1).capacity == 4
    assert "reinforce" not in moves_of(table, 0)
    assert "once a turn" in refused(table, act(0, "reinforce", gate=2, kind="attack", amount=1))
    table = play(table, act(0, "end_turn"), act(1, "end_turn"))
    table = play(table, act(0, "reinforce", gate=2, kind="attack", amount=1))
    assert gate_of(table, 0, 2).reinforcements == (Reinforcement("attack", 1),)


def test_a_gate_holds_at_most_its_level_in_reinforcements() -> None:
    table = playing()
    for turn in range(2):
        table = play(table, act(0, "reinforce", gate=1, kind="defence", amount=turn), act(0, "end_turn"), act(1, "end_turn"))
    assert len(gate_of(table, 0, 1).reinforcements) == 2
    assert "at most 2 reinforcement cards" in refused(table, act(0, "reinforce", gate=1, kind="attack", amount=1))
    table = play(table, act(0, "summon", gate=1, level=3), act(0, "reinforce", gate=1, kind="attack", amount=1))
    assert len(gate_of(table, 0, 1).reinforcements) == 3


def test_a_closed_gate_cannot_be_reinforced() -> None:
    table = set_gate(playing(), 0, 4, damage=2, closed=True)
    assert "no longer be reinforced" in refused(table, act(0, "reinforce", gate=4, kind="gate", amount=1))


# --- both languages ----------------------------------------------------------------------------
def test_every_log_line_and_the_status_come_in_english_and_korean() -> None:
    table = play(playing(), act(0, "place_guardian", gate=1, defence=2), act(0, "reinforce", gate=1, kind="gate", amount=1),
                 act(0, "summon", gate=2, level=3), act(0, "attack", gate=1, attackers=attackers(5)), act(0, "clash"),
                 act(0, "end_turn"), act(1, "place_guardian", gate=4, defence=1), Undo())
    shown = GAME.view(table.state, 0)
    assert len(shown["log"]) > 8
    for line in shown["log"]:
        assert set(line) == {"en", "ko"} and line["en"] and HANGUL.search(line["ko"]), line
    assert shown["log"][-1] == {"en": "Last move taken back.", "ko": "마지막 행동을 되돌렸습니다."}
    assert shown["status"] == {"en": "Ben's turn.", "ko": "Ben의 턴."}
    assert shown["damage_to_win"] == 7 and shown["closed_to_win"] == 2
