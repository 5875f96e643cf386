"""Claiming a box with no screen: NEXT and UNDO held together open a minute in which one phone becomes the host.

The group at the table has no SSH to read the host link from; whoever holds the box decides. Holding the two
buttons for 3 seconds (hardware/chord.py) opens the window for CLAIM_SECONDS; the first phone to claim in it gets a
new host link (the old one ends) and the window closes. The engine loop opens and uses the window on its own thread; request
threads only read whether it is open, so the state sits behind a lock.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Callable

from companion.rules.errors import IllegalMove
from companion.rules.said import Said

CLAIM_SECONDS = 60.0
"""How long the window stays open for a phone to claim the box."""
HOW_TO_OPEN = Said("Hold NEXT and UNDO together for 3 seconds on the box, then tap Become the host within a minute.",
                   "상자의 다음(NEXT)과 되돌리기(UNDO) 버튼을 함께 3초 동안 누른 뒤, 1분 안에 ‘호스트 되기’를 누르세요.")
NOT_OPEN = Said(f"The box is not taking a new host now, so nothing changed. {HOW_TO_OPEN}",
                f"지금은 상자가 새 호스트를 받지 않으므로 아무것도 바뀌지 않았습니다. {HOW_TO_OPEN.ko}")
TAKEN = Said("Another phone has just become the host, so nothing changed. Ask its holder for the host link, or "
             "hold NEXT and UNDO on the box again.",
             "다른 휴대폰이 방금 호스트가 되어 아무것도 바뀌지 않았습니다. 그 사람에게 호스트 링크를 받거나, 상자의 "
             "다음과 되돌리기 버튼을 다시 누르세요.")


class ClaimClosed(IllegalMove):
    """A phone tried to become the host while no claim window was open (never opened, or its minute passed)."""

    code = "claim_closed"


class ClaimTaken(IllegalMove):
    """A phone tried to become the host after another phone already did in the same window."""

    code = "claim_taken"


class ClaimWindow:
    """The minute in which a phone may become the host; opened by the box's buttons, closed by the first claim."""

    def __init__(self, *, seconds: float = CLAIM_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        """A closed window that stays open `seconds` once opened, timed by `clock`; raises ValueError for a
        window of no time."""
        if not seconds > 0:
            raise ValueError(f"a claim window must stay open some time, not {seconds!r} seconds")
        self._seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._until = -math.inf  # when the last window closes (or closed)
        self._taken = False  # a phone used the last window: till its minute is over, a late claim is told so

    def open(self) -> None:
        """Open the window for its full time from now (again, if it is open); raises nothing."""
        with self._lock:
            self._until = self._clock() + self._seconds
            self._taken = False

    def seconds_left(self) -> int:
        """The whole seconds left to claim (rounded up), 0 when closed or used; raises nothing."""
        with self._lock:
            left = self._until - self._clock()
            return 0 if self._taken or left <= 0 else math.ceil(left)

    def state(self) -> dict[str, int | bool]:
        """Whether a phone may become the host now (`open`) and for how many more seconds; raises nothing."""
        left = self.seconds_left()
        return {"open": left > 0, "seconds_left": left}

    @property
    def is_open(self) -> bool:
        """Whether a phone may claim now; raises nothing."""
        return self.seconds_left() > 0

    def check(self) -> None:
        """Refuse a claim unless the window is open; raises ClaimTaken when a phone used this window already,
        ClaimClosed when it is closed (never opened, or its minute passed)."""
        with self._lock:
            self._check()

    def claimed(self) -> None:
        """Close the window because a phone became the host; raises ClaimTaken or ClaimClosed (as check()) when
        it was not open."""
        with self._lock:
            self._check()
            self._taken = True

    def _check(self) -> None:
        """check(), the lock held; raises ClaimTaken, ClaimClosed."""
        if self._clock() >= self._until:
            raise ClaimClosed(NOT_OPEN)
        if self._taken:
            raise ClaimTaken(TAKEN)
