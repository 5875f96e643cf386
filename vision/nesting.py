"""One photo's found faces, each inside another dropped: a die's own pips, or a cluster of dice taken for one."""
from __future__ import annotations

import math

import numpy as np

from vision.faces import CLASSES
from vision.finder import SAME_SIZE, Spot


def without_nesting(found: list[tuple[Spot, np.ndarray, bool]]) -> list[tuple[Spot, np.ndarray, bool]]:
    """Returns the dice without nests (a die's pips, or a cluster seen as one big die): the surer side stays; raises nothing.

    A lone mark in the middle of a plain square is a 1, or one die alone on a dark tray. So a big face read
    as a 1 around a spot the finder was surer of keeps its value but counts as read two ways: its views no
    longer agree (it becomes `unsure`).
    """
    def sureness(item: tuple[Spot, np.ndarray, bool]) -> float:  # finder's chance x the likeliest face's chance
        spot, chance, _ = item
        return spot.chance * float(chance[1:].max())

    dropped: set[int] = set()
    contested: set[int] = set()
    for big_index, (big, _, _) in enumerate(found):
        inside = [index for index, (small, _, _) in enumerate(found) if _nested(small, big)]
        if inside and sureness(found[big_index]) >= np.mean([sureness(found[index]) for index in inside]):
            dropped.update(inside)
            if likeliest_face(found[big_index][1]) == 1 and max(found[index][0].chance for index in inside) > big.chance:
                contested.add(big_index)
        elif inside:
            dropped.add(big_index)
    return [
        (spot, chance, agreed and index not in contested)
        for index, (spot, chance, agreed) in enumerate(found)
        if index not in dropped
    ]


def _nested(small: Spot, big: Spot) -> bool:
    """Whether the small face lies wholly within the big one (grown by a fifth); raises nothing.

    Wholly, not just its centre: a neighbour the finder sized too big must not swallow the die beside it.
    Small is any face SAME_SIZE times smaller or more: two faces at one place are then either alike
    (vision.finder.strongest_apart keeps the likelier) or nested, never both kept as two dice.
    """
    reach = math.hypot(small.x - big.x, small.y - big.y) + small.face / 2
    return small.face * SAME_SIZE <= big.face and reach < 0.6 * big.face


def likeliest_face(chance: np.ndarray) -> int:
    """Returns the likeliest class other than nothing: 1-6 pips, or NOT_PIPS; raises nothing."""
    return int(np.argmax(chance[1:CLASSES])) + 1
