"""A regression floor on one learning curve (benchmarks/dice_learning.py): tomitomi3, a source the shipped networks
never saw, taught 50 photos of a seeded draw and read on the other 250.

Measured: the reader alone 70.7 % sure & right and no silent error on all 300; taught 50, 96.8 % and none on
the other 250 (the layer was kept, sure from 0.5: the reader reads these dice right but timidly). The floor sits
just under that; silent errors may reach the 0.5 % target, one die in 250 (a die near the threshold may turn on
another build of OpenCV).
"""
from __future__ import annotations

import random
from pathlib import Path

import cv2

from vision.learning import Features, learn, relook
from vision.reader import MODELS, DiceReader
from vision.scoring import Tally, load_folder, score_photo
from vision.teaching import examples_from

SEED = 34  # benchmarks/dice_learning.py's draw
LOWEST_SURE_RIGHT = 0.95
MOST_SILENT = 0.005


def test_fifty_taught_tomitomi_dice_read_the_rest_better(shared_dice: Path) -> None:
    cv2.setNumThreads(1)
    photos = load_folder(shared_dice / "tomitomi3-gray-d6")
    photos = random.Random(SEED).sample(photos, len(photos))
    reader, features = DiceReader(), Features(MODELS / "dice_faces.onnx")
    examples = []
    for photo in photos[:50]:
        found, _ = examples_from(reader, cv2.imread(str(photo.path)), photo.values, None, group=photo.path.name)
        examples += found
    layer, said = learn(examples, features)
    assert layer is not None, said
    reader.taught = relook(layer, features)
    tally = Tally()
    for photo in photos[50:]:
        tally.add(score_photo(reader.read(cv2.imread(str(photo.path))), photo))
    figures = tally.figures()
    assert figures["sure_per_die"] >= LOWEST_SURE_RIGHT, (said, figures)
    assert figures["silent_errors"] <= MOST_SILENT, (said, figures)
