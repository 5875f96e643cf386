"""Cutting the networks' inputs out of a frame: the finder's downscaled photo and the face reader's crops.

Training (scripts/dice_training) cuts its examples with these same functions, so the networks see at the
table exactly what they were taught on.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

FACE_CROP = 32  # face crops are FACE_CROP x FACE_CROP pixels
CONTEXT = 1.35  # a face crop spans this many face sides
FINDER_STRIDE = 4  # one finder map cell covers this many input pixels
FINDER_MULTIPLE = 16  # the finder's input sides are a multiple of this
CONTRAST_FLOOR = 10.0  # crops flatter than this (grey levels) are not stretched further
SMOOTH_ABOVE = 1.05  # a crop shrinking its source more than this is smoothed first, by 0.5 * sqrt(shrink² - 1)


def pyramid(frame: np.ndarray, levels: int = 6) -> list[np.ndarray]:
    """Returns the frame and its successive halvings, so a crop never shrinks more than 2x; raises nothing."""
    images = [frame]
    while len(images) < levels and min(images[-1].shape[:2]) >= 64:
        images.append(cv2.pyrDown(images[-1]))
    return images


def finder_input(images: list[np.ndarray], long_side: int) -> tuple[np.ndarray, float]:
    """Returns (1x3xHxW float blob, input pixels per frame pixel) for the finder, from a frame's pyramid; raises nothing."""
    height, width = images[0].shape[:2]
    scale = long_side / max(height, width)
    new_w = max(FINDER_MULTIPLE, int(round(width * scale)))
    new_h = max(FINDER_MULTIPLE, int(round(height * scale)))
    source = next((image for image in reversed(images) if max(image.shape[:2]) >= long_side), images[0])
    small = cv2.resize(source, (new_w, new_h), interpolation=cv2.INTER_AREA)
    pad_w = -new_w % FINDER_MULTIPLE
    pad_h = -new_h % FINDER_MULTIPLE
    if pad_w or pad_h:
        small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    blob = small.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
    return np.ascontiguousarray(blob), scale


def cut_face(
    images: list[np.ndarray], x: float, y: float, face: float, angle: float = 0.0, mirror: bool = False
) -> np.ndarray:
    """Returns the FACE_CROP square crop (float32, HxWx3) around a face centred at (x, y); raises nothing."""
    return cut_views(images, x, y, face, ((angle, mirror),))[0]


def cut_views(
    images: list[np.ndarray], x: float, y: float, face: float, views: tuple[tuple[float, bool], ...]
) -> list[np.ndarray]:
    """Returns cut_face's crop for each (angle, mirror) view of one face, smoothing its surround once; raises nothing."""
    step = CONTEXT * face / FACE_CROP  # frame pixels per crop pixel
    level = min(len(images) - 1, max(0, int(math.floor(math.log2(max(step, 1.0))))))
    factor = 2.0**level
    shrink = step / factor  # level pixels per crop pixel: 1 to 2, unless the face is tiny or huge
    source, x, y = images[level], x / factor, y / factor
    if shrink > SMOOTH_ABOVE:  # sampling every 1.9th pixel unsmoothed keeps or drops a small pip by chance
        reach = int(FACE_CROP * shrink * 0.75) + 4  # beyond the turned crop's half-diagonal
        source, x, y = smoothed_surround(source, x, y, reach, 0.5 * math.sqrt(shrink * shrink - 1.0))
    return [_turned_crop(source, x, y, shrink, angle, mirror) for angle, mirror in views]


def _turned_crop(source: np.ndarray, x: float, y: float, shrink: float, angle: float, mirror: bool) -> np.ndarray:
    """Returns the FACE_CROP crop centred at (x, y), `shrink` source pixels per crop pixel, turned and mirrored; raises nothing."""
    turn = math.radians(angle)
    along = np.array([math.cos(turn), math.sin(turn)]) * shrink
    down = np.array([-math.sin(turn), math.cos(turn)]) * shrink
    if mirror:
        along = -along
    centre = np.array([x, y]) - (along + down) * (FACE_CROP - 1) / 2
    matrix = np.array([[along[0], down[0], centre[0]], [along[1], down[1], centre[1]]], np.float64)
    crop = cv2.warpAffine(
        source, matrix, (FACE_CROP, FACE_CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return crop.astype(np.float32)


def smoothed_surround(image: np.ndarray, x: float, y: float, reach: int, sigma: float) -> tuple[np.ndarray, float, float]:
    """Returns (the image within `reach` pixels of (x, y), Gaussian-smoothed by `sigma`, and (x, y) in it); raises nothing.

    Smoothing only the surround a crop is cut from costs a die's area, not the frame's.
    """
    left, top = max(0, int(x) - reach), max(0, int(y) - reach)
    surround = image[top : int(y) + reach + 1, left : int(x) + reach + 1]
    if surround.size == 0:  # the place lies wholly off the frame: its crop is the replicated edge anyway
        return image, x, y
    return cv2.GaussianBlur(surround, (0, 0), sigma), x - left, y - top


def normalise(crops: np.ndarray) -> np.ndarray:
    """Returns an (N, 3, FACE_CROP, FACE_CROP) batch of (N, H, W, 3) crops, each centred and stretched; raises nothing."""
    flat = crops.reshape(len(crops), -1)
    mean = flat.mean(axis=1)[:, None, None, None]
    spread = np.maximum(flat.std(axis=1), CONTRAST_FLOOR)[:, None, None, None]
    return np.ascontiguousarray(((crops - mean) / spread).transpose(0, 3, 1, 2), dtype=np.float32)


def face_contrast(crop: np.ndarray) -> float:
    """Returns how far a face crop's middle colour lies from its surround's (median, sum over channels); raises nothing.

    A face that does not stand apart from what is around it (a speck on black cloth, a whole dark tray
    taken for one big die) is no die anyone could read.
    """
    return float(np.abs(np.median(crop[_INSIDE], axis=0) - np.median(crop[_AROUND], axis=0)).sum())


def _rings() -> tuple[np.ndarray, np.ndarray]:
    """Returns masks of a face crop's middle (within 0.8 half-faces) and surround (beyond 1.1); raises nothing."""
    middle = (FACE_CROP - 1) / 2
    rows, cols = np.mgrid[0:FACE_CROP, 0:FACE_CROP]
    reach = np.maximum(np.abs(rows - middle), np.abs(cols - middle))
    half_face = FACE_CROP / CONTEXT / 2
    return reach < 0.8 * half_face, reach > 1.1 * half_face


_INSIDE, _AROUND = _rings()
