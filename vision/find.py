"""Where dice might be: cheap, generous proposals (centre and size) for the face reader to confirm.

Two cues, both scale-free: die-sized blobs whose colour differs from their surroundings (good for
coloured dice on a plain tray), and groups of small round spots that could be pips (good for white dice
on a similar-coloured table, and for dice in clusters). Rows are numpy arrays of (x, y, size, strength).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BLOB_SIGMAS = tuple(1.6 * 2 ** (step / 3) for step in range(5))
BLOB_WIDTH = 160  # long side of the image the die-sized colour blobs are looked for in
PIP_WIDTH = 320  # long side of the image the pip-sized spots are looked for in
SIGMA_TO_DIE = 3.1  # a square die of side D answers the blob filter best at sigma ~ D / 3.1
PIP_TO_DIE = 11.0  # a lone pip of radius r sits on a die about 11 r across (9-15 r seen)
SMALLEST_DIE = 18.0  # pixels: proposals smaller than this are dropped (dice under ~20 px cannot be read)
HOLLOW = np.ones((3, 3), np.uint8)
SPOT_SHAPE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
# brightness, red-green and yellow-blue from B, G, R: a cheap stand-in for Lab
OPPONENT = np.array([[1 / 3, 1 / 3, 1 / 3], [0.0, -0.5, 0.5], [-0.5, 0.25, 0.25]], np.float32)


@dataclass(frozen=True)
class Proposal:
    """A place that might hold a die: centre (x, y) and side in frame pixels, and how strong the cue was."""

    x: float
    y: float
    size: float
    strength: float


def colour_blobs(frame: np.ndarray, *, threshold: float = 2.0) -> np.ndarray:
    """Returns rows (x, y, size, strength) of die-sized blobs differing in colour from around them; raises nothing."""
    height, width = frame.shape[:2]
    shrink = BLOB_WIDTH / max(height, width)
    small = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    level = cv2.transform(small.astype(np.float32), OPPONENT)
    found = []
    step = 1.0
    while min(level.shape[:2]) >= 12:
        found.append(_blobs_at_level(level, step / shrink, threshold))
        level = cv2.pyrDown(level)
        step *= 2
    return np.concatenate(found) if found else np.zeros((0, 4))


def _blobs_at_level(level: np.ndarray, to_frame: float, threshold: float) -> np.ndarray:
    """Returns the local maxima of the colour difference-of-Gaussians at one pyramid level; raises nothing."""
    blurred = [cv2.GaussianBlur(level, (0, 0), sigma) for sigma in BLOB_SIGMAS]
    answers = np.stack(
        [np.sqrt(((blurred[i] - blurred[i + 1]) ** 2).sum(axis=2)) for i in range(len(BLOB_SIGMAS) - 1)]
    )
    best = answers.max(axis=0)
    peaks = (best >= cv2.dilate(best, HOLLOW)) & (best > threshold)
    peaks[0, :] = peaks[-1, :] = peaks[:, 0] = peaks[:, -1] = False
    rows, cols = np.nonzero(peaks)
    keep = _not_on_an_edge(best, rows, cols)
    rows, cols = rows[keep], cols[keep]
    which = answers[:, rows, cols].argmax(axis=0)
    sigmas = np.sqrt(np.array(BLOB_SIGMAS[:-1]) * np.array(BLOB_SIGMAS[1:]))[which]
    return np.stack(
        [
            (cols + 0.5) * to_frame - 0.5,
            (rows + 0.5) * to_frame - 0.5,
            SIGMA_TO_DIE * sigmas * to_frame,
            best[rows, cols],
        ],
        axis=1,
    )


def _not_on_an_edge(answer: np.ndarray, rows: np.ndarray, cols: np.ndarray, ratio: float = 10.0) -> np.ndarray:
    """Returns which peaks are round rather than ridges along an edge (Lowe's Hessian test); raises nothing."""
    centre = answer[rows, cols]
    dxx = answer[rows, cols + 1] + answer[rows, cols - 1] - 2 * centre
    dyy = answer[rows + 1, cols] + answer[rows - 1, cols] - 2 * centre
    dxy = (answer[rows + 1, cols + 1] - answer[rows + 1, cols - 1] - answer[rows - 1, cols + 1] + answer[rows - 1, cols - 1]) / 4
    trace, determinant = dxx + dyy, dxx * dyy - dxy * dxy
    return (determinant > 0) & (trace * trace < (ratio + 1) ** 2 / ratio * determinant)


def pip_spots(frame: np.ndarray, *, contrast: float = 28.0) -> np.ndarray:
    """Returns rows (x, y, radius, polarity) of round dark (+1) or light (-1) spots that could be pips; raises nothing."""
    height, width = frame.shape[:2]
    shrink = min(1.0, PIP_WIDTH / max(height, width))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    level = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else grey
    found = []
    to_frame = 1.0 / shrink
    while min(level.shape[:2]) >= 60:
        for polarity, operation in ((1.0, cv2.MORPH_BLACKHAT), (-1.0, cv2.MORPH_TOPHAT)):
            hat = cv2.morphologyEx(level, operation, SPOT_SHAPE)
            for threshold in (contrast, 2.5 * contrast):  # the higher one parts pips that blur into each other
                found.append(_spots_at_level(hat, to_frame, threshold, polarity))
        level = cv2.pyrDown(level)
        to_frame *= 2
    spots = np.concatenate(found) if found else np.zeros((0, 4))
    return _drop_repeats(spots)


def _spots_at_level(hat: np.ndarray, to_frame: float, contrast: float, polarity: float) -> np.ndarray:
    """Returns the round spots 1-4 pixels in radius standing out of one top-hat image; raises nothing."""
    mask = (hat > contrast).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    stats, centres = stats[1:].astype(np.float64), centres[1:]
    box_w, box_h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    round_enough = (
        (area >= 4)
        & (box_w <= 9)
        & (box_h <= 9)
        & (np.maximum(box_w, box_h) <= 2.2 * np.minimum(box_w, box_h))
        & (area >= 0.45 * box_w * box_h)
    )
    chosen = np.nonzero(round_enough)[0]
    return np.stack(
        [
            (centres[chosen, 0] + 0.5) * to_frame - 0.5,
            (centres[chosen, 1] + 0.5) * to_frame - 0.5,
            (box_w[chosen] + box_h[chosen]) / 4 * to_frame,
            np.full(len(chosen), polarity),
        ],
        axis=1,
    )


def _pairwise(points: np.ndarray) -> np.ndarray:
    """Returns the matrix of distances between the first two columns of the rows; raises nothing."""
    return np.hypot(points[:, None, 0] - points[None, :, 0], points[:, None, 1] - points[None, :, 1])


def _drop_repeats(spots: np.ndarray) -> np.ndarray:
    """Returns the spots without same-polarity repeats found again on coarser levels; raises nothing."""
    if len(spots) < 2:
        return spots
    reach = 1.5 * np.maximum(spots[:, None, 2], spots[None, :, 2])
    clash = (_pairwise(spots) < reach) & (spots[:, None, 3] == spots[None, :, 3])
    return spots[_greedy_keep(clash)]


def _greedy_keep(clash: np.ndarray) -> np.ndarray:
    """Returns the indices kept when going in order and dropping any row clashing with a kept one; raises nothing."""
    alive = np.ones(len(clash), bool)
    kept = []
    index = 0
    while index < len(clash):
        kept.append(index)
        alive &= ~clash[index]
        following = np.flatnonzero(alive[index + 1 :])
        if len(following) == 0:
            break
        index += 1 + int(following[0])
    return np.array(kept, dtype=np.int64)


def pip_groups(spots: np.ndarray) -> np.ndarray:
    """Returns rows (x, y, size, strength), one per group of nearby like spots, centred on it; raises nothing."""
    if len(spots) == 0:
        return np.zeros((0, 4))
    large = np.maximum(spots[:, None, 2], spots[None, :, 2])
    small = np.minimum(spots[:, None, 2], spots[None, :, 2])
    linked = (spots[:, None, 3] == spots[None, :, 3]) & (large <= 1.8 * small) & (_pairwise(spots) < 4.2 * large)
    labels = _components(linked)
    rows = []
    for label in np.unique(labels):
        members = spots[labels == label]
        if len(members) <= 9:
            rows.append(_group_row(members))
    return np.array(rows).reshape(-1, 4)


def _components(linked: np.ndarray) -> np.ndarray:
    """Returns a component label per node of a symmetric link matrix; raises nothing."""
    labels = np.arange(len(linked))
    while True:
        spread = np.where(linked, labels[None, :], len(linked)).min(axis=1)
        merged = np.minimum(labels, spread)
        merged = merged[merged]
        if np.array_equal(merged, labels):
            return labels
        labels = merged


def _group_row(members: np.ndarray) -> list[float]:
    """Returns the proposal row of one group of spots: its centre and a likely die size; raises nothing."""
    left, top = members[:, 0].min(), members[:, 1].min()
    right, bottom = members[:, 0].max(), members[:, 1].max()
    radius = float(np.median(members[:, 2]))
    if len(members) == 1:
        size = PIP_TO_DIE * radius
    else:
        size = max(float(np.hypot(right - left, bottom - top)) / 0.62, 6.0 * radius)
    return [(left + right) / 2, (top + bottom) / 2, size, 100.0 + len(members)]


def propose(frame: np.ndarray, *, limit: int = 80) -> list[Proposal]:
    """Returns at most `limit` die proposals, pip groups and colour blobs taken in turn, repeats merged; raises nothing."""
    smallest = max(SMALLEST_DIE, 0.02 * max(frame.shape[:2]))
    ranked = []
    for rows in (pip_groups(pip_spots(frame)), colour_blobs(frame)):
        rows = rows[rows[:, 2] >= smallest]
        ranked.append(rows[np.argsort(-rows[:, 3], kind="stable")][: 3 * limit])
    turns = np.concatenate([np.arange(len(rows)) for rows in ranked])
    rows = np.concatenate(ranked)[np.argsort(turns, kind="stable")]
    if len(rows) == 0:
        return []
    ratio = rows[:, None, 2] / rows[None, :, 2]
    close = _pairwise(rows) < 0.3 * np.minimum(rows[:, None, 2], rows[None, :, 2])
    kept = _greedy_keep(close & (ratio > 0.7) & (ratio < 1.45))[:limit]
    return [Proposal(float(x), float(y), float(size), float(strength)) for x, y, size, strength in rows[kept]]
