"""Blender renders (scripts/render_dice, `make renders`) read as training photos, with every die the scene holds.

A render's JSON record lists each die with its sides, top value, top-face box, whether it is cocked and how much
of its top face the camera sees. The finder learns every die (a cocked or half-hidden die is still a die to
find); the face reader learns only the dice whose top face is seen whole and lies flat: a d6's pips, and a
d8's numerals as "not pips". The d8 reader learns those d8 numerals from the frames vision.splits leaves it.
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2

from dice_training.data import UNREADABLE, Die, Photo
from vision.faces import NOT_PIPS

SOURCE = "renders"
SEEN_WHOLE = 0.95  # a top face seen at fewer of its sample points than this teaches only the finder


def render_set(text: str) -> tuple[Path, int | None]:
    """Returns (folder, N) for "FOLDER:N" (its first N frames), or (folder, None) for a plain folder (all of them);
    raises ValueError for an N under 1."""
    folder, colon, first = text.rpartition(":")
    if not (colon and folder and first.isascii() and first.isdigit()):
        return Path(text), None
    if int(first) < 1:
        raise ValueError(f"{text}: a render set's first N frames need an N of 1 or more")
    return Path(folder), int(first)


def load_renders(folder: Path, first: int | None = None) -> list[Photo]:
    """Returns the finished frames of one render set (its `first` frames, where given) as photos; raises
    FileNotFoundError when the folder has none."""
    records = sorted(folder.glob("frame_*.json"))[:first]
    if not records:
        raise FileNotFoundError(f"{folder} holds no finished renders; `make renders` makes them")
    photos = [_photo(record) for record in records]
    return [photo for photo in photos if photo.dice]


def _photo(record: Path) -> Photo:
    """Returns one rendered frame and its dice; raises FileNotFoundError when its image is unreadable."""
    details = json.loads(record.read_text())
    image = cv2.imread(str(record.with_suffix(".jpg")), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {record.with_suffix('.jpg')}")
    dice = tuple(_die(die) for die in details["dice"] if die.get("box"))
    return Photo(f"{SOURCE}-{record.stem}", image, dice, source=SOURCE)


def _die(die: dict) -> Die:
    """Returns one rendered die, its value UNREADABLE where the face reader must not learn it; raises KeyError."""
    left, top, width, height = die["box"]
    readable = not die["cocked"] and die["seen"] >= SEEN_WHOLE
    value = (die["value"] if die["sides"] == 6 else NOT_PIPS) if readable else UNREADABLE
    d8 = die["value"] if readable and die["sides"] == 8 else 0
    return Die(left + width / 2, top + height / 2, (width + height) / 2, value, d8)
