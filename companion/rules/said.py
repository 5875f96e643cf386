"""Sentences for the players in both languages of the page: English, with a Korean twin.

A `Said` is the English sentence itself (a str: equal to it, hashed as it, written to JSON and logs as
it), carrying its Korean in `ko`. So a game words a log line or a refusal once, in both languages, and
everything that handles English text keeps working; what shows players a sentence (the snapshot's log,
a refusal's answer) adds the Korean beside it for the Korean page.
"""
from __future__ import annotations

from typing import Iterable


class Said(str):
    """An English sentence for players that knows its Korean twin (`ko`)."""

    ko: str

    def __new__(cls, english: str, korean: str) -> Said:
        """The sentence `english` with `korean` as its twin; raises TypeError when either is not text."""
        if not isinstance(english, str) or not isinstance(korean, str):
            raise TypeError("a sentence and its Korean twin are both text")
        sentence = super().__new__(cls, english)
        sentence.ko = korean
        return sentence

    def __reduce__(self) -> tuple[type[Said], tuple[str, str]]:
        """Copies and pickles keep the twin; raises nothing."""
        return Said, (str(self), self.ko)


def counted(count: int, noun: str, plural: str = "") -> str:
    """A count with its noun, singular for one ("1 point", "3 points"; "2 dice" with `plural`); raises nothing."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def listed(names: Iterable[str]) -> tuple[str, str]:
    """Player names listed in English ("Ann and Bo") and in Korean ("Ann, Bo"); raises nothing."""
    every = list(names)
    return " and ".join(every), ", ".join(every)


def korean(sentence: str) -> str | None:
    """The Korean twin of a sentence, or None when it has none (plain English); raises nothing."""
    return sentence.ko if isinstance(sentence, Said) else None


def in_korean(sentence: str) -> str:
    """The sentence as the Korean page shows it: its twin, else the English as it is; raises nothing."""
    twin = korean(sentence)
    return sentence if twin is None else twin
