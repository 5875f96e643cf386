"""Settle and vote: pure helpers that say when the dice are still and merge K readings into one.

Motion works on small blurred thumbnails, so it is cheap enough for every frame on a Pi.
The tray is "empty" when, compared with a thumbnail of the empty tray (if one is set), almost no
pixel changed; without a reference it is "empty" when almost no pixel stands out from the tray's
median colour (a plain tray floor, no die-like blobs). A patterned tray needs the reference.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

import cv2
import numpy as np

from vision.types import DiceReading, DieReading

THUMB_WIDTH = 160
MOTION_TILE = 16  # px of the thumbnail per motion tile
CHANGE_LEVEL = 0.1  # a thumbnail pixel "changed" when its grey moved by more than this (0..1)
EMPTY_FRACTION = 0.002  # at most this share of changed pixels and the tray still counts as empty
STATES: tuple[str, ...] = ("empty", "moving", "still")


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """Return a new blurred copy THUMB_WIDTH px wide, colour kept; raises ValueError for a non-image array.

    Colour is kept because grey hides dice that differ from the tray only in hue (a red die on green
    felt is nearly the same grey).
    """
    if frame.ndim not in (2, 3) or frame.dtype != np.uint8 or min(frame.shape[:2]) < 2:
        raise ValueError(f"expected a BGR or grey uint8 image, got {frame.dtype} {frame.shape}")
    height, width = frame.shape[:2]
    size = (THUMB_WIDTH, max(2, round(height * THUMB_WIDTH / width)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def difference(first_thumb: np.ndarray, second_thumb: np.ndarray) -> np.ndarray:
    """Return the per-pixel absolute difference (largest over colour channels) as float32; raises ValueError on shape."""
    if first_thumb.shape != second_thumb.shape:
        raise ValueError(f"thumbnails differ in shape: {first_thumb.shape} and {second_thumb.shape}")
    gap = cv2.absdiff(first_thumb, second_thumb)
    return (gap.max(axis=2) if gap.ndim == 3 else gap).astype(np.float32)


def motion(previous_thumb: np.ndarray, thumb: np.ndarray) -> float:
    """Return the mean absolute difference (0..1) of the busiest tile, 1.0 when sizes differ; raises nothing.

    Tiles are MOTION_TILE px of the thumbnail (about one die), so one small die tumbling on a large
    tray is not diluted by the still floor around it, while sensor noise stays far below it.
    """
    if previous_thumb.shape != thumb.shape:
        return 1.0
    gap = difference(previous_thumb, thumb)
    height, width = gap.shape
    tiles = (max(1, width // MOTION_TILE), max(1, height // MOTION_TILE))
    return float(cv2.resize(gap, tiles, interpolation=cv2.INTER_AREA).max()) / 255.0


def changed_fraction(reference_thumb: np.ndarray, thumb: np.ndarray, *, level: float = CHANGE_LEVEL) -> float:
    """Return the share (0..1) of pixels that moved by more than `level` (1.0 when sizes differ); raises nothing."""
    if reference_thumb.shape != thumb.shape:
        return 1.0
    gap = difference(reference_thumb, thumb)
    return float(np.count_nonzero(gap > level * 255)) / gap.size


def looks_empty(thumb: np.ndarray, empty_tray: np.ndarray | None = None) -> bool:
    """Return whether the tray shows no dice (against the empty-tray thumbnail if given); raises nothing."""
    if empty_tray is not None:
        return changed_fraction(empty_tray, thumb) <= EMPTY_FRACTION
    median = np.median(thumb.reshape(-1, thumb.shape[2]) if thumb.ndim == 3 else thumb.reshape(-1), axis=0)
    floor = np.empty_like(thumb)
    floor[...] = np.round(median).astype(np.uint8)
    return changed_fraction(floor, thumb, level=2 * CHANGE_LEVEL) <= EMPTY_FRACTION


@dataclass(frozen=True)
class Settle:
    """Where the tray is in its settle: state, since when it has been still, the last motion and thumbnail."""

    state: str = "moving"
    still_since: float | None = None
    motion: float = 1.0
    previous: np.ndarray | None = field(default=None, compare=False, repr=False)
    empty_tray: np.ndarray | None = field(default=None, compare=False, repr=False)


def step(settle: Settle, thumb: np.ndarray, *, now: float, still_seconds: float, threshold: float) -> Settle:
    """Return the settle after one more thumbnail: "still"/"empty" once calm for still_seconds; raises nothing.

    The first thumbnail starts the calm clock (nothing to compare with yet); any motion at or above
    `threshold` resets it. Until the clock reaches `still_seconds` the state is "moving".
    """
    amount = 0.0 if settle.previous is None else motion(settle.previous, thumb)
    if amount >= threshold:
        return replace(settle, state="moving", still_since=None, motion=amount, previous=thumb)
    since = now if settle.still_since is None else settle.still_since
    if now - since < still_seconds:
        state = "moving"
    else:
        state = "empty" if looks_empty(thumb, settle.empty_tray) else "still"
    return replace(settle, state=state, still_since=since, motion=amount, previous=thumb)


@dataclass(frozen=True)
class Vote:
    """K readings merged: the per-die majority reading, how far the frames agreed, and whether counts matched."""

    reading: DiceReading | None
    agreement: float
    count_agreed: bool


def vote(readings: Sequence[DiceReading]) -> Vote:
    """Return the per-die majority over the readings, dice matched by position; raises ValueError when empty.

    The dice of the first reading with the most common count are the reference; each die of every
    reading joins the nearest unclaimed reference die within one die size. A reference die's
    agreement is the share of all readings that saw it with the majority value; `agreement` is the
    lowest over the dice (1.0 for no dice).
    """
    if not readings:
        raise ValueError("vote needs at least one reading")
    counts = [len(reading.dice) for reading in readings]
    modal = Counter(counts).most_common(1)[0][0]
    reference = next(reading for reading in readings if len(reading.dice) == modal)
    ballots: list[list[DieReading]] = [[] for _ in reference.dice]
    for reading in readings:
        for slot, die in _match(reference.dice, reading.dice):
            ballots[slot].append(die)
    merged = [_majority(die, ballot, len(readings)) for die, ballot in zip(reference.dice, ballots)]
    agreement = min((share for _, share in merged), default=1.0)
    return Vote(
        reading=DiceReading(dice=tuple(die for die, _ in merged)),
        agreement=agreement,
        count_agreed=len(set(counts)) == 1,
    )


def _centre(die: DieReading) -> tuple[float, float]:
    """Return the centre of a die's box; raises nothing."""
    left, top, width, height = die.box
    return (left + width / 2, top + height / 2)


