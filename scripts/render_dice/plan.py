"""A seeded random table scene as plain data: the dice, where they land, the light, the camera, the finish.

No Blender here: the same seed always gives the same plan, which the Blender side builds and renders.
Lengths are in metres, angles in degrees, colours linear RGB in 0..1.
"""
from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field, replace

Colour = tuple[float, float, float]

MATERIALS = ("opaque", "opaque", "opaque", "translucent", "marbled", "pearl", "glitter")
SURFACES = ("hex_felt", "wood_box", "wood_bowl", "plastic_tray", "cloth", "neoprene", "board")
LIGHTS = ("window_sun", "desk_lamp", "overhead")
ONE_MARKS = ("pip", "pip", "pip", "big_pip", "star", "diamond")  # an emblem or logo on the 1
KINDS = ("table", "d8", "low", "busy")  # the kinds of frame a set may hold (scene_plan)
LOW_TILT = (50.0, 75.0)  # a "low" frame's camera: a phone held by a seated player, degrees from straight down
BUSY_COUNTS = (12, 15, 18, 20, 24, 24, 30)  # a "busy" frame's dice: a whole tray of them, as many groups roll
WALLED = {"hex_felt": 6, "wood_box": 4, "wood_bowl": 20, "plastic_tray": 4}  # sides of the tray's wall


@dataclass(frozen=True)
class DieDesign:
    """How one kind of die in the scene looks: shape, size, body, marks."""

    sides: int
    edge: float  # d6: edge length; d8: distance between opposite vertices
    material: str
    body: Colour
    second: Colour  # veins of marble, sheen of pearl, flakes of glitter
    ink: Colour
    marks: str  # drilled or printed pips, or numerals
    pip_share: float  # pip diameter as a share of the edge
    one_mark: str
    rounding: float  # bevel width as a share of the edge
    roughness: float


@dataclass(frozen=True)
class DieDrop:
    """Where one die starts before it falls: its design, position and turn."""

    design: int
    start: tuple[float, float, float]
    turn: tuple[float, float, float]  # Euler XYZ, degrees
    lean: float = 0.0  # degrees a die set against the tray's wall leans on it (0: dropped)
    wall: float = 0.0  # direction of that wall from the tray's centre, degrees


@dataclass(frozen=True)
class Surface:
    """What the dice land on and the table around it."""

    kind: str
    walls: int  # sides of the wall; 0 for none
    radius: float
    wall_height: float
    colour: Colour
    second: Colour
    table: Colour


@dataclass(frozen=True)
class Light:
    """The main light and the ambient light of the room."""

    kind: str
    elevation: float
    azimuth: float
    strength: float
    size: float  # sun: angle in degrees; lamps: radius in metres
    colour: Colour
    ambient: float


@dataclass(frozen=True)
class CameraView:
    """The camera: tilt from straight down, direction, lens, the die size it aims for, focus."""

    tilt: float
    azimuth: float
    focal_mm: float
    die_pixels: float
    f_stop: float
    focus_error: float  # a share of the distance


@dataclass(frozen=True)
class Finish:
    """What the camera adds after the lens: motion blur, sensor noise, JPEG."""

    blur_pixels: float
    blur_angle: float
    noise: float  # standard deviation on 0..255
    jpeg_quality: int
    key: float  # the frame's median brightness (linear) after the camera's auto exposure


@dataclass(frozen=True)
class ScenePlan:
    """Everything random about one frame."""

    seed: int
    designs: tuple[DieDesign, ...]
    dice: tuple[DieDrop, ...]
    surface: Surface
    light: Light
    camera: CameraView
    finish: Finish
    notes: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """The plan as JSON-ready data; raises nothing."""
        return asdict(self)


def _colour(rng: random.Random, *, low: float = 0.0, high: float = 1.0) -> Colour:
    """A random colour with each channel in low..high; raises nothing."""
    return (rng.uniform(low, high), rng.uniform(low, high), rng.uniform(low, high))


