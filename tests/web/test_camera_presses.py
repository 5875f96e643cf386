"""ROLL at a real table: a double press reads once, and a read the table could not record can be read again."""
from __future__ import annotations

from typing import Any

from camera_table import StillDice, press_roll, state_when


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
