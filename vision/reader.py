"""read_dice: find every die in a camera frame and read its top face."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.find import Proposal, propose
from vision.net import CLASSES, NOT_A_DIE, NOT_PIPS, FaceGuess, FaceNet, pyramid
from vision.pips import check_face, foreshortening, grain, stands_out
from vision.types import NOT_PIPS as NOT_PIPS_FLAG
from vision.types import COCKED, OFF_TRAY, UNSURE, Box, DiceReading, DieReading

KEEP_FIRST = 0.3  # a proposal is looked at again when the first look says "a die" at least this likely
KEEP_DIE = 0.6  # a die is reported when the second look says "a die" at least this likely
SURE = 0.75  # a value is given without `unsure` only when its probability reaches this (and every view agrees)
SMALLEST_FRAME = 16
APART = 0.75  # two dice are never closer (centre to centre) than this many die sides
COCKED_BELOW = 0.25  # a face squashed this much more than the photo's usual face is tilted: cocked


_NETS: dict[str, FaceNet] = {}


def _face_net() -> FaceNet:
    """Returns the face network in use, loaded once; raises FileNotFoundError when the model file is missing."""
    if "in use" not in _NETS:
        _NETS["in use"] = FaceNet()
    return _NETS["in use"]


def load_model() -> None:
    """Loads the face network now, so that the first read is not slowed by it; raises FileNotFoundError."""
    _face_net()


def use_model(path: Path) -> None:
    """Makes read_dice use the network stored at `path` (for measuring other trainings); raises FileNotFoundError."""
    _NETS["in use"] = FaceNet(path)


def read_dice(
    frame: np.ndarray, *, tray: tuple[int, int, int, int] | None = None, die_px: float | None = None
) -> DiceReading:
    """Returns every die in a BGR (or grey) uint8 frame; raises ValueError for anything that is not such a frame."""
    image = _checked_frame(frame)
    tray_box = _checked_tray(tray)
    die_size = _checked_die_px(die_px)
    noise = grain(image)
    proposals = [
        proposal
        for proposal in _fitting(propose(image), die_size)
        if stands_out(image, proposal.x, proposal.y, proposal.size, noise)
    ]
    images = pyramid(image)
    net = _face_net()
    guesses = _look_twice(net, images, proposals, die_size)
    chosen = [
        guess
        for guess in _without_nesting(_strongest_apart(guesses))
        if stands_out(image, guess.x, guess.y, guess.size, noise)
    ]
    chances, agreed = net.look_closely(images, [(guess.x, guess.y, guess.size) for guess in chosen])
    dice = [
        _die_from(guess, chance, agree, image, tray_box)
        for guess, chance, agree in zip(chosen, chances, agreed)
        if 1.0 - chance[NOT_A_DIE] >= KEEP_DIE
    ]
    dice = _mark_cocked(dice, image)
    dice.sort(key=lambda die: (die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2))
    return DiceReading(tuple(dice))


def _checked_frame(frame: object) -> np.ndarray:
    """Returns the frame as a 3-channel uint8 image; raises ValueError saying what is wrong with it."""
    if frame is None:
        raise ValueError("read_dice needs a camera frame, but got None.")
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"read_dice needs a numpy image array, but got a {type(frame).__name__}.")
    if frame.dtype != np.uint8:
        raise ValueError(f"read_dice needs an 8-bit image (dtype uint8), but got dtype {frame.dtype}.")
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"read_dice needs a height x width x 3 (BGR) or grey image, but got shape {frame.shape}.")
    if min(frame.shape[:2]) < SMALLEST_FRAME:
        raise ValueError(f"read_dice needs a frame at least {SMALLEST_FRAME} pixels on each side, got {frame.shape[:2]}.")
    return np.ascontiguousarray(frame)


def _checked_tray(tray: object) -> tuple[int, int, int, int] | None:
    """Returns the tray hint as four ints; raises ValueError when it is not (x, y, w, h) with positive size."""
    if tray is None:
        return None
    try:
        left, top, width, height = (int(value) for value in tray)  # type: ignore[union-attr]
    except (TypeError, ValueError) as error:
        raise ValueError(f"the tray hint must be four numbers (x, y, w, h), got {tray!r}.") from error
    if width <= 0 or height <= 0:
        raise ValueError(f"the tray hint must have a positive width and height, got {tray!r}.")
    return left, top, width, height


def _checked_die_px(die_px: object) -> float | None:
    """Returns the die size hint as a float; raises ValueError when it is not a positive number."""
    if die_px is None:
        return None
    try:
        size = float(die_px)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise ValueError(f"the die_px hint must be a number of pixels, got {die_px!r}.") from error
    if not size > 0:
        raise ValueError(f"the die_px hint must be positive, got {die_px!r}.")
    return size


def _fitting(proposals: list[Proposal], die_size: float | None) -> list[Proposal]:
    """Returns the proposals whose size suits the die size hint (all of them without a hint); raises nothing."""
    if die_size is None:
        return proposals
    return [
        Proposal(proposal.x, proposal.y, die_size, proposal.strength)
        for proposal in proposals
        if 0.4 * die_size < proposal.size < 2.5 * die_size
    ]


def _look_twice(
    net: FaceNet, images: list[np.ndarray], proposals: list[Proposal], die_size: float | None
) -> list[FaceGuess]:
    """Returns the second-look guesses, made at the places the first look moved each likely die to; raises nothing."""
    first = net.read(images, [(proposal.x, proposal.y, proposal.size) for proposal in proposals])
    likely = [guess for guess in first if 1.0 - guess.probabilities[NOT_A_DIE] >= KEEP_FIRST]
    places = [(guess.x, guess.y, die_size if die_size else guess.size) for guess in likely]
    second = net.read(images, places)
    return [
        FaceGuess((early.probabilities + late.probabilities) / 2, late.x, late.y, late.size)
        for early, late in zip(likely, second)
    ]


def _strongest_apart(guesses: list[FaceGuess]) -> list[FaceGuess]:
    """Returns the likely dice, strongest first, dropping any centred on a stronger one; raises nothing."""
    ranked = sorted(guesses, key=lambda guess: guess.probabilities[NOT_A_DIE])
    kept: list[FaceGuess] = []
    for guess in ranked:
        if 1.0 - guess.probabilities[NOT_A_DIE] < KEEP_DIE:
            break
        if any(np.hypot(guess.x - other.x, guess.y - other.y) < APART * min(guess.size, other.size) for other in kept):
            continue
        kept.append(guess)
    return kept


def _without_nesting(guesses: list[FaceGuess]) -> list[FaceGuess]:
    """Returns the guesses without nested dice (dice do not nest): the surer side of each nest stays; raises nothing."""
    dropped: set[int] = set()
    for big_index, big in enumerate(guesses):
        inside = [
            index
            for index, small in enumerate(guesses)
            if small.size < 0.6 * big.size and np.hypot(small.x - big.x, small.y - big.y) < 0.45 * big.size
        ]
        if not inside:
            continue
        small_doubt = np.mean([guesses[index].probabilities[NOT_A_DIE] for index in inside])
        if big.probabilities[NOT_A_DIE] <= small_doubt:
            dropped.update(inside)
        else:
            dropped.add(big_index)
    return [guess for index, guess in enumerate(guesses) if index not in dropped]


def _die_from(
    guess: FaceGuess, chance: np.ndarray, agreed: bool, image: np.ndarray, tray: tuple[int, int, int, int] | None
) -> DieReading:
    """Returns the reading for one kept die: value, box, confidence and flags; raises nothing."""
    faces = chance[1:CLASSES] / max(1e-9, 1.0 - chance[NOT_A_DIE])
    best = int(np.argmax(faces)) + 1
    confidence = float(faces[best - 1])
    flags: list[str] = []
    value: int | None = best
    if best == NOT_PIPS:
        value = None
        flags.append(NOT_PIPS_FLAG)
    elif (
        confidence < SURE
        or not agreed
        or _cut_by_the_edge(guess, image.shape[1], image.shape[0])
        or not check_face(image, guess.x, guess.y, guess.size, best)
    ):
        flags.append(UNSURE)
    if tray is not None and not _inside(tray, guess.x, guess.y):
        flags.append(OFF_TRAY)
    if value is None and UNSURE not in flags:
        flags.append(UNSURE)
    return DieReading(6, value, _box(guess, image.shape[1], image.shape[0]), round(confidence, 3), tuple(flags))


def _mark_cocked(dice: list[DieReading], image: np.ndarray) -> list[DieReading]:
    """Returns the dice, flagging `cocked` those whose face looks far more squashed than the others'; raises nothing.

    A camera that looks at an angle squashes every face alike, so each face is compared with the median.
    """
    squash = {}
    for index, die in enumerate(dice):
        if die.value is not None:
            left, top, width, height = die.box
            found = foreshortening(image, left + width / 2, top + height / 2, max(width, height), die.value)
            if found is not None:
                squash[index] = found
    if len(squash) < 2:
        return dice
    usual = float(np.median(list(squash.values())))
    return [
        DieReading(die.sides, die.value, die.box, die.confidence, die.flags + (COCKED,))
        if index in squash and squash[index] < usual - COCKED_BELOW
        else die
        for index, die in enumerate(dice)
    ]


def _cut_by_the_edge(guess: FaceGuess, width: int, height: int) -> bool:
    """Whether a fifth or more of the die's box lies outside the frame (part of its face unseen); raises nothing."""
    half = guess.size / 2
    seen_w = max(0.0, min(float(width), guess.x + half) - max(0.0, guess.x - half))
    seen_h = max(0.0, min(float(height), guess.y + half) - max(0.0, guess.y - half))
    return seen_w * seen_h < 0.8 * guess.size * guess.size


def _box(guess: FaceGuess, width: int, height: int) -> Box:
    """Returns the die's (x, y, w, h) box in whole pixels, clipped to the frame; raises nothing."""
    half = guess.size / 2
    left = int(round(max(0.0, guess.x - half)))
    top = int(round(max(0.0, guess.y - half)))
    right = int(round(min(float(width), guess.x + half)))
    bottom = int(round(min(float(height), guess.y + half)))
    return left, top, max(1, right - left), max(1, bottom - top)


def _inside(tray: tuple[int, int, int, int], x: float, y: float) -> bool:
    """Whether the point (x, y) lies in the tray box; raises nothing."""
    left, top, width, height = tray
    return left <= x < left + width and top <= y < top + height
