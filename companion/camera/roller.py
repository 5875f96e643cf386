"""The camera loop's roll step: wait until the dice are still, read a few frames, vote, and say what we saw.

Runs on the camera thread; it only reads frames and calls the reader, never the engine. Settle and
motion work on small thumbnails; the reader never sees a frame that moved.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from companion.camera.roll_results import RollResult, Watch, verdict
from companion.camera.roll_sentences import (
    CAMERA_MOVED_MESSAGE,
    COCKED_MESSAGE,
    NO_DICE_MESSAGE,
    OFFLINE_MESSAGE,
    REROLL_MESSAGE,
    UNMOVED_MESSAGE,
    UNSETTLED_MESSAGE,
    count_message,
    read_message,
)
from vision.pictures import crop_jpeg, decoded, encode_png
from vision.places import beside_others, leaving_out, left_lying, same_place, shifted, thrown
from vision.settle import Settle, Vote, changed_fraction, motion, step, thumbnail, vote
from vision.frames import CameraError, FrameSource
from vision.types import NOT_PIPS, OFF_TRAY, DiceReading, DieReading
from vision.view_shift import view_shift

BUMP_FRACTION = 0.002  # share of thumbnail pixels that must change for the dice to count as moved


@dataclass(frozen=True)
class _Capture:
    """One settled, voted capture: the vote, the last frame read and its thumbnail."""

    vote: Vote
    frame: np.ndarray
    thumb: np.ndarray


class Roller:
    """Turns camera frames into one roll result: settle, read K frames, vote, re-capture, or ask for a re-roll."""

    def __init__(
        self,
        source: FrameSource,
        read: Callable[[np.ndarray], DiceReading],
        *,
        read_d8: Callable[[np.ndarray], DiceReading] | None = None,
        still_seconds: float = 0.6,
        frames_to_vote: int = 3,
        max_wait_seconds: float = 8.0,
        retries: int = 1,
        min_confidence: float = 0.8,
        min_agreement: float = 0.6,
        motion_threshold: float = 0.01,
        fps: float = 10.0,
        empty_tray: np.ndarray | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Keep the source, the readers and the settings; raises ValueError for settings that cannot work.

        `read` reads a frame's d6; `read_d8` (None: the d8 is always entered by hand) reads its d6 and d8.
        """
        if frames_to_vote < 1 or retries < 0 or fps <= 0 or max_wait_seconds <= 0 or still_seconds < 0:
            raise ValueError("frames_to_vote ≥ 1, retries ≥ 0, fps > 0, max_wait_seconds > 0, still_seconds ≥ 0")
        self.source, self.read, self.read_d8 = source, read, read_d8
        self.still_seconds, self.frames_to_vote = still_seconds, frames_to_vote
        self.max_wait_seconds, self.retries = max_wait_seconds, retries
        self.min_confidence, self.min_agreement = min_confidence, min_agreement
        self.motion_threshold, self.period = motion_threshold, 1.0 / fps
        self.empty_tray = None if empty_tray is None else thumbnail(empty_tray)
        self.clock, self.sleep = clock, sleep

    def roll(self, expect: tuple[int, ...] | None = None, *, since: bytes = b"",
             since_dice: DiceReading | None = None, others: tuple[int, ...] = ()) -> RollResult:
        """Block until the dice are still, read and vote; returns a RollResult (CameraError becomes "offline").

        `expect` gives the sides of the dice the game wants (its length is the count checked);
        `since` is a scene (the last read's, or the tray at start-up) the dice must have moved from, and
        `since_dice` the dice that lay there: the same dice where they lay (under a shadow, in other light)
        are not a new roll. Dice of `others` sides (a d8) lie beside them: the camera reads them only when it is
        sure of them, else they are left to the players. Errors raised by the reader itself are not caught: they
        are bugs, not camera trouble.
        """
        try:
            return self._roll(expect, decoded(since), since_dice, others)
        except CameraError:
            return RollResult("offline", message=OFFLINE_MESSAGE)

    def resting(self) -> tuple[bytes, DiceReading]:
        """The tray as it is now, as a scene for `since`, and the dice on it for `since_dice`; raises CameraError."""
        frame = self.source.frame()
        return encode_png(thumbnail(frame)), _rolled(self.read(frame))[0]

    def watch(self, previous: RollResult) -> Watch:
        """Say what became of the dice read in `previous`; raises CameraError.

        Only a tray that changed is looked at closely: once still, it is read again. The same faces
        (a shadow, a hand that went away, a die nudged without turning) are "same", with the tray as it
        is now to compare with next; fewer dice are "gathered" (the players are picking them up); other
        faces or more dice are "changed". A tray still in motion is "moving": look again later.
        """
        scene = decoded(previous.scene if previous.kind == "read" else b"")
        if scene is None:
            return Watch("gathered")
        if motion(scene, thumbnail(self.source.frame())) < self.motion_threshold:  # not even one face changed
            return Watch("same", scene=previous.scene)
        capture = self._capture(self.clock() + self.still_seconds + self.frames_to_vote * self.period, None)
        if isinstance(capture, str) or not capture.vote.count_agreed:
            return Watch("moving")
        lying = _rolled(capture.vote.reading)[0]
        dice = lying if previous.beside is None else leaving_out(lying, previous.beside)  # the d8 is no die of the roll
        now = tuple(die.value for die in dice.dice)
        shift = _view_shift(scene, capture, previous.lying)  # a knocked camera moves the dice in view, not on the tray
        moved = previous.reading is not None and thrown(shifted(previous.reading, shift), dice)
        return Watch("thrown" if moved else verdict(previous.d6_values, now), now, encode_png(capture.thumb), lying,
                     shift)

    def _roll(self, expect: tuple[int, ...] | None, since: np.ndarray | None, since_dice: DiceReading | None,
              others: tuple[int, ...]) -> RollResult:
        """Settle, read and judge up to 1 + retries times; returns the result; raises CameraError."""
        trouble, last = REROLL_MESSAGE, None
        for _ in range(self.retries + 1):
            capture = self._capture(self.clock() + self.max_wait_seconds, since, since_dice)
            if isinstance(capture, str):
                return RollResult("reroll", message=capture)
            since, since_dice = None, None  # once the dice have moved, re-captures may read the same still dice
            result, trouble = self._judge(capture, expect, others)
            if result is not None:
                return result
            last = capture
        return _not_sure(last, trouble)

    def _capture(self, deadline: float, since: np.ndarray | None,
                 since_dice: DiceReading | None = None) -> _Capture | str:
        """Wait for still dice and vote over K still frames; returns the capture or why not; raises CameraError.

        Dice that lie as `since_dice` did, in the view `since` shows them (a knocked camera shifts that view),
        are no roll: the tray changed (a shadow, the light, the camera) but they did not, so it waits on for a
        change from here."""
        knocked = False
        while True:
            settled = self._wait_until_still(deadline, since)
            if isinstance(settled, str):
                return CAMERA_MOVED_MESSAGE if knocked and settled == UNMOVED_MESSAGE else settled
            ballot = self._vote(deadline, *settled)
            if isinstance(ballot, str):
                return ballot
            if ballot is None:
                continue
            if since_dice is None:
                return ballot
            shift = _view_shift(since, ballot, since_dice)
            lying = _rolled(ballot.vote.reading)[0]
            if not left_lying(shifted(since_dice, shift), lying):
                return ballot
            since, since_dice, knocked = ballot.thumb, lying, knocked or shift is not None

    def _vote(self, deadline: float, frame: np.ndarray, thumb: np.ndarray) -> _Capture | str | None:
        """Read K still frames from this settled one and vote; None when the dice moved again (settle anew),
        a message when they did so after the deadline; raises CameraError."""
        readings = [self.read(frame)]
        while len(readings) < self.frames_to_vote:
            self.sleep(self.period)
            newer = self.source.frame()
            newer_thumb = thumbnail(newer)
            if motion(thumb, newer_thumb) >= self.motion_threshold:
                return UNSETTLED_MESSAGE if self.clock() >= deadline else None
            frame, thumb = newer, newer_thumb
            readings.append(self.read(frame))
        return _Capture(vote(readings), frame, thumb)

    def _wait_until_still(self, deadline: float, since: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | str:
        """Pull frames until still (and moved since `since`); returns (frame, thumb) or a message; raises CameraError.

        At the deadline a calm tray is read anyway (even one that looks empty: the reader decides).
        """
        settle = Settle(empty_tray=self.empty_tray)
        while True:
            frame = self.source.frame()
            thumb = thumbnail(frame)
            settle = step(settle, thumb, now=self.clock(), still_seconds=self.still_seconds,
                          threshold=self.motion_threshold)
            fresh = since is None or changed_fraction(since, thumb) > BUMP_FRACTION
            calm = settle.state in ("still", "empty")
            if calm and fresh and (settle.state == "still" or self.clock() >= deadline):
                return frame, thumb
            if self.clock() >= deadline:
                return UNSETTLED_MESSAGE if fresh else UNMOVED_MESSAGE
            self.sleep(self.period)

    def _judge(self, capture: _Capture, expect: tuple[int, ...] | None,
               others: tuple[int, ...] = ()) -> tuple[RollResult | None, str]:
        """Return the final result (or None to re-capture) and the re-roll sentence; raises ValueError from
        `read_d8`."""
        ballot = capture.vote
        reading, aside = _rolled(ballot.reading)
        wanted = len(expect) if expect is not None else 0
        reading, beside = beside_others(reading, wanted, len(others))
        seen = len(reading.dice)
        crops = tuple(crop_jpeg(capture.frame, die.box) for die in reading.dice)
        if ballot.count_agreed and expect is not None and seen != wanted and beside is None:
            message = count_message(seen, len(expect), aside)
            return RollResult("wrong_count", crops=crops, message=message, reading=reading), ""
        if not reading.dice:
            return None, NO_DICE_MESSAGE
        if beside is not None and not beside.dice:  # more dice than the roll's, and no telling which is the d8
            return None, REROLL_MESSAGE
        if any(die.is_cocked for die in reading.dice):
            return None, COCKED_MESSAGE
        unsure = any(die.unsure or die.confidence < self.min_confidence for die in reading.dice)
        if unsure or not ballot.count_agreed or ballot.agreement < self.min_agreement:
            return None, REROLL_MESSAGE
        values = tuple(int(die.value) for die in reading.dice if die.value is not None)
        result = RollResult(
            "read",
            values=values,
            sides=tuple(die.sides for die in reading.dice),
            crops=crops,
            message=read_message(values),
            reading=reading,
            scene=encode_png(capture.thumb),
            beside=beside,
        )
        return self._with_d8(result, capture, others), ""

    def _with_d8(self, result: RollResult, capture: _Capture, others: tuple[int, ...]) -> RollResult:
        """The read with the d8 beside its dice taken from the camera, when each die it left unread lies where the
        reader is sure of a d8; else the read as it was, the d8 left to the players; raises ValueError from `read_d8`.

        The d6 stay as K frames voted; the d8 is read once, in the last of them, as sure as the reader's rules allow.
        """
        if self.read_d8 is None or not others or set(others) != {8}:
            return result
        unread = _unread(capture.vote.reading, result.beside)
        if len(unread) != len(others):
            return result
        d8 = [die for die in self.read_d8(capture.frame).dice
              if die.sides == 8 and not die.unsure and OFF_TRAY not in die.flags]
        lying_there = [[die for die in d8 if same_place(die, left)] for left in unread]
        if any(len(there) != 1 for there in lying_there):  # a die left unread where no sure d8 lies
            return result
        found = [there[0] for there in lying_there]
        values = result.values + tuple(die.value for die in found if die.value is not None)
        return replace(result, values=values, sides=result.sides + tuple(die.sides for die in found),
                       crops=result.crops + tuple(crop_jpeg(capture.frame, die.box) for die in found),
                       message=read_message(values))


def _view_shift(scene: np.ndarray | None, capture: _Capture, dice: DiceReading | None) -> tuple[float, float] | None:
    """How far the camera's view moved from `scene`, where `dice` lay, to the capture's; raises nothing."""
    if scene is None or dice is None or scene.shape != capture.thumb.shape:
        return None
    now = capture.vote.reading.dice if capture.vote.reading is not None else ()
    return view_shift(scene, capture.thumb, tuple(die.box for die in dice.dice), tuple(die.box for die in now),
                      capture.frame.shape[1])


def _not_sure(capture: _Capture | None, message: str) -> RollResult:
    """The re-roll result after the last try, with that try's reading and each die's crop; raises nothing."""
    reading = _rolled(capture.vote.reading)[0] if capture is not None and capture.vote.reading else None
    if capture is None or reading is None:
        return RollResult("reroll", message=message, reading=reading)
    crops = tuple(crop_jpeg(capture.frame, die.box) for die in reading.dice)
    return RollResult("reroll", sides=tuple(die.sides for die in reading.dice), crops=crops, message=message,
                      reading=reading)


def _unread(voted: DiceReading | None, beside: DiceReading | None) -> tuple[DieReading, ...]:
    """The dice on the tray a read left out of the roll: those beside it, and those without pips; raises nothing."""
    without_pips = tuple(die for die in (voted.dice if voted is not None else ())
                         if NOT_PIPS in die.flags and OFF_TRAY not in die.flags)
    return (beside.dice if beside is not None else ()) + without_pips


def _rolled(reading: DiceReading | None) -> tuple[DiceReading, Counter[str]]:
    """Return the dice of the roll, and how many others were set aside: outside the calibrated tray, or
    without pips (a d8 or a numeral die, entered by hand); raises nothing."""
    rolled, aside = [], Counter[str]()
    for die in reading.dice if reading is not None else ():
        why = next((flag for flag in (OFF_TRAY, NOT_PIPS) if flag in die.flags), None)
        if why is None:
            rolled.append(die)
        else:
            aside[why] += 1
    return DiceReading(tuple(rolled)), aside
