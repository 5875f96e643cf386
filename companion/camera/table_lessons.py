"""What the table teaches while it plays: the dice of each camera read, labelled by the values that stood.

A read's dice wait (loop thread) until their values are known:
- a read the camera recorded is confirmed once a later roll or a new game is recorded (a correction can only
  replace the last roll), and corrected when a phone corrects it first;
- an unsure read's guess is labelled by the roll the players then enter by hand for it;
- dice knocked after the read teach nothing: a correction then tells the new faces, not the pictured ones.
Examples are kept and learned from on a worker thread at low priority, so no read and no move waits on them.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.camera.lessons import FILE, Lessons
from companion.rules.inputs import CorrectDice, DiceRolled, Input, StartGame
from companion.rules.said import Said
from vision.eyes import TableEyes
from vision.layer import Example, Features
from vision.learning import FEWEST_TO_JUDGE, learn
from vision.reader import MODELS

log = logging.getLogger(__name__)
LEARN_AFTER = 5  # new dice between two learnings: learning from 500 dice takes 6-7 s of one core, at low priority ...
LEARN_SHARE = 20  # ... or a twentieth of the dice kept, when more: 4,000 take about a minute here (3-4 on a Pi),
# which every 5 dice would keep a core busy all evening
NICE = 10  # the worker's niceness: reads and moves come first


@dataclass(frozen=True)
class Waiting:
    """A read's dice waiting for their values: the roll's seq, the examples (None: not matched), what was read."""

    seq: int  # a recorded read: the roll's seq; a guess or a half read: the table's seq when it was read
    examples: tuple[Example | None, ...]
    read: tuple[int | None, ...]
    kind: str  # "read", "guess" or "half"
    bumped: bool = False


class TableLessons:
    """The table's examples and learned layer, fed from the loop thread and learned from on a worker thread."""

    def __init__(self, state: Path, eyes: TableEyes, features: Callable[[], Features]) -> None:
        """Opens the table's lessons and reads with its layer; raises OSError or sqlite3.Error when the file cannot be
        opened, ValueError when its layer is damaged."""
        self._lessons = Lessons(state)
        self._lock = threading.Lock()  # the store: worker thread and web requests
        self.eyes, self._make_features = eyes, features
        self._features: Features | None = None  # the worker's, to learn with
        self._seeing: Features | None = None  # the reading thread's (OpenCV's networks are not shared between threads)
        self._waiting: Waiting | None = None
        self._jobs: queue.Queue[tuple[list[Example], str] | None] = queue.Queue()
        self._fresh = 0
        self._generation = 0  # a wipe begins a new one: a layer learned before it is not kept
        self._thread: threading.Thread | None = None
        self.said = ""
        with self._lock:
            self._layer = self._lessons.layer()
        if self._layer is not None:
            self.eyes.use(self._layer, self._reading_features())

    def start(self) -> None:
        """Starts the worker thread; raises nothing."""
        self._thread = threading.Thread(target=self._work, name="table-lessons", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Keeps what is queued, then stops the worker; raises nothing."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout)
            self._thread = None
        with self._lock:
            self._lessons.close()

    # --- the loop thread ---------------------------------------------------------------------
    def seen(self, waiting: Waiting) -> None:
        """A read's dice now wait for their values (an earlier read still waiting can no longer be told); raises nothing."""
        self._waiting = waiting if any(example is not None for example in waiting.examples) else None

    def bumped(self) -> None:
        """The dice of the last read were knocked after it: they teach nothing; raises nothing."""
        if self._waiting is not None:
            self._waiting = dataclasses.replace(self._waiting, bumped=True)

    def accepted(self, given: Input, seq: int) -> None:
        """An input was recorded as `seq`: label the waiting dice when it tells their values; raises nothing."""
        waiting = self._waiting
        if waiting is None or seq <= waiting.seq:
            return
        if waiting.kind == "half" and isinstance(given, DiceRolled) and "camera" in given.origins and seq == waiting.seq + 1:
            self._waiting = dataclasses.replace(waiting, seq=seq, kind="read")  # the hand dice completed the read
            return
        if waiting.kind == "read" and not isinstance(given, (CorrectDice, DiceRolled, StartGame)):
            return  # a move or an undo: the roll may still be corrected
        self._waiting = None
        if waiting.bumped:
            return
        if waiting.kind == "read":
            self._label(waiting, _d6_values(given.values, given.sides) if isinstance(given, CorrectDice) else waiting.read)
        elif waiting.kind == "guess" and isinstance(given, DiceRolled) and seq == waiting.seq + 1:
            self._label(waiting, _d6_values(given.values, given.sides))

    def _label(self, waiting: Waiting, values: tuple[int | None, ...]) -> None:
        """Queues the examples with the values that stood, paired in order; nothing when they do not pair; raises nothing."""
        if len(values) != len(waiting.examples):
            return
        for how in ("confirmed", "corrected"):
            chosen = [dataclasses.replace(example, value=value)
                      for example, value, read in zip(waiting.examples, values, waiting.read)
                      if example is not None and value is not None and (value == read) == (how == "confirmed")]
            if chosen:
                self._jobs.put((chosen, how))

    # --- the host's page (any thread) -----------------------------------------------------------
    def teach(self, examples: list[Example]) -> None:
        """Keeps dice the host taught on the page (so the page's count moves at once) and queues the learning from
        them; raises sqlite3.Error, or ValueError for a value outside 1-6 (nothing kept then)."""
        if examples:
            self._add(examples, "taught")
            self._jobs.put(([], "taught"))

    def status(self) -> dict[str, Any]:
        """How many dice the table taught, whether learning is on, and how the box reads them now: its layer on dice
        held back from learning, or the shipped reader on every kept die; raises sqlite3.Error."""
        with self._lock:
            count, on = self._lessons.count(), self._lessons.learning_on()
            dice, right, silent = self._lessons.base_check()
        layer = self._layer
        reads = {"by": "reader", "dice": dice, "sure_right": right, "silent": silent} if layer is None else \
            {"by": "layer", "dice": layer.check.dice, "sure_right": layer.check.sure_right, "silent": layer.check.silent}
        return {"examples": count, "learning": on, "reads": reads, "said": self.said, "fewest": FEWEST_TO_JUDGE}

    def switch(self, on: bool) -> None:
        """Reads with what was learned (on) or with the shipped reader alone (off); raises sqlite3.Error."""
        with self._lock:
            self._lessons.switch_learning(on)
            self._layer = self._lessons.layer()
        self.eyes.use(self._layer, self._reading_features() if self._layer is not None else None)

    def wipe(self) -> None:
        """Forgets every example and the layer; raises sqlite3.Error."""
        with self._lock:
            self._lessons.wipe()
            self._layer, self._fresh, self.said = None, 0, ""
            self._generation += 1
        self.eyes.use(None, None)

    # --- the worker thread -----------------------------------------------------------------------
    def _work(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)  # this thread only, on Linux
        except (AttributeError, OSError):
            pass
        while (job := self._jobs.get()) is not None:
            try:
                self._keep(*job)
            except Exception:  # learning is a courtesy: the table plays on without it
                log.exception("could not keep or learn from the table's dice")

    def _keep(self, examples: list[Example], how: str) -> None:
        """Keeps examples and, once enough new ones came and learning is on, learns; raises sqlite3.Error, ValueError."""
        if examples:
            self._add(examples, how)
        with self._lock:
            count, on, fresh = self._lessons.count(), self._lessons.learning_on(), self._fresh
        if not on or count < FEWEST_TO_JUDGE or fresh < max(LEARN_AFTER, count // LEARN_SHARE):
            return
        with self._lock:
            kept, generation = self._lessons.examples(), self._generation
        if self._features is None:
            self._features = self._make_features()
        with self._lock:
            self._fresh = 0
        layer, self.said = learn(kept, self._features, previous=self._layer)
        log.info("table lessons: %s", self.said)
        if layer is self._layer:
            return
        with self._lock:
            if generation != self._generation:
                return
            if layer is None:  # the earlier layer read the dice taught since no better than the reader
                self._lessons.drop_layer()
            else:
                self._lessons.keep_layer(layer)
            self._layer = self._lessons.layer()  # None if the host switched learning off meanwhile
        self.eyes.use(self._layer, self._reading_features() if self._layer is not None else None)

    def _add(self, examples: list[Example], how: str) -> None:
        """Keeps examples, counting them towards the next learning; raises sqlite3.Error, ValueError."""
        with self._lock:
            self._lessons.add(examples, how)
            self._fresh += len(examples)

    def _reading_features(self) -> Features:
        """The features the reading thread's eyes use, loaded once: a new layer reads with the same network."""
        if self._seeing is None:
            self._seeing = self._make_features()
        return self._seeing


def open_lessons(state: Path, warnings: list[str]) -> TableLessons | None:
    """The table's lessons in the state folder: a damaged file is set aside (with a warning) and learning starts
    afresh; None, with a warning, when the folder cannot hold them (the table then reads with the shipped reader
    alone and plays on); raises nothing."""
    try:
        try:
            return _lessons(state)
        except (sqlite3.DatabaseError, ValueError) as error:
            if isinstance(error, sqlite3.OperationalError):  # cannot be opened or written: no damage to set aside
                raise
            aside = _set_aside(state / FILE)
            warnings.append(Said(f"The dice this table taught the reader were damaged ({error}). The file is kept as "
                                 f"{aside.name}, and the box learns the table's dice afresh.",
                                 f"이 테이블이 가르친 주사위 파일이 손상되었습니다({error}). 파일은 {aside.name}(으)로 "
                                 "보관하고, 상자는 테이블의 주사위를 처음부터 다시 배웁니다."))
            log.warning(warnings[-1])
            return _lessons(state)
    except (OSError, sqlite3.Error, ValueError) as error:
        warnings.append(Said(f"The dice this table teaches the reader cannot be kept in {state} ({error}). The box reads "
                             "with what it shipped with and learns nothing until the state folder can be written.",
                             f"이 테이블이 가르치는 주사위를 {state}에 보관할 수 없습니다({error}). 상자는 처음 배운 "
                             "대로 읽고, 상태 폴더에 쓸 수 있을 때까지 배우지 않습니다."))
        log.warning(warnings[-1])
        return None


def _lessons(state: Path) -> TableLessons:
    """The lessons in `state`; raises OSError, sqlite3.Error, or ValueError for a damaged layer."""
    return TableLessons(state, TableEyes(), lambda: Features(MODELS / "dice_faces.onnx"))


def _set_aside(path: Path) -> Path:
    """Renames a damaged file (and its WAL and index) to <name>.damaged-<time>; returns the new path; raises OSError."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(Path(f"{aside}{suffix}"))
    return aside


def _d6_values(values: tuple[int, ...], sides: tuple[int, ...]) -> tuple[int | None, ...]:
    """The values of a roll's d6, in order (the camera reads only d6); raises nothing."""
    return tuple(value for value, count in zip(values, sides) if count == 6)
