"""Gateway (the city) through the engine: the four ends, and refusals that say why and change nothing."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.games.gateway_city import GAME
from companion.games.gateway_city.state import ATTACK, DRAFTING, HORDE, Card
from companion.rules.inputs import Move, StartGame, Undo
from companion.journal.store import Journal
from companion.rules.errors import CompanionError, GameOver, NothingToUndo
from companion.rules.table import Table
from companion.table.session import Session
from gateway_city_table import ARMY, act, at_event, holders, horde_spawn, new_table, state_of, to_phase, vp, with_district, with_state


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
    assert result.detail["summary_ko"] == "드루에가르 호드가 모든 구역을 차지했습니다: 도시가 무너져 모두 패배합니다."
    assert GAME.view(state_of(table), None)["messages"] == [result.summary]


def test_reaching_20_vp_wins_at_once_in_the_middle_of_a_turn() -> None:
    table = to_phase(with_state(new_table(), factions=tuple(replace(f, vp=19) for f in state_of(new_table()).factions)), ATTACK)
    table = act(act(table, 0, "attack", district=1, army=ARMY), 0, "fight")
    result = outcome(table)
    assert result is not None and result.winners == (0,) and result.detail["reason"] == "twenty_vp"
    assert result.detail["summary_ko"] == f"{state_of(table).name(0)}: 승점 20점에 도달해 바로 승리합니다!"
    assert state_of(table).phase == ATTACK


def test_reaching_20_vp_by_a_change_of_vp_wins_too() -> None:
    table = act(new_table(), 1, "adjust_vp", player=1, amount=5)
    table = with_state(table, factions=(state_of(table).factions[0], replace(state_of(table).factions[1], vp=18)))
    table = act(table, 0, "adjust_vp", player=1, amount=2)
    assert outcome(table).winners == (1,)


def test_a_player_who_loses_the_battle_earns_no_vp_so_the_horde_takes_the_city() -> None:
    """Rulebook: "If the Horde or Guard defeats the player (eg kills all of their army cards) the player's control
    of the district is forfeited … If the player beats the Guard(s) or Horde(s), then they receive the
    appropriate number of victory points from each defeated card." """
    table = new_table()
    table = with_district(table, 1, cards=(Card(HORDE, 1, 1, 1),))
    table = with_district(table, 3, cards=(Card(HORDE, 1, 1, 1),))
    table = with_district(with_district(table, 2, holder=1), 4, cards=(Card(HORDE, 1, 1, 1),))
    table = with_state(table, factions=(state_of(table).factions[0], replace(state_of(table).factions[1], vp=19)))
    table = act(at_event(table), 0, "draw_event",
                spawns=[horde_spawn(2, attack=0, defence=1, vp=1), horde_spawn(2, attack=9, defence=9), horde_spawn(1)])
    table = act(act(table, 1, "defend", army=[{"attack": 1, "defence": 1}]), 1, "fight")
    result = outcome(table)
    assert result.winners == () and result.detail["reason"] == "horde_holds_all"
    assert vp(table) == [0, 19] and "Bo lost the battle: no VP for the cards killed in it." in state_of(table).log
    assert all(district.controller == HORDE for district in state_of(table).districts)
    assert state_of(table).spawn_queue == () and len(state_of(table).district(1).cards) == 1


def test_an_empty_event_deck_ends_the_game_on_the_most_vp() -> None:
    table = new_table(event_cards_1=1, event_cards_2=0, event_cards_3=0)
    table = act(at_event(act(table, 0, "adjust_vp", player=1, amount=4)), 0, "draw_event")
    result = outcome(table)
    assert result.winners == (1,) and result.detail["reason"] == "event_deck_empty"
    assert result.detail["summary_ko"] == f"이벤트 덱이 비었습니다: {state_of(table).name(1)} 승리 (최다 승점 4점)."
    assert GAME.view(state_of(table), None)["deck"]["left"] == 0


def test_an_empty_event_deck_with_tied_vp_is_a_shared_win() -> None:
    table = new_table(event_cards_1=0, event_cards_2=0, event_cards_3=1)
    table = act(act(table, 0, "adjust_vp", player=1, amount=3), 0, "adjust_vp", player=0, amount=3)
    table = act(at_event(table), 0, "draw_event")
    assert outcome(table).winners == (0, 1) and "share the win" in outcome(table).summary
    names = f"{state_of(table).name(0)}, {state_of(table).name(1)}"
    assert outcome(table).detail["summary_ko"] == f"이벤트 덱이 비었습니다: {names} 공동 승리 (각 승점 3점)."


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
    assert result.detail["summary_ko"] == f"{state_of(table).name(1)}: 이벤트 카드를 뽑는 동안 모든 구역을 지켜 승리합니다!"


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
EMPTY = [(0, "set_district", {"district": 3, "controller": "nobody"})]
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
    ("defenders' damage on an empty district", EMPTY + TO_ATTACK,
     (0, "attack", {"district": 3, "army": ARMY, "damage_to_attackers": [2]}),
     "District 3 is empty: there are no defenders to deal damage, so leave damage_to_attackers out."),
    ("no defenders' damage on an empty district", EMPTY + TO_ATTACK,
     (0, "attack", {"district": 3, "army": ARMY, "damage_to_attackers": []}), "no defenders to deal damage"),
    ("defenders' runestones on an empty district", EMPTY + TO_ATTACK,
     (0, "attack", {"district": 3, "army": ARMY, "defending_runestones": 3}),
     "District 3 is empty: there are no defenders to use runestones, so leave defending_runestones out."),
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


