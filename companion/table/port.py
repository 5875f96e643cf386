"""What the web front sees of the running companion: one protocol, plain JSON values.

The daemon's engine loop implements it; `web/` codes against it and never touches the session,
the journal or the hardware directly. Every method is safe to call from any request thread.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from companion.rules.inputs import BUTTONS, Input
from companion.rules.errors import TableMovedOn

JSON = dict[str, Any]
HOST = "host"
PANEL_BUTTONS: tuple[str, ...] = BUTTONS + ("claim",)
"""What a press on the box (or the demo's virtual panel) may be: ROLL, NEXT, UNDO, or "claim", NEXT and UNDO held
together for 3 seconds, which opens a minute in which a phone may become the host."""
NEW_GAME_SINCE = "A new game has started since your phone showed the table, so nothing changed. Look at the new table."
NEW_ROLL_SINCE = ("Another roll has come in since your phone showed the table, so nothing changed. "
                  "Look at the last roll, and correct it if it is wrong.")


class TableBusy(TimeoutError):
    """The engine loop did not answer a request in time; the message tells players whether anything changed."""


@dataclass(frozen=True)
class Seen:
    """What a phone's page showed when its player acted, so an input meant for an older table is refused.

    game_no: the number of the game it showed; ends_game: the number of the unfinished game the host agreed
    to end by starting a new one; roll_seq: the seq of the last roll it showed (0: none yet),
    so a roll entered by hand, or a correction, is not taken for the next roll after one that came in
    meanwhile (the camera's read, another phone's entry). None: not said (a program, an older page),
    which checks nothing.
    """

    game_no: int | None = None
    roll_seq: int | None = None
    ends_game: int | None = None

    def check(self, game_no: int | None, roll_seq: int) -> None:
        """Refuse an input made on a page that showed another game or another last roll (roll_seq 0: none);
        raises TableMovedOn."""
        if self.game_no is not None and self.game_no != game_no:
            raise TableMovedOn(NEW_GAME_SINCE)
        if self.roll_seq is not None and self.roll_seq != roll_seq:
            raise TableMovedOn(NEW_ROLL_SINCE)


@dataclass(frozen=True)
class Holder:
    """Who a token belongs to: the host, or one seat."""

    seat: int | None

    @property
    def is_host(self) -> bool:
        """Whether this is the host's token, which acts for every seat; raises nothing."""
        return self.seat is None


class TokenBook(Protocol):
    """The seat and host tokens: issued from `secrets`, checked in constant time."""

    def holder(self, token: str | None) -> Holder | None:
        """Whose token this is, or None for a wrong or missing token; raises nothing."""

    def seat_token(self, seat: int) -> str:
        """The current token of a seat (issuing one if there is none: never from a request that only reads); raises
        JournalError."""

    def host_token(self) -> str:
        """The host's token; raises nothing."""

    def reissue(self, seat: int) -> str:
        """Revoke a seat's token and issue a new one; raises JournalError."""

    def has_seat_token(self, seat: int) -> bool:
        """Whether the seat holds a token (a new game issues one to each of its seats); raises nothing."""

    def reissue_host(self) -> str:
        """End the host's token and issue a new one; raises JournalError."""


class ClaimBook(Protocol):
    """The claim window, as a phone without a link asks about it (any request thread)."""

    def state(self) -> JSON:
        """Whether a phone may become the host now (`open`) and for how many more seconds (`seconds_left`); raises
        nothing."""


class TablePort(Protocol):
    """The running table as the web front uses it."""

    tokens: TokenBook
    claim: ClaimBook

    def snapshot(self, seat: int | None) -> JSON:
        """The full state for a seat (None: host/spectator view), with `seq`; raises nothing."""

    def submit(self, given: Input, *, source: str, seen: Seen | None = None) -> JSON:
        """Apply an input on the engine loop and wait; returns the new snapshot for the input's seat.

        Raises CompanionError (IllegalMove, BadInput, …) with a sentence when refused (TableMovedOn when
        `seen` is older than the table), or TableBusy (a TimeoutError) if the engine loop does not answer in time.
        """

    def press(self, button: str, *, by: Holder | None = None) -> None:
        """Act as a hardware button (demo panel): 'roll', 'next', 'undo' or 'claim' (NEXT and UNDO held together);
        `by`: the phone whose panel was pressed, the only one told why a press did nothing (None: a button on the box,
        told to every phone); raises ValueError."""

    def claim_host(self) -> str:
        """A new host token (the old one ends) for the phone asking while the claim window is open, which closes
        it; raises ClaimClosed, ClaimTaken (CompanionErrors, nothing changed), JournalError or TableBusy."""

    def box_address(self) -> JSON:
        """Where phones find the box: `name` (http://table-companion.local:8080/ where it is announced, else
        None) and `number` (its IP address, as the QR codes hold); raises nothing."""

    def wait_for_change(self, after_seq: int, timeout: float) -> int:
        """Block until the published seq exceeds after_seq or timeout; returns the current seq."""

    def games(self) -> list[JSON]:
        """The registered games: id, title, summary, min/max seats, options as JSON Schema."""

    def history(self) -> list[JSON]:
        """The games played, newest first, with players, times and outcome; raises nothing."""

    def crop(self, name: str) -> bytes | None:
        """A die's crop image (JPEG) from the last roll, by the name the snapshot gives; or None."""

    def join_url(self, holder: Holder) -> str:
        """The URL a phone opens to join as that holder (IP address, port and token)."""

    @property
    def demo(self) -> bool:
        """Whether the companion runs in demo mode (virtual panel shown)."""


class CameraPort(Protocol):
    """The box's camera as the host's page sets it up (any request thread)."""

    def view(self) -> bytes:
        """What the camera sees now (JPEG), the tray outlined and every die boxed with its value.

        Raises CompanionError with a sentence (no camera, camera offline) or TableBusy while a roll is read."""

    def calibrate(self) -> JSON:
        """Calibrate the camera as it sees the tray now, keep it and use it at once; returns `message` (and
        `message_ko`), `tray`, `die_px` and `light_fixed`.

        Raises CompanionError with a sentence (no camera, camera offline, a tray that leaves out dice, a state
        folder that cannot be written), changing nothing, or TableBusy while a roll is read."""
