"""Renders a set of labelled dice frames with Blender's Cycles on the CPU, resuming where a stopped run left off.

    blender -b --python-exit-code 1 -P scripts/render_dice/render.py -- --out DIR --count N [--seed S] [--kind table|d8|low]

Frame N of a set is planned from seed S + N, so it is the same at every run; a finished frame (JPEG, then its
JSON record) is skipped on a rerun, and labels.csv and details.csv are rebuilt from the records.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import bpy
import numpy as np
from mathutils import Vector

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render_dice import drop, finish, labels, look_at, stage  # noqa: E402
from render_dice.dice import die_mesh  # noqa: E402
from render_dice.plan import KINDS, ScenePlan, scene_plan  # noqa: E402


def _arguments() -> argparse.Namespace:
    """The arguments after Blender's `--`; raises SystemExit on bad ones."""
    parser = argparse.ArgumentParser(prog="render.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the set's folder")
    parser.add_argument("--count", type=int, default=12, help="frames in the set")
    parser.add_argument("--first", type=int, default=0, help="the first frame's number")
    parser.add_argument("--seed", type=int, default=330000, help="the set's seed; frame N uses seed + N")
    parser.add_argument("--size", type=int, default=320, help="frame width and height in pixels")
    parser.add_argument("--samples", type=int, default=32, help="Cycles samples a pixel")
    parser.add_argument("--kind", choices=KINDS, default="table",
                        help="table: any dice; d8: a d8 close up, with a few others; low: a table seen from low down; "
                             "busy: a tray of 12 to 30 d6")
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    arguments = parser.parse_args(argv)
    if arguments.count < 1 or arguments.first < 0 or arguments.size < 32 or arguments.samples < 1:
        parser.error("count, size and samples must be positive and first not negative")
    return arguments


def _settings(size: int, samples: int, seed: int) -> None:
    """Cycles on the CPU at this size and sample count, no denoiser; raises nothing."""
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    cycles = scene.cycles
    cycles.device, cycles.samples, cycles.seed, cycles.use_denoising = "CPU", samples, seed, False
    cycles.max_bounces, cycles.diffuse_bounces, cycles.glossy_bounces = 8, 2, 3
    cycles.transmission_bounces, cycles.transparent_max_bounces = 8, 4
    cycles.caustics_reflective = cycles.caustics_refractive = False
    cycles.blur_glossy = 1.0
    scene.render.resolution_x = scene.render.resolution_y = size
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Standard"  # the EXR stays linear; _save_jpeg exposes it


def _quietly(action) -> None:
    """Runs an action with Blender's own chatter on stdout sent to /dev/null; raises what the action raises."""
    sys.stdout.flush()
    saved, sink = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    try:
        action()
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(sink)
        os.close(saved)


def _place_dice(plan: ScenePlan, poses: list) -> list[bpy.types.Object]:
    """The rendered dice at their resting poses, one shared mesh per design; raises nothing."""
    meshes = [die_mesh(design, f"design{index}") for index, design in enumerate(plan.designs)]
    dice = []
    for index, (drop_, pose) in enumerate(zip(plan.dice, poses)):
        die = bpy.data.objects.new(f"die{index}", meshes[drop_.design])
        die.matrix_world = pose
        bpy.context.scene.collection.objects.link(die)
        dice.append(die)
    return dice


def _save_jpeg(plan: ScenePlan, rendered: Path, final: Path) -> None:
    """Exposes the linear render (OpenEXR) as the plan says, adds its smear and noise and writes it as sRGB
    JPEG, atomically; raises OSError."""
    scene = bpy.context.scene
    image = bpy.data.images.load(str(rendered))
    width, height = image.size
    pixels = np.empty(width * height * 4, np.float32)
    image.pixels.foreach_get(pixels)
    picture = pixels.reshape(height, width, 4)
    colour = finish.exposed(picture[..., :3], key=plan.finish.key)
    colour = finish.smeared(colour, pixels=plan.finish.blur_pixels, angle=plan.finish.blur_angle)
    picture[..., :3] = finish.noisy(colour, sigma=plan.finish.noise / 2, seed=plan.seed)  # linear: shadows grow
    image.pixels.foreach_set(picture.ravel())
    image.update()
    scene.render.image_settings.file_format, scene.render.image_settings.quality = "JPEG", plan.finish.jpeg_quality
    partial = final.with_name(final.stem + ".partial.jpg")
    image.save_render(str(partial), scene=scene)
    os.replace(partial, final)
    bpy.data.images.remove(image)


def render_frame(folder: Path, number: int, arguments: argparse.Namespace) -> float:
    """Plans, drops, builds, renders and labels frame `number`; returns its seconds; raises RuntimeError or
    OSError when Blender or the disk fails."""
    started = time.monotonic()
    plan = scene_plan(arguments.seed + number, arguments.kind)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    poses = drop.settle(plan)
    stage.build_tray(plan.surface)
    dice = _place_dice(plan, poses)
    _settings(arguments.size, arguments.samples, plan.seed)  # the frame's shape first: projections use it
    target = sum((pose.translation for pose in poses), Vector()) / len(poses)
    edge = sum(plan.designs[item.design].edge for item in plan.dice) / len(plan.dice)
    camera = stage.place_camera(plan.camera, target, stage.distance_for(plan.camera, edge, arguments.size))
    distance = look_at.back_off(camera, target, dice)
    camera.data.dof.focus_distance = distance * (1.0 + plan.camera.focus_error)
    stage.add_light(plan.light, target)
    found = [look_at.die_label(die, plan.designs[item.design], camera, arguments.size)
             for die, item in zip(dice, plan.dice)]
    with tempfile.TemporaryDirectory() as scratch:
        rendered = Path(scratch) / "render.exr"
        bpy.context.scene.render.filepath = str(rendered)
        bpy.context.scene.render.image_settings.file_format = "OPEN_EXR"
        rendering = time.monotonic()
        _quietly(lambda: bpy.ops.render.render(write_still=True))
        rendering = time.monotonic() - rendering
        _save_jpeg(plan, rendered, folder / labels.frame_name(number))
    seconds = time.monotonic() - started
    details = plan.as_dict() | {"kind": arguments.kind, "camera_distance": round(distance, 4), "size": arguments.size,
                                "samples": arguments.samples,
                                "render_seconds": round(rendering, 2)}
    labels.save_record(folder, number, found, details, seconds)
    return seconds


def main() -> int:
    """Renders the missing frames of the set, printing progress; returns 0; raises OSError when the disk fails."""
    arguments = _arguments()
    folder = arguments.out.expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    numbers = range(arguments.first, arguments.first + arguments.count)
    missing = [number for number in numbers if not labels.is_done(folder, number)]
    print(f"render_dice: {len(numbers) - len(missing)} of {len(numbers)} frames already in {folder}", flush=True)
    timings: list[float] = []
    for done, number in enumerate(missing, start=1):
        timings.append(render_frame(folder, number, arguments))
        left = statistics.median(timings) * (len(missing) - done) / 60
        print(f"render_dice: frame {number} in {timings[-1]:.1f} s ({done}/{len(missing)}, "
              f"median {statistics.median(timings):.1f} s, about {left:.0f} min left)", flush=True)
        if done % 20 == 0:
            labels.rebuild_tables(folder)
    total = labels.rebuild_tables(folder)
    print(f"render_dice: {total} frames labelled in {folder / labels.LABELS}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
