"""The whole roll path of the real daemon: from the moment the dice are still to the roll at a seat's event stream.

A recorded camera plays real photos of one die from ../shared/dice (those the shipped reader reads right, chosen by
running it): ROLL throws the next one, a few shifted and smeared frames of a tumbling die, then the photo at rest
from a moment it notes (t_still). The daemon is the real one, built in-process (demo mode, no nginx: that is
hostile_wifi.py's) on 127.0.0.1, playing Through The Gate alone, where every roll check awaits one d6: each roll is a
check (odd or even?) the host starts, then ROLL pressed as the host. Seat 0's phone reads the event stream; a roll
counts once its snapshot's `dice` shows it. Splits: settle (still → the reader starts on the first voted frame,
bounded below by camera.still_seconds), reading (→ the roll recorded: the votes, the judging, the loop's queue) and
record → stream (the journal's time of the roll → the phone). A roll whose values differ from the photo's label is a
misread and a roll the camera asks to throw again a re-roll: counted, not timed.
Run: .venv/bin/python benchmarks/roll_path.py [--rolls 30] [--runs 1] [--folder matteop65-webcam-d6 ...] [--json]
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import queue
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.recorded_camera import RecordedCamera, playlist, readable_photos  # noqa: E402
from companion.config import Camera, Config, GameConfig  # noqa: E402
from vision.scoring import LabelledPhoto, load_folder  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
FOLDERS = ("matteop65-webcam-d6",)  # webcam frames of one to five dice on a desk: the one-die ones are the rolls
GAME = GameConfig("through-the-gate", ("Ann",), {"hourglasses": 999})  # alone: no end of turn between the checks
ANSWER_SECONDS = 20.0  # a roll not at the phone by then is a failure of the run
SPANS = (("settle_ms", "still → first voted frame read (settle)"), ("reading_ms", "→ roll recorded (reading)"),
         ("stream_ms", "→ seat's event stream (record → stream)"),
         ("total_ms", "still → seat's event stream (whole path)"))


class Stopwatch:
    """The daemon's dice reader with the start and end of every read noted (time.monotonic()); reads as it does."""

    def __init__(self, reader: Any) -> None:
        self.reader, self.reads = reader, []

    def read(self, frame: Any, **options: Any) -> Any:
        """The reader's reading; raises what it raises."""
        started = time.monotonic()
        try:
            return self.reader.read(frame, **options)
        finally:
            self.reads.append((started, time.monotonic()))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)


class Phone(threading.Thread):
    """A seat's phone on the event stream: each snapshot, with the moment it arrived, on `snapshots`."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.snapshots: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()

    def run(self) -> None:
        """Read the stream until the daemon stops; raises nothing."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {self.token}"})
            answer, kind = connection.getresponse(), ""  # held: an answer dropped closes its stream
            for raw in iter(answer.fp.readline, b""):  # the raw lines: iterating HTTPResponse would buffer
                if raw.startswith(b"data:") and kind == "snapshot":
                    self.snapshots.put((time.monotonic(), json.loads(raw[5:])))
                kind = raw[6:].strip().decode() if raw.startswith(b"event:") else kind
        except (OSError, ValueError):
            return  # the daemon stopped at the end of the run

    def answer(self, last_seq: int) -> tuple[float, dict[str, Any]]:
        """The snapshot that ends a roll asked for after `last_seq`: its dice newer, or the camera done reading
        without them (a re-roll asked); raises TimeoutError after ANSWER_SECONDS."""
        deadline, reading = time.monotonic() + ANSWER_SECONDS, False
        while (left := deadline - time.monotonic()) > 0:
            try:
                arrived, snapshot = self.snapshots.get(timeout=left)
            except queue.Empty:
                break
            status = snapshot["camera"]["status"]
            if (snapshot["dice"] or {}).get("seq", 0) > last_seq or (reading and status != "reading"):
                return arrived, snapshot
            reading = reading or status == "reading"
        raise TimeoutError(f"No roll reached the phone within {ANSWER_SECONDS:g} s.")


def api(port: int, token: str, method: str, path: str, body: Any = None) -> Any:
    """One JSON request as the host; returns the parsed body; raises RuntimeError when refused, OSError unanswered."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json", "Content-Type": "application/json"}
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = connection.getresponse()
        parsed = json.loads(answer.read() or b"null")
    finally:
        connection.close()
    if answer.status != 200:
        raise RuntimeError(f"{method} {path} was refused ({answer.status}): {parsed}")
    return parsed


def one_run(photos: list[LabelledPhoto], rolls: int) -> list[dict[str, Any]]:
    """Start the daemon with a recorded camera, roll `rolls` times; returns one record a roll; raises RuntimeError
    or TimeoutError when the daemon does not answer."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.daemon import build

    camera = RecordedCamera(playlist(photos, rolls))
    with tempfile.TemporaryDirectory() as folder:
        config = Config(demo=True, host="127.0.0.1", port=0, advertise="127.0.0.1", state=Path(folder), game=GAME)
        companion = build(config, pin_factory=MockFactory(pin_class=MockPWMPin), frames=camera, front=False)
        companion.start()
        try:
            stopwatch = companion.server.app.extensions["companion"].camera.errand(_time_reads)
            phone = Phone(companion.port, companion.loop.tokens.seat_token(0))
            phone.start()
            host = (companion.port, companion.loop.tokens.host_token())
            api(*host, "POST", "/api/actions", {"seat": 0, "move": "declare_speed", "args": {"speed": 4}})
            records = [_roll(host, camera, phone) for _ in range(rolls)]
            return [_timed(record, stopwatch.reads, companion.journal.path) for record in records]
        finally:
            companion.stop()


