"""The composition root: build(config) wires the engine loop, journal, GPIO, camera and web."""
from __future__ import annotations

import errno
import logging
import secrets
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.box_panel import box_panel, show_lights
from companion.camera.setup import CameraSetup
from companion.camera.table_lessons import TableLessons, open_lessons
from companion.camera.teach_desk import TeachingDesk
from companion.config import Config, ConfigError
from companion.camera.dice_camera import DiceCamera
from companion.games import registered_games
from companion.rules.inputs import StartGame
from companion.journal.store import Journal
from companion.memory.service import Memory
from companion.table.loop import EngineLoop
from companion.table.announce import announced_name, box_address
from companion.table.network import advertised, join_base
from companion.table.notify import notifier, ping_interval
from companion.table.port import Holder
from companion.rules import engine
from companion.rules.errors import CompanionError
from companion.rules.said import Said
from companion.table.session import Session
from companion.table.tokens import Tokens

log = logging.getLogger(__name__)
SWITCH_SECONDS = 0.001  # how long a thread may hold Python's interpreter while another waits (Python's default: 5 ms).
# The engine loop releases it for every journal commit; a thread busy with the memory's statistics then kept it for
# the whole 5 ms, and a move took 5.5 ms instead of 1.4 ms (benchmarks/memory.py).


@dataclass
class Companion:
    """A built companion: start() brings it up, stop() takes it down cleanly."""

    config: Config
    loop: EngineLoop
    server: Any
    journal: Journal
    panel: Any = None
    camera: DiceCamera | None = None
    source: Any = None
    warnings: list[str] = field(default_factory=list)
    notify: Callable[[str], None] = lambda message: None
    front: Any = None
    memory: Any = None
    _server_thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port phones connect to (the front's, or the web server's without one); raises nothing."""
        return int(self.front.port if self.front is not None else self.server.port)

    def host_url(self) -> str:
        """The host's join URL, printed at start-up; raises JournalError."""
        return self.loop.join_url(Holder(None))

    def start(self) -> None:
        """Start the loop, the camera, the web server and its front, then tell systemd READY; raises OSError, or
        ConfigError naming web.host and web.port when nginx cannot start (everything started is stopped again)."""
        sys.setswitchinterval(SWITCH_SECONDS)
        self.loop.start()
        if self.camera is not None:
            self.camera.start()
        self._server_thread = threading.Thread(target=self.server.run, name="web", daemon=True)
        self._server_thread.start()
        if self.front is not None:
            self._start_front()
        self.loop.stopped_part = self._stopped_part
        self.notify("READY=1")

    def _start_front(self) -> None:
        """Start nginx on the port its front holds; raises ConfigError naming web.host and web.port."""
        try:
            self.front.start(self.server.port)
        except OSError as error:
            self.stop()
            raise ConfigError(f"Cannot listen on web.host = {self.config.host!r}, web.port = "
                              f"{self.config.port}: {error}") from None

    def _stopped_part(self) -> str | None:
        """The part that stopped running while the loop goes on (web server, dice camera), or None; raises nothing."""
        if self._server_thread is not None and not self._server_thread.is_alive():
            return "web server"
        if self.front is not None and not self.front.running:
            return "web front (nginx)"
        if self.camera is not None and not self.camera.running:
            return "dice camera"
        return None

    def stop(self) -> None:
        """Stop everything in order, the journal last; raises nothing."""
        self.notify("STOPPING=1")
        self.loop.stopped_part = lambda: None  # its parts stop now on purpose
        if self.front is not None:
            self.front.close()
        self.server.close()
        if self.camera is not None:
            self.camera.stop()
        self.loop.stop()
        for part in (self.panel, self.source):
            close = getattr(part, "close", None)
            if close is not None:
                close()
        if self.memory is not None:
            self.memory.close()  # its read-only connection first, so the journal's close removes the WAL
        self.journal.close()


