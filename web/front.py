"""The front: Debian's nginx between the Wi-Fi and waitress, started and watched by the companion itself.

waitress gives each connection a place among a few hundred and spools big bodies to disk before the app sees them,
so slow or huge requests from anyone on a café's Wi-Fi stop it answering. nginx is built for them: it waits for a
whole request without a thread, refuses a body over the app's limit before reading it, keeps bodies in memory and
caps each address. It listens on the public address; waitress listens on 127.0.0.1 only and trusts the phone's
address nginx sends (X-Forwarded-For) from there alone. The config is web/front.conf, written into a fresh run
folder at each start. Without nginx installed the companion says so and waitress serves directly.
"""
from __future__ import annotations

import ctypes
import errno
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from companion.rules.said import Said

log = logging.getLogger(__name__)

TEMPLATE = Path(__file__).with_name("front.conf")
SEARCH_PATH = ("/usr/sbin", "/usr/local/sbin", "/sbin")
"""Where nginx lives when the user's PATH lacks the sbin folders (Debian's for a user who is not root)."""
PER_ADDRESS = 20
"""Requests one address may have at once: a phone holds its event stream and a few taps; a browser opens at most 6."""
HEAD_SECONDS = 5
"""A request's head must arrive whole within this long."""
BODY_SECONDS = 5
"""A body that sends nothing for this long is dropped."""
IDLE_SECONDS = 30
"""An idle keep-alive connection is closed after this long."""
SEND_SECONDS = 20
"""A phone that reads nothing of an answer for this long is dropped (an event stream pings every 15 s)."""
START_SECONDS = 10.0
"""How long nginx may take to listen."""
BIND_SECONDS = 2.5
"""How long a port in use is tried again before the companion says so."""
STOP_SECONDS = 5.0
"""How long nginx may take to stop before it is killed."""
RESTART_SECONDS = (0.5, 1, 2, 4, 8)
"""The waits before each restart of an nginx that died, the last one repeated."""
DOWN_SECONDS = 20.0
"""nginx down for longer than this, in spite of restarts, counts as a stopped part (systemd restarts the companion)."""
PR_SET_PDEATHSIG = 1

MISSING = Said("nginx is not installed, so phones reach the box's web server directly: anyone on the Wi-Fi can stop "
               "it answering with slow or huge requests. Install it (sudo apt-get install nginx, or make run) and "
               "start the companion again.",
               "nginx가 설치되어 있지 않아 휴대폰이 상자의 웹 서버에 바로 연결됩니다: 같은 Wi-Fi의 누구나 느리거나 큰 "
               "요청으로 응답을 멈추게 할 수 있습니다. nginx를 설치하고(sudo apt-get install nginx 또는 make run) "
               "컴패니언을 다시 시작하세요.")


class FrontError(OSError):
    """nginx could not start or listen; the message says why in nginx's words."""


def find_nginx() -> str | None:
    """The nginx program's path, or None when it is not installed; raises nothing."""
    found = shutil.which("nginx")
    if found is not None:
        return found
    return shutil.which("nginx", path=os.pathsep.join(SEARCH_PATH))


def listen_address(host: str, port: int) -> str:
    """The `listen` value for a host and port (IPv6 in brackets); raises nothing."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def config_text(*, host: str, port: int, app_port: int, run: Path, max_body: int) -> str:
    """web/front.conf with its names filled in; raises ValueError when a name is left unfilled."""
    values = {"run": str(run), "listen": listen_address(host, port), "app_port": str(app_port),
              "per_address": str(PER_ADDRESS), "head_seconds": str(HEAD_SECONDS), "body_seconds": str(BODY_SECONDS),
              "idle_seconds": str(IDLE_SECONDS), "send_seconds": str(SEND_SECONDS), "max_body": str(max_body),
              "max_body_kb": str(max_body // 1024)}
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in values.items():
        text = text.replace("${" + name + "}", value)
    if "${" in text:
        raise ValueError(f"{TEMPLATE.name} names a value the front does not fill: {text[text.index('${'):][:30]}")
    return text


def hold_port(host: str, port: int) -> socket.socket:
    """A socket bound (not listening) to the port nginx is to listen on: `port`, or a free one for port 0; raises
    OSError when it cannot be bound (in use, no such address), as nginx would find. A port still held is tried for
    BIND_SECONDS (the nginx of a companion killed just now is ending), as nginx itself does. While it is held no
    other socket is given that port, the web server's own included; nginx binds it beside (both reuse addresses)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    deadline = time.monotonic() + BIND_SECONDS
    while True:
        held = socket.socket(family, socket.SOCK_STREAM)
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as nginx binds
        try:
            held.bind((host, port))
            return held
        except OSError as error:
            held.close()
            if error.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                raise
        time.sleep(0.1)


