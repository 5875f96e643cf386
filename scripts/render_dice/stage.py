"""The set in Blender: the table, the tray from its blocks, the lights, the room and the camera."""
from __future__ import annotations

import math

import bmesh
import bpy
from mathutils import Euler, Matrix, Vector

from render_dice import looks
from render_dice.plan import CameraView, Light, Surface
from render_dice.tray import Block, floor, walls

SENSOR_MM = 36.0


def block_matrix(block: Block, scale: float = 1.0) -> Matrix:
    """The world matrix of a block (without its size), lengths times `scale`; raises nothing."""
    turn = Euler((math.radians(block.lean), 0.0, math.radians(block.heading)), "XYZ").to_matrix().to_4x4()
    turn.translation = Vector(block.centre) * scale
    return turn


def add_block(block: Block, name: str, *, scale: float = 1.0) -> bpy.types.Object:
    """A box object for a block, its size baked into the mesh; raises nothing."""
    mesh = bmesh.new()
    bmesh.ops.create_cube(mesh, size=1.0, matrix=Matrix.Diagonal((*(Vector(block.size) * scale), 1.0)))
    data = bpy.data.meshes.new(name)
    mesh.to_mesh(data)
    mesh.free()
    thing = bpy.data.objects.new(name, data)
    thing.matrix_world = block_matrix(block, scale)
    bpy.context.scene.collection.objects.link(thing)
    return thing


def add_mat(place: Surface) -> bpy.types.Object:
    """The floor the dice land on: a polygon filling the tray's walls, or a square mat; raises nothing."""
    if not place.walls:
        return add_block(floor(place), "floor")
    mesh = bmesh.new()
    radius = place.radius / math.cos(math.pi / place.walls) + 0.004
    # create_cone's corners start at 90 degrees; turned to 0 they meet the walls' corners
    bmesh.ops.create_cone(mesh, cap_ends=True, cap_tris=False, segments=place.walls, radius1=radius,
                          radius2=radius, depth=0.004,
                          matrix=Matrix.Translation((0.0, 0.0, -0.002)) @ Matrix.Rotation(-math.pi / 2, 4, "Z"))
    data = bpy.data.meshes.new("floor")
    mesh.to_mesh(data)
    mesh.free()
    mat = bpy.data.objects.new("floor", data)
    bpy.context.scene.collection.objects.link(mat)
    return mat


def build_tray(place: Surface) -> list[bpy.types.Object]:
    """The table, the mat or tray floor and its walls, with their materials; raises nothing."""
    table = add_block(Block((0.0, 0.0, -0.006), (3.0, 3.0, 0.004), 0.0, 0.0), "table")
    table.data.materials.append(looks.plain(place.table, "table", roughness=0.5))
    mat = add_mat(place)
    mat.data.materials.append(looks.ground(place, "floor"))
    made = [table, mat]
    wall_look = looks.ground(place, "wall") if place.kind != "hex_felt" else looks.plain((0.25, 0.13, 0.05), "wall")
    for index, block in enumerate(walls(place)):
        wall = add_block(block, f"wall{index}")
        wall.data.materials.append(wall_look)
        made.append(wall)
    return made


def _aim(thing: bpy.types.Object, at: Vector) -> None:
    """Turns a light or camera to look at a point; raises nothing."""
    thing.rotation_euler = (at - thing.location).to_track_quat("-Z", "Y").to_euler()


def _direction(elevation: float, azimuth: float) -> Vector:
    """The unit vector from the target toward a light or camera; raises nothing."""
    up, round_ = math.radians(elevation), math.radians(azimuth)
    return Vector((math.cos(up) * math.cos(round_), math.cos(up) * math.sin(round_), math.sin(up)))


def add_light(light: Light, target: Vector) -> None:
    """The main light (window sun, desk lamp or overhead panel) and the room's ambient light; raises nothing."""
    towards = _direction(light.elevation, light.azimuth)
    if light.kind == "window_sun":
        data = bpy.data.lights.new("sun", "SUN")
        data.energy, data.angle = light.strength, math.radians(light.size)
        distance = 1.0
    elif light.kind == "desk_lamp":
        data = bpy.data.lights.new("lamp", "POINT")
        data.energy, data.shadow_soft_size = light.strength * 4, light.size
        distance = 0.45
    else:
        data = bpy.data.lights.new("overhead", "AREA")
        data.energy, data.size = light.strength * 12, light.size * 3
        distance = 1.0
    data.color = light.colour
    lamp = bpy.data.objects.new(data.name, data)
    lamp.location = target + towards * distance
    bpy.context.scene.collection.objects.link(lamp)
    _aim(lamp, target)
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = (0.8, 0.85, 1.0, 1.0)
    background.inputs["Strength"].default_value = light.ambient
    bpy.context.scene.world = world


def place_camera(view: CameraView, target: Vector, distance: float) -> bpy.types.Object:
    """The camera `distance` from the target, tilted from straight down, focused near the target; raises nothing."""
    data = bpy.data.cameras.new("camera")
    data.lens, data.sensor_width, data.sensor_fit = view.focal_mm, SENSOR_MM, "HORIZONTAL"
    data.clip_start, data.clip_end = 0.005, 10.0
    data.dof.use_dof = True
    data.dof.aperture_fstop = view.f_stop
    data.dof.focus_distance = distance * (1.0 + view.focus_error)
    camera = bpy.data.objects.new("camera", data)
    camera.location = target + _direction(90.0 - view.tilt, view.azimuth) * distance
    bpy.context.scene.collection.objects.link(camera)
    _aim(camera, target)
    if view.tilt < 1.0:
        camera.rotation_euler = (0.0, 0.0, math.radians(view.azimuth))
    bpy.context.scene.camera = camera
    return camera


def distance_for(view: CameraView, edge: float, width: int) -> float:
    """How far away the camera must be for a die of this edge to span `view.die_pixels`; raises nothing."""
    return edge * view.focal_mm * width / (SENSOR_MM * view.die_pixels)