def build(config: Config, *, pin_factory: Any = None, frames: Any = None, state_dir: Path | None = None,
          environ: dict[str, str] | None = None, front: bool = True) -> Companion:
    """Wire a companion from its config (hardware injectable; `front`: nginx in front of the web server where it
    is installed, False to measure without it); raises ConfigError or JournalError."""
    games = registered_games()
    journal = Journal(Path(state_dir or config.state) / "journal.sqlite")
    try:
        session = Session(games=games, journal=journal)
    except CompanionError:  # the replay found the journal wrong: leave it as it was
        journal.abandon()
        raise
    if session.table is None and not journal.read_only:
        _first_game(session, config)
    unused_game = _unused_game_fault(config)
    tokens = Tokens(journal)
    notify = notifier(environ)
    loop = EngineLoop(session=session, tokens=tokens, join_url=lambda token: "", demo=config.demo, notify=notify,
                      ping_seconds=ping_interval(environ))
    warnings: list[str] = []
    setup = CameraSetup(config.camera, journal.path.parent, warnings, tell_host=loop.tell_host)
    lessons = open_lessons(journal.path.parent, warnings) if frames is not None or config.camera.source != "none" else None
    try:  # before any hardware is claimed: a port in use only closes the journal
        guard = _front(config, warnings) if front else None
        memory = Memory(journal.path, games)
        server = _server(config, loop, setup, memory, None if lessons is None else TeachingDesk(setup, lessons),
                         behind_front=guard is not None)
    except ConfigError:
        journal.close()
        raise
    companion = Companion(config, loop, server, journal, notify=notify, warnings=warnings, front=guard, memory=memory)
    if journal.read_only:
        companion.warnings.append(journal.read_only_warning())
        log.warning(companion.warnings[-1])
    if unused_game is not None:
        companion.warnings.append(unused_game)
        log.warning(companion.warnings[-1])
    companion.panel = box_panel(config, pin_factory, loop, companion.warnings)
    if companion.panel is not None:
        loop.on_lights = show_lights(companion.panel)
        loop.on_refused = companion.panel.refuse
    companion.source, companion.camera = _camera(config, frames, loop, setup, companion.warnings, lessons)
    for number, warning in enumerate(companion.warnings):  # the host at the table sees no log: the page says it
        loop.tell_host(f"start-{number}", warning)
    loop.make_join_url = lambda token: join_urls(config, companion.port)(token)  # nginx's port, where it is in front
    loop.box_address = lambda: box_address(config.host, config.advertise, companion.port, name=announced_name())
    return companion


def join_urls(config: Config, port: int) -> Callable[[str], str]:
    """How a token becomes a join URL, at the address the box has when it is shown (the Wi-Fi may come up,
    or change, after start); raises nothing."""
    return lambda token: f"{join_base(advertised(config.host, config.advertise), port)}/join?token={token}"


def check_first_game(config: Config) -> None:
    """Check the config's [game] as the first boot would start it; raises ConfigError naming what is wrong."""
    games = registered_games()
    if config.game.id not in games:
        raise ConfigError(f"game.id = {config.game.id!r} is not a game here; choose one of: {', '.join(sorted(games))}.")
    try:
        engine.check_players(games[config.game.id], list(config.game.players))
        engine.check_options(games[config.game.id], config.game.options)
    except CompanionError as error:
        raise ConfigError(f"game: {error.message}") from None


def _unused_game_fault(config: Config) -> Said | None:
    """What is wrong with a [game] the running table does not need (it starts only on an empty state folder),
    or None; raises nothing."""
    try:
        check_first_game(config)
    except ConfigError as error:
        return Said(f"{error} The [game] section is used only to start the first game on an empty state folder, "
                    "so this table runs on; fix it before then.",
                    f"{error} [game] 설정은 빈 상태 폴더에서 첫 게임을 시작할 때만 쓰이므로 이 테이블은 계속됩니다. "
                    "그 전에 고치세요.")
    return None


def _first_game(session: Session, config: Config) -> None:
    """Start the config's game on the first boot; raises ConfigError when the config's [game] is wrong."""
    check_first_game(config)
    request = StartGame(config.game.id, config.game.players, config.game.options, secrets.randbits(32))
    session.submit(request, source="system")


