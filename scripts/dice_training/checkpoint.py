"""A training run's state saved every few hundred steps, so a stopped run goes on where it was.

With views made on the training thread (workers 0) a resumed run draws the same views as an unbroken one;
with worker processes each resume seeds them afresh from the step it starts at.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import torch

EVERY = 250  # steps between saves: about a minute of a 2-core CPU run


class Checkpoint:
    """One part's saved state at `path` (none kept when `path` is None)."""

    def __init__(self, path: Path | None, steps: int) -> None:
        """`steps`: the run's length, which a saved state must match; raises nothing."""
        self.path, self.steps = path, steps

    def resume(self, model: torch.nn.Module, optimiser: Any, schedule: Any, rng: np.random.Generator) -> int:
        """Restores a saved state into the arguments and returns its next step (0 when none is saved); raises
        ValueError when the saved run had another length, or torch's error for a damaged file."""
        if self.path is None or not self.path.exists():
            return 0
        saved = torch.load(self.path, weights_only=False, map_location="cpu")  # a GPU run's state resumes anywhere
        if saved["steps"] != self.steps:
            raise ValueError(f"{self.path} is a run of {saved['steps']} steps, not {self.steps}: delete it to start again")
        model.load_state_dict(saved["model"])
        optimiser.load_state_dict(saved["optimiser"])
        schedule.load_state_dict(saved["schedule"])
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        return int(saved["step"])

    def save(self, step: int, model: torch.nn.Module, optimiser: Any, schedule: Any, rng: np.random.Generator) -> None:
        """Saves the state before `step` when it is due, replacing the last one whole; raises OSError."""
        if self.path is None or step % EVERY or step == 0:
            return
        state = {"steps": self.steps, "step": step, "model": model.state_dict(), "optimiser": optimiser.state_dict(),
                 "schedule": schedule.state_dict(), "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state()}
        partial = self.path.with_suffix(".partial")
        torch.save(state, partial)
        os.replace(partial, self.path)

    def finished(self) -> None:
        """Forgets the saved state once the network is written; raises OSError."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
