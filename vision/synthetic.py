"""Synthetic top-down d6 dice on a felt tray: demo frames and labelled test images.

Every function here is a pure function of its arguments (randomness comes from the seed).
"""
from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from vision.types import Box

Colour = tuple[int, int, int]
DiePaint = tuple[Colour, Colour]

# (die colour, pip colour) pairs in BGR: white/black, red/white, black/white, blue/white.
DICE_COLOURS: tuple[DiePaint, ...] = (
    ((235, 235, 232), (25, 25, 25)),
    ((40, 30, 190), (240, 240, 240)),
    ((32, 32, 32), (235, 235, 235)),
    ((170, 80, 25), (240, 240, 240)),
)
TRAY_COLOUR: Colour = (70, 115, 55)

_NEAR, _MID, _FAR = 0.25, 0.5, 0.75
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_MID, _MID),),
    2: ((_NEAR, _NEAR), (_FAR, _FAR)),
    3: ((_NEAR, _NEAR), (_MID, _MID), (_FAR, _FAR)),
    4: ((_NEAR, _NEAR), (_FAR, _NEAR), (_NEAR, _FAR), (_FAR, _FAR)),
    5: ((_NEAR, _NEAR), (_FAR, _NEAR), (_MID, _MID), (_NEAR, _FAR), (_FAR, _FAR)),
    6: ((_NEAR, _NEAR), (_NEAR, _MID), (_NEAR, _FAR), (_FAR, _NEAR), (_FAR, _MID), (_FAR, _FAR)),
}
_SUPERSAMPLE = 4
_STRIP = 0.35  # height of the side face shown by a cocked die, as a fraction of its side


def render_dice(
    values: Sequence[int],
    *,
    size: tuple[int, int] = (640, 480),
    seed: int,
    die_px: int = 60,
    colours: Sequence[DiePaint] = DICE_COLOURS,
    rotation: bool = True,
    cocked: Sequence[int] = (),
) -> tuple[np.ndarray, list[Box]]:
    """Return a BGR tray image (size is width, height) with the dice and each die's box; raises ValueError on bad values."""
    _check(values, size, die_px, colours, cocked)
    rng = np.random.default_rng(seed)
    image = tray_background(size, rng)
    centres = _place(len(values), size, die_px, rng)
    boxes: list[Box] = []
    for index, (value, centre) in enumerate(zip(values, centres)):
        body, pips = colours[int(rng.integers(len(colours)))]
        angle = float(rng.uniform(0.0, 360.0)) if rotation else 0.0
        patch, mask = _die_patch(value, die_px, body, pips, cocked=index in cocked, rng=rng)
        matrix = _placement(patch.shape[:2], centre, angle, skew=index in cocked)
        boxes.append(_paste(image, patch, mask, matrix))
    return image, boxes


def tray_background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Return a felt-green tray floor with a soft vignette and mild noise; raises nothing."""
    width, height = size
    ys, xs = np.mgrid[0:17, 0:17].astype(np.float32) / 16 - 0.5
    shade = cv2.resize(1.0 - 0.35 * (xs**2 + ys**2), (width, height), interpolation=cv2.INTER_LINEAR)
    noise = rng.standard_normal((height, width), dtype=np.float32) * 3.0
    image = [shade * channel + noise for channel in TRAY_COLOUR]
    return cv2.merge([np.clip(plane, 0, 255).astype(np.uint8) for plane in image])


def motion_blur(image: np.ndarray, *, length: int, angle: float) -> np.ndarray:
    """Return a copy of the image smeared along a line of `length` px at `angle` degrees; raises nothing."""
    length = max(1, int(length))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    kernel /= max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(image, -1, kernel)


def _check(
    values: Sequence[int],
    size: tuple[int, int],
    die_px: int,
    colours: Sequence[DiePaint],
    cocked: Sequence[int],
) -> None:
    """Refuse arguments the renderer cannot draw; raises ValueError with a sentence."""
    bad = [value for value in values if int(value) not in PIP_LAYOUTS]
    if bad:
        raise ValueError(f"a d6 shows 1 to 6, not {bad}")
    if die_px < 12 or min(size) < 2 * die_px:
        raise ValueError(f"dice of {die_px} px do not fit a {size[0]}x{size[1]} tray")
    if not colours:
        raise ValueError("colours needs at least one (die colour, pip colour) pair")
    if any(not 0 <= index < len(values) for index in cocked):
        raise ValueError(f"cocked names dice {list(cocked)} but there are {len(values)} dice")


def _place(count: int, size: tuple[int, int], die_px: int, rng: np.random.Generator) -> list[tuple[float, float]]:
    """Return non-overlapping die centres inside the tray; raises ValueError when they cannot fit."""
    width, height = size
    reach = die_px * (0.5 * math.sqrt(2) + _STRIP) + 4
    spacing = 2 * reach
    centres: list[tuple[float, float]] = []
    for _ in range(400 * max(count, 1)):
        if len(centres) == count:
            return centres
        candidate = (float(rng.uniform(reach, width - reach)), float(rng.uniform(reach, height - reach)))
        if all(math.dist(candidate, other) >= spacing for other in centres):
            centres.append(candidate)
    if len(centres) == count:
        return centres
    raise ValueError(f"{count} dice of {die_px} px do not fit a {width}x{height} tray")


def _die_patch(
    value: int, die_px: int, body: Colour, pips: Colour, *, cocked: bool, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Return an upright die drawing (top face, plus a side strip when cocked) and its mask; raises nothing."""
    side = die_px * _SUPERSAMPLE
    face, face_mask = _face(value, side, body, pips)
    if not cocked:
        return _shrink(face, face_mask)
    strip_height = int(side * _STRIP)
    hidden = int(rng.integers(1, 7))
    strip, strip_mask = _face(hidden, side, body, pips)
    strip = (strip[-strip_height:] * 0.6).astype(np.uint8)
    strip_mask = strip_mask[-strip_height:]
    patch = np.concatenate([face, strip], axis=0)
    mask = np.concatenate([face_mask, strip_mask], axis=0)
    return _shrink(patch, mask)


