"""Through The Gate's check verdicts and tie rule in Korean, for the Korean page."""
from __future__ import annotations

from companion.games.through_the_gate import checks
from companion.games.through_the_gate.state import Check

TIE_RULE = ("동점 (규칙서에 없음): 한 승리 칭호를 가장 많이 모은 플레이어가 여럿이면 모두 그 칭호를 받고, "
            "칭호가 가장 많은 플레이어가 여럿이면 모두 이깁니다.")
DJINN = {checks.DISCARD: "카드를 버립니다.", checks.NOTHING: "아무 일도 없습니다.",
         checks.TAKE: "더미에서 카드 한 장을 가져와 일기에 넣습니다."}


def verdict(check: Check) -> str:
    """The check's result in a Korean sentence, raw die and modified value shown; raises nothing."""
    if not check.dice:
        return "굴림을 기다리는 중입니다."
    shown = ", ".join(checks.show_die(die) for die in check.dice)
    if check.awaiting:
        return f"굴린 값 {shown}; 다음 굴림을 기다리는 중입니다."
    return f"굴린 값 {shown} (속도 {check.speed}): {_ruling(check)}"


def _ruling(check: Check) -> str:
    value = check.dice[0].value
    if check.kind == "item":
        return "아이템을 가집니다." if checks.passed(check) else "아이템을 못 보고 지나쳐 버립니다."
    if check.kind == "three_less":
        count = checks.failures(check)
        return f"실패 {count}번 — 카드 {count}장을 버립니다."
    if check.kind == "djinn":
        return f"{value}: {DJINN[checks.djinn(value)]}"
    if check.kind == "odd_even":
        return f"{value}: {'홀수' if value % 2 else '짝수'}."
    return " ".join(f"{value} {symbol} {target}? {'예' if held else '아니오'}."
                    for symbol, target, held in checks.conditions(check))
