"""Shared test fixtures: the shared dice photos, the real companion serving on 127.0.0.1, free
ports there, and the benchmark scripts the long tests run in short."""
from __future__ import annotations

import importlib
import json
import socket
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dice() -> Path:
    """The folder of labelled dice photos beside the repo; fails (never skips) when it is missing."""
    folder = SHARED / "dice"
    assert folder.is_dir(), f"expected the shared dice photos at {folder}"
    return folder


@pytest.fixture
def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def benchmark() -> Callable[[str], ModuleType]:
    """load_benchmark: benchmarks/NAME.py as a module (benchmarks/ is not installed); it raises ImportError."""
    return load_benchmark


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/NAME.py as the module `benchmarks.NAME`, the name the scripts import each other by, so
    benchmarks/daemon.py is loaded once however it is reached; raises ImportError when it is missing."""
    if str(REPO) not in sys.path:
        sys.path.append(str(REPO))  # the scripts do the same; benchmarks/ is a namespace package there
    return importlib.import_module(f"benchmarks.{name}")


@dataclass
class Server:
    """A running companion: its URL on 127.0.0.1, its tokens and a small JSON client."""

    url: str
    companion: Any

    @property
    def host_token(self) -> str:
        """The host's token."""
        return self.companion.loop.tokens.host_token()

    def seat_token(self, seat: int) -> str:
        """A seat's token."""
        return self.companion.loop.tokens.seat_token(seat)

    def api(self, method: str, path: str, json_body: Any = None, token: str | None = None,
            headers: dict[str, str] | None = None, *, json: Any = None) -> tuple[int, Any]:
        """One HTTP request; returns (status, parsed JSON body or text)."""
        body = json if json is not None else json_body
        return request(self.url + path, method=method, body=body, token=token, headers=headers)

    def seq(self) -> int:
        """The table's seq, read as the host."""
        status, snapshot = self.api("GET", "/api/state", token=self.host_token)
        assert status == 200
        return int(snapshot["seq"])

    def ending_this_game(self) -> dict[str, int]:
        """The field a host sends to start a new game over the unfinished one on the table (ends_game)."""
        status, snapshot = self.api("GET", "/api/state", token=self.host_token)
        assert status == 200 and snapshot["game_no"] is not None, snapshot
        return {"ends_game": int(snapshot["game_no"])}

    def refused(self, path: str, body: Any, token: str, *, status: int | tuple[int, ...],
                code: str | None = None) -> dict[str, Any]:
        """POSTs what must be refused with that status (and code) and a sentence, changing nothing."""
        before = self.seq()
        got, answer = self.api("POST", path, body, token=token)
        assert got in (status if isinstance(status, tuple) else (status,)) and reads_as_sentence(answer), (path, body, got, answer)
        assert code is None or answer["error"] == code, answer
        assert self.seq() == before, f"a refused POST {path} changed the table"
        return answer

    def act(self, token: str, seat: int, move: str, /, **args: Any) -> dict[str, Any]:
        """POSTs one move for a seat and asserts it was taken; returns the new snapshot.

        Positional-only, so that a move's own arguments may be called `seat` or `move` too."""
        status, body = self.api("POST", "/api/actions", json={"seat": seat, "move": move, "args": args}, token=token)
        assert status == 200, f"{move} {args} refused: {body}"
        return body


def reads_as_sentence(answer: Any) -> bool:
    """Whether an error body is {error, message} (and the message's Korean, when the game gives it) with a
    sentence a player can read."""
    if not isinstance(answer, dict) or set(answer) - {"message_ko"} != {"error", "message"}:
        return False
    korean = answer.get("message_ko", "Korean.")
    return (isinstance(answer["message"], str) and len(answer["message"].strip()) >= 10
            and answer["message"].rstrip().endswith((".", "!", "?")) and isinstance(korean, str) and bool(korean.strip()))


@pytest.fixture(scope="session")
def is_sentence() -> Callable[[Any], bool]:
    """reads_as_sentence: whether an error body holds a sentence a player can read."""
    return reads_as_sentence


def request(url: str, *, method: str = "GET", body: Any = None, token: str | None = None,
            headers: dict[str, str] | None = None, timeout: float = 10.0) -> tuple[int, Any]:
    """An HTTP request to the companion (127.0.0.1 only); returns (status, JSON, JPEG bytes or text)."""
    assert url.startswith("http://127.0.0.1:"), "tests talk to 127.0.0.1 only"
    sent = {"Accept": "application/json", **(headers or {})}
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return answer.status, _parse(answer.read(), answer.headers.get_content_type())
    except urllib.error.HTTPError as error:
        return error.code, _parse(error.read(), error.headers.get_content_type())


def _parse(raw: bytes, kind: str) -> Any:
    if kind == "application/json":
        return json.loads(raw)
    if kind == "image/jpeg":
        return raw  # a die's crop: the bytes as served
    return raw.decode("utf-8", "replace")


SCRIPTED_INPUTS = 10_000
"""The tests script whole games faster than any phone may send (web.inputs_per_second): their companion's limit
is raised; tests/web/test_input_limit.py starts one with the box's own."""


def start_companion(state_dir: Path, *, seed: int = 1, frames: Any = None, **overrides: Any) -> Any:
    """Build and start a demo companion on 127.0.0.1 with mock pins and synthetic dice (or `frames`; none at all
    for camera.source = "none")."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import Camera, Config
    from companion.daemon import build
    from vision.sources import SyntheticCamera

    config = Config(demo=True, host="127.0.0.1", port=0, advertise="127.0.0.1", state=state_dir,
                    camera=Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2),
                    inputs_per_second=SCRIPTED_INPUTS, input_burst=SCRIPTED_INPUTS)
    config = replace(config, **overrides)
    if frames is None and config.camera.source != "none":
        frames = SyntheticCamera(seed)
    companion = build(config, pin_factory=MockFactory(pin_class=MockPWMPin), frames=frames)
    companion.start()
    return companion


@pytest.fixture
def start_server(tmp_path: Path, free_port: int) -> Iterator[Callable[..., Server]]:
    """Starts the real companion on one state folder and port as often as a test asks (a restart); all stopped at the end."""
    started: list[Any] = []

    def start(*, frames: Any = None, **overrides: Any) -> Server:
        companion = start_companion(tmp_path / "state", frames=frames, port=free_port, **overrides)
        started.append(companion)
        return Server(f"http://127.0.0.1:{companion.port}", companion)

    yield start
    for companion in started:
        companion.stop()


@pytest.fixture
def companion_server(tmp_path: Path) -> Iterator[Server]:
    """The real companion in demo mode: real SQLite journal, real HTTP server on 127.0.0.1."""
    companion = start_companion(tmp_path / "state")
    try:
        yield Server(f"http://127.0.0.1:{companion.port}", companion)
    finally:
        companion.stop()