def _camera(config: Config, frames: Any, loop: EngineLoop, setup: CameraSetup, warnings: list[str],
            lessons: TableLessons | None) -> tuple[Any, DiceCamera | None]:
    from companion.camera.guard import GuardedCamera
    from companion.camera.roller import Roller
    from companion.camera.tray_reading import TrayReading
    from vision.sources import open_source

    if frames is None and config.camera.source == "none":
        return None, None

    def open_camera() -> Any:  # the light as calibrated now: the host page may have calibrated it since
        return setup.opened(frames if frames is not None else open_source(config.camera.source))

    if not config.demo and frames is None and config.camera.source.startswith("synthetic"):
        warnings.append(Said('camera.source is "synthetic": the camera shows made-up dice, not the tray. '
                             'Set camera.source = "pi" (or "usb:0") to read the real dice.',
                             'camera.source가 "synthetic"입니다: 카메라가 트레이가 아니라 지어낸 주사위를 보여 줍니다. '
                             '실제 주사위를 읽으려면 camera.source = "pi"(또는 "usb:0")로 설정하세요.'))
        log.warning(warnings[-1])
    source = GuardedCamera(open_camera)
    if not source.online:  # logged, not a lasting warning: the phones' camera line says it while it lasts
        log.warning("Camera offline (%s); enter rolls by hand. It is tried again with back-off.", source.reason)
    reading = TrayReading(setup.settings, warnings)
    if lessons is not None:
        reading.reader.taught = lessons.eyes  # reads with what the table taught, and keeps each read's faces
    roller = Roller(source, reading, read_d8=reading.with_d8 if reading.reader.reads_d8 else None,
                    still_seconds=config.camera.still_seconds, frames_to_vote=config.camera.frames_to_vote)
    camera = DiceCamera(loop, roller, before_roll=_demo_throw(source) if config.demo else lambda sides: None,
                        lessons=lessons)
    setup.attach(camera, source, reading)
    return source, camera


def _demo_throw(source: Any) -> Callable[[tuple[int, ...]], object]:
    """In demo mode ROLL also throws: synthetic dice land, or the next photo shows."""

    def throw(sides: tuple[int, ...]) -> object:
        camera = source.camera
        if hasattr(camera, "throw"):
            return camera.throw(count=len(sides))
        if hasattr(camera, "next_photo"):
            return camera.next_photo()
        return None

    return throw


def _server(config: Config, loop: EngineLoop, setup: CameraSetup, memory: Memory, teach: TeachingDesk | None, *,
            behind_front: bool) -> Any:
    """The web server, bound now (behind the front: on a free port of 127.0.0.1); raises ConfigError naming web.host
    and web.port when it cannot listen."""
    from web import create_app
    from web.server import make_server

    port = 0 if behind_front else config.port
    try:
        return make_server(create_app(loop, camera=setup, inputs_per_second=config.inputs_per_second,
                                      input_burst=config.input_burst, memory=memory,
                                      streams_per_link=config.streams_per_link, teach=teach),
                           host=config.host, port=port, behind_front=behind_front)
    except (OSError, ValueError) as error:
        raise ConfigError(f"Cannot listen on web.host = {config.host!r}, web.port = {config.port}: {_why(error)}") from None


def _front(config: Config, warnings: list[str]) -> Any:
    """nginx in front of the web server, its port chosen (None, with a warning, when nginx is not installed);
    raises ConfigError naming web.host and web.port when that port cannot be bound."""
    from web import MAX_BODY
    from web.front import make_front

    try:
        return make_front(host=config.host, port=config.port, max_body=MAX_BODY, warnings=warnings)
    except (OSError, ValueError) as error:
        raise ConfigError(f"Cannot listen on web.host = {config.host!r}, web.port = {config.port}: {_why(error)}") from None


def _why(error: Exception) -> str:
    """The reason a server cannot listen, in players' words; raises nothing."""
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "another program already uses that port (is the companion already running?)."
    if isinstance(error, OSError) and error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address."
    return f"{error}."
