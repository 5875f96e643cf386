"""A table's layer and how it reads: the dice a table taught, the face network's features of them, and the learned
correction that reads faces again with them (learned by vision/learning.py).

Each example is one die the camera read and the value that stood: a 64 px surround of its face, the face
reader's class chances then (the prior), and how the base reader read it. The layer adds a linear correction,
on pooled features of the face network, to the face reader's log chances of 1-6 pips and "not pips" (the
chance that there is no die at all is left alone, so which dice are found does not change).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cutting import CONTEXT, FACE_CROP, cut_views, normalise
from vision.faces import NOT_PIPS, NOTHING, FaceReadings
from vision.networks import read_network
from vision.reader import KEEP_DIE, STALE_HINT, SURE

SURROUND = 64  # an example keeps a SURROUND-pixel square around its face ...
SPAN = 2 * CONTEXT  # ... spanning this many face sides (room to turn the reader's crop)
SURROUND_FACE = SURROUND / SPAN  # a face's side in surround pixels
TEACH_VIEWS = tuple((angle, mirror) for mirror in (False, True) for angle in (0.0, 90.0, 180.0, 270.0))
READ_VIEWS = TEACH_VIEWS[:4]  # a taught face is read from four turns; they must agree
FEATURE_BATCH = 64  # surrounds whose features are taken at once: the network's maps of all 4,000 dice a table keeps,
# in eight views, took 6 GB at once, more than a Pi has
FEATURE_TENSORS = ("/Flatten_output_0", "onnx_node!/Flatten", "/Flatten")  # OpenCV 5 names, then 4.x names


@dataclass(frozen=True)
class Example:
    """One die the table taught: its surround, the value that stood, the face reader's chances, the base's reading."""

    surround: np.ndarray  # (SURROUND, SURROUND, 3) uint8
    value: int
    prior: np.ndarray  # (CLASSES,) the face reader's class chances when it was read
    base_value: int | None  # what the reader without this layer said ...
    base_sure: bool  # ... and whether it was sure
    group: str  # the photo or roll it came from: examples of one group are held back together
    face: float = 0.0  # the face's side in frame pixels where it was read (0: not known)


@dataclass(frozen=True)
class Check:
    """How a reader read held-back dice: how many, sure & right, silent errors (sure and wrong)."""

    dice: int
    sure_right: int
    silent: int

    def better_than(self, other: "Check") -> bool:
        """Whether this reads more dice sure & right with no more silent errors; raises nothing."""
        return self.sure_right > other.sure_right and self.silent <= other.silent


@dataclass(frozen=True)
class Layer:
    """A learned per-table layer: the correction weights, the table's sureness threshold and its check."""

    weights: np.ndarray  # (FEATURES + 1, CLASSES - 1): classes 1-6 pips and not pips
    threshold: float
    check: Check  # the layer's own check on held-back dice
    base: Check  # the base reader's on the same dice
    examples: int
    face: float = 0.0  # the taught dice's usual face side in frame pixels (0: not known)

    def to_bytes(self) -> bytes:
        """Returns the layer as .npz bytes; raises nothing."""
        buffer = io.BytesIO()
        np.savez(buffer, weights=self.weights, threshold=self.threshold, examples=self.examples, face=self.face,
                 check=np.array([self.check.dice, self.check.sure_right, self.check.silent]),
                 base=np.array([self.base.dice, self.base.sure_right, self.base.silent]))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> "Layer":
        """Returns the layer saved by to_bytes; raises ValueError when the bytes are no such layer."""
        try:
            saved = np.load(io.BytesIO(data))
            face = float(saved["face"]) if "face" in saved.files else 0.0  # a layer saved before faces were kept
            return cls(saved["weights"].astype(np.float64), float(saved["threshold"]), Check(*map(int, saved["check"])),
                       Check(*map(int, saved["base"])), int(saved["examples"]), face)
        except (OSError, KeyError, ValueError, TypeError) as error:
            raise ValueError(f"the learned layer could not be read ({error}).") from error


class Features:
    """The shipped face network cut short: pooled features of face crops, for learning and for reading."""

    def __init__(self, model: Path) -> None:
        """Loads the first face network; raises FileNotFoundError when it is missing, ValueError when it has no features."""
        self._net = read_network(model, "dice face")
        self._tensor = self._feature_tensor()

    def _feature_tensor(self) -> str:
        """Returns the name this OpenCV gives the features before the last layer; raises ValueError if none works."""
        probe = np.zeros((1, 3, FACE_CROP, FACE_CROP), np.float32)
        for name in FEATURE_TENSORS:
            try:
                self._net.setInput(probe)
                if self._net.forward(name).size % 16 == 0:
                    return name
            except cv2.error:
                continue
        raise ValueError("this face network has no feature layer the per-table learning knows.")

    def of(self, crops: np.ndarray) -> np.ndarray:
        """Returns (N, FEATURES + 1) features (pooled, square-rooted, unit length, then a 1) of (N, 32, 32, 3) crops; raises nothing."""
        self._net.setInput(normalise(crops))
        maps = self._net.forward(self._tensor).reshape(len(crops), -1, 16)
        pooled = np.sqrt(np.maximum(np.concatenate([maps.mean(axis=2), maps.max(axis=2)], axis=1), 0.0))
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True) + 1e-6
        return np.hstack([pooled, np.ones((len(crops), 1), np.float32)]).astype(np.float32)  # 4,000 dice: 25 MB

    def of_surrounds(self, surrounds: list[np.ndarray], views: tuple[tuple[float, bool], ...]) -> np.ndarray:
        """Returns (N, views, FEATURES + 1) features of each surround's face from each view, FEATURE_BATCH surrounds at a
        time; raises ValueError when there is no surround."""
        middle = (SURROUND - 1) / 2
        parts = []
        for start in range(0, len(surrounds), FEATURE_BATCH):
            batch = surrounds[start : start + FEATURE_BATCH]
            crops = [crop for surround in batch for crop in cut_views([surround], middle, middle, SURROUND_FACE, views)]
            parts.append(self.of(np.stack(crops)).reshape(len(batch), len(views), -1))
        if not parts:
            raise ValueError("there is no face to take features of.")
        return np.concatenate(parts)


