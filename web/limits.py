"""How fast one phone may send inputs: a token bucket per token's holder (each seat, the host).

A player taps a few times a second at most; a phone (or a script with its link) sending hundreds would make
the box busy for every other phone. Each holder may send INPUT_BURST inputs at once and INPUTS_PER_SECOND
after that; more are refused (429, a sentence, Retry-After) and change nothing. The two are settings of the
app (`app.config`), so a test that fires many requests on purpose can raise them.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Callable

from flask import Flask, current_app

from companion.rules.said import Said
from companion.table.port import Holder
from web.auth import Refusal

INPUTS_PER_SECOND = 10.0
INPUT_BURST = 20
TOO_MANY = Said("Too many moves from this phone at once; nothing changed — wait a moment.",
                "이 휴대폰에서 한꺼번에 너무 많은 행동이 왔습니다. 아무것도 바뀌지 않았습니다 — 잠시 기다리세요.")


class TooManyInputs(Refusal):
    """An input refused because its phone sent too many at once: 429, with the seconds to wait."""

    def __init__(self, retry_after: float) -> None:
        """The refusal, to be tried again in `retry_after` seconds; raises nothing."""
        super().__init__(429, "too_many_inputs", TOO_MANY)
        self.retry_after = retry_after

    @property
    def retry_after_header(self) -> str:
        """Retry-After as HTTP has it: whole seconds, at least 1; raises nothing."""
        return str(max(1, math.ceil(self.retry_after)))


class InputLimiter:
    """One token bucket per holder: `burst` inputs at once, refilled at `per_second`; thread-safe."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        """An empty book (every holder starts with a full bucket); raises nothing."""
        self._clock = clock
        self._buckets: dict[int | None, tuple[float, float]] = {}  # seat (None: host) -> (inputs left, when)
        self._lock = threading.Lock()

    def take(self, holder: Holder, *, per_second: float, burst: int) -> float:
        """Take one input from the holder's bucket: 0.0 when taken, else the seconds until one is there (nothing
        taken then); raises nothing."""
        with self._lock:
            now = self._clock()
            left, then = self._buckets.get(holder.seat, (float(burst), now))
            left = min(float(burst), left + max(0.0, now - then) * per_second)
            taken = left >= 1.0
            self._buckets[holder.seat] = (left - 1.0 if taken else left, now)
            return 0.0 if taken else (1.0 - left) / per_second


def install(app: Flask, *, per_second: float = INPUTS_PER_SECOND, burst: int = INPUT_BURST) -> None:
    """Give the app its input limiter and its two settings; raises nothing."""
    app.config.update(INPUTS_PER_SECOND=per_second, INPUT_BURST=burst)
    app.extensions["companion.inputs"] = InputLimiter()


def limit_inputs(holder: Holder) -> None:
    """Count one input from the holder; raises TooManyInputs (nothing taken) when its phone sends too many."""
    limiter: InputLimiter = current_app.extensions["companion.inputs"]
    wait = limiter.take(holder, per_second=float(current_app.config["INPUTS_PER_SECOND"]),
                        burst=int(current_app.config["INPUT_BURST"]))
    if wait > 0.0:
        raise TooManyInputs(wait)
