"""Gateway (the city) through the engine: setup, phases and rounds, battles and events."""
from __future__ import annotations

import pytest

from companion.games.gateway_city import GAME
from companion.games.gateway_city.state import ATTACK, CLEANUP, DEPLOYMENT, DRAFTING, EVENT, GUARD, HORDE, Card
from companion.rules.inputs import Undo
from companion.rules import engine
from companion.rules.errors import BadInput, IllegalMove
from gateway_city_table import ARMY, act, at_event, holders, horde_spawn, new_table, state_of, to_phase, vp, with_district


# --- setup ------------------------------------------------------------------------------------

def test_two_players_get_four_districts_each_with_a_city_guard_and_two_tokens() -> None:
    city = state_of(new_table())
    assert len(city.districts) == 4
    assert all(district.controller == GUARD and len(district.cards) == 1 for district in city.districts)
    assert [len(district.tokens) for district in city.districts] == [2, 2, 2, 2]
    assert sorted(token for district in city.districts for token in district.tokens) == sorted("123456XX")


def test_three_players_get_six_districts_some_with_one_token() -> None:
    city = state_of(new_table(("Ann", "Bo", "Cy")))
    assert len(city.districts) == 6
    assert [len(district.tokens) for district in city.districts] == [2, 2, 1, 1, 1, 1]
    assert all(district.controller == GUARD for district in city.districts)


def test_the_event_deck_holds_the_three_tiers_entered_at_setup() -> None:
    view = GAME.view(state_of(new_table(event_cards_1=3, event_cards_2=2, event_cards_3=1)), None)
    assert [tier["left"] for tier in view["deck"]["tiers"]] == [3, 2, 1]
    assert view["deck"]["left"] == 6 and view["deck"]["next_tier"] == "I"
    with pytest.raises(BadInput):
        new_table(event_cards_1=0, event_cards_2=0, event_cards_3=0)


def test_tokens_are_dealt_in_order_when_not_shuffled_and_names_are_used() -> None:
    city = state_of(new_table(shuffle_tokens=False, district_names=["Docks", "Old Market"]))
    assert [district.tokens for district in city.districts] == [("1", "5"), ("2", "6"), ("3", "X"), ("4", "X")]
    assert [district.name for district in city.districts] == ["Docks", "Old Market", "District 3", "District 4"]


def test_the_starting_player_is_claimed_or_sits_right_of_the_last_winner() -> None:
    assert state_of(new_table(("Ann", "Bo", "Cy"), starting_player=2)).current == 2
    assert state_of(new_table(("Ann", "Bo", "Cy"), last_winner=0)).starting == 2
    assert state_of(new_table(("Ann", "Bo", "Cy"), last_winner=2)).starting == 1
    with pytest.raises(BadInput):
        new_table(starting_player=2)
    claimed = act(new_table(), 1, "claim_first")
    assert state_of(claimed).starting == 1 and state_of(claimed).current == 1
    assert GAME.whose_turn(state_of(claimed)) == (1,)


def test_nobody_claims_first_when_the_last_games_winner_decides() -> None:
    series = new_table(("Ann", "Bo", "Cy"), last_winner=1)
    with pytest.raises(IllegalMove, match="Ann starts: the player to the right of the last game's winner."):
        act(series, 2, "claim_first")
    assert all(move["move"] != "claim_first" for move in engine.legal_moves(series, GAME))


# --- phases and rounds ------------------------------------------------------------------------

def test_phases_advance_in_order_then_the_next_player_then_the_event_draw_and_the_next_round() -> None:
    table = new_table(("Ann", "Bo", "Cy"), starting_player=1)
    seen = []
    for _ in range(12):
        seen.append((state_of(table).current, state_of(table).phase))
        table = act(table, state_of(table).current, "next_phase")
    phases = [DEPLOYMENT, DRAFTING, ATTACK, CLEANUP]
    assert seen == [(seat, phase) for seat in (1, 2, 0) for phase in phases]
    assert state_of(table).phase == EVENT and state_of(table).round == 1
    assert GAME.whose_turn(state_of(table)) == (1,)
    table = act(table, 1, "draw_event")
    assert state_of(table).round == 2
    assert (state_of(table).current, state_of(table).phase) == (1, DEPLOYMENT)
    assert state_of(table).cards_left == 14


def test_the_view_shows_the_round_phase_deck_and_districts() -> None:
    view = GAME.view(state_of(new_table()), 0)
    assert view["round"] == 1 and view["phase"] == DEPLOYMENT
    assert [phase["key"] for phase in view["phases"]] == [DEPLOYMENT, DRAFTING, ATTACK, CLEANUP, EVENT]
    assert view["districts"][0]["controller"] == GUARD and view["districts"][0]["cards"][0]["vp"] == 1
    assert view["players"] == [{"seat": 0, "name": "Ann", "vp": 0, "districts": [], "starting": True},
                               {"seat": 1, "name": "Bo", "vp": 0, "districts": [], "starting": False}]
    assert view["battle"] is None and view["last_battle"] is None and view["messages"] == []


# --- attacks ----------------------------------------------------------------------------------

