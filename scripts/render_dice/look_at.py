"""What the camera sees of each die in Blender: its top face, that face's box by projection, how much of it
is in sight (rays from the camera), and the camera backed off until every die is in the frame."""
from __future__ import annotations

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

from render_dice.faces import FACES_BY_SIDES, face_corners, is_cocked, top_face
from render_dice.labels import DieLabel, box_of, pixel_of
from render_dice.plan import DieDesign

MARGIN = 0.03  # share of the frame kept clear round the dice


def _in_frame(camera: bpy.types.Object, points: list[Vector]) -> bool:
    """Whether every point projects inside the frame, MARGIN from its edges; raises nothing."""
    scene = bpy.context.scene
    for point in points:
        seen = world_to_camera_view(scene, camera, point)
        if seen.z <= 0 or not (MARGIN <= seen.x <= 1 - MARGIN and MARGIN <= seen.y <= 1 - MARGIN):
            return False
    return True


def _corners(die: bpy.types.Object) -> list[Vector]:
    """The eight corners of a die's bounding box in the world; raises nothing."""
    return [die.matrix_world @ Vector(corner) for corner in die.bound_box]


def back_off(camera: bpy.types.Object, target: Vector, dice: list[bpy.types.Object]) -> float:
    """Moves the camera away from the target until every die is in the frame; returns the distance; raises nothing."""
    points = [corner for die in dice for corner in _corners(die)]
    away = camera.location - target
    for _ in range(40):
        bpy.context.view_layer.update()
        if _in_frame(camera, points):
            break
        away *= 1.1
        camera.location = target + away
    return away.length


def _seen_share(die: bpy.types.Object, points: list[Vector], camera: bpy.types.Object, edge: float) -> float:
    """The share of points on a die's top face that a ray from the camera reaches on that die; raises nothing."""
    scene, depsgraph = bpy.context.scene, bpy.context.evaluated_depsgraph_get()
    origin, reached = camera.matrix_world.translation, 0
    for point in points:
        towards = point - origin
        hit, where, _, _, thing, _ = scene.ray_cast(depsgraph, origin, towards.normalized(),
                                                    distance=towards.length + edge)
        if hit and thing is not None and thing.name == die.name and (where - point).length < 0.3 * edge:
            reached += 1
    return reached / len(points)


def die_label(die: bpy.types.Object, design: DieDesign, camera: bpy.types.Object, size: int) -> DieLabel:
    """What the camera sees of one die: top value, tilt, cocked, top-face box and seen share; raises nothing."""
    rotation: Matrix = die.matrix_world.to_3x3().normalized()
    face, tilt = top_face([list(row) for row in rotation], FACES_BY_SIDES[design.sides])
    corners = [die.matrix_world @ Vector(corner) for corner in face_corners(design.sides, design.edge, face)]
    scene = bpy.context.scene
    pixels = [pixel_of(world_to_camera_view(scene, camera, corner), size, size) for corner in corners]
    box = box_of(pixels, size, size) or (0, 0, 0, 0)
    middle = sum(corners, Vector()) / len(corners)
    lift = rotation @ Vector(face.normal) * 0.0003
    samples = [middle + lift] + [middle + (corner - middle) * 0.6 + lift for corner in corners]
    seen = _seen_share(die, samples, camera, design.edge) if box[2] else 0.0
    return DieLabel(sides=design.sides, value=face.value, tilt=round(tilt, 2), cocked=is_cocked(tilt), box=box,
                    seen=round(seen, 2))