def _ink(rng: random.Random, body: Colour) -> Colour:
    """A mark colour that stands out from the body: white or black mostly, gold or red sometimes; raises nothing."""
    bright = sum(body) / 3
    choice = rng.random()
    if choice < 0.15:
        return (0.8, 0.55, 0.12)  # gold
    if choice < 0.25 and bright > 0.5:
        return (0.6, 0.02, 0.02)
    return (0.02, 0.02, 0.02) if bright > 0.45 else (0.9, 0.9, 0.88)


def die_design(rng: random.Random, sides: int | None = None) -> DieDesign:
    """A random die design, a d6 or d8 as given or by chance (one in five a d8); raises nothing."""
    sides = sides or (8 if rng.random() < 0.2 else 6)
    material = rng.choice(MATERIALS)
    body = _colour(rng) if rng.random() < 0.6 else (rng.choice([(0.85, 0.85, 0.82), (0.02, 0.02, 0.02)]))
    if material == "translucent":
        body = _colour(rng, low=0.05, high=0.9)
    marks = "numerals" if sides == 8 or rng.random() < 0.08 else rng.choice(("drilled", "drilled", "printed"))
    edge = rng.choice((0.012, 0.014, 0.016, 0.016, 0.019, 0.022)) if sides == 6 else rng.uniform(0.016, 0.022)
    return DieDesign(
        sides=sides, edge=edge, material=material, body=body, second=_colour(rng), ink=_ink(rng, body),
        marks=marks, pip_share=rng.uniform(0.15, 0.22), one_mark=rng.choice(ONE_MARKS),
        rounding=rng.uniform(0.06, 0.15) if sides == 6 else rng.uniform(0.02, 0.06),
        roughness=rng.uniform(0.05, 0.5))


def surface(rng: random.Random) -> Surface:
    """A random place for the dice to land; raises nothing."""
    kind = rng.choice(SURFACES)
    walls = WALLED.get(kind, 0)
    colours = {"hex_felt": _colour(rng, high=0.5), "wood_box": (0.35, 0.18, 0.07), "wood_bowl": (0.4, 0.22, 0.1),
               "plastic_tray": (0.85, 0.85, 0.85), "cloth": _colour(rng), "neoprene": _colour(rng, high=0.15),
               "board": _colour(rng, low=0.3)}
    return Surface(kind=kind, walls=walls, radius=rng.uniform(0.08, 0.16), wall_height=rng.uniform(0.02, 0.045),
                   colour=colours[kind], second=_colour(rng), table=_colour(rng, low=0.1, high=0.7))


def light(rng: random.Random) -> Light:
    """A random main light; raises nothing."""
    kind = rng.choice(LIGHTS)
    if kind == "window_sun":
        return Light(kind, rng.uniform(12, 40), rng.uniform(0, 360), rng.uniform(2.5, 6), rng.uniform(0.3, 3),
                     (1.0, rng.uniform(0.85, 0.97), rng.uniform(0.7, 0.9)), rng.uniform(0.15, 0.5))
    if kind == "desk_lamp":
        return Light(kind, rng.uniform(35, 75), rng.uniform(0, 360), rng.uniform(8, 30), rng.uniform(0.005, 0.03),
                     (1.0, rng.uniform(0.75, 0.95), rng.uniform(0.5, 0.8)), rng.uniform(0.05, 0.3))
    return Light(kind, rng.uniform(75, 90), rng.uniform(0, 360), rng.uniform(15, 50), rng.uniform(0.05, 0.3),
                 (1.0, 1.0, rng.uniform(0.9, 1.0)), rng.uniform(0.2, 0.6))


