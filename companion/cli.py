"""`companion run | read-dice | host-url | backup | calibrate | check-config`: the command line."""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Sequence
from urllib.parse import urlsplit

from companion import config as config_module
from companion.config import Config, ConfigError
from companion.rules.errors import CompanionError
from vision.hints import add_hints

if TYPE_CHECKING:
    from vision.reader import Relook

NO_ADDRESS_YET = ("warning: this machine has no network address yet, so no phone can reach it: join it to a "
                  "Wi-Fi (or let it make its own); the QR codes show its address once it has one.")


def parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command; raises nothing."""
    root = argparse.ArgumentParser(prog="companion", description="The table companion.")
    commands = root.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the companion (the daemon)")
    _common(run)
    run.add_argument("--demo", action="store_true", help="no hardware: mock pins, synthetic dice, ./state")
    run.add_argument("--camera", help="usb:0 | folder:PATH | pi | synthetic | none")
    run.add_argument("--port", type=int, help="the web port (default 8080)")
    run.add_argument("--host", help="the address to listen on (default 0.0.0.0)")
    run.add_argument("--no-front", action="store_true",
                     help="serve phones from the web server directly, without nginx in front (to measure the difference)")
    read = commands.add_parser("read-dice", help="read the dice in photos")
    read.add_argument("images", nargs="+")
    read.add_argument("--json", action="store_true", help="one JSON object per image and line")
    read.add_argument("--state", type=Path, help="read with what this state folder's table taught (companion teach)")
    add_hints(read)
    teach = commands.add_parser("teach", help="teach the box a table's dice from labelled photos")
    teach.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    teach.add_argument("--state", type=Path, required=True, help="the state folder the table's learning is kept in")
    teach.add_argument("--labels", type=Path, required=True, help="LABELS.csv: file,dice,boxes as in ../shared/dice")
    add_hints(teach)
    host = commands.add_parser("host-url", help="print the host's join URL (it holds the host token)")
    _common(host)
    host.add_argument("--new", action="store_true",
                      help="end the host link now (even while the companion runs) and print a new one")
    backup = commands.add_parser("backup", help="copy the journal into one file, safe while the companion runs")
    backup.add_argument("target", type=Path, help="the new file to write (it must not exist)")
    _common(backup)
    calibrate = commands.add_parser("calibrate", help="find the tray, measure a die, lock the exposure; save to the config")
    calibrate.add_argument("--config", type=Path, required=True, help="the TOML config file to update")
    calibrate.add_argument("--camera", help="usb:0 | folder:PATH | pi | synthetic (default: the config's)")
    _export_parser(commands)
    check = commands.add_parser("check-config", help="check a config file and say what is wrong")
    check.add_argument("config", type=Path)
    check.add_argument("--state", type=Path, help="the state folder run is given (default: the config's state.folder)")
    return root


def _export_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """`companion export`: every finished game (or the dice counts) as CSV or JSON; raises nothing."""
    export = commands.add_parser("export", help="print every finished game (or the dice counts) as CSV or JSON")
    export.add_argument("--state", type=Path, required=True, help="the state folder holding journal.sqlite")
    export.add_argument("--format", choices=("csv", "json"), default="csv")
    export.add_argument("--dice", action="store_true", help="the dice counts (CSV) instead of the plays")


def export(args: argparse.Namespace) -> int:
    """Print the plays (or the dice) of a state folder's journal, read-only, safe while the companion runs; returns
    0, or 2 with one sentence when there is no journal; raises CompanionError when it cannot be read."""
    from companion.games import registered_games
    from companion.memory.service import Memory

    journal = args.state / "journal.sqlite"
    if not journal.is_file():
        return _say(f"There is no journal at {journal}: give the state folder the companion runs with.")
    if args.dice and args.format != "csv":
        return _say("The dice counts are exported as CSV only: leave out --format json.")
    memory = Memory(journal, registered_games())
    try:
        sys.stdout.write(memory.dice_csv() if args.dice else memory.export_json() + "\n" if args.format == "json"
                         else memory.export_csv())
    finally:
        memory.close()
    return 0


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument("--config", type=Path, help="the TOML config file")
    command.add_argument("--state", type=Path, help="the state folder (journal)")


def settings(args: argparse.Namespace) -> Config:
    """The config from the file and the command line; raises ConfigError."""
    chosen = config_module.load(args.config) if args.config else Config()
    if getattr(args, "demo", False) and not chosen.demo:  # no hardware: mock pins and synthetic dice
        chosen = replace(chosen, demo=True, pins=replace(chosen.pins, factory="mock"),
                         camera=replace(chosen.camera, source="synthetic"))
    if getattr(args, "camera", None):
        chosen = replace(chosen, camera=replace(chosen.camera, source=config_module.camera_source("--camera", args.camera)))
    if getattr(args, "port", None) is not None:
        chosen = replace(chosen, port=config_module.from_dict({"web": {"port": args.port}}).port)
    if getattr(args, "host", None):
        chosen = replace(chosen, host=args.host)
    if args.state:
        chosen = replace(chosen, state=args.state)
    return chosen


def run(chosen: Config, *, front: bool = True) -> int:
    """Run the daemon until SIGTERM or Ctrl-C; returns the exit code."""
    from companion.daemon import build

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    companion = build(chosen, front=front)
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    companion.start()
    for warning in companion.warnings:
        print(f"warning: {warning}", flush=True)
    _announce(companion, chosen)
    stopping.wait()
    companion.stop()
    print("Stopped cleanly.", flush=True)
    return 0


def _announce(companion: object, chosen: Config) -> None:
    url = companion.host_url()  # type: ignore[attr-defined]
    mode = "demo mode (no hardware)" if chosen.demo else "running"
    print(f"Table companion {mode} on port {companion.port}.", flush=True)  # type: ignore[attr-defined]
    if chosen.demo or sys.stdout.isatty():
        print(f"Host: open {url} — it shows a QR code for every seat.", flush=True)
    else:
        print("Host join URL: run `companion host-url` (kept out of the logs: it holds the host token).", flush=True)
    if _unreachable(url, chosen):
        print(NO_ADDRESS_YET, flush=True)


def _unreachable(url: str, chosen: Config) -> bool:
    """Whether the box meant to serve the network but has no address on one yet; raises nothing."""
    from companion.table.network import serves_every_interface

    wanted_network = serves_every_interface(chosen.host) and not chosen.advertise
    return wanted_network and urlsplit(url).hostname in ("127.0.0.1", "::1", "localhost")


def host_url(chosen: Config, *, new: bool = False) -> int:
    """Print the host's join URL from the journal's tokens (`new`: after ending the old link, which a running
    companion then refuses at once); returns the exit code; raises JournalError."""
    from companion.journal.store import Journal
    from companion.table.network import advertised, join_base
    from companion.table.tokens import Tokens

    journal = Journal(chosen.state / "journal.sqlite", visitor=True)
    try:
        tokens = Tokens(journal)
        token = tokens.reissue_host() if new else tokens.host_token()
    finally:
        journal.close()
    print(f"{join_base(advertised(chosen.host, chosen.advertise), chosen.port)}/join?token={token}")
    if new:
        print("The old host link no longer works; open this one on the host's phone.", file=sys.stderr)
    return 0


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


def calibrate(args: argparse.Namespace) -> int:
    """Calibrate the camera and save the result to the config; returns the exit code (2 with one sentence
    when the camera or the config file fails); raises ConfigError or CompanionError."""
    from companion.camera import calibrate as calibration
    from vision.reader import read_dice
    from vision.frames import CameraError
    from vision.sources import open_source

    calibration.target_of(args.config)  # a config it could not write is said before the camera is opened
    chosen = config_module.load(args.config) if args.config.exists() else Config()
    spec = config_module.camera_source("--camera", args.camera) if args.camera else chosen.camera.source
    try:
        source = open_source(spec)
    except (CameraError, ValueError) as error:
        return _say(f"cannot open the camera {spec!r}: {error}")
    try:
        found = calibration.measure(source, read_dice)
    except CameraError as error:
        return _say(f"the camera {spec!r} failed while calibrating: {error} Nothing was saved.")
    finally:
        getattr(source, "close", lambda: None)()
    if args.camera:  # the calibration is this camera's: the table must use it too
        found["source"] = spec
    try:
        calibration.save(args.config, found)
    except OSError as error:
        return _say(f"cannot write the config file {args.config}: {error.strerror or error}. Nothing was saved; "
                    "run calibrate as a user who may write it (sudo).")
    print(calibration.describe(found) + f" Saved to {args.config}; restart the companion to use it.")
    return 0


def _say(sentence: str) -> int:
    """Print the sentence as the command's error; returns the exit code 2."""
    print(f"companion: {sentence}", file=sys.stderr)
    return 2


