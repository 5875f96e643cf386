"""The host page's "Teach the box your dice": the box reads the tray, the host confirms or corrects each die.

A look reads the tray as it lies (on the camera thread, between reads) and keeps its dice as examples-to-be;
the host's answer gives each die its value (or none, to leave it out) and the table learns from them in the
background. Only the newest few looks are kept: an answer to an older one is refused with a sentence.
"""
from __future__ import annotations

import base64
import dataclasses
import itertools
import threading
import time
from typing import Any

from companion.camera.setup import CameraSetup, CameraUnavailable
from companion.camera.table_lessons import TableLessons
from companion.rules.errors import BadInput, CompanionError
from companion.rules.said import Said
from vision.layer import Example
from vision.pictures import crop_jpeg
from vision.types import OFF_TRAY

KEPT_LOOKS = 4
MOST_DICE = 30  # dice in one look: more is not a tray of a table's dice


class LookGone(CompanionError, LookupError):
    """The answer is for a look the box no longer keeps."""

    code = "not_found"


LOOK_GONE = Said("That look at the tray is no longer kept: look at the tray again, then answer.",
                 "그 트레이 보기는 더 이상 보관되어 있지 않습니다: 트레이를 다시 본 뒤 답하세요.")


class TeachingDesk:
    """Looks at the tray for the host, and keeps the values the host gives its dice (any request thread)."""

    def __init__(self, setup: CameraSetup, lessons: TableLessons) -> None:
        """Teach through this camera and these lessons; raises nothing."""
        self._setup, self._lessons = setup, lessons
        self._looks: dict[int, list[Example | None]] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def look(self) -> dict[str, Any]:
        """Reads the tray now; returns the look's number, each die's crop (a data URL), reading and sureness, and the
        status; raises NoCamera, CameraUnavailable or TableBusy."""
        dice, examples = self._setup.errand(self._look_here)
        with self._lock:
            number = next(self._numbers)
            self._looks[number] = examples
            for old in sorted(self._looks)[:-KEPT_LOOKS]:
                del self._looks[old]
        return {"look": number, "dice": dice, **self.status()}

    def _look_here(self, source: Any, reading: Any) -> tuple[list[dict[str, Any]], list[Example | None]]:
        """On the camera thread: one frame's dice on the tray and their examples-to-be; raises CameraUnavailable."""
        from vision.frames import CameraError

        try:
            frame = source.frame()
        except CameraError as error:
            raise CameraUnavailable(Said(f"The camera is offline ({error}): look at the tray again once it is back.",
                                         f"카메라가 꺼져 있습니다({error}): 카메라가 돌아오면 트레이를 다시 보세요.")) from None
        read = [die for die in reading.look(frame)[0].dice if OFF_TRAY not in die.flags][:MOST_DICE]
        examples = self._lessons.eyes.examples_at(tuple(die.box for die in read), group=f"look-{time.time_ns()}")  # one group a look
        dice = [{"crop": "data:image/jpeg;base64," + base64.b64encode(crop_jpeg(frame, die.box)).decode(),
                 "value": die.value, "sure": not die.unsure, "sides": die.sides} for die in read]
        return dice, examples

    def answer(self, look: int, values: list[int | None]) -> dict[str, Any]:
        """Keeps the dice of a look with the values the host gave (None: left out); returns how many were taught and
        the status; raises LookGone, or BadInput when the values do not fit the look (nothing kept then)."""
        with self._lock:
            examples = self._looks.get(look)
            if examples is None:
                raise LookGone(LOOK_GONE)
            if len(values) != len(examples):
                raise BadInput(Said(f"That look saw {len(examples)} dice, so give {len(examples)} values, not {len(values)}.",
                                    f"그 보기에서 주사위 {len(examples)}개를 봤으니 값 {len(values)}개가 아니라 "
                                    f"{len(examples)}개를 주세요."))
            del self._looks[look]
        taught = [dataclasses.replace(example, value=value) for example, value in zip(examples, values)
                  if example is not None and value is not None]
        self._lessons.teach(taught)
        return {"taught": len(taught), **self.status()}

    def status(self) -> dict[str, Any]:
        """What the table has taught and how well the box reads it; raises sqlite3.Error."""
        return self._lessons.status()

    def switch(self, on: bool) -> dict[str, Any]:
        """Switches reading with what was learned on or off; returns the status; raises sqlite3.Error."""
        self._lessons.switch(on)
        return self.status()

    def wipe(self) -> dict[str, Any]:
        """Forgets everything the table taught; returns the status; raises sqlite3.Error."""
        with self._lock:
            self._looks.clear()
        self._lessons.wipe()
        return self.status()