def camera(rng: random.Random, smallest: float = 20.0, low: bool = False) -> CameraView:
    """A random camera from straight down to 50 degrees oblique (`low`: LOW_TILT), aiming at dice `smallest` to 120
    pixels (log-uniform); raises nothing."""
    tilt = rng.uniform(*LOW_TILT) if low else rng.choice((0.0, rng.uniform(0, 20), rng.uniform(0, 50)))
    return CameraView(tilt=tilt, azimuth=rng.uniform(0, 360),
                      focal_mm=rng.uniform(20, 60), die_pixels=smallest * (120.0 / smallest) ** rng.random(),
                      f_stop=rng.choice((2.0, 4.0, 8.0, 16.0, 32.0)), focus_error=rng.uniform(-0.08, 0.08))


def finish(rng: random.Random) -> Finish:
    """A random camera finish: mostly sharp, sometimes smeared, always JPEG; raises nothing."""
    blur = rng.uniform(1, 5) if rng.random() < 0.25 else 0.0
    return Finish(blur_pixels=blur, blur_angle=rng.uniform(0, 180), noise=rng.uniform(0, 6),
                  jpeg_quality=rng.randint(55, 95), key=rng.uniform(0.1, 0.3))


def drops(rng: random.Random, designs: tuple[DieDesign, ...], place: Surface,
          counts: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10)) -> tuple[DieDrop, ...]:
    """Where each die starts: one handful of one of `counts` dice, dropped in a heap or spread; raises nothing."""
    count = rng.choice(counts)
    heap = rng.random() < 0.5
    spread = place.radius * (0.25 if heap else 0.6)
    middle = (rng.uniform(-0.3, 0.3) * place.radius, rng.uniform(-0.3, 0.3) * place.radius)
    dice = []
    for index in range(count):
        height = 0.03 + 0.035 * index + rng.uniform(0.0, 0.02)  # one above another: no die starts inside another
        start = (middle[0] + rng.uniform(-spread, spread), middle[1] + rng.uniform(-spread, spread), height)
        turn = (rng.uniform(0, 360), rng.uniform(0, 360), rng.uniform(0, 360))
        dice.append(DieDrop(design=rng.randrange(len(designs)), start=start, turn=turn))
    upright = place.walls and place.kind != "wood_bowl"  # a bowl's wall leans outward: nothing to lean on
    if upright and designs[dice[0].design].sides == 6 and rng.random() < 0.3:
        dice[0] = leaning(rng, designs[dice[0].design], dice[0].design, place)
    return tuple(dice)


def gathered(rng: random.Random, designs: tuple[DieDesign, ...], place: Surface,
             count: int) -> tuple[Surface, tuple[DieDrop, ...]]:
    """A tray after the players pushed its dice together: rows of flat dice a few millimetres apart or touching,
    each a little turned, and one to three more dropped on top of them; returns the tray (widened to hold them)
    and the dice; raises nothing."""
    on_top = rng.randint(1, 3)
    columns = math.ceil(math.sqrt(count - on_top))
    edge = max(design.edge for design in designs)
    pitch = edge * 1.3  # each die moved up to 0.08 edges each way: neighbours 1.14 to 1.46 edges apart, and a die
    # turned 8 degrees spans 1.13 edges, so none starts inside another and many all but touch
    half = (columns - 1) * pitch / 2
    rows = _in_rows(rng, designs, count - on_top, columns, pitch)
    dropped = [DieDrop(start=(rng.uniform(-half, half), rng.uniform(-half, half), 0.05 + 0.035 * index),
                       design=rng.randrange(len(designs)),  # onto the others: they lean, lie cocked or tumble off
                       turn=(rng.uniform(0, 360), rng.uniform(0, 360), rng.uniform(0, 360))) for index in range(on_top)]
    needed = (half + 2 * pitch) * math.sqrt(2) * 1.1
    return replace(place, radius=max(place.radius, needed)), (*rows, *dropped)


