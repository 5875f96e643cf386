"""Both languages of The Gate: log lines, refusals and the names of things, in English and Korean."""
from __future__ import annotations

from companion.games.the_gate.state import ATTACK, DEFENCE, GATE, ONE_SHOT, Duel
from companion.rules.game import say
from companion.rules.said import Said, in_korean

KIND_NAMES = {
    ATTACK: ("attack", "공격강화"),
    DEFENCE: ("defence", "방어강화"),
    GATE: ("gate", "게이트 강화"),
    ONE_SHOT: ("one-shot", "일시강화"),
}
SIDE_NAMES = {ATTACK: ("attack", "공격력"), DEFENCE: ("defence", "방어력")}


def tell(state: Duel, english: str, korean: str) -> Duel:
    """The state with a log line in both languages (the last LOG_LINES kept); raises TypeError for no text."""
    return say(state, Said(english, korean))


def bilingual(line: str) -> dict[str, str]:
    """A log line as {"en", "ko"} (one without a Korean twin as it is in both); raises nothing."""
    return {"en": str(line), "ko": in_korean(line)}


def kind_name(kind: str) -> tuple[str, str]:
    """A reinforcement kind's name in English and Korean; raises KeyError for an unknown kind."""
    return KIND_NAMES[kind]


def refill_reminder() -> tuple[str, str]:
    """The refill step, which happens on the table, in both languages; raises nothing."""
    return (
        "Refill: discard the hand and draw 6 (an empty deck is reshuffled from the discard pile, "
        "unless the draw empties it exactly).",
        "보충 단계: 손의 카드를 모두 더그아웃에 버리고 6장 드로우 (덱이 부족하면 더그아웃을 섞어 새 덱을 만듭니다. "
        "단, 덱이 정확히 0장이 되면 새로 만들지 않습니다).",
    )
