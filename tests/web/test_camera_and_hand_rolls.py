"""A camera read and a roll entered by hand never count one throw twice, nor a die of a table that is gone."""
from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

import pytest

from vision.sources import SyntheticCamera

from camera_table import StillDice, press_roll, state_when


class HeldCamera(SyntheticCamera):
    """The demo camera, whose dice land on the values a test chooses, once the test lets go of them."""

    def __init__(self) -> None:
        super().__init__(5, dice=1)
        self.landing: list[int] = [3]
        self.thrown = threading.Event()
        self.let_go = threading.Event()
        self.let_go.set()

    def throw(self, values: Sequence[int] | None = None, *, count: int | None = None,
              cocked: Sequence[int] = ()) -> tuple[int, ...]:
        """Land the chosen values once let go (ROLL in demo mode throws); raises ValueError for bad values."""
        self.thrown.set()
        self.let_go.wait(10)
        return super().throw(self.landing)


@pytest.fixture
def held(start_server: Callable[..., Any]) -> tuple[Any, HeldCamera]:
    """The real companion in demo mode, with a camera the test holds."""
    camera = HeldCamera()
    return start_server(frames=camera), camera


def test_a_camera_read_that_ends_after_a_hand_roll_is_not_used(held: tuple[Any, HeldCamera]) -> None:
    server, camera = held
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    camera.let_go.clear()
    camera.landing = [4]
    press_roll(server)
    assert camera.thrown.wait(5)
    status, snapshot = server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=server.seat_token(0))
    assert status == 200 and snapshot["awaiting_dice"]["seats"] == [1]
    camera.let_go.set()  # the camera now reads Ann's throw, a 4: the table has moved on to Bob's roll
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] == "ready" and snap["message"])
    assert snapshot["message"] == "The camera read 4 after the table had moved on, so that read was not used."
    assert snapshot["view"]["roll_off"]["rolls"] == [2] and snapshot["awaiting_dice"]["seats"] == [1]
    assert snapshot["dice"]["origins"] == ["phone"]
    assert not any("(camera)" in line for line in snapshot["view"]["log"])


def rescue_with_the_camera_d6(server: Any, camera: HeldCamera, d6: int) -> str:
    """Starts Gateway (rescue) for Ann alone, who tries a rescue; the camera reads the D6. Returns Ann's token."""
    game = {"game": "gateway-rescue", "players": ["Ann"], "options": {}}
    assert server.api("POST", "/api/game", game, token=server.host_token)[0] == 200
    ann = server.seat_token(0)
    server.act(ann, 0, "rescue")
    camera.landing = [d6]
    press_roll(server)
    state_when(server, lambda snap: snap["camera"]["status"] == "read_part")  # the D8 is still to be entered
    return ann


def test_a_refused_hand_entry_keeps_the_camera_d6_for_the_next_try(held: tuple[Any, HeldCamera]) -> None:
    server, camera = held
    ann = rescue_with_the_camera_d6(server, camera, 3)
    answer = server.refused("/api/dice", {"values": [9], "sides": [8]}, ann, status=400, code="bad_input")
    assert answer["message"] == "A d8 shows 1 to 8, not 9."
    status, snapshot = server.api("POST", "/api/dice", {"values": [5], "sides": [8]}, token=ann)
    assert status == 200, snapshot
    last = snapshot["view"]["last_roll"]
    assert (last["d8"], last["d8_origin"], last["d6"], last["d6_origin"]) == (5, "phone", 3, "camera")


def test_roll_pressed_again_keeps_the_camera_d6_and_says_to_enter_the_d8(held: tuple[Any, HeldCamera]) -> None:
    server, camera = held
    ann = rescue_with_the_camera_d6(server, camera, 3)
    camera.landing = [6]
    press_roll(server)  # the blue blink looks like "still reading": ROLL again
    snapshot = state_when(server, lambda snap: snap["message"] != "Camera read d6 3 — enter the d8 by hand.")
    assert snapshot["message"] == "The camera has read this roll's d6; enter the d8 on a phone."
    assert snapshot["camera"]["status"] == "read_part" and snapshot["camera"]["half"]["values"] == [3]
    status, snapshot = server.api("POST", "/api/dice", {"values": [5], "sides": [8]}, token=ann)
    assert status == 200, snapshot
    last = snapshot["view"]["last_roll"]
    assert (last["d8"], last["d8_origin"], last["d6"], last["d6_origin"]) == (5, "phone", 3, "camera")


def test_the_camera_d6_of_a_game_that_is_gone_is_never_merged(held: tuple[Any, HeldCamera]) -> None:
    server, camera = held
    rescue_with_the_camera_d6(server, camera, 3)
    game = {"game": "gateway-rescue", "players": ["Bea"], "options": {}, **server.ending_this_game()}
    assert server.api("POST", "/api/game", game, token=server.host_token)[0] == 200
    bea = server.seat_token(0)
    server.act(bea, 0, "rescue")
    answer = server.refused("/api/dice", {"values": [5], "sides": [8]}, bea, status=(400, 409))
    assert "2 dice" in answer["message"]  # the D6 must be rolled (or entered) for this game's rescue


