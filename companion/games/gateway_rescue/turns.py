"""Turn order: the lowest-D6 roll-off, clockwise turns, the portal home and the end of the game."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_rescue.rescue import rescuer_replaced
from companion.games.gateway_rescue.state import FIRST_ROLL, HOME, OVER, PLAYING, Gateway
from companion.rules.game import say


def rolling_for_first(state: Gateway) -> int | None:
    """The seat whose roll-off D6 is awaited, or None; raises nothing."""
    if state.phase != FIRST_ROLL or len(state.first_rolls) >= len(state.contenders):
        return None
    return state.contenders[len(state.first_rolls)]


def record_first_roll(state: Gateway, value: int, origin: str) -> Gateway:
    """The roll-off with the next D6 in: the lowest starts, the tied lowest re-roll; raises nothing."""
    roller = state.contenders[len(state.first_rolls)]
    source = f" ({origin})" if origin else ""
    state = say(replace(state, first_rolls=state.first_rolls + (value,)),
                f"{state.name(roller)} rolled {value}{source} for first player.")
    if len(state.first_rolls) < len(state.contenders):
        return state
    low = min(state.first_rolls)
    tied = tuple(seat for seat, roll in zip(state.contenders, state.first_rolls) if roll == low)
    if len(tied) > 1:
        names = " and ".join(state.name(seat) for seat in tied)
        return say(replace(state, contenders=tied, first_rolls=()), f"{names} tied lowest on {low}: they roll again.")
    state = say(replace(state, contenders=(), first_rolls=()), f"{state.name(tied[0])} rolled lowest and goes first.")
    return begin_turn(replace(state, phase=PLAYING, current=tied[0]))


def begin_turn(state: Gateway) -> Gateway:
    """The current player's turn starts (a player held at the centre is free again); raises nothing."""
    player = replace(state.rescuer, held_at_centre=False)
    state = replace(rescuer_replaced(state, state.current, player), turn=state.turn + 1, waiting=None,
                    allowance=None, acted=False)
    where = "the players' world" if player.world == HOME else "the creatures' world (reach the portal to come home)"
    return say(state, f"{player.name}'s turn, in {where}: move, or try a rescue.")


def end_turn(state: Gateway) -> Gateway:
    """The turn passes clockwise, or the game ends when the last creature is home; raises nothing."""
    if state.creatures_left == 0:
        return say(replace(state, phase=OVER, waiting=None, allowance=None), "The last creature is home: the game is over.")
    following = (state.current + 1) % len(state.rescuers)
    return begin_turn(replace(state, current=following))


def through_portal(state: Gateway) -> Gateway:
    """The state once the current player is home in the centre and the turn passed; raises nothing."""
    player = replace(state.rescuer, world=HOME, held_at_centre=True)
    state = say(rescuer_replaced(state, state.current, player),
                f"{player.name} goes through the portal and appears in the centre of the players' world, "
                f"staying there until their next turn.")
    return end_turn(state)
