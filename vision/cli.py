"""The read-dice command: read the dice in image files and print one line per image."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from vision.hints import add_hints, add_sides
from vision.photo_files import load_photo
from vision.reader import DiceReader, Relook
from vision.types import OFF_TRAY, UNSURE, DiceReading


def read_dice_main(paths: list[str], *, as_json: bool, die_px: float | None = None,
                   tray: tuple[int, int, int, int] | None = None, taught: Relook | None = None,
                   sides: tuple[int, ...] = (6,)) -> int:
    """Prints one line per image (JSON objects with --json), read as a box calibrated with `die_px` and `tray`
    would, looking for the kinds of dice `sides` names; returns 0, or 1 if any image failed; raises nothing."""
    failures = 0
    reader = DiceReader(taught=taught)  # loaded first, so that each image's `ms` is its reading time alone
    try:
        for path in paths:
            line, failed = _one_image(reader, path, as_json, die_px=die_px, tray=tray, sides=sides)
            failures += failed
            print(line, flush=True)
    except BrokenPipeError:  # the reader of the lines stopped early (`| head`): nobody is left to tell
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that exiting flushes into nothing
        return 1
    return 1 if failures else 0


def _one_image(reader: DiceReader, path: str, as_json: bool, *, die_px: float | None,
               tray: tuple[int, int, int, int] | None, sides: tuple[int, ...]) -> tuple[str, bool]:
    """Returns the printed line for one image and whether it failed; raises nothing."""
    frame, error = load_photo(path)
    if frame is None:
        return (json.dumps({"file": path, "error": error}) if as_json else f"{path}: error: {error}"), True
    started = time.perf_counter()
    try:
        reading = reader.read(frame, die_px=die_px, tray=tray, sides=sides)
    except ValueError as problem:
        message = str(problem)
        return (json.dumps({"file": path, "error": message}) if as_json else f"{path}: error: {message}"), True
    took = (time.perf_counter() - started) * 1000
    if as_json:
        return json.dumps(_as_record(path, reading, took)), False
    return _as_sentence(path, reading, took), False


def _as_record(path: str, reading: DiceReading, took: float) -> dict:
    """Returns the JSON-ready record of one image's reading; raises nothing."""
    return {
        "file": path,
        "dice": [
            {
                "sides": die.sides,
                "value": die.value,
                "box": list(die.box),
                "confidence": die.confidence,
                "unsure": die.unsure,
                "flags": list(die.flags),
            }
            for die in reading.dice
        ],
        "ms": round(took, 1),
    }


def _as_sentence(path: str, reading: DiceReading, took: float) -> str:
    """Returns a human line for one image's reading; raises nothing."""
    if not reading.dice:
        return f"{path}: no dice ({took:.1f} ms)"
    parts = []
    for die in reading.dice:
        shown = "?" if die.value is None else str(die.value)
        notes = [flag for flag in die.flags if flag != UNSURE]
        if die.unsure:
            shown += "?"
        if notes:
            shown += f" ({', '.join(notes)})"
        parts.append(shown)
    total = sum(die.value for die in reading.dice if die.value is not None and OFF_TRAY not in die.flags)
    return f"{path}: {len(reading.dice)} dice: {' '.join(parts)}; total {total} ({took:.1f} ms)"


def main(argv: list[str] | None = None) -> int:
    """Runs `python -m vision.cli IMAGE... [--json] [--die-px N] [--tray X,Y,W,H] [--sides 6|8|6,8]`; returns the
    exit status; raises SystemExit on bad usage."""
    parser = argparse.ArgumentParser(prog="read-dice", description="Read the dice in image files.")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image")
    add_hints(parser)
    add_sides(parser)
    arguments = parser.parse_args(argv)
    return read_dice_main(arguments.images, as_json=arguments.json, die_px=arguments.die_px, tray=arguments.tray,
                          sides=arguments.sides)


if __name__ == "__main__":
    sys.exit(main())
