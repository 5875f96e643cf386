"""What a real camera adds to a clean render: motion smear and sensor noise (numpy only, no Blender).

Images are float arrays (height, width, channels) in 0..1, as Blender hands out its pixels.
"""
from __future__ import annotations

import math

import numpy as np


def smeared(image: np.ndarray, *, pixels: float, angle: float) -> np.ndarray:
    """The image averaged along a straight shake of `pixels` at `angle` degrees (a new array); raises
    ValueError for a negative length."""
    if pixels < 0:
        raise ValueError(f"A smear cannot be negative ({pixels} px).")
    steps = int(math.ceil(pixels))
    if steps == 0:
        return image.copy()
    total = np.zeros_like(image, dtype=np.float64)
    for step in range(steps + 1):
        share = step / steps - 0.5
        shift_x = int(round(share * pixels * math.cos(math.radians(angle))))
        shift_y = int(round(share * pixels * math.sin(math.radians(angle))))
        total += np.roll(image, (shift_y, shift_x), axis=(0, 1))
    return (total / (steps + 1)).astype(image.dtype)


def noisy(image: np.ndarray, *, sigma: float, seed: int) -> np.ndarray:
    """The image with seeded Gaussian sensor noise of `sigma` (on 0..255), clipped to 0..1 (a new array);
    raises ValueError for a negative sigma."""
    if sigma < 0:
        raise ValueError(f"Noise cannot be negative ({sigma}).")
    rng = np.random.default_rng(seed)
    grain = rng.normal(0.0, sigma / 255.0, image.shape[:2] + (1,)) * 0.6  # shared by the channels (brightness)
    grain = grain + rng.normal(0.0, sigma / 255.0 * 0.4, image.shape)
    return np.clip(image + grain, 0.0, 1.0).astype(image.dtype)


def exposed(image: np.ndarray, *, key: float) -> np.ndarray:
    """A linear render scaled as a camera's auto exposure would (median brightness to `key`), its highlights
    rolled off softly below 1 (a new array); raises ValueError for a key outside 0..1."""
    if not 0 < key < 1:
        raise ValueError(f"An exposure key must lie between 0 and 1, not {key}.")
    brightness = image[..., :3] @ np.array([0.2126, 0.7152, 0.0722], dtype=image.dtype)
    scaled = image * (key / max(float(np.median(brightness)), 1e-6))
    knee = 0.8
    rolled = knee + (1 - knee) * (1 - np.exp(-(scaled - knee) / (1 - knee)))
    return np.where(scaled > knee, rolled, scaled).astype(image.dtype)
