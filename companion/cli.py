"""`companion run | read-dice | teach | host-url | backup | export | calibrate | check-config | check-hardware`:
the command line."""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Sequence
from urllib.parse import urlsplit

from companion import config as config_module
from companion.commands import hardware, records, setup
from companion.config import Config, ConfigError
from companion.rules.errors import CompanionError
from vision.hints import add_hints, add_sides

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
    add_sides(read)
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
    hardware.add_parser(commands)
    return root


def _export_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """`companion export`: every finished game (or the dice counts) as CSV or JSON; raises nothing."""
    export = commands.add_parser("export", help="print every finished game (or the dice counts) as CSV or JSON")
    export.add_argument("--state", type=Path, required=True, help="the state folder holding journal.sqlite")
    export.add_argument("--format", choices=("csv", "json"), default="csv")
    export.add_argument("--dice", action="store_true", help="the dice counts (CSV) instead of the plays")


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


def main(argv: Sequence[str] | None = None) -> int:
    """The `companion` command; returns the exit code (2 with one sentence for bad input)."""
    args = parser().parse_args(argv)
    try:
        if args.command == "read-dice":
            from vision.cli import read_dice_main

            return read_dice_main(args.images, as_json=args.json, die_px=args.die_px, tray=args.tray,
                                  taught=records.taught(args.state), sides=args.sides)
        if args.command == "teach":
            return records.teach(args)
        if args.command == "export":
            return records.export(args)
        if args.command == "check-config":
            return setup.check_config(args.config, args.state)
        if args.command == "calibrate":
            return setup.calibrate(args)
        if args.command == "check-hardware":
            return hardware.check_hardware(args)
        chosen = settings(args)
        if args.command == "backup":
            return records.backup(chosen, args.target)
        return run(chosen, front=not args.no_front) if args.command == "run" else host_url(chosen, new=args.new)
    except (ConfigError, CompanionError) as error:
        print(f"companion: {error.message}", file=sys.stderr)
        return 2
