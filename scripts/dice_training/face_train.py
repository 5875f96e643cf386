"""Teaching the face reader and the d8 reader (PyTorch): batches of labelled crops, a small network, exported
by train_dice.py."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import torch

from dice_training.batches import batches
from dice_training.budget import affordable_steps
from dice_training.checkpoint import Checkpoint
from dice_training.d8_faces import D8_CLASSES, D8Examples
from dice_training.data import Photo
from dice_training.face_examples import DRAWS, FaceExamples
from dice_training.false_spots import FalseSpot
from dice_training.models import FaceReader

__all__ = ["DRAWS", "FaceExamples", "train_d8", "train_faces"]


def train_faces(photos: list[Photo], steps: int, seed: int, log: Callable[[str], None], *,
                draw: str = "per-photo", cubes: float = 0.0, sides: float = 0.0, specks: float = 0.0,
                false_spots: Sequence[FalseSpot] = (), false_share: float = 0.0,
                device: str = "cpu", minutes: float | None = None, workers: int = 0,
                checkpoint: Path | None = None) -> FaceReader:
    """Returns a face reader trained for `steps` batches of 256 crops (fewer if they would outlast `minutes`; made
    by `workers` processes, or here with 0; see FaceExamples for `draw`, `cubes`, `sides`, `specks`, `false_spots`
    and `false_share`), resuming from and saving to `checkpoint`; raises ValueError for an unknown `draw`, a share
    out of range or a checkpoint of another run length."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    recipe = {"draw": draw, "cubes": cubes, "sides": sides, "specks": specks, "false_spots": false_spots,
              "false_share": false_share}
    examples = FaceExamples(photos, rng, **recipe)
    timing = FaceExamples(photos, np.random.default_rng(seed + 1), **recipe)
    steps = affordable_steps(lambda: timing.batch(256), steps, minutes, log, workers=workers)
    teach = Teaching("faces", FaceReader(), 256, device, workers, checkpoint)
    return teach.run(lambda generator: examples.drawing_with(generator).batch(256), steps, rng, seed, log)


def train_d8(photos: list[Photo], steps: int, seed: int, log: Callable[[str], None], *,
             device: str = "cpu", minutes: float | None = None, workers: int = 0,
             checkpoint: Path | None = None, casino: float = 0.0) -> FaceReader:
    """Returns a d8 reader (no d8 numeral, or 1-8) trained for `steps` batches of 128 crops (see D8Examples, given
    `casino`; fewer if they would outlast `minutes`), resuming from and saving to `checkpoint`; raises ValueError
    for a checkpoint of another run length."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    examples = D8Examples(photos, rng, casino=casino)
    timing = D8Examples(photos, np.random.default_rng(seed + 1), casino=casino)
    steps = affordable_steps(lambda: timing.batch(128), steps, minutes, log, workers=workers)
    teach = Teaching("d8", FaceReader(D8_CLASSES), 128, device, workers, checkpoint)
    return teach.run(lambda generator: examples.drawing_with(generator).batch(128), steps, rng, seed, log)


class Teaching:
    """One crop classifier's training run: its network, batch size, device and saved state."""

    def __init__(self, part: str, model: FaceReader, size: int, device: str, workers: int,
                 checkpoint: Path | None) -> None:
        self.part, self.model, self.size = part, model.to(device), size
        self.device, self.workers, self.checkpoint = device, workers, checkpoint

    def run(self, make: Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]], steps: int,
            rng: np.random.Generator, seed: int, log: Callable[[str], None]) -> FaceReader:
        """Returns the network trained on `steps` batches from `make`; raises ValueError for a checkpoint of
        another run length."""
        model, device = self.model, self.device
        optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
        saved = Checkpoint(self.checkpoint, steps)
        start = saved.resume(model, optimiser, schedule, rng)
        made = batches(make, rng, seed + start, self.workers)
        loss_of = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
        model.train()
        for step in range(start, steps):
            saved.save(step, model, optimiser, schedule, rng)
            crops, classes = next(made)
            logits = model(torch.from_numpy(crops).to(device))
            loss = loss_of(logits, torch.from_numpy(classes).to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            if step % 100 == 0:
                hits = (logits.argmax(1).cpu().numpy() == classes).mean()
                log(f"{self.part} step {step}/{steps} loss {loss.item():.3f} batch accuracy {hits:.3f}")
        saved.finished()
        return model.cpu().eval()