def test_a_change_of_vp_that_ended_the_game_by_mistake_is_taken_back_and_the_game_reopened(tmp_path: Path) -> None:
    session = session_at(tmp_path, [(1, "adjust_vp", {"player": 0, "amount": 5})] * 4)  # Bo taps Ann's VP, out of turn
    assert GAME.outcome(session.table.state).winners == (0,) and session.journal.is_finished(session.game_id)
    session.submit(Undo(seat=1), source="phone")
    assert GAME.outcome(session.table.state) is None and state_of(session.table).factions[0].vp == 15
    assert not session.journal.is_finished(session.game_id)  # the history shows it under way again
    session.journal.close()
    again = Session(games={GAME.id: GAME}, journal=Journal(session.journal.path))  # and a restart agrees
    assert GAME.outcome(again.table.state) is None and again.table.state == session.table.state
    with pytest.raises(NothingToUndo):  # the moves before the last stand: out of turn, they did not end the game
        again.submit(Undo(seat=1), source="phone")


# --- the round's end: Next phase says what is awaited, whoever presses it ------------------------

def refusal(table: Table, seat: int, move: str, **args: Any) -> str:
    """The sentence a refused move gets; fails if the move is taken."""
    with pytest.raises(CompanionError) as refused:
        act(table, seat, move, **args)
    return refused.value.message


def bo_defends_district_2() -> Table:
    """The event card drawn: a Horde spawn attacks District 2, which Bo holds; his army is still to enter."""
    table = at_event(with_district(new_table(), 2, holder=1))
    return act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=2, defence=3)])


def test_next_phase_before_the_event_card_is_drawn_asks_the_starting_player_to_draw_it() -> None:
    table = at_event(new_table())
    assert GAME.whose_turn(state_of(table)) == (0,)
    for seat in (0, 1):
        assert refusal(table, seat, "next_phase") == "The round is over: Ann draws the event card."


def test_next_phase_while_an_event_battle_waits_for_the_defender_asks_him_to_enter_his_army() -> None:
    table = bo_defends_district_2()
    assert GAME.whose_turn(state_of(table)) == (1,)  # Bo's LED is lit: the NEXT button sends his next_phase
    for seat in (1, 0):
        assert refusal(table, seat, "next_phase") == (
            "The event card is drawn and its battle comes first: the Horde attacks District 2, "
            "and Bo enters their army to defend it (even if it is empty), then fights the battle.")


def test_next_phase_while_an_event_battle_is_ready_asks_its_owner_to_fight_it() -> None:
    table = act(bo_defends_district_2(), 1, "defend", army=ARMY)
    for seat in (1, 0):
        assert refusal(table, seat, "next_phase") == (
            "The event card is drawn and its battle comes first: the Horde attacks District 2, and Bo fights the battle.")
    horde_on_guard = act(at_event(new_table()), 0, "draw_event", spawns=[horde_spawn(1, attack=3)])
    assert refusal(horde_on_guard, 1, "next_phase") == (
        "The event card is drawn and its battle comes first: the Horde attacks District 1, and Ann fights the battle.")


def test_an_event_card_with_no_battle_ends_the_round_so_next_phase_goes_on() -> None:
    table = act(at_event(with_district(new_table(), 3)), 0, "draw_event", spawns=[horde_spawn(3)])  # takes it
    assert state_of(table).round == 2 and GAME.whose_turn(state_of(table)) == (0,)
    assert refusal(table, 1, "next_phase") == "It is Ann's turn."
    assert state_of(act(table, 0, "next_phase")).phase == DRAFTING


def test_next_phase_after_the_event_card_is_drawn_and_resolved_does_not_ask_for_it_again() -> None:
    table = with_state(at_event(new_table()), event_drawn=True)  # the engine ends the round at once; by hand only
    for seat in (0, 1):
        assert refusal(table, seat, "next_phase") == "This round's event card is already drawn and resolved."


def test_drawing_again_or_correcting_a_district_during_an_event_battle_gets_the_same_sentence() -> None:
    table = bo_defends_district_2()
    awaited = ("The event card is drawn and its battle comes first: the Horde attacks District 2, "
               "and Bo enters their army to defend it (even if it is empty), then fights the battle.")
    assert refusal(table, 0, "draw_event") == awaited
    assert refusal(table, 0, "set_district", district=3, controller="nobody") == awaited
