"""systemd's notify protocol through a real NOTIFY_SOCKET: READY once up, regular watchdog pings that
stop while the engine loop is stalled, STOPPING and exit code 0 on SIGTERM; WATCHDOG_USEC honoured."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.table.loop import Job
from companion.table.notify import PING_SECONDS, notifier, ping_interval

REPO = Path(__file__).resolve().parents[2]


class Listener:
    """The systemd side: an AF_UNIX datagram socket that notes each message and when it came."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address if not address.startswith("@") else "\0" + address[1:])

    def receive(self, timeout: float) -> tuple[str, float] | None:
        """The next message and its monotonic arrival time, or None after timeout; raises nothing."""
        self.sock.settimeout(max(0.001, timeout))
        try:
            return self.sock.recv(4096).decode(), time.monotonic()
        except socket.timeout:
            return None

    def until(self, wanted: str, timeout: float) -> list[tuple[str, float]]:
        """Every message up to and including `wanted`; raises AssertionError when it does not come."""
        deadline, seen = time.monotonic() + timeout, []
        while (got := self.receive(deadline - time.monotonic())) is not None:
            seen.append(got)
            if got[0] == wanted:
                return seen
        raise AssertionError(f"no {wanted} within {timeout} s; got {[message for message, _ in seen]}")

    def during(self, seconds: float) -> list[tuple[str, float]]:
        """Every message that arrives within `seconds`; raises nothing."""
        deadline, seen = time.monotonic() + seconds, []
        while (got := self.receive(deadline - time.monotonic())) is not None:
            seen.append(got)
        return seen

    def drain(self) -> None:
        """Forget the messages already waiting; raises nothing."""
        while self.receive(0.001) is not None:
            pass


@pytest.fixture
def listener() -> Iterator[Listener]:
    """A NOTIFY_SOCKET in a short temp folder (AF_UNIX paths are limited to 108 bytes)."""
    with tempfile.TemporaryDirectory(prefix="notify-") as folder:
        listening = Listener(str(Path(folder) / "notify.sock"))
        yield listening
        listening.sock.close()


def pings(messages: list[tuple[str, float]]) -> list[float]:
    """The arrival times of the WATCHDOG=1 messages; raises nothing."""
    return [at for message, at in messages if message == "WATCHDOG=1"]


def largest_gap(times: list[float]) -> float:
    """The longest time between neighbours; raises ValueError for fewer than two."""
    return max(later - earlier for earlier, later in zip(times, times[1:]))


