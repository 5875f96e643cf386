"""Errands for the camera thread: something the host's page asks of the camera (calibrate it, show what it
sees), done between reads so it never meets a roll half-read, with the answer handed back to the asker."""
from __future__ import annotations

from concurrent.futures import Future
from typing import Callable, Generic, TypeVar

from companion.table.port import TableBusy

Result = TypeVar("Result")
CAMERA_BUSY = "The camera is busy reading a roll, so nothing changed; try again when the roll is read."
NOT_RUNNING = "The dice camera is not running, so nothing changed."


class Errand(Generic[Result]):
    """One call for the camera thread, and where its answer goes."""

    def __init__(self, call: Callable[[], Result]) -> None:
        """Keep the call; nothing runs until run(); raises nothing."""
        self._call = call
        self._answer: Future[Result] = Future()

    def run(self) -> None:
        """Do the errand unless its asker stopped waiting, and hand over its answer or error (camera thread);
        raises nothing."""
        if not self._answer.set_running_or_notify_cancel():
            return
        try:
            self._answer.set_result(self._call())
        except BaseException as error:  # the asker raises it; the camera thread goes on
            self._answer.set_exception(error)

    def answered(self, timeout: float) -> Result:
        """Wait for the answer (the asker's thread); raises TableBusy when the errand has not begun within
        `timeout` (it then never runs), or the call's own error."""
        try:
            return self._answer.result(timeout)
        except TimeoutError:
            if self._answer.cancel():
                raise TableBusy(CAMERA_BUSY) from None
            return self._answer.result()  # it began just now: it ends soon
