"""read_dice: find every die in a camera frame and read its top face.

Three small networks do the work (trained by scripts/train_dice.py, run by OpenCV's dnn module): the
finder marks top-face centres and sizes on a downscaled frame, and the face reader's two networks read a
crop around each. vision/marks.py flags specks and tilted (cocked) faces. Where a d8 may lie
on the tray, a fourth network reads the numeral on its top face (vision/numerals.py).
"""
from __future__ import annotations

import functools
import logging
import math
import statistics
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from vision.checks import checked_die_px, checked_frame, checked_sides, checked_tray
from vision.cutting import face_contrast, pyramid
from vision.faces import CLASSES, NOT_PIPS, NOTHING, FaceReader, FaceReadings
from vision.finder import Finder, Spot, strongest_apart
from vision.marks import die_side, flagged, mark_cocked, mark_outsized_ones, mark_specks
from vision.nesting import likeliest_face, without_nesting
from vision.numerals import D8_FILE, NO_NUMERAL, NumeralReader
from vision.types import NOT_PIPS as NOT_PIPS_FLAG
from vision.places import on_tray
from vision.types import UNSURE, Box, DiceReading, DieReading

log = logging.getLogger(__name__)

MODELS = Path(__file__).resolve().parent / "models"
TABLE_LOOK = (256, (6.0, 80.0))  # finder input long side, and the face sides (input pixels) it reports there
CLOSE_LOOK = (96, (24.0, 80.0))  # a second, coarse look for dice that fill much of the frame
HINTED_FACE = 18.0  # with a die size hint the frame is scaled so a face spans this many finder pixels
OWN_SIZE_FACE = 20.0  # without one, dice the table look saw under HINTED_FACE are looked at again to span this many
OWN_SIZE_LOOKS = 3  # ... at most this many times, each at the size the look before found ...
OWN_SIZE_STEADY = 1.1  # ... until two looks in a row find sizes within this ratio
KEEP_DIE = 0.4  # a spot is a die when (finder's chance) x (face reader's chance it is a die) reaches this
STANDS_APART = 4.0  # grey levels (summed over channels) a face's colour must differ from its surround's
LONE_DOT_APART = 16.0  # ... and a sure 1's by this much: a lone dot on a face like the ground may be a speck
SURE = 0.9  # a value is given without `unsure` only when its chance reaches this and every view agrees ...
SURE_SPOT = 0.5  # ... and the finder was at least this sure a face is there (a speck on black is no die)
D8_SURE = 0.85  # a d8's numeral is sure from this chance, with the same other rules: the lowest bar, in steps of
# 0.05, at which no held-out rendered d8 close-up read whole was sure and wrong (0.8; the surest wrong one read 0.77),
# and one step more
STALE_HINT = 1.33  # dice found this many times bigger or smaller than the die_px hint: it is stale, look without it


# What a table taught (vision/layer.py): given the pyramid, the (x, y, face) places and the face reader's
# readings of them, the readings as this table's dice have shown them to be read.
Relook = Callable[[list[np.ndarray], list[tuple[float, float, float]], FaceReadings], FaceReadings]


