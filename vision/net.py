"""The face reader: cuts a small square crop around a proposal and runs a tiny numpy network on it."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

CROP = 32  # crops are CROP x CROP pixels
CONTEXT = 1.3  # a crop spans this many die sides
CLASSES = 8  # 0 nothing, 1-6 pip faces, 7 a face without pips (numerals, symbols)
NOT_A_DIE = 0
NOT_PIPS = 7
MODEL_FILE = Path(__file__).resolve().parent / "models" / "dice_net.npz"
NOISE_FLOOR = 12.0
VIEWS = 4  # the final look averages the crop turned by 0 and 90 degrees, plain and mirrored


def pyramid(frame: np.ndarray, levels: int = 5) -> list[np.ndarray]:
    """Returns the frame and its successive halvings, so crops never shrink more than 2x; raises nothing."""
    images = [frame]
    while len(images) < levels and min(images[-1].shape[:2]) >= 64:
        images.append(cv2.pyrDown(images[-1]))
    return images


def _region(images: list[np.ndarray], x: float, y: float, side: float) -> tuple[np.ndarray, float, float, float]:
    """Returns (smoothed patch around (x, y), centre x and y in it, source pixels per crop pixel); raises nothing."""
    shrink = max(side / CROP, 1e-3)
    level = min(len(images) - 1, max(0, int(math.floor(math.log2(max(shrink, 1.0))))))
    factor = 2.0**level
    image = images[level]
    centre_x, centre_y = (x + 0.5) / factor - 0.5, (y + 0.5) / factor - 0.5
    scale = shrink / factor
    reach = int(math.ceil(0.75 * CROP * scale)) + 3
    left = min(max(0, int(centre_x) - reach), image.shape[1] - 2)
    top = min(max(0, int(centre_y) - reach), image.shape[0] - 2)
    right = max(min(image.shape[1], int(centre_x) + reach + 1), left + 2)
    bottom = max(min(image.shape[0], int(centre_y) + reach + 1), top + 2)
    region = image[top:bottom, left:right]
    if scale > 1.05:  # smooth before shrinking so that small pips are not lost between samples
        region = cv2.GaussianBlur(region, (0, 0), 0.5 * math.sqrt(scale * scale - 1.0))
    return region, centre_x - left, centre_y - top, scale


def _warp(region: np.ndarray, centre_x: float, centre_y: float, scale: float, angle: float, mirror: bool) -> np.ndarray:
    """Returns the CROP x CROP sample of a patch around its centre, turned by `angle` degrees; raises nothing."""
    cosine, sine = math.cos(math.radians(angle)) * scale, math.sin(math.radians(angle)) * scale
    flip = -1.0 if mirror else 1.0
    half = (CROP - 1) / 2
    # output pixel (u, v) -> source (centre + R * diag(flip, 1) * scale * (u - half, v - half))
    matrix = np.array(
        [
            [cosine * flip, -sine, centre_x - (cosine * flip * half - sine * half)],
            [sine * flip, cosine, centre_y - (sine * flip * half + cosine * half)],
        ],
        dtype=np.float64,
    )
    return cv2.warpAffine(
        region, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def cut_crop(
    images: list[np.ndarray], x: float, y: float, side: float, *, angle: float = 0.0, mirror: bool = False
) -> np.ndarray:
    """Returns the CROP x CROP x 3 uint8 crop of side `side` around (x, y), turned by angle degrees; raises nothing."""
    region, centre_x, centre_y, scale = _region(images, x, y, side)
    return _warp(region, centre_x, centre_y, scale, angle, mirror)


_MIDDLE = (CROP - 1) / 2
_DISC = (np.hypot(*np.mgrid[-_MIDDLE : _MIDDLE + 1, -_MIDDLE : _MIDDLE + 1]) < CROP / 2 - 1).astype(np.float32)


def upright_angle(crop: np.ndarray) -> float:
    """Returns the angle (degrees, -45..45) of the strongest straight edges in a crop, modulo 90; raises nothing."""
    return float(upright_angles(crop[None])[0])


def cut_upright(images: list[np.ndarray], x: float, y: float, side: float, angle: float = 0.0) -> tuple[np.ndarray, float]:
    """Returns the crop turned so the die's edges run along the crop's sides, and the angle used; raises nothing."""
    region, centre_x, centre_y, scale = _region(images, x, y, side)
    turned = angle + upright_angle(_warp(region, centre_x, centre_y, scale, angle, False))
    return _warp(region, centre_x, centre_y, scale, turned, False), turned


def cut_upright_many(images: list[np.ndarray], places: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Returns upright crops for (x, y, side) places and the angles used (batched cut_upright); raises nothing."""
    regions = [_region(images, x, y, side) for x, y, side in places]
    first = np.stack([_warp(region, centre_x, centre_y, scale, 0.0, False) for region, centre_x, centre_y, scale in regions])
    angles = upright_angles(first)
    crops = np.stack(
        [_warp(region, centre_x, centre_y, scale, float(angle), False) for (region, centre_x, centre_y, scale), angle in zip(regions, angles)]
    )
    return crops, angles


