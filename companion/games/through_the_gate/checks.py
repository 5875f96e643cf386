"""The roll checks printed on the cards, each decided by the die against the speed."""
from __future__ import annotations

from dataclasses import replace

from companion.games.through_the_gate.state import Check, Die
from companion.rules.said import counted

CHECK_TITLES = {
    "item": "Item check (🔧): roll ≥ speed keeps the item",
    "less": "Roll < speed?",
    "greater": "Roll > speed?",
    "six": "Roll = 6?",
    "equal": "Roll = speed?",
    "three_less": "Three rolls: each roll < speed is a failure",
    "djinn": "Frolicking Djinn: 1–2 discard, 3–4 nothing, 5–6 take a card",
    "odd_even": "Odd or even? (Grasping Trees)",
}
CHECKS = tuple(CHECK_TITLES)
YES_NO = ("less", "greater", "six", "equal")
"""The checks a card may ask of one die twice ("If it is a six, … If it is less than your speed, …")."""

MODIFIERS = {
    "brooch_of_alertness": (2, "Brooch of Alertness +2"),
    "braid_of_confusion": (-2, "Braid of Confusion −2"),
    "bottled_imp_plus": (1, "Bottled Imp +1"),
    "bottled_imp_minus": (-1, "Bottled Imp −1"),
    "companion_bonus": (1, "Companion's +1 to the challenge"),
}


def add_roll(check: Check, raw: int) -> Check:
    """The check with a die rolled in (or a re-roll replacing one); raises nothing."""
    if check.reroll_index is not None:
        old = check.dice[check.reroll_index]
        dice = list(check.dice)
        dice[check.reroll_index] = Die(raw, old.modifier)
        return replace(check, dice=tuple(dice), reroll_index=None)
    return replace(check, dice=check.dice + (Die(raw, check.next_modifier),), next_modifier=0)


def modify(check: Check, amount: int, index: int | None = None) -> Check:
    """The check with a modifier on the rolled die at `index` if given, else on the die about to be
    rolled, else on the last die rolled; raises nothing (the caller checks the index)."""
    if index is None and check.awaiting and check.reroll_index is None:
        return replace(check, next_modifier=check.next_modifier + amount)
    if index is None:
        index = check.reroll_index if check.reroll_index is not None else len(check.dice) - 1
    dice = list(check.dice)
    dice[index] = replace(dice[index], modifier=dice[index].modifier + amount)
    return replace(check, dice=tuple(dice))


def verdict(check: Check) -> str:
    """The check's result in a sentence, raw die and modified value shown; raises nothing."""
    if not check.dice:
        return "Waiting for the roll."
    shown = ", ".join(show_die(die) for die in check.dice)
    if check.awaiting:
        return f"Rolled {shown}; waiting for the next roll."
    return f"Rolled {shown} against speed {check.speed}: {_ruling(check)}"


def passed(check: Check) -> bool | None:
    """Whether the card's condition holds (None for the Djinn table); raises nothing."""
    if check.awaiting:
        return None
    value, speed = check.dice[0].value, check.speed
    rulings = {
        "item": value >= speed,
        "less": value < speed,
        "greater": value > speed,
        "six": value == 6,
        "equal": value == speed,
        "three_less": failures(check) == 0,
    }
    return rulings.get(check.kind)


def failures(check: Check) -> int:
    """How many dice of the check came out below the speed; raises nothing."""
    return sum(1 for die in check.dice if die.value < check.speed)


def show_die(die: Die) -> str:
    """A die as "raw" or "raw + modifier = value"; raises nothing."""
    if die.modifier == 0:
        return str(die.raw)
    sign = "+" if die.modifier > 0 else "−"
    return f"{die.raw} {sign} {abs(die.modifier)} = {die.value}"


def _ruling(check: Check) -> str:
    value = check.dice[0].value
    if check.kind == "item":
        return "the item is kept." if value >= check.speed else "the item is overlooked and discarded."
    if check.kind == "three_less":
        count = failures(check)
        return f"{counted(count, 'failure')} — discard {counted(count, 'card')}."
    if check.kind == "djinn":
        return f"{value}: " + {DISCARD: "discard.", NOTHING: "nothing happens.",
                               TAKE: "take a card from the pile and put it in your diary."}[djinn(value)]
    if check.kind == "odd_even":
        return f"{value}: {'odd' if value % 2 else 'even'}."
    return " ".join(f"{value} {symbol} {target}? {'yes' if held else 'no'}."
                    for symbol, target, held in conditions(check))


def comparison(check: Check, kind: str | None = None) -> tuple[str, int]:
    """The sign and the number a yes/no check (or its `kind` condition) compares its die with; raises
    KeyError for another kind."""
    kind = kind or check.kind
    symbol = {"less": "<", "greater": ">", "six": "=", "equal": "="}[kind]
    return symbol, 6 if kind == "six" else check.speed


def conditions(check: Check) -> list[tuple[str, int, bool]]:
    """Every yes/no condition of a rolled check, the card's second one too, each as (sign, number, held),
    all decided by the one die; raises KeyError for a check of another kind."""
    value = check.dice[0].value
    tests = {"<": value.__lt__, ">": value.__gt__, "=": value.__eq__}
    found = []
    for kind in (check.kind,) if check.also is None else (check.kind, check.also):
        symbol, target = comparison(check, kind)
        found.append((symbol, target, tests[symbol](target)))
    return found


DISCARD, NOTHING, TAKE = "discard", "nothing", "take"


def djinn(value: int) -> str:
    """What the Frolicking Djinn's table says for a value: DISCARD, NOTHING or TAKE; raises nothing."""
    band = min(max(value, 1), 6)
    return DISCARD if band <= 2 else NOTHING if band <= 4 else TAKE
