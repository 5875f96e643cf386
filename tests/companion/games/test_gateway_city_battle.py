"""Gateway (the city)'s battle calculator, as pure functions over cards and sides."""
from __future__ import annotations

import pytest

from companion.games.gateway_city import battle as calculator
from companion.games.gateway_city.state import GUARD, HORDE, INSURGENT, NOBODY, PLAYER, Battle, Card, Side
from companion.rules.errors import IllegalMove


def insurgent(attack: int, defence: int) -> Card:
    return Card(INSURGENT, attack, defence)


def guard(attack: int, defence: int, vp: int = 1) -> Card:
    return Card(GUARD, attack, defence, vp)


def horde(attack: int, defence: int, vp: int = 1) -> Card:
    return Card(HORDE, attack, defence, vp)


def player_side(seat: int, *cards: Card, runestones: int = 0, assignment: tuple[int, ...] | None = None) -> Side:
    return Side(PLAYER, seat, cards, runestones, assignment)


def test_damage_is_the_summed_attack_plus_runestones_never_below_zero() -> None:
    assert calculator.damage_of(player_side(0, insurgent(3, 1), insurgent(2, 2))) == 5
    assert calculator.damage_of(player_side(0, insurgent(3, 1), runestones=2)) == 5
    assert calculator.damage_of(player_side(0, insurgent(3, 1), runestones=-5)) == 0


def test_the_proposal_kills_as_many_cards_as_possible() -> None:
    targets = (guard(1, 5, vp=3), guard(1, 2), guard(1, 3))
    assert calculator.propose(5, targets) == (0, 2, 3)


def test_the_proposal_prefers_the_most_vp_among_equal_counts() -> None:
    targets = (guard(1, 3, vp=1), guard(1, 3, vp=2), guard(1, 3, vp=1))
    assert calculator.propose(4, targets) == (1, 3, 0)  # the 1 left over stays on a survivor for the turn


def test_the_proposal_then_prefers_the_most_attack() -> None:
    targets = (insurgent(1, 2), insurgent(4, 2), insurgent(2, 2))
    assert calculator.propose(2, targets) == (0, 2, 0)


def test_the_proposal_puts_damage_that_kills_nothing_on_survivors_for_the_rest_of_the_turn() -> None:
    """Rulebook: "Cards which do not sustain lethal damage have their defense value set back to full at the end
    of the turn." — so damage that kills nothing now still counts in a second attack this turn."""
    assert calculator.propose(1, (guard(1, 2), guard(1, 3))) == (1, 0)
    assert calculator.propose(3, (guard(1, 2), guard(1, 3))) == (2, 1)  # never made lethal by the leftover
    assert calculator.propose(2, (guard(1, 3, vp=0), guard(1, 3, vp=2)), earns_vp=True) == (0, 2)
    assert calculator.propose(9, ()) == ()


def test_the_proposal_handles_a_large_stack_quickly() -> None:
    targets = tuple(horde(1, 1 + index % 4) for index in range(30))
    chosen = calculator.propose(25, targets)
    assert sum(1 for hit, card in zip(chosen, targets) if hit >= card.defence) == 16  # eight 1s and eight 2s
    assert sum(chosen) <= 25


def test_a_card_dies_when_its_damage_reaches_its_defence() -> None:
    fight = Battle(1, player_side(0, insurgent(3, 2), assignment=(2, 1)), Side(GUARD, None, (guard(2, 2), guard(0, 2))))
    result = calculator.resolve(fight)
    assert result.defenders_dead == (True, False)
    assert not result.taken
    assert result.attacker_vp == 1
    assert result.holder == GUARD


def test_the_attacker_takes_the_district_only_when_every_defender_dies_even_with_nothing_left() -> None:
    fight = Battle(1, player_side(0, insurgent(4, 1)), Side(GUARD, None, (guard(3, 2, vp=2), guard(1, 2, vp=1))))
    result = calculator.resolve(fight)
    assert result.defenders_dead == (True, True)
    assert result.attackers_dead == (True,)
    assert result.taken and result.holder == PLAYER and result.holder_seat == 0
    assert result.attacker_vp == 3


def test_an_empty_uncontrolled_district_is_taken_without_a_battle() -> None:
    result = calculator.resolve(Battle(2, player_side(1, insurgent(1, 1)), Side(NOBODY, None, ())))
    assert result.taken and result.holder_seat == 1
    assert result.attacker_damage == 1 and result.defender_damage == 0
    assert result.attackers_dead == (False,)


def test_explicit_damage_assignments_are_followed() -> None:
    attacker = player_side(0, insurgent(2, 3), insurgent(2, 3), assignment=(4, 0))
    defender = Side(HORDE, None, (horde(3, 4, vp=2), horde(3, 1)), assignment=(3, 3))
    result = calculator.resolve(Battle(1, attacker, defender))
    assert result.to_defenders == (4, 0) and result.to_attackers == (3, 3)
    assert result.defenders_dead == (True, False) and result.attackers_dead == (True, True)
    assert result.proposed == (False, False)
    assert not result.taken and result.attacker_vp == 2


def test_assignments_that_do_not_add_up_are_refused_with_a_sentence() -> None:
    with pytest.raises(IllegalMove, match="each of the 2 cards"):
        calculator.check_assignment((1,), 5, (guard(1, 1), guard(1, 1)), "Ann")
    with pytest.raises(IllegalMove, match="assigned 6 damage but deals only 5"):
        calculator.check_assignment((3, 3), 5, (guard(1, 1), guard(1, 1)), "Ann")
    calculator.check_assignment((2, 3), 5, (guard(1, 1), guard(1, 1)), "Ann")


def test_horde_against_guard_earns_nobody_points() -> None:
    fight = Battle(3, Side(HORDE, None, (horde(5, 3, vp=2),)), Side(GUARD, None, (guard(1, 2, vp=2),)), event=True)
    result = calculator.resolve(fight)
    assert result.taken and result.holder == HORDE
    assert result.attacker_vp == 0 and result.defender_vp == 0


def test_a_spawn_that_dies_while_killing_the_whole_army_leaves_the_district_to_nobody() -> None:
    fight = Battle(1, Side(HORDE, None, (horde(3, 1),)), player_side(0, insurgent(1, 2)), event=True)
    result = calculator.resolve(fight)
    assert result.taken and result.holder == NOBODY and result.holder_seat is None
    assert result.defender_vp == 0  # "If the player beats the Guard(s) or Horde(s), then they receive … victory points"


def test_a_player_with_no_army_loses_to_any_spawn() -> None:
    result = calculator.resolve(Battle(1, Side(GUARD, None, (guard(0, 1),)), player_side(0), event=True))
    assert result.taken and result.holder == GUARD