def test_after_a_restart_the_dice_left_on_the_tray_are_not_read_as_a_new_roll(start_server: Any) -> None:
    camera = StillDice()
    server = start_server(frames=camera)
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")  # it has looked at the empty tray
    camera.land(5)  # Ann throws a 5
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert snapshot["view"]["roll_off"]["rolls"] == [5], snapshot["camera"]
    server.companion.stop()  # the cable is kicked; Ann's die still lies on the tray
    server = start_server(frames=camera)
    press_roll(server)  # Bob presses ROLL without throwing
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] == "reroll")
    assert snapshot["camera"]["message"] == "The dice have not moved since the last roll — please roll."
    assert snapshot["view"]["roll_off"]["rolls"] == [5] and snapshot["awaiting_dice"]["seats"] == [1]


def ann_rolls_a_5(start_server: Any) -> tuple[Any, StillDice]:
    """Ann's 5 is read by the camera and lies on the tray; returns the server and the tray."""
    camera = StillDice()
    server = start_server(frames=camera)
    server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob"]}, token=server.host_token)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    camera.land(5)
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] in ("read_ok", "reroll"))
    assert snapshot["camera"]["status"] == "read_ok" and snapshot["view"]["roll_off"]["rolls"] == [5]
    return server, camera


def test_a_die_knocked_after_the_read_is_told_but_a_shadow_is_not(start_server: Any) -> None:
    server, camera = ann_rolls_a_5(start_server)
    camera.shade()
    camera.looked_again()
    assert server.api("GET", "/api/state", token=server.host_token)[1]["camera"]["status"] == "read_ok"
    camera.land(2)  # a sleeve knocks Ann's die over onto its 2
    snapshot = state_when(server, lambda snap: snap["camera"]["status"] == "changed")  # not "roll again": the read stands
    assert snapshot["message"] == ("A die changed after the read: the table keeps 5, but the tray now shows 2. "
                                   "If the new faces should count, correct the roll.")
    assert snapshot["view"]["roll_off"]["rolls"] == [5]  # never silently overwritten
    assert snapshot["lights"]["status"] == "changed"
    assert server.companion.panel.state()["colour"] == "amber" and server.companion.panel.state()["pattern"] == "steady"


def test_a_die_picked_up_and_thrown_again_at_once_is_the_next_roll_not_a_knock(start_server: Any) -> None:
    server, camera = ann_rolls_a_5(start_server)
    camera.land(2, place=11)  # Bob grabs the die and throws it straight away, before pressing ROLL
    camera.looked_again()
    assert server.api("GET", "/api/state", token=server.host_token)[1]["camera"]["status"] == "read_ok"  # no "changed"
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["dice"]["values"] != [5] or snap["camera"]["status"] == "reroll")
    assert (snapshot["dice"]["values"], snapshot["dice"]["origins"]) == ([2], ["camera"]), snapshot["camera"]
    assert "Bob rolled 2" in " ".join(snapshot["view"]["log"])  # Bob's roll, not "the dice have not moved"


def test_the_next_move_after_a_knocked_die_puts_the_camera_back_to_ready(start_server: Any) -> None:
    server, camera = ann_rolls_a_5(start_server)
    camera.land(2)
    state_when(server, lambda snap: snap["camera"]["status"] == "changed")
    status, snapshot = server.api("POST", "/api/dice", {"values": [3], "sides": [6]}, token=server.seat_token(1))
    assert status == 200 and snapshot["camera"]["status"] == "ready"  # Bob rolled by hand: the table went on
    assert snapshot["lights"]["status"] == "ready"


def test_dice_picked_up_after_the_read_are_not_a_bump(start_server: Any) -> None:
    server, camera = ann_rolls_a_5(start_server)
    camera.clear()  # Ann hands the die to Bob
    camera.looked_again()
    camera.land(2)  # Bob throws before pressing ROLL
    camera.looked_again()
    snapshot = server.api("GET", "/api/state", token=server.host_token)[1]
    assert snapshot["camera"]["status"] == "read_ok" and snapshot["message"] != "The dice changed after the read."
    press_roll(server)
    snapshot = state_when(server, lambda snap: snap["dice"]["values"] == [2])  # Bob's roll, read
    assert snapshot["dice"]["origins"] == ["camera"] and snapshot["view"]["roll_off"] is None


@pytest.mark.parametrize("moved_on", ["Bob's roll by hand", "a new game"])
def test_a_die_knocked_after_the_table_moved_on_is_not_told_as_the_tables_roll(start_server: Any, moved_on: str) -> None:
    server, camera = ann_rolls_a_5(start_server)
    if moved_on == "a new game":
        game = {"game": "through-the-gate", "players": ["Cy", "Dee"], **server.ending_this_game()}
        assert server.api("POST", "/api/game", game, token=server.host_token)[0] == 200
    else:  # Bob throws his own die beside the tray and enters it; Ann's 5 still lies in it
        assert server.api("POST", "/api/dice", {"values": [3], "sides": [6]}, token=server.seat_token(1))[0] == 200
    camera.land(2)  # a sleeve knocks Ann's die over onto its 2
    camera.looked_again()
    snapshot = server.api("GET", "/api/state", token=server.host_token)[1]
    assert snapshot["camera"]["status"] != "changed" and snapshot["message"] is None, snapshot["message"]
    assert snapshot["lights"]["status"] != "changed"  # "correct the roll" would have corrected Bob's 3
