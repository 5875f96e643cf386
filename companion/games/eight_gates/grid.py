"""The middle as a grid: where a Gate may go, what a placement scores, destroying a Gate."""
from __future__ import annotations

from dataclasses import replace

from companion.games.eight_gates import words
from companion.games.eight_gates.state import Gate

Cell = tuple[int, int]
STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def starting_row(values: tuple[int, ...], types: tuple[str | None, ...]) -> tuple[Gate, ...]:
    """The opening middle: the Gates next to each other in a row from (0, 0); raises nothing."""
    return tuple(Gate(column, 0, value, kind) for column, (value, kind) in enumerate(zip(values, types)))


def gate_at(middle: tuple[Gate, ...], x: int, y: int) -> Gate | None:
    """The Gate (or Ruins) on that cell, or None when it is empty; raises nothing."""
    return next((gate for gate in middle if (gate.x, gate.y) == (x, y)), None)


def neighbours(middle: tuple[Gate, ...], x: int, y: int) -> tuple[Gate, ...]:
    """The Gates and Ruins orthogonally next to a cell; raises nothing."""
    found = (gate_at(middle, x + step_x, y + step_y) for step_x, step_y in STEPS)
    return tuple(gate for gate in found if gate is not None)


def legal_cells(middle: tuple[Gate, ...]) -> tuple[Cell, ...]:
    """Every empty cell next to a Gate or Ruins, sorted by row then column; raises nothing."""
    taken = {(gate.x, gate.y) for gate in middle}
    cells = {(gate.x + step_x, gate.y + step_y) for gate in middle for step_x, step_y in STEPS}
    return tuple(sorted(cells - taken, key=lambda cell: (cell[1], cell[0])))


def why_not_place(middle: tuple[Gate, ...], x: int, y: int) -> str | None:
    """Why a Gate cannot go on that cell (a sentence), or None when it may; raises nothing."""
    taken = gate_at(middle, x, y)
    if taken is not None:
        return words.cell_taken(x, y, None if taken.ruins else taken.value)
    if neighbours(middle, x, y):
        return None
    if _touches_diagonally(middle, x, y):
        return words.cell_diagonal(x, y)
    return words.cell_alone(x, y)


def _touches_diagonally(middle: tuple[Gate, ...], x: int, y: int) -> bool:
    corners = ((1, 1), (1, -1), (-1, 1), (-1, -1))
    return any(gate_at(middle, x + step_x, y + step_y) is not None for step_x, step_y in corners)


def placement_points(middle: tuple[Gate, ...], x: int, y: int, value: int) -> int:
    """Points for a Gate of `value` placed on (x, y) of a middle not holding it yet; raises nothing."""
    if not any(gate.value == value for gate in neighbours(middle, x, y)):
        return 0
    return 1 + sum(1 for gate in middle if gate.value == value)


def place(middle: tuple[Gate, ...], gate: Gate) -> tuple[Gate, ...]:
    """The middle with a Gate added; raises ValueError when the cell is not a legal one."""
    reason = why_not_place(middle, gate.x, gate.y)
    if reason is not None:
        raise ValueError(reason)
    return middle + (gate,)


def destroy(middle: tuple[Gate, ...], x: int, y: int) -> tuple[Gate, ...]:
    """The middle with the Gate on (x, y) flipped to Ruins; raises ValueError for no Gate there."""
    target = gate_at(middle, x, y)
    if target is None:
        raise ValueError(words.nothing_to_destroy(x, y))
    if target.ruins:
        raise ValueError(words.ruins_already(x, y))
    ruins = replace(target, value=None, type=None, ruins=True)
    return tuple(ruins if gate is target else gate for gate in middle)


def bounds(middle: tuple[Gate, ...], margin: int = 0) -> tuple[int, int, int, int]:
    """(min x, max x, min y, max y) of the middle widened by margin; (0, 0, 0, 0) when empty."""
    if not middle:
        return (0, 0, 0, 0)
    xs = [gate.x for gate in middle]
    ys = [gate.y for gate in middle]
    return (min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin)


def count_value(middle: tuple[Gate, ...], value: int) -> int:
    """How many Gates of that value are in the middle (Ruins have none); raises nothing."""
    return sum(1 for gate in middle if gate.value == value)
