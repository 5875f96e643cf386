"""Turn order: the lowest-D6 roll-off, clockwise turns, the portal home and the end of the game."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_rescue.rescue import rescuer_replaced
from companion.games.gateway_rescue.state import FIRST_ROLL, HOME, OVER, PLAYING, Gateway
from companion.games.gateway_rescue.words import origin_note
from companion.rules.game import say
from companion.rules.said import Said, listed


def rolling_for_first(state: Gateway) -> int | None:
    """The seat whose roll-off D6 is awaited, or None; raises nothing."""
    if state.phase != FIRST_ROLL or len(state.first_rolls) >= len(state.contenders):
        return None
    return state.contenders[len(state.first_rolls)]


def record_first_roll(state: Gateway, value: int, origin: str) -> Gateway:
    """The roll-off with the next D6 in: the lowest starts, the tied lowest re-roll; raises nothing."""
    roller = state.contenders[len(state.first_rolls)]
    source, source_ko = origin_note(origin)
    name = state.name(roller)
    state = say(replace(state, first_rolls=state.first_rolls + (value,)),
                Said(f"{name} rolled {value}{source} for first player.", f"{name}: 시작 플레이어 굴림 {value}{source_ko}."))
    if len(state.first_rolls) < len(state.contenders):
        return state
    low = min(state.first_rolls)
    tied = tuple(seat for seat, roll in zip(state.contenders, state.first_rolls) if roll == low)
    if len(tied) > 1:
        names, names_ko = listed([state.name(seat) for seat in tied])
        return say(replace(state, contenders=tied, first_rolls=()),
                   Said(f"{names} tied lowest on {low}: they roll again.",
                        f"{names_ko}: 가장 낮은 눈({low})이 같아 다시 굴립니다."))
    first = state.name(tied[0])
    state = say(replace(state, contenders=(), first_rolls=()),
                Said(f"{first} rolled lowest and goes first.", f"{first}이(가) 가장 낮은 눈을 굴려 먼저 시작합니다."))
    return begin_turn(replace(state, phase=PLAYING, current=tied[0]))


def begin_turn(state: Gateway) -> Gateway:
    """The current player's turn starts (a player held at the centre is free again); raises nothing."""
    player = replace(state.rescuer, held_at_centre=False)
    state = replace(rescuer_replaced(state, state.current, player), turn=state.turn + 1, waiting=None,
                    allowance=None, acted=False)
    where, where_ko = ("the players' world", "플레이어의 세계") if player.world == HOME else (
        "the creatures' world (reach the portal to come home)", "생물의 세계 (돌아오려면 포털까지 가세요)")
    return say(state, Said(f"{player.name}'s turn, in {where}: move, or try a rescue.",
                           f"{player.name}의 턴입니다. 위치: {where_ko}. 이동하거나 구출을 시도하세요."))


def end_turn(state: Gateway) -> Gateway:
    """The turn passes clockwise, or the game ends when the last creature is home; raises nothing."""
    if state.creatures_left == 0:
        return say(replace(state, phase=OVER, waiting=None, allowance=None),
                   Said("The last creature is home: the game is over.", "마지막 생물이 집에 돌아왔습니다: 게임이 끝났습니다."))
    following = (state.current + 1) % len(state.rescuers)
    return begin_turn(replace(state, current=following))


def through_portal(state: Gateway) -> Gateway:
    """The state once the current player is home in the centre and the turn passed; raises nothing."""
    player = replace(state.rescuer, world=HOME, held_at_centre=True)
    state = say(rescuer_replaced(state, state.current, player),
                Said(f"{player.name} goes through the portal and appears in the centre of the players' world, "
                     f"staying there until their next turn.",
                     f"{player.name}이(가) 포털을 통과해 플레이어의 세계 중앙에 나타나, 다음 턴까지 그곳에 머뭅니다."))
    return end_turn(state)
