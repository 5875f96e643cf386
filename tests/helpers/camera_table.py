"""A camera over a tray for the tests over real HTTP: dice a test puts down by hand, and the table's state."""
from __future__ import annotations

import time
from typing import Any, Callable

from vision.sources import SyntheticCamera


def state_when(server: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The host's snapshot once `wanted` holds (10 s at most); fails the test otherwise."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        snapshot = server.api("GET", "/api/state", token=server.host_token)[1]
        if wanted(snapshot):
            return snapshot
        time.sleep(0.05)
    raise AssertionError(f"the table never got there: {snapshot}")


def press_roll(server: Any) -> None:
    """Press the virtual ROLL button."""
    assert server.api("POST", "/api/press", {"button": "roll"}, token=server.host_token)[0] == 200


class StillDice:
    """A camera over a tray whose dice a test puts down by hand (no `throw`: ROLL does not throw them)."""

    def __init__(self) -> None:
        self.view = SyntheticCamera(7, dice=1).at_rest  # the empty tray
        self.frames = 0

    def land(self, value: int, place: int = 7) -> None:
        """A die lands showing `value` and lies still (in the same place whatever its value, for one `place`)."""
        dice = SyntheticCamera(place, dice=1)
        dice.throw([value])
        self.view = dice.at_rest

    def clear(self) -> None:
        """The dice are picked up."""
        self.view = SyntheticCamera(7, dice=1).at_rest

    def shade(self) -> None:
        """A hand's shadow falls over the tray and stays."""
        self.view = (self.view * 0.6).astype(self.view.dtype)

    def frame(self) -> Any:
        """The tray as it lies; raises nothing."""
        self.frames += 1
        return self.view.copy()

    def looked_again(self) -> None:
        """Wait until the camera has had time to look at the tray again, still, since the last change."""
        looked_again(self)


def looked_again(camera: Any) -> None:
    """Wait until the camera has had time to look at the tray again, still, since the last change (`camera`
    counts the frames it gave in `frames`)."""
    seen = camera.frames
    deadline = time.monotonic() + 10
    while camera.frames < seen + 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
