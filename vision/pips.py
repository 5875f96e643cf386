"""A second, classic opinion on a face: find its round pips and check they form a real layout."""
from __future__ import annotations

import math

import cv2
import numpy as np

FACE = 48  # the face is looked at as a FACE x FACE grey crop
CHECKED_FROM = 40.0  # pixels: faces at least this big get a classic second opinion
HAT = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15))


def face_crop(image: np.ndarray, x: float, y: float, size: float) -> np.ndarray:
    """Returns the FACE x FACE grey crop of side `size` centred on (x, y); raises nothing."""
    scale = size / FACE
    half = (FACE - 1) / 2
    matrix = np.array([[scale, 0.0, x - scale * half], [0.0, scale, y - scale * half]])
    if scale > 1.5:  # shrinking a lot: smooth first so small pips do not alias away
        image = cv2.GaussianBlur(image, (0, 0), 0.45 * scale)
    crop = cv2.warpAffine(
        image, matrix, (FACE, FACE), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop


def find_face_pips(grey: np.ndarray) -> list[np.ndarray]:
    """Returns, per polarity (dark, light), the round spots (x, y, radius) on a FACE-sized face; raises nothing.

    A polarity whose marks are much fainter than the other's finds nothing: pips are a face's boldest marks.
    """
    hats = [cv2.morphologyEx(grey, operation, HAT) for operation in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT)]
    boldest = [float(hat[FACE // 8 : -FACE // 8, FACE // 8 : -FACE // 8].max()) for hat in hats]
    found = []
    for hat, bold, other in zip(hats, boldest, boldest[::-1]):
        if bold < 0.8 * other:
            found.append(np.zeros((0, 3)))
            continue
        threshold = max(18.0, 0.45 * bold)
        mask = (hat > threshold).astype(np.uint8)
        count, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        spots = []
        for index in range(1, count):
            left, top, width, height, area = stats[index]
            if not 6 <= area <= 200 or max(width, height) > 1.8 * min(width, height):
                continue
            if area < 0.5 * width * height:
                continue
            spot_x, spot_y = centres[index]
            if np.hypot(spot_x - FACE / 2, spot_y - FACE / 2) > 0.42 * FACE:
                continue
            radius = math.sqrt(area / math.pi)
            if _on_plain_face(grey, spot_x, spot_y, radius):
                spots.append((spot_x, spot_y, radius))
        found.append(np.array(spots, dtype=np.float64).reshape(-1, 3))
    return found


RING = np.stack([np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)), np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False))], 1)


def _on_plain_face(grey: np.ndarray, x: float, y: float, radius: float) -> bool:
    """Whether a spot sits on plain face: the ring around it is even compared with the spot's contrast."""
    reach = max(1.8 * radius, radius + 3.0)
    cols = np.clip(np.round(x + reach * RING[:, 0]).astype(int), 0, FACE - 1)
    rows = np.clip(np.round(y + reach * RING[:, 1]).astype(int), 0, FACE - 1)
    ring = grey[rows, cols].astype(np.float64)
    contrast = abs(float(np.median(ring)) - float(grey[int(round(y)), int(round(x))]))
    return float(np.percentile(ring, 70) - np.percentile(ring, 30)) < 0.5 * contrast


def is_real_layout(spots: np.ndarray, value: int) -> bool:
    """Whether `value` spots form a real d6 layout seen from any angle (centred, centrally symmetric); raises nothing.

    Every d6 layout is symmetric about the face centre, and an oblique view keeps that symmetry.
    """
    if len(spots) != value:
        return False
    radii = spots[:, 2]
    if radii.max() > 2.2 * radii.min():
        return False
    points = spots[:, :2]
    middle = points.mean(axis=0)
    if value == 1:
        return bool(np.hypot(*(points[0] - FACE / 2)) < 0.22 * FACE)
    spacing = max(1.0, float(np.median(np.hypot(*(points - middle).T))))
    mirrored = 2 * middle - points
    gaps = np.hypot(mirrored[:, None, 0] - points[None, :, 0], mirrored[:, None, 1] - points[None, :, 1]).min(axis=1)
    if gaps.max() > 0.35 * spacing:
        return False
    if np.hypot(*(middle - FACE / 2)) > 0.25 * FACE:
        return False
    if value in (3, 5):  # the middle pip sits at the centre of the others
        return bool(np.hypot(*(points - middle).T).min() < 0.3 * spacing)
    return True


def check_face(image: np.ndarray, x: float, y: float, size: float, value: int) -> bool:
    """Whether the classic pip finder does not contradict `value` on the face at (x, y); raises nothing.

    Small faces (under CHECKED_FROM pixels) are not checked: their pips are too small to find reliably.
    """
    if size < CHECKED_FROM:
        return True
    grey = face_crop(image, x, y, size)
    return any(is_real_layout(spots, value) for spots in find_face_pips(grey))


LAYOUT_ROUNDNESS = {4: 1.0, 5: 1.0, 6: 0.816}  # sqrt of the smaller / larger spread of the true pip layout


def foreshortening(image: np.ndarray, x: float, y: float, size: float, value: int) -> float | None:
    """Returns how squashed the face looks (1 = seen square-on, cos of the tilt otherwise), or None; raises nothing.

    Only faces of 4, 5 or 6 pips whose pips are all found can tell.
    """
    if value not in LAYOUT_ROUNDNESS:
        return None
    for spots in find_face_pips(face_crop(image, x, y, size)):
        if len(spots) == value:
            centred = spots[:, :2] - spots[:, :2].mean(axis=0)
            spreads = np.linalg.eigvalsh(centred.T @ centred)
            if spreads[1] <= 0:
                return None
            return float(min(1.0, math.sqrt(max(spreads[0], 0.0) / spreads[1]) / LAYOUT_ROUNDNESS[value]))
    return None


NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
STANDS_OUT = 4.0  # a face's contrast must be this many times the frame's grain


def grain(image: np.ndarray) -> float:
    """Returns the frame's pixel noise level in grey levels (Immerkaer's estimate); raises nothing."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    small = grey if max(grey.shape) <= 700 else cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_NEAREST)
    answer = cv2.filter2D(small.astype(np.float32), -1, NOISE_KERNEL)[1:-1, 1:-1]
    return float(math.sqrt(math.pi / 2) * np.abs(answer).mean() / 6)


def stands_out(image: np.ndarray, x: float, y: float, size: float, noise: float) -> bool:
    """Whether the face at (x, y) has far more contrast than the frame's grain could make; raises nothing."""
    expected = noise / max(1.0, size / FACE)  # face_crop smooths big faces, which calms the grain
    return float(face_crop(image, x, y, size).std()) >= STANDS_OUT * expected
