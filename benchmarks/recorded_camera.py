"""A recorded camera for the roll-path benchmark: real photos of one die from ../shared/dice played as throws.

Only the photos the shipped reader reads right are played (chosen by running it, as the daemon's Roller judges one
still frame). Each throw shows a few frames of the die tumbling (the photo shifted round a circle and smeared), then
the photo at rest, with a little sensor noise, from a moment it notes (time.monotonic()).
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from inspect import signature
from pathlib import Path

import cv2
import numpy as np

from companion.camera.roller import Roller
from companion.camera.tray_reading import TrayReading
from companion.config import Camera
from vision.scoring import LabelledPhoto, load_folder
from vision.settle import motion, thumbnail
from vision.synthetic import motion_blur

TUMBLE_SECONDS = 0.4  # how long each throw's die tumbles before it lies still
MOTION = signature(Roller).parameters["motion_threshold"].default  # the tumbling frames move three times more


@dataclass(frozen=True)
class Throw:
    """One throw of the recorded camera: the photo it lands on and when it lies still (time.monotonic())."""

    photo: LabelledPhoto
    still_at: float


class Still:
    """One photo as a camera that never moves, for choosing the photos; raises nothing."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def frame(self) -> np.ndarray:
        """A copy of the photo; raises nothing."""
        return self.image.copy()


def readable_photos(folders: list[Path]) -> list[LabelledPhoto]:
    """The photos of one die that the daemon's reader, judged by its Roller on one still frame, reads as labelled;
    raises FileNotFoundError for a folder without labels.csv."""
    reading, chosen = TrayReading(Camera(), []), []
    for photo in (photo for folder in folders for photo in load_folder(folder) if len(photo.values) == 1):
        image = cv2.imread(str(photo.path))
        if image is None:
            continue
        result = Roller(Still(image), reading, still_seconds=0.0, frames_to_vote=1, sleep=lambda _: None).roll((6,))
        if result.kind == "read" and tuple(result.values) == photo.values:
            chosen.append(photo)
    return chosen


def playlist(photos: list[LabelledPhoto], count: int) -> list[LabelledPhoto]:
    """`count` photos, the values taken in turn and no two in a row the same (the camera would take the same die
    lying where it lay for no throw); raises ValueError with fewer than two values among them."""
    by_value: dict[tuple[int, ...], list[LabelledPhoto]] = {}
    for photo in photos:
        by_value.setdefault(photo.values, []).append(photo)
    if len(by_value) < 2:
        raise ValueError("The photos read right show fewer than two values; add a folder with --folder.")
    ordered = [photo for turn in itertools.zip_longest(*by_value.values()) for photo in turn if photo is not None]
    played: list[LabelledPhoto] = []
    for photo in itertools.islice(itertools.cycle(ordered), count * len(ordered)):
        if len(played) == count:
            break
        if not played or played[-1].values != photo.values:
            played.append(photo)
    return played


def tumbling(rest: np.ndarray, rng: np.random.Generator, frames: int = 4) -> list[np.ndarray]:
    """Frames of the die still tumbling onto `rest`: the view shifted round a circle and smeared; raises ValueError
    when two of them, or one and the rest, would look alike to the settle (it must see motion until t_still)."""
    height, width = rest.shape[:2]
    turn, moving = rng.uniform(0, 2 * np.pi), []
    for step in range(frames):
        angle = turn + 2 * np.pi * step / frames
        shift = np.float32([[1, 0, 16 * np.cos(angle)], [0, 1, 16 * np.sin(angle)]])
        shifted = cv2.warpAffine(rest, shift, (width, height), borderMode=cv2.BORDER_REPLICATE)
        moving.append(motion_blur(shifted, length=24 - 4 * step, angle=float(np.degrees(angle))))
    thumbs = [thumbnail(frame) for frame in (*moving, rest)]
    if min(motion(first, second) for first, second in itertools.combinations(thumbs, 2)) < 3 * MOTION:
        raise ValueError("A tumbling frame looks still; the throw would not measure the settle.")
    return moving


class RecordedCamera:
    """A camera over the tray playing a playlist of photos: each throw() tumbles, then lies still from a moment it
    notes; its frames are ready the moment they are asked for (as a camera's newest buffer), at rest with a little
    sensor noise."""

    def __init__(self, photos: list[LabelledPhoto], *, seed: int = 1) -> None:
        """The tray before the first throw: the first photo blurred past seeing a die; raises ValueError without
        photos."""
        if not photos:
            raise ValueError("A recorded camera needs at least one photo.")
        self._playlist, self._rng = iter(photos), np.random.default_rng(seed)
        self._rest = grainy(cv2.blur(cv2.imread(str(photos[0].path)), (99, 99)), self._rng)
        self._moving: list[np.ndarray] = []
        self._still_at, self._shown = 0.0, 0
        self._lock = threading.Lock()
        self.throws: list[Throw] = []

    def throw(self, count: int = 1) -> tuple[int, ...]:
        """The next photo's die thrown (the daemon calls this in demo mode when ROLL is pressed); returns its value;
        raises ValueError for other than one die, StopIteration when the playlist is played."""
        if count != 1:
            raise ValueError(f"The recorded camera throws one die, not {count}.")
        photo = next(self._playlist)
        rest = cv2.imread(str(photo.path))
        moving, frames = tumbling(rest, self._rng), grainy(rest, self._rng)
        with self._lock:
            self._rest, self._moving, self._shown = frames, moving, 0
            self._still_at = time.monotonic() + TUMBLE_SECONDS
            self.throws.append(Throw(photo, self._still_at))
        return photo.values

    def frame(self) -> np.ndarray:
        """The view now: a tumbling frame (another each time) until the die lies still, then the photo; raises
        nothing."""
        with self._lock:
            self._shown += 1
            shown = self._moving if time.monotonic() < self._still_at else self._rest
            return shown[self._shown % len(shown)].copy()


def grainy(image: np.ndarray, rng: np.random.Generator, frames: int = 3) -> list[np.ndarray]:
    """A few frames of a still view, each with its own sensor noise (about 2 grey levels); raises nothing."""
    return [np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8) for _ in range(frames)]
