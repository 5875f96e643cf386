"""The real companion daemon as a subprocess for the benchmarks: demo mode, no camera, on 127.0.0.1 only."""
from __future__ import annotations

import http.client
import json
import os
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 30.0
ANSWER_SECONDS = 10.0


@dataclass(frozen=True)
class Resources:
    """What /proc says about the daemon at one moment."""

    threads: int
    rss_mb: float
    fds: int


def free_port() -> int:
    """A free TCP port on 127.0.0.1; raises OSError."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SCRIPTED_CLIENTS = "[web]\ninputs_per_second = 10000\ninput_burst = 10000\nstreams_per_link = 40\n"
"""The config of a daemon the scripted clients drive: they send inputs as fast as the box answers, faster than a
phone may (web.inputs_per_second), and crowd the evening's 16 phones and its reconnects onto the 3 links every game
has, where a table spreads its phones over up to 6 (web.streams_per_link): the figures measure the box, not its
limits on one phone or one link."""


def run_command(state: Path, port: int, config: Path | None = None) -> list[str]:
    """`companion run` in demo mode on 127.0.0.1 with this state folder and no camera (and that config file);
    raises nothing."""
    return [sys.executable, "-m", "companion", "run", "--demo", "--host", "127.0.0.1", "--port", str(port),
            "--state", str(state), "--camera", "none", *(("--config", str(config)) if config is not None else ())]


class Daemon:
    """`companion run --demo` as a subprocess on 127.0.0.1, with its host token and its output."""

    def __init__(self, state: Path, *, preexec: Callable[[], None] | None = None, config: str = SCRIPTED_CLIENTS) -> None:
        """Start it with that config (TOML text; "": none) and wait for its join URL; raises RuntimeError when it
        does not start in time."""
        self.port = free_port()
        started = time.monotonic()
        handle, path = tempfile.mkstemp(prefix="companion-bench-", suffix=".toml")
        with os.fdopen(handle, "w") as file:
            file.write(config)
        try:
            self.process = subprocess.Popen(run_command(state, self.port, Path(path) if config else None), cwd=ROOT,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=preexec)
            self.log: deque[str] = deque(maxlen=300)
            self._lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=self._drain, daemon=True).start()
            self.token = self._token(started + START_SECONDS)
        finally:
            os.unlink(path)  # read at the start, before the join URL is printed
        self.start_seconds = time.monotonic() - started

    def _token(self, deadline: float) -> str:
        """The host token from the join URL it prints; raises RuntimeError (and kills it) by the deadline."""
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            found = re.search(r"join\?token=([\w-]+)", line)
            if found:
                return found.group(1)
        self.kill()
        raise RuntimeError("the daemon did not start:\n" + self.output())

    def _drain(self) -> None:
        """Keeps reading its output, so it never blocks on a full pipe; raises nothing."""
        for line in self.process.stdout:  # type: ignore[union-attr]
            self.log.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def output(self) -> str:
        """What it printed so far (the last 300 lines); raises nothing."""
        return "".join(self.log)

    def kill(self) -> None:
        """SIGKILL it (a power cut) and wait for it; raises nothing, even when another thread killed it first."""
        self.process.kill()  # Popen ignores a process already gone (the kill timer and the caller may race)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass

    def stop(self) -> int:
        """SIGTERM, then its exit code (killed after 20 s: -9); raises nothing."""
        self.process.terminate()
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One JSON request as the host; returns (status, parsed body); raises OSError without an answer."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)
        try:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
            data = None
            if body is not None:
                data, headers["Content-Type"] = json.dumps(body), "application/json"
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
        except http.client.HTTPException as error:
            raise ConnectionError(f"no answer: {error!r}") from None
        finally:
            connection.close()

    def resources(self) -> Resources:
        """Threads, resident memory (MB) and open files now; raises OSError when it has exited."""
        pid = self.process.pid
        status = Path(f"/proc/{pid}/status").read_text()
        threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]
        return Resources(threads, round(rss, 1), len(list(Path(f"/proc/{pid}/fd").iterdir())))
