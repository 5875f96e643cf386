"""Synthetic die-face crops for training the face network: pip faces, numeral faces and empty ground.

Everything is drawn with OpenCV from random numbers (no photos), nearly upright; training turns them.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.cutting import CONTEXT, FACE_CROP as CROP


def numeral_crop(rng: np.random.Generator, *, numbers: tuple[int, int] = (1, 21), triangles: float = 0.4) -> np.ndarray:
    """Returns a synthetic CROP x CROP crop of a die face showing a numeral (class 'not pips'): a number drawn from
    `numbers` (lowest, past the highest), on a triangle that often (else a square); raises nothing."""
    canvas = 4 * CROP
    side = canvas / CONTEXT
    ground = rng.integers(0, 256, 3).tolist()
    face = rng.integers(0, 256, 3).tolist()
    ink = [255, 255, 255] if rng.random() < 0.5 else rng.integers(0, 256, 3).tolist()
    image = np.full((canvas, canvas, 3), ground, np.uint8)
    centre = canvas / 2
    if rng.random() < 1.0 - triangles:
        half = side / 2
        corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    else:
        corners = np.array([[0, -0.62 * side], [0.56 * side, 0.38 * side], [-0.56 * side, 0.38 * side]])
    cv2.fillPoly(image, [np.int32(corners + centre)], face, lineType=cv2.LINE_AA)
    text = str(int(rng.integers(*numbers)))
    font = int(rng.choice([0, 1, 2, 3, 4, 6]))
    scale = side / 40 * rng.uniform(0.7, 1.2)
    thickness = int(rng.integers(2, 6))
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (int(centre - width / 2), int(centre + height / 2))
    cv2.putText(image, text, origin, font, scale, ink, thickness, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((centre, centre), float(rng.uniform(0, 360)), 1.0)
    image = cv2.warpAffine(image, turn, (canvas, canvas), borderMode=cv2.BORDER_REPLICATE)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.5, 2.0)))
    return cv2.resize(image, (CROP, CROP), interpolation=cv2.INTER_AREA)


LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def contrasting(rng: np.random.Generator, colour: np.ndarray) -> np.ndarray:
    """Returns a pip colour that stands out from the face colour; raises nothing."""
    while True:  # red on black or yellow on red differ in colour more than in brightness
        pip = rng.integers(0, 256, 3) if rng.random() < 0.5 else np.full(3, 20 if colour.mean() > 128 else 235)
        if float(np.linalg.norm(pip.astype(float) - colour)) > 110:
            return pip


def pip_face_crop(rng: np.random.Generator, value: int, *, casino: float = 0.0) -> np.ndarray:
    """Returns a synthetic CROP x CROP crop of a die showing `value` pips, nearly upright; a 1 or a 2 carries a
    casino's marks (casino_marks) with the chance `casino`; raises nothing."""
    canvas = 4 * CROP
    side = canvas / CONTEXT * rng.uniform(0.85, 1.12)
    ground = rng.integers(0, 256, 3) if rng.random() < 0.4 else np.full(3, rng.integers(60, 230))
    face = rng.integers(0, 256, 3)
    pip = contrasting(rng, face)
    image = np.empty((canvas, canvas, 3), np.float32)
    image[:] = ground
    offset = rng.normal(0, 0.05, 2) * side
    centre = canvas / 2 + offset
    for _ in range(int(rng.integers(0, 3))):  # neighbours
        where = centre + rng.choice([-1, 1], 2) * rng.uniform(1.0, 1.3, 2) * side * (rng.random(2) < 0.7)
        _draw_die(image, where, side * rng.uniform(0.8, 1.2), rng.integers(0, 256, 3), None, 0, rng)
    _draw_die(image, centre, side, face, pip, value, rng)
    if casino > 0.0 and value in CASINO_MARKED and rng.random() < casino:
        casino_marks(image, centre, side, value, pip, rng)
    squash = np.eye(2)
    if rng.random() < 0.4:  # a little oblique
        squash[1, 1] = rng.uniform(0.7, 1.0)
    turn = cv2.getRotationMatrix2D((canvas / 2, canvas / 2), float(rng.uniform(-8, 8)), 1.0)
    turn[:, :2] = squash @ turn[:, :2]
    turn[:, 2] += (np.eye(2) - squash) @ np.array([canvas / 2, canvas / 2])
    image = cv2.warpAffine(image, turn, (canvas, canvas), borderMode=cv2.BORDER_REPLICATE)
    image += rng.normal(0, rng.uniform(1, 10), image.shape).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 3.0)))
    return cv2.resize(np.clip(image, 0, 255), (CROP, CROP), interpolation=cv2.INTER_AREA)


