"""Teaching the finder: random views of the labelled photos (zoom, turn, mirror, recolour) and CenterNet targets."""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from dice_training.batches import batches
from dice_training.budget import affordable_steps
from dice_training.checkpoint import Checkpoint
from dice_training.data import Photo
from dice_training.finder_views import SIDE, ViewRecipe, finder_view
from dice_training.models import Finder
from vision.cutting import FINDER_STRIDE, pyramid


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
                 recipe: ViewRecipe = ViewRecipe()) -> list[np.ndarray]:
    """Returns [views, heat maps, regression maps, centre masks] for one batch of 16 views; raises nothing."""
    views, heats, regresses, masks = [], [], [], []
    for _ in range(16):
        index = int(rng.integers(len(photos)))
        view, dice = finder_view(photos[index], levels[index], rng, recipe)
        heat, regress, mask = finder_targets(dice)
        views.append(view.transpose(2, 0, 1) / 255.0)
        heats.append(heat)
        regresses.append(regress)
        masks.append(mask)
    return [np.stack(views).astype(np.float32), np.stack(heats), np.stack(regresses), np.stack(masks)]


def train_finder(photos: list[Photo], steps: int, seed: int, log: Callable[[str], None], *,
                 device: str = "cpu", minutes: float | None = None, workers: int = 0,
                 checkpoint: Path | None = None, recipe: ViewRecipe = ViewRecipe()) -> Finder:
    """Returns a finder trained for `steps` batches of 16 views of the scene photos, made as `recipe` says (fewer
    steps if they would outlast `minutes`; views made by `workers` processes, or here with 0), resuming from and
    saving to `checkpoint`; raises ValueError for a checkpoint of another run length."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    photos = [photo for photo in photos if photo.scene]
    levels = [pyramid(photo.image) for photo in photos]
    steps = affordable_steps(lambda: finder_batch(photos, levels, np.random.default_rng(seed + 1), recipe), steps,
                             minutes, log, workers=workers)
    model = Finder().to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    saved = Checkpoint(checkpoint, steps)
    start = saved.resume(model, optimiser, schedule, rng)
    made = batches(lambda generator: finder_batch(photos, levels, generator, recipe), rng, seed + start, workers)
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
