"""benchmarks/roll_path.py in short: two rolls of the recorded camera through the real daemon to a seat's event
stream. Its shape and counts, and the one bound a busy machine cannot break (the settle waits camera.still_seconds);
its times are docs/benchmarks.md's, not a test's."""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Callable

import numpy as np
import pytest

SPANS = ("settle_ms", "reading_ms", "stream_ms", "total_ms")


def test_the_roll_path_benchmark_in_short_times_every_roll_it_reads(
    shared_dice: Path, benchmark: Callable[[str], ModuleType]
) -> None:
    roll_path = benchmark("roll_path")
    figures = roll_path.roll_path(rolls=2)
    counts = tuple(figures[count] for count in ("rolls", "timed", "misread", "reroll", "early"))
    assert counts == (2, 2, 0, 0, 0), figures
    assert figures["settle_ms"]["min"] >= 1000 * figures["still_seconds"], figures
    assert figures["reads_per_roll"]["min"] >= figures["frames_to_vote"], figures
    assert all(0 < figures[span]["median"] <= figures[span]["p95"] for span in SPANS), figures
    assert figures["total_ms"]["min"] > figures["settle_ms"]["min"] + figures["stream_ms"]["min"], figures
    assert 0 < figures["photos"] <= figures["one_die_photos"], figures
    printed = roll_path.table(figures).splitlines()
    assert printed[:2] == ["| span | median ms | p95 ms |", "|---|---|---|"] and len(printed) == 2 + len(SPANS) + 2


def test_the_recorded_camera_tumbles_then_lies_still_from_the_moment_it_notes(
    shared_dice: Path, benchmark: Callable[[str], ModuleType]
) -> None:
    recorded = benchmark("recorded_camera")
    photos = recorded.readable_photos([shared_dice / "matteop65-webcam-d6"])
    played = recorded.playlist(photos, 6)
    assert all(before.values != after.values for before, after in zip(played, played[1:]))
    camera = recorded.RecordedCamera(played)
    assert camera.throw(1) == played[0].values
    moving = [camera.frame() for _ in range(3)]
    (throw,) = camera.throws
    while recorded.time.monotonic() < throw.still_at:
        recorded.time.sleep(0.01)
    still = [camera.frame() for _ in range(3)]
    thumbs = [recorded.thumbnail(frame) for frame in moving + still]
    assert min(recorded.motion(first, second) for first, second in zip(thumbs, thumbs[1:3])) >= recorded.MOTION
    assert max(recorded.motion(first, second) for first, second in zip(thumbs[3:], thumbs[4:])) < recorded.MOTION
    assert not np.array_equal(still[0], still[1]), "sensor noise: no two frames at rest are alike"
    with pytest.raises(ValueError):
        camera.throw(2)
