"""Photoreal labelled dice from Blender: a seeded scene generator (`make renders`).

The pure parts (faces, plan, tray, labels, finish) import without Blender and are unit-tested; the bpy
parts (looks, dice, stage, drop, render) run inside `blender -b -P scripts/render_dice/render.py -- ARGS`.
"""
