"""The D8 rescue table and the two rolls of a turn: the move's D6 and the rescue's D8 + D6."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_rescue.state import CREATURES, MOVE, RESCUE, DiceResult, Gateway, Rescuer
from companion.games.gateway_rescue.words import shown
from companion.rules.game import Roll, say
from companion.rules.said import Said, counted

RESCUED = "rescued"
PUSHED_BACK = "pushed_back"
ESCAPED = "escaped"
ALONE = "alone"

RESULT_BY_REMAINDER = {1: RESCUED, 2: PUSHED_BACK, 3: ESCAPED, 0: ALONE}

RESCUE_TABLE: tuple[tuple[tuple[int, int], str, str], ...] = (
    ((1, 5), RESCUED, "Rescued: player and creature go to the creatures' world; +1 rescue."),
    ((2, 6), PUSHED_BACK, "The creature is afraid and pushes the player back D6 steps."),
    ((3, 7), ESCAPED, "The creature is afraid and escapes D6 steps away from the player."),
    ((4, 8), ALONE, "The player goes to the creatures' world alone; the creature stays behind."),
)


def result_of(d8: int) -> str:
    """What a D8 from 1 to 8 means for a rescue attempt; raises KeyError for another number."""
    if not 1 <= d8 <= 8:
        raise KeyError(d8)
    return RESULT_BY_REMAINDER[d8 % 4]


def consequence(result: str, name: str, d6: int, left: int) -> tuple[str, str]:
    """The rescue's result as a sentence in English and Korean, D6 steps stated where they count; raises KeyError."""
    steps = counted(d6, "step")
    sentences = {
        RESCUED: (f"rescued! {name} and the creature appear in the creatures' world at the same spot; "
                  f"{name} scores a rescue. {counted(left, 'creature')} left.",
                  f"구출 성공! {name}와(과) 생물이 생물의 세계의 같은 자리에 나타납니다. {name}의 구출 +1. "
                  f"남은 생물: {left}마리."),
        PUSHED_BACK: (f"the creature is afraid and pushes {name} back {steps}.",
                      f"겁먹은 생물이 {name}을(를) {d6}칸 밀어냅니다."),
        ESCAPED: (f"the creature is afraid and escapes {steps} away from {name}.",
                  f"겁먹은 생물이 {name}에게서 {d6}칸 도망칩니다."),
        ALONE: (f"{name} travels to the creatures' world alone; the creature stays behind. "
                f"Reach the portal to come home.",
                f"{name} 혼자 생물의 세계로 갑니다. 생물은 남습니다. 돌아오려면 포털까지 가세요."),
    }
    return sentences[result]


def moved(state: Gateway, roll: Roll) -> Gateway:
    """The state after the move's D6: the steps allowed are stated; raises nothing."""
    d6 = roll.values[0]
    seat = state.current
    result = DiceResult(MOVE, seat, d6, roll.origin(0))
    state = replace(state, waiting=None, acted=True, allowance=d6, last_roll=result)
    where, where_ko = ("toward the portal", "포털 쪽으로") if state.rescuer.world == CREATURES else (
        "toward a creature", "생물 쪽으로")
    rolled, rolled_ko = shown("D6", d6, roll.origin(0))
    name = state.name(seat)
    return say(state, Said(f"{name}: {rolled} — move up to {counted(d6, 'step')} {where}, never diagonally.",
                           f"{name}: {rolled_ko} — {where_ko} 최대 {d6}칸 이동하세요 (대각선 불가)."))


def attempted(state: Gateway, roll: Roll) -> Gateway:
    """The state after the rescue's D8 + D6, decided by the D8 table; raises nothing."""
    d8, d6 = roll.values[0], roll.values[1]
    seat = state.current
    result = result_of(d8)
    player = state.rescuer
    left = state.creatures_left
    if result == RESCUED:
        player = replace(player, world=CREATURES, rescues=player.rescues + 1)
        left -= 1
    elif result == ALONE:
        player = replace(player, world=CREATURES)
    dice = DiceResult(RESCUE, seat, d6, roll.origin(1), d8, roll.origin(0), result)
    state = replace(rescuer_replaced(state, seat, player), creatures_left=left, waiting=None, acted=True, last_roll=dice)
    (d8_shown, d8_ko), (d6_shown, d6_ko) = shown("D8", d8, roll.origin(0)), shown("D6", d6, roll.origin(1))
    name = state.name(seat)
    told, told_ko = consequence(result, name, d6, left)
    return say(state, Said(f"{name} tries a rescue: {d8_shown}, {d6_shown} — {told}",
                           f"{name}의 구출 시도: {d8_ko}, {d6_ko} — {told_ko}"))


def rescuer_replaced(state: Gateway, seat: int, rescuer: Rescuer) -> Gateway:
    """The state with one player replaced; raises IndexError for a seat not at the table."""
    return replace(state, rescuers=state.rescuers[:seat] + (rescuer,) + state.rescuers[seat + 1:])
