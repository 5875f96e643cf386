"""What the state folder keeps, from a shell: a backup of the journal, the plays exported, the dice taught."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import say
from companion.config import Config

if TYPE_CHECKING:
    from vision.reader import Relook


def backup(chosen: Config, target: Path) -> int:
    """Copy the state folder's journal into `target` (safe while the companion runs) and say how to restore it;
    returns the exit code; raises JournalError (nothing written)."""
    from companion.journal.backup import backup as copy_journal

    journal = chosen.state / "journal.sqlite"
    copied = copy_journal(journal, target)
    if copied.warning is not None:
        print(f"warning: {copied.warning}", file=sys.stderr)
    print(f"Backed up {copied.games} game(s) and {copied.entries} move(s) (up to entry {copied.last_entry}) from "
          f"{journal} to {target}. To restore it: stop the companion, move journal.sqlite and its journal.sqlite-wal "
          f"and journal.sqlite-shm files out of {chosen.state}, copy {target.name} there as journal.sqlite (owned by "
          "the companion's user), and start the companion.")
    return 0


def export(args: argparse.Namespace) -> int:
    """Print the plays (or the dice) of a state folder's journal, read-only, safe while the companion runs; returns
    0, or 2 with one sentence when there is no journal; raises CompanionError when it cannot be read."""
    from companion.games import registered_games
    from companion.memory.service import Memory

    journal = args.state / "journal.sqlite"
    if not journal.is_file():
        return say(f"There is no journal at {journal}: give the state folder the companion runs with.")
    if args.dice and args.format != "csv":
        return say("The dice counts are exported as CSV only: leave out --format json.")
    memory = Memory(journal, registered_games())
    try:
        sys.stdout.write(memory.dice_csv() if args.dice else memory.export_json() + "\n" if args.format == "json"
                         else memory.export_csv())
    finally:
        memory.close()
    return 0


def taught(state: Path | None) -> Relook | None:
    """The reader's hook for what the state folder's table taught, or None; raises ValueError for a damaged layer."""
    if state is None or not (state / "learned-dice.sqlite").is_file():
        return None
    from companion.camera.lessons import Lessons
    from vision.layer import Features, relook
    from vision.reader import MODELS

    lessons = Lessons(state)
    try:
        layer = lessons.layer()
    finally:
        lessons.close()
    return None if layer is None else relook(layer, Features(MODELS / "dice_faces.onnx"))


def teach(args: argparse.Namespace) -> int:
    """Run `companion teach`; returns 0, or 2 with one sentence on bad input (nothing kept)."""
    from companion.camera.teach_photos import teach

    try:
        print(teach(args.state, args.labels, args.images, die_px=args.die_px))
    except ValueError as error:
        return say(str(error))
    return 0
