"""What the roller says to the players: the fixed sentences of a roll that went wrong, and the sentences
that name dice ("Rolled 3 and 5.", "I see 1 die, expecting 2 — is one off the tray?").

The page's Korean (web/static/box-sentences.js) matches these words: change both together.
"""
from __future__ import annotations

from collections import Counter

from companion.rules.said import counted
from vision.types import NOT_PIPS, OFF_TRAY

OFFLINE_MESSAGE = "Camera offline — enter rolls by hand."
REROLL_MESSAGE = "Could not read the dice surely — please roll again."
COCKED_MESSAGE = "A die is cocked — please roll it again."
NO_DICE_MESSAGE = "I see no dice on the tray — please roll again."
UNSETTLED_MESSAGE = "The dice never settled — please roll again."
UNMOVED_MESSAGE = "The dice have not moved since the last roll — please roll."
CAMERA_MOVED_MESSAGE = "The camera moved, but the dice lie as they did — please roll."


def dice_count(count: int) -> str:
    """Return "1 die", "3 dice" or "no dice"; raises nothing."""
    return "no dice" if count == 0 else counted(count, "die", "dice")


def count_message(seen: int, expected: int, aside: Counter[str] | None = None) -> str:
    """Return the players' sentence for seeing the wrong number of dice; raises nothing."""
    if seen > expected:
        hint = "is an extra die on the tray?" if seen - expected == 1 else "are extra dice on the tray?"
    elif seen == 0:
        hint = "is it off the tray?" if expected == 1 else "are they off the tray?"
    else:
        hint = "is one off the tray?" if expected - seen == 1 else "are some off the tray?"
    said = f"I see {dice_count(seen)}, expecting {expected} — {hint}"
    aside = aside or Counter()
    if aside[OFF_TRAY]:
        moved = " — has the camera moved? Then calibrate it again on the host page" if not seen else ""
        said += f" ({dice_count(aside[OFF_TRAY])} outside the tray as calibrated{moved})"
    if aside[NOT_PIPS]:
        said += f" ({dice_count(aside[NOT_PIPS])} without pips, which I leave to you)"
    return said


def read_message(values: tuple[int, ...]) -> str:
    """Return e.g. "Rolled 4.", "Rolled 3 and 5." or "Rolled 1, 2 and 6."; raises nothing."""
    return f"Rolled {listed(values)}."


def named_dice(values: tuple[int, ...], sides: tuple[int, ...]) -> str:
    """Return e.g. "3, 5", or "d6 4, d8 7" where the dice are not all d6; raises nothing."""
    if all(count == 6 for count in sides):
        return ", ".join(map(str, values))
    return ", ".join(f"d{count} {value}" for value, count in zip(values, sides))


def listed(values: tuple[int | None, ...]) -> str:
    """Return e.g. "4", "3 and 5", "1, ? and 6" (? for a face not read) or "no dice"; raises nothing."""
    words = ["?" if value is None else str(value) for value in values] or ["no dice"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