def check_config(path: Path, state: Path | None = None) -> int:
    """Check a config as `run` would, its first game included, and say what the state folder's calibration from
    the host page changes; returns the exit code; raises ConfigError."""
    from companion.camera import calibration_store
    from companion.daemon import check_first_game

    chosen = config_module.load(path)
    chosen = chosen if state is None else replace(chosen, state=state)
    check_first_game(chosen)
    try:
        camera = calibration_store.in_use(chosen.camera, chosen.state)
    except calibration_store.NotReadable:  # the service's own folder, checked by another user: not a fault
        notes, camera = [_not_checked(chosen.state)], chosen.camera
    except calibration_store.UNUSABLE as error:  # run goes on with the config's: no error
        notes, camera = [calibration_store.unusable(chosen.state, error)], chosen.camera
    else:
        notes = [] if camera == chosen.camera else [_calibrated_on_the_page(chosen.state, camera)]
    view = camera.tray_view
    if view is not None:
        from vision.tray import read_view

        try:
            read_view(view)
        except ValueError as error:  # run goes on without it, so this is no error, but it is worth knowing
            notes.append(f"camera.tray_view: {error}, so the tray will not follow a knocked camera.")
    print(f"{path}: fine." if not notes else f"{path}: fine, but " + " ".join(notes))
    return 0