def _face(value: int, side: int, body: Colour, pips: Colour) -> tuple[np.ndarray, np.ndarray]:
    """Return one shaded rounded-square face of `side` px with its pips, and its mask; raises nothing."""
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32) / side
    light = 1.08 - 0.22 * (xs + ys) / 2
    face = np.clip(np.array(body, np.float32)[None, None, :] * light[..., None] + 12 * (1 - light[..., None]), 0, 255)
    face = face.astype(np.uint8)
    mask = np.zeros((side, side), np.uint8)
    _rounded_square(mask, side, radius=int(side * 0.16))
    edge = cv2.GaussianBlur(mask, (0, 0), side * 0.03).astype(np.float32) / 255
    face = (face.astype(np.float32) * (0.75 + 0.25 * edge[..., None])).astype(np.uint8)
    radius = int(side * 0.085)
    for across, down in PIP_LAYOUTS[value]:
        centre = (int(across * side), int(down * side))
        cv2.circle(face, centre, radius, pips, -1, cv2.LINE_AA)
        shadow = tuple(int(channel * 0.7) for channel in pips)
        cv2.ellipse(face, centre, (radius, radius), 0, 200, 340, shadow, max(2, radius // 4), cv2.LINE_AA)
    return face, mask


def _rounded_square(mask: np.ndarray, side: int, *, radius: int) -> None:
    """Fill a rounded square covering `mask` in place (a private drawing helper); raises nothing."""
    cv2.rectangle(mask, (radius, 0), (side - 1 - radius, side - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (side - 1, side - 1 - radius), 255, -1)
    for corner in ((radius, radius), (side - 1 - radius, radius), (radius, side - 1 - radius),
                   (side - 1 - radius, side - 1 - radius)):
        cv2.circle(mask, corner, radius, 255, -1, cv2.LINE_AA)


def _shrink(patch: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the supersampled drawing and mask scaled down (anti-aliased); raises nothing."""
    height, width = patch.shape[:2]
    target = (width // _SUPERSAMPLE, height // _SUPERSAMPLE)
    return (cv2.resize(patch, target, interpolation=cv2.INTER_AREA),
            cv2.resize(mask, target, interpolation=cv2.INTER_AREA))


def _placement(shape: tuple[int, int], centre: tuple[float, float], angle: float, *, skew: bool) -> np.ndarray:
    """Return the 2x3 affine map putting an upright patch at `centre`, turned (and skewed when cocked); raises nothing."""
    height, width = shape
    to_origin = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], np.float64)
    lean = np.array([[1, 0.3, 0], [0, 0.85, 0], [0, 0, 1]], np.float64) if skew else np.eye(3)
    turn = np.vstack([cv2.getRotationMatrix2D((0, 0), angle, 1.0), [0, 0, 1]])
    to_centre = np.array([[1, 0, centre[0]], [0, 1, centre[1]], [0, 0, 1]], np.float64)
    return (to_centre @ turn @ lean @ to_origin)[:2]


def _paste(image: np.ndarray, patch: np.ndarray, mask: np.ndarray, matrix: np.ndarray) -> Box:
    """Blend the warped patch and its drop shadow into `image` in place (private); returns the die's box."""
    height, width = image.shape[:2]
    offset = max(2.0, patch.shape[1] * 0.06)
    corners = np.array([[0, 0, 1], [patch.shape[1], 0, 1], [0, patch.shape[0], 1], [*patch.shape[1::-1], 1]], float)
    reach = corners @ matrix.T
    margin = int(4 * offset)
    left, top = max(0, int(reach[:, 0].min()) - margin), max(0, int(reach[:, 1].min()) - margin)
    right = min(width, int(reach[:, 0].max()) + margin)
    bottom = min(height, int(reach[:, 1].max()) + margin)
    local = matrix - np.array([[0, 0, left], [0, 0, top]], np.float64)
    region = (right - left, bottom - top)
    warped = cv2.warpAffine(patch, local, region, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpAffine(mask, local, region, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(np.roll(alpha, (int(offset), int(offset)), axis=(0, 1)), (0, 0), offset)
    canvas = image[top:bottom, left:right].astype(np.float32) * (1 - 0.45 * shadow[..., None])
    canvas = canvas * (1 - alpha[..., None]) + warped * alpha[..., None]
    image[top:bottom, left:right] = np.clip(canvas, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha > 0.5)
    box_left, box_top = left + int(xs.min()), top + int(ys.min())
    return (box_left, box_top, left + int(xs.max()) - box_left + 1, top + int(ys.max()) - box_top + 1)
