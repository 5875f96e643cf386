"""The finder's training views: random views of the labelled photos (zoom, turn, mirror, recolour), no PyTorch."""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from dice_training.augment import recolour
from dice_training.data import SYNTHETIC, Photo

SIDE = 256  # training views are SIDE x SIDE
TABLE_RANGE = (9.0, 28.0)  # most views: faces as small as a whole tray photo shows them (log-uniform) ...
CLOSE_RANGE = (8.0, 80.0)  # ... the others anything up to a die filling a third of the view
CLOSE_SHARE = 0.4
RENDERED_RANGE = (30.0, 80.0)  # rendered tray photos are only shown close up
ALONE_RANGE = (40.0, 90.0)  # a view of one die alone (train_dice.py --alone-share) shows its face this big ...
ALONE_MARGIN = (0.05, 0.35)  # ... and the ground this far past its face's edge (in face sides)
UPRIGHT_TURN = 10.0  # an upright view is turned by a normal draw of this many degrees, at most twice it either way


@dataclass(frozen=True)
class ViewRecipe:
    """How the finder's views are made beyond the shipped recipe (the defaults)."""

    alone_share: float = 0.0  # this share of views show one die cut tight on plain ground (train_dice.py --alone-share)
    upright: bool = False  # views keep the photo's up as up (mirrored left-right only, barely turned): in an oblique
    # photo the top face is the die's upper face, the face turned to the camera its lower one


def finder_view(photo: Photo, levels: list[np.ndarray], rng: np.random.Generator,
                recipe: ViewRecipe = ViewRecipe()) -> tuple[np.ndarray, list]:
    """Returns (SIDE x SIDE x 3 float view, [(x, y, face) in view pixels]), made as `recipe` says; raises nothing."""
    median = float(np.median([die.face for die in photo.dice]))
    alone = recipe.alone_share > 0 and rng.random() < recipe.alone_share  # no draw at 0: the shipped views as they were
    if alone:
        faces = ALONE_RANGE
    elif photo.name.startswith(SYNTHETIC):  # rendered dice teach what big dice look like; the table scale is left to photos
        faces = RENDERED_RANGE
    else:
        faces = CLOSE_RANGE if rng.random() < CLOSE_SHARE else TABLE_RANGE
    wanted = math.exp(rng.uniform(*np.log(faces)))
    scale = wanted / median
    level = min(len(levels) - 1, max(0, int(math.floor(math.log2(1.0 / scale)))))
    source = levels[level]
    anchor = photo.dice[int(rng.integers(len(photo.dice)))]
    around = np.array([anchor.x, anchor.y]) + rng.normal(0, 1, 2) * SIDE / scale / (12 if alone else 4)
    angle = _upright_turn(rng) if recipe.upright else _any_turn(rng)
    matrix = cv2.getRotationMatrix2D((float(around[0]), float(around[1])), angle, scale)
    matrix[:, 2] += SIDE / 2 - around
    if rng.random() < 0.5:
        matrix[0] = -matrix[0]
        matrix[0, 2] += SIDE
    on_level = matrix.copy()
    on_level[:, :2] *= 2.0**level
    fill = rng.integers(0, 256, 3).tolist()
    view = cv2.warpAffine(source, on_level, (SIDE, SIDE), flags=cv2.INTER_LINEAR, borderValue=fill)
    dice = []
    for die in photo.dice:
        x, y = matrix @ np.array([die.x, die.y, 1.0])
        dice.append((float(x), float(y), die.face * scale))
    if alone:
        view, dice = cut_alone(view, dice, matrix @ np.array([anchor.x, anchor.y, 1.0]), anchor.face * scale, fill, rng)
    return recolour(view, rng), dice


def _any_turn(rng: np.random.Generator) -> float:
    """A view's turn in degrees when views need not stay upright: any angle half the time, else a quarter turn;
    raises nothing."""
    return float(rng.uniform(0, 360)) if rng.random() < 0.5 else 90.0 * int(rng.integers(4))


def _upright_turn(rng: np.random.Generator) -> float:
    """An upright view's small turn in degrees, as a camera's own slight roll; raises nothing."""
    return float(np.clip(rng.normal(0, UPRIGHT_TURN), -2 * UPRIGHT_TURN, 2 * UPRIGHT_TURN))


def cut_alone(view: np.ndarray, dice: list, centre: np.ndarray, face: float, fill: list,
              rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """Returns the view with only a tight square around one die kept (the rest plain ground) and the dice whose
    centres lie in it; raises nothing."""
    half = face * (0.5 + rng.uniform(*ALONE_MARGIN))
    left, top = (int(round(value - half)) for value in centre)
    right, bottom = (int(round(value + half)) for value in centre)
    ground = np.zeros_like(view) if rng.random() < 0.5 else np.full_like(view, fill)
    kept = (slice(max(0, top), max(0, bottom)), slice(max(0, left), max(0, right)))
    ground[kept] = view[kept]
    inside = [die for die in dice if left <= die[0] < right and top <= die[1] < bottom]
    return ground, inside
