"""Blender materials for dice and what they land on (Cycles node trees; Blender 3.4's Principled BSDF)."""
from __future__ import annotations

import bpy

from render_dice.plan import Colour, DieDesign, Surface


def _principled(name: str, colour: Colour, *, roughness: float) -> tuple[bpy.types.Material, bpy.types.Node]:
    """A new material whose surface is one Principled BSDF, and that node; raises nothing."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    shader = material.node_tree.nodes["Principled BSDF"]
    shader.inputs["Base Color"].default_value = (*colour, 1.0)
    shader.inputs["Roughness"].default_value = roughness
    return material, shader


def _mixed(material: bpy.types.Material, texture: bpy.types.Node, first: Colour, second: Colour,
           *, low: float, high: float, output: str = "Fac") -> bpy.types.Node:
    """Feeds the base colour from a texture's output through a two-colour ramp; returns the ramp; raises
    KeyError for an output the texture lacks."""
    nodes, links = material.node_tree.nodes, material.node_tree.links
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].position, ramp.color_ramp.elements[1].position = low, high
    ramp.color_ramp.elements[0].color = (*first, 1.0)
    ramp.color_ramp.elements[1].color = (*second, 1.0)
    links.new(texture.outputs[output], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], nodes["Principled BSDF"].inputs["Base Color"])
    return ramp


def _texture(material: bpy.types.Material, kind: str, **settings: float) -> bpy.types.Node:
    """A texture node in object coordinates with the given input values; raises KeyError for an unknown input."""
    nodes, links = material.node_tree.nodes, material.node_tree.links
    texture = nodes.new(kind)
    coordinates = nodes.new("ShaderNodeTexCoord")
    links.new(coordinates.outputs["Object"], texture.inputs["Vector"])
    for name, value in settings.items():
        texture.inputs[name.replace("_", " ").title()].default_value = value
    return texture


def die_body(design: DieDesign, name: str) -> bpy.types.Material:
    """The plastic of a die: opaque, smoky translucent, marbled, pearl or glitter; raises nothing."""
    material, shader = _principled(name, design.body, roughness=design.roughness)
    shader.inputs["Clearcoat"].default_value = 0.5
    scale = 1.0 / design.edge
    if design.material == "translucent":
        shader.inputs["Transmission"].default_value = 1.0
        shader.inputs["Roughness"].default_value = min(design.roughness, 0.15)
        shader.inputs["IOR"].default_value = 1.5
    elif design.material == "marbled":
        texture = _texture(material, "ShaderNodeTexWave", scale=0.4 * scale, distortion=8.0, detail=4.0)
        veins = tuple(0.6 * body + 0.4 * vein for body, vein in zip(design.body, design.second))
        _mixed(material, texture, design.body, veins, low=0.3, high=0.7)
    elif design.material == "pearl":
        texture = _texture(material, "ShaderNodeTexNoise", scale=0.6 * scale, detail=3.0)
        pale = tuple(0.5 + 0.5 * channel for channel in design.second)
        _mixed(material, texture, design.body, pale, low=0.35, high=0.75)
        shader.inputs["Sheen"].default_value = 1.0
        shader.inputs["Clearcoat"].default_value = 1.0
    elif design.material == "glitter":
        texture = _texture(material, "ShaderNodeTexVoronoi", scale=6.0 * scale)
        _mixed(material, texture, (1.0, 1.0, 1.0), design.body, low=0.05, high=0.12, output="Distance")
        shader.inputs["Metallic"].default_value = 0.4
    return material


def ink(colour: Colour, name: str) -> bpy.types.Material:
    """The paint in pips and numerals (gold is metallic); raises nothing."""
    material, shader = _principled(name, colour, roughness=0.45)
    if colour[0] > 0.7 and colour[2] < 0.2:
        shader.inputs["Metallic"].default_value = 1.0
        shader.inputs["Roughness"].default_value = 0.3
    return material


def ground(place: Surface, name: str) -> bpy.types.Material:
    """What the dice land on: felt, wood, white plastic, cloth, neoprene or a printed game board; raises nothing."""
    kind = place.kind
    roughness = {"plastic_tray": 0.25, "board": 0.45, "wood_box": 0.5, "wood_bowl": 0.35}.get(kind, 0.95)
    material, shader = _principled(name, place.colour, roughness=roughness)
    if kind in ("wood_box", "wood_bowl"):
        texture = _texture(material, "ShaderNodeTexWave", scale=25.0, distortion=6.0, detail=3.0)
        darker = tuple(0.55 * channel for channel in place.colour)
        _mixed(material, texture, place.colour, darker, low=0.2, high=0.9)
    elif kind == "board":
        texture = _texture(material, "ShaderNodeTexChecker", scale=12.0)
        _mixed(material, texture, place.colour, place.second, low=0.0, high=1.0)
    elif kind in ("hex_felt", "cloth", "neoprene"):
        _fibres(material, place)
    return material


def _fibres(material: bpy.types.Material, place: Surface) -> None:
    """Fine bumps and a soft sheen for felt, cloth and neoprene; raises nothing."""
    nodes, links = material.node_tree.nodes, material.node_tree.links
    texture = _texture(material, "ShaderNodeTexNoise", scale=900.0, detail=2.0)
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = 0.25
    links.new(texture.outputs["Fac"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], nodes["Principled BSDF"].inputs["Normal"])
    nodes["Principled BSDF"].inputs["Sheen"].default_value = 0.8 if place.kind != "neoprene" else 0.1
    if place.kind == "cloth":
        stripes = _texture(material, "ShaderNodeTexWave", scale=14.0, distortion=0.0)
        _mixed(material, stripes, place.colour, place.second, low=0.45, high=0.55)


def plain(colour: Colour, name: str, *, roughness: float = 0.6) -> bpy.types.Material:
    """A plain material (the table round the tray); raises nothing."""
    material, _ = _principled(name, colour, roughness=roughness)
    return material
