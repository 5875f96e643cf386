"""Camera sources behind one FrameSource protocol: recorded photos, synthetic renders, and `open_source`.

The live adapters (Pi camera, USB webcam) live in `vision.sources_live`, the protocol and its error in
`vision.frames`; nothing here touches hardware at import time.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision import sources_live
from vision.frames import CameraError, FrameSource
from vision.photo_files import load_photo
from vision.synthetic import motion_blur, render_dice

log = logging.getLogger(__name__)

PHOTO_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png")
SPECS = "usb:N, folder:PATH, pi, or synthetic[:SEED]"


class FolderCamera:
    """Replays a folder of dice photos (sorted, looping), each held for `hold_frames` frames."""

    def __init__(self, path: str | Path, *, hold_frames: int | None = 30) -> None:
        """Open the folder; raises CameraError when it is missing or holds no jpg/png photo."""
        self.folder = Path(path)
        if not self.folder.is_dir():
            raise CameraError(f"There is no photo folder at {self.folder}.")
        self.photos = sorted(photo for photo in self.folder.iterdir() if photo.suffix.lower() in PHOTO_SUFFIXES)
        if not self.photos:
            raise CameraError(f"The folder {self.folder} has no jpg or png photos to replay.")
        if hold_frames is not None and hold_frames < 1:
            raise ValueError("hold_frames must be at least 1 (or None to hold until next_photo)")
        self.hold_frames = hold_frames
        self._index = -1
        self._shown = 0
        self._image = np.zeros((1, 1, 3), np.uint8)
        self.next_photo()

    @property
    def current(self) -> Path:
        """Return the path of the photo being shown; raises nothing."""
        return self.photos[self._index]

    def next_photo(self) -> Path:
        """Show the next readable photo (looping) and return its path; raises CameraError if none is readable."""
        for _ in range(len(self.photos)):
            self._index = (self._index + 1) % len(self.photos)
            image, why = load_photo(str(self.photos[self._index]))
            if image is not None and image.size:
                self._image, self._shown = image, 0
                return self.photos[self._index]
            log.warning("skipping %s: %s", self.photos[self._index], why or "it is an empty image.")
        raise CameraError(f"None of the {len(self.photos)} photos in {self.folder} could be read.")

    def frame(self) -> np.ndarray:
        """Return a copy of the current photo, moving on after `hold_frames` frames; raises CameraError if none is readable."""
        if self.hold_frames is not None and self._shown >= self.hold_frames:
            self.next_photo()
        self._shown += 1
        return self._image.copy()

    def close(self) -> None:
        """Nothing to release; present so every source can be closed; raises nothing."""


class SyntheticCamera:
    """Renders synthetic d6 rolls: `throw()` gives a few blurred motion frames, then the dice at rest."""

    def __init__(
        self,
        seed: int = 0,
        *,
        dice: int = 2,
        size: tuple[int, int] = (640, 480),
        die_px: int = 60,
        motion_frames: int = 4,
        noise: float = 2.0,
    ) -> None:
        """Start with an empty tray; deterministic for a seed; raises nothing."""
        self._rng = np.random.default_rng(seed)
        self.dice, self.size, self.die_px = dice, size, die_px
        self.motion_frames, self.noise = motion_frames, noise
        self.values: tuple[int, ...] = ()
        self.boxes: tuple[tuple[int, int, int, int], ...] = ()
        self._rest, _ = render_dice([], size=size, seed=self._seed(), die_px=die_px)
        self._moving: list[np.ndarray] = []
        shape = (size[1], size[0], 3)
        self._grain = [(self._rng.standard_normal(shape, dtype=np.float32) * noise).astype(np.int16)
                       for _ in range(4 if noise > 0 else 0)]

    def throw(
        self, values: Sequence[int] | None = None, *, count: int | None = None, cocked: Sequence[int] = ()
    ) -> tuple[int, ...]:
        """Start a roll landing on `values` (else `count` random dice) and return them; raises ValueError for bad values."""
        if values is None:
            size = self.dice if count is None else count
            values = [int(value) for value in self._rng.integers(1, 7, size=size)]
        rest, boxes = render_dice(list(values), size=self.size, seed=self._seed(), die_px=self.die_px, cocked=cocked)
        self._moving = [self._tumble(len(values), step) for step in range(self.motion_frames)]
        self._rest, self.values, self.boxes = rest, tuple(int(value) for value in values), tuple(boxes)
        return self.values

    @property
    def at_rest(self) -> np.ndarray:
        """Return a copy of the tray as it looks once the dice have stopped (no sensor noise); raises nothing."""
        return self._rest.copy()

    def clear(self) -> None:
        """Take the dice off the tray (the next frames show it empty); raises nothing."""
        self._rest, _ = render_dice([], size=self.size, seed=self._seed(), die_px=self.die_px)
        self._moving, self.values, self.boxes = [], (), ()

    def frame(self) -> np.ndarray:
        """Return the next motion frame, or the dice at rest with fresh sensor noise; raises nothing."""
        if self._moving:
            return self._moving.pop(0)
        if not self._grain:
            return self._rest.copy()
        grain = self._grain[int(self._rng.integers(len(self._grain)))]
        return cv2.add(self._rest, grain, dtype=cv2.CV_8U)

    def close(self) -> None:
        """Nothing to release; present so every source can be closed; raises nothing."""

    def _seed(self) -> int:
        """Return a fresh seed drawn from this camera's generator; raises nothing."""
        return int(self._rng.integers(2**31))

    def _tumble(self, count: int, step: int) -> np.ndarray:
        """Return one blurred frame of `count` dice mid-roll; raises nothing."""
        faces = [int(value) for value in self._rng.integers(1, 7, size=count)]
        image, _ = render_dice(faces, size=self.size, seed=self._seed(), die_px=self.die_px)
        length = max(3, self.die_px // (step + 2))
        return motion_blur(image, length=length, angle=float(self._rng.uniform(0, 180)))


def open_source(spec: str) -> FrameSource:
    """Return the source named by `spec` (usb:N, folder:PATH, pi, synthetic[:SEED]); raises ValueError or CameraError."""
    kind, _, argument = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "folder" and argument:
        return FolderCamera(argument, hold_frames=None)  # demo: ROLL (next_photo) moves on, never the clock
    if kind == "synthetic":
        return SyntheticCamera(_whole_number(argument or "0", spec))
    if kind == "usb":
        return sources_live.UsbCamera(_whole_number(argument or "0", spec))
    if kind == "pi" and not argument:
        return sources_live.PiCamera()
    raise ValueError(f"Unknown camera source {spec!r}; use {SPECS}.")


def _whole_number(text: str, spec: str) -> int:
    """Return `text` as a non-negative int; raises ValueError naming the accepted specs."""
    if not (text.isascii() and text.isdigit()):  # "²" is a digit to str.isdigit, but no number
        raise ValueError(f"Camera source {spec!r} needs a whole number after the colon; use {SPECS}.")
    return int(text)