class DiceReader:
    """The loaded networks; `read` may be called from any thread (one read at a time).

    `taught`, when set (at any time, by a plain assignment), reads the faces again as the table taught.
    """

    def __init__(self, models: Path = MODELS, *, taught: Relook | None = None) -> None:
        """Loads the networks from `models` (the d8 reader where it is there); raises FileNotFoundError when a
        d6 network's file is missing."""
        self._finder = Finder(models / "dice_finder.onnx")
        self._faces = FaceReader(models / "dice_faces.onnx", models / "dice_faces_second.onnx")
        self._numerals = NumeralReader(models / D8_FILE) if (models / D8_FILE).is_file() else None
        self._lock = threading.Lock()
        self._warned_stale: float | None = None
        self.taught = taught

    @property
    def reads_d8(self) -> bool:
        """Whether these networks can read a d8 (the d8 reader is beside them); raises nothing."""
        return self._numerals is not None

    def read(
        self, frame: np.ndarray, *, tray: tuple[int, int, int, int] | None = None, die_px: float | None = None,
        sides: tuple[int, ...] = (6,),
    ) -> DiceReading:
        """Returns every die in a BGR (or grey) uint8 frame, of the kinds `sides` names (6, 8 or both); raises
        ValueError for anything that is not such a frame, a bad hint, or a d8 asked of networks without a d8 reader."""
        image = checked_frame(frame)
        tray_box = checked_tray(tray)
        die_size = checked_die_px(die_px)
        kinds = checked_sides(sides)
        if 8 in kinds and self._numerals is None:
            raise ValueError(f"these networks cannot read a d8: {D8_FILE} is not beside them.")
        images = pyramid(image)
        dice = self._dice(images, die_size, kinds)
        if die_size is not None and self._stale(dice, die_size):
            die_size = None
            dice = self._dice(images, None, kinds)
        if die_size is None:
            dice = self._at_own_size(images, dice, kinds)
        dice = mark_cocked(mark_outsized_ones(mark_specks(dice)), image)
        dice.sort(key=lambda die: (die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2))
        reading = DiceReading(tuple(dice))
        return reading if tray_box is None else on_tray(reading, tray_box)

    def _dice(self, images: list[np.ndarray], die_size: float | None, kinds: tuple[int, ...]) -> list[DieReading]:
        """Returns the dice the finder and the face reader agree on, unsorted; raises nothing."""
        with self._lock:
            spots = strongest_apart(self._spots(images, die_size))
            places = [(spot.x, spot.y, spot.face) for spot in spots]
            faces = self._faces.read(images, places)
            taught = self.taught
            if taught is not None and places:
                faces = taught(images, places, faces)
        kept, contrast = [], {}
        for spot, chance, agree, crop in zip(spots, faces.chances, faces.agreed, faces.crops):
            if spot.chance * (1.0 - chance[NOTHING]) >= KEEP_DIE:  # only a likely die's contrast is worth measuring
                contrast[spot] = face_contrast(crop)
                if contrast[spot] >= STANDS_APART:
                    kept.append((spot, chance, agree))
        found = without_nesting(kept)
        sure_from = SURE if faces.sure_from is None else faces.sure_from
        dice = [_die_from(spot, chance, agree, images[0], faint=contrast[spot] < LONE_DOT_APART, sure_from=sure_from)
                for spot, chance, agree in found]
        if kinds == (6,):
            return dice
        with self._lock:  # the d8 network too is run by one read at a time
            return self._as_d8(images, found, dice, kinds)

    def _as_d8(self, images: list[np.ndarray], found: list[tuple[Spot, np.ndarray, bool]], dice: list[DieReading],
               kinds: tuple[int, ...]) -> list[DieReading]:
        """Returns the dice with each d8 read by the numeral on its top face; raises nothing.

        With only d8 on the tray every face is a d8's. With d6 beside them, a face is a d8's when the d8 reader
        sees a numeral on it and the face reader is not sure of pips there. Where the face reader is sure of pips
        and the d8 reader sees a numeral, the two disagree on the die's kind: the d6 reading stays, unsure.
        """
        places = [(spot.x, spot.y, spot.face) for spot, _, _ in found]
        chances, agreed = self._numerals.read(images, places)
        for index, (numeral, agree) in enumerate(zip(chances, agreed)):
            if kinds != (8,) and int(np.argmax(numeral)) == NO_NUMERAL:
                continue
            if kinds == (8,) or dice[index].unsure:
                dice[index] = _d8_from(found[index][0], numeral, bool(agree), images[0])
            else:
                dice[index] = flagged(dice[index], UNSURE)
        return dice

    def _at_own_size(self, images: list[np.ndarray], dice: list[DieReading], kinds: tuple[int, ...]) -> list[DieReading]:
        """Returns the dice read again at their own size when the table look saw them small, else as they are;
        raises nothing.

        A face of a few finder pixels is found too big and often missed: skovy's 58-pixel dice in a 1920-pixel frame
        span 8 pixels at the table look and were found 1.57 times too big, against 1.05 times when looked at as a
        calibrated box does. The second look is scaled as for a hint; its dice are kept when they fit it. Seen still
        small there, they are found too big again (1.33 times), so the look is taken again at the size it found,
        until that size holds (OWN_SIZE_STEADY) or OWN_SIZE_LOOKS looks were taken.
        """
        if not dice:
            return dice
        seen = statistics.median(die_side(die) for die in dice)
        long_side = max(images[0].shape[:2])
        if seen * unhinted_looks(long_side)[0][0] / long_side >= HINTED_FACE:
            return dice
        for _ in range(OWN_SIZE_LOOKS):
            hint = seen * HINTED_FACE / OWN_SIZE_FACE
            again = self._dice(images, hint, kinds)
            if not _fits(again, hint):
                return dice
            dice, before, seen = again, seen, statistics.median(die_side(die) for die in again)
            if max(seen, before) / min(seen, before) < OWN_SIZE_STEADY:
                break
        return dice

    def _stale(self, dice: list[DieReading], die_size: float) -> bool:
        """Whether the hinted look found no die, or dice of another size (the camera moved, new dice); raises nothing.

        A hint 2x too big lost 3 of a busy tray's 22 dice; the dice found then are off the hint by
        about as much, while with a right hint their median side is within 0.93-1.16 of it.
        """
        if _fits(dice, die_size):
            return False
        if not dice:
            return True
        seen = statistics.median(die_side(die) for die in dice)
        if self._warned_stale != die_size:
            self._warned_stale = die_size
            log.warning("the dice look about %d px across, not the calibrated die_px = %g: read without it; "
                        "calibrate again (on the host page) to save the new size", seen, die_size)
        return True

    def _spots(self, images: list[np.ndarray], die_size: float | None) -> list[Spot]:
        """Returns the finder's spots: one look scaled to the hinted die size, else a table and a close look."""
        long_side = max(images[0].shape[:2])
        if die_size is not None:
            fitted = int(np.clip(HINTED_FACE * long_side / die_size, 64, 1024))
            return self._finder.find(images, fitted, (HINTED_FACE / 2.5, HINTED_FACE * 2.5))
        return [spot for side, faces in unhinted_looks(long_side) for spot in self._finder.find(images, side, faces)]


