"""The engine loop's queue: a job for the loop with a place for its answer, and the claim that settles whether the
loop starts a job or its sender, tired of waiting, withdraws it first."""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any

from companion.table.port import Holder, Seen


@dataclass
class Job:
    """One thing for the engine loop to do, with a place for its answer."""

    kind: str
    payload: Any
    source: str = "system"
    done: threading.Event | None = None
    error: BaseException | None = None
    started: bool = False
    withdrawn: bool = False  # its sender stopped waiting before the loop came to it: it is never applied
    seen: Seen | None = None  # what the sender's page showed: an input for an older table is refused
    told: Holder | None = None  # the one phone its refusal is for (None: every phone)


class JobQueue:
    """The jobs for the one loop thread: any thread puts them, only the loop takes them."""

    def __init__(self) -> None:
        """An empty queue; raises nothing."""
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._claims = threading.Lock()  # a job is either started by the loop or withdrawn by its sender

    def put(self, job: Job | None) -> None:
        """Put a job (None: the loop is to stop) on the queue; never blocks; raises nothing."""
        self._jobs.put(job)

    def send(self, job: Job) -> threading.Event:
        """Put a job on the queue with an event the loop sets once it is done (or refused) and the table published;
        returns that event, for the sender to wait on; raises nothing."""
        done = job.done = threading.Event()
        self.put(job)
        return done

    def take(self, timeout: float) -> Job | None:
        """The next job (None: stop), waiting up to `timeout` seconds; raises queue.Empty when none came."""
        return self._jobs.get(timeout=timeout)

    def claim(self, job: Job) -> bool:
        """Mark a job started unless its sender withdrew it; returns whether the loop may run it; raises nothing."""
        with self._claims:
            if job.withdrawn:
                return False
            job.started = True
            return True

    def withdraw(self, job: Job) -> bool:
        """Withdraw a job the loop has not started (it will never be applied); returns whether it was; raises nothing."""
        with self._claims:
            job.withdrawn = not job.started
            return job.withdrawn
