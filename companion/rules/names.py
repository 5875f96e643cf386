"""Players' names judged by what a person sees (stdlib only).

A name is what people read on the table: its length counts the characters they see (a family emoji
joined with zero-width joiners, a flag or a letter with its accents is one), and a name whose
characters all show nothing (spaces, Hangul fillers, the blank Braille cell, joiners and other
invisible format characters, accents with no letter under them) is blank. Zero-width joiners and
non-joiners stay where they join parts of a word or an emoji (Persian writes with U+200C), not
between plain letters, where they would only make "Ann" a name that looks like another; and a
letter may carry at most MAX_MARKS stacked accents, so no name draws over its neighbours.
"""
from __future__ import annotations

import unicodedata

from companion.rules.errors import BadInput
from companion.rules.said import Said

MAX_MARKS = 4
ZWJ, ZWNJ = "\u200d", "\u200c"
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # Hangul fillers, the blank Braille cell
"""Characters that are letters or symbols to Unicode but show nothing."""
TAGS = range(0xE0020, 0xE0080)  # the tag characters of subdivision flags (England, Scotland, Wales)
REGIONAL = range(0x1F1E6, 0x1F200)  # two regional indicators make a country's flag
SKIN_TONES = range(0x1F3FB, 0x1F400)
UNSHOWN = ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")  # controls, surrogates, private use, unassigned, line breaks
MARKS = ("Mn", "Me")


def check_name(name: object, longest: int) -> str:
    """The name with its spaces tidied (runs of spaces made one, none at the ends), when people would see it and it is
    at most `longest` characters as they see them; raises BadInput with a sentence naming what is wrong."""
    if not isinstance(name, str) or not name.strip():
        raise BadInput("Each player's name must be some text.")
    clean = " ".join(name.split())
    if any(_unshown(char) for char in clean) or not _joiners_join(clean):
        raise BadInput(Said("A player's name may hold only characters people can see, not control or invisible ones.",
                            "플레이어 이름에는 보이는 문자만 쓸 수 있습니다(제어 문자나 보이지 않는 문자는 안 됩니다)."))
    seen = shown_characters(clean)
    if not any(_visible(character) for character in seen):
        raise BadInput(Said("Each player's name must be something people can see, not only blank or invisible "
                            "characters.", "플레이어 이름은 빈칸이나 보이지 않는 문자만이 아니라 보이는 글자여야 합니다."))
    if any(_marks(character) > MAX_MARKS for character in seen):
        raise BadInput(Said(f"A letter of a player's name may carry at most {MAX_MARKS} accents or marks.",
                            f"플레이어 이름의 한 글자에는 부호를 {MAX_MARKS}개까지만 붙일 수 있습니다."))
    if len(seen) > longest:
        raise BadInput(f"A player's name must be at most {longest} printable characters.")
    return clean


def shown_characters(text: str) -> list[str]:
    """The text cut into the characters people see: a letter with its marks, an emoji with its joined parts, skin
    tone and variation selector, a flag; raises nothing."""
    shown: list[str] = []
    joining = False
    for char in text:
        if shown and (joining or _extends(char) or _second_half_of_flag(shown[-1], char)):
            shown[-1] += char
        else:
            shown.append(char)
        joining = char == ZWJ and unicodedata.category(shown[-1][0]) == "So"  # an emoji ZWJ sequence goes on
    return shown


def _extends(char: str) -> bool:
    """Whether the character belongs to the one before it (a mark, a joiner, a tag, a skin tone); raises nothing."""
    return (unicodedata.category(char) in ("Mn", "Me", "Mc") or char in (ZWJ, ZWNJ) or ord(char) in TAGS
            or ord(char) in SKIN_TONES)


def _second_half_of_flag(before: str, char: str) -> bool:
    """Whether the character is the second regional indicator of a flag; raises nothing."""
    return ord(char) in REGIONAL and len(before) == 1 and ord(before) in REGIONAL


def _unshown(char: str) -> bool:
    """Whether the character is one no name may hold: a control, an unassigned code, a line break, or an invisible
    format character other than the joiners and a flag's tags; raises nothing."""
    kind = unicodedata.category(char)
    return kind in UNSHOWN or (kind == "Cf" and char not in (ZWJ, ZWNJ) and ord(char) not in TAGS)


def _joiners_join(text: str) -> bool:
    """Whether every zero-width joiner and non-joiner stands between two characters it can join: letters of a script
    that joins (Persian, Arabic, Indic) or parts of an emoji, not plain ASCII, where it would only hide; raises nothing."""
    for at, char in enumerate(text):
        if char in (ZWJ, ZWNJ):
            around = text[at - 1:at] + text[at + 1:at + 2]
            if at == 0 or len(around) < 2 or any(ord(near) < 0x80 or near.isspace() for near in around):
                return False
    return True


def _visible(character: str) -> bool:
    """Whether a character as people see it shows something: not a space, filler or invisible, not marks alone; raises nothing."""
    base = character[0]
    kind = unicodedata.category(base)
    return not (base.isspace() or base in BLANK_LETTERS or kind in MARKS or kind == "Cf")


def _marks(character: str) -> int:
    """How many accents or marks are stacked in a character as people see it (variation selectors aside); raises nothing."""
    return sum(1 for char in character[1:] if unicodedata.category(char) in MARKS and not _selector(char))


def _selector(char: str) -> bool:
    """Whether the character is a variation selector (text or emoji style), which draws nothing; raises nothing."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
