"""Gateway (rescue) at a real table: the camera reads the d8 beside the d6 when the real networks are sure of it,
and leaves it to a phone when they are not (the tray of tests/helpers/d8_tray.py; the real daemon, reader and
HTTP server)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from camera_table import looked_again, press_roll, state_when
from d8_tray import d8_beside_a_d6

GAME = "gateway-rescue"
D6 = 4


class D8Tray:
    """A camera over a tray that stays empty until `land` lays the d8 of a burksbuilds photo and a d6 down."""

    def __init__(self, d8_photo: Path, *, smudged: bool = False) -> None:
        self.landed = d8_beside_a_d6(d8_photo, D6, smudged=smudged)[0]
        self.view = np.zeros_like(self.landed)  # the tray before the throw
        self.frames = 0

    def land(self) -> None:
        """The d6 and the d8 land and lie still."""
        self.view = self.landed

    def frame(self) -> Any:
        """The tray as it lies; raises nothing."""
        self.frames += 1
        return self.view.copy()


def rescue_roll_read_by_the_camera(start_server: Any, d8_photo: Path, *, smudged: bool = False) -> dict[str, Any]:
    """Ann, alone at the table, tries a rescue; the camera reads the roll; returns the state once it ruled."""
    tray = D8Tray(d8_photo, smudged=smudged)
    server = start_server(frames=tray)
    status, snap = server.api("POST", "/api/game", {"game": GAME, "players": ["Ann", "Bo"], "options": {}},
                              token=server.host_token)
    assert status == 200, snap
    for seat, value in ((0, 2), (1, 5)):  # Ann rolls lowest and goes first
        roll = {"values": [value], "sides": [6]}
        assert server.api("POST", "/api/dice", roll, token=server.seat_token(seat))[0] == 200
    server.act(server.seat_token(0), 0, "rescue")
    looked_again(tray)
    tray.land()
    press_roll(server)
    return state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "read_part", "reroll"))


def test_the_camera_reads_a_d8_it_is_sure_of_with_the_d6(start_server: Any, shared_dice: Path) -> None:
    snap = rescue_roll_read_by_the_camera(start_server, shared_dice / "burksbuilds-d8-numerals" / "d8_A_7.jpg")
    assert snap["camera"]["status"] == "read_ok", snap["camera"]
    assert snap["camera"]["message"] == f"Read d6 {D6}, d8 7."
    last = snap["view"]["last_roll"]
    assert (last["d8"], last["d6"], last["d8_origin"], last["d6_origin"]) == (7, D6, "camera", "camera")
    assert len(snap["dice"]["crops"]) == 2


def test_a_d8_the_networks_are_not_sure_of_is_entered_on_a_phone(start_server: Any, shared_dice: Path) -> None:
    snap = rescue_roll_read_by_the_camera(start_server, shared_dice / "burksbuilds-d8-numerals" / "d8_A_4.jpg",
                                          smudged=True)
    assert snap["camera"]["status"] == "read_part" and "enter the d8 by hand" in snap["message"], snap["camera"]
    assert snap["awaiting_dice"]["sides"] == [8, 6]
