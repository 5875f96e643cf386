"""Synthetic crops of whole dice seen at a slant: a cube drawn with OpenCV, its top face at the crop's centre and
the side faces around it showing their own pips, as a camera from straight down to low over the table sees them.

The face reader must read the face at the crop's centre and not the pips of a side face beside it: a die seen from
low down turns a side face to the camera that can look larger than its top face. The photos teach this little
(most are seen from above), so these drawn dice show it in every colour. Everything is drawn from random numbers.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from dice_training.renders import LAYOUTS, contrasting
from vision.cutting import CONTEXT, FACE_CROP as CROP

TEXTURE = 48  # pixels of one face's square picture before it is laid onto the cube
MOST_TILT = 70.0  # degrees from straight down: a phone held low at the table
SIDE_TILT = 35.0  # from this low down a side face is big enough to be taken for a top face
SIDES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0))  # the side faces' outward directions


def die_values(rng: np.random.Generator, top: int) -> dict[tuple[int, int, int], int]:
    """Returns the value on each side of a die showing `top`, opposite faces summing to 7; raises nothing."""
    around = [value for value in range(1, 7) if value not in (top, 7 - top)]
    first = int(rng.choice(around))
    second = int(rng.choice([value for value in around if value not in (first, 7 - first)]))
    return {(1, 0, 0): first, (-1, 0, 0): 7 - first, (0, 1, 0): second, (0, -1, 0): 7 - second}


def face_picture(value: int, body: np.ndarray, ink: np.ndarray, rng: np.random.Generator, look: dict) -> np.ndarray:
    """Returns one face's TEXTURE x TEXTURE float picture: the body colour with `value` pips, turned by a random
    quarter; raises nothing."""
    picture = np.empty((TEXTURE, TEXTURE, 3), np.float32)
    picture[:] = body
    scale = 8
    radius = TEXTURE * (look["pip"] if value > 1 else look["one"])
    for across, down in LAYOUTS[value]:
        where = TEXTURE / 2 + TEXTURE * look["spacing"] * np.array([across, down]) - 0.5
        cv2.circle(picture, tuple(np.int32(where * scale)), int(radius * scale), ink.tolist(), -1, cv2.LINE_AA, 3)
    return np.ascontiguousarray(np.rot90(picture, int(rng.integers(4))))


def _view(tilt: float, azimuth: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Returns (towards the camera, picture right, picture down) as unit vectors for an overhead camera tilted by
    `tilt` degrees toward `azimuth`; raises nothing."""
    tilt, azimuth = math.radians(tilt), math.radians(azimuth)
    towards = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
    up = np.array([-math.cos(tilt) * math.cos(azimuth), -math.cos(tilt) * math.sin(azimuth), math.sin(tilt)])
    if tilt < 1e-6:
        up = np.array([-math.cos(azimuth), -math.sin(azimuth), 0.0])
    right = np.cross(up, towards)
    return towards, right, -up


def _corners(normal: tuple[int, int, int]) -> np.ndarray:
    """Returns the 4 corners (top-left, top-right, bottom-right, bottom-left of its picture) of the unit cube's face
    facing `normal`; raises nothing."""
    n = np.array(normal, float)
    first = np.array([0.0, 1.0, 0.0]) if abs(n[0]) > 0.5 else np.array([1.0, 0.0, 0.0])
    second = np.cross(n, first)
    middle = n / 2
    return np.array([middle + (-first - second) / 2, middle + (first - second) / 2,
                     middle + (first + second) / 2, middle + (-first + second) / 2])


def seen_faces(tilt: float, azimuth: float) -> dict[tuple[int, int, int], np.ndarray]:
    """Returns {outward direction: its 4 corners in the picture} for each face of a unit cube that a camera tilted by
    `tilt` degrees toward `azimuth` sees, in cube edges from the top face's centre (x right, y down); raises
    nothing."""
    towards, right, down = _view(tilt, azimuth)
    top_middle = np.array([0.0, 0.0, 0.5])
    seen = {}
    for normal in ((0, 0, 1), *SIDES):
        if np.dot(normal, towards) > 1e-3:
            seen[normal] = np.array([[(corner - top_middle) @ right, (corner - top_middle) @ down]
                                     for corner in _corners(normal)])
    return seen


def cube_crop(rng: np.random.Generator, value: int, *, at_side: bool = False) -> np.ndarray:
    """Returns a synthetic CROP x CROP crop of a die showing `value` on its top face, seen from straight down to
    MOST_TILT degrees, the top face at the crop's centre; `at_side`: seen from SIDE_TILT down or lower, one of its
    side faces at the centre instead (no top face there: "nothing" to the face reader); raises nothing."""
    canvas = 2 * CROP  # drawn at twice the crop, then shrunk: smooth edges at a quarter of the cost of 4x
    side = canvas / CONTEXT * rng.uniform(0.85, 1.12)  # pixels of one cube edge, as the finder would size the face
    body = rng.integers(0, 256, 3).astype(np.float32)
    ink = contrasting(rng, body).astype(np.float32)
    look = {"pip": rng.uniform(0.07, 0.1), "one": rng.uniform(0.08, 0.16), "spacing": rng.uniform(0.24, 0.29)}
    ground = rng.integers(0, 256, 3) if rng.random() < 0.5 else np.full(3, rng.integers(30, 230))
    image = np.empty((canvas, canvas, 3), np.float32)
    image[:] = ground
    image += cv2.resize(rng.normal(0, rng.uniform(0, 12), (4, 4, 3)).astype(np.float32), (canvas, canvas))
    tilt = float(rng.uniform(SIDE_TILT, MOST_TILT) if at_side else MOST_TILT * rng.random() ** 0.7)
    faces = seen_faces(tilt, float(rng.uniform(0, 360)))
    light = np.array([*rng.normal(0, 0.5, 2), 1.0])
    light /= np.linalg.norm(light)
    centre = canvas / 2 + rng.normal(0, 0.06, 2) * side
    if at_side:
        sides = [normal for normal in faces if normal != (0, 0, 1)]
        centre = centre - side * faces[sides[int(rng.integers(len(sides)))]].mean(axis=0)
    quads = {normal: np.float32(centre + side * corners) for normal, corners in faces.items()}
    values = {(0, 0, 1): value, **die_values(rng, value)}
    hull = cv2.convexHull(np.concatenate(list(quads.values())))
    shadow = hull + rng.normal(0, 0.05, 2) * side * 0.5  # the die's shadow, a little off it
    cv2.fillConvexPoly(image, np.int32(shadow), (ground * 0.55).tolist(), cv2.LINE_AA)
    cv2.fillConvexPoly(image, np.int32(hull), (body * 0.6).tolist(), cv2.LINE_AA)
    ambient = rng.uniform(0.35, 0.7)
    square = np.float32([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]])
    for normal, quad in quads.items():
        shade = ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light)))
        picture = face_picture(values[normal], body, ink, rng, look) * shade
        laid = cv2.warpPerspective(picture, cv2.getPerspectiveTransform(square, quad), (canvas, canvas))
        mask = np.zeros((canvas, canvas), np.float32)
        cv2.fillConvexPoly(mask, np.int32(np.round(quad * 8)), 1.0, cv2.LINE_8, 3)
        image = image * (1 - mask[:, :, None]) + laid * mask[:, :, None]
    image += rng.normal(0, rng.uniform(1, 10), image.shape).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.5)))
    return cv2.resize(np.clip(image, 0, 255), (CROP, CROP), interpolation=cv2.INTER_AREA)
