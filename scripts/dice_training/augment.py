"""Photometric changes shared by both trainings: colour, light, grain and blur, seeded by the caller."""
from __future__ import annotations

import cv2
import numpy as np


def recolour(image: np.ndarray, rng: np.random.Generator, invert: float = 0.0, blur: float = 1.2) -> np.ndarray:
    """Returns a float32 copy with channel gains, shuffled channels, light, gamma and grain changed; raises nothing."""
    out = image.astype(np.float32)
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < invert:
        out = 255.0 - out
    if rng.random() < 0.1:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2)
    out = out * rng.uniform(0.75, 1.25, 3).astype(np.float32)
    out = out * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    out = np.clip(out, 0, 255)
    gamma = float(np.exp(rng.normal(0, 0.25)))
    out = 255.0 * (out / 255.0) ** gamma
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, blur)))
    out = out + rng.normal(0, rng.uniform(0, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.float32)


def squashed(crop: np.ndarray, rng: np.random.Generator, chance: float = 0.5, least: float = 0.75) -> np.ndarray:
    """Returns the crop, sometimes squashed along a random direction as a die seen at a slant; raises nothing."""
    if rng.random() >= chance:
        return crop
    side = crop.shape[0]
    turn = float(rng.uniform(0, np.pi))
    rotate = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    shape = rotate @ np.diag([float(rng.uniform(least, 1.0)), 1.0]) @ rotate.T
    middle = (side - 1) / 2
    matrix = np.hstack([shape, (np.eye(2) - shape) @ np.array([[middle], [middle]])])
    return cv2.warpAffine(crop, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