def _not_checked(state: Path) -> str:
    """What check-config says of a state folder this user may not read; raises nothing."""
    return (f"this user may not read the state folder {state}, so a calibration made on the host page and kept "
            "there was not checked; run check-config as the service's user (sudo -u companion companion "
            "check-config ...) to check it.")


def _calibrated_on_the_page(state: Path, camera: config_module.Camera) -> str:
    """What the host page's calibration, kept in the state folder, sets over the config; raises nothing."""
    from companion.camera.calibration_store import FILE

    x, y, width, height = camera.tray or (0, 0, 0, 0)
    tray = f"the tray at {x}, {y}, {width} x {height} px" if camera.tray else "no tray"
    size = f"dice {camera.die_px} px across" if camera.die_px else "no die size"
    light = "the light fixed" if camera.locked_exposure else "automatic light"
    return (f"the camera was calibrated on the host page since ({state / FILE}), and the table uses "
            f"that instead of this file's [camera] calibration: {tray}, {size}, {light}.")


def _taught(state: Path | None) -> Relook | None:
    """The reader's hook for what the state folder's table taught, or None; raises ValueError for a damaged layer."""
    if state is None or not (state / "learned-dice.sqlite").is_file():
        return None
    from companion.camera.lessons import Lessons
    from vision.learning import Features, relook
    from vision.reader import MODELS

    lessons = Lessons(state)
    try:
        layer = lessons.layer()
    finally:
        lessons.close()
    return None if layer is None else relook(layer, Features(MODELS / "dice_faces.onnx"))


def _teach(args: argparse.Namespace) -> int:
    """Run `companion teach`; returns 0, or 2 with one sentence on bad input (nothing kept)."""
    from companion.camera.teach_photos import teach

    try:
        print(teach(args.state, args.labels, args.images, die_px=args.die_px))
    except ValueError as error:
        return _say(str(error))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The `companion` command; returns the exit code (2 with one sentence for bad input)."""
    args = parser().parse_args(argv)
    try:
        if args.command == "read-dice":
            from vision.cli import read_dice_main

            return read_dice_main(args.images, as_json=args.json, die_px=args.die_px, tray=args.tray,
                                  taught=_taught(args.state))
        if args.command == "teach":
            return _teach(args)
        if args.command == "export":
            return export(args)
        if args.command == "check-config":
            return check_config(args.config, args.state)
        if args.command == "calibrate":
            return calibrate(args)
        chosen = settings(args)
        if args.command == "backup":
            return backup(chosen, args.target)
        return run(chosen, front=not args.no_front) if args.command == "run" else host_url(chosen, new=args.new)
    except (ConfigError, CompanionError) as error:
        print(f"companion: {error.message}", file=sys.stderr)
        return 2
