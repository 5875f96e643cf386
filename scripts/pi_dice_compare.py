"""Compares `companion read-dice --json` on the Pi (a file) with the laptop's (stdin): used by scripts/pi_check.sh."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from vision.faces import CLEAR  # a first reading this clear is not read again by the second look

CONFIDENCE_SLACK = 0.02  # float sums differ between x86-64 and arm64 builds of OpenCV; dice and boxes may not


def readings(lines: list[str]) -> dict[str, list[tuple]]:
    """Maps each photo to its dice as (sides, value, box, unsure, confidence); raises ValueError on a bad line."""
    found = {}
    for line in lines:
        record = json.loads(line)
        if "error" in record:
            raise ValueError(f"{record['file']}: {record['error']}")
        found[record["file"]] = [(d["sides"], d["value"], tuple(d["box"]), d["unsure"], d["confidence"])
                                 for d in record["dice"]]
    return found


def differences(pi: dict[str, list[tuple]], laptop: dict[str, list[tuple]]) -> list[str]:
    """One sentence per photo whose dice differ between the two readings; raises nothing."""
    said = []
    for photo in sorted(set(pi) | set(laptop)):
        one, other = pi.get(photo), laptop.get(photo)
        if one is None or other is None:
            said.append(f"{photo}: read on {'the laptop' if one is None else 'the Pi'} only")
        elif len(one) != len(other) or not all(same_die(a, b) for a, b in zip(one, other)):
            said.append(f"{photo}: the Pi read {one}, the laptop {other}")
    return said


def same_die(one: tuple, other: tuple) -> bool:
    """Whether two readings of a die agree: kind, value, box and sureness alike, and confidences within the slack,
    unless either is near CLEAR, where a hair's difference decides whether the second look reads the face again
    (0.972 read once on x86-64, 0.944 read four times on arm64); raises nothing."""
    if one[:4] != other[:4]:
        return False
    return abs(one[4] - other[4]) <= CONFIDENCE_SLACK or max(one[4], other[4]) >= CLEAR - CONFIDENCE_SLACK


def main(pi_file: str) -> int:
    """Prints the differences; returns 0 when there are none, else 1; raises nothing."""
    try:
        pi = readings(Path(pi_file).read_text().splitlines())
        laptop = readings(sys.stdin.read().splitlines())
    except (OSError, ValueError, KeyError) as problem:
        print(f"pi_dice_compare: {problem}", file=sys.stderr)
        return 1
    said = differences(pi, laptop)
    for sentence in said:
        print(sentence, file=sys.stderr)
    if not said:
        print(f"pi_dice_compare: the Pi and the laptop read the same dice in {len(pi)} photos")
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
