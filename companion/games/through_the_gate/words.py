"""The parts Through The Gate's sentences are built from, in English and Korean: check and card titles,
tallies, and a check's verdict and the game's result as sentences with their Korean twins."""
from __future__ import annotations

from typing import Iterable, Mapping

from companion.games.through_the_gate import checks, korean, scoring
from companion.games.through_the_gate.state import Check
from companion.rules.said import Said, counted, listed

CHECK_TITLES = {  # the Korean of checks.CHECK_TITLES, in the words of the page's labels
    "item": "아이템 판정 (🔧): 굴림 ≥ 속도면 아이템을 가집니다",
    "less": "굴림 < 속도?",
    "greater": "굴림 > 속도?",
    "six": "굴림 = 6?",
    "equal": "굴림 = 속도?",
    "three_less": "세 번 굴림: 굴림 < 속도마다 실패",
    "djinn": "장난꾸러기 지니: 1–2 버리기, 3–4 아무 일 없음, 5–6 카드 가져오기",
    "odd_even": "홀수 또는 짝수? (움켜쥐는 나무들)",
}
MODIFIERS = {  # the Korean of the titles in checks.MODIFIERS
    "brooch_of_alertness": "경계의 브로치 +2",
    "braid_of_confusion": "혼란의 머리띠 −2",
    "bottled_imp_plus": "병 속의 임프 +1",
    "bottled_imp_minus": "병 속의 임프 −1",
    "companion_bonus": "동료: 도전에 +1",
}
TALLIES = {"compassion": "♥ 연민", "strength": "♠ 힘", "wisdom": "♣ 지혜", "wild": "✦ 와일드",
           "companions": "🦄 동료", "diary": "📖 일기 카드"}


def check_title(kind: str) -> tuple[str, str]:
    """A roll check's title in English and Korean; raises KeyError for an unknown kind."""
    return checks.CHECK_TITLES[kind], CHECK_TITLES[kind]


def stopped(sentence: str) -> str:
    """The sentence with a full stop, unless it already ends in one or a question mark ("Ann: Roll = 6?");
    raises nothing."""
    return sentence if sentence.endswith((".", "?", "!")) else sentence + "."


def card_title(card: str) -> tuple[str, str]:
    """A modifying card's title (with its amount) in English and Korean; raises KeyError for an unknown card."""
    return checks.MODIFIERS[card][1], MODIFIERS[card]


def tallies(entered: Mapping[str, int], order: Iterable[str]) -> tuple[str, str]:
    """Entered diary tallies, in `order`, as "compassion 3, wild 1" in English and Korean; raises KeyError
    for a tally with no Korean name."""
    keys = [key for key in order if key in entered]
    return (", ".join(f"{key} {entered[key]}" for key in keys),
            ", ".join(f"{TALLIES[key]} {entered[key]}" for key in keys))


def verdict(check: Check) -> Said:
    """The check's result as a log line, raw die and modified value shown, with its Korean; raises nothing."""
    return Said(checks.verdict(check), korean.verdict(check))


def competitive_result(names: Iterable[str], victories: int) -> Said:
    """Who won a competitive game and with how many victories, in both languages; raises nothing."""
    winners = list(names)
    english, korean_names = listed(winners)
    won = counted(victories, "victory", "victories")
    if len(winners) > 1:
        return Said(f"{english} win with {won}.", f"{korean_names} 공동 승리: 승리 칭호 {victories}개.")
    return Said(f"{english} wins with {won}.", f"{korean_names} 승리: 승리 칭호 {victories}개.")


def solo_result(met: int) -> Said:
    """How a solo adventure ended: the targets reached of five, in both languages; raises nothing."""
    return Said(f"Adventure over: {met} of 5 targets reached.", f"모험 끝: 목표 5개 중 {met}개 달성.")


def ice_queen_result(met: int) -> Said:
    """What meeting `met` of the five targets means against the Ice Queen, in both languages; raises nothing."""
    band = scoring.ice_queen_band(met)
    if band == scoring.BANISHED:
        return Said("All five targets met: the Ice Queen is banished!", "목표 다섯 개를 모두 달성: 얼음 여왕을 몰아냈습니다!")
    if band == scoring.ESCAPES:
        return Said(f"{met} of 5 targets met: you win, but the Ice Queen escapes.",
                    f"목표 5개 중 {met}개 달성: 이겼지만 얼음 여왕은 달아납니다.")
    return Said(f"Only {met} of 5 targets met: the Ice Queen wins.", f"목표 5개 중 {met}개만 달성: 얼음 여왕이 이깁니다.")
