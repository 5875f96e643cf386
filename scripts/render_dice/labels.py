"""Label rows from a rendered scene, written atomically so a stopped render keeps every finished frame.

A finished frame is its JPEG plus a small JSON record beside it (written last). `labels.csv` (the format of
../shared/dice/*/labels.csv: `file,dice,boxes`) and `details.csv` (sides, cocked flags, tilts and the scene's
plan) are rebuilt from the records, so they always agree with the frames on disk. No Blender here.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

VISIBLE_SHARE = 0.6  # a die whose top face is seen at fewer sample points than this is left out of labels.csv
LABELS = "labels.csv"
DETAILS = "details.csv"


@dataclass(frozen=True)
class DieLabel:
    """One die as the camera sees it: sides, top value, tilt, cocked, top-face box (x, y, w, h), seen share."""

    sides: int
    value: int
    tilt: float
    cocked: bool
    box: tuple[int, int, int, int]
    seen: float


def frame_name(number: int) -> str:
    """The JPEG name of frame `number`; raises ValueError for a negative number."""
    if number < 0:
        raise ValueError(f"A frame number cannot be negative ({number}).")
    return f"frame_{number:06d}.jpg"


def box_of(points: Iterable[tuple[float, float]], width: int, height: int) -> tuple[int, int, int, int] | None:
    """The pixel box (x, y, w, h) round projected points, clipped to the image; None when it lies outside or
    the points are none; raises nothing."""
    points = list(points)
    if not points:
        return None
    left = max(0.0, min(x for x, _ in points))
    top = max(0.0, min(y for _, y in points))
    right = min(float(width), max(x for x, _ in points))
    bottom = min(float(height), max(y for _, y in points))
    if right - left < 1 or bottom - top < 1:
        return None
    return (round(left), round(top), max(1, round(right - left)), max(1, round(bottom - top)))


def pixel_of(normalised: Sequence[float], width: int, height: int) -> tuple[float, float]:
    """A point from camera-view coordinates (x, y in 0..1 from the bottom left) to pixels from the top left;
    raises nothing."""
    return (normalised[0] * width, (1.0 - normalised[1]) * height)


def labelled(dice: Sequence[DieLabel]) -> list[DieLabel]:
    """The dice that belong in labels.csv, in reading order (top to bottom, then left to right); raises nothing."""
    seen = [die for die in dice if die.seen >= VISIBLE_SHARE]
    return sorted(seen, key=lambda die: (die.box[1] + die.box[3] / 2, die.box[0] + die.box[2] / 2))


def labels_row(file: str, dice: Sequence[DieLabel]) -> list[str]:
    """The labels.csv row of one frame; raises nothing."""
    chosen = labelled(dice)
    return [file, " ".join(str(die.value) for die in chosen), ";".join(",".join(map(str, die.box)) for die in chosen)]


def details_row(file: str, dice: Sequence[DieLabel], plan: dict) -> list[str]:
    """The details.csv row of one frame: the same dice as labels.csv, their sides, cocked flags (1/0) and
    tilts, and the scene's plan as JSON; raises TypeError if the plan is not JSON data."""
    chosen = labelled(dice)
    return [file, " ".join(str(die.sides) for die in chosen), " ".join("1" if die.cocked else "0" for die in chosen),
            " ".join(f"{die.tilt:.1f}" for die in chosen), json.dumps(plan, sort_keys=True)]


def write_atomically(path: Path, data: bytes) -> None:
    """Writes the bytes to path through a temporary file and a rename; raises OSError when the disk refuses."""
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)


def record_path(folder: Path, number: int) -> Path:
    """The JSON record of frame `number`; raises ValueError for a negative number."""
    return folder / frame_name(number).replace(".jpg", ".json")


def is_done(folder: Path, number: int) -> bool:
    """Whether frame `number` is finished (its JPEG and its record exist); raises ValueError for a negative number."""
    return (folder / frame_name(number)).exists() and record_path(folder, number).exists()


def save_record(folder: Path, number: int, dice: Sequence[DieLabel], plan: dict, seconds: float) -> None:
    """Writes frame `number`'s record (after its JPEG); raises OSError when the disk refuses."""
    record = {"file": frame_name(number), "dice": [asdict(die) for die in dice], "plan": plan,
              "seconds": round(seconds, 2)}
    write_atomically(record_path(folder, number), json.dumps(record, sort_keys=True).encode())


def load_record(path: Path) -> tuple[str, list[DieLabel], dict]:
    """A frame's file name, dice and plan from its record; raises OSError, ValueError or KeyError for a broken one."""
    record = json.loads(path.read_text())
    dice = [DieLabel(sides=die["sides"], value=die["value"], tilt=die["tilt"], cocked=die["cocked"],
                     box=tuple(die["box"]), seen=die["seen"]) for die in record["dice"]]
    return record["file"], dice, record["plan"]


def _csv_bytes(header: Sequence[str], rows: Iterable[Sequence[str]]) -> bytes:
    """CSV text of a header and rows; raises nothing."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode()


def rebuild_tables(folder: Path) -> int:
    """Rewrites labels.csv and details.csv from every finished frame's record; returns the frame count; raises
    OSError, ValueError or KeyError for an unreadable record."""
    records = [load_record(path) for path in sorted(folder.glob("frame_*.json"))
               if (folder / path.name.replace(".json", ".jpg")).exists()]
    write_atomically(folder / LABELS, _csv_bytes(("file", "dice", "boxes"),
                                                 (labels_row(file, dice) for file, dice, _ in records)))
    write_atomically(folder / DETAILS, _csv_bytes(("file", "sides", "cocked", "tilts", "scene"),
                                                  (details_row(file, dice, plan) for file, dice, plan in records)))
    return len(records)
