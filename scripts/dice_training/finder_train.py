"""Teaching the finder: random views of the labelled photos (zoom, turn, mirror, recolour) and CenterNet targets."""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import torch

from dice_training.augment import recolour
from dice_training.batches import batches
from dice_training.budget import affordable_steps
from dice_training.checkpoint import Checkpoint
from dice_training.data import SYNTHETIC, Photo
from dice_training.models import Finder
from vision.cutting import FINDER_STRIDE, pyramid

SIDE = 256  # training views are SIDE x SIDE
TABLE_RANGE = (9.0, 28.0)  # most views: faces as small as a whole tray photo shows them (log-uniform) ...
CLOSE_RANGE = (8.0, 80.0)  # ... the others anything up to a die filling a third of the view
CLOSE_SHARE = 0.4
RENDERED_RANGE = (30.0, 80.0)  # rendered tray photos are only shown close up
ALONE_RANGE = (40.0, 90.0)  # a view of one die alone (train_dice.py --alone-share) shows its face this big, the ground reaching this far past its face's edge:
ALONE_MARGIN = (0.05, 0.35)  # (in face sides)


def finder_view(photo: Photo, levels: list[np.ndarray], rng: np.random.Generator,
                alone_share: float = 0.0) -> tuple[np.ndarray, list]:
    """Returns (SIDE x SIDE x 3 float view, [(x, y, face) in view pixels]); `alone_share` of the views show one die
    cut tight on plain ground, as a close photo of a single die shows it; raises nothing."""
    median = float(np.median([die.face for die in photo.dice]))
    alone = alone_share > 0 and rng.random() < alone_share  # no draw at 0: the shipped finder's views as they were
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
    angle = float(rng.uniform(0, 360)) if rng.random() < 0.5 else 90.0 * int(rng.integers(4))
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


def finder_targets(dice: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Returns (heat map, 3 regression maps: offset x, offset y, log face; centre mask) for one view; raises nothing."""
    cells = SIDE // FINDER_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    regress = np.zeros((3, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    grid_y, grid_x = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for x, y, face in dice:
        centre_x, centre_y = x / FINDER_STRIDE, y / FINDER_STRIDE
        column, row = int(math.floor(centre_x)), int(math.floor(centre_y))
        if not (0 <= column < cells and 0 <= row < cells):
            continue
        sigma = max(0.5, face / FINDER_STRIDE / 6)
        bump = np.exp(-((grid_x - column) ** 2 + (grid_y - row) ** 2) / (2 * sigma * sigma))
        heat = np.maximum(heat, bump)
        regress[:, row, column] = (centre_x - column, centre_y - row, math.log(face))
        mask[row, column] = 1.0
    return heat, regress, mask


def finder_loss(output: torch.Tensor, heat: torch.Tensor, regress: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Returns CenterNet's focal loss on the heat map plus L1 on offsets and log size at centres; raises nothing."""
    chance = torch.sigmoid(output[:, 0]).clamp(1e-4, 1 - 1e-4)
    centres = heat.eq(1.0).float()
    positive = -torch.log(chance) * (1 - chance) ** 2 * centres
    negative = -torch.log(1 - chance) * chance**2 * (1 - heat) ** 4 * (1 - centres)
    count = centres.sum().clamp(min=1.0)
    focal = (positive.sum() + negative.sum()) / count
    where = mask.unsqueeze(1)
    l1 = (torch.abs(output[:, 1:] - regress) * where).sum() / count
    return focal + l1


def finder_batch(photos: list[Photo], levels: list[list[np.ndarray]], rng: np.random.Generator,
                 alone_share: float = 0.0) -> list[np.ndarray]:
    """Returns [views, heat maps, regression maps, centre masks] for one batch of 16 views; raises nothing."""
    views, heats, regresses, masks = [], [], [], []
    for _ in range(16):
        index = int(rng.integers(len(photos)))
        view, dice = finder_view(photos[index], levels[index], rng, alone_share)
        heat, regress, mask = finder_targets(dice)
        views.append(view.transpose(2, 0, 1) / 255.0)
        heats.append(heat)
        regresses.append(regress)
        masks.append(mask)
    return [np.stack(views).astype(np.float32), np.stack(heats), np.stack(regresses), np.stack(masks)]


def train_finder(photos: list[Photo], steps: int, seed: int, log: Callable[[str], None], *,
                 device: str = "cpu", minutes: float | None = None, workers: int = 0,
                 checkpoint: Path | None = None, alone_share: float = 0.0) -> Finder:
    """Returns a finder trained for `steps` batches of 16 views of the scene photos, `alone_share` of them one die
    alone (fewer steps if they would outlast `minutes`; views made by `workers` processes, or here with 0), resuming
    from and saving to `checkpoint`; raises ValueError for a checkpoint of another run length."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    photos = [photo for photo in photos if photo.scene]
    levels = [pyramid(photo.image) for photo in photos]
    steps = affordable_steps(lambda: finder_batch(photos, levels, np.random.default_rng(seed + 1), alone_share), steps,
                             minutes, log, workers=workers)
    model = Finder().to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    saved = Checkpoint(checkpoint, steps)
    start = saved.resume(model, optimiser, schedule, rng)
    made = batches(lambda generator: finder_batch(photos, levels, generator, alone_share), rng, seed + start, workers)
    model.train()
    for step in range(start, steps):
        saved.save(step, model, optimiser, schedule, rng)
        views, *targets = (torch.as_tensor(part).to(device) for part in next(made))
        loss = finder_loss(model(views), *targets)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            log(f"finder step {step}/{steps} loss {loss.item():.3f}")
    saved.finished()
    return model.cpu().eval()
