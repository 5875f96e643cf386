"""The face reader alone, at every labelled die (benchmarks/dice_faces.py), held at floors just under its figures.

A regression of the face networks or of how crops are cut shows here even when the finder hides it.
The shipped networks were trained on these photos, so the figures are optimistic.
"""
from __future__ import annotations

from typing import Any

from vision.faces import FaceReader
from vision.reader import MODELS

# measured with the shipped networks: nell 98.9 % right (82.4 % sure), matteop 100 % (98.8 % sure)
FLOORS = {"nell-byler-d6": (0.985, 0.80), "matteop65-webcam-d6": (0.995, 0.97)}


def test_the_face_reader_reads_the_labelled_dice(benchmark: Any) -> None:
    faces = FaceReader(MODELS / "dice_faces.onnx", MODELS / "dice_faces_second.onnx")
    faces_benchmark = benchmark("dice_faces")
    counts = faces_benchmark.measure(faces, faces_benchmark.photo_groups("all"), misses=False)
    assert set(counts) == set(FLOORS)
    for folder, (lowest_right, lowest_sure) in FLOORS.items():
        dice, right, sure, _ = counts[folder]
        assert dice > 500 and right / dice >= lowest_right and sure / dice >= lowest_sure, (folder, counts[folder])
