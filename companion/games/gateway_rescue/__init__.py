"""Gateway (Alexander and Tim Sulim): rescue the creatures with a D6 to move and a D8 to rescue."""
from __future__ import annotations

from dataclasses import replace
from typing import Hashable

from companion.games.gateway_rescue import rescue, turns
from companion.games.gateway_rescue.moves import MOVES
from companion.games.gateway_rescue.state import (
    CREATURES_IN_THE_BOX,
    FIRST_ROLL,
    MOVE,
    OVER,
    PLAYING,
    RESCUE,
    Gateway,
    Rescuer,
)
from companion.games.gateway_rescue.views import leaders, view
from companion.rules.game import DiceRequest, Game, Outcome, Roll, Setup, say
from companion.rules.said import Said, counted, listed
from companion.rules.schema import integer, obj

OPTIONS = obj(
    {
        "creatures": {**integer(1, CREATURES_IN_THE_BOX, "creatures to rescue"), "default": CREATURES_IN_THE_BOX,
                      "description": "how many creatures are spread in the players' world (the box has 6)"},
    }
)


def setup(given: Setup) -> Gateway:
    """A new game: everyone in the centre of the players' world, then the low roll-off; raises nothing."""
    rescuers = tuple(Rescuer(name) for name in given.players)
    count = given.options["creatures"]
    state = Gateway(rescuers, count, count, FIRST_ROLL, contenders=tuple(range(len(rescuers))))
    state = say(state, Said(f"{counted(count, 'creature')} to rescue; everyone starts in the centre of "
                            f"the players' world.", f"구출할 생물 {count}마리. 모두 플레이어의 세계 중앙에서 시작합니다."))
    if len(rescuers) == 1:
        return turns.begin_turn(replace(state, phase=PLAYING, contenders=()))
    return say(state, Said("Lowest roll goes first: everyone rolls the D6 in turn.",
                           "D6가 가장 낮은 사람이 먼저 합니다: 모두 차례대로 D6를 굴리세요."))


def awaiting_dice(state: Gateway) -> DiceRequest | None:
    """The roll the table waits for: a roll-off D6, a move's D6 or a rescue's D8 + D6; raises nothing."""
    roller = turns.rolling_for_first(state)
    if roller is not None:
        first = state.name(roller)
        return DiceRequest((6,), Said(f"{first} rolls the D6 for first player (lowest goes first).",
                                      f"{first}: 시작 플레이어를 정할 D6를 굴리세요 (가장 낮은 사람이 먼저)."), (roller,))
    if state.phase != PLAYING or state.waiting is None:
        return None
    name = state.name(state.current)
    if state.waiting == MOVE:
        return DiceRequest((6,), Said(f"{name} rolls the D6 to move.", f"{name}: 이동하려면 D6를 굴리세요."), (state.current,))
    return DiceRequest((8, 6), Said(f"{name} rolls the D8 and the D6 together to rescue a creature "
                                    f"(the camera reads the D8 only when it is sure of it; if not, "
                                    f"enter it on a phone).",
                                    f"{name}: 생물을 구출하려면 D8과 D6를 함께 굴리세요 "
                                    f"(카메라는 확실할 때만 D8을 읽습니다. 아니면 휴대폰으로 입력하세요)."), (state.current,))


def on_dice(state: Gateway, roll: Roll) -> Gateway:
    """The state after the awaited roll landed; raises nothing (the engine checked the roll)."""
    if state.phase == FIRST_ROLL:
        return turns.record_first_roll(state, roll.values[0], roll.origin(0))
    if state.waiting == RESCUE:
        return turns.end_turn(rescue.attempted(state, roll))
    return rescue.moved(state, roll)


def whose_turn(state: Gateway) -> tuple[int, ...]:
    """The seats expected to act now; raises nothing."""
    if state.phase == FIRST_ROLL:
        roller = turns.rolling_for_first(state)
        return (roller,) if roller is not None else ()
    return (state.current,) if state.phase == PLAYING else ()


def turn_key(state: Gateway) -> Hashable:
    """What identifies the current turn, for undo; raises nothing."""
    return (state.phase, state.turn, len(state.contenders))


def outcome(state: Gateway) -> Outcome | None:
    """Once the last creature is home, everyone tied for most rescues wins; else None; raises nothing."""
    if state.phase != OVER:
        return None
    won = tuple(leaders(state))
    names, names_ko = listed(state.name(seat) for seat in won)
    most = state.rescuers[won[0]].rescues
    verb, verb_ko = ("win", "공동 승리") if len(won) > 1 else ("wins", "승리")
    summary = Said(f"{names} {verb} with {counted(most, 'rescue')}.",
                   f"{names_ko} {verb_ko}: 구출 {most}번.")
    return Outcome(won, summary, {"rescues": [each.rescues for each in state.rescuers], "summary_ko": summary.ko})


GAME: Game[Gateway] = Game(
    id="gateway-rescue",
    title="Gateway: rescue the creatures",
    min_players=1,
    max_players=4,
    options=OPTIONS,
    setup=setup,
    moves=MOVES,
    whose_turn=whose_turn,
    turn_key=turn_key,
    outcome=outcome,
    view=view,
    awaiting_dice=awaiting_dice,
    on_dice=on_dice,
    summary="Rescue 6 creatures: a D6 to move, a D8 + D6 to rescue; 1–4 players.",
)