def _in_rows(rng: random.Random, designs: tuple[DieDesign, ...], count: int, columns: int,
             pitch: float) -> list[DieDrop]:
    """`count` dice lying flat in rows `pitch` apart (each moved up to 0.08 edges and turned up to 8 degrees), the
    rows turned any way round the tray's middle; raises nothing."""
    edge = max(design.edge for design in designs)
    heading = math.radians(rng.uniform(0, 90))
    along, across = (math.cos(heading), math.sin(heading)), (-math.sin(heading), math.cos(heading))
    half = (columns - 1) * pitch / 2
    dice = []
    for index in range(count):
        row, column = divmod(index, columns)
        u = column * pitch - half + rng.uniform(-0.08, 0.08) * edge
        v = row * pitch - half + rng.uniform(-0.08, 0.08) * edge
        design = rng.randrange(len(designs))
        start = (u * along[0] + v * across[0], u * along[1] + v * across[1], designs[design].edge / 2 + 0.0005)
        turn = (90.0 * rng.randrange(4), 90.0 * rng.randrange(4), math.degrees(heading) + rng.uniform(-8, 8))
        dice.append(DieDrop(design=design, start=start, turn=turn))
    return dice


def leaning(rng: random.Random, design: DieDesign, index: int, place: Surface) -> DieDrop:
    """A d6 set down against one of the tray's walls, its bottom edge on the floor, leaning on the wall;
    raises nothing."""
    wall = (rng.randrange(place.walls) + 0.5) * 360.0 / place.walls
    tilt = rng.uniform(34.0, 43.0)  # flatter than this, the floor's friction cannot hold it against the wall
    lean, edge = math.radians(tilt), design.edge
    out = place.radius - edge * math.cos(lean) + edge / 2 * (math.cos(lean) - math.sin(lean)) - 0.0001
    height = edge / 2 * (math.sin(lean) + math.cos(lean)) + 0.0005
    start = (out * math.cos(math.radians(wall)), out * math.sin(math.radians(wall)), height)
    turn = (90.0 * rng.randrange(4), 90.0 * rng.randrange(4), 90.0 * rng.randrange(4))
    return DieDrop(design=index, start=start, turn=turn, lean=tilt, wall=wall)


def scene_plan(seed: int, kind: str = "table") -> ScenePlan:
    """The plan of the frame with this seed and kind; the same seed and kind always give the same plan; raises
    ValueError for a kind not in KINDS.

    "table": any dice, 20 to 120 pixels. "d8": a d8 close up (40 to 120 pixels), alone or with a few other dice,
    so its numerals are big enough to learn. "low": a table frame seen from low down, as by a phone at the table,
    where each die shows its sides as well as its top face. "busy": a tray of 12 to 30 d6 of one or two sets,
    dropped together, or pushed together so that many touch with a few dropped on top of them."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of frame {kind!r}; expected one of {', '.join(KINDS)}")
    rng = random.Random(seed)
    if kind == "d8":
        designs = (die_design(rng, sides=8),) + tuple(die_design(rng) for _ in range(rng.choice((0, 0, 1))))
        place = surface(rng)
        return ScenePlan(seed=seed, designs=designs, dice=drops(rng, designs, place, (1, 1, 2, 2, 3)), surface=place,
                         light=light(rng), camera=camera(rng, smallest=40.0), finish=finish(rng))
    if kind == "busy":
        designs = tuple(die_design(rng, sides=6) for _ in range(rng.choice((1, 1, 2))))
        place = surface(rng)
        if rng.random() < 0.5:
            place, dice = gathered(rng, designs, place, rng.choice(BUSY_COUNTS))
        else:
            dice = drops(rng, designs, place, BUSY_COUNTS)
        return ScenePlan(seed=seed, designs=designs, dice=dice, surface=place, light=light(rng), camera=camera(rng),
                         finish=finish(rng))
    designs = tuple(die_design(rng) for _ in range(rng.choice((1, 1, 2, 3))))
    place = surface(rng)
    return ScenePlan(seed=seed, designs=designs, dice=drops(rng, designs, place), surface=place, light=light(rng),
                     camera=camera(rng, low=kind == "low"), finish=finish(rng))
