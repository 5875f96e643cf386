"""The solid parts of a tray as boxes (no Blender here): the same boxes are the physics' walls and the
rendered walls, so what the dice bounce off is what the camera sees.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from render_dice.plan import Surface

WALL_THICKNESS = 0.008
BOWL_LEAN = 35.0  # degrees a bowl's wall leans outward


@dataclass(frozen=True)
class Block:
    """A box: centre, full size along its own axes, turn about Z then tilt about its own X (degrees)."""

    centre: tuple[float, float, float]
    size: tuple[float, float, float]
    heading: float
    lean: float


def floor(place: Surface) -> Block:
    """The tray's floor (a thin block whose top is at height 0); raises nothing."""
    across = 2 * place.radius
    return Block((0.0, 0.0, -0.002), (across, across, 0.004), 0.0, 0.0)


def walls(place: Surface) -> list[Block]:
    """The tray's walls round a regular polygon of `place.walls` sides, none for a flat mat; raises
    ValueError for a polygon of fewer than 3 sides."""
    if place.walls == 0:
        return []
    if place.walls < 3:
        raise ValueError(f"A tray wall needs at least 3 sides, not {place.walls}.")
    lean = BOWL_LEAN if place.kind == "wood_bowl" else 0.0
    out = place.radius + WALL_THICKNESS / 2 + math.tan(math.radians(lean)) * place.wall_height / 2
    side = 2 * out * math.tan(math.pi / place.walls) + WALL_THICKNESS
    height = place.wall_height / math.cos(math.radians(lean))
    blocks = []
    for index in range(place.walls):
        angle = 2 * math.pi * (index + 0.5) / place.walls
        centre = (out * math.cos(angle), out * math.sin(angle), place.wall_height / 2)
        blocks.append(Block(centre, (side, WALL_THICKNESS, height), math.degrees(angle) - 90.0, -lean))
    return blocks