@functools.lru_cache(maxsize=1)
def shipped_reader() -> DiceReader:
    """Returns the reader with the shipped networks, loaded once (a cache of read-only files); raises FileNotFoundError."""
    return DiceReader()


def read_dice(
    frame: np.ndarray, *, tray: tuple[int, int, int, int] | None = None, die_px: float | None = None,
    sides: tuple[int, ...] = (6,),
) -> DiceReading:
    """Returns every die in the frame, read with the shipped networks; raises ValueError for a bad frame or hint."""
    return shipped_reader().read(frame, tray=tray, die_px=die_px, sides=sides)


def unhinted_looks(long_side: int) -> tuple[tuple[int, tuple[float, float]], ...]:
    """Returns the finder's looks at a frame `long_side` pixels long with no die size hint: (input long side, face
    sides it reports) each, the table look first; raises nothing."""
    return (min(TABLE_LOOK[0], _multiple(long_side)), TABLE_LOOK[1]), CLOSE_LOOK


def _multiple(side: int) -> int:
    """Returns the side rounded up to the finder's multiple of 16 (small frames are not enlarged much); raises nothing."""
    return max(64, int(math.ceil(side / 16) * 16))


def _die_from(spot: Spot, chance: np.ndarray, agreed: bool, image: np.ndarray, *, faint: bool = False,
              sure_from: float = SURE) -> DieReading:
    """Returns the reading for one kept die: value, box, confidence and flags; raises nothing.

    A 1 on a `faint` face (one that barely stands apart from its surround) is unsure: a lone dot there is as
    likely a speck on the cloth. A value is sure from `sure_from` (the table's own threshold, where it taught one).
    """
    faces = chance[1:CLASSES] / max(1e-9, 1.0 - chance[NOTHING])
    best = likeliest_face(chance)
    confidence = float(faces[best - 1])
    flags: list[str] = []
    value: int | None = best
    if best == NOT_PIPS:
        value = None
        flags += [NOT_PIPS_FLAG, UNSURE]
    elif _doubtful(spot, confidence, agreed, image, sure_from) or (faint and best == 1):
        flags.append(UNSURE)
    return DieReading(6, value, _box(spot, image.shape[1], image.shape[0]), round(confidence, 3), tuple(flags))


def _d8_from(spot: Spot, numeral: np.ndarray, agreed: bool, image: np.ndarray) -> DieReading:
    """Returns the reading of a d8's top face: its likeliest numeral, `unsure` unless it is clear; raises nothing.

    A face the d8 reader sees no numeral on has no value.
    """
    best = int(np.argmax(numeral[1:])) + 1
    confidence = float(numeral[best])
    value = None if int(np.argmax(numeral)) == NO_NUMERAL else best
    flags = (UNSURE,) if value is None or _doubtful(spot, confidence, agreed, image, D8_SURE) else ()
    return DieReading(8, value, _box(spot, image.shape[1], image.shape[0]), round(confidence, 3), flags)


def _doubtful(spot: Spot, confidence: float, agreed: bool, image: np.ndarray, sure_from: float = SURE) -> bool:
    """Whether a reading may not be given as sure: an unclear value, a doubtful spot, views that disagree, or a
    face the frame's edge cuts; raises nothing."""
    return (
        confidence < sure_from
        or spot.chance < SURE_SPOT
        or not agreed
        or _cut_by_the_edge(spot, image.shape[1], image.shape[0])
    )


def _fits(dice: list[DieReading], die_size: float) -> bool:
    """Whether dice were found, at a median size within STALE_HINT of `die_size`; raises nothing."""
    if not dice:
        return False
    return 1 / STALE_HINT <= statistics.median(die_side(die) for die in dice) / die_size <= STALE_HINT


def _cut_by_the_edge(spot: Spot, width: int, height: int) -> bool:
    """Whether a fifth or more of the face lies outside the frame (part of it unseen); raises nothing."""
    half = spot.face / 2
    seen_w = max(0.0, min(float(width), spot.x + half) - max(0.0, spot.x - half))
    seen_h = max(0.0, min(float(height), spot.y + half) - max(0.0, spot.y - half))
    return seen_w * seen_h < 0.8 * spot.face * spot.face


def _box(spot: Spot, width: int, height: int) -> Box:
    """Returns the face's (x, y, w, h) box in whole pixels, clipped to the frame; raises nothing."""
    half = spot.face / 2
    left = int(round(max(0.0, spot.x - half)))
    top = int(round(max(0.0, spot.y - half)))
    right = int(round(min(float(width), spot.x + half)))
    bottom = int(round(min(float(height), spot.y + half)))
    return left, top, max(1, right - left), max(1, bottom - top)
