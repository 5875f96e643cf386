"""A regression floor on one learning curve (benchmarks/dice_learning.py): tomitomi3, a source the shipped networks
never saw, taught 200 photos of a seeded draw and read on the other 100.

Measured: the reader alone 70.7 % sure & right and no silent error on all 300. Taught 200 (196 dice found), the
table lowered its threshold to 0.5 (195 of 196 held-back dice sure & right) and read the other 100 97.0 % sure &
right with no silent error. Taught 50, it kept the reader's 0.9 (too few dice to prove a lower one) and read 73.6 %.
The floor sits just under the 200; silent errors may not pass the 0.5 % target.
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
TAUGHT = 200
LOWEST_SURE_RIGHT = 0.95
MOST_SILENT = 0.005


def test_two_hundred_taught_tomitomi_dice_read_the_rest_better(shared_dice: Path) -> None:
    cv2.setNumThreads(1)
    photos = load_folder(shared_dice / "tomitomi3-gray-d6")
    photos = random.Random(SEED).sample(photos, len(photos))
    reader, features = DiceReader(), Features(MODELS / "dice_faces.onnx")
    examples = []
    for photo in photos[:TAUGHT]:
        found, _ = examples_from(reader, cv2.imread(str(photo.path)), photo.values, None, group=photo.path.name)
        examples += found
    layer, said = learn(examples, features)
    assert layer is not None, said
    reader.taught = relook(layer, features)
    tally = Tally()
    for photo in photos[TAUGHT:]:
        tally.add(score_photo(reader.read(cv2.imread(str(photo.path))), photo))
    figures = tally.figures()
    assert figures["sure_per_die"] >= LOWEST_SURE_RIGHT, (said, figures)
    assert figures["silent_errors"] <= MOST_SILENT, (said, figures)