def _match(reference: Sequence[DieReading], dice: Sequence[DieReading]) -> list[tuple[int, DieReading]]:
    """Return (reference slot, die) pairs, nearest first, each within one die size; raises nothing."""
    pairs = sorted(
        (math.dist(_centre(anchor), _centre(die)), slot, index)
        for slot, anchor in enumerate(reference)
        for index, die in enumerate(dice)
    )
    taken_slots: set[int] = set()
    taken_dice: set[int] = set()
    matched: list[tuple[int, DieReading]] = []
    for distance, slot, index in pairs:
        if slot in taken_slots or index in taken_dice or distance > max(reference[slot].box[2:]):
            continue
        taken_slots.add(slot)
        taken_dice.add(index)
        matched.append((slot, dice[index]))
    return matched


def _majority(anchor: DieReading, ballot: Sequence[DieReading], frames: int) -> tuple[DieReading, float]:
    """Return one die's majority reading and the share of frames that agreed with it; raises nothing."""
    value, votes = Counter(die.value for die in ballot).most_common(1)[0]
    agreeing = [die for die in ballot if die.value == value]
    sides = Counter(die.sides for die in agreeing).most_common(1)[0][0]
    flag_counts = Counter(flag for die in ballot for flag in set(die.flags))
    flags = tuple(sorted(flag for flag, seen in flag_counts.items() if seen * 2 > len(ballot)))
    share = votes / frames
    confidence = share * sum(die.confidence for die in agreeing) / len(agreeing)
    return DieReading(sides=sides, value=value, box=anchor.box, confidence=confidence, flags=flags), share
