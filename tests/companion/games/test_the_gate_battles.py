"""The Gate (게이트): battles (attack, the guardian, abilities, one-shots, the clash and what a won clash does),
closing a gate and the win."""
from __future__ import annotations

import pytest

from companion.games.the_gate import GAME
from companion.games.the_gate.state import Reinforcement
from companion.rules.said import korean
from companion.rules import engine
from companion.rules.errors import BadInput, GameOver, NotYourTurn

from the_gate_table import act, attackers, gate_of, moves_of, play, playing, refused, set_gate


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


def test_without_a_guardian_the_defender_has_no_ability_step() -> None:
    """Rulebook: "만약 가디언이 없다면 가디언 공개 단계를 생략하고 바로 공격자 능력사용 단계로 넘어갑니다." """
    table = play(playing(), act(0, "end_turn"), act(1, "reinforce", gate=2, kind="one_shot", amount=2), act(1, "end_turn"))
    table = play(table, act(0, "attack", gate=2, attackers=attackers(3)))
    assert "가디언 없음: 방어력은 게이트 레벨뿐입니다." in [korean(line) for line in table.state.log]
    for move in (act(1, "ability", side="defence", amount=2), act(1, "ability", side="attack", amount=-2),
                 act(1, "use_one_shot", gate=2)):
        assert "the guardian's ability step is skipped" in refused(table, move)
    assert not {"ability", "use_one_shot"} & moves_of(table, 1)
    table = play(table, act(0, "ability", side="attack", amount=0), act(0, "clash"))  # the attacker's step stays
    assert table.state.battle.won  # attack 3 against the level 2 alone


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
    table = play(table, act(1, "reinforce", gate=3, kind="one_shot", amount=1),
                 act(1, "place_guardian", gate=3, defence=1), act(1, "end_turn"))  # a guardian: Ben's step is played
    assert "use_one_shot" not in moves_of(table, 0)
    table = play(table, act(0, "attack", gate=3, attackers=attackers(3)))
    assert "use_one_shot" in moves_of(table, 0) and "use_one_shot" in moves_of(table, 1)
    assert "no one-shot" in refused(table, act(0, "use_one_shot", gate=2, amount=2))
    table = play(table, act(0, "use_one_shot", gate=1, amount=2), act(1, "use_one_shot", gate=3))  # Ben's: its +1
    assert gate_of(table, 0, 1).reinforcements == () and gate_of(table, 1, 3).reinforcements == ()
    battle = GAME.view(table.state, 1)["battle"]
    assert (battle["attack_total"], battle["defence_total"]) == (5, 4)
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
