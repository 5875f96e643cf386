"""NEXT and UNDO, alone and held together: the box's own way to let a phone become the host.

NEXT acts when it is let go, UNDO when it is held (a tap of UNDO does nothing), so that pressing the two together
is never also a NEXT or an UNDO: once both are down at the same time, neither acts on its own until both are up
again. Held together for CLAIM_HOLD_SECONDS they call `on_claim` once; let go sooner, nothing happens. UNDO held
alone past its hold time has undone before NEXT joins it: press the two together.

Threads: gpiozero calls when_pressed/when_released from the pin library's thread (the caller's under MockFactory)
and when_held from its hold thread; the chord's timer is a third. The state sits behind a lock, and the callbacks
given here are called outside it.
"""
from __future__ import annotations

import threading
from typing import Callable

from gpiozero import Button

CLAIM_HOLD_SECONDS = 3.0
"""How long NEXT and UNDO are held together to open the minute in which a phone may become the host."""


class NextAndUndo:
    """Wires NEXT and UNDO: `on_next` on a lone NEXT's release, `on_undo` on a lone UNDO's hold, `on_claim` when both
    are held `claim_hold_seconds`; raises ValueError for a hold of no time."""

    def __init__(self, next_button: Button, undo_button: Button, *, on_next: Callable[[], None],
                 on_undo: Callable[[], None], on_claim: Callable[[], None],
                 claim_hold_seconds: float = CLAIM_HOLD_SECONDS) -> None:
        """Take over the two buttons' callbacks; raises ValueError for a hold of no time."""
        if not claim_hold_seconds > 0:
            raise ValueError(f"claim_hold_seconds must be more than 0, got {claim_hold_seconds!r}")
        self._next, self._undo = next_button, undo_button
        self._on_next, self._on_undo, self._on_claim = on_next, on_undo, on_claim
        self._hold = claim_hold_seconds
        self._lock = threading.Lock()
        self._together = False  # both were down at once since both were last up: neither acts alone
        self._timer: threading.Timer | None = None
        next_button.when_pressed = self._changed
        next_button.when_released = self._next_released
        undo_button.when_pressed = self._changed
        undo_button.when_released = self._changed
        undo_button.when_held = self._undo_held

    def _changed(self) -> None:
        """Start timing when both are down, stop when one is let go, forget the chord when both are up."""
        with self._lock:
            next_down, undo_down = self._next.is_pressed, self._undo.is_pressed
            if next_down and undo_down:
                self._together = True
                if self._timer is None:
                    self._timer = threading.Timer(self._hold, self._held_together)
                    self._timer.daemon = True
                    self._timer.start()
            else:
                self._stop_timer()
                if not next_down and not undo_down:
                    self._together = False

    def _next_released(self) -> None:
        """NEXT let go: it acts unless UNDO was down with it."""
        with self._lock:
            alone = not self._together
        self._changed()
        if alone:
            self._on_next()

    def _undo_held(self) -> None:
        """UNDO held its hold time: it acts unless NEXT is, or was, down with it."""
        with self._lock:
            alone = not self._together and not self._next.is_pressed
        if alone:
            self._on_undo()

    def _held_together(self) -> None:
        """The chord's timer ran out: claim once if both are still down and this timer was not stopped."""
        with self._lock:
            if self._timer is not threading.current_thread():
                return
            self._timer = None
            held = self._next.is_pressed and self._undo.is_pressed
        if held:
            self._on_claim()

    def _stop_timer(self) -> None:
        """Stop the chord's timer, the lock held; raises nothing."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def close(self) -> None:
        """Stop the chord's timer; raises nothing."""
        with self._lock:
            self._stop_timer()
