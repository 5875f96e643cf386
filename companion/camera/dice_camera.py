"""The camera side of the loop: ROLL → settle → read → vote → a journaled roll, on its own thread.

The reading and voting are the Roller's (companion.camera.roller); this module only moves its results
onto the engine loop's queue, merges camera d6 with hand-entered dice of other kinds, and watches
for dice knocked after a read. Every read belongs to the table as it stood when ROLL was pressed (its
seq): a read that comes back after the table moved on (a roll entered by hand meanwhile, an undo, a
new game) is not used, and a camera half of a roll is merged only into the hand roll that completes it.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Callable

from companion.camera.answers import (
    CAMERA_SIDES,
    OFFLINE,
    Answer,
    HalfRoll,
    Offline,
    Skipped,
    guess_of,
    half_read_already,
    still_the_last_roll,
    too_late,
)
from companion.rules.inputs import DiceRolled
from companion.camera.errands import NOT_RUNNING, Errand, Result
from companion.camera.table_lessons import Waiting
from companion.table.loop import EngineLoop, Job
from companion.table.port import TableBusy
from companion.camera.roll_sentences import listed, named_dice
from companion.rules.errors import CompanionError, IllegalMove, NoRollExpected
from companion.table.snapshot import LastDice
from vision.frames import CameraError

log = logging.getLogger(__name__)
WATCH_SECONDS = 0.5
LOOK = "look"  # a request to keep the tray as it lies now: a roll entered by hand lies there


class DiceCamera:
    """Runs the Roller on a worker thread for the engine loop; the loop calls roll() and complete()."""

    def __init__(self, loop: EngineLoop, roller: Any, *,
                 before_roll: Callable[[tuple[int, ...]], object] = lambda sides: None, lessons: Any = None) -> None:
        """Attach to the loop (registers its job handlers); `lessons`: the table's TableLessons, which learns from the
        dice read (None: nothing is learned); nothing runs until start()."""
        self._loop = loop
        self._roller = roller
        self._lessons = lessons
        self._before_roll = before_roll
        self._requests: queue.Queue[tuple[tuple[int, ...], int, int] | str | Errand | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._partial: HalfRoll | None = None
        self._asked = 0  # reads asked for and not yet answered (loop thread)
        self._asked_at = -1  # the table's seq when the newest of them was asked for (loop thread)
        self._read_again = False  # the last read was refused by the table: its dice may be read as they lie
        self._watched: Any = None
        self._watched_at = -1  # the table's seq when ROLL was pressed for the watched read (camera thread)
        self._online: bool | None = None
        self._moved_from = b""  # the scene the dice must move from before a read: the last read's, or the tray at start
        self._moved_dice: Any = None  # the dice lying there (a shadow over them is no throw)
        self._guesses = 0
        loop.camera = self
        loop.handlers["camera"] = self._on_result
        loop.handlers["bumped"] = self._on_bumped
        loop.handlers["camera-online"] = self._on_online

    def start(self) -> None:
        """Start the camera thread; raises nothing."""
        self._thread = threading.Thread(target=self._run, name="dice-camera", daemon=True)
        self._thread.start()
        if self._lessons is not None:
            self._lessons.start()

    @property
    def running(self) -> bool:
        """Whether the camera thread is running; raises nothing."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the camera thread; raises nothing."""
        if self._thread is not None:
            self._requests.put(None)
            self._thread.join(timeout)
            self._thread = None
        if self._lessons is not None:
            self._lessons.stop()

    def errand(self, call: Callable[[], Result], timeout: float) -> Result:
        """Run `call` on the camera thread between reads and return what it returns (any thread); raises TableBusy
        when the camera thread does not come to it within `timeout` (it then never runs), or call's own error."""
        if not self.running:
            raise TableBusy(NOT_RUNNING)
        errand = Errand(call)
        self._requests.put(errand)
        return errand.answered(timeout)

    # --- on the engine loop's thread ------------------------------------------------
    def roll(self, sides: tuple[int, ...]) -> None:
        """Ask for a camera read of the awaited dice (loop thread); raises nothing."""
        readable = tuple(count for count in sides if count in CAMERA_SIDES)
        if not readable:
            raise NoRollExpected("The camera cannot read these dice yet; enter the roll by hand.")
        if self._loop.camera_status == "offline":  # say so now, not after a wait on a camera that is away
            raise IllegalMove(OFFLINE, code="camera_offline")
        seq = self._loop.session.seq
        if self._asked and self._asked_at == seq:
            return  # ROLL again (a double tap) while this roll is read: one read is enough
        if self._partial is not None and self._partial.read_at == seq:  # its d6 is read: only the d8 is missing
            raise IllegalMove(half_read_already(self._partial.sides, sides))
        self._partial = None
        self._loop.show_camera("reading", "Reading the dice…")
        self._asked, self._asked_at = self._asked + 1, seq
        self._requests.put((readable, seq, tuple(count for count in sides if count not in CAMERA_SIDES)))

    def complete(self, given: DiceRolled, session: Any) -> DiceRolled:
        """A hand-entered roll joined with the camera's half of it when together they fit; raises nothing.

        The camera's half stays until an input is accepted: a refused hand entry can be corrected, but
        after any accepted input (this roll, an undo, a new game) it belongs to a table that is gone.
        """
        partial = self._partial
        request = session.game.awaiting_dice(session.table.state) if session.table is not None else None
        if partial is None or request is None or partial.read_at != session.seq:
            return given
        values, sides, _ = partial
        if sorted(sides + tuple(given.sides)) != sorted(request.sides):
            return given
        origins = ("camera",) * len(values) + (tuple(given.origins) or ("phone",) * len(given.values))
        return DiceRolled(values + tuple(given.values), sides + tuple(given.sides), origins, given.seat)

    def recorded(self, given: DiceRolled) -> None:
        """A roll from a phone was recorded (loop thread): when entered by hand (not the camera's half with the
        others typed), its dice on the tray must move before the next read; raises nothing."""
        if "camera" not in given.origins:
            self._read_again = False  # dice read but not recorded are now the hand roll's
            self._requests.put(LOOK)

    def accepted(self, given: Any, seq: int) -> None:
        """An input was recorded as `seq` (loop thread): it may tell the values of dice read before; raises nothing."""
        if self._lessons is not None:
            self._lessons.accepted(given, seq)

    def _on_result(self, job: Job) -> None:
        result, asked_at, examples = job.payload
        self._asked = max(0, self._asked - 1)
        if result.kind == "offline":
            self._loop.show_camera("offline", OFFLINE, note=result.message or OFFLINE)
            return
        if asked_at != self._loop.session.seq:
            if not self._asked:  # a later ROLL is still being read: its status stands
                self._loop.show_camera("ready", "", note=too_late(result))
            return
        if result.kind != "read":
            self._guesses += 1  # a new name for every guess, so no phone shows an earlier picture from its cache
            guess = guess_of(result, self._guesses)
            self._loop.show_camera("reroll", result.message, note=result.message, guess=guess)
            if guess is not None:
                self._waits(examples, guess.values, "guess")
            return
        kind = self._commit(result)
        if kind is not None:
            self._waits(examples, result.d6_values, kind)  # the table learns its d6 only

    def _waits(self, examples: tuple, read: tuple[int | None, ...], kind: str) -> None:
        """The read dice wait for the values the table keeps, to teach it (loop thread); raises nothing."""
        if self._lessons is not None and len(examples) == len(read):
            self._lessons.seen(Waiting(self._loop.session.seq, examples, read, kind))

    def _commit(self, result: Any) -> str | None:
        """Records a read; returns "read" when recorded, "half" when it waits for dice entered by hand, else None."""
        session = self._loop.session
        request = session.game.awaiting_dice(session.table.state) if session.table is not None else None
        if request is None:
            self._loop.show_camera("ready", "", note="The dice were read, but no roll is expected now.")
            return None
        crops = {f"{session.seq + 1}-{index}": crop for index, crop in enumerate(result.crops)}
        self._loop.set_crops(crops)
        if tuple(sorted(result.sides)) != tuple(sorted(request.sides)):
            self._keep_half(result, request.sides, tuple(crops), session.seq)
            return "half"
        given = DiceRolled(tuple(result.values), tuple(result.sides), ("camera",) * len(result.values))
        try:
            self._loop.apply_input(given, "camera")
        except CompanionError as refusal:  # e.g. the card is full: nothing was recorded
            self._watched, self._read_again = None, True  # so ROLL may read these same dice again
            self._loop.show_camera("reroll", "The read was not recorded — press ROLL again.", note=refusal.message)
            return None
        self._loop.show_camera("read_ok", f"Read {named_dice(result.values, result.sides)}.")
        return "read"

    def _keep_half(self, result: Any, awaited: tuple[int, ...], crops: tuple[str, ...], seq: int) -> None:
        """Keep the camera's dice of a roll whose others are entered by hand, and show them; raises nothing."""
        self._partial = HalfRoll(tuple(result.values), tuple(result.sides), seq)
        shown = ", ".join(f"d{sides} {value}" for value, sides in zip(result.values, result.sides))
        others = ", ".join(f"d{sides}" for sides in awaited if sides not in CAMERA_SIDES)
        half = LastDice(tuple(result.values), tuple(result.sides), ("camera",) * len(result.values), crops, seq)
        self._loop.show_camera("read_part", f"Camera read {shown}.", note=f"Camera read {shown} — enter the {others} by hand.",
                               half=half)

    def _on_online(self, job: Job) -> None:
        if job.payload:
            self._loop.show_camera("ready", "Camera ready.")
        else:
            self._loop.show_camera("offline", OFFLINE, note=OFFLINE)

    def _on_bumped(self, job: Job) -> None:
        read, now, asked_at = job.payload
        if not still_the_last_roll(self._loop.board.published.extras.dice, asked_at):
            return  # a later roll or a new game: "correct the roll" would correct another player's roll
        note = (f"A die changed after the read: the table keeps {listed(read)}, but the tray now shows "
                f"{listed(now)}. If the new faces should count, correct the roll.")
        self._loop.show_camera("changed", "The dice changed after the read.", note=note)  # not "roll again": the read stands
        if self._lessons is not None:
            self._lessons.bumped()

    # --- on the camera thread -------------------------------------------------------
    def _run(self) -> None:
        self._check_online()
        while True:
            try:
                request = self._requests.get(timeout=WATCH_SECONDS)
            except queue.Empty:
                if self._check_online():
                    self._watch()
                continue
            if request is None:
                return
            if request == LOOK:
                self._watched = None  # a later roll than the watched read: a knock is no longer the table's business
                self.look_again()
                continue
            if isinstance(request, Errand):
                request.run()
                continue
            self._read(*request)

    def _read(self, sides: tuple[int, ...], asked_at: int, others: tuple[int, ...] = ()) -> None:
        if asked_at != self._loop.session.seq:  # the table moved on while this request waited: nothing to read
            self._loop.enqueue(Job("camera", Answer(Skipped(""), asked_at), "camera"))
            return
        since, dice = (b"", None) if self._read_again else (self._moved_from, self._moved_dice)
        self._read_again = False
        try:
            self._before_roll(sides)
            result = self._roller.roll(sides, since=since, since_dice=dice, others=others)
        except Exception as error:  # the camera must never take the table down
            log.exception("camera read failed")
            result = Offline(f"{OFFLINE} ({error})")
        if result.kind == "offline":
            self._online = False
        current = asked_at == self._loop.session.seq  # a glance only: the loop rules on it in _on_result
        self._watched = result if result.kind == "read" and current else None
        self._watched_at = asked_at
        if result.kind == "read":  # used or not, those dice must move before the next read
            self._moved_from, self._moved_dice = result.scene, result.lying
        self._loop.enqueue(Job("camera", Answer(result, asked_at, self._examples(result, asked_at)), "camera"))

    def _examples(self, result: Any, asked_at: int) -> tuple:
        """The read dice as the table's examples-to-be, from the reader's last look (camera thread); raises nothing."""
        if self._lessons is None or result.kind not in ("read", "reroll") or result.reading is None:
            return ()
        boxes = tuple(die.box for die in result.reading.dice)
        return tuple(self._lessons.eyes.examples_at(boxes, group=f"roll-{asked_at}-{time.time_ns()}"))

    def _check_online(self) -> bool:
        """Probe the camera (re-opening it when due); tell the loop when it comes or goes."""
        probe = getattr(self._roller.source, "probe", None)
        online = bool(probe()) if probe is not None else True
        if online != self._online:  # said first: the first look reads the dice, which takes a moment
            self._online = online
            self._loop.enqueue(Job("camera-online", online, "camera"))
        if online and not self._moved_from:
            self.look_again()
        return online

    def look_again(self) -> None:
        """Keep the tray as the camera sees it now, so dice lying there (read before a restart, or entered by
        hand, or seen in another light after a calibration) are not read again as a new roll: the next read waits
        for the dice to move (camera thread only); raises nothing."""
        try:
            self._moved_from, self._moved_dice = self._roller.resting()
        except Exception:  # the camera must never take the table down; the next probe, once online, looks again
            self._moved_from, self._moved_dice = b"", None
            log.warning("could not look at the tray", exc_info=True)

    def _watch(self) -> None:
        """Look again at the dice of the last read: re-base on the same faces, stop when they are picked
        up, tell the loop when they show other faces (a die knocked after the read); raises nothing."""
        watched = self._watched
        if watched is None:
            return
        try:
            seen = self._roller.watch(watched)
        except CameraError:
            return  # the camera went away; _check_online tells the phones
        except Exception:
            log.exception("camera watch failed")
            return
        if seen.verdict == "same" and seen.scene != watched.scene:
            self._watched = seen.followed(watched)
            self._moved_from, self._moved_dice = seen.scene, seen.dice  # nudged dice still need a throw
        elif seen.verdict in ("gathered", "changed", "thrown"):  # thrown: the next ROLL reads them
            self._watched = None
        if seen.verdict == "changed":
            self._moved_from, self._moved_dice = seen.scene, seen.dice  # the knocked dice are not the next roll either
            self._loop.enqueue(Job("bumped", (watched.d6_values, seen.now, self._watched_at), "camera"))
