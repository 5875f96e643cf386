"""What the roller hands the camera thread after an unsure read, for the tests of what the phones then show."""
from __future__ import annotations

from typing import Any

from companion.camera.answers import Answer
from companion.table.loop import Job
from companion.camera.roll_sentences import REROLL_MESSAGE
from companion.camera.roller import RollResult
from vision.pictures import crop_jpeg
from vision.sources import SyntheticCamera
from vision.types import UNSURE, DiceReading, DieReading


def unsure_read(value: int | None) -> RollResult:
    """What the roller hands the camera thread after its last unsure try: one die, its reading and crop."""
    camera = SyntheticCamera(4, dice=1)
    camera.throw(values=[value or 3])
    frame, box = camera.at_rest, camera.boxes[0]
    reading = DiceReading((DieReading(6, value, box, 0.62, (UNSURE,)),))
    return RollResult("reroll", sides=(6,), crops=(crop_jpeg(frame, box),), message=REROLL_MESSAGE, reading=reading)


def answer_now(loop: Any, result: RollResult) -> Job:
    """The camera thread's job for a roll result, as if ROLL had been pressed at the table as it stands now."""
    return Job("camera", Answer(result, loop.session.seq), "camera")
