"""The Gate (게이트): the first player, gates, guardians, reinforcements, battles, closing and the win."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from typing import Any

import pytest

from companion.games.the_gate import GAME
from companion.games.the_gate.gates import with_gate
from companion.games.the_gate.state import Reinforcement
from companion.rules.inputs import Input, Move, StartGame, Undo
from companion.rules.said import korean
from companion.rules import engine
from companion.rules.errors import BadInput, GameOver, IllegalMove, NotYourTurn
from companion.rules.table import Table

HANGUL = re.compile("[가-힣]")


def start(seed: int = 3, **options: Any) -> Table:
    """A new game of The Gate between Ana (seat 0) and Ben (seat 1)."""
    return engine.start(GAME, StartGame(GAME.id, ("Ana", "Ben"), options, seed=seed))


def act(seat: int, move: str, **args: Any) -> Move:
    """A move."""
    return Move(seat, move, args)


def play(table: Table, *inputs: Input) -> Table:
    """The table after the inputs, each accepted."""
    for given in inputs:
        table = engine.apply(table, GAME, given)
    return table


def playing(**options: Any) -> Table:
    """A game where Ana goes first (chosen after rock–paper–scissors)."""
    return play(start(**options), act(0, "choose_first", player=0))


def refused(table: Table, given: Input, error: type[IllegalMove] = IllegalMove) -> str:
    """The refusal's English sentence (it has its Korean twin), after checking the table did not change."""
    before = copy.deepcopy(table)
    with pytest.raises(error) as caught:
        engine.apply(table, GAME, given)
    assert table == before
    english, twin = caught.value.message, korean(caught.value.message)
    assert english.strip() and twin is not None and HANGUL.search(twin), caught.value.message
    return english


def attackers(*values: int) -> list[dict[str, int]]:
    """Attackers with these attack values and no bonus."""
    return [{"attack": value} for value in values]


def gate_of(table: Table, seat: int, number: int) -> Any:
    """A player's gate, 1–4."""
    return table.state.gate(seat, number)


def set_gate(table: Table, seat: int, number: int, **changes: Any) -> Table:
    """The table with one gate changed (to set up a position quickly)."""
    state = with_gate(table.state, seat, number, replace(gate_of(table, seat, number), **changes))
    return replace(table, state=state)


def moves_of(table: Table, seat: int) -> set[str]:
    """The names of the moves a seat may make now."""
    return {entry["move"] for entry in engine.legal_moves(table, GAME) if entry["seat"] == seat}


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


# --- battles -----------------------------------------------------------------------------------
def test_attack_above_guardian_plus_level_deals_1_damage_and_discards_the_guardian() -> None:
    table = play(playing(), act(0, "end_turn"), act(1, "place_guardian", gate=2, defence=3), act(1, "end_turn"))
    table = play(table, act(0, "attack", gate=2, attackers=[{"attack": 2, "bonus": 1}, {"attack": 2}]))
    battle = GAME.view(table.state, 0)["battle"]
    assert (battle["attack_total"], battle["guardian_defence"], battle["defence_total"]) == (5, 3, 5)
    table = play(table, act(0, "ability", side="attack", amount=1), act(0, "clash"))
    assert gate_of(table, 1, 2).damage == 1 and gate_of(table, 1, 2).guardian is None
    assert table.state.battle is None
    assert any("Clash: attack 6 against defence 5 (guardian 3 + level 2)." == line for line in table.state.log)


def test_attack_equal_to_the_defence_does_nothing_but_the_guardian_is_still_discarded() -> None:
    table = play(playing(), act(0, "end_turn"), act(1, "place_guardian", gate=1, defence=2), act(1, "end_turn"))
    table = play(table, act(0, "attack", gate=1, attackers=attackers(4)), act(0, "clash"))
    assert gate_of(table, 1, 1).damage == 0 and gate_of(table, 1, 1).guardian is None
    assert "The defence holds: nothing happens." in list(table.state.log)


def test_without_a_guardian_the_defence_is_the_level() -> None:
    table = play(playing(), act(0, "attack", gate=3, attackers=attackers(1, 1)), act(0, "clash"))
    assert gate_of(table, 1, 3).damage == 0
    table = play(table, act(0, "attack", gate=4, attackers=attackers(1, 1, 1)), act(0, "clash"))
    assert gate_of(table, 1, 4).damage == 1


def test_attack_refusals() -> None:
    table = set_gate(playing(), 1, 4, damage=2, closed=True)
    assert "closed" in refused(table, act(0, "attack", gate=4, attackers=attackers(9)))
    assert "At most 3 characters" in refused(table, act(0, "attack", gate=1, attackers=attackers(1, 2, 3, 4)))
    assert "attack 0 cannot attack" in refused(table, act(0, "attack", gate=1, attackers=attackers(3, 0)))
    refused(table, act(1, "attack", gate=1, attackers=attackers(3)), NotYourTurn)
    table = play(table, act(0, "attack", gate=1, attackers=attackers(1)))
    assert "Finish the battle first" in refused(table, act(0, "end_turn"))
    assert "Finish the battle first" in refused(table, act(0, "attack", gate=2, attackers=attackers(1)))
    table = play(table, act(0, "clash"))
    assert "already attacked this turn" in refused(table, act(0, "attack", gate=1, attackers=attackers(9)))
    table = play(table, act(0, "end_turn"), act(1, "end_turn"))
    table = play(table, act(0, "attack", gate=1, attackers=attackers(9)))
    assert table.state.battle is not None


