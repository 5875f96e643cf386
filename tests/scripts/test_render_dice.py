"""The Blender scene generator's pure parts (scripts/render_dice), without Blender: faces, plans, labels."""
from __future__ import annotations

import csv
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def render_dice(monkeypatch):
    """The package, imported from scripts/ as Blender's script does."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    import render_dice.faces
    import render_dice.finish
    import render_dice.labels
    import render_dice.plan
    import render_dice.tray
    return render_dice


def _turn(axis: str, degrees: float) -> list[list[float]]:
    """A rotation matrix (rows) about one axis."""
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return {"x": [[1, 0, 0], [0, cos, -sin], [0, sin, cos]],
            "y": [[cos, 0, sin], [0, 1, 0], [-sin, 0, cos]],
            "z": [[cos, -sin, 0], [sin, cos, 0], [0, 0, 1]]}[axis]


def _dot(first, second):
    return sum(a * b for a, b in zip(first, second))


@pytest.mark.parametrize("sides,total", [(6, 7), (8, 9)])
def test_opposite_faces_sum_to_sides_plus_one(render_dice, sides, total):
    faces = render_dice.faces.FACES_BY_SIDES[sides]
    assert sorted(face.value for face in faces) == list(range(1, sides + 1))
    for face in faces:
        opposite = [other for other in faces if _dot(other.normal, face.normal) < -0.999]
        assert [other.value for other in opposite] == [total - face.value]
        assert abs(_dot(face.normal, face.up)) < 1e-9 and abs(_dot(face.up, face.up) - 1) < 1e-9


def test_d6_one_two_three_run_counter_clockwise(render_dice):
    by_value = {face.value: face.normal for face in render_dice.faces.D6_FACES}
    one, two, three = by_value[1], by_value[2], by_value[3]
    cross = (one[1] * two[2] - one[2] * two[1], one[2] * two[0] - one[0] * two[2], one[0] * two[1] - one[1] * two[0])
    assert _dot(cross, three) > 0  # 1 -> 2 -> 3 counter-clockwise seen from outside their corner


@pytest.mark.parametrize("sides", [6, 8])
def test_each_face_turned_up_is_read_level(render_dice, sides):
    faces = render_dice.faces
    for face in faces.FACES_BY_SIDES[sides]:
        rotation = faces.rotation_between(face.normal, face.up)
        top, tilt = faces.top_face(rotation, faces.FACES_BY_SIDES[sides])
        assert top.value == face.value and tilt < 1e-6 and not faces.is_cocked(tilt)


def test_quarter_turns_of_a_d6_bring_up_the_side_faces(render_dice):
    faces = render_dice.faces
    # -90 degrees about Y brings +X (2) up; +90 about X brings +Y (3) up, -90 brings -Y (4) up
    assert faces.top_face(_turn("y", -90), faces.D6_FACES)[0].value == 2
    assert faces.top_face(_turn("y", 90), faces.D6_FACES)[0].value == 5
    assert faces.top_face(_turn("x", 90), faces.D6_FACES)[0].value == 3
    assert faces.top_face(_turn("x", -90), faces.D6_FACES)[0].value == 4
    assert faces.top_face(_turn("x", 180), faces.D6_FACES)[0].value == 6
    value, tilt = faces.top_face(_turn("x", 25), faces.D6_FACES)
    assert value.value == 1 and abs(tilt - 25) < 1e-9 and faces.is_cocked(tilt)


def test_d8_face_normals_from_its_vertices_match_the_table(render_dice):
    faces = render_dice.faces
    vertices = [tuple(sign * (1.0 if axis == which else 0.0) for axis in range(3))
                for which in range(3) for sign in (1, -1)]
    polygons, values = [], []
    for signs in itertools.product((1, -1), repeat=3):
        polygons.append([2 * which + (0 if signs[which] > 0 else 1) for which in range(3)])  # its 3 corners
        normal = tuple(sign / math.sqrt(3) for sign in signs)
        values.append(next(face.value for face in faces.D8_FACES if _dot(face.normal, normal) > 0.999))
    built = faces.faces_from_vertices(vertices, polygons, values)
    turn = _turn("z", 30)
    for face in built:
        expected = next(other for other in faces.D8_FACES if other.value == face.value)
        assert _dot(face.normal, expected.normal) > 0.999
    assert faces.top_face(turn, built)[0].value == faces.top_face(turn, faces.D8_FACES)[0].value


def test_face_corners_lie_on_their_face(render_dice):
    faces = render_dice.faces
    for sides, distance in ((6, 0.5), (8, 0.5 / math.sqrt(3))):
        for face in faces.FACES_BY_SIDES[sides]:
            corners = faces.face_corners(sides, 1.0, face)
            assert len(corners) == (4 if sides == 6 else 3)
            assert all(abs(_dot(corner, face.normal) - distance) < 1e-9 for corner in corners)
    with pytest.raises(ValueError, match="d20"):
        faces.face_corners(20, 1.0, faces.D6_FACES[0])


def test_a_plan_is_the_same_for_the_same_seed_and_varies_with_it(render_dice):
    plan = render_dice.plan
    assert plan.scene_plan(41).as_dict() == plan.scene_plan(41).as_dict()
    plans = [plan.scene_plan(seed) for seed in range(300)]
    assert len({json.dumps(item.as_dict(), sort_keys=True) for item in plans}) == 300
    assert {item.surface.kind for item in plans} == set(plan.SURFACES)
    assert {item.light.kind for item in plans} == set(plan.LIGHTS)
    designs = [design for item in plans for design in item.designs]
    assert {design.sides for design in designs} == {6, 8}
    assert {design.material for design in designs} == set(plan.MATERIALS)
    assert all(design.marks == "numerals" for design in designs if design.sides == 8)
    assert all(0 <= item.camera.tilt <= 50 and 20 <= item.camera.die_pixels <= 120 for item in plans)
    assert all(all(0 <= drop.design < len(item.designs) for drop in item.dice) for item in plans)


def test_dice_start_one_above_another(render_dice):
    for seed in range(100):
        heights = [drop.start[2] for drop in render_dice.plan.scene_plan(seed).dice]
        assert all(upper - lower > 0.015 for lower, upper in zip(heights, heights[1:]))


def test_tray_walls_surround_the_floor(render_dice):
    plan, tray = render_dice.plan, render_dice.tray
    place = plan.Surface("hex_felt", 6, 0.1, 0.03, (0.1, 0.3, 0.1), (0, 0, 0), (0.5, 0.5, 0.5))
    blocks = tray.walls(place)
    assert len(blocks) == 6
    assert all(abs(math.hypot(block.centre[0], block.centre[1]) - 0.1 - tray.WALL_THICKNESS / 2) < 1e-9
               for block in blocks)
    assert tray.walls(plan.Surface("cloth", 0, 0.1, 0.03, (0, 0, 0), (0, 0, 0), (0, 0, 0))) == []
    with pytest.raises(ValueError, match="3 sides"):
        tray.walls(plan.Surface("hex_felt", 2, 0.1, 0.03, (0, 0, 0), (0, 0, 0), (0, 0, 0)))


def test_box_of_projected_points_is_clipped_to_the_frame(render_dice):
    labels = render_dice.labels
    assert labels.box_of([(10.2, 20.0), (30.0, 41.0), (12.0, 25.0)], 320, 320) == (10, 20, 20, 21)
    assert labels.box_of([(-5.0, 300.0), (10.0, 330.0)], 320, 320) == (0, 300, 10, 20)
    assert labels.box_of([(400.0, 10.0), (410.0, 20.0)], 320, 320) is None
    assert labels.box_of([], 320, 320) is None
    assert labels.pixel_of((0.25, 0.75), 320, 320) == (80.0, 80.0)


def _die(render_dice, value, box, *, seen=1.0, cocked=False, sides=6):
    return render_dice.labels.DieLabel(sides=sides, value=value, tilt=20.0 if cocked else 0.0, cocked=cocked,
                                       box=box, seen=seen)


def test_label_rows_keep_seen_dice_in_reading_order(render_dice):
    labels = render_dice.labels
    dice = [_die(render_dice, 5, (100, 100, 20, 20)), _die(render_dice, 3, (10, 10, 20, 20), cocked=True),
            _die(render_dice, 2, (50, 12, 20, 20), sides=8), _die(render_dice, 6, (200, 5, 20, 20), seen=0.2)]
    assert labels.labels_row("f.jpg", dice) == ["f.jpg", "3 2 5", "10,10,20,20;50,12,20,20;100,100,20,20"]
    row = labels.details_row("f.jpg", dice, {"seed": 4})
    assert row[:4] == ["f.jpg", "6 8 6", "1 0 0", "20.0 0.0 0.0"] and json.loads(row[4]) == {"seed": 4}


def test_tables_are_rebuilt_from_finished_frames_only(render_dice, tmp_path):
    labels = render_dice.labels
    for number in (0, 1, 2):
        (tmp_path / labels.frame_name(number)).write_bytes(b"jpeg")
        labels.save_record(tmp_path, number, [_die(render_dice, number + 1, (number, 0, 9, 9))], {"n": number}, 1.0)
    (tmp_path / labels.frame_name(1)).unlink()  # a frame lost after its record: not labelled
    (tmp_path / labels.frame_name(3)).write_bytes(b"jpeg")  # a frame stopped before its record: not done
    assert labels.rebuild_tables(tmp_path) == 2
    assert [labels.is_done(tmp_path, number) for number in range(4)] == [True, False, True, False]
    with open(tmp_path / labels.LABELS) as handle:
        rows = list(csv.DictReader(handle))
    assert rows == [{"file": "frame_000000.jpg", "dice": "1", "boxes": "0,0,9,9"},
                    {"file": "frame_000002.jpg", "dice": "3", "boxes": "2,0,9,9"}]
    with open(tmp_path / labels.DETAILS) as handle:
        assert [row["sides"] for row in csv.DictReader(handle)] == ["6", "6"]
    assert not list(tmp_path.glob("*.partial"))
    with pytest.raises(ValueError, match="negative"):
        labels.frame_name(-1)


def test_finish_smears_and_adds_seeded_noise_without_touching_the_input(render_dice):
    finish = render_dice.finish
    image = np.zeros((20, 20, 3), np.float32)
    image[10, 10] = 1.0
    smeared = finish.smeared(image, pixels=4, angle=0)
    assert image[10, 10, 0] == 1.0 and smeared[10, 10, 0] < 0.5 and smeared[10, 8, 0] > 0
    assert smeared[8, 10, 0] == 0  # along the row only
    assert abs(float(smeared.sum()) - float(image.sum())) < 1e-4
    grainy = finish.noisy(image, sigma=5, seed=3)
    assert np.array_equal(grainy, finish.noisy(image, sigma=5, seed=3))
    assert 0 <= grainy.min() and grainy.max() <= 1 and grainy.std() > 0.005 and image.std() < 0.05
    with pytest.raises(ValueError):
        finish.smeared(image, pixels=-1, angle=0)


def test_auto_exposure_brings_the_median_to_the_key_and_keeps_highlights_below_one(render_dice):
    finish = render_dice.finish
    image = np.full((10, 10, 3), 0.02, np.float32)
    image[0, 0] = 40.0  # a glint off a glossy die
    exposed = finish.exposed(image, key=0.2)
    assert abs(float(np.median(exposed)) - 0.2) < 1e-4
    assert 0.95 < exposed[0, 0, 0] <= 1.0 and image[1, 1, 0] == np.float32(0.02)
    with pytest.raises(ValueError, match="between 0 and 1"):
        finish.exposed(image, key=1.5)


def test_a_die_set_against_a_wall_touches_it_and_the_floor(render_dice):
    plan = render_dice.plan
    import random
    design = plan.die_design(random.Random(3))
    place = plan.Surface("wood_box", 4, 0.1, 0.03, (0.3, 0.2, 0.1), (0, 0, 0), (0.5, 0.5, 0.5))
    drop = plan.leaning(random.Random(5), design, 0, place)
    lean, edge = math.radians(drop.lean), design.edge
    out = math.hypot(drop.start[0], drop.start[1])
    # in the wall's cross-section the die is a square tipped by `lean`: its nearest corner at the wall
    assert abs(out + edge / 2 * (math.cos(lean) + math.sin(lean)) - place.radius) < 0.0005
    assert abs(drop.start[2] - edge / 2 * (math.sin(lean) + math.cos(lean))) < 0.001
    assert 34 <= drop.lean <= 43 and all(angle % 90 == 0 for angle in drop.turn)
    assert any(item.dice[0].lean for item in map(plan.scene_plan, range(200)))


def test_a_d8_frame_holds_a_d8_close_up_and_the_table_frames_are_as_before(render_dice):
    plan = render_dice.plan
    assert plan.scene_plan(41).as_dict() == plan.scene_plan(41, "table").as_dict()
    d8_plans = [plan.scene_plan(seed, "d8") for seed in range(200)]
    assert all(item.designs[0].sides == 8 and item.designs[0].marks == "numerals" for item in d8_plans)
    assert all(40 <= item.camera.die_pixels <= 120 and len(item.dice) <= 3 for item in d8_plans)
    assert any(any(design.sides == 6 for design in item.designs) for item in d8_plans)  # a d6 beside it, sometimes
    assert plan.scene_plan(7, "d8").as_dict() == plan.scene_plan(7, "d8").as_dict()
    with pytest.raises(ValueError, match="unknown kind"):
        plan.scene_plan(7, "d20")


def test_a_low_frame_is_a_table_frame_seen_from_low_down(render_dice):
    plan = render_dice.plan
    low_plans = [plan.scene_plan(seed, "low") for seed in range(200)]
    assert all(plan.LOW_TILT[0] <= item.camera.tilt <= plan.LOW_TILT[1] for item in low_plans)
    assert min(item.camera.tilt for item in low_plans) > 50 > max(plan.scene_plan(seed).camera.tilt for seed in range(200))
    table = plan.scene_plan(7).as_dict()
    low = plan.scene_plan(7, "low").as_dict()
    assert low["camera"]["tilt"] != table["camera"]["tilt"]
    assert all(low[part] == table[part] for part in ("designs", "dice", "surface", "light"))


def test_a_busy_frame_is_a_tray_of_many_d6_of_one_or_two_sets(render_dice):
    plan = render_dice.plan
    busy_plans = [plan.scene_plan(seed, "busy") for seed in range(200)]
    assert all(len(item.dice) in plan.BUSY_COUNTS and len(item.dice) >= 12 for item in busy_plans)
    assert all(1 <= len(item.designs) <= 2 and all(design.sides == 6 for design in item.designs) for item in busy_plans)
    assert {len(item.designs) for item in busy_plans} == {1, 2}
    assert all(item.camera.tilt <= 50 for item in busy_plans)  # the box's camera, not a phone held low
    assert plan.scene_plan(7, "busy").as_dict() == plan.scene_plan(7, "busy").as_dict()
    assert plan.scene_plan(41).as_dict() == plan.scene_plan(41, "table").as_dict()


def test_gathered_dice_start_apart_flat_and_inside_their_tray(render_dice):
    plan = render_dice.plan
    rng = __import__("random").Random(5)
    designs = (plan.die_design(rng, sides=6), plan.die_design(rng, sides=6))
    for count in (12, 24, 30):
        place, dice = plan.gathered(rng, designs, plan.surface(rng), count)
        flat = [die for die in dice if die.start[2] < 0.03]
        assert len(dice) == count and 1 <= count - len(flat) <= 3  # one to three dropped on top
        edge = max(design.edge for design in designs)
        for first, second in itertools.combinations(flat, 2):
            assert math.dist(first.start[:2], second.start[:2]) >= edge * 1.13  # 8 degrees turned: never inside
        assert all(math.hypot(*die.start[:2]) + edge < place.radius for die in dice)
        assert all(angle % 90 == 0 for die in flat for angle in die.turn[:2])  # a face flat up
