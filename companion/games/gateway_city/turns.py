"""Rounds and turns: the four phases in order, the next player clockwise, the round's end."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_city.ending import check_round_end
from companion.games.gateway_city.state import CLEANUP, DEPLOYMENT, EVENT, PHASE_TITLES, PHASES, City, left_of
from companion.games.gateway_city.words import PHASE_TITLES_KO, josa
from companion.rules.game import say
from companion.rules.said import Said


def next_phase(state: City) -> City:
    """The state one phase on: the next phase, the next player's Deployment, or the round's event
    draw after the last player's Cleanup; raises nothing."""
    state = replace(state, opened=True)
    if state.phase == CLEANUP:
        state = heal(state)
    if state.phase != CLEANUP:
        following = PHASES[PHASES.index(state.phase) + 1]
        name = state.name(state.current)
        return say(replace(state, phase=following), Said(f"{name}: {PHASE_TITLES[following]}.",
                                                          f"{name}: {PHASE_TITLES_KO[following]}."))
    upcoming = left_of(state, state.current)
    if upcoming == state.starting:
        state = replace(state, phase=EVENT, current=state.starting)
        starting = state.name(state.starting)
        return say(state, Said(f"Round {state.round} is over: {starting} draws an event card.",
                               f"{state.round}라운드가 끝났습니다: {josa(starting, '이/가')} 이벤트 카드를 뽑습니다."))
    return begin_turn(replace(state, current=upcoming))


def heal(state: City) -> City:
    """The turn is over: "Cards which do not sustain lethal damage have their defense value set back to full
    at the end of the turn."; raises nothing."""
    if not any(card.damage for district in state.districts for card in district.cards):
        return state
    districts = tuple(replace(district, cards=tuple(replace(card, damage=0) for card in district.cards))
                      for district in state.districts)
    return say(replace(state, districts=districts), Said("The turn is over: damaged cards are back to full defence.",
                                                         "턴이 끝났습니다: 피해를 입은 카드의 방어력이 원래대로 돌아옵니다."))


def begin_turn(state: City) -> City:
    """The current player's turn from its Deployment phase, counters reset; raises nothing."""
    state = heal(state)
    state = replace(state, phase=DEPLOYMENT, attacks_made=0, attacks_allowed=1, ability_used=None, battle=None)
    name = state.name(state.current)
    return say(state, Said(f"{name}'s turn. {PHASE_TITLES[DEPLOYMENT]}.",
                           f"{name}의 턴입니다. {PHASE_TITLES_KO[DEPLOYMENT]}."))


def end_round(state: City) -> City:
    """After the event card is resolved: the end checks, then the next round from the starting
    player; raises nothing."""
    state = check_round_end(state)
    if state.finish is not None:
        return state
    state = replace(state, round=state.round + 1, current=state.starting, event_drawn=False, held_at_draw=None)
    return begin_turn(say(state, Said(f"Round {state.round} begins.", f"{state.round}라운드가 시작됩니다.")))
