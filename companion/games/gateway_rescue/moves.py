"""Gateway's moves: roll to move, try a rescue, go through the portal, end the turn; correct where a player is."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.gateway_rescue import turns
from companion.games.gateway_rescue.rescue import rescuer_replaced
from companion.games.gateway_rescue.state import CREATURES, HOME, MOVE, OVER, PLAYING, RESCUE, Gateway
from companion.games.gateway_rescue.words import world_name
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, anytime, first_reason, say
from companion.rules.said import Said
from companion.rules.schema import JSON, choice, integer, obj

Reason = Callable[[Gateway, int], "str | None"]


def your_turn(state: Gateway, seat: int) -> str | None:
    """None when this seat may act now, else why not; raises nothing."""
    if state.phase != PLAYING:
        if state.phase == OVER:
            return Said("The game is over.", "게임이 끝났습니다.")
        return Said("Roll for first player first.", "먼저 시작 플레이어를 정하는 굴림을 하세요.")
    if seat != state.current:
        return Said(f"It is {state.name(state.current)}'s turn.", f"{state.name(state.current)}의 턴입니다.")
    return None


def _no_roll_pending(state: Gateway, seat: int) -> str | None:
    """None when no roll of this turn is awaited, else why not; raises nothing."""
    if state.waiting == MOVE:
        return Said("Roll the D6 for the move first (or undo).", "먼저 이동 D6를 굴리세요 (또는 되돌리세요).")
    if state.waiting == RESCUE:
        return Said("Roll the D8 and the D6 for the rescue first (or undo).",
                    "먼저 구출 D8과 D6를 굴리세요 (또는 되돌리세요).")
    return None


def _not_acted(state: Gateway, seat: int) -> str | None:
    """None when the player has not rolled to move this turn, else why not; raises nothing."""
    if not state.acted:
        return None
    return Said(f"{state.name(seat)} already rolled to move this turn.",
                f"{state.name(seat)}은(는) 이번 턴에 이미 이동 굴림을 했습니다.")


def _rescue_allowed(state: Gateway, seat: int) -> str | None:
    """None when the player may try a rescue now, else why not; raises nothing."""
    player = state.rescuers[seat]
    if player.world != HOME:
        return Said(f"{player.name} is in the creatures' world: a rescue is tried from the players' world, "
                    f"so reach the portal to come home first.",
                    f"{player.name}은(는) 생물의 세계에 있습니다: 구출은 플레이어의 세계에서 시도하므로, "
                    f"먼저 포털까지 가서 돌아오세요.")
    if state.acted and state.allowance is None:
        return Said(f"{player.name} already tried a rescue this turn.",
                    f"{player.name}은(는) 이번 턴에 이미 구출을 시도했습니다.")
    return None


def _in_creatures_world(state: Gateway, seat: int) -> str | None:
    """None when the player is in the creatures' world, else why not; raises nothing."""
    player = state.rescuers[seat]
    if player.world == CREATURES:
        return None
    return Said(f"{player.name} is already in the players' world.", f"{player.name}은(는) 이미 플레이어의 세계에 있습니다.")


def _has_moved(state: Gateway, seat: int) -> str | None:
    """None when the move's D6 gave steps this turn, else why not; raises nothing."""
    return None if state.allowance is not None else Said("Roll the D6 and move to the portal first.",
                                                        "먼저 D6를 굴려 포털까지 이동하세요.")


def _has_acted(state: Gateway, seat: int) -> str | None:
    """None when the player moved or tried a rescue this turn, else why not; raises nothing."""
    return None if state.acted else Said("Take your turn's action first: move, or try a rescue.",
                                         "먼저 이번 턴의 행동을 하세요: 이동하거나 구출을 시도하세요.")


def _move(state: Gateway, act: Act) -> Gateway:
    """The state waiting for the move's D6; raises nothing."""
    name = state.name(act.seat)
    return say(replace(state, waiting=MOVE), Said(f"{name} moves: roll the D6.", f"{name}의 이동: D6를 굴리세요."))


def _rescue(state: Gateway, act: Act) -> Gateway:
    """The state waiting for the rescue's D8 and D6; raises nothing."""
    name = state.name(act.seat)
    line = Said(f"{name} tries to rescue a creature: roll the D8 and the D6 together.",
                f"{name}의 구출 시도: D8과 D6를 함께 굴리세요.")
    return say(replace(state, waiting=RESCUE, allowance=None), line)


def _through_portal(state: Gateway, act: Act) -> Gateway:
    return turns.through_portal(state)


def _end_turn(state: Gateway, act: Act) -> Gateway:
    """The state with the turn passed (or the game over); raises nothing."""
    name = state.name(act.seat)
    return turns.end_turn(say(state, Said(f"{name} ends the turn.", f"{name}의 턴이 끝났습니다.")))


def _set_world(state: Gateway, act: Act) -> Gateway:
    """The state with a player's world put right (a mis-tapped portal cannot be undone: it passed the turn);
    raises IllegalMove when the player is already there."""
    seat, world = act.args["player"], act.args["world"]
    player = state.rescuers[seat]
    (there, there_ko), (was, was_ko) = world_name(world), world_name(player.world)
    if player.world == world:
        raise IllegalMove(Said(f"{player.name} is already in {there}: there is nothing to correct.",
                               f"{player.name}은(는) 이미 {there_ko}에 있습니다: 바로잡을 것이 없습니다."))
    state = rescuer_replaced(state, seat, replace(player, world=world, held_at_centre=False))
    return say(state, Said(f"Corrected: {player.name} is in {there}, not {was}.",
                           f"위치 정정: {player.name}은(는) {was_ko}가 아니라 {there_ko}에 있습니다."))


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