def _time_reads(source: Any, reading: Any) -> Stopwatch:
    """The tray reading's reader swapped for one that notes its reads (on the camera thread); raises nothing."""
    reading.reader = Stopwatch(reading.reader)
    return reading.reader


def _roll(host: tuple[int, str], camera: RecordedCamera, phone: Phone) -> dict[str, Any]:
    """One roll: a check begun when none awaits the die, ROLL pressed, the answer at the phone; raises RuntimeError
    or TimeoutError."""
    state = api(*host, "GET", "/api/state")
    if state["awaiting_dice"] is None:
        api(*host, "POST", "/api/actions", {"seat": 0, "move": "check", "args": {"kind": "odd_even"}})
    last_seq = (state["dice"] or {}).get("seq", 0)
    api(*host, "POST", "/api/press", {"button": "roll"})
    arrived, snapshot = phone.answer(last_seq)
    dice = snapshot["dice"] if (snapshot["dice"] or {}).get("seq", 0) > last_seq else None
    return {"throw": camera.throws[-1], "arrived": arrived, "dice": dice, "status": snapshot["camera"]["status"]}


def _timed(record: dict[str, Any], reads: list[tuple[float, float]], journal: Path) -> dict[str, Any]:
    """A roll's outcome ("read", "misread", "reroll" or "early": read before the die lay still) and, when read,
    its spans in ms; raises sqlite3.Error."""
    throw, dice = record["throw"], record["dice"]
    if dice is None:
        return {"outcome": "reroll", "status": record["status"]}
    if tuple(dice["values"]) != throw.photo.values or "camera" not in dice["origins"]:
        return {"outcome": "misread", "values": dice["values"], "label": list(throw.photo.values)}
    with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as database:
        (at,), = database.execute("SELECT at FROM entries WHERE id = ?", (dice["seq"],)).fetchall()
    recorded = at - (time.time() - time.monotonic())  # the journal's wall-clock time, on the monotonic clock
    own = [read for read in reads if throw.still_at <= read[0] <= recorded]
    if not own:  # the settle took a tumbling frame for dice at rest
        return {"outcome": "early", "values": dice["values"]}
    spans = {"settle_ms": own[0][0] - throw.still_at, "reading_ms": recorded - own[0][0],
             "stream_ms": record["arrived"] - recorded, "total_ms": record["arrived"] - throw.still_at}
    return {"outcome": "read", "reads": len(own), "read_ms": [1000 * (end - start) for start, end in own],
            **{key: round(1000 * value, 2) for key, value in spans.items()}}


def roll_path(rolls: int = 30, runs: int = 1, folders: tuple[str, ...] = FOLDERS) -> dict[str, Any]:
    """The figures of `runs` runs of `rolls` rolls each: median and p95 of every span, and the counts; raises
    ValueError without usable photos, RuntimeError or TimeoutError when the daemon does not answer."""
    photos = readable_photos([SHARED / name for name in folders])
    records = [record for _ in range(runs) for record in one_run(photos, rolls)]
    timed = [record for record in records if record["outcome"] == "read"]
    figures: dict[str, Any] = {key: _spread([record[key] for record in timed]) for key, _ in SPANS}
    figures["read_ms"] = _spread([each for record in timed for each in record["read_ms"]])
    one_die = sum(len(photo.values) == 1 for name in folders for photo in load_folder(SHARED / name))
    figures.update(rolls=len(records), runs=runs, timed=len(timed), misread=_count(records, "misread"),
                   reroll=_count(records, "reroll"), early=_count(records, "early"),
                   reads_per_roll=_spread([record["reads"] for record in timed]), still_seconds=Camera().still_seconds,
                   frames_to_vote=Camera().frames_to_vote, folders=list(folders), photos=len(photos),
                   one_die_photos=one_die)
    return figures


def _spread(values: list[float]) -> dict[str, float]:
    """Median, p95 (nearest rank) and the extremes; raises nothing (NaN for none)."""
    ordered = sorted(values) or [float("nan")]
    p95 = ordered[math.ceil(0.95 * len(ordered)) - 1]
    return {"median": round(statistics.median(ordered), 2), "p95": round(p95, 2), "min": round(ordered[0], 2),
            "max": round(ordered[-1], 2)}


def _count(records: list[dict[str, Any]], outcome: str) -> int:
    return sum(record["outcome"] == outcome for record in records)


def table(figures: dict[str, Any]) -> str:
    """The figures as a markdown table and a line of counts; raises KeyError for figures of another shape."""
    lines = ["| span | median ms | p95 ms |", "|---|---|---|"]
    lines += [f"| {title} | {figures[key]['median']:.0f} | {figures[key]['p95']:.0f} |" for key, title in SPANS]
    lines.append(f"\n{figures['timed']} of {figures['rolls']} rolls timed ({figures['runs']} run(s)); misread "
                 f"{figures['misread']}, re-roll asked {figures['reroll']}, read before still {figures['early']}; "
                 f"one read {figures['read_ms']['median']:.0f} ms (median), "
                 f"{figures['reads_per_roll']['median']:g} reads a roll; camera.still_seconds "
                 f"{figures['still_seconds']:g}, frames_to_vote {figures['frames_to_vote']}; {figures['photos']} of "
                 f"{figures['one_die_photos']} one-die photos of {', '.join(figures['folders'])} read right.")
    return "\n".join(lines)


def main() -> int:
    """Run the benchmark and print its table (or JSON); returns 0."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rolls", type=int, default=30, help="rolls a run")
    options.add_argument("--runs", type=int, default=1, help="runs, each a fresh daemon")
    options.add_argument("--folder", action="append", help=f"a folder of ../shared/dice (repeatable; {FOLDERS[0]})")
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    figures = roll_path(max(1, args.rolls), max(1, args.runs), tuple(args.folder or FOLDERS))
    print(json.dumps(figures) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
