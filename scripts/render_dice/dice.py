"""Die meshes in Blender: rounded cubes with drilled or printed pips (an emblem on the 1 for some), rounded
octahedra and cubes with numerals. One mesh per design; every die of that design shares it.
"""
from __future__ import annotations

import math

import bmesh
import bpy
from mathutils import Matrix, Vector

from render_dice import looks
from render_dice.faces import FACES_BY_SIDES, PIPS, Face, right_of
from render_dice.plan import DieDesign

INK_SLOT = 1
DECAL_LIFT = 0.00012  # numerals float this far above the face


def face_matrix(face: Face, distance: float) -> Matrix:
    """The frame of a face: x right, y up, z out, origin `distance` out from the die's centre; raises nothing."""
    right, up, out = Vector(right_of(face)), Vector(face.up), Vector(face.normal)
    frame = Matrix((right, up, out)).transposed().to_4x4()
    frame.translation = out * distance
    return frame


def _outline(points: int, outer: float, inner: float) -> list[tuple[float, float]]:
    """A star's outline (points tips, alternating radii), starting at the top; raises nothing."""
    corners = []
    for index in range(2 * points):
        angle = math.pi / 2 + math.pi * index / points
        radius = outer if index % 2 == 0 else inner
        corners.append((radius * math.cos(angle), radius * math.sin(angle)))
    return corners


def _prism(mesh: bmesh.types.BMesh, outline: list[tuple[float, float]], depth: float, frame: Matrix) -> None:
    """Adds a prism of the outline from `depth` below the face to above it; raises nothing."""
    bottom = [mesh.verts.new(frame @ Vector((x, y, -depth))) for x, y in outline]
    top = [mesh.verts.new(frame @ Vector((x, y, 0.002))) for x, y in outline]
    caps = [mesh.faces.new(list(reversed(bottom))), mesh.faces.new(top)]
    for index in range(len(outline)):
        following = (index + 1) % len(outline)
        mesh.faces.new((bottom[index], bottom[following], top[following], top[index]))
    bmesh.ops.triangulate(mesh, faces=caps, quad_method="BEAUTY", ngon_method="EAR_CLIP")


def _pip(mesh: bmesh.types.BMesh, design: DieDesign, frame: Matrix, radius: float) -> None:
    """Adds one pip's cutter: a half-sunk ball (drilled) or a shallow disc (printed); raises nothing."""
    if design.marks == "drilled":
        bmesh.ops.create_uvsphere(mesh, u_segments=20, v_segments=10, radius=radius,
                                  matrix=frame @ Matrix.Translation((0, 0, 0.25 * radius)))
    else:
        bmesh.ops.create_cone(mesh, cap_ends=True, cap_tris=False, segments=24, radius1=radius, radius2=radius,
                              depth=0.004, matrix=frame @ Matrix.Translation((0, 0, 0.0015)))


def _cutter(design: DieDesign) -> bpy.types.Object:
    """One object holding every pip's cutter of a d6 design; raises nothing."""
    mesh = bmesh.new()
    edge, radius = design.edge, design.pip_share * design.edge / 2
    for face in FACES_BY_SIDES[6]:
        frame = face_matrix(face, edge / 2)
        if face.value == 1 and design.one_mark in ("star", "diamond"):
            points, inner = (5, 0.42) if design.one_mark == "star" else (4, 0.3)
            depth = 0.08 * edge if design.marks == "drilled" else 0.0004
            _prism(mesh, _outline(points, 0.3 * edge, inner * 0.3 * edge), depth, frame)
            continue
        size = radius * (2.0 if face.value == 1 and design.one_mark == "big_pip" else 1.0)
        for across, along in PIPS[face.value]:
            _pip(mesh, design, frame @ Matrix.Translation((across * 0.25 * edge, along * 0.25 * edge, 0)), size)
    data = bpy.data.meshes.new("cutter")
    mesh.to_mesh(data)
    mesh.free()
    cutter = bpy.data.objects.new("cutter", data)
    bpy.context.scene.collection.objects.link(cutter)
    return cutter


