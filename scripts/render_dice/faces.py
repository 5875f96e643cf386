"""The faces of a d6 and a d8 in the die's own frame, and which one is up after a roll (no Blender here).

A face is its value, its outward unit normal and an "up" direction lying in the face (where the top of a
numeral points). The d6 follows the standard layout: opposite faces sum to 7, and 1, 2, 3 run counter-
clockwise round their shared corner. The d8's opposite faces sum to 9.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Vector = tuple[float, float, float]
Matrix = Sequence[Sequence[float]]  # 3x3 rotation, rows

COCKED_DEGREES = 10.0  # a top face tilted more than this is a cocked die (it leans on a wall or a die)


@dataclass(frozen=True)
class Face:
    """One face of a die: its value, outward normal and in-face up direction, in the die's frame."""

    value: int
    normal: Vector
    up: Vector


def _unit(vector: Sequence[float]) -> Vector:
    """The vector scaled to length 1; raises ValueError for the zero vector."""
    length = math.sqrt(sum(component * component for component in vector))
    if length == 0:
        raise ValueError("A face normal cannot be the zero vector.")
    return (vector[0] / length, vector[1] / length, vector[2] / length)


def _cross(first: Sequence[float], second: Sequence[float]) -> Vector:
    """The cross product; raises nothing."""
    return (first[1] * second[2] - first[2] * second[1], first[2] * second[0] - first[0] * second[2],
            first[0] * second[1] - first[1] * second[0])


# +Z 1, +X 2, +Y 3: z -> x -> y is a cyclic turn of x -> y -> z, so 1-2-3 is counter-clockwise seen from outside.
D6_FACES: tuple[Face, ...] = (
    Face(1, (0.0, 0.0, 1.0), (0.0, 1.0, 0.0)),
    Face(6, (0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),
    Face(2, (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    Face(5, (-1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    Face(3, (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    Face(4, (0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
)

# The octahedron's faces have normals (+-1, +-1, +-1)/sqrt(3); the face opposite n is -n.
_D8_UPPER = {(1, 1, 1): 1, (-1, 1, 1): 7, (-1, -1, 1): 3, (1, -1, 1): 5}


def _d8_faces() -> tuple[Face, ...]:
    """The eight faces of a d8 whose vertices sit on the axes; raises nothing."""
    faces = []
    for signs, value in _D8_UPPER.items():
        for flip, face_value in ((1, value), (-1, 9 - value)):
            normal = _unit([flip * sign for sign in signs])
            apex = (0.0, 0.0, float(flip * signs[2]))  # the face's vertex on the z axis
            inward = [apex[axis] - normal[axis] / math.sqrt(3) for axis in range(3)]
            faces.append(Face(face_value, normal, _unit(inward)))
    return tuple(faces)


D8_FACES: tuple[Face, ...] = _d8_faces()
FACES_BY_SIDES = {6: D6_FACES, 8: D8_FACES}


def faces_from_vertices(vertices: Sequence[Vector], polygons: Sequence[Sequence[int]],
                        values: Sequence[int]) -> tuple[Face, ...]:
    """Faces from a convex mesh's polygons (normals point away from the centroid); raises ValueError if the
    values and polygons differ in number or a polygon is degenerate."""
    if len(values) != len(polygons):
        raise ValueError(f"{len(polygons)} polygons but {len(values)} values.")
    centre = [sum(vertex[axis] for vertex in vertices) / len(vertices) for axis in range(3)]
    faces = []
    for polygon, value in zip(polygons, values):
        corners = [vertices[index] for index in polygon]
        middle = [sum(corner[axis] for corner in corners) / len(corners) for axis in range(3)]
        edge_a = [corners[1][axis] - corners[0][axis] for axis in range(3)]
        edge_b = [corners[2][axis] - corners[0][axis] for axis in range(3)]
        normal = _unit(_cross(edge_a, edge_b))
        if sum((middle[axis] - centre[axis]) * normal[axis] for axis in range(3)) < 0:
            normal = (-normal[0], -normal[1], -normal[2])
        up = _unit([corners[0][axis] - middle[axis] for axis in range(3)])
        faces.append(Face(value, normal, up))
    return tuple(faces)


PIPS: dict[int, tuple[tuple[float, float], ...]] = {  # (right, up) in units of the pip spacing
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def right_of(face: Face) -> Vector:
    """The in-face direction to the right of `up` seen from outside; raises nothing."""
    return _cross(face.up, face.normal)


def face_corners(sides: int, edge: float, face: Face) -> list[Vector]:
    """The corners of a face in the die's frame: a d6's square (edge `edge`) or a d8's triangle (opposite
    vertices `edge` apart); raises ValueError for other dice."""
    if sides == 6:
        right, half = right_of(face), edge / 2
        return [tuple(face.normal[axis] * half + (across * right[axis] + along * face.up[axis]) * half
                      for axis in range(3)) for across, along in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    if sides == 8:
        half = edge / 2
        return [tuple(half * (1.0 if axis == which else 0.0) * (1 if face.normal[which] > 0 else -1)
                      for axis in range(3)) for which in range(3)]
    raise ValueError(f"Only d6 and d8 are rendered, not d{sides}.")


def turned(rotation: Matrix, vector: Sequence[float]) -> Vector:
    """The vector turned by a 3x3 rotation (rows); raises ValueError if the matrix is not 3x3."""
    if len(rotation) != 3 or any(len(row) != 3 for row in rotation):
        raise ValueError("A rotation must be a 3x3 matrix.")
    return tuple(sum(row[axis] * vector[axis] for axis in range(3)) for row in rotation)  # type: ignore[return-value]


def top_face(rotation: Matrix, faces: Sequence[Face]) -> tuple[Face, float]:
    """The face whose turned normal points most nearly straight up (+Z) and its tilt from level in degrees;
    raises ValueError for no faces or a matrix that is not 3x3."""
    if not faces:
        raise ValueError("A die needs faces.")
    best = max(faces, key=lambda face: turned(rotation, face.normal)[2])
    height = max(-1.0, min(1.0, turned(rotation, best.normal)[2]))
    return best, math.degrees(math.acos(height))


def is_cocked(tilt_degrees: float) -> bool:
    """Whether a die whose top face is tilted this much is cocked; raises nothing."""
    return tilt_degrees > COCKED_DEGREES


def rotation_between(normal: Sequence[float], up: Sequence[float]) -> tuple[Vector, Vector, Vector]:
    """The rotation (rows) that turns `normal` to +Z and `up` (in the face) to +Y; raises ValueError when
    they are parallel."""
    z_axis = _unit(normal)
    x_axis = _unit(_cross(up, z_axis))
    y_axis = _cross(z_axis, x_axis)
    return (x_axis, y_axis, z_axis)