def _draw_die(
    image: np.ndarray, centre: np.ndarray, side: float, face: np.ndarray, pip: np.ndarray | None, value: int, rng: np.random.Generator
) -> None:
    """Draws one upright die face (rounded square, shading, pips) onto a float image; raises nothing."""
    half = side / 2
    corner = half * rng.uniform(0.1, 0.35)
    scale = 8
    shift = 3
    points = []
    for sign_x, sign_y, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        corner_centre = centre + np.array([sign_x * (half - corner), sign_y * (half - corner)])
        for step in range(0, 91, 15):
            angle = math.radians(start + step)
            points.append(corner_centre + corner * np.array([math.cos(angle), math.sin(angle)]))
    outline = np.int32(np.array(points) * scale)
    shade = face * rng.uniform(0.5, 0.85)
    if rng.random() < 0.5:  # a side face peeking out
        cv2.fillPoly(image, [outline + np.int32(rng.normal(0, 0.12, 2) * side * scale)], shade.tolist(), cv2.LINE_AA, shift)
    cv2.fillPoly(image, [outline], face.tolist(), cv2.LINE_AA, shift)
    if rng.random() < 0.3:  # marbled or translucent looking
        blotch = cv2.resize(rng.normal(0, 1, (4, 4, 3)).astype(np.float32), image.shape[1::-1], interpolation=cv2.INTER_CUBIC)
        mask = np.zeros(image.shape[:2], np.float32)
        cv2.fillPoly(mask, [outline], 1.0, cv2.LINE_AA, shift)
        image += blotch * rng.uniform(10, 45) * mask[:, :, None]
    if pip is None:
        return
    radius = side * (rng.uniform(0.07, 0.1) if value > 1 else rng.uniform(0.08, 0.16))
    spacing = side * rng.uniform(0.24, 0.29)
    for across, down in LAYOUTS[value]:
        where = centre + spacing * np.array([across, down])
        cv2.circle(image, tuple(np.int32(where * scale)), int(radius * scale), pip.tolist(), -1, cv2.LINE_AA, shift)


CASINO_MARKED = (1, 2)  # the faces a casino's dice print its name or emblem on
CASINO_LETTERS = "ABCDEGHKLMNOPRSTUVWXYZ$&"


def casino_marks(image: np.ndarray, centre: np.ndarray, side: float, value: int, ink: np.ndarray,
                 rng: np.random.Generator) -> None:
    """Draws a casino's marks on an upright face of `value` pips: a ring of small letters around a 1's pip, or one
    letter or sign between a 2's pips, in the pips' colour; raises nothing."""
    if value == 1:
        letters, radius, tall = int(rng.integers(6, 13)), side * rng.uniform(0.26, 0.32), side * rng.uniform(0.08, 0.13)
        start = rng.uniform(0, 2 * math.pi)
        spots = [centre + radius * np.array([math.cos(start + turn), math.sin(start + turn)])
                 for turn in np.linspace(0, 2 * math.pi, letters, endpoint=False)]
    else:
        spots, tall = [centre + rng.normal(0, 0.03, 2) * side], side * rng.uniform(0.15, 0.4)
    mask = np.zeros(image.shape[:2], np.uint8)  # OpenCV writes text on 8-bit images only
    for where in spots:
        text = str(rng.choice(list(CASINO_LETTERS)))
        scale = tall / 22  # a Hershey capital is about 22 units tall at scale 1
        thickness = max(1, int(tall * rng.uniform(0.12, 0.2)))
        (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        origin = (int(where[0] - width / 2), int(where[1] + height / 2))
        cv2.putText(mask, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)
    alpha = mask[:, :, None].astype(np.float32) / 255.0
    image *= 1.0 - alpha
    image += alpha * ink.astype(np.float32)


SPECKS_IN_FACE = (7, 16)  # specks inside the face's square: more than any die has pips, so no crop is a die face


def speckled_crop(rng: np.random.Generator) -> np.ndarray:
    """Returns a synthetic CROP x CROP crop of ground strewn with pip-like specks (granite, terrazzo, a printed
    cloth): more specks inside the face's square than a die has pips, each a pip's size or smaller; raises nothing."""
    canvas = 4 * CROP
    side = canvas / CONTEXT
    ground = rng.integers(0, 256, 3).astype(np.float32)
    image = np.empty((canvas, canvas, 3), np.float32)
    image[:] = ground
    mottle = cv2.resize(rng.normal(0, 1, (6, 6, 3)).astype(np.float32), (canvas, canvas), interpolation=cv2.INTER_CUBIC)
    image += mottle * rng.uniform(0, 30)
    inside = int(rng.integers(*SPECKS_IN_FACE))
    outside = int(rng.integers(0, 3 * inside))
    centre = canvas / 2
    places = np.concatenate([centre + rng.uniform(-side / 2, side / 2, (inside, 2)),
                             rng.uniform(0, canvas, (outside, 2))])
    ink = contrasting(rng, ground)
    for where in places:
        colour = np.clip(ink + rng.normal(0, 25, 3), 0, 255) if rng.random() < 0.8 else contrasting(rng, ground)
        radius = side * math.exp(rng.uniform(math.log(0.02), math.log(0.12)))
        cv2.circle(image, tuple(np.int32(where * 8)), int(radius * 8), colour.tolist(), -1, cv2.LINE_AA, 3)
    image += rng.normal(0, rng.uniform(1, 10), image.shape).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 3.0)))
    return cv2.resize(np.clip(image, 0, 255), (CROP, CROP), interpolation=cv2.INTER_AREA)


def plain_crop(rng: np.random.Generator) -> np.ndarray:
    """Returns a synthetic CROP x CROP crop of empty ground: a colour, a soft gradient, some grain; raises nothing."""
    base = rng.integers(0, 256, 3).astype(np.float32)
    ramp = np.linspace(-1, 1, CROP, dtype=np.float32)
    slope = rng.normal(0, 20, (2, 3)).astype(np.float32)
    image = base + ramp[None, :, None] * slope[0] + ramp[:, None, None] * slope[1]
    image = image + rng.normal(0, rng.uniform(1, 14), (CROP, CROP, 3)).astype(np.float32)
    if rng.random() < 0.3:  # a close-up of one pip or a stain: a big round spot is not a die
        spot = contrasting(rng, base).tolist()
        centre = (int(rng.integers(10, CROP - 10)), int(rng.integers(10, CROP - 10)))
        cv2.circle(image, centre, int(rng.integers(CROP // 5, CROP // 2)), spot, -1, cv2.LINE_AA)
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.5, 2.5)))
    return np.clip(image, 0, 255)
