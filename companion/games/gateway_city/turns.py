"""Rounds and turns: the four phases in order, the next player clockwise, the round's end."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_city.ending import check_round_end
from companion.games.gateway_city.state import CLEANUP, DEPLOYMENT, EVENT, PHASE_TITLES, PHASES, City, left_of
from companion.rules.game import say


def next_phase(state: City) -> City:
    """The state one phase on: the next phase, the next player's Deployment, or the round's event
    draw after the last player's Cleanup; raises nothing."""
    state = replace(state, opened=True)
    if state.phase != CLEANUP:
        following = PHASES[PHASES.index(state.phase) + 1]
        return say(replace(state, phase=following), f"{state.name(state.current)}: {PHASE_TITLES[following]}.")
    upcoming = left_of(state, state.current)
    if upcoming == state.starting:
        state = replace(state, phase=EVENT, current=state.starting)
        return say(state, f"Round {state.round} is over: {state.name(state.starting)} draws an event card.")
    return begin_turn(replace(state, current=upcoming))


def begin_turn(state: City) -> City:
    """The current player's turn from its Deployment phase, counters reset; raises nothing."""
    state = replace(state, phase=DEPLOYMENT, attacks_made=0, attacks_allowed=1, ability_used=None, battle=None)
    return say(state, f"{state.name(state.current)}'s turn. {PHASE_TITLES[DEPLOYMENT]}.")


def end_round(state: City) -> City:
    """After the event card is resolved: the end checks, then the next round from the starting
    player; raises nothing."""
    state = check_round_end(state)
    if state.finish is not None:
        return state
    state = replace(state, round=state.round + 1, current=state.starting, event_drawn=False, held_at_draw=None)
    return begin_turn(say(state, f"Round {state.round} begins."))
