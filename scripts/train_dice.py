"""Train the dice face network (vision/models/dice_net.npz) with plain numpy, reproducibly (fixed seeds).

Usage:  .venv/bin/python scripts/train_dice.py [--half dev|all] [--epochs N] [--out PATH]

The shipped model is `scripts/train_dice.py --half all` (35 epochs, fresh synthetic renders, contrast floor
12); its held-out twin is `--half dev --epochs 50 --out /tmp/dice_net_dev.npz`, measured with
`benchmarks/dice_reader.py --half check --model /tmp/dice_net_dev.npz`. Everything is seeded and numpy is
kept to one thread, so a rerun gives the same weights on the same machine and library versions.

Training data, read IN PLACE from ../shared/dice beside the repo (never copied into the repo):
- nell-byler-d6: photos by Nell Byler, https://github.com/nell-byler/dice_detection,
  BSD 3-Clause licence, "Copyright (c) 2019, Nell Byler".
- matteop65-webcam-d6: photos by Matteo Anthony Penlington,
  https://github.com/matteop65/Dice_Detection_Recognition, MIT licence,
  "Copyright (c) 2021 Matteo Anthony Penlington".
- synthetic renders made by this script: pip faces (classes 1-6), numeral faces (class "not pips") and
  empty ground (class "nothing").
Not used for training: tai-studio-d6-crops (GPL-3.0, kept for testing only) and the burksbuilds numeral
photos (kept for testing that numerals are never read as a number).

`--half dev` trains on the dev half of each folder (vision.scoring.split_photos) so the check half can
measure how well the network generalises; `--half all` (the default, used for the shipped model) trains
on every shared photo. The network: two 3x3 stride-2 convolutions (16, 32 channels), a 64-unit dense
layer, 8 class outputs (nothing, 1-6, not pips) and 3 box outputs (dx, dy, log size).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # one thread: sums in a fixed order, so reruns match

import cv2  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.find import propose  # noqa: E402
from vision.net import (  # noqa: E402
    CLASSES,
    CONTEXT,
    CROP,
    MODEL_FILE,
    NOT_A_DIE,
    NOISE_FLOOR,
    NOT_PIPS,
    cut_upright,
    normalise,
    pyramid,
)
from vision.face_renders import numeral_crop, pip_face_crop, plain_crop  # noqa: E402
from vision.scoring import LabelledPhoto, load_folder, split_photos  # noqa: E402

SHARED = REPO / ".." / "shared" / "dice"
TRAIN_FOLDERS = ("nell-byler-d6", "matteop65-webcam-d6")
SEED = 7
WIDTHS = (16, 32, 64)  # channels of the two convolutions, units of the dense layer
DROPOUT = 0.5  # share of the convolution features dropped at each training step (against memorising)


def build_samples(photos: list[LabelledPhoto], oblique: bool, rng: np.random.Generator) -> tuple[list, list]:
    """Returns (pyramids, samples); a sample is (image index, x, y, size, class, dx, dy, dsize, size weight)."""
    images, samples = [], []
    for photo in photos:
        frame = cv2.imread(str(photo.path))
        index = len(images)
        images.append(pyramid(frame))
        truths = _truths(photo, oblique)
        for proposal in propose(frame):
            sample = _label(proposal.x, proposal.y, proposal.size, truths, oblique)
            if sample is not None:
                samples.append((index, proposal.x, proposal.y, proposal.size) + sample)
        for centre_x, centre_y, side, value in truths:
            if side is None:
                continue
            for _ in range(2):  # a part of a die (one pip and its surround) is not a die
                size = side * rng.uniform(0.22, 0.42)
                x = centre_x + rng.uniform(-0.3, 0.3) * side
                y = centre_y + rng.uniform(-0.3, 0.3) * side
                samples.append((index, x, y, size, NOT_A_DIE, 0.0, 0.0, 0.0, 0.0))
            for _ in range(4):
                size = side * math.exp(rng.normal(0, 0.15))
                x = centre_x + rng.normal(0, 0.12) * side
                y = centre_y + rng.normal(0, 0.12) * side
                sample = _label(x, y, size, truths, oblique)
                if sample is not None:
                    samples.append((index, x, y, size) + sample)
    return images, samples


def _truths(photo: LabelledPhoto, oblique: bool) -> list[tuple[float, float, float | None, int]]:
    """Returns (centre x, centre y, die side or None, value) per label; raises nothing."""
    truths = []
    for value, (left, top, width, height) in zip(photo.values, photo.boxes or ()):
        side = None if oblique else float(max(width, height))
        truths.append((left + width / 2, top + height / 2, side, value))
    if oblique:  # top-face pip boxes: a pattern of 2-6 pips spans about 0.62 of the die side
        pairs = list(zip(photo.values, photo.boxes or ()))
        sides = [max(w, h) / 0.62 for value, (_, _, w, h) in pairs if value >= 2]
        lone = [min(110.0, max(45.0, 3.3 * max(w, h))) for value, (_, _, w, h) in pairs if value == 1]
        typical = float(np.median(sides if sides else lone))
        truths = [(x, y, typical, value) for x, y, _, value in truths]
    return truths


def _label(x: float, y: float, size: float, truths: list, oblique: bool) -> tuple | None:
    """Returns (class, dx, dy, dsize, size weight) for a crop place, or None when it is ambiguous."""
    best = None
    for centre_x, centre_y, side, value in truths:
        scale = side if side is not None else size
        distance = math.hypot(centre_x - x, centre_y - y) / scale
        if best is None or distance < best[0]:
            best = (distance, centre_x, centre_y, side, value)
    if best is None or best[0] > 0.6:
        return (NOT_A_DIE, 0.0, 0.0, 0.0, 0.0)
    distance, centre_x, centre_y, side, value = best
    ratio = size / side if side is not None else 1.0
    if distance < 0.32 and 0.62 < ratio < 1.6:
        weight = 0.3 if oblique else 1.0
        dsize = 0.0 if oblique else math.log(side / size)
        return (value, (centre_x - x) / size, (centre_y - y) / size, dsize, weight)
    if ratio < 0.45 or ratio > 2.2:
        return (NOT_A_DIE, 0.0, 0.0, 0.0, 0.0)
    return None


def augment_crop(images: list, sample: tuple, rng: np.random.Generator, recolour: bool) -> tuple[np.ndarray, np.ndarray]:
    """Returns one augmented crop and its box targets (dx, dy, dsize) in crop coordinates; raises nothing."""
    index, x, y, size, _, shift_x, shift_y, dsize, _ = sample
    angle = float(rng.uniform(0, 360))
    mirror = bool(rng.random() < 0.5)
    grow = math.exp(rng.normal(0, 0.06))
    crop, angle = cut_upright(images[index], x, y, CONTEXT * size * grow, angle)
    if mirror:  # the crop is upright, so a left-right flip keeps it upright
        crop = np.ascontiguousarray(crop[:, ::-1])
    radians = math.radians(angle)
    # frame offset d = R diag(flip, 1) o  ->  o = diag(flip, 1) R^T d
    along = math.cos(radians) * shift_x + math.sin(radians) * shift_y
    across = -math.sin(radians) * shift_x + math.cos(radians) * shift_y
    targets = np.array([(-along if mirror else along) / grow, across / grow, dsize - math.log(grow)], np.float32)
    crop = crop.astype(np.float32)
    if recolour and rng.random() < 0.5:
        crop = crop[:, :, rng.permutation(3)]
    crop = crop * rng.uniform(0.75, 1.25) + rng.uniform(-25, 25)
    if rng.random() < 0.2:
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.4, 0.9)))
    return np.clip(crop, 0, 255), targets


class SyntheticPool:
    """Pre-rendered synthetic crops (pip faces, numerals, empty ground), reused with exact turns and flips."""

    def __init__(self, rng: np.random.Generator, faces: int = 12000, numerals: int = 3000, plains: int = 2000) -> None:
        """Renders the pool once (nothing when faces is 0: then every draw is a fresh render); raises nothing."""
        self.rng = rng
        self.fresh = faces == 0
        self.faces = [(crop, value, target) for value in range(1, 7) for crop, target in (pip_face_crop(rng, value) for _ in range(faces // 6))]
        self.numerals = [numeral_crop(rng).astype(np.float32) for _ in range(numerals if faces else 0)]
        self.plains = [plain_crop(rng) for _ in range(plains if faces else 0)]

    def draw(self, faces: int, numerals: int, plains: int) -> list[tuple[np.ndarray, int, np.ndarray]]:
        """Returns (crop, class, box targets) picks, each turned by a random quarter turn and maybe mirrored."""
        if self.fresh:
            values = self.rng.integers(1, 7, faces)
            picks = [(crop, int(value), target) for value in values for crop, target in [pip_face_crop(self.rng, int(value))]]
            picks += [(numeral_crop(self.rng).astype(np.float32), NOT_PIPS, np.zeros(3, np.float32)) for _ in range(numerals)]
            picks += [(plain_crop(self.rng), NOT_A_DIE, np.zeros(3, np.float32)) for _ in range(plains)]
            return picks
        picks = []
        for index in self.rng.integers(0, len(self.faces), faces):
            crop, value, target = self.faces[index]
            picks.append(self._turned(crop, value, target))
        for index in self.rng.integers(0, len(self.numerals), numerals):
            picks.append(self._turned(self.numerals[index], NOT_PIPS, np.zeros(3, np.float32)))
        for index in self.rng.integers(0, len(self.plains), plains):
            picks.append(self._turned(self.plains[index], NOT_A_DIE, np.zeros(3, np.float32)))
        return picks

    def _turned(self, crop: np.ndarray, value: int, target: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
        """Returns the crop turned by k quarter turns (and maybe mirrored) with its targets turned alike."""
        turns = int(self.rng.integers(0, 4))
        along, across, grow = (float(number) for number in target)
        for _ in range(turns):  # np.rot90 turns content anticlockwise: (u, v) -> (v, -u) in image axes
            along, across = across, -along
        crop = np.rot90(crop, turns)
        if self.rng.random() < 0.5:
            crop = crop[:, ::-1]
            along = -along
        shade = self.rng.uniform(0.8, 1.2)
        return np.ascontiguousarray(crop) * shade, value, np.array([along, across, grow], np.float32)


class Trainer:
    """Plain numpy training of the face network with Adam."""

    def __init__(self, rng: np.random.Generator, widths: tuple[int, int, int] = WIDTHS, dropout: float = DROPOUT) -> None:
        """Makes freshly initialised weights; raises nothing."""
        self.rng = rng
        self.dropout = dropout
        first, second, dense = widths
        after = ((CROP - 3) // 2 + 1 - 3) // 2 + 1
        shapes = {
            "conv1": (27, first),
            "conv2": (9 * first, second),
            "dense": (after * after * second, dense),
            "out": (dense, CLASSES + 3),
        }
        self.weights: dict[str, np.ndarray] = {}
        for name, (fan_in, fan_out) in shapes.items():
            self.weights[name + "_w"] = (rng.normal(0, math.sqrt(2 / fan_in), (fan_in, fan_out))).astype(np.float32)
            self.weights[name + "_b"] = np.zeros(fan_out, np.float32)
        self.moments = {name: np.zeros_like(value) for name, value in self.weights.items()}
        self.squares = {name: np.zeros_like(value) for name, value in self.weights.items()}
        self.steps = 0

    def step(self, batch: np.ndarray, classes: np.ndarray, targets: np.ndarray, masks: np.ndarray, rate: float) -> float:
        """Runs one Adam step on a batch; returns the loss; raises nothing."""
        weights = self.weights
        count = len(batch)
        columns1, hidden1 = _conv_train(batch, weights["conv1_w"], weights["conv1_b"])
        columns2, hidden2 = _conv_train(hidden1, weights["conv2_w"], weights["conv2_b"])
        keep = (self.rng.random((count, hidden2[0].size)) >= self.dropout).astype(np.float32) / (1 - self.dropout)
        flat = hidden2.reshape(count, -1) * keep
        dense = np.maximum(flat @ weights["dense_w"] + weights["dense_b"], 0)
        outputs = dense @ weights["out_w"] + weights["out_b"]
        logits = outputs[:, :CLASSES]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        chances = shifted / shifted.sum(axis=1, keepdims=True)
        loss = -np.log(chances[np.arange(count), classes] + 1e-9).mean()
        grad_out = np.zeros_like(outputs)
        grad_out[:, :CLASSES] = chances
        grad_out[np.arange(count), classes] -= 1
        grad_out[:, :CLASSES] /= count
        error = outputs[:, CLASSES:] - targets
        huber = np.clip(error, -1, 1)
        loss += float((masks * np.where(np.abs(error) < 1, 0.5 * error**2, np.abs(error) - 0.5)).sum() / count) * 4
        grad_out[:, CLASSES:] = masks * huber / count * 4
        grads = {"out_w": dense.T @ grad_out, "out_b": grad_out.sum(0)}
        grad_dense = (grad_out @ weights["out_w"].T) * (dense > 0)
        grads["dense_w"], grads["dense_b"] = flat.T @ grad_dense, grad_dense.sum(0)
        grad_hidden2 = ((grad_dense @ weights["dense_w"].T) * keep).reshape(hidden2.shape) * (hidden2 > 0)
        flat2 = grad_hidden2.reshape(-1, grad_hidden2.shape[-1])
        grads["conv2_w"], grads["conv2_b"] = columns2.T @ flat2, flat2.sum(0)
        grad_hidden1 = _fold(flat2 @ weights["conv2_w"].T, hidden1.shape, hidden2.shape) * (hidden1 > 0)
        flat1 = grad_hidden1.reshape(-1, grad_hidden1.shape[-1])
        grads["conv1_w"], grads["conv1_b"] = columns1.T @ flat1, flat1.sum(0)
        self._adam(grads, rate)
        return float(loss)

    def _adam(self, grads: dict[str, np.ndarray], rate: float) -> None:
        """Applies one Adam update with light weight decay; raises nothing."""
        self.steps += 1
        for name, grad in grads.items():
            if name.endswith("_w"):
                grad = grad + 1e-4 * self.weights[name]
            self.moments[name] = 0.9 * self.moments[name] + 0.1 * grad
            self.squares[name] = 0.999 * self.squares[name] + 0.001 * grad**2
            moment = self.moments[name] / (1 - 0.9**self.steps)
            square = self.squares[name] / (1 - 0.999**self.steps)
            self.weights[name] -= (rate * moment / (np.sqrt(square) + 1e-8)).astype(np.float32)


def _conv_train(inputs: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns (unfolded input, output) of a 3x3 stride-2 valid convolution with ReLU; raises nothing."""
    count, height, width, channels = inputs.shape
    out_h, out_w = (height - 3) // 2 + 1, (width - 3) // 2 + 1
    columns = np.concatenate(
        [inputs[:, i : i + 2 * out_h - 1 : 2, j : j + 2 * out_w - 1 : 2, :] for i in range(3) for j in range(3)],
        axis=3,
    ).reshape(-1, 9 * channels)
    output = np.maximum(columns @ weights + bias, 0).reshape(count, out_h, out_w, -1)
    return columns, output


