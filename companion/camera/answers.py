"""What the camera thread hands the engine loop (a read, or a stand-in when there was none), and the table's
sentences about reads: the camera offline, a half roll waiting for its other dice, a read too late."""
from __future__ import annotations

from typing import Any, NamedTuple

from companion.camera.roll_sentences import listed
from companion.table.snapshot import CameraGuess, LastDice

CAMERA_SIDES = (6,)  # the dice the camera reads; others are entered by hand
OFFLINE = "Camera offline — enter rolls by hand."


class Answer(NamedTuple):
    """What the camera thread hands the loop: a roll result, and the table's seq when ROLL was pressed."""

    result: Any
    asked_at: int
    examples: tuple = ()  # the read dice as the table's examples-to-be (vision.layer.Example or None each)


class HalfRoll(NamedTuple):
    """The camera's dice of a roll whose other dice are entered by hand, and the seq they were read at."""

    values: tuple[int, ...]
    sides: tuple[int, ...]
    read_at: int


def half_read_already(read: tuple[int, ...], awaited: tuple[int, ...]) -> str:
    """Why ROLL is refused while the camera's half of a roll waits for the dice entered by hand; raises nothing."""
    others = ", ".join(f"d{sides}" for sides in awaited if sides not in CAMERA_SIDES)
    return f"The camera has read this roll's {', '.join(f'd{sides}' for sides in read)}; enter the {others} on a phone."


def still_the_last_roll(shown: LastDice | None, asked_at: int) -> bool:
    """Whether the table's last roll is still the one read for the ROLL pressed at `asked_at`: a read is
    recorded (alone, or with the dice entered by hand) as the very next input, or not at all; raises nothing."""
    return shown is not None and shown.seq == asked_at + 1 and "camera" in shown.origins


def too_late(result: Any) -> str | None:
    """The table's sentence for a read that came back after the table moved on, if it read dice; raises nothing."""
    if result.kind != "read":
        return None
    return f"The camera read {listed(result.values)} after the table had moved on, so that read was not used."


class Offline:
    """A stand-in result for a roller that raised."""

    kind = "offline"
    values: tuple[int, ...] = ()
    sides: tuple[int, ...] = ()
    crops: tuple[bytes, ...] = ()

    def __init__(self, message: str) -> None:
        self.message = message


class Skipped(Offline):
    """A stand-in result for a request the table had moved on from before it was read."""

    kind = "skipped"


def guess_of(result: Any, number: int) -> CameraGuess | None:
    """What an unsure read saw, for the phones to check against the dice and confirm (`number`: this guess's, so
    its crops get names no phone has cached); raises nothing."""
    dice = result.reading.dice if result.kind == "reroll" and result.reading is not None else ()
    if not dice or len(result.crops) != len(dice):
        return None
    names = tuple(f"guess-{number}-{index}" for index in range(len(dice)))
    return CameraGuess(tuple(die.value for die in dice), tuple(die.sides for die in dice), names, result.crops)
