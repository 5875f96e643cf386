"""The engine loop: one queue, one thread. Buttons, the camera and web requests only enqueue.

It applies each input with the session, publishes the new table on the board (phones, LEDs) and pings the
watchdog; it implements the `TablePort` the web front uses.
"""
from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from dataclasses import replace
from typing import Any, Callable

from companion.table.board import Board, last_dice, shown_roll
from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.table.jobs import Job, JobQueue
from companion.table.next_guard import NextGuard
from companion.table.notify import PING_SECONDS
from companion.table.claim import ClaimWindow
from companion.table.port import PANEL_BUTTONS, Holder, Seen, TableBusy
from companion.table.presses import next_move, start_roll
from companion.rules.errors import CompanionError
from companion.table.session import Session
from companion.table.snapshot import JSON, CameraGuess, Extras, LastDice
from companion.table.tokens import Tokens, renew_seat_links

log = logging.getLogger(__name__)
ANSWER_SECONDS = 10.0
NO_ANSWER_IN_TIME = "The table did not answer in time, so nothing changed; try again."
SLOW_TO_ANSWER = "The table is slow to answer; look at the table before trying again."


class EngineLoop:
    """The one place inputs are applied; every other thread talks to it through its queue."""

    def __init__(self, *, session: Session, tokens: Tokens, join_url: Callable[[str], str],
                 demo: bool = False, notify: Callable[[str], None] = lambda message: None,
                 on_lights: Callable[[JSON], None] = lambda shown: None, ping_seconds: float = PING_SECONDS) -> None:
        """Wire the loop; nothing runs until start(); it pings after each job and each ping_seconds idle."""
        self.ping_seconds = ping_seconds
        self.clock: Callable[[], float] = time.monotonic
        self._next_guard = NextGuard()  # NEXT must not end the turn after the one it was meant for
        self.stopped_part: Callable[[], str | None] = lambda: None  # the daemon names a thread that died
        self._told_stopped: str | None = None
        self.session = session
        self.tokens = tokens
        self.make_join_url = join_url
        self._notify = notify
        self.on_lights = on_lights  # the daemon shows the lights on the box's LEDs
        self.on_refused: Callable[[], None] = lambda: None  # the daemon makes the panel say "no" to a press
        self._jobs = JobQueue()
        self._thread: threading.Thread | None = None
        self._crops: dict[str, bytes] = {}
        self.camera: Any = None
        self.handlers: dict[str, Callable[[Job], None]] = {"input": self._on_input, "press": self._on_press,
                                                           "notice": self._on_notice, "claim": self._on_claim}
        self.claim = ClaimWindow()  # NEXT and UNDO held on the box: a minute in which a phone may become the host
        self.box_address: Callable[[], JSON] = lambda: {"name": None, "number": None}  # the daemon says where it is
        self._extras = Extras(demo=demo, boot=secrets.token_hex(4), dice=last_dice(session), game_no=session.game_id)
        self.board = Board(session, self._extras, lambda shown: self.on_lights(shown))

    @property
    def demo(self) -> bool:
        """Whether the virtual panel is shown (demo mode); raises nothing."""
        return self._extras.demo

    # --- the loop thread -------------------------------------------------------------
    def start(self) -> None:
        """Start the loop thread and publish the first state before returning, so no page is served the table as it
        was before the box set it up (a seq that moves on its own); raises RuntimeError if started."""
        if self._thread is not None:
            raise RuntimeError("The engine loop is already running.")
        renew_seat_links(self.tokens, self.session, missed_only=True)
        self._thread = threading.Thread(target=self._run, name="engine-loop", daemon=True)
        self._thread.start()
        self._jobs.send(Job("publish", None)).wait(ANSWER_SECONDS)

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the loop to finish its queue and stop; raises nothing."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout)
            self._thread = None

    def enqueue(self, job: Job) -> None:
        """Put a job on the queue (never blocks); raises nothing."""
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.take(self.ping_seconds)
            except queue.Empty:
                if self._extras.claiming != self.claim.is_open:  # the minute to claim the box has passed
                    self._publish()
                self._ping()
                continue
            if job is None:
                return
            self._handle(job)
            self._ping()

    def _ping(self) -> None:
        """Tell systemd the box is alive, unless a part it needs has stopped (then systemd restarts it)."""
        stopped = self.stopped_part()
        if stopped is None:
            self._notify("WATCHDOG=1")
        elif stopped != self._told_stopped:
            log.error("the %s has stopped: no more watchdog pings, so systemd restarts the companion", stopped)
        self._told_stopped = stopped

    def _handle(self, job: Job) -> None:
        if not self._jobs.claim(job):
            return
        handler = self.handlers.get(job.kind, lambda given: None)
        try:
            handler(job)
        except CompanionError as refusal:
            job.error = refusal
            if job.done is None:
                self._set_extras(message=refusal.message, message_to=job.told)
            if job.kind == "press":
                self._say_no()
        except Exception as error:  # a bug must not stop the table
            log.exception("engine loop: %s failed", job.kind)
            job.error = error
        finally:
            self._publish()
            if job.done is not None:
                job.done.set()

    # --- inputs ------------------------------------------------------------------------
    def _on_input(self, job: Job) -> None:
        given: Input = job.payload
        if job.seen is not None:
            job.seen.check(self.session.game_id, self._extras.dice.seq if self._extras.dice is not None else 0)
        if isinstance(given, StartGame):
            self.session.check_ends(job.seen.ends_game if job.seen is not None else None)
        camera = self.camera if isinstance(given, DiceRolled) else None
        if camera is not None:
            given = camera.complete(given, self.session)
        self.apply_input(given, job.source)
        if camera is not None:  # the dice entered lie on the tray: they are no later roll
            camera.recorded(given)

    def apply_input(self, given: Input, source: str) -> None:
        """Apply and journal one input, keeping the last dice for the phones (loop thread only).

        Raises CompanionError when the input is refused; nothing changes then.
        """
        before = self._whose_turn()
        self.session.submit(given, source=source)
        if self.camera is not None:  # a roll the camera read may now be known right or corrected
            self.camera.accepted(given, self.session.seq)
        self._set_extras(guess=None)  # the camera's guess was for the table as it stood
        half_read = self._extras.camera == "read_part"
        if self._extras.camera in ("changed", "read_part"):  # seen and acted on, or its half roll is gone
            self._set_extras(camera="ready", camera_message="")
        if isinstance(given, (DiceRolled, CorrectDice)):
            self._show_roll(given, source, half_read)
        elif isinstance(given, StartGame):
            self._crops.clear()
            self._set_extras(dice=None, message=None)
            renew_seat_links(self.tokens, self.session)
        else:
            self._set_extras(message=None)
        if source != "button" and not isinstance(given, StartGame) and self._whose_turn() != before:
            self._next_guard.turn_passed(self.clock())  # a phone or the camera passed the turn

    def _whose_turn(self) -> tuple[int, ...]:
        table, game = self.session.table, self.session.game
        return game.whose_turn(table.state) if table is not None and game is not None else ()

    def _on_press(self, job: Job) -> None:
        button = job.payload
        if button == "undo":
            self.apply_input(Undo(), "button")
        elif button == "next":
            move, player = next_move(self.session)
            if self._next_guard.allows(self.clock(), player):
                self.apply_input(move, "button")
        elif button == "roll":
            start_roll(self.session, self.camera)
        elif button == "claim":  # NEXT and UNDO held together: the status LED blinks white while it is open
            self.claim.open()

    def _on_claim(self, job: Job) -> None:
        """A phone becomes the host: the window must be open; the new host link ends the old one and the window
        closes (loop thread only); raises ClaimClosed, ClaimTaken or JournalError, changing nothing."""
        self.claim.check()
        job.payload["token"] = self.tokens.reissue_host()
        self.claim.claimed()

    def _say_no(self) -> None:
        """Tell the players at the box that their press was refused (the phones show why); raises nothing."""
        try:
            self.on_refused()
        except Exception:  # the buzzer is a courtesy: the table goes on without it
            log.exception("could not signal a refused press")

    # --- publishing --------------------------------------------------------------------
    def _set_extras(self, **changes: Any) -> None:
        if "message" in changes:
            changes.setdefault("message_to", None)  # a new message is every phone's unless it says whose
        self._extras = replace(self._extras, **changes)

    def _publish(self) -> None:
        self._set_extras(claiming=self.claim.is_open)
        self.board.publish(self._extras)

    def set_crops(self, crops: dict[str, bytes]) -> None:
        """Keep a read's crops ("<seq>-<die>") beside the shown roll's, which stay till it is replaced (loop thread
        only); raises nothing."""
        shown = self._extras.dice.crops if self._extras.dice is not None else ()
        self._crops = {name: self._crops[name] for name in shown if name in self._crops} | dict(crops)

    @property
    def camera_status(self) -> str:
        """The camera's status as the phones see it ("ready", "reading", "offline", ...); raises nothing."""
        return self._extras.camera

    def _show_roll(self, given: DiceRolled | CorrectDice, source: str, half_read: bool) -> None:
        """Show an accepted roll on the phones and settle the camera's status (loop thread only); raises nothing."""
        dice = shown_roll(given, source, self.session.seq)
        crops = tuple(name for name in self._crops if name.startswith(f"{self.session.seq}-"))
        dice = replace(dice, crops=crops if "camera" in dice.origins else ())
        self._set_extras(dice=dice, message=None)
        if "camera" not in dice.origins and self._extras.camera in ("reroll", "read_ok", "reading"):
            self._set_extras(camera="ready", camera_message="")
        elif "camera" in dice.origins and half_read:  # the hand entry completed the camera's half: "got it"
            shown = ", ".join(f"d{sides} {value}" for value, sides in zip(dice.values, dice.sides))
            self._set_extras(camera="read_ok", camera_message=f"Read {shown}.")

    def tell_host(self, about: str, sentence: str | None, *, wait: float = 0.0) -> None:
        """Show the host's page a lasting notice about `about` (a part of the box), replacing the last one about
        it; None takes it down (any thread; waits up to `wait` seconds till it is shown); raises nothing."""
        self._jobs.send(Job("notice", (about, sentence), "box")).wait(wait)

    def _on_notice(self, job: Job) -> None:
        about, sentence = job.payload
        others = tuple(notice for notice in self._extras.notices if notice[0] != about)
        self._set_extras(notices=others + (((about, sentence),) if sentence else ()))

    def show_camera(self, status: str, message: str = "", *, note: str | None = None,
                    guess: CameraGuess | None = None, half: LastDice | None = None) -> None:
        """Set the camera's status, its sentence, its guess at unsure dice or its half of a roll, and the table
        message (loop thread only); raises nothing."""
        self._set_extras(camera=status, camera_message=message, message=note, guess=guess, half=half)

    # --- the port, for request threads -------------------------------------------------
    def snapshot(self, seat: int | None) -> JSON:
        """The full state for a seat (None: the host); raises nothing."""
        return self.board.snapshot(seat)

    def submit(self, given: Input, *, source: str, seen: Seen | None = None) -> JSON:
        """Apply an input on the loop and wait; raises CompanionError when refused (TableMovedOn when `seen` shows
        an older table), TableBusy when it does not answer."""
        self._answered(Job("input", given, source, seen=seen))
        return self.snapshot(given.seat if isinstance(given, Move) else None)

    def _answered(self, job: Job) -> None:
        """Send a job to the loop and wait till it is done; raises its refusal, or TableBusy when the loop does not
        answer in time."""
        done = self._jobs.send(job)
        if not done.wait(ANSWER_SECONDS):
            if self._jobs.withdraw(job):
                raise TableBusy(NO_ANSWER_IN_TIME)
            if not done.wait(ANSWER_SECONDS):
                raise TableBusy(SLOW_TO_ANSWER)
        if job.error is not None:
            raise job.error

    def claim_host(self) -> str:
        """A new host token for the phone asking, while the claim window is open; raises ClaimClosed, ClaimTaken,
        JournalError, or TableBusy when the loop does not answer."""
        answer: dict[str, str] = {}
        self._answered(Job("claim", answer, "phone"))
        return answer["token"]

    def press(self, button: str, *, by: Holder | None = None) -> None:
        """Act as a hardware button (`by`: the phone whose virtual panel was pressed, the only one told why it did
        nothing; None: a button on the box, told to every phone); raises ValueError for an unknown button."""
        if button not in PANEL_BUTTONS:
            raise ValueError(f"There is no {button!r} button; the buttons are {', '.join(PANEL_BUTTONS)}.")
        self.enqueue(Job("press", button, "button", told=by))

    def wait_for_change(self, after_seq: int, timeout: float) -> int:
        """Block until the seq passes after_seq or timeout; returns the current seq."""
        return self.board.wait_for_change(after_seq, timeout)

    def games(self) -> list[JSON]:
        """The registered games for the host's menu; raises nothing."""
        return [{"id": game.id, "title": game.title, "summary": game.summary, "min_players": game.min_players,
                 "max_players": game.max_players, "options": game.options} for game in self.session.games.values()]

    def history(self) -> list[JSON]:
        """The games played, newest first; raises JournalError."""
        return [{"id": past.id, "game": past.game, "players": list(past.players), "started": past.started,
                 "finished": past.finished, "outcome": past.outcome} for past in self.session.journal.history()]

    def crop(self, name: str) -> bytes | None:
        """A die's crop from the last camera read or the camera's current guess, or None; raises nothing."""
        guess = self.board.published.extras.guess
        return self._crops.get(name) or (guess.crop(name) if guess is not None else None)

    def join_url(self, holder: Holder) -> str:
        """The join URL for the host or a seat; raises JournalError."""
        token = self.tokens.host_token() if holder.is_host else self.tokens.seat_token(holder.seat)  # type: ignore[arg-type]
        return self.make_join_url(token)
