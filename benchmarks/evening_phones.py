"""The evening benchmark's phones: event streams opened from their own loopback addresses and read by
one selector thread (so push times stay honest), streams that connect and disconnect, and a stuck
phone that never reads."""
from __future__ import annotations

import bisect
import fcntl
import random
import re
import selectors
import socket
import struct
import termios
import threading
import time
from dataclasses import dataclass, field

WAIT_SECONDS = 5.0
MISSED_MS = WAIT_SECONDS * 1000
ID_LINE = re.compile(rb"^id: (\d+)$", re.M)


def open_stream(port: int, token: str, address: str, *, receive_buffer: int | None = None) -> socket.socket:
    """A socket from `address` that has asked for the event stream; raises OSError."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(WAIT_SECONDS)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    return sock


@dataclass
class Phone:
    """One phone's stream: when each seq arrived, and how many bytes came."""

    sock: socket.socket
    seqs: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    received: int = 0
    rest: bytes = b""

    def take(self, data: bytes, now: float) -> None:
        """Note the ids in newly received bytes; raises nothing."""
        self.received += len(data)
        whole, _, self.rest = (self.rest + data).rpartition(b"\n")
        for found in ID_LINE.finditer(whole):
            self.seqs.append(int(found.group(1)))
            self.times.append(now)

    def arrival(self, seq: int) -> float | None:
        """When the first snapshot at or past seq arrived, or None; raises nothing."""
        at = bisect.bisect_left(self.seqs, seq)
        return self.times[at] if at < len(self.times) else None


class Phones:
    """All the phones' streams, read by one selector thread so timing stays honest."""

    def __init__(self) -> None:
        """No phones yet, and the reading thread started; raises nothing."""
        self.phones: list[Phone] = []
        self._selector = selectors.DefaultSelector()
        self._changed = threading.Condition()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._read, name="phones", daemon=True)
        self._thread.start()

    def add(self, sock: socket.socket) -> None:
        """Start reading a stream; raises nothing."""
        phone = Phone(sock)
        sock.setblocking(False)
        with self._changed:
            self.phones.append(phone)
        self._selector.register(sock, selectors.EVENT_READ, phone)

    def _read(self) -> None:
        """Read whatever arrives on any stream until closed, noting when; a stream that ends is dropped."""
        while not self._stopped.is_set():
            for key, _mask in self._selector.select(timeout=0.1):
                try:
                    data = key.fileobj.recv(262144)  # type: ignore[union-attr]
                except OSError:
                    data = b""
                if not data:
                    self._selector.unregister(key.fileobj)
                    continue
                with self._changed:
                    key.data.take(data, time.perf_counter())
                    self._changed.notify_all()

    def wait_for(self, seq: int, deadline: float) -> bool:
        """Wait until every phone has seq (or the monotonic deadline); returns whether all have it."""
        with self._changed:
            return self._changed.wait_for(lambda: all(phone.arrival(seq) for phone in self.phones),
                                          max(0.0, deadline - time.monotonic()))

    def latencies(self, seq: int, sent: float) -> list[float]:
        """Each phone's ms from `sent` to having seq (MISSED_MS when it never came); raises nothing."""
        self.wait_for(seq, time.monotonic() + WAIT_SECONDS)
        with self._changed:
            arrived = [phone.arrival(seq) for phone in self.phones]
        return [MISSED_MS if when is None else (when - sent) * 1000 for when in arrived]

    def close(self) -> None:
        """Stop reading and close every stream; raises nothing."""
        self._stopped.set()
        self._thread.join(2)
        for phone in self.phones:
            phone.sock.close()


def cycle(port: int, token: str, address: str, kind: str) -> bool:
    """One stream connect and disconnect: 'read' (clean close), 'reset' or 'early'; returns whether it worked."""
    try:
        sock = open_stream(port, token, address)
    except OSError:
        return False
    try:
        if kind == "early":
            return True
        got, deadline = b"", time.monotonic() + WAIT_SECONDS
        while b"\n\n" not in got.partition(b"\nid: ")[2]:  # the first snapshot, whole
            if time.monotonic() > deadline:
                return False
            chunk = sock.recv(65536)
            if not chunk:
                return False
            got += chunk
        return got.startswith(b"HTTP/1.1 200")
    except OSError:
        return False
    finally:
        if kind == "reset":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


class Cycler(threading.Thread):
    """Connects and disconnects streams, each from a new address, keeping pace with the host's actions."""

    def __init__(self, port: int, tokens: list[str], count: int, first: int, seed: int) -> None:
        """`count` cycles with random tokens, from the `first`-th fresh address on; raises nothing."""
        super().__init__(name="cycler", daemon=True)
        self.port, self.tokens, self.count, self.first = port, tokens, count, first
        self.rng = random.Random(seed)
        self.progress = 0.0
        self.done = self.failed = 0

    def run(self) -> None:
        """Cycle streams in step with `progress` (or until ten minutes pass), counting failures."""
        deadline = time.monotonic() + 600
        for index in range(self.count):
            while self.progress < index / self.count and time.monotonic() < deadline:
                time.sleep(0.002)
            number = self.first + index
            address = f"127.0.{2 + number // 250}.{1 + number % 250}"
            kind = self.rng.choices(("read", "reset", "early"), weights=(6, 2, 2))[0]
            ok = cycle(self.port, self.rng.choice(self.tokens), address, kind)
            self.done += 1
            self.failed += not ok


class StuckPhone:
    """A phone that opened the event stream with a tiny receive buffer and never reads it."""

    def __init__(self, port: int, token: str, address: str) -> None:
        """Open its stream with a 1 KB receive buffer; raises OSError."""
        self.sock = open_stream(port, token, address, receive_buffer=1024)

    def queued(self) -> int:
        """How many bytes wait unread in its receive buffer; raises OSError when closed."""
        return struct.unpack("i", fcntl.ioctl(self.sock.fileno(), termios.FIONREAD, b"\0" * 4))[0]

    def close(self) -> None:
        """Go away as a phone does when its Wi-Fi drops (a reset); raises nothing."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()
