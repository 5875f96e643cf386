"""The claim window (a minute in which a phone becomes the host: first wins, later ones refused, gone after 60 s) and
the engine loop that opens it from NEXT and UNDO held together and hands the phone a new host link; and where the box
says it can be found (its announced name and its number)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import registered_games
from companion.journal.store import Journal
from companion.rules.inputs import StartGame
from companion.table.announce import announced_name, box_address
from companion.table.claim import CLAIM_SECONDS, ClaimClosed, ClaimTaken, ClaimWindow
from companion.table.loop import EngineLoop
from companion.table.port import Holder
from companion.table.session import Session
from companion.table.tokens import Tokens


class Clock:
    """A clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


# --- the window alone ----------------------------------------------------------------------------
def test_a_window_never_opened_refuses_a_claim() -> None:
    window = ClaimWindow(clock=Clock())
    assert window.state() == {"open": False, "seconds_left": 0}
    with pytest.raises(ClaimClosed, match="Hold NEXT and UNDO together for 3 seconds"):
        window.check()
    with pytest.raises(ClaimClosed):
        window.claimed()


def test_the_first_claim_wins_and_a_second_is_told_another_phone_did() -> None:
    clock = Clock()
    window = ClaimWindow(clock=clock)
    window.open()
    assert window.state() == {"open": True, "seconds_left": 60}
    window.check()
    window.claimed()
    assert window.state() == {"open": False, "seconds_left": 0}
    with pytest.raises(ClaimTaken, match="Another phone has just become the host"):
        window.check()
    clock.now += CLAIM_SECONDS  # once its minute is over, a late claim is told the window is closed
    with pytest.raises(ClaimClosed):
        window.claimed()


def test_the_window_closes_after_sixty_seconds() -> None:
    clock = Clock()
    window = ClaimWindow(clock=clock)
    window.open()
    clock.now += 59.5
    assert window.state() == {"open": True, "seconds_left": 1}
    clock.now += 0.5
    assert window.state() == {"open": False, "seconds_left": 0}
    with pytest.raises(ClaimClosed):
        window.claimed()


def test_holding_again_opens_a_fresh_minute_even_after_a_claim() -> None:
    clock = Clock()
    window = ClaimWindow(clock=clock)
    window.open()
    window.claimed()
    clock.now += 10
    window.open()
    assert window.state() == {"open": True, "seconds_left": 60}
    window.claimed()  # a new minute: a phone may claim again


def test_a_window_of_no_time_is_refused() -> None:
    with pytest.raises(ValueError, match="some time"):
        ClaimWindow(seconds=0)


def test_the_refusals_have_a_korean_twin_and_a_stable_code() -> None:
    for error, code in ((ClaimClosed, "claim_closed"), (ClaimTaken, "claim_taken")):
        window = ClaimWindow(clock=Clock())
        if error is ClaimTaken:
            window.open()
            window.claimed()
        with pytest.raises(error) as refused:
            window.check()
        assert refused.value.code == code and refused.value.message.ko  # type: ignore[attr-defined]


# --- the loop ------------------------------------------------------------------------------------
@pytest.fixture
def loop(tmp_path: Path) -> Any:
    journal = Journal(tmp_path / "journal.sqlite")
    shown: list[dict[str, Any]] = []
    running = EngineLoop(session=Session(games=registered_games(), journal=journal), tokens=Tokens(journal),
                         join_url=lambda token: f"http://127.0.0.1:9/join?token={token}", on_lights=shown.append,
                         ping_seconds=0.05)
    running.shown = shown
    running.time = Clock()
    running.claim = ClaimWindow(clock=running.time)
    running.start()
    running.submit(StartGame("through-the-gate", ("Ann", "Bob"), {}, 9), source="host")
    yield running
    running.stop()


def _until(loop: Any, check: Any) -> bool:
    """Whether `check(snapshot)` comes true within 2 s of the loop's publishing."""
    for _ in range(40):
        if check(loop.snapshot(None)):
            return True
        loop.wait_for_change(loop.snapshot(None)["seq"], timeout=0.05)
    return check(loop.snapshot(None))


def test_the_claim_press_opens_the_window_and_lights_the_box_white(loop: Any) -> None:
    assert loop.snapshot(None)["lights"]["status"] == "ready"
    loop.press("claim")  # what the panel's on_claim does, and the virtual panel's hold
    assert _until(loop, lambda snap: snap["lights"]["status"] == "claiming")
    assert loop.shown[-1]["status"] == "claiming" and loop.claim.is_open


def test_a_phone_claiming_in_the_window_gets_a_new_host_link_and_the_old_one_ends(loop: Any) -> None:
    old = loop.tokens.host_token()
    loop.press("claim")
    assert _until(loop, lambda snap: snap["lights"]["status"] == "claiming")
    new = loop.claim_host()
    assert new != old and loop.tokens.host_token() == new
    assert loop.tokens.holder(new) == Holder(None) and loop.tokens.holder(old) is None
    assert loop.snapshot(None)["lights"]["status"] == "ready"  # the window used: the game's status again
    with pytest.raises(ClaimTaken):
        loop.claim_host()
    assert loop.tokens.host_token() == new  # the second phone changed nothing


def test_a_claim_outside_the_window_changes_nothing(loop: Any) -> None:
    old, before = loop.tokens.host_token(), loop.snapshot(None)
    with pytest.raises(ClaimClosed):
        loop.claim_host()
    assert loop.tokens.host_token() == old and loop.snapshot(None) == before


def test_the_box_shows_the_game_again_when_the_minute_passes_unused(loop: Any) -> None:
    old = loop.tokens.host_token()
    loop.press("claim")
    assert _until(loop, lambda snap: snap["lights"]["status"] == "claiming")
    loop.time.now += CLAIM_SECONDS  # nobody claimed: the idle loop notices and shows the game's status
    assert _until(loop, lambda snap: snap["lights"]["status"] == "ready")
    assert loop.shown[-1]["status"] == "ready"
    with pytest.raises(ClaimClosed):
        loop.claim_host()
    assert loop.tokens.host_token() == old


def test_an_unknown_press_is_refused_by_name(loop: Any) -> None:
    with pytest.raises(ValueError, match="claim"):
        loop.press("claimm")


# --- where the box says it is ----------------------------------------------------------------------
def test_the_announced_name_is_the_hostname_while_avahi_runs(tmp_path: Path) -> None:
    pid = tmp_path / "pid"
    assert announced_name(pid_file=pid, hostname=lambda: "table-companion") is None  # no avahi here
    pid.write_text("123\n")
    assert announced_name(pid_file=pid, hostname=lambda: "table-companion") == "table-companion.local"
    assert announced_name(pid_file=pid, hostname=lambda: "localhost") is None


def test_the_box_address_names_the_box_and_its_number() -> None:
    named = box_address("0.0.0.0", "192.168.1.20", 8080, name="table-companion.local")
    assert named == {"name": "http://table-companion.local:8080/", "number": "http://192.168.1.20:8080/"}
    assert box_address("0.0.0.0", "192.168.1.20", 80, name="table-companion.local")["name"] == "http://table-companion.local/"
    assert box_address("0.0.0.0", "192.168.1.20", 8080, name=None)["name"] is None
    # listening on one address only, the name may lead elsewhere: only the number is printed
    assert box_address("127.0.0.1", "", 8080, name="table-companion.local") == {"name": None,
                                                                             "number": "http://127.0.0.1:8080/"}
