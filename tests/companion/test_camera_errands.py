"""Errands for the camera thread: done between reads, their answer or error handed back, and one the camera
thread does not come to in time never done at all."""
from __future__ import annotations

import threading

import pytest

from companion.camera.errands import CAMERA_BUSY, Errand
from companion.table.port import TableBusy


def test_an_errand_hands_back_what_the_camera_thread_found() -> None:
    errand = Errand(lambda: threading.current_thread().name)
    threading.Thread(target=errand.run, name="dice-camera").start()
    assert errand.answered(5.0) == "dice-camera"


def test_an_errand_hands_back_its_error() -> None:
    errand = Errand(lambda: 1 / 0)
    threading.Thread(target=errand.run).start()
    with pytest.raises(ZeroDivisionError):
        errand.answered(5.0)


def test_an_errand_not_begun_in_time_is_refused_and_never_done() -> None:
    done: list[str] = []
    errand = Errand(lambda: done.append("calibrated"))
    with pytest.raises(TableBusy, match=CAMERA_BUSY):
        errand.answered(0.05)  # the camera thread is reading a roll meanwhile
    errand.run()  # it comes to it afterwards
    assert done == []


def test_an_errand_begun_just_as_the_wait_ended_is_waited_for() -> None:
    begun, finish = threading.Event(), threading.Event()

    def slow() -> str:
        begun.set()
        finish.wait(5.0)
        return "kept"

    errand = Errand(slow)
    threading.Thread(target=errand.run).start()
    begun.wait(5.0)
    threading.Timer(0.1, finish.set).start()
    assert errand.answered(0.01) == "kept"  # begun: what it does is not thrown away
