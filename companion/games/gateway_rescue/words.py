"""The parts Gateway's sentences are built of, in English and Korean side by side (the page's Korean terms)."""
from __future__ import annotations

from companion.games.gateway_rescue.state import CREATURES, HOME, WORLD_NAMES

WORLD_NAMES_KO = {HOME: "플레이어의 세계", CREATURES: "생물의 세계"}
ORIGIN_NAMES_KO = {"camera": "카메라", "phone": "휴대폰", "button": "버튼", "host": "호스트", "system": "본체",
                   "corrected": "정정됨"}


def world_name(world: str) -> tuple[str, str]:
    """A world's name, 'the players' world' / '플레이어의 세계'; raises KeyError for an unknown world."""
    return WORLD_NAMES[world], WORLD_NAMES_KO[world]


def origin_note(origin: str) -> tuple[str, str]:
    """Where a die value came from, ' (phone)' / ' (휴대폰)', or nothing when not known; raises nothing."""
    if not origin:
        return "", ""
    return f" ({origin})", f" ({ORIGIN_NAMES_KO.get(origin, origin)})"


def shown(label: str, value: int, origin: str) -> tuple[str, str]:
    """'D8 5 (phone)' / 'D8 5 (휴대폰)', or 'D8 5' when the source is not known; raises nothing."""
    english, korean = origin_note(origin)
    return f"{label} {value}{english}", f"{label} {value}{korean}"