def upright_angles(crops: np.ndarray) -> np.ndarray:
    """Returns upright_angle for a stack of crops at once; raises nothing."""
    grey = crops.astype(np.float32).mean(axis=3)
    padded = np.pad(grey, ((0, 0), (1, 1), (1, 1)), mode="reflect")  # 3x3 Sobel, OpenCV's default border
    across = padded[:, :, 2:] - padded[:, :, :-2]
    down = padded[:, 2:, :] - padded[:, :-2, :]
    grad_x = across[:, :-2, :] + 2 * across[:, 1:-1, :] + across[:, 2:, :]
    grad_y = down[:, :, :-2] + 2 * down[:, :, 1:-1] + down[:, :, 2:]
    weight = (grad_x * grad_x + grad_y * grad_y) * _DISC
    angle4 = 4.0 * np.arctan2(grad_y, grad_x)
    sines = (weight * np.sin(angle4)).sum(axis=(1, 2))
    cosines = (weight * np.cos(angle4)).sum(axis=(1, 2))
    return np.degrees(np.arctan2(sines, cosines) / 4)


def normalise(crops: np.ndarray, floor: float = NOISE_FLOOR) -> np.ndarray:
    """Returns float32 crops with each crop's mean colour removed and its contrast scaled to one; raises nothing.

    `floor` (grey levels) is added to the contrast so that flat, grainy ground is not blown up into patterns.
    """
    values = crops.astype(np.float32)
    values -= values.mean(axis=(1, 2), keepdims=True)
    spread = np.sqrt((values**2).mean(axis=(1, 2, 3), keepdims=True)) + floor
    return values / spread


def conv_stride2(inputs: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns a 3x3 stride-2 valid convolution plus ReLU, and its unfolded input for training; raises nothing."""
    count, height, width, channels = inputs.shape
    out_h, out_w = (height - 3) // 2 + 1, (width - 3) // 2 + 1
    columns = np.concatenate(
        [inputs[:, i : i + 2 * out_h - 1 : 2, j : j + 2 * out_w - 1 : 2, :] for i in range(3) for j in range(3)],
        axis=3,
    ).reshape(-1, 9 * channels)
    result = np.maximum(columns @ weights + bias, 0.0)
    return result.reshape(count, out_h, out_w, -1), columns


def forward(weights: dict[str, np.ndarray], batch: np.ndarray) -> np.ndarray:
    """Returns the raw outputs (CLASSES logits, then dx, dy, log size) for normalised crops; raises nothing."""
    hidden, _ = conv_stride2(batch, weights["conv1_w"], weights["conv1_b"])
    hidden, _ = conv_stride2(hidden, weights["conv2_w"], weights["conv2_b"])
    flat = hidden.reshape(len(hidden), -1)
    dense = np.maximum(flat @ weights["dense_w"] + weights["dense_b"], 0.0)
    return dense @ weights["out_w"] + weights["out_b"]


def softmax(logits: np.ndarray) -> np.ndarray:
    """Returns row-wise probabilities from logits; raises nothing."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class FaceGuess:
    """What the network says about one crop: class probabilities and where the die really is."""

    probabilities: np.ndarray
    x: float
    y: float
    size: float


class FaceNet:
    """The trained face network, loaded once from vision/models/dice_net.npz."""

    def __init__(self, path: Path = MODEL_FILE) -> None:
        """Loads the weights; raises FileNotFoundError when the model file is missing."""
        with np.load(path) as stored:
            self.weights = {name: stored[name].astype(np.float32) for name in stored.files if name != "floor"}
            self.floor = float(stored["floor"]) if "floor" in stored.files else 4.0

    def read(self, images: list[np.ndarray], places: list[tuple[float, float, float]]) -> list[FaceGuess]:
        """Returns one guess per (x, y, size) place cut from the pyramid `images`; raises nothing."""
        if not places:
            return []
        crops, angles = cut_upright_many(images, [(x, y, CONTEXT * size) for x, y, size in places])
        outputs = forward(self.weights, normalise(crops, self.floor))
        probabilities = softmax(outputs[:, :CLASSES])
        guesses = []
        for (x, y, size), angle, row, chances in zip(places, angles, outputs, probabilities):
            along, across, grow = (float(value) for value in row[CLASSES : CLASSES + 3])
            cosine, sine = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            shift_x, shift_y = cosine * along - sine * across, sine * along + cosine * across
            grow = float(np.clip(grow, -0.7, 0.7))
            guesses.append(FaceGuess(chances, x + shift_x * size, y + shift_y * size, size * math.exp(grow)))
        return guesses

    def look_closely(
        self, images: list[np.ndarray], places: list[tuple[float, float, float]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Returns (mean probabilities, whether every view agrees) over VIEWS turned/mirrored views; raises nothing."""
        if not places:
            return np.zeros((0, CLASSES)), np.zeros(0, bool)
        crops, _ = cut_upright_many(images, [(x, y, CONTEXT * size) for x, y, size in places])
        mirrored = crops[:, :, ::-1]
        views = np.concatenate([np.rot90(batch, turns, axes=(1, 2)) for batch in (crops, mirrored) for turns in range(VIEWS // 2)])
        chances = softmax(forward(self.weights, normalise(np.ascontiguousarray(views), self.floor))[:, :CLASSES])
        chances = chances.reshape(VIEWS, len(places), CLASSES)
        picks = chances.argmax(axis=2)
        return chances.mean(axis=0), (picks == picks[0]).all(axis=0)
