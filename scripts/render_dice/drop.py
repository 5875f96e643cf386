"""Rigid-body drops in Blender, so the dice come to rest the way real dice do: tumbling, touching, leaning.

Bullet is unsteady with centimetre bodies, so the drop runs ten times larger (gravity too, which keeps the
timing) with plain boxes and octahedra; the finished poses are scaled back for the rendered dice.
"""
from __future__ import annotations

import math

import bmesh
import bpy
from mathutils import Euler, Matrix, Vector

from render_dice.plan import DieDesign, DieDrop, ScenePlan
from render_dice.stage import add_block
from render_dice.tray import Block, walls

SCALE = 10.0
LONGEST = 240  # frames at 24 a second: ten seconds at most
STILL = 0.0003  # metres (true scale) a die may move in ten frames and count as still


def _rigid(thing: bpy.types.Object, kind: str, shape: str) -> None:
    """Makes an object a rigid body (ACTIVE or PASSIVE) of the given collision shape; raises RuntimeError
    when Blender refuses."""
    with bpy.context.temp_override(object=thing, active_object=thing, selected_objects=[thing]):
        bpy.ops.rigidbody.object_add(type=kind)
    body = thing.rigid_body
    body.collision_shape = shape
    body.friction, body.restitution = (0.6 if kind == "ACTIVE" else 0.9), 0.3  # Bullet multiplies the two
    body.use_margin, body.collision_margin = True, 0.0004 * SCALE
    body.linear_damping, body.angular_damping = 0.15, 0.25


def _proxy(design: DieDesign, index: int) -> bpy.types.Object:
    """A plain cube or octahedron of the design's size, times SCALE; raises nothing."""
    mesh = bmesh.new()
    size = design.edge * SCALE
    if design.sides == 6:
        bmesh.ops.create_cube(mesh, size=size)
    else:
        corners = [mesh.verts.new(Vector([sign * size / 2 if place == axis else 0.0 for place in range(3)]))
                   for axis in range(3) for sign in (1, -1)]
        bmesh.ops.convex_hull(mesh, input=corners)
    data = bpy.data.meshes.new(f"proxy{index}")
    mesh.to_mesh(data)
    mesh.free()
    proxy = bpy.data.objects.new(data.name, data)
    bpy.context.scene.collection.objects.link(proxy)
    return proxy


def _colliders(plan: ScenePlan) -> None:
    """The table and the tray's walls as passive boxes; raises RuntimeError when Blender refuses."""
    table = Block((0.0, 0.0, -0.05), (3.0, 3.0, 0.1), 0.0, 0.0)
    for index, block in enumerate([table, *walls(plan.surface)]):
        _rigid(add_block(block, f"collider{index}", scale=SCALE), "PASSIVE", "BOX")


def start_pose(drop: DieDrop) -> Matrix:
    """A die's starting turn; one set against a wall is turned square to it, then tipped onto it; raises nothing."""
    turn = Euler([math.radians(angle) for angle in drop.turn], "XYZ").to_matrix().to_4x4()
    if not drop.lean:
        return turn
    wall = math.radians(drop.wall)
    along = Vector((-math.sin(wall), math.cos(wall), 0.0))  # the wall's direction at its middle
    return Matrix.Rotation(-math.radians(drop.lean), 4, along) @ Matrix.Rotation(wall, 4, "Z") @ turn


def _dice(plan: ScenePlan) -> list[bpy.types.Object]:
    """The dice at their starting poses, as active bodies; raises RuntimeError when Blender refuses."""
    dice = []
    for index, drop in enumerate(plan.dice):
        design = plan.designs[drop.design]
        proxy = _proxy(design, index)
        proxy.matrix_world = start_pose(drop)
        proxy.location = Vector(drop.start) * SCALE
        # A die set against a wall stays put: Bullet's corner contacts let it slide flat where felt would hold it
        _rigid(proxy, "PASSIVE" if drop.lean else "ACTIVE", "BOX" if design.sides == 6 else "CONVEX_HULL")
        proxy.rigid_body.mass = 1200.0 * design.edge ** 3 * (1.0 if design.sides == 6 else 0.6)
        dice.append(proxy)
    return dice


def _run(dice: list[bpy.types.Object]) -> int:
    """Steps the simulation until every die is still; returns the last frame; raises nothing."""
    scene = bpy.context.scene
    before = [Vector(die.matrix_world.translation) for die in dice]
    for frame in range(1, LONGEST + 1):
        scene.frame_set(frame)
        if frame % 10 == 0 and frame >= 30:
            now = [Vector(die.matrix_world.translation) for die in dice]
            moved = max((new - old).length for new, old in zip(now, before)) / SCALE
            if moved < STILL:
                return frame
            before = now
    return LONGEST


def settle(plan: ScenePlan) -> list[Matrix]:
    """Drops the plan's dice into its tray and returns each die's resting world matrix (true scale); raises
    RuntimeError when Blender refuses an operator."""
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.substeps_per_frame, world.solver_iterations = 12, 20
    world.point_cache.frame_start, world.point_cache.frame_end = 1, LONGEST
    scene.gravity = (0.0, 0.0, -9.81 * SCALE)
    _colliders(plan)
    dice = _dice(plan)
    _run(dice)
    poses = []
    for die in dice:
        pose = die.matrix_world.copy()
        pose.translation = pose.translation / SCALE
        poses.append(pose)
    bpy.ops.rigidbody.world_remove()
    for thing in list(scene.collection.objects):
        bpy.data.objects.remove(thing)
    scene.frame_set(1)
    return poses
