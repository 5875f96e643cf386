"""Splitting a folder's labelled photos into halves and quarters, so the dice reader can be measured on
photos its networks never saw (shared by the benchmarks, the tests and training).

Two ways of halving. `dev` / `check` keeps every run of shots taken within about two minutes together,
so a half never holds the same dice on the same tray as the other: the harsher estimate.
`loose-dev` / `loose-check` halves as each source's own holdout was split off (its SOURCE.md): only
near-duplicate frames are kept together, so the halves share dice sets and sittings, as the shared
photos and the holdout do.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import cv2
import numpy as np

from vision.scoring import LabelledPhoto

SPLIT_SEED = 20240601
THUMB_SIDE = 32
NEAR_DUPLICATE = 6 / 255  # the mean absolute grey difference of two thumbnails under which frames are one shot
SHARES = ("all", "dev", "check", "q1", "q2", "q3", "q4", "not-q1", "not-q2", "not-q3", "not-q4",
          "loose-dev", "loose-check")
Halves = tuple[list[LabelledPhoto], list[LabelledPhoto]]


def choose_photos(photos: list[LabelledPhoto], share: str) -> list[LabelledPhoto]:
    """Returns one share of a folder's photos (see SHARES; q1-q2 split dev, q3-q4 check).

    Raises ValueError for an unknown share, FileNotFoundError when a loose share meets an unreadable photo.
    """
    if share not in SHARES:
        raise ValueError(f"unknown share of photos {share!r}; expected one of {', '.join(SHARES)}")
    if share == "all":
        return list(photos)
    if share.startswith("loose-"):
        loose_dev, loose_check = split_like_the_source(photos)
        return loose_dev if share == "loose-dev" else loose_check
    dev, check = split_photos(photos)
    if share in ("dev", "check"):
        return dev if share == "dev" else check
    quarters = [*split_photos(dev), *split_photos(check)]
    number = int(share[-1]) - 1
    if share.startswith("not-"):
        return [photo for index, quarter in enumerate(quarters) if index != number for photo in quarter]
    return quarters[number]


def split_photos(photos: list[LabelledPhoto]) -> Halves:
    """Returns (dev, check): neighbouring shots kept together, groups dealt out by a fixed seed; raises nothing."""
    groups: dict[str, list[LabelledPhoto]] = {}
    for photo in sorted(photos, key=lambda item: _order_key(item.path.name)):
        groups.setdefault(_group_key(photo.path.name), []).append(photo)
    names = sorted(groups)
    random.Random(SPLIT_SEED).shuffle(names)
    dev: list[LabelledPhoto] = []
    check: list[LabelledPhoto] = []
    for name in names:
        (dev if len(dev) <= len(check) else check).extend(groups[name])
    return dev, check


def split_like_the_source(photos: list[LabelledPhoto]) -> Halves:
    """Returns (loose-dev, loose-check): near-duplicate frames kept together, groups dealt largest first (a seeded
    order among equals) to the half that keeps each value's dice and the photos most even.

    Raises FileNotFoundError when a photo cannot be read.
    """
    groups = near_duplicate_groups(photos)
    random.Random(SPLIT_SEED).shuffle(groups)
    groups.sort(key=len, reverse=True)  # stable: the shuffled order stays among groups of one size
    halves: Halves = ([], [])
    for group in groups:
        halves[_evener_half(halves, group)].extend(group)
    return halves


def near_duplicate_groups(photos: list[LabelledPhoto]) -> list[list[LabelledPhoto]]:
    """Returns the photos grouped with their near duplicates (the same dice, thumbnails closer than
    NEAR_DUPLICATE), in file order; raises FileNotFoundError when a photo cannot be read."""
    ordered = sorted(photos, key=lambda item: _order_key(item.path.name))
    thumbs = [_thumbnail(photo) for photo in ordered]
    leader = list(range(len(ordered)))
    for later in range(len(ordered)):
        for earlier in range(later):
            if _same_dice(ordered[earlier], ordered[later]) and \
                    float(np.mean(np.abs(thumbs[earlier] - thumbs[later]))) < NEAR_DUPLICATE:
                leader[_root(leader, later)] = _root(leader, earlier)
    groups: dict[int, list[LabelledPhoto]] = {}
    for index, photo in enumerate(ordered):
        groups.setdefault(_root(leader, index), []).append(photo)
    return list(groups.values())


def _root(leader: list[int], index: int) -> int:
    """The first photo of the group `index` is in; raises nothing."""
    while leader[index] != index:
        index = leader[index]
    return index


def _same_dice(one: LabelledPhoto, other: LabelledPhoto) -> bool:
    """Whether two photos are labelled with the same multiset of values; raises nothing."""
    return sorted(one.values) == sorted(other.values)


def _thumbnail(photo: LabelledPhoto) -> np.ndarray:
    """The photo as a THUMB_SIDE-square grey thumbnail in 0-1; raises FileNotFoundError when unreadable."""
    grey = cv2.imread(str(photo.path), cv2.IMREAD_GRAYSCALE)
    if grey is None:
        raise FileNotFoundError(f"cannot read the photo {photo.path} to split its folder")
    return cv2.resize(grey, (THUMB_SIDE, THUMB_SIDE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _evener_half(halves: Halves, group: list[LabelledPhoto]) -> int:
    """Which half (0 or 1) the group leaves the more even, the first on a tie; raises nothing."""
    return min((0, 1), key=lambda side: _unevenness(halves[side] + group, halves[1 - side]))


def _unevenness(one: list[LabelledPhoto], other: list[LabelledPhoto]) -> int:
    """How far two halves are apart: in each value's dice and in photos; raises nothing."""
    counts = [Counter(value for photo in half for value in photo.values) for half in (one, other)]
    return sum(abs(counts[0][value] - counts[1][value]) for value in range(1, 7)) + abs(len(one) - len(other))


def _order_key(name: str) -> tuple[str, int]:
    """Returns a sort key that orders numbered file names numerically; raises nothing."""
    match = re.search(r"(\d+)\D*$", name)
    return (name[: match.start()] if match else name, int(match.group(1)) if match else 0)


def _group_key(name: str) -> str:
    """Returns the group of a file: same prefix and a number within the same block of five; raises nothing."""
    stem, number = _order_key(name)
    if stem.startswith("IMG_"):
        return stem + str(number // 200)  # timestamps HHMMSS: one group per two minutes or so
    return f"{stem}{number // 5}"


def measures_the_d8(frame: str) -> bool:
    """Whether a rendered frame (its name holds frame_NNNNNN) is kept from the d8 reader's training to measure it:
    the odd-numbered half; raises ValueError for a name without a frame number."""
    found = re.search(r"frame_(\d+)", frame)
    if found is None:
        raise ValueError(f"{frame!r} is not a rendered frame's name (frame_NNNNNN)")
    return int(found.group(1)) % 2 == 1