# --- the daemon as systemd runs it ---------------------------------------------------------------
def test_the_daemon_speaks_the_notify_protocol(tmp_path: Path, listener: Listener, free_port: int) -> None:
    port = free_port
    command = [sys.executable, "-m", "companion", "run", "--demo", "--host", "127.0.0.1", "--port", str(port),
               "--state", str(tmp_path / "state"), "--camera", "synthetic"]
    environ = {**os.environ, "NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "15000000"}
    daemon = subprocess.Popen(command, cwd=REPO, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        before_ready = listener.until("READY=1", timeout=30)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as answer:
            assert answer.status == 200  # the web is up when READY=1 is sent
        running = listener.during(3.2)
        times = pings(running)
        assert len(times) >= 3 and largest_gap(times) < PING_SECONDS + 0.5, running
        daemon.send_signal(signal.SIGTERM)
        stopping = listener.until("STOPPING=1", timeout=10)
        code = daemon.wait(20)
        output = daemon.stdout.read()  # type: ignore[union-attr]
    finally:
        daemon.kill()
        daemon.wait(5)
    said = [message for message, _ in before_ready + running + stopping]
    assert said.count("READY=1") == 1 and set(said) <= {"READY=1", "WATCHDOG=1", "STOPPING=1"}, said
    assert code == 0 and "Stopped cleanly." in output, output
    assert "warning:" not in output, output  # GPIO (mock pins) and the camera came up


# --- in-process: what READY=1 waits for, and a stalled loop ---------------------------------------
@pytest.fixture
def companion(tmp_path: Path, listener: Listener) -> Iterator[Any]:
    """A demo companion built in-process with the listener as its NOTIFY_SOCKET, not yet started."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import Camera, Config
    from companion.daemon import build
    from vision.sources import SyntheticCamera

    config = Config(demo=True, host="127.0.0.1", port=0, advertise="127.0.0.1", state=tmp_path / "state",
                    camera=Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2))
    built = build(config, pin_factory=MockFactory(pin_class=MockPWMPin), frames=SyntheticCamera(1),
                  environ={"NOTIFY_SOCKET": listener.address})
    yield built
    built.stop()


def test_ready_comes_once_gpio_camera_and_web_are_up(companion: Any, listener: Listener) -> None:
    assert all(message != "READY=1" for message, _ in listener.during(0.2))
    companion.start()
    listener.until("READY=1", timeout=1)
    assert companion.panel is not None and not companion.warnings
    assert companion.camera is not None and companion.camera._thread.is_alive()
    with urllib.request.urlopen(f"http://127.0.0.1:{companion.port}/api/games", timeout=5) as answer:
        assert answer.status == 200


def test_a_stalled_engine_loop_stops_the_pings_until_it_moves_again(companion: Any, listener: Listener) -> None:
    companion.start()
    listener.until("READY=1", timeout=5)
    assert pings(listener.during(1.5)), "no pings from a healthy loop"
    stalled, release = threading.Event(), threading.Event()

    def stall(job: Job) -> None:
        stalled.set()
        release.wait(15)

    companion.loop.handlers["stall"] = stall
    try:
        companion.loop.enqueue(Job("stall", None))
        assert stalled.wait(5)
        listener.drain()  # pings sent before the stall began
        quiet = listener.during(3 * PING_SECONDS)
        assert not pings(quiet), quiet
    finally:
        release.set()
    released_at = time.monotonic()
    first = pings(listener.during(PING_SECONDS + 0.5))
    assert first and first[0] - released_at < 0.5, "the pings did not resume"


# --- WATCHDOG_USEC and the socket's address forms ------------------------------------------------
@pytest.mark.parametrize(("environ", "expected"), [
    ({}, PING_SECONDS),
    ({"WATCHDOG_USEC": "15000000"}, PING_SECONDS),
    ({"WATCHDOG_USEC": "1000000"}, 0.5),
    ({"WATCHDOG_USEC": "1000"}, 0.05),
    ({"WATCHDOG_USEC": "0"}, PING_SECONDS),
    ({"WATCHDOG_USEC": "soon"}, PING_SECONDS),
    ({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}, PING_SECONDS),  # that watchdog is another process's
    ({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid())}, 0.5),
])
def test_the_ping_interval_is_at_most_half_the_watchdog(environ: dict[str, str], expected: float) -> None:
    assert ping_interval(environ) == expected


def test_the_loop_pings_as_often_as_a_short_watchdog_needs(tmp_path: Path, listener: Listener) -> None:
    from companion.games import registered_games
    from companion.journal.store import Journal
    from companion.table.loop import EngineLoop
    from companion.table.session import Session
    from companion.table.tokens import Tokens

    journal = Journal(tmp_path / "journal.sqlite")
    loop = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=Tokens(journal),
                      join_url=str, notify=notifier({"NOTIFY_SOCKET": listener.address}),
                      ping_seconds=ping_interval({"WATCHDOG_USEC": "500000"}))
    loop.start()
    try:
        times = pings(listener.during(1.5))
    finally:
        loop.stop()
        journal.close()
    assert len(times) >= 5 and largest_gap(times) < 0.25 + 0.15, times


def test_an_abstract_notify_socket_is_reached() -> None:
    address = f"@companion-test-{os.getpid()}-{time.monotonic_ns()}"
    abstract = Listener(address)
    try:
        notifier({"NOTIFY_SOCKET": address})("READY=1")
        assert abstract.until("READY=1", timeout=1)
    finally:
        abstract.sock.close()


def test_no_socket_means_silence_and_a_vanished_one_is_no_error(tmp_path: Path) -> None:
    notifier({})("READY=1")
    notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})("WATCHDOG=1")  # systemd went away: no raise


@pytest.mark.parametrize("part", ["web server", "dice camera"])
def test_a_part_that_stopped_stops_the_pings_so_systemd_restarts_the_box(companion: Any, listener: Listener,
                                                                        part: str) -> None:
    companion.start()
    listener.until("READY=1", timeout=5)
    assert pings(listener.during(1.5)), "no pings from a healthy box"
    if part == "web server":
        companion.server.close()  # as if its thread had died
    else:
        companion.camera.stop()
    assert companion.loop.stopped_part() == part
    listener.drain()
    quiet = listener.during(3 * PING_SECONDS)
    assert not pings(quiet), quiet
