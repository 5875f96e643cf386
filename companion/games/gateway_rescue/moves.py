"""Gateway's moves: roll to move, try a rescue, go through the portal, end the turn; correct where a player is."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.gateway_rescue import turns
from companion.games.gateway_rescue.rescue import rescuer_replaced
from companion.games.gateway_rescue.state import CREATURES, HOME, MOVE, OVER, PLAYING, RESCUE, WORLD_NAMES, Gateway
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, anytime, first_reason, say
from companion.rules.schema import JSON, choice, integer, obj

Reason = Callable[[Gateway, int], "str | None"]


def your_turn(state: Gateway, seat: int) -> str | None:
    """None when this seat may act now, else why not; raises nothing."""
    if state.phase != PLAYING:
        return "Roll for first player first." if state.phase != OVER else "The game is over."
    if seat != state.current:
        return f"It is {state.name(state.current)}'s turn."
    return None


def _no_roll_pending(state: Gateway, seat: int) -> str | None:
    if state.waiting == MOVE:
        return "Roll the D6 for the move first (or undo)."
    if state.waiting == RESCUE:
        return "Roll the D8 and the D6 for the rescue first (or undo)."
    return None


def _not_acted(state: Gateway, seat: int) -> str | None:
    return f"{state.name(seat)} already rolled to move this turn." if state.acted else None


def _rescue_allowed(state: Gateway, seat: int) -> str | None:
    player = state.rescuers[seat]
    if player.world != HOME:
        return (f"{player.name} is in the creatures' world: a rescue is tried from the players' world, "
                f"so reach the portal to come home first.")
    if state.acted and state.allowance is None:
        return f"{player.name} already tried a rescue this turn."
    return None


def _in_creatures_world(state: Gateway, seat: int) -> str | None:
    player = state.rescuers[seat]
    return None if player.world == CREATURES else f"{player.name} is already in the players' world."


def _has_moved(state: Gateway, seat: int) -> str | None:
    return None if state.allowance is not None else "Roll the D6 and move to the portal first."


def _has_acted(state: Gateway, seat: int) -> str | None:
    return None if state.acted else "Take your turn's action first: move, or try a rescue."


def _move(state: Gateway, act: Act) -> Gateway:
    return say(replace(state, waiting=MOVE), f"{state.name(act.seat)} moves: roll the D6.")


def _rescue(state: Gateway, act: Act) -> Gateway:
    line = f"{state.name(act.seat)} tries to rescue a creature: roll the D8 and the D6 together."
    return say(replace(state, waiting=RESCUE, allowance=None), line)


def _through_portal(state: Gateway, act: Act) -> Gateway:
    return turns.through_portal(state)


def _end_turn(state: Gateway, act: Act) -> Gateway:
    return turns.end_turn(say(state, f"{state.name(act.seat)} ends the turn."))


def _set_world(state: Gateway, act: Act) -> Gateway:
    """The state with a player's world put right (a mis-tapped portal cannot be undone: it passed the turn);
    raises IllegalMove when the player is already there."""
    seat, world = act.args["player"], act.args["world"]
    player = state.rescuers[seat]
    if player.world == world:
        raise IllegalMove(f"{player.name} is already in {WORLD_NAMES[world]}: there is nothing to correct.")
    state = rescuer_replaced(state, seat, replace(player, world=world, held_at_centre=False))
    return say(state, f"Corrected: {player.name} is in {WORLD_NAMES[world]}, not {WORLD_NAMES[player.world]}.")


def _world_args(state: Gateway, seat: int) -> JSON:
    """The arguments of a world correction: the player and where they are; raises nothing."""
    return obj({"player": integer(0, len(state.rescuers) - 1, "player"),
                "world": choice([HOME, CREATURES], "where they are")}, ("player", "world"))


MOVES: tuple[MoveRule[Gateway], ...] = (
    MoveRule("move", "Move (roll the D6)", _move, first_reason(your_turn, _no_roll_pending, _not_acted), weight=2.0),
    MoveRule("rescue", "Try a rescue (roll the D8 and the D6)", _rescue,
             first_reason(your_turn, _no_roll_pending, _rescue_allowed), weight=3.0),
    MoveRule("through_portal", "Through the portal", _through_portal,
             first_reason(your_turn, _no_roll_pending, _in_creatures_world, _has_moved), weight=4.0),
    MoveRule("end_turn", "End turn", _end_turn, first_reason(your_turn, _no_roll_pending, _has_acted), undoable=False),
    MoveRule("set_world", "Correct where a player is", _set_world, anytime, _world_args, weight=0.03),
)