def _shell(design: DieDesign) -> bpy.types.Object:
    """The bare die: a cube or an octahedron, with a bevel modifier to round it; raises nothing."""
    mesh = bmesh.new()
    if design.sides == 6:
        bmesh.ops.create_cube(mesh, size=design.edge)
    else:
        half = design.edge / 2
        corners = [mesh.verts.new(Vector(point)) for axis in range(3) for sign in (1, -1)
                   for point in [tuple(sign * half if index == axis else 0.0 for index in range(3))]]
        bmesh.ops.convex_hull(mesh, input=corners)
    data = bpy.data.meshes.new("shell")
    mesh.to_mesh(data)
    mesh.free()
    shell = bpy.data.objects.new("shell", data)
    bpy.context.scene.collection.objects.link(shell)
    bevel = shell.modifiers.new("round", "BEVEL")
    bevel.width = design.rounding * design.edge
    bevel.segments = 4 if design.sides == 6 else 2
    bevel.limit_method = "NONE"
    return shell


def _numerals(design: DieDesign) -> bmesh.types.BMesh:
    """Flat numerals for every face, lying just above the faces; raises nothing."""
    marks = bmesh.new()
    faces = FACES_BY_SIDES[design.sides]
    distance = design.edge / 2 if design.sides == 6 else design.edge / 2 / math.sqrt(3)
    for face in faces:
        curve = bpy.data.curves.new(f"numeral{face.value}", "FONT")
        curve.body = "6." if face.value == 6 else str(face.value)
        curve.size = design.edge * (0.6 if design.sides == 6 else 0.32)
        curve.align_x, curve.align_y = "CENTER", "CENTER"
        text = bpy.data.objects.new(curve.name, curve)
        bpy.context.scene.collection.objects.link(text)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        data = bpy.data.meshes.new_from_object(text.evaluated_get(depsgraph))
        data.transform(face_matrix(face, distance + DECAL_LIFT))
        marks.from_mesh(data)
        bpy.data.objects.remove(text)
        bpy.data.meshes.remove(data)
    return marks


def die_mesh(design: DieDesign, name: str) -> bpy.types.Mesh:
    """The finished mesh of a design, body and ink materials in slots 0 and 1; raises nothing."""
    shell = _shell(design)
    body, paint = looks.die_body(design, f"{name}-body"), looks.ink(design.ink, f"{name}-ink")
    shell.data.materials.append(body)
    cutter = None
    if design.marks != "numerals":
        cutter = _cutter(design)
        cutter.data.materials.append(paint)
        boolean = shell.modifiers.new("pips", "BOOLEAN")
        boolean.object, boolean.operation, boolean.material_mode = cutter, "DIFFERENCE", "TRANSFER"
    depsgraph = bpy.context.evaluated_depsgraph_get()
    data = bpy.data.meshes.new_from_object(shell.evaluated_get(depsgraph))
    data.name = name
    if design.marks == "numerals":
        _add_numerals(data, design, paint)
    for polygon in data.polygons:
        polygon.use_smooth = True
    data.use_auto_smooth, data.auto_smooth_angle = True, math.radians(35)
    bpy.data.objects.remove(shell)
    if cutter is not None:
        bpy.data.objects.remove(cutter)
    return data


def _add_numerals(data: bpy.types.Mesh, design: DieDesign, paint: bpy.types.Material) -> None:
    """Joins the numerals into the die's mesh, painted with the ink; raises nothing."""
    joined = bmesh.new()
    joined.from_mesh(data)
    body_faces = len(joined.faces)
    marks = _numerals(design)
    spare = bpy.data.meshes.new("marks")
    marks.to_mesh(spare)
    marks.free()
    joined.from_mesh(spare)
    joined.faces.ensure_lookup_table()
    for index in range(body_faces, len(joined.faces)):
        joined.faces[index].material_index = INK_SLOT
    joined.to_mesh(data)
    joined.free()
    bpy.data.meshes.remove(spare)
    data.materials.append(paint)
