"""read_dice's contract: input checks, purity, empty frames, hints and the shape of what it returns."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.reader import MODELS, DiceReader, read_dice
from vision.types import OFF_TRAY, DiceReading


@pytest.fixture(scope="module")
def nell_photo(shared_dice: Path) -> np.ndarray:
    """A top-down tray photo with many dice."""
    frame = cv2.imread(str(shared_dice / "nell-byler-d6" / "IMG_20191208_111228.jpg"))
    assert frame is not None
    return frame


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        "photo.jpg",
        [[1, 2], [3, 4]],
        np.zeros((100, 100, 3), np.float32),
        np.zeros((100, 100, 3), np.int64),
        np.zeros((100, 100, 4), np.uint8),
        np.zeros((100,), np.uint8),
        np.zeros((2, 100, 100, 3), np.uint8),
        np.zeros((8, 8, 3), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
    ],
)
def test_garbage_input_raises_a_clear_value_error(garbage: object) -> None:
    with pytest.raises(ValueError, match=r"read_dice needs .+\."):
        read_dice(garbage)  # type: ignore[arg-type]


@pytest.mark.parametrize("tray", [(1, 2, 3), (0, 0, -5, 10), "tray"])
def test_bad_tray_hint_raises_value_error(tray: object) -> None:
    with pytest.raises(ValueError, match="tray hint"):
        read_dice(np.full((64, 64, 3), 128, np.uint8), tray=tray)  # type: ignore[arg-type]


@pytest.mark.parametrize("die_px", [0, -3, "big"])
def test_bad_die_size_hint_raises_value_error(die_px: object) -> None:
    with pytest.raises(ValueError, match="die_px hint"):
        read_dice(np.full((64, 64, 3), 128, np.uint8), die_px=die_px)  # type: ignore[arg-type]


@pytest.mark.parametrize("sides", [(), (4,), (6, 10), "6", 8, (6.0,), (True,), None])
def test_bad_sides_hint_raises_value_error(sides: object) -> None:
    with pytest.raises(ValueError, match="sides hint"):
        read_dice(np.full((64, 64, 3), 128, np.uint8), sides=sides)  # type: ignore[arg-type]


def test_a_d8_asked_of_networks_without_a_d8_reader_is_refused_with_a_sentence(
        tmp_path: Path, nell_photo: np.ndarray) -> None:
    for name in ("dice_finder.onnx", "dice_faces.onnx", "dice_faces_second.onnx"):
        (tmp_path / name).write_bytes((MODELS / name).read_bytes())
    reader = DiceReader(tmp_path)
    assert reader.read(nell_photo).dice  # the d6 are read as ever
    with pytest.raises(ValueError, match="cannot read a d8: dice_d8.onnx is not beside them"):
        reader.read(nell_photo, sides=(6, 8))


def test_read_dice_never_modifies_the_frame(nell_photo: np.ndarray) -> None:
    before = nell_photo.copy()
    read_dice(nell_photo)
    assert np.array_equal(nell_photo, before)


def test_read_dice_accepts_a_read_only_frame(nell_photo: np.ndarray) -> None:
    frozen = nell_photo.copy()
    frozen.setflags(write=False)
    assert read_dice(frozen).dice


def test_plain_grey_frame_has_no_dice() -> None:
    assert read_dice(np.full((480, 640, 3), 128, np.uint8)).dice == ()


def test_plain_grey_single_channel_frame_has_no_dice() -> None:
    assert read_dice(np.full((480, 640), 90, np.uint8)).dice == ()


def test_frosted_glass_background_without_a_die_has_no_dice() -> None:
    # tai-studio's empty crops: blue-grey, grainy, a soft darker vignette, a faint line
    rng = np.random.default_rng(3)
    rows, cols = np.mgrid[0:470, 0:470]
    shade = 1.0 - 0.25 * (np.hypot(rows - 235, cols - 235) / 332) ** 2
    frame = np.stack([95 * shade, 85 * shade, 70 * shade], axis=2) + rng.normal(0, 9, (470, 470, 3))
    frame[:, 70:73] -= 12
    frame = cv2.GaussianBlur(np.clip(frame, 0, 255).astype(np.uint8), (0, 0), 0.8)
    assert read_dice(frame).dice == ()


def test_noise_frame_has_no_dice() -> None:
    rng = np.random.default_rng(5)
    frame = rng.integers(100, 156, (320, 320, 3), dtype=np.uint8)
    assert read_dice(frame).dice == ()


def test_reading_has_the_promised_shape(nell_photo: np.ndarray) -> None:
    reading = read_dice(nell_photo)
    assert isinstance(reading, DiceReading)
    assert len(reading.dice) >= 15
    for die in reading.dice:
        assert die.sides == 6
        assert die.value is None or 1 <= die.value <= 6
        assert len(die.box) == 4 and all(isinstance(number, int) for number in die.box)
        assert die.box[2] > 0 and die.box[3] > 0
        assert 0.0 <= die.confidence <= 1.0
    centres = [(die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2) for die in reading.dice]
    assert centres == sorted(centres)


def test_dice_outside_the_tray_hint_are_flagged(nell_photo: np.ndarray) -> None:
    reading = read_dice(nell_photo, tray=(0, 0, 320, 640))
    assert reading.dice
    for die in reading.dice:
        centre_x = die.box[0] + die.box[2] / 2
        assert (OFF_TRAY in die.flags) == (centre_x >= 320)


def test_die_size_hint_reads_the_same_values(nell_photo: np.ndarray) -> None:
    plain = read_dice(nell_photo)
    sizes = sorted(die.box[2] for die in plain.dice)
    hinted = read_dice(nell_photo, die_px=sizes[len(sizes) // 2])
    same = sum((_values(plain) & _values(hinted)).values())
    assert same >= 0.8 * len(plain.dice)


def test_a_stale_die_size_hint_still_finds_the_dice() -> None:
    from vision.synthetic import render_dice

    frame, _ = render_dice([3, 5, 2], size=(640, 480), die_px=48, seed=1)
    assert sorted(die.value for die in read_dice(frame, die_px=48).dice) == [2, 3, 5]
    # calibrated before the camera was raised: the dice now look 4x bigger than the saved size
    assert sorted(die.value for die in read_dice(frame, die_px=12).dice) == [2, 3, 5]


@pytest.mark.parametrize("seed", range(6))
def test_dice_a_few_pixels_across_at_the_table_look_are_read_at_their_own_size(seed: int) -> None:
    from vision.synthetic import render_dice

    # 56-pixel dice in a 1920-pixel frame span 7 pixels at the table look: read there alone, three of these six
    # frames lost a die or read one unsure
    frame, _ = render_dice([1, 2, 3, 4, 5, 6], size=(1920, 1080), die_px=56, seed=seed)
    reading = read_dice(frame)
    assert sorted(die.value for die in reading.dice) == [1, 2, 3, 4, 5, 6] and reading.sure


def test_dice_seen_small_are_measured_at_the_size_their_own_look_settles_on(shared_dice: Path) -> None:
    import statistics

    from vision.scoring import load_folder

    # skovy's webcam frames: dice of 58 px (the labels' median) in 1920 px. The table look measures them at about
    # 93, one look at that size at 77, and looks taken again until the size holds at 70
    frames = [photo for photo in load_folder(shared_dice / "skovy-webcam-d6") if photo.path.name.startswith("frame_")]
    measured = statistics.median(read_dice(cv2.imread(str(photo.path))).die_px or 0 for photo in frames)
    labelled = statistics.median(max(box[2:]) for photo in frames for box in photo.boxes or ())
    assert measured <= 1.25 * labelled


@pytest.mark.parametrize("off_by", [0.4, 2.0, 3.0])
def test_a_die_size_hint_that_finds_other_sizes_is_set_aside(nell_photo: np.ndarray, off_by: float,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    plain = read_dice(nell_photo)
    sizes = sorted(die.box[2] for die in plain.dice)
    reader = DiceReader()  # a fresh reader, so it warns once for this hint
    with caplog.at_level("WARNING", logger="vision.reader"):
        stale = reader.read(nell_photo, die_px=sizes[len(sizes) // 2] * off_by)
        reader.read(nell_photo, die_px=sizes[len(sizes) // 2] * off_by)
    # a hint 2x too big used to lose 3 of this tray's 22 dice; 2.5x too small or 3x too big, 13
    assert stale == plain
    assert [record.getMessage() for record in caplog.records if "calibrate" in record.getMessage()] != []
    assert len(caplog.records) == 1


def test_a_right_die_size_hint_is_kept_without_a_warning(nell_photo: np.ndarray,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    plain = read_dice(nell_photo)
    sizes = sorted(die.box[2] for die in plain.dice)
    with caplog.at_level("WARNING", logger="vision.reader"):
        DiceReader().read(nell_photo, die_px=sizes[len(sizes) // 2] * 1.1)
    assert caplog.records == []


def _values(reading: DiceReading):
    """The multiset of values read."""
    from collections import Counter

    return Counter(die.value for die in reading.dice)


def test_the_package_offers_read_dice(nell_photo: np.ndarray) -> None:
    import vision

    assert vision.read_dice(nell_photo) == read_dice(nell_photo)
    with pytest.raises(AttributeError):
        vision.read_nothing  # noqa: B018


def test_the_shipped_networks_fit_in_five_megabytes() -> None:
    names = ("dice_finder.onnx", "dice_faces.onnx", "dice_faces_second.onnx")
    assert sum((MODELS / name).stat().st_size for name in names) < 5_000_000


def test_a_missing_network_is_named_with_how_to_make_it(tmp_path: Path) -> None:
    for name in ("dice_finder.onnx", "dice_faces.onnx"):
        (tmp_path / name).write_bytes((MODELS / name).read_bytes())
    with pytest.raises(FileNotFoundError, match=r"dice_faces_second\.onnx is missing; run scripts/train_dice\.py"):
        DiceReader(tmp_path)
