"""ROLL at a real table: a double press reads once, and a read the table could not record can be read again."""
from __future__ import annotations

from typing import Any

import pytest

from camera_table import StillDice, press_roll, state_when
from vision.frames import CameraError


def two_at_the_table(start_server: Any) -> tuple[Any, StillDice]:
    """Ann and Bob start Through The Gate over an empty tray the camera has looked at."""
    camera = StillDice()
    server = start_server(frames=camera)
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    return server, camera


def test_a_double_press_of_roll_reads_once_and_the_next_throw_still_counts(start_server: Any) -> None:
    server, camera = two_at_the_table(start_server)
    camera.land(5)
    press_roll(server)
    press_roll(server)  # a double tap, or a second press while it reads
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert snapshot["dice"]["values"] == [5]
    camera.clear()  # Ann hands the die to Bob, who throws a 2 and presses ROLL once
    camera.looked_again()
    camera.land(2)
    camera.looked_again()
    press_roll(server)  # the second press used to read Bob's throw for nobody, and then call it "not moved"
    state_when(server, lambda snap: snap["dice"]["values"] == [2])


def fill_the_card(server: Any) -> None:
    """The journal's card fills up (SQLite's page limit): the next move cannot be saved."""
    db = server.companion.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    for wisdom in range(10, 500):
        move = {"seat": 1, "move": "set_tallies", "args": {"wisdom": wisdom}}
        status, answer = server.api("POST", "/api/actions", move, token=server.host_token)
        if status != 200:
            break
    assert status == 503, answer


def test_a_read_the_full_card_refused_says_so_and_is_read_again_once_there_is_room(start_server: Any) -> None:
    server, camera = two_at_the_table(start_server)
    fill_the_card(server)
    camera.land(6)
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] == "reroll")  # it used to stay "reading"
    assert snapshot["camera"]["message"] == "The read was not recorded — press ROLL again."
    assert "full" in snapshot["message"] and snapshot["dice"] is None
    server.companion.journal._db.execute("PRAGMA max_page_count = 1073741823")  # room again
    press_roll(server)  # Ann's 6 still lies on the tray: it was never recorded, so it is read, not "not moved"
    state_when(server, lambda snap: snap["dice"] is not None and snap["dice"]["values"] == [6])


class OnACable(StillDice):
    """The tray's camera on a cable a foot can kick out."""

    plugged = True

    def frame(self) -> Any:
        """The tray as it lies; raises CameraError while unplugged."""
        if not self.plugged:
            raise CameraError("the camera was unplugged")
        return super().frame()


@pytest.mark.parametrize("cable", ["in", "kicked out meanwhile"])
def test_dice_entered_by_hand_are_not_read_again_as_the_next_players_roll(start_server: Any, cable: str) -> None:
    camera = OnACable()
    server = start_server(frames=camera)
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    camera.land(5)  # Ann throws a 5 and enters it on her phone (the camera was unsure, or nobody pressed ROLL)
    if cable != "in":  # or her ROLL found the camera's cable kicked out
        camera.plugged = False
        press_roll(server)
        state_when(server, lambda snap: snap["camera"]["status"] == "offline")
    status, snapshot = server.api("POST", "/api/dice", {"values": [5], "sides": [6]}, token=server.seat_token(0))
    assert status == 200 and snapshot["awaiting_dice"]["seats"] == [1]
    camera.plugged = True
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    press_roll(server)  # Bob presses ROLL before he picks the die up
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert snapshot["camera"]["message"] == "The dice have not moved since the last roll — please roll."
    assert snapshot["view"]["roll_off"]["rolls"] == [5] and snapshot["awaiting_dice"]["seats"] == [1]
    camera.land(2, place=11)  # now Bob throws
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll")
                          and snap["camera"]["message"] != "The dice have not moved since the last roll — please roll.")
    assert snapshot["dice"]["values"] == [2] and snapshot["dice"]["origins"] == ["camera"], snapshot["camera"]


def test_the_last_rolls_crop_stays_while_a_later_read_is_not_recorded(start_server: Any) -> None:
    server, camera = two_at_the_table(start_server)
    camera.land(5)
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert snapshot["dice"]["values"] == [5], snapshot["camera"]
    crop = snapshot["dice"]["crops"][0]
    fill_the_card(server)
    camera.land(2, place=11)  # Bob throws; his read cannot be saved
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] == "reroll")
    assert snapshot["dice"]["values"] == [5] and snapshot["dice"]["crops"] == [crop]  # the phones still show Ann's 5
    status, image = server.api("GET", crop, token=server.seat_token(1))
    assert status == 200 and image[:2] == b"\xff\xd8"  # with what the camera saw, not a broken picture
