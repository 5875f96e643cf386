"""Gateway (the city)'s words in Korean, for the sentences said in both languages: phases, districts,
the Horde and the City Guard, cards, and the particle that follows a name."""
from __future__ import annotations

import re
from typing import NamedTuple

from companion.games.gateway_city.state import (
    ATTACK,
    CLEANUP,
    DEPLOYMENT,
    DRAFTING,
    EVENT,
    GUARD,
    HORDE,
    NOBODY,
    PLAYER,
    Card,
    City,
    District,
    Side,
)

# The same words as the page's own labels (web/static/games/gateway-city.js).
PHASE_NAMES_KO = {DEPLOYMENT: "배치", DRAFTING: "영입", ATTACK: "공격", CLEANUP: "정리", EVENT: "이벤트 뽑기"}
PHASE_TITLES_KO = {
    DEPLOYMENT: "배치: 파워 포인트 1로 카드 내기, 구역 능력 하나",
    DRAFTING: "영입: 풀의 골드로 카드 구매",
    ATTACK: "공격: 군대 전체로 구역 하나 공격",
    CLEANUP: "정리: 카드 버리기, 반란군과 룬스톤은 남기기, 6장 뽑기",
    EVENT: "라운드 종료: 시작 플레이어가 이벤트 카드 뽑기",
}
FACTION_NAMES_KO = {HORDE: "호드", GUARD: "시 경비대", NOBODY: "없음"}
CARD_KINDS = {HORDE: "Horde", GUARD: "City Guard"}
CARD_KINDS_KO = {HORDE: "호드", GUARD: "시 경비대"}
INSURGENT_KO = "반란군"


class Both(NamedTuple):
    """A name or a phrase in English and in Korean, to build a sentence in both."""

    en: str
    ko: str


_BRACKETED_END = re.compile(r"\s*\([^()]*\)$")
_FIRST_SYLLABLE, _LAST_SYLLABLE = 0xAC00, 0xD7A3


def josa(word: str, pair: str) -> str:
    """The word and its particle from `pair` ("이/가", "을/를", "은/는", "과/와"): the right one after a
    Korean word (a bracket at the end read past), both forms ("이(가)") after any other name; raises
    nothing."""
    after_consonant, after_vowel = pair.split("/")
    last = _BRACKETED_END.sub("", word)[-1:]
    if last and _FIRST_SYLLABLE <= ord(last) <= _LAST_SYLLABLE:
        has_final = (ord(last) - _FIRST_SYLLABLE) % 28 != 0
        return word + (after_consonant if has_final else after_vowel)
    return f"{word}{after_consonant}({after_vowel})"


def district_ko(district: District) -> str:
    """'3번 구역' or '3번 구역 (Old Market)', as district_title says it in English; raises nothing."""
    default = f"{district.number}번 구역"
    return default if district.name == f"District {district.number}" else f"{default} ({district.name})"


def place_ko(state: City, number: int) -> str:
    """The district with that number in Korean; raises IndexError for a number not on the table."""
    return district_ko(state.district(number))


def side_ko(state: City, side: Side) -> str:
    """Who fights on that side: the player's name, or the Horde / City Guard in Korean; raises
    IndexError for a bad seat."""
    if side.faction == PLAYER and side.seat is not None:
        return state.name(side.seat)
    return FACTION_NAMES_KO.get(side.faction, side.faction)


def card_ko(card: Card) -> str:
    """The card's name, or its kind (also when named after it, as each district's first City Guard),
    with its numbers ('호드 (3/2)'), as Card.title in English; raises nothing."""
    unnamed = not card.name or card.name == CARD_KINDS.get(card.kind)
    label = CARD_KINDS_KO.get(card.kind, INSURGENT_KO) if unnamed else card.name
    return f"{label} ({card.attack}/{card.defence})"
