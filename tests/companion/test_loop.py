"""The engine loop: one queue; buttons map to inputs; a refusal changes nothing; seq only grows."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

import companion.table.loop
from companion.games import registered_games
from companion.rules.inputs import DiceRolled, Move, StartGame
from companion.journal.store import Journal
from companion.table.loop import EngineLoop, Job
from companion.table.port import Holder
from companion.rules.errors import IllegalMove, NotYourTurn
from companion.table.session import Session
from companion.table.snapshot import CameraGuess
from companion.table.tokens import Tokens


@pytest.fixture
def loop(tmp_path: Path) -> Any:
    journal = Journal(tmp_path / "journal.sqlite")
    shown: list[dict[str, Any]] = []
    running = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=Tokens(journal),
                         join_url=lambda token: f"http://127.0.0.1:9/join?token={token}", on_lights=shown.append)
    running.shown = shown
    running.now = [1000.0]  # the loop's clock, which tests move on
    running.clock = lambda: running.now[0]
    running.start()
    running.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 9), source="host")
    running.submit(DiceRolled((6,), (6,)), source="phone")
    running.submit(DiceRolled((2,), (6,)), source="phone")  # Ann goes first: the turn has passed to her
    running.now[0] += 10.0  # so that NEXT is meant for her turn
    yield running
    running.stop()


def _settle(loop: Any, seq: int) -> dict[str, Any]:
    loop.wait_for_change(seq, timeout=2.0)
    return loop.snapshot(None)


def test_a_refusal_changes_nothing_and_keeps_the_seq(loop: Any) -> None:
    before = loop.snapshot(None)
    with pytest.raises(NotYourTurn):
        loop.submit(Move(1, "end_turn", {}), source="phone")
    assert loop.snapshot(None) == before


def test_an_input_whose_sender_stopped_waiting_is_never_applied(loop: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(companion.table.loop, "ANSWER_SECONDS", 0.2)
    busy = threading.Event()
    loop.handlers["busy"] = lambda job: busy.wait(5)  # the loop stuck on something else, e.g. a slow SD card
    loop.enqueue(Job("busy", None))
    before = loop.snapshot(None)
    with pytest.raises(TimeoutError, match="nothing changed"):
        loop.submit(Move(0, "declare_speed", {"speed": 3}), source="phone")
    busy.set()
    behind = Job("publish", None, done=threading.Event())
    loop.enqueue(behind)
    assert behind.done.wait(5)  # the loop has passed the withdrawn input by now
    assert loop.snapshot(None) == before and loop.session.journal.last_seq() == before["seq"]


def test_next_and_undo_buttons_become_moves_of_the_seat_whose_turn_it_is(loop: Any) -> None:
    loop.submit(Move(0, "declare_speed", {"speed": 3}), source="phone")
    seq = loop.snapshot(None)["seq"]
    loop.press("undo")
    after_undo = _settle(loop, seq)
    assert after_undo["view"]["declared_speed"] is None and after_undo["seq"] > seq
    loop.press("next")
    after_next = _settle(loop, after_undo["seq"])
    assert after_next["view"]["current"] == 1
    assert after_next["lights"]["seats"] == [False, True]
    assert loop.shown[-1]["seats"] == [False, True]


def test_a_button_press_drops_the_camera_guess_made_for_the_table_before_it(loop: Any) -> None:
    guess = CameraGuess((5,), (6,), ("guess-1-0",), (b"jpeg",))
    shown = Job("show", None, done=threading.Event())
    loop.handlers["show"] = lambda job: loop.show_camera("reroll", "Could not read the dice surely.", guess=guess)
    loop.enqueue(shown)
    assert shown.done.wait(5) and loop.snapshot(None)["camera"]["guess"]["values"] == [5]
    seq = loop.snapshot(None)["seq"]
    loop.press("next")
    after_next = _settle(loop, seq)
    assert after_next["view"]["current"] == 1 and after_next["camera"]["guess"] is None


def test_after_a_restart_the_phones_still_see_the_last_roll(loop: Any) -> None:
    shown = loop.snapshot(None)["dice"]
    assert shown["values"] == [2] and shown["origins"] == ["phone"]
    loop.stop()
    session = Session(games=registered_games(), journal=loop.session.journal)
    restarted = EngineLoop(session=session, tokens=loop.tokens, join_url=lambda token: "")
    assert restarted.snapshot(None)["dice"] == shown  # the crops' pictures are not kept (none here)


def test_a_refused_button_press_tells_the_phones_why(loop: Any) -> None:
    seq = loop.snapshot(None)["seq"]
    loop.press("roll")
    shown = _settle(loop, seq)
    assert shown["message"] == "No roll is expected right now." and shown["seq"] > seq


def test_an_unknown_button_is_refused_with_a_sentence(loop: Any) -> None:
    with pytest.raises(ValueError, match="the buttons are roll, next, undo"):
        loop.press("jump")


def test_seat_snapshots_carry_only_that_seats_moves(loop: Any) -> None:
    assert {move["seat"] for move in loop.snapshot(1)["legal_moves"]} <= {1}
    assert {move["seat"] for move in loop.snapshot(None)["legal_moves"]} == {0, 1}


def test_roll_with_no_camera_says_so(loop: Any) -> None:
    loop.submit(Move(0, "declare_speed", {"speed": 3}), source="phone")
    loop.submit(Move(0, "check", {"kind": "six"}), source="phone")
    seq = loop.snapshot(None)["seq"]
    loop.press("roll")
    assert _settle(loop, seq)["message"] == "There is no camera; enter the roll by hand."


def test_the_loop_survives_a_failing_light_callback(loop: Any) -> None:
    def broken(shown: Any) -> None:
        raise RuntimeError("LED driver fell off")

    loop.on_lights = broken
    with pytest.raises(IllegalMove, match="Declare your speed first"):
        loop.submit(Move(0, "check", {"kind": "six"}), source="phone")
    assert loop.submit(Move(0, "declare_speed", {"speed": 2}), source="phone")["view"]["speed"] == 2


def test_a_double_tap_of_next_ends_one_turn_only(loop: Any) -> None:
    now = loop.now
    for _ in range(2):
        loop.press("next")
    done = Job("publish", None, done=threading.Event())
    loop.enqueue(done)
    assert done.done.wait(5)
    assert loop.snapshot(None)["view"]["current"] == 1  # Bob's turn, not skipped
    now[0] += 1.5
    loop.press("next")  # a second NEXT, a moment later, is meant
    later = Job("publish", None, done=threading.Event())
    loop.enqueue(later)
    assert later.done.wait(5)
    assert loop.snapshot(None)["view"]["current"] == 0


def _pressed(loop: Any, button: str) -> dict[str, Any]:
    """Press a button and return the table once the loop has handled it."""
    loop.press(button)
    handled = Job("publish", None, done=threading.Event())
    loop.enqueue(handled)
    assert handled.done.wait(5)
    return loop.snapshot(None)


def test_next_a_moment_after_a_phone_ended_the_turn_does_not_end_the_next_one(loop: Any) -> None:
    now = loop.now
    loop.submit(Move(0, "end_turn", {}), source="phone")  # Ann ends her turn on her phone ...
    now[0] += 1.5
    shown = _pressed(loop, "next")  # ... as her neighbour presses NEXT for her
    assert shown["view"]["current"] == 1  # Bob's turn goes on
    assert shown["message"] == "The turn has just passed to Bob, so NEXT did nothing. Press NEXT again to end Bob's turn."
    now[0] += 0.5
    assert _pressed(loop, "next")["view"]["current"] == 1  # a bounce of that press is still a double tap
    now[0] += 1.0
    assert _pressed(loop, "next")["view"]["current"] == 0  # pressed again, as the sentence says: meant


def test_next_a_while_after_a_phone_ended_the_turn_is_meant(loop: Any) -> None:
    now = loop.now
    loop.submit(Move(0, "end_turn", {}), source="phone")
    now[0] += 2.5
    assert _pressed(loop, "next")["view"]["current"] == 0


def test_a_restart_on_a_finished_game_shows_the_lights_without_beeping_again(tmp_path: Path) -> None:
    from dataclasses import replace

    from companion.rules.game import Outcome

    real = registered_games()["through-the-gate"]  # made to end at its first roll
    quick = replace(real, outcome=lambda state: Outcome((0,), "Ann wins.") if len(state.log) > 1 else None)
    games = {**registered_games(), quick.id: quick}

    def started_loop() -> tuple[EngineLoop, list[dict[str, Any]]]:
        journal = Journal(tmp_path / "journal.sqlite")
        shown: list[dict[str, Any]] = []
        running = EngineLoop(session=Session(games=games, journal=journal), tokens=Tokens(journal),
                             join_url=lambda token: "", on_lights=shown.append)
        running.start()
        return running, shown

    first, heard = started_loop()
    first.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 9), source="host")
    first.submit(DiceRolled((6,), (6,)), source="phone")  # the game ends: the box beeps
    assert heard[-1]["buzz"] and heard[-1]["status"] == "game_over"
    first.stop()
    first.session.journal.close()

    again, shown = started_loop()  # the power came back
    assert _wait_for(lambda: shown) and shown[0]["status"] == "game_over" and not shown[0]["buzz"]
    again.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 10), source="host")
    assert not shown[-1]["buzz"]
    again.submit(DiceRolled((6,), (6,)), source="phone")
    assert shown[-1]["buzz"]  # a game that ends after the restart beeps as always
    again.stop()


def _wait_for(condition: Any, seconds: float = 2.0) -> Any:
    import time

    deadline = time.monotonic() + seconds
    while not (found := condition()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return found


def test_a_game_under_way_is_still_at_stake_after_a_restart(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session(games=registered_games(), journal=journal)
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 9), source="host")
    assert not session.at_stake  # nothing has happened in it yet: a new game loses nothing
    journal.close()
    again = Session(games=registered_games(), journal=Journal(tmp_path / "journal.sqlite"))
    assert not again.at_stake
    again.submit(DiceRolled((6,), (6,)), source="phone")
    again.journal.close()
    after_power_cut = Session(games=registered_games(), journal=Journal(tmp_path / "journal.sqlite"))
    assert after_power_cut.at_stake


def test_a_power_cut_between_a_new_game_and_its_new_links_is_made_good_at_the_next_start(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    session = Session(games=registered_games(), journal=journal)
    tokens = Tokens(journal)
    session.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 9), source="host")
    anns_link, bobs_link = tokens.seat_token(0), tokens.seat_token(1)
    time.sleep(0.01)  # the next game starts later than the links were issued
    session.submit(StartGame("through-the-gate", ("Cy", "Bob"), {}, 10), source="host")  # the power goes here
    journal.close()
    journal = Journal(tmp_path / "journal.sqlite")
    tokens = Tokens(journal)
    assert tokens.holder(anns_link) == Holder(0)  # Ann's phone would act for Cy
    restarted = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=tokens,
                           join_url=lambda token: "")
    restarted.start()
    try:
        assert tokens.holder(anns_link) is None  # Cy's seat has a new link; Ann's old one is gone
        assert tokens.holder(bobs_link) == Holder(1)  # Bob keeps his seat and his phone
        fresh = tokens.seat_token(0)
        restarted.stop()
        again = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=tokens,
                           join_url=lambda token: "")
        again.start()  # a further restart leaves the new links alone
        assert tokens.holder(fresh) == Holder(0)
        again.stop()
    finally:
        restarted.stop()


def test_the_table_the_box_set_up_is_out_before_start_returns(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    running = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=Tokens(journal),
                         join_url=lambda token: f"http://127.0.0.1:9/join?token={token}")
    running.show_camera("offline", "The camera is offline.")  # set while the box is built, before the loop runs
    running.start()
    try:
        first = running.snapshot(None)  # what a phone asking at once is served
        assert first["camera"]["status"] == "offline", first["camera"]
        assert running.wait_for_change(first["seq"], timeout=0.3) == first["seq"]  # and it stays the table shown
    finally:
        running.stop()
