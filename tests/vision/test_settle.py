"""Settle and vote helpers: thumbnails, motion, the empty/moving/still state machine, per-die majority."""
from __future__ import annotations

import numpy as np
import pytest

from vision.settle import (
    THUMB_WIDTH,
    Settle,
    changed_fraction,
    looks_empty,
    motion,
    step,
    thumbnail,
    vote,
)
from vision.synthetic import render_dice
from vision.types import COCKED, DiceReading, DieReading

STILL = {"still_seconds": 0.6, "threshold": 0.01}


def _noisy(image: np.ndarray, seed: int) -> np.ndarray:
    grain = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + grain, 0, 255).astype(np.uint8)


def _die(value: int | None, left: int, top: int = 100, confidence: float = 0.95, flags: tuple = ()) -> DieReading:
    return DieReading(sides=6, value=value, box=(left, top, 60, 60), confidence=confidence, flags=flags)


def test_thumbnail_is_small_and_leaves_the_frame_alone() -> None:
    frame, _ = render_dice([3], seed=1)
    before = frame.copy()
    thumb = thumbnail(frame)
    assert thumb.shape == (120, THUMB_WIDTH, 3) and thumb.dtype == np.uint8
    assert np.array_equal(frame, before)
    assert thumbnail(frame[:, :, 0]).shape == (120, THUMB_WIDTH)
    with pytest.raises(ValueError, match="uint8"):
        thumbnail(frame.astype(np.float32))


def test_motion_is_zero_when_nothing_moves_and_large_for_one_small_die() -> None:
    empty, _ = render_dice([], seed=2)
    with_die, _ = render_dice([5], seed=2, die_px=40)
    calm = motion(thumbnail(_noisy(empty, 1)), thumbnail(_noisy(empty, 2)))
    moved = motion(thumbnail(empty), thumbnail(with_die))
    assert 0.0 <= calm < 0.005 < 0.05 < moved <= 1.0
    assert motion(thumbnail(empty), thumbnail(empty[:200])) == 1.0


def test_changed_fraction_counts_changed_pixels() -> None:
    empty, _ = render_dice([], seed=2)
    with_die, _ = render_dice([5], seed=2)
    assert changed_fraction(thumbnail(empty), thumbnail(empty)) == 0.0
    assert 0.005 < changed_fraction(thumbnail(empty), thumbnail(with_die)) < 0.05


def test_looks_empty_with_and_without_a_reference() -> None:
    empty, _ = render_dice([], seed=3)
    with_die, _ = render_dice([1], seed=3)
    assert looks_empty(thumbnail(empty)) and not looks_empty(thumbnail(with_die))
    reference = thumbnail(empty)
    assert looks_empty(thumbnail(_noisy(empty, 5)), reference)
    assert not looks_empty(thumbnail(with_die), reference)


def test_still_only_after_still_seconds_of_calm_frames() -> None:
    moving = [thumbnail(render_dice([2, 5], seed=seed)[0]) for seed in range(4)]
    rest, _ = render_dice([2, 5], seed=99)
    thumbs = moving + [thumbnail(_noisy(rest, seed)) for seed in range(9)]
    settle, states = Settle(), []
    for tick, thumb in enumerate(thumbs):
        settle = step(settle, thumb, now=tick / 10, **STILL)
        states.append(settle.state)
    # frame 4 is the first at rest (it still differs from frame 3); calm from frame 5 at 0.5 s
    assert states[:11] == ["moving"] * 11
    assert states[11:] == ["still", "still"]
    assert settle.still_since == pytest.approx(0.5)


def test_a_bump_resets_the_calm_clock() -> None:
    rest_a = thumbnail(render_dice([4], seed=1)[0])
    rest_b = thumbnail(render_dice([4], seed=2)[0])
    settle = Settle()
    for tick in range(8):
        settle = step(settle, rest_a, now=tick * 0.1, **STILL)
    assert settle.state == "still"
    settle = step(settle, rest_b, now=0.8, **STILL)
    assert settle.state == "moving" and settle.still_since is None and settle.motion > 0.01


def test_a_calm_empty_tray_is_empty_not_still() -> None:
    empty, _ = render_dice([], seed=7)
    settle = Settle(empty_tray=thumbnail(empty))
    for tick in range(8):
        settle = step(settle, thumbnail(_noisy(empty, tick)), now=tick * 0.1, **STILL)
    assert settle.state == "empty"


def test_step_leaves_its_inputs_alone() -> None:
    thumb = thumbnail(render_dice([6], seed=1)[0])
    before, settle = thumb.copy(), Settle()
    after = step(settle, thumb, now=0.0, **STILL)
    assert np.array_equal(thumb, before) and settle == Settle() and after is not settle


def test_vote_takes_the_per_die_majority_matched_by_position() -> None:
    frames = [
        DiceReading((_die(3, 100), _die(5, 300))),
        DiceReading((_die(5, 302), _die(3, 101))),  # same dice, listed in another order
        DiceReading((_die(3, 99), _die(6, 299, confidence=0.7))),
    ]
    before = list(frames)
    result = vote(frames)
    assert frames == before
    assert result.reading is not None and result.reading.values == (3, 5)
    assert result.count_agreed and result.agreement == pytest.approx(2 / 3)
    assert result.reading.dice[0].confidence == pytest.approx(0.95)
    assert result.reading.dice[1].confidence == pytest.approx(2 / 3 * 0.95)


def test_vote_full_agreement_and_majority_flags() -> None:
    frames = [DiceReading((_die(4, 100, flags=(COCKED,)),)), DiceReading((_die(4, 100, flags=(COCKED,)),)),
              DiceReading((_die(4, 100),))]
    result = vote(frames)
    assert result.agreement == 1.0 and result.reading is not None
    assert result.reading.dice[0].is_cocked


def test_vote_notices_when_frames_saw_different_counts() -> None:
    frames = [DiceReading((_die(2, 100), _die(6, 300))), DiceReading((_die(2, 100),)),
              DiceReading((_die(2, 100), _die(6, 300)))]
    result = vote(frames)
    assert not result.count_agreed
    assert result.reading is not None and result.reading.values == (2, 6)
    assert result.agreement == pytest.approx(2 / 3)


def test_vote_keeps_unreadable_dice_unsure() -> None:
    result = vote([DiceReading((_die(None, 100),)), DiceReading((_die(None, 100),)), DiceReading((_die(1, 100),))])
    assert result.reading is not None and result.reading.values == (None,) and not result.reading.sure


def test_vote_over_no_dice_and_no_readings() -> None:
    result = vote([DiceReading(()), DiceReading(())])
    assert result.reading == DiceReading(()) and result.agreement == 1.0 and result.count_agreed
    with pytest.raises(ValueError, match="at least one"):
        vote([])