def test_no_attack_when_every_open_gate_was_attacked_this_turn() -> None:
    table = playing()
    for number in (1, 2, 3, 4):
        table = play(table, act(0, "attack", gate=number, attackers=attackers(1)), act(0, "clash"))
    assert "attack" not in moves_of(table, 0)
    assert "can be attacked" in refused(table, act(0, "attack", gate=1, attackers=attackers(1)))


def test_a_won_clash_chooses_damage_or_removing_a_reinforcement() -> None:
    table = play(playing(), act(0, "end_turn"), act(1, "reinforce", gate=1, kind="gate", amount=1), act(1, "end_turn"))
    table = play(table, act(0, "attack", gate=1, attackers=attackers(5)))
    assert "No attack has succeeded" in refused(table, act(0, "deal_damage"))
    table = play(table, act(0, "clash"))
    assert table.state.battle.won and moves_of(table, 0) == {"deal_damage", "remove_reinforcement"}
    assert "The clash is decided" in refused(table, act(1, "ability", side="defence", amount=3))
    with pytest.raises(BadInput):
        engine.apply(table, GAME, act(0, "remove_reinforcement", card=2))
    removed = play(table, act(0, "remove_reinforcement", card=1))
    assert gate_of(removed, 1, 1).reinforcements == () and gate_of(removed, 1, 1).damage == 0
    damaged = play(table, act(0, "deal_damage"))
    assert gate_of(damaged, 1, 1).damage == 1 and gate_of(damaged, 1, 1).reinforcements == (Reinforcement("gate", 1),)


def test_one_shots_are_used_in_a_battle_by_either_player_and_discarded() -> None:
    table = play(playing(), act(0, "reinforce", gate=1, kind="one_shot", amount=2), act(0, "end_turn"))
    table = play(table, act(1, "reinforce", gate=3, kind="one_shot", amount=1), act(1, "end_turn"))
    assert "use_one_shot" not in moves_of(table, 0)
    table = play(table, act(0, "attack", gate=3, attackers=attackers(2)))
    assert "use_one_shot" in moves_of(table, 0) and "use_one_shot" in moves_of(table, 1)
    assert "no one-shot" in refused(table, act(0, "use_one_shot", gate=2, amount=2))
    table = play(table, act(0, "use_one_shot", gate=1, amount=2), act(1, "use_one_shot", gate=3))  # Ben's: its +1
    assert gate_of(table, 0, 1).reinforcements == () and gate_of(table, 1, 3).reinforcements == ()
    battle = GAME.view(table.state, 1)["battle"]
    assert (battle["attack_total"], battle["defence_total"]) == (4, 3)
    table = play(table, act(0, "clash"))
    assert gate_of(table, 1, 3).damage == 1


# --- closing and the win -----------------------------------------------------------------------
def test_closing_removes_the_reinforcements() -> None:
    table = set_gate(playing(), 1, 1, damage=2, reinforcements=(Reinforcement("gate", 1), Reinforcement("attack", 2)))
    table = play(table, act(0, "attack", gate=1, attackers=attackers(3)), act(0, "clash"), act(0, "deal_damage"))
    gate = gate_of(table, 1, 1)
    assert gate.closed and gate.reinforcements == () and gate.damage == 3
    assert "Ben's gate 1 is closed: its reinforcements are removed (1/2 closed)." in list(table.state.log)
    assert GAME.outcome(table.state) is None
    table = play(table, act(0, "end_turn"), act(1, "summon", gate=1, level=3))
    assert gate_of(table, 1, 1).closed


def test_removing_a_gate_reinforcement_closes_a_gate_that_is_already_full() -> None:
    table = set_gate(playing(), 1, 2, damage=2, reinforcements=(Reinforcement("gate", 1),))
    table = play(table, act(0, "attack", gate=2, attackers=attackers(3)), act(0, "clash"), act(0, "remove_reinforcement", card=1))
    assert gate_of(table, 1, 2).closed


def test_the_win_comes_exactly_at_the_seventh_damage() -> None:
    table = playing(starting_level=4)
    for number, damage in ((1, 3), (2, 3)):
        table = set_gate(table, 1, number, damage=damage)
    table = play(table, act(0, "attack", gate=3, attackers=attackers(5)), act(0, "clash"))
    assert table.state.summoners[1].damage_taken == 7
    result = GAME.outcome(table.state)
    assert result is not None and result.winners == (0,) and result.detail["reason"] == "damage"
    assert result.summary == "Ana wins: Ben's gates have taken 7 damage." == table.state.log[-1]
    assert result.detail["summary_ko"] == "Ana 승리: Ben의 게이트에 총 7 데미지를 입혔습니다."  # the log's words too
    with pytest.raises(GameOver):
        engine.apply(table, GAME, act(0, "end_turn"))


def test_six_damage_is_not_yet_a_win() -> None:
    table = playing(starting_level=4)
    table = set_gate(table, 1, 1, damage=3)
    table = set_gate(table, 1, 2, damage=2)
    table = play(table, act(0, "attack", gate=3, attackers=attackers(5)), act(0, "clash"))
    assert table.state.summoners[1].damage_taken == 6 and GAME.outcome(table.state) is None


def test_the_win_comes_exactly_at_the_second_closed_gate() -> None:
    table = playing(starting_level=1)
    table = play(table, act(0, "attack", gate=1, attackers=attackers(2)), act(0, "clash"))
    assert table.state.summoners[1].closed_gates == 1 and GAME.outcome(table.state) is None
    table = play(table, act(0, "attack", gate=2, attackers=attackers(2)), act(0, "clash"))
    result = GAME.outcome(table.state)
    assert result is not None and result.winners == (0,) and result.detail["reason"] == "closed"
    assert result.detail["damage_taken"] == [0, 2] and result.detail["closed_gates"] == [0, 2]
    assert engine.legal_moves(table, GAME) == []


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
