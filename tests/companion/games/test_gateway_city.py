"""Gateway (the city) through the engine: setup, phases and rounds, battles, events, the four ends."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.games.gateway_city import GAME
from companion.games.gateway_city.state import ATTACK, CLEANUP, DEPLOYMENT, DRAFTING, EVENT, GUARD, HORDE, Card, City
from companion.inputs import Move, StartGame, Undo
from companion.journal import Journal
from companion.rules import engine
from companion.rules.errors import BadInput, CompanionError, GameOver
from companion.rules.table import Table
from companion.session import Session

ARMY = [{"attack": 3, "defence": 2}]


def new_table(players: tuple[str, ...] = ("Ann", "Bo"), **options: Any) -> Table:
    return engine.start(GAME, StartGame("gateway-city", players, options, 7))


def act(table: Table, seat: int, move: str, **args: Any) -> Table:
    return engine.apply(table, GAME, Move(seat, move, args))


def state_of(table: Table) -> City:
    return table.state


def with_state(table: Table, **changes: Any) -> Table:
    return replace(table, state=replace(table.state, **changes))


def with_district(table: Table, number: int, *, holder: int | None = None, cards: tuple[Card, ...] = ()) -> Table:
    districts = list(state_of(table).districts)
    districts[number - 1] = replace(districts[number - 1], holder=holder, cards=cards)
    return with_state(table, districts=tuple(districts))


def to_phase(table: Table, phase: str) -> Table:
    for _ in range(20):
        if state_of(table).phase == phase:
            return table
        table = act(table, state_of(table).current, "next_phase")
    raise AssertionError(f"never reached {phase}")


def holders(table: Table) -> list[int | None]:
    return [district.holder for district in state_of(table).districts]


def vp(table: Table) -> list[int]:
    return [faction.vp for faction in state_of(table).factions]


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


# --- events -----------------------------------------------------------------------------------

def horde_spawn(district: int, attack: int = 1, defence: int = 1, vp: int = 1) -> dict[str, Any]:
    return {"district": district, "kind": HORDE, "attack": attack, "defence": defence, "vp": vp}


def at_event(table: Table) -> Table:
    return to_phase(table, EVENT)


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
    assert vp(table) == [0, 2]


def test_a_player_who_keeps_part_of_the_army_holds_and_earns_the_vp() -> None:
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=1, defence=2, vp=3)])
    table = act(act(table, 1, "defend", army=[{"attack": 2, "defence": 3}]), 1, "fight")
    assert holders(table)[1] == 1 and state_of(table).district(2).cards == () and vp(table) == [0, 3]


def test_a_defender_with_no_army_loses_the_district_to_the_spawn() -> None:
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(act(act(table, 0, "draw_event", spawns=[horde_spawn(2)]), 1, "defend", army=[]), 1, "fight")
    assert state_of(table).district(2).controller == HORDE


# --- the four ends ------------------------------------------------------------------------------

def outcome(table: Table) -> Any:
    return GAME.outcome(state_of(table))


def test_the_horde_holding_every_district_means_everyone_loses() -> None:
    table = new_table()
    for number in (1, 2, 3):
        table = with_district(table, number, cards=(Card(HORDE, 1, 1, 1),))
    table = act(at_event(table), 0, "draw_event", spawns=[horde_spawn(4, attack=5, defence=5)])
    assert outcome(table) is None
    table = act(table, 0, "fight")
    result = outcome(table)
    assert result is not None and result.winners == () and result.detail["reason"] == "horde_holds_all"
    assert "everyone loses" in result.summary
    assert GAME.view(state_of(table), None)["messages"] == [result.summary]


def test_reaching_20_vp_wins_at_once_in_the_middle_of_a_turn() -> None:
    table = to_phase(with_state(new_table(), factions=tuple(replace(f, vp=19) for f in state_of(new_table()).factions)), ATTACK)
    table = act(act(table, 0, "attack", district=1, army=ARMY), 0, "fight")
    result = outcome(table)
    assert result is not None and result.winners == (0,) and result.detail["reason"] == "twenty_vp"
    assert state_of(table).phase == ATTACK


def test_reaching_20_vp_by_a_change_of_vp_wins_too() -> None:
    table = act(new_table(), 1, "adjust_vp", player=1, amount=5)
    table = with_state(table, factions=(state_of(table).factions[0], replace(state_of(table).factions[1], vp=18)))
    table = act(table, 0, "adjust_vp", player=1, amount=2)
    assert outcome(table).winners == (1,)


def test_20_vp_earned_mid_battle_wins_before_the_horde_takes_the_city_and_stops_the_event() -> None:
    table = new_table()
    table = with_district(table, 1, cards=(Card(HORDE, 1, 1, 1),))
    table = with_district(table, 3, cards=(Card(HORDE, 1, 1, 1),))
    table = with_district(with_district(table, 2, holder=1), 4, cards=(Card(HORDE, 1, 1, 1),))
    table = with_state(table, factions=(state_of(table).factions[0], replace(state_of(table).factions[1], vp=19)))
    table = act(at_event(table), 0, "draw_event",
                spawns=[horde_spawn(2, attack=0, defence=1, vp=1), horde_spawn(2, attack=9, defence=9), horde_spawn(1)])
    table = act(act(table, 1, "defend", army=[{"attack": 1, "defence": 1}]), 1, "fight")
    result = outcome(table)
    assert result.winners == (1,) and result.detail["reason"] == "twenty_vp"
    assert all(district.controller == HORDE for district in state_of(table).districts)
    assert state_of(table).spawn_queue == () and len(state_of(table).district(1).cards) == 1


def test_an_empty_event_deck_ends_the_game_on_the_most_vp() -> None:
    table = new_table(event_cards_1=1, event_cards_2=0, event_cards_3=0)
    table = act(at_event(act(table, 0, "adjust_vp", player=1, amount=4)), 0, "draw_event")
    result = outcome(table)
    assert result.winners == (1,) and result.detail["reason"] == "event_deck_empty"
    assert GAME.view(state_of(table), None)["deck"]["left"] == 0


def test_an_empty_event_deck_with_tied_vp_is_a_shared_win() -> None:
    table = new_table(event_cards_1=0, event_cards_2=0, event_cards_3=1)
    table = act(act(table, 0, "adjust_vp", player=1, amount=3), 0, "adjust_vp", player=0, amount=3)
    table = act(at_event(table), 0, "draw_event")
    assert outcome(table).winners == (0, 1) and "share the win" in outcome(table).summary


def test_the_event_deck_runs_out_only_after_the_last_cards_battles() -> None:
    table = at_event(with_district(new_table(event_cards_1=1, event_cards_2=0, event_cards_3=0), 2, holder=0))
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=0, defence=1, vp=2)])
    assert outcome(table) is None
    table = act(act(table, 0, "defend", army=ARMY), 0, "fight")
    assert outcome(table).winners == (0,) and vp(table) == [2, 0]


def all_held_by(table: Table, seat: int) -> Table:
    for number in range(1, 5):
        table = with_district(table, number, holder=seat)
    return table


def test_holding_every_district_through_the_event_draw_wins() -> None:
    table = act(at_event(all_held_by(new_table(), 1)), 0, "draw_event", spawns=[horde_spawn(3)])
    table = act(act(table, 1, "defend", army=ARMY), 1, "fight")
    result = outcome(table)
    assert result.winners == (1,) and result.detail["reason"] == "held_all_districts"


def test_losing_a_district_in_the_event_draw_means_no_win() -> None:
    table = act(at_event(all_held_by(new_table(), 1)), 0, "draw_event", spawns=[horde_spawn(3, attack=5)])
    table = act(act(table, 1, "defend", army=[{"attack": 0, "defence": 1}]), 1, "fight")
    assert outcome(table) is None and state_of(table).round == 2


def test_taking_every_district_only_after_the_draw_is_not_yet_a_win() -> None:
    table = act(at_event(with_district(all_held_by(new_table(), 0), 4)), 0, "draw_event")
    assert outcome(table) is None
    table = act(act(to_phase(table, ATTACK), 0, "attack", district=4, army=ARMY), 0, "fight")
    assert holders(table) == [0, 0, 0, 0] and outcome(table) is None
    table = act(at_event(table), 0, "draw_event")
    assert outcome(table).winners == (0,)


# --- refusals: a sentence, and the table (and the journal) unchanged ------------------------------

GUARD_CARD = {"attack": 1, "defence": 1, "vp": 1}
TO_ATTACK = [(0, "next_phase", {}), (0, "next_phase", {})]
TO_EVENT = TO_ATTACK + [(0, "next_phase", {})] * 2 + [(1, "next_phase", {})] * 4
MINE = [(0, "set_district", {"district": 2, "controller": "player", "player": 0})]
BOS = [(0, "set_district", {"district": 2, "controller": "player", "player": 1})]
REFUSALS = [
    ("attack in Deployment", [], (0, "attack", {"district": 1, "army": ARMY}), "Attack phase"),
    ("attack out of turn", TO_ATTACK, (1, "attack", {"district": 1, "army": ARMY}), "It is Ann's turn"),
    ("attack own district", MINE + TO_ATTACK, (0, "attack", {"district": 2, "army": ARMY}), "You already hold District 2"),
    ("a second attack", TO_ATTACK + [(0, "attack", {"district": 1, "army": ARMY}), (0, "fight", {})],
     (0, "attack", {"district": 3, "army": ARMY}), "already attacked once"),
    ("attack with no army", TO_ATTACK, (0, "attack", {"district": 1, "army": []}), "at least one card"),
    ("a player's district without their army", BOS + TO_ATTACK, (0, "attack", {"district": 2, "army": ARMY}),
     "Enter Bo's army"),
    ("a defending army on a guard district", TO_ATTACK,
     (0, "attack", {"district": 1, "army": ARMY, "defending_army": []}), "leave defending_army out"),
    ("damage for too few cards", TO_ATTACK, (0, "attack", {"district": 1, "army": ARMY, "damage_to_defenders": []}),
     "each of the 1 cards"),
    ("more damage than dealt", TO_ATTACK, (0, "attack", {"district": 1, "army": ARMY, "damage_to_defenders": [4]}),
     "deals only 3"),
    ("next phase during a battle", TO_ATTACK + [(0, "attack", {"district": 1, "army": ARMY})], (0, "next_phase", {}),
     "fight it or call it off first"),
    ("next phase at the event draw", TO_EVENT, (0, "next_phase", {}), "draws the event card"),
    ("an event before the round ends", [], (0, "draw_event", {}), "end of the round"),
    ("an event drawn by another player", TO_EVENT, (1, "draw_event", {}), "The starting player, Ann"),
    ("a fight with no battle", TO_ATTACK, (0, "fight", {}), "No battle is set up"),
    ("a fight before the army is entered", BOS + TO_EVENT + [(0, "draw_event", {"spawns": [
        {"district": 2, "kind": "horde", **GUARD_CARD}]})], (1, "fight", {}), "enters their army first"),
    ("a defence with no event battle", [], (0, "defend", {"army": []}), "No event battle"),
    ("an army against Horde vs Guard", TO_EVENT + [(0, "draw_event", {"spawns": [
        {"district": 1, "kind": "horde", **GUARD_CARD}]})], (0, "defend", {"army": []}), "No player's army fights here"),
    ("calling off an event battle", TO_EVENT + [(0, "draw_event", {"spawns": [
        {"district": 1, "kind": "horde", **GUARD_CARD}]})], (0, "call_off", {}), "must be fought"),
    ("a district ability with no district", [], (0, "use_district_ability", {"district": 1}), "control no district"),
    ("a district ability of another's district", MINE + [(0, "set_district", {"district": 3, "controller": "player", "player": 1})],
     (0, "use_district_ability", {"district": 3}), "You do not control District 3"),
    ("a second district ability", MINE + [(0, "use_district_ability", {"district": 2})],
     (0, "use_district_ability", {"district": 2}), "one per turn"),
    ("a district ability after Deployment", MINE + [(0, "next_phase", {})], (0, "use_district_ability", {"district": 2}),
     "Deployment phase only"),
    ("a VP change of 0", [], (0, "adjust_vp", {"player": 1, "amount": 0}), "other than 0"),
    ("claiming first too late", [(0, "next_phase", {})], (1, "claim_first", {}), "settled"),
    ("a player's district with no player", [], (0, "set_district", {"district": 1, "controller": "player"}),
     "which player"),
    ("a Horde district with no cards", [], (0, "set_district", {"district": 1, "controller": "horde"}), "needs its cards"),
    ("an extra attack in Cleanup", TO_ATTACK + [(0, "next_phase", {})], (0, "extra_attack", {}), "before the Cleanup"),
]


def session_at(tmp_path: Path, script: list[tuple[int, str, dict[str, Any]]]) -> Session:
    session = Session(games={GAME.id: GAME}, journal=Journal(tmp_path / "journal.sqlite"))
    session.submit(StartGame(GAME.id, ("Ann", "Bo"), {}, 3), source="host")
    for seat, move, args in script:
        session.submit(Move(seat, move, args), source="phone")
    return session


@pytest.mark.parametrize(("script", "refused", "sentence"), [case[1:] for case in REFUSALS], ids=[case[0] for case in REFUSALS])
def test_refusals_say_why_and_change_nothing(tmp_path: Path, script: list[Any], refused: tuple[int, str, dict[str, Any]],
                                             sentence: str) -> None:
    session = session_at(tmp_path, script)
    before, seq = session.table, session.journal.last_seq()
    with pytest.raises(CompanionError) as refusal:
        session.submit(Move(*refused), source="phone")
    assert sentence in refusal.value.message
    assert session.table is before and session.journal.last_seq() == seq


def test_nothing_is_taken_after_the_game_is_over(tmp_path: Path) -> None:
    session = session_at(tmp_path, [(0, "adjust_vp", {"player": 0, "amount": 5})] * 4)
    assert GAME.outcome(session.table.state).winners == (0,)
    with pytest.raises(GameOver):
        session.submit(Move(0, "next_phase", {}), source="phone")


def test_a_phase_step_can_be_undone_within_the_turn() -> None:
    table = act(new_table(), 0, "next_phase")
    undone = engine.apply(table, GAME, Undo())
    assert state_of(undone).phase == DEPLOYMENT
