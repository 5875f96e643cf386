"""Train the dice reader's four networks with PyTorch and export them to ONNX for OpenCV's dnn module.

Usage (PyTorch is needed for training only; `pip install torch==2.13.0 onnx` into any venv):

    python scripts/train_dice.py [--photos all|dev|check|not-q1..not-q4|loose-dev|loose-check] [--part finder faces second] [--out DIR]

Writes DIR/dice_finder.onnx (the finder), DIR/dice_faces.onnx (the face reader's first look),
DIR/dice_faces_second.onnx (its second look at unclear faces: the same recipe trained twice as long) and
DIR/dice_d8.onnx (the d8 reader: the numeral on a d8's top face), by default all four (default DIR:
vision/models, the shipped ones, trained with --half all). The d8 reader learns from drawn d8 faces and,
given --renders, from the even-numbered rendered frames' d8 (the odd ones measure it).
`--half dev` trains on the dev half of each folder only, so the check half measures how well the recipe
generalises: `benchmarks/dice_reader.py --half check --models DIR`; `--half check` is the other way round
(two folds: each half measured by networks that never saw it). `--photos not-q3` trains on three quarters
(all but the third: q1 and q2 split the dev half, q3 and q4 the check half), measured with `--photos q3`.
Seeded and one thread per run, so a rerun on the same machine and library versions gives the same weights.
Each part saves its state to DIR/<part>.ckpt every 250 steps: run the same command again to go on after a stop.

Training data, read IN PLACE from ../shared/dice beside the repo (never copied into the repo):
- nell-byler-d6: photos by Nell Byler, https://github.com/nell-byler/dice_detection,
  BSD 3-Clause licence, "Copyright (c) 2019, Nell Byler".
- matteop65-webcam-d6: photos by Matteo Anthony Penlington,
  https://github.com/matteop65/Dice_Detection_Recognition, MIT licence,
  "Copyright (c) 2021 Matteo Anthony Penlington".
- synthetic renders: pip faces, numeral faces ("not pips") and plain ground (scripts/dice_training/renders.py),
  and rendered tray photos like the demo camera's (vision/synthetic.py).
- with `--sources every`, also aws-vegas-d6, skovy-webcam-d6, chase-casino-d6-crops and tomitomi3-gray-d6
  (Apache-2.0 and MIT; their notices are in vision/models/CREDITS.md).
Not used for training: tai-studio-d6-crops (GPL-3.0, kept for testing only) and the burksbuilds numeral
photos (kept for testing that numerals are never read as a number).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from dice_training.data import (  # noqa: E402
    CROP_FACE_SHARE, SCENE_FOLDERS, TRAIN_FOLDERS, Photo, load_photos, synthetic_photos,
)
from dice_training.rendered import load_renders, render_set  # noqa: E402
from dice_training.face_train import DRAWS, train_d8, train_faces  # noqa: E402
from dice_training.false_spots import FalseSpot, false_spots  # noqa: E402
from dice_training.finder_train import train_finder  # noqa: E402
from dice_training.finder_views import ViewRecipe  # noqa: E402
from dice_training.models import FACE_CROP  # noqa: E402
from vision.finder import Finder  # noqa: E402
from vision.splits import SHARES  # noqa: E402

SHARED = REPO.parent / "shared" / "dice"
SEED = 7
FACE_FILES = {"faces": "dice_faces.onnx", "second": "dice_faces_second.onnx"}
D8_FILE = "dice_d8.onnx"


def export(model: torch.nn.Module, example: torch.Tensor, path: Path, spatial: bool) -> None:
    """Writes the model as ONNX (opset 13, batch and, for the finder, height/width free); raises OSError."""
    free = {0: "batch", 2: "height", 3: "width"} if spatial else {0: "batch"}
    torch.onnx.export(
        model, example, str(path), input_names=["input"], output_names=["output"],
        dynamic_axes={"input": free, "output": free}, opset_version=13, dynamo=False,
    )


def main() -> None:
    """Trains the chosen parts and writes their ONNX files; raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", "--half", choices=SHARES, default="all", help="a share of each folder's photos")
    parts = ["finder", "faces", "second", "d8"]
    parser.add_argument("--part", choices=parts, nargs="+", default=parts)
    parser.add_argument("--finder-steps", type=int, default=20000)
    parser.add_argument("--face-steps", type=int, default=6000)
    parser.add_argument("--second-steps", type=int, default=12000)
    parser.add_argument("--d8-steps", type=int, default=8000)
    parser.add_argument("--alone-share", type=float, default=0.0,
                        help="the finder's views that show one die alone, cut tight on plain ground (the shipped finder: 0.1)")
    parser.add_argument("--upright-views", action="store_true",
                        help="the finder's views keep the photo's up as up, as the shipped finder's (else turned any way)")
    parser.add_argument("--out", type=Path, default=REPO / "vision" / "models")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--synthetic", type=int, default=40, help="rendered tray photos added (demo camera dice)")
    parser.add_argument("--face-dice", choices=DRAWS, default="per-photo",
                        help="draw face crops from a photo then one of its dice (shipped), from all dice alike, "
                             "or from a source, then a photo, then a die")
    parser.add_argument("--drawn-dice", type=float, default=0.0, metavar="SHARE",
                        help="the face networks' share of drawn whole dice seen at a slant (0 as shipped)")
    parser.add_argument("--drawn-sides", type=float, default=0.0, metavar="SHARE",
                        help="their share of the same drawn dice centred on a side face, taught as no die "
                             "(0 as shipped)")
    parser.add_argument("--speckled-ground", type=float, default=0.0, metavar="SHARE",
                        help="the face networks' share of drawn ground strewn with more pip-like specks than a die "
                             "has pips, taught as no die (0 as shipped)")
    parser.add_argument("--false-spots", type=float, default=0.0, metavar="SHARE",
                        help="the face networks' share of crops at the finder's false spots on the training scenes "
                             "(places it takes for a face, no labelled die there), taught as no die; the finder is "
                             "the --out folder's, trained first when --part names it too (0 as shipped)")
    parser.add_argument("--false-spots-from", type=float, default=0.1, metavar="CHANCE",
                        help="the finder's spots from this chance up are looked for (the reader keeps them from 0.4)")
    parser.add_argument("--casino-marks", type=float, default=0.0, metavar="SHARE",
                        help="the d8 reader's share of drawn casino 1s and 2s, their marks among the pips, taught as "
                             "no numeral (0 as shipped)")
    every = SCENE_FOLDERS + tuple(CROP_FACE_SHARE)
    parser.add_argument("--sources", choices=("shipped", "every"), default="shipped",
                        help=f"shipped: {', '.join(TRAIN_FOLDERS)}; every: {', '.join(every)}")
    parser.add_argument("--leave-out", choices=every, help="train without this source, to measure on it")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is lent (the views are made on the CPU)")
    parser.add_argument("--minutes", type=float, help="each part trains only as many steps as fit in this many minutes")
    parser.add_argument("--workers", type=int, default=0, help="processes making the views (0: this one, as shipped)")
    parser.add_argument("--renders", type=_render_set, action="append", default=[], metavar="FOLDER[:N]",
                        help="a folder of Blender renders (make renders) to learn from too, FOLDER:N its first "
                             "N frames; may be given again")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the folder of photo sources (default ../shared/dice)")
    options = parser.parse_args()
    finder_file = options.out / "dice_finder.onnx"
    if not 0.0 < options.false_spots_from < 1.0:
        parser.error(f"--false-spots-from is a chance between 0 and 1, not {options.false_spots_from}")
    if options.false_spots and "finder" not in options.part and not finder_file.is_file():
        parser.error(f"--false-spots looks with the finder in {finder_file}, and there is none: train it first "
                     f"(--part finder) or put one there")
    torch.set_num_threads(options.threads)
    cv2.setNumThreads(options.threads)  # the views are made with OpenCV: one run, as many threads as asked
    torch.use_deterministic_algorithms(True, warn_only=options.device != "cpu")
    options.out.mkdir(parents=True, exist_ok=True)
    started = time.time()

    def log(text: str) -> None:
        print(f"[{time.time() - started:7.0f} s] {text}", flush=True)

    folders = tuple(folder for folder in (TRAIN_FOLDERS if options.sources == "shipped" else every)
                    if folder != options.leave_out)
    photos = load_photos(options.shared, options.photos, folders) + synthetic_photos(options.synthetic, SEED)
    for folder, first in options.renders:
        photos += load_renders(folder, first)
    renders = "".join(f", renders in {folder.name}" for folder, _ in options.renders)
    log(f"{len(photos)} photos, {sum(len(photo.dice) for photo in photos)} dice ({options.photos} of {', '.join(folders)}"
        f"{renders})")
    if "finder" in options.part:
        finder = train_finder(photos, options.finder_steps, SEED, log, device=options.device, minutes=options.minutes,
                              workers=options.workers, checkpoint=options.out / "finder.ckpt",
                              recipe=ViewRecipe(options.alone_share, options.upright_views))
        save(finder, torch.zeros(1, 3, 256, 256), finder_file, spatial=True)
        log("wrote dice_finder.onnx")
    spots = _taught_false_spots(options, photos, finder_file, log)
    for part, steps in (("faces", options.face_steps), ("second", options.second_steps)):
        if part in options.part:
            faces = train_faces(photos, steps, SEED, log, draw=options.face_dice, cubes=options.drawn_dice,
                                sides=options.drawn_sides, specks=options.speckled_ground,
                                false_spots=spots, false_share=options.false_spots,
                                device=options.device, minutes=options.minutes, workers=options.workers,
                                checkpoint=options.out / f"{part}.ckpt")
            save(faces, torch.zeros(1, 3, FACE_CROP, FACE_CROP), options.out / FACE_FILES[part], spatial=False)
            log(f"wrote {FACE_FILES[part]}")
    if "d8" in options.part:
        d8 = train_d8(photos, options.d8_steps, SEED, log, device=options.device, minutes=options.minutes,
                      workers=options.workers, checkpoint=options.out / "d8.ckpt", casino=options.casino_marks)
        save(d8, torch.zeros(1, 3, FACE_CROP, FACE_CROP), options.out / D8_FILE, spatial=False)
        log(f"wrote {D8_FILE}")


def _taught_false_spots(options: argparse.Namespace, photos: list[Photo], finder_file: Path,
                        log: Callable[[str], None]) -> list[FalseSpot]:
    """Returns the spots the finder in `finder_file` takes for a face where no die lies, for the face networks to
    learn as no die; none unless asked. Raises FileNotFoundError when there is no finder."""
    if not options.false_spots or not {"faces", "second"} & set(options.part):
        return []
    spots = false_spots(photos, Finder(finder_file), options.false_spots_from)
    log(f"{len(spots)} false spots of the finder's, taught as no die ({options.false_spots:.0%} of the crops)")
    return spots


def _render_set(text: str) -> tuple[Path, int | None]:
    """Returns --renders' (folder, first N frames or None); raises argparse.ArgumentTypeError with the sentence."""
    try:
        return render_set(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def save(model: torch.nn.Module, example: torch.Tensor, path: Path, spatial: bool) -> None:
    """Writes the weights (path.pt, to export again elsewhere) and the ONNX file; raises OSError or the exporter's error."""
    torch.save(model.state_dict(), path.with_suffix(".pt"))
    export(model, example, path, spatial)


if __name__ == "__main__":
    main()
