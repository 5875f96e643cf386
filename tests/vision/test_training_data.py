"""Training labels: each die's face centre and side as the dice reader is taught them (no PyTorch needed)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.reader import shipped_reader
from vision.scoring import load_folder

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(monkeypatch: pytest.MonkeyPatch):
    """The training data module, imported from scripts/ as the training script does."""
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training import data as module

    return module


def _folder(root: Path, name: str, rows: list[str]) -> None:
    """Writes a labelled folder: a blank 64x64 photo per row and labels.csv."""
    folder = root / name
    folder.mkdir(parents=True)
    for row in rows:
        cv2.imwrite(str(folder / row.split(",")[0]), np.zeros((64, 64, 3), np.uint8))
    (folder / "labels.csv").write_text("file,dice,boxes\n" + "\n".join(rows) + "\n")


def _photos(data, tmp_path: Path) -> dict:
    """Returns the loaded training photos by name, from a made-up nell and matteop folder (m1, m6 and m11 are
    shot far enough apart to fall in different groups of the dev/check split)."""
    _folder(tmp_path, "nell-byler-d6", ['n1.jpg,3 1,"0,0,30,34;40,40,20,20"'])
    _folder(
        tmp_path,
        "matteop65-webcam-d6",
        [
            'm1.jpg,1 5 5,"10,10,12,12;30,30,30,30;0,0,36,36"',  # a lone pip among 5s of face 40 and 48
            'm6.jpg,1 1,"10,10,12,12;20,20,60,60"',  # only 1s: a pip box and a face-sized box
            'm11.jpg,6,"0,0,15,60"',
        ],
    )
    return {photo.name: photo for photo in data.load_photos(tmp_path, "all")}


def test_whole_die_boxes_give_the_face_side(data, tmp_path: Path) -> None:
    dice = _photos(data, tmp_path)["n1.jpg"].dice
    assert [(die.x, die.y, die.face, die.value) for die in dice] == [(15, 17, 32, 3), (50, 50, 20, 1)]


def test_a_pip_pattern_spans_three_quarters_of_the_face(data, tmp_path: Path) -> None:
    photos = _photos(data, tmp_path)
    assert [die.face for die in photos["m1.jpg"].dice][1:] == [pytest.approx(40), pytest.approx(48)]
    assert photos["m11.jpg"].dice[0].face == pytest.approx(80)  # the longer side of the pattern counts


def test_a_one_takes_the_face_of_the_other_dice_in_its_photo(data, tmp_path: Path) -> None:
    lone_pip = _photos(data, tmp_path)["m1.jpg"].dice[0]
    assert (lone_pip.x, lone_pip.y, lone_pip.value) == (16, 16, 1)
    assert lone_pip.face == pytest.approx(44)  # the median of 40 and 48, not 12 / some share


def test_ones_alone_take_the_folders_usual_face_but_never_less_than_their_box(data, tmp_path: Path) -> None:
    small, big = _photos(data, tmp_path)["m6.jpg"].dice
    usual = float(np.median([40, 48, 44, 80]))  # every matteop die whose face is known or taken from its photo
    assert small.face == pytest.approx(usual)
    assert big.face == pytest.approx(max(usual, 60))


def test_the_dev_and_check_halves_split_the_photos_between_them(data, tmp_path: Path) -> None:
    every = set(_photos(data, tmp_path))
    dev = {photo.name for photo in data.load_photos(tmp_path, "dev")}
    check = {photo.name for photo in data.load_photos(tmp_path, "check")}
    assert dev and check and not dev & check and dev | check == every


def test_a_crop_sources_die_is_at_the_crops_centre_and_teaches_no_finder(data, tmp_path: Path) -> None:
    _folder(tmp_path, "chase-casino-d6-crops", ["c1.jpg,5,"])
    _folder(tmp_path, "tomitomi3-gray-d6", ["t1.png,2,"])
    photos = {photo.name: photo for photo in
              data.load_photos(tmp_path, "all", ("chase-casino-d6-crops", "tomitomi3-gray-d6"))}
    casino, roller = photos["c1.jpg"], photos["t1.png"]
    assert [(die.x, die.y, die.value) for die in casino.dice + roller.dice] == [(32, 32, 5), (32, 32, 2)]
    assert casino.dice[0].face == pytest.approx(0.85 * 64) and roller.dice[0].face == pytest.approx(0.53 * 64)
    assert not casino.scene and not roller.scene and casino.source == "chase-casino-d6-crops"


def test_a_crop_labelled_with_two_dice_is_refused(data, tmp_path: Path) -> None:
    _folder(tmp_path, "chase-casino-d6-crops", ["c1.jpg,5 6,"])
    with pytest.raises(ValueError, match="labelled with 2 dice"):
        data.load_photos(tmp_path, "all", ("chase-casino-d6-crops",))


def test_only_skovys_frames_are_scenes_to_learn_from_and_a_photo_of_no_die_is_left_out(data, tmp_path: Path) -> None:
    _folder(tmp_path, "skovy-webcam-d6", ['frame_a.jpg,2,"10,10,20,20"', "crop_a-die-0.jpg,2,"])
    _folder(tmp_path, "aws-vegas-d6", ['empty.jpg,,', 'dice.jpg,4,"5,5,30,30"'])
    names = {photo.name for photo in data.load_photos(tmp_path, "all", ("skovy-webcam-d6", "aws-vegas-d6"))}
    assert names == {"frame_a.jpg", "dice.jpg"}


def test_the_face_network_can_draw_each_source_alike(data, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from dice_training.face_examples import FaceExamples

    _folder(tmp_path, "chase-casino-d6-crops", [f"c{index}.jpg,5," for index in range(30)])
    _folder(tmp_path, "nell-byler-d6", ['n1.jpg,3,"0,0,30,34"'])
    photos = data.load_photos(tmp_path, "all", ("chase-casino-d6-crops", "nell-byler-d6"))
    drawn = FaceExamples(photos, np.random.default_rng(1), draw="per-source")
    values = [drawn._example("die")[1] for _ in range(400)]
    assert 0.4 < values.count(3) / len(values) < 0.6  # one nell photo against thirty casino crops, drawn alike
    with pytest.raises(ValueError, match="unknown way"):
        FaceExamples(photos, np.random.default_rng(1), draw="per-die")


def _render(folder: Path, name: str, dice: list[dict]) -> None:
    """Writes one finished render as scripts/render_dice leaves it: a JPEG, then its JSON record."""
    import json

    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.jpg"), np.full((96, 96, 3), 128, np.uint8))
    (folder / f"{name}.json").write_text(json.dumps({"file": f"{name}.jpg", "dice": dice}))


def _rendered_die(value: int, sides: int = 6, *, cocked: bool = False, seen: float = 1.0) -> dict:
    return {"box": [10, 20, 30, 32], "cocked": cocked, "seen": seen, "sides": sides, "tilt": 0.0, "value": value}


def test_renders_teach_the_finder_every_die_and_the_face_reader_only_flat_whole_faces(
        data, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training.face_examples import FaceExamples
    from dice_training.rendered import load_renders
    from vision.faces import NOT_PIPS

    _render(tmp_path, "frame_000000", [_rendered_die(4), _rendered_die(7, sides=8), _rendered_die(2, cocked=True),
                                       _rendered_die(5, seen=0.7)])
    _render(tmp_path, "frame_000001", [_rendered_die(3, cocked=True)])
    (tmp_path / "frame_000002.jpg").write_bytes(b"")  # a frame still being rendered: no record yet
    photos = load_renders(tmp_path)
    assert [len(photo.dice) for photo in photos] == [4, 1]
    first = photos[0].dice[0]
    assert (first.x, first.y, first.face, first.value) == (25.0, 36.0, 31.0, 4)
    assert [die.value for die in photos[0].dice] == [4, NOT_PIPS, data.UNREADABLE, data.UNREADABLE]
    for draw in ("per-photo", "every-die", "per-source"):
        drawn = FaceExamples(photos, np.random.default_rng(2), draw=draw)
        assert {drawn._example("die")[1] for _ in range(60)} == {4, NOT_PIPS}
    with pytest.raises(FileNotFoundError, match="make renders"):
        load_renders(tmp_path / "nothing")


def test_a_render_set_given_as_folder_and_count_teaches_its_first_frames_only(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training.rendered import load_renders, render_set

    for frame in range(3):
        _render(tmp_path, f"frame_{frame:06d}", [_rendered_die(frame + 1)])
    assert render_set(f"{tmp_path}:2") == (tmp_path, 2) and render_set(str(tmp_path)) == (tmp_path, None)
    assert [photo.dice[0].value for photo in load_renders(*render_set(f"{tmp_path}:2"))] == [1, 2]
    assert [photo.dice[0].value for photo in load_renders(*render_set(str(tmp_path)))] == [1, 2, 3]
    with pytest.raises(ValueError, match="N of 1 or more"):
        render_set(f"{tmp_path}:0")


def test_the_d8_reader_learns_the_even_frames_d8_and_never_the_odd_frames_that_measure_it(
        data, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training.d8_faces import D8Examples
    from dice_training.rendered import load_renders

    _render(tmp_path, "frame_000002", [_rendered_die(7, sides=8), _rendered_die(3), _rendered_die(5, sides=8, cocked=True)])
    _render(tmp_path, "frame_000003", [_rendered_die(2, sides=8), _rendered_die(4)])
    photos = load_renders(tmp_path)
    assert [die.d8 for photo in photos for die in photo.dice] == [7, 0, 0, 2, 0]  # a cocked d8 has no fair value
    drawn = D8Examples(photos, np.random.default_rng(3))
    assert {drawn._example("rendered d8")[1] for _ in range(40)} == {7}  # frame 3 measures the reader
    assert {drawn._example("d6")[1] for _ in range(40)} == {0}  # a d6, from either frame, is no d8
    crops, classes = drawn.batch(64)
    assert crops.shape == (64, 3, 32, 32) and set(classes) <= set(range(9)) and len(set(classes)) > 3
    casino = D8Examples(photos, np.random.default_rng(3), casino=0.2)
    assert casino.shares.sum() == pytest.approx(1.0) and casino.shares[casino.kinds.index("casino d6")] == 0.2
    assert np.allclose(casino.shares[:-1] / 0.8, drawn.shares)  # the other kinds shrunk alike
    assert {casino._example("casino d6")[1] for _ in range(20)} == {0}  # a casino's marks are no d8 numeral
    with pytest.raises(ValueError, match="under 1"):
        D8Examples(photos, np.random.default_rng(3), casino=1.0)


def test_a_view_of_one_die_alone_keeps_only_its_square_on_plain_ground(
        data, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training import finder_views
    from vision.cutting import pyramid

    image = np.random.default_rng(5).integers(0, 256, (400, 400, 3)).astype(np.uint8)  # busy ground everywhere
    dice = tuple(data.Die(x, y, 40.0, 3) for x, y in ((100, 100), (300, 300), (100, 300)))
    photo = data.Photo("alone.jpg", image, dice)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        view, labels = finder_views.finder_view(photo, pyramid(image), rng, finder_views.ViewRecipe(alone_share=1.0))
        assert len(labels) == 1  # the other dice lie far outside the anchor's square
        x, y, face = labels[0]
        assert finder_views.ALONE_RANGE[0] * 0.99 <= face <= finder_views.ALONE_RANGE[1] * 1.01
        reach = face * (0.5 + finder_views.ALONE_MARGIN[1]) + 2
        ground = np.ones(view.shape[:2], bool)
        ground[max(0, int(y - reach)):int(y + reach), max(0, int(x - reach)):int(x + reach)] = False
        far = view[ground]
        assert far.std(axis=0).max() < 40  # plain ground (recolouring adds grain), not the busy photo


def test_an_upright_view_keeps_the_upper_die_above_and_the_shipped_view_does_not(
        data, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training import finder_views
    from vision.cutting import pyramid

    image = np.full((400, 400, 3), 90, np.uint8)
    dice = (data.Die(200, 150, 30.0, 2), data.Die(200, 250, 30.0, 5))  # a 2 above a 5
    photo = data.Photo("pair.jpg", image, dice)

    def upper_stays_above(recipe: object) -> list[bool]:
        kept = []
        for seed in range(40):
            _, labels = finder_views.finder_view(photo, pyramid(image), np.random.default_rng(seed), recipe)
            (_, upper_y, _), (_, lower_y, _) = labels
            kept.append(upper_y < lower_y)
        return kept

    assert all(upper_stays_above(finder_views.ViewRecipe(upright=True)))
    assert not all(upper_stays_above(finder_views.ViewRecipe()))  # turned any way: up is lost, as shipped


def test_a_casinos_marks_sit_around_a_ones_pip_and_between_a_twos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "scripts"))
    from dice_training.renders import casino_marks, pip_face_crop

    ink, centre, side = np.array([255.0, 255.0, 255.0]), np.array([64.0, 64.0]), 96.0
    one, two = np.zeros((128, 128, 3), np.float32), np.zeros((128, 128, 3), np.float32)
    casino_marks(one, centre, side, 1, ink, np.random.default_rng(1))
    casino_marks(two, centre, side, 2, ink, np.random.default_rng(1))
    rows, cols = np.mgrid[:128, :128]
    apart = np.hypot(rows - 64, cols - 64) / side
    assert one[apart < 0.17].max() == 0 and one[apart < 0.4].max() > 200  # a ring, clear of the biggest pip a 1 has
    assert two[apart < 0.2].max() > 200 and two[apart > 0.36].max() == 0  # one sign in the middle, the corners clear
    for value, marked in ((2, True), (3, False)):  # a 3 carries none
        plain, casino = (pip_face_crop(np.random.default_rng(9), value, casino=share) for share in (0.0, 1.0))
        assert (np.abs(plain - casino).max() > 10) == marked


def test_a_rollers_die_is_taught_at_the_size_the_reader_reads_it(data, shared_dice: Path, benchmark: Any) -> None:
    """tomitomi3's crops are cut for the face reader as large as the shipped reader reads their die (it never saw
    them): the median share by benchmarks/crop_face_share.py lies within 0.03 of the training share."""
    photos = load_folder(shared_dice / "tomitomi3-gray-d6")
    shares = benchmark("crop_face_share").face_shares(shipped_reader(), photos)
    assert len(shares) >= 280  # nearly every crop is read with its die at the centre
    assert abs(float(np.median(shares)) - data.CROP_FACE_SHARE["tomitomi3-gray-d6"]) <= 0.03


def test_the_finders_false_spots_mark_no_labelled_die_and_its_spots_on_unlabelled_dice_are_false(data) -> None:
    """The face networks may learn the finder's false spots as no die: every one lies away from each labelled die,
    and the same photos with their labels taken away give the spots on those dice as false ones."""
    import dataclasses

    from dice_training.false_spots import AWAY, false_spots
    from vision.finder import Finder
    from vision.reader import MODELS

    photos = data.synthetic_photos(6, seed=3)
    finder = Finder(MODELS / "dice_finder.onnx")
    labelled = false_spots(photos, finder, 0.1)
    unlabelled = false_spots([dataclasses.replace(photo, dice=()) for photo in photos], finder, 0.1)
    for spot in labelled:
        for die in photos[spot.photo].dice:
            assert np.hypot(spot.x - die.x, spot.y - die.y) > AWAY * max(die.face, spot.face)
    on_dice = [die for spot in unlabelled for die in photos[spot.photo].dice
               if np.hypot(spot.x - die.x, spot.y - die.y) < 0.25 * die.face]
    dice = sum(len(photo.dice) for photo in photos)
    assert len(on_dice) >= 0.9 * dice and len(unlabelled) >= len(labelled) + len(on_dice)
    assert len(false_spots([dataclasses.replace(photo, dice=()) for photo in photos], finder, 0.4)) <= len(unlabelled)
    assert false_spots([dataclasses.replace(photo, scene=False) for photo in photos], finder, 0.1) == []


def test_a_false_spot_is_taught_as_no_die_cut_where_the_finder_saw_it(data) -> None:
    from dice_training.face_examples import FALSE_SPOT, FaceExamples
    from dice_training.false_spots import FalseSpot
    from vision.faces import NOTHING

    image = np.full((200, 200, 3), 90, np.uint8)
    image[85:115, 85:115] = 250  # a bright square where the finder took a face, no die there
    photo = data.Photo("ground.jpg", image, (data.Die(30.0, 30.0, 30.0, 4),))
    drawn = FaceExamples([photo], np.random.default_rng(5), false_spots=[FalseSpot(0, 100.0, 100.0, 30.0)],
                         false_share=0.1)
    assert drawn.shares[drawn.kinds.index(FALSE_SPOT)] == pytest.approx(0.1) and drawn.shares.sum() == pytest.approx(1)
    for _ in range(20):
        crop, value = drawn._example(FALSE_SPOT)
        centre, corners = crop[12:20, 12:20].mean(), np.mean([crop[:4, :4].mean(), crop[-4:, -4:].mean()])
        assert value == NOTHING and abs(centre - corners) > 40
    assert FALSE_SPOT not in FaceExamples([photo], np.random.default_rng(5), false_share=0.1).kinds  # none found
    with pytest.raises(ValueError, match="false spots among them"):
        FaceExamples([photo], np.random.default_rng(5), false_spots=[FalseSpot(0, 100.0, 100.0, 30.0)],
                     false_share=1.0)
