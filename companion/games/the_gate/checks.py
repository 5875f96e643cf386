"""Why a move of The Gate is refused now (None when it is allowed), in both languages."""
from __future__ import annotations

from typing import Callable

from companion.games.the_gate.state import CHOOSING_FIRST, PLAYING, Duel
from companion.rules.errors import IllegalMove
from companion.rules.said import Said

Reason = Callable[[Duel, int], "str | None"]


def all_of(*reasons: Reason) -> Reason:
    """A check that gives the first refusal among several; raises nothing."""
    def why_not(state: Duel, seat: int) -> str | None:
        return next((reason for check in reasons if (reason := check(state, seat)) is not None), None)

    return why_not


def choosing_first(state: Duel, seat: int) -> str | None:
    """None while the first player is still to be chosen; raises nothing."""
    if state.phase == CHOOSING_FIRST:
        return None
    return Said("The first player is already chosen.", "선은 이미 정해졌습니다.")


def playing(state: Duel, seat: int) -> str | None:
    """None once the game is under way; raises nothing."""
    if state.phase == PLAYING:
        return None
    if state.phase == CHOOSING_FIRST:
        return Said("Decide who goes first: toss the coin, or choose after rock–paper–scissors.",
                    "먼저 선을 정하세요: 동전 던지기, 또는 가위바위보 후 선택.")
    return Said("The game is over.", "게임이 끝났습니다.")


def your_turn(state: Duel, seat: int) -> str | None:
    """None when it is this seat's turn to act; raises nothing."""
    refusal = playing(state, seat)
    if refusal is None and seat != state.current:
        name = state.name(state.current)
        return Said(f"It is {name}'s turn.", f"지금은 {name}의 턴입니다.")
    return refusal


def no_battle(state: Duel, seat: int) -> str | None:
    """None when no battle is under way; raises nothing."""
    if state.battle is None:
        return None
    return Said("Finish the battle first.", "먼저 전투를 끝내세요.")


def before_clash(state: Duel, seat: int) -> str | None:
    """None while a battle waits for abilities and the clash; raises nothing."""
    refusal = playing(state, seat)
    if refusal is not None:
        return refusal
    if state.battle is None:
        return Said("No battle is under way.", "진행 중인 전투가 없습니다.")
    if state.battle.won:
        return Said("The clash is decided: the attacker chooses 1 damage or removing a reinforcement.",
                    "충돌 결과가 나왔습니다: 공격자가 1 데미지 또는 강화 카드 제거를 고릅니다.")
    return None


def attack_won(state: Duel, seat: int) -> str | None:
    """None when the attacker of a won clash chooses its effect; raises nothing."""
    refusal = your_turn(state, seat)
    if refusal is not None:
        return refusal
    if state.battle is None or not state.battle.won:
        return Said("No attack has succeeded: settle the clash first.", "성공한 공격이 없습니다: 먼저 충돌을 처리하세요.")
    return None


def refuse(english: str, korean: str) -> IllegalMove:
    """The IllegalMove to raise, with its sentence in both languages; raises nothing."""
    return IllegalMove(Said(english, korean))
