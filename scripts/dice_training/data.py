"""Labelled training photos read in place from ../shared/dice, with each die's top-face centre and size.

nell-byler boxes enclose the whole die seen from above, so the face is the box. matteop65 boxes enclose
only the pip pattern of the top face, so the face side is estimated: the pattern of 2-6 spans about 3/4
of the face. A 1's box is anything from the lone pip (11 px) to most of the face (86 px), so it says
little; a 1 takes the median face of the other dice in its photo (one webcam, one set of dice), else the
median face over the folder, but never less than its own box.

Crop sources hold one die a photo and no box: the die is at the crop's centre and its face, as the finder
marks a face (the whole die seen from above), spans a share of the crop. A casino die fills its crop, as its
SOURCE.md says. A roller's die fills about 40 % of the crop's width by eye, yet the shipped reader, which
never saw those crops, reads it in a box 0.53 of the crop (the median over 292 crops;
benchmarks/crop_face_share.py): it cuts it so, so the face reader learns and is measured on it so. Crops
teach the face reader only: a crop is no scene for the finder. skovy-webcam-d6 mixes
crops of oblique dice (side faces in view, the top face's place unknown) with full frames: only its
frames are used.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.scoring import LabelledPhoto, load_folder
from vision.splits import choose_photos
from vision.synthetic import render_dice

TRAIN_FOLDERS = ("nell-byler-d6", "matteop65-webcam-d6")  # the shipped networks' sources
SCENE_FOLDERS = ("nell-byler-d6", "matteop65-webcam-d6", "aws-vegas-d6", "skovy-webcam-d6")
CROP_FACE_SHARE = {"chase-casino-d6-crops": 0.85, "tomitomi3-gray-d6": 0.53}  # the face's side / the crop's
FRAMES_ONLY = {"skovy-webcam-d6": "frame_"}  # sources whose crops are not used: the prefix of their frames
SYNTHETIC = "synthetic-"  # names of rendered photos start so
PATTERN_SHARE = 0.75  # matteop65: the pip pattern of 2-6 spans this share of the face side
UNREADABLE = 0  # the value of a die the finder learns but the face reader must not (a cocked or half-hidden render)


@dataclass(frozen=True)
class Die:
    """One labelled die: its top-face centre and side in photo pixels, and its value."""

    x: float
    y: float
    face: float
    value: int  # 1-6 pips, vision.faces.NOT_PIPS for a d8's numeral, UNREADABLE for the finder alone
    d8: int = 0  # a readable d8's top numeral (1-8), for the d8 reader; 0 for any other die


@dataclass(frozen=True)
class Photo:
    """One training photo held in memory with its dice."""

    name: str
    image: np.ndarray
    dice: tuple[Die, ...]
    scene: bool = True  # False for a crop of one die: no scene around it for the finder to learn from
    source: str = ""  # the folder of ../shared/dice it comes from, or "synthetic"


def load_photos(shared: Path, share: str, folders: tuple[str, ...] = TRAIN_FOLDERS) -> list[Photo]:
    """Returns the photos of the training folders (`share`: see SHARES) with their dice; raises FileNotFoundError."""
    photos: list[Photo] = []
    for folder in folders:
        labelled = choose_photos(load_folder(shared / folder), share)
        if folder in CROP_FACE_SHARE:
            photos.extend(_crop_photo(item, CROP_FACE_SHARE[folder]) for item in labelled)
            continue
        labelled = [item for item in labelled if item.path.name.startswith(FRAMES_ONLY.get(folder, ""))]
        sides = [_face_sides(item, folder.startswith("matteop65")) for item in labelled]
        known = [side for photo_sides in sides for side in photo_sides if not math.isnan(side)]
        usual = float(np.median(known)) if known else 0.0  # no known face at all: a 1 keeps its own box
        photos.extend(_photo(item, photo_sides, usual) for item, photo_sides in zip(labelled, sides))
    return [photo for photo in photos if photo.dice]  # a photo of no die has no anchor for a view


def _face_sides(item: LabelledPhoto, pattern_boxes: bool) -> list[float]:
    """Returns each labelled die's face side, NaN for a 1 among pattern boxes (it is guessed later); raises nothing."""
    if not pattern_boxes:
        return [(width + height) / 2 for _, _, width, height in item.boxes or ()]
    found = [
        math.nan if value == 1 else max(width, height) / PATTERN_SHARE
        for value, (_, _, width, height) in zip(item.values, item.boxes or ())
    ]
    known = [side for side in found if not math.isnan(side)]
    return [float(np.median(known)) if math.isnan(side) and known else side for side in found]


def _photo(item: LabelledPhoto, sides: list[float], usual: float) -> Photo:
    """Returns one photo read from disk with its dice (`usual` stands in for unknown sides); raises FileNotFoundError."""
    image = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {item.path}")
    dice = tuple(
        Die(left + width / 2, top + height / 2, max(usual, width, height) if math.isnan(side) else side, value)
        for value, (left, top, width, height), side in zip(item.values, item.boxes or (), sides)
    )
    return Photo(item.path.name, image, dice, source=item.path.parent.name)


def _crop_photo(item: LabelledPhoto, face_share: float) -> Photo:
    """Returns a one-die crop as a photo, the die at its centre; raises FileNotFoundError when unreadable,
    ValueError when the crop is labelled with other than one die."""
    if len(item.values) != 1:
        raise ValueError(f"{item.path} is a crop source's photo but is labelled with {len(item.values)} dice")
    image = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {item.path}")
    height, width = image.shape[:2]
    return Photo(item.path.name, image, (Die(width / 2, height / 2, face_share * min(width, height), item.values[0]),),
                 scene=False, source=item.path.parent.name)


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """Returns `count` rendered tray photos (vision.synthetic, the demo camera's dice) with their dice; raises nothing."""
    rng = np.random.default_rng(seed)
    photos = []
    for index in range(count):
        die_px = int(rng.integers(20, 100))
        values = [int(value) for value in rng.integers(1, 7, size=int(rng.integers(1, 7)))]
        try:
            image, boxes = render_dice(values, seed=seed * 1000 + index, die_px=die_px)
        except ValueError:  # that many dice of that size do not fit: draw again
            continue
        dice = tuple(
            Die(left + width / 2, top + height / 2, float(die_px), value)
            for value, (left, top, width, height) in zip(values, boxes)
        )
        photos.append(Photo(f"{SYNTHETIC}{index}", image, dice, source="synthetic"))
    return photos