class Front:
    """nginx as the companion's child: start() returns once it listens, a thread restarts it when it dies,
    close() stops it and removes its run folder."""

    def __init__(self, program: str, *, host: str, port: int, max_body: int) -> None:
        """Choose the public port now (port 0: a free one) and hold it until nginx listens; raises OSError when it
        cannot be bound."""
        self.program = program
        self.host = host
        self._held: socket.socket | None = hold_port(host, port)
        self.port = int(self._held.getsockname()[1])
        self.max_body = max_body
        self.app_port = 0
        self.restarts = 0
        self._run: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._said: deque[str] = deque(maxlen=20)
        self._closing = threading.Event()
        self._listening = threading.Event()
        self._failed: str | None = None
        self._down_since: float | None = None
        self._thread: threading.Thread | None = None

    def start(self, app_port: int) -> None:
        """Start nginx in front of waitress on 127.0.0.1:`app_port` and wait until it listens; raises FrontError
        with nginx's own words when it cannot."""
        self.app_port = app_port
        self._run = Path(tempfile.mkdtemp(prefix="companion-front-"))
        (self._run / "nginx.conf").write_text(config_text(host=self.host, port=self.port, app_port=app_port,
                                                          run=self._run, max_body=self.max_body), encoding="utf-8")
        self._thread = threading.Thread(target=self._watch, name="front", daemon=True)
        self._thread.start()
        listening = self._listening.wait(START_SECONDS)
        self._let_go()
        if not listening or self._failed is not None:
            reason = self._failed or f"it did not listen within {START_SECONDS:.0f} s"
            self.close()
            raise FrontError(f"nginx could not start in front of the web server: {reason}")

    @property
    def running(self) -> bool:
        """Whether nginx is up, or was down for less than DOWN_SECONDS (it is being restarted); raises nothing."""
        down = self._down_since
        return self._thread is not None and self._thread.is_alive() and (
            down is None or time.monotonic() - down < DOWN_SECONDS)

    def close(self) -> None:
        """Stop nginx (it closes every connection) and remove its run folder; raises nothing."""
        self._closing.set()
        self._let_go()
        process = self._process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)  # nginx's fast shutdown
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(STOP_SECONDS + 1)
        if self._run is not None:
            shutil.rmtree(self._run, ignore_errors=True)

    def _let_go(self) -> None:
        """Close the socket that held the port (nginx listens on it now, or never will); raises nothing."""
        if self._held is not None:
            self._held.close()
            self._held = None

    def _watch(self) -> None:
        """Run nginx, restart it when it dies, stop it on close(); raises nothing. nginx is started from this
        thread, which lives as long as the front: the kernel ends nginx when it ends (PR_SET_PDEATHSIG)."""
        waits = iter(RESTART_SECONDS)
        wait = RESTART_SECONDS[0]
        while not self._closing.is_set():
            self._process = self._spawn()
            if self._process is None:
                return
            self._wait_listening(self._process)
            if not self._listening.is_set():
                return  # start() reports why
            self._down_since = None
            code = self._process.wait()
            _end_group(self._process.pid)  # a master that crashed leaves its worker listening
            if self._closing.is_set():
                break
            self._down_since = time.monotonic()
            wait = next(waits, wait)
            self.restarts += 1
            log.warning("nginx (the web front) stopped with exit code %s%s; starting it again in %s s", code,
                        f": {self._said[-1]}" if self._said else "", wait)
            self._closing.wait(wait)
        self._stop(self._process)

    def _spawn(self) -> subprocess.Popen[bytes] | None:
        """Start nginx with the run folder's config; returns None (noted in _failed) when it cannot; raises nothing."""
        assert self._run is not None
        (self._run / "nginx.pid").unlink(missing_ok=True)
        try:
            process = subprocess.Popen(
                [self.program, "-p", str(self._run), "-c", str(self._run / "nginx.conf"), "-e", "stderr"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                start_new_session=True,  # Ctrl-C reaches the companion, which stops it
                preexec_fn=functools.partial(_end_with_parent, os.getpid()))
        except OSError as error:
            self._failed = f"{error.strerror or error} ({self.program})"
            self._listening.set()
            return None
        threading.Thread(target=self._relay, args=(process,), name="front-log", daemon=True).start()
        return process

    def _relay(self, process: subprocess.Popen[bytes]) -> None:
        """Pass nginx's lines to the log, keeping the last ones for a failure's reason; raises nothing."""
        assert process.stderr is not None
        for raw in process.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            self._said.append(line)
            log.warning("nginx: %s", line)

    def _wait_listening(self, process: subprocess.Popen[bytes]) -> None:
        """Wait until nginx wrote its pid file (it does so once its sockets are bound), or exited; raises nothing."""
        assert self._run is not None
        pid_file = self._run / "nginx.pid"
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and not self._closing.is_set():
            if process.poll() is not None:
                time.sleep(0.05)  # its last line reaches the relay
                said = self._said[-1] if self._said else f"exit code {process.returncode}"
                if not self._listening.is_set():
                    self._failed = said
                    self._listening.set()
                return
            if pid_file.exists() and pid_file.read_text().strip() == str(process.pid):
                self._listening.set()
                return
            time.sleep(0.02)

    def _stop(self, process: subprocess.Popen[bytes] | None) -> None:
        """End nginx: SIGTERM, then SIGKILL after STOP_SECONDS; raises nothing."""
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        _end_group(process.pid)


def _end_group(pid: int) -> None:
    """Kill what is left of an nginx that ended: its workers share its process group (its own session); raises
    nothing."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _end_with_parent(parent: int) -> None:
    """In the child before exec: the kernel sends it SIGTERM when the thread that started it ends (the companion
    killed outright), so no nginx is left holding the port; a child whose parent `parent` already ended exits at
    once; raises nothing."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # killed between the fork and the prctl: no signal will come
        os._exit(1)


def make_front(*, host: str, port: int, max_body: int, warnings: list[str]) -> Front | None:
    """A front for host:port, or None (with a warning added) when nginx is not installed; raises OSError when the
    port cannot be bound."""
    program = find_nginx()
    if program is None:
        warnings.append(MISSING)
        log.warning(MISSING)
        return None
    return Front(program, host=host, port=port, max_body=max_body)