def test_an_attack_is_previewed_then_fought_taking_the_district_and_the_guards_vp() -> None:
    table = to_phase(new_table(), ATTACK)
    table = act(table, 0, "attack", district=2, army=[{"attack": 2, "defence": 1}])
    preview = GAME.view(state_of(table), 0)["battle"]
    assert preview["result"]["taken"] and preview["result"]["holder_name"] == "Ann"
    assert preview["attacker"]["cards"][0]["dies"] and preview["defender"]["cards"][0]["dies"]
    assert preview["faction_played_by"] == 1
    assert holders(table) == [None] * 4
    table = act(table, 0, "fight")
    assert holders(table) == [None, 0, None, None]
    assert state_of(table).district(2).cards == ()
    assert vp(table) == [1, 0]
    report = GAME.view(state_of(table), 0)["last_battle"]
    assert report["result"]["attacker_vp"] == 1 and "Ann takes District 2." in report["lines"]


def test_an_attack_that_leaves_a_defender_alive_takes_nothing() -> None:
    table = to_phase(new_table(), ATTACK)
    table = with_district(table, 1, cards=(Card(GUARD, 1, 2, 1), Card(GUARD, 1, 3, 2)))
    table = act(act(table, 0, "attack", district=1, army=ARMY), 0, "fight")
    city = state_of(table)
    assert city.district(1).controller == GUARD and city.district(1).cards == (Card(GUARD, 1, 2, 1),)
    assert vp(table) == [2, 0]
    assert city.attacks_made == 1


def test_runestones_and_explicit_damage_change_the_result() -> None:
    table = to_phase(with_district(new_table(), 1, cards=(Card(GUARD, 1, 2, 1), Card(GUARD, 1, 3, 2))), ATTACK)
    table = act(table, 0, "attack", district=1, army=ARMY, runestones=2, damage_to_defenders=[2, 3])
    table = act(table, 0, "fight")
    assert holders(table)[0] == 0 and vp(table) == [3, 0]


def test_an_empty_uncontrolled_district_is_taken_without_a_battle() -> None:
    table = to_phase(with_district(new_table(), 3), ATTACK)
    table = act(act(table, 0, "attack", district=3, army=[{"attack": 0, "defence": 1}]), 0, "fight")
    assert holders(table)[2] == 0
    assert GAME.view(state_of(table), None)["last_battle"]["lines"] == ["District 3 is empty: Ann takes it without a battle."]


def test_attacking_a_players_district_needs_their_army_and_can_take_it() -> None:
    table = to_phase(with_district(new_table(), 4, holder=1), ATTACK)
    table = act(table, 0, "attack", district=4, army=ARMY, defending_army=[{"attack": 1, "defence": 4}])
    table = act(table, 0, "fight")
    assert holders(table)[3] == 1
    table = act(table, 0, "extra_attack")
    table = act(table, 0, "attack", district=4, army=ARMY, defending_army=[{"attack": 1, "defence": 2}])
    table = act(table, 0, "fight")
    assert holders(table)[3] == 0 and vp(table) == [0, 0]


def test_a_planned_attack_can_be_called_off_without_using_the_attack() -> None:
    table = act(to_phase(new_table(), ATTACK), 0, "attack", district=1, army=ARMY)
    table = act(table, 0, "call_off")
    assert state_of(table).battle is None and state_of(table).attacks_made == 0



def test_spawns_take_empty_districts_and_join_their_own_kind() -> None:
    table = at_event(with_district(new_table(), 2))
    guard = {"district": 1, "kind": GUARD, "attack": 1, "defence": 1, "vp": 2}
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2), guard])
    city = state_of(table)
    assert city.district(2).controller == HORDE
    assert len(city.district(1).cards) == 2 and city.round == 2


def test_horde_against_guard_is_fought_and_gives_nobody_points() -> None:
    table = act(at_event(new_table()), 0, "draw_event", spawns=[horde_spawn(1, attack=5, defence=5)])
    assert state_of(table).battle is not None and state_of(table).round == 1
    assert GAME.whose_turn(state_of(table)) == (0,)
    table = act(table, 0, "fight")
    city = state_of(table)
    assert city.district(1).controller == HORDE and vp(table) == [0, 0] and city.round == 2


def test_a_player_who_loses_their_whole_army_in_an_event_battle_loses_the_district() -> None:
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=4, defence=1, vp=2), horde_spawn(2, attack=1, defence=5)])
    assert GAME.whose_turn(state_of(table)) == (1,)
    assert GAME.move("fight").why_not(state_of(table), 1) is not None
    table = act(table, 1, "defend", army=[{"attack": 2, "defence": 3}])
    table = act(table, 1, "fight")
    city = state_of(table)
    assert city.district(2).holder is None and city.district(2).controller == HORDE
    assert city.district(2).cards == (Card(HORDE, 1, 5, 1),)
    assert vp(table) == [0, 0]  # "If the player beats the Guard(s) or Horde(s), then they receive … victory points"


def test_a_player_who_keeps_part_of_the_army_holds_and_earns_the_vp() -> None:
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=1, defence=2, vp=3)])
    table = act(act(table, 1, "defend", army=[{"attack": 2, "defence": 3}]), 1, "fight")
    assert holders(table)[1] == 1 and state_of(table).district(2).cards == () and vp(table) == [0, 3]


def test_a_defender_with_no_army_loses_the_district_to_the_spawn() -> None:
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(act(act(table, 0, "draw_event", spawns=[horde_spawn(2)]), 1, "defend", army=[]), 1, "fight")
    assert state_of(table).district(2).controller == HORDE


def test_a_phase_step_can_be_undone_within_the_turn() -> None:
    table = act(new_table(), 0, "next_phase")
    undone = engine.apply(table, GAME, Undo())
    assert state_of(undone).phase == DEPLOYMENT