def _fold(grad_columns: np.ndarray, input_shape: tuple, output_shape: tuple) -> np.ndarray:
    """Returns the input gradient of a 3x3 stride-2 convolution from its unfolded-input gradient; raises nothing."""
    count, height, width, channels = input_shape
    out_h, out_w = output_shape[1], output_shape[2]
    grad_columns = grad_columns.reshape(count, out_h, out_w, 9 * channels)
    grad = np.zeros(input_shape, np.float32)
    for tap in range(9):
        row, col = divmod(tap, 3)
        grad[:, row : row + 2 * out_h - 1 : 2, col : col + 2 * out_w - 1 : 2, :] += grad_columns[
            ..., tap * channels : (tap + 1) * channels
        ]
    return grad


def train(half: str, epochs: int, out: Path, pool: int, floor: float) -> None:
    """Builds the samples, trains, and saves the weights to `out`; raises FileNotFoundError without the photos."""
    rng = np.random.default_rng(SEED)
    images, samples, recolour = [], [], []
    for folder in TRAIN_FOLDERS:
        photos = load_folder(SHARED / folder)
        chosen = split_photos(photos)[0] if half == "dev" else photos
        found_images, found = build_samples(chosen, folder.startswith("matteop"), rng)
        offset = len(images)
        images.extend(found_images)
        samples.extend((sample[0] + offset,) + tuple(sample[1:]) for sample in found)
        recolour.extend([folder.startswith("nell")] * len(found))
        print(f"{folder}: {len(chosen)} photos, {len(found)} samples", flush=True)
    classes = np.array([sample[4] for sample in samples])
    print("per class:", np.bincount(classes, minlength=CLASSES).tolist(), flush=True)
    pool = SyntheticPool(rng, faces=pool)
    trainer = Trainer(rng)
    positives = np.nonzero(classes != NOT_A_DIE)[0]
    negatives = np.nonzero(classes == NOT_A_DIE)[0]
    for epoch in range(epochs):
        started = time.time()
        chosen = np.concatenate([positives, positives, rng.choice(negatives, min(len(negatives), 3 * len(positives)), replace=False)])
        rng.shuffle(chosen)
        rate = 2e-3 * (0.5 * (1 + math.cos(math.pi * epoch / epochs)))
        losses = []
        for start in range(0, len(chosen), 128):
            picked = chosen[start : start + 128]
            crops, targets, masks, labels = [], [], [], []
            for index in picked:
                crop, target = augment_crop(images, samples[index], rng, recolour[index])
                crops.append(crop)
                targets.append(target)
                weight = samples[index][8]
                positive = samples[index][4] != NOT_A_DIE
                masks.append([positive, positive, weight if positive else 0.0])
                labels.append(samples[index][4])
            for crop, value, target in pool.draw(len(picked) // 3, len(picked) // 12, len(picked) // 24):
                crops.append(crop)
                targets.append(target)
                masks.append([1.0, 1.0, 1.0] if value not in (NOT_A_DIE, NOT_PIPS) else [0.0, 0.0, 0.0])
                labels.append(value)
            batch = normalise(np.stack(crops), floor)
            losses.append(trainer.step(batch, np.array(labels), np.stack(targets), np.array(masks, np.float32), rate))
        print(f"epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.4f} ({time.time() - started:.0f} s)", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, floor=np.float32(floor), **trainer.weights)
    print(f"saved {out} ({out.stat().st_size} bytes)")


def main() -> None:
    """Parses the command line and trains; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("dev", "all"), default="all")
    parser.add_argument("--epochs", type=int, default=35)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--pool", type=int, default=0, help="pre-rendered synthetic faces (0: a fresh render each time)")
    parser.add_argument("--floor", type=float, default=NOISE_FLOOR, help="contrast floor of the crop normalisation")
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    train(arguments.half, arguments.epochs, arguments.out, arguments.pool, arguments.floor)


if __name__ == "__main__":
    main()