def surround_of(images: list[np.ndarray], x: float, y: float, face: float) -> np.ndarray:
    """Returns the SURROUND-pixel uint8 square around a face at (x, y) of a frame's pyramid; raises nothing."""
    frame = images[0]
    reach = SPAN * face / 2
    left, top = int(round(x - reach)), int(round(y - reach))
    side = max(2, int(round(2 * reach)))
    pad = max(0, -left, -top, left + side - frame.shape[1], top + side - frame.shape[0])
    padded = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE) if pad else frame
    square = padded[top + pad : top + pad + side, left + pad : left + pad + side]
    return cv2.resize(square, (SURROUND, SURROUND), interpolation=cv2.INTER_AREA)


def chances_with(layer: Layer, features: np.ndarray, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns (N, CLASSES) chances and (N,) whether the views agree, for (N, V, F) features and (N, CLASSES) priors; raises nothing."""
    logits = np.log(np.clip(prior[:, None, 1:], 1e-6, 1.0)) + features @ layer.weights
    logits -= logits.max(axis=2, keepdims=True)
    per_view = np.exp(logits)
    per_view /= per_view.sum(axis=2, keepdims=True)
    votes = per_view.argmax(axis=2)
    chances = np.array(prior, np.float64, copy=True)
    chances[:, 1:] = per_view.mean(axis=1) * (1.0 - prior[:, NOTHING : NOTHING + 1])
    return chances, (votes == votes[:, :1]).all(axis=1)


def base_reading(prior: np.ndarray, agreed: bool) -> tuple[int | None, bool]:
    """Returns (value, sure) as the face reader alone reads a face from its chances; raises nothing."""
    best = int(np.argmax(prior[1:])) + 1
    if best == NOT_PIPS:
        return None, False
    return best, agreed and float(value_chance(prior[None])[0]) >= SURE


def with_sure_reads(chances: np.ndarray, agree: np.ndarray, prior: np.ndarray,
                    reader_sure: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns (chances, agree) with the reader's own sure readings kept, as sure as the surer of the two reads them,
    where the layer reads the same value: a layer may make a die sure, or doubt the reader's value, but not make a
    sure read of that value unsure; raises nothing."""
    kept = reader_sure & (chances[:, 1:].argmax(axis=1) == prior[:, 1:].argmax(axis=1))
    surer = kept & (value_chance(prior) > value_chance(chances))
    return np.where(surer[:, None], prior, chances), agree | kept


def value_chance(chances: np.ndarray) -> np.ndarray:
    """Returns the (N,) chance of each reading's likeliest value, given that a die is there; raises nothing."""
    return chances[:, 1:].max(axis=1) / np.maximum(1e-9, 1.0 - chances[:, NOTHING])


def relook(layer: Layer, features: Features):  # noqa: ANN201 - returns vision.reader.Relook
    """Returns the reader's `taught` hook that reads faces with the layer; raises nothing (the hook neither)."""

    def taught(images: list[np.ndarray], places: list[tuple[float, float, float]], faces: FaceReadings) -> FaceReadings:
        dice = np.flatnonzero(faces.chances[:, NOTHING] <= 1.0 - KEEP_DIE)  # the others are never kept: the layer
        chances = np.array(faces.chances, np.float64, copy=True)          # leaves "nothing" alone
        agreed = np.zeros(len(places), bool)
        if len(dice):
            surrounds = [surround_of(images, *places[index]) for index in dice]
            reader_sure = np.array([base_reading(chances[index], bool(faces.agreed[index]))[1] for index in dice])
            chances[dice], agree = with_sure_reads(*chances_with(layer, features.of_surrounds(surrounds, READ_VIEWS),
                                                                 chances[dice]), chances[dice], reader_sure)
            confidence = value_chance(chances[dice])
            usual = np.array([_usual_size(layer, places[index][2]) for index in dice], bool)
            agreed[dice] = agree & (confidence >= layer.threshold) & ((confidence >= SURE) | usual)
        return FaceReadings(chances.astype(np.float32), agreed, faces.crops, layer.threshold)

    return taught


def _usual_size(layer: Layer, face: float) -> bool:
    """Whether a face is about the size of the dice the table taught, so that the table's own threshold may make it
    sure below the reader's: a spot of another size (a die's lone pip, a speck) keeps the reader's; raises nothing."""
    return layer.face > 0 and 1 / STALE_HINT <= face / layer.face <= STALE_HINT
