"""The hands as the companion counts them: what a reveal may take, and how a player puts a count right."""
from __future__ import annotations

from companion.games.eight_gates.state import EightGates
from companion.rules.errors import IllegalMove


def to_enter(state: EightGates, seat: int) -> str | None:
    """None when the hand holds a card to enter, else how to put its size right; raises nothing."""
    if state.players[seat].hand_size > 0:
        return None
    return f"The companion counts no cards in {state.name(seat)}'s hand. {draw_first(state, seat, 'enter the hand')}"


def draw_first(state: EightGates, seat: int, then: str) -> str:
    """How to put right a hand size that is too small, then do `then`, in a sentence; raises nothing."""
    name = state.name(seat)
    return f"If a Gate's text made {name} draw and it was not entered, enter Draw cards for {name} first, then {then}."


def within(state: EightGates, seat: int, count: int, then: str) -> None:
    """Nothing when the hand holds count cards or more; raises IllegalMove naming the hand size and the fix."""
    held = state.players[seat].hand_size
    if count > held:
        counted = f"The companion counts {held} card{'s' if held != 1 else ''} in {state.name(seat)}'s hand, not {count}."
        raise IllegalMove(f"{counted} {draw_first(state, seat, then)}")


def still_holding(state: EightGates, player: int) -> None:
    """Nothing when that player's hand still counts; raises IllegalMove once their Run or Set is revealed."""
    if state.players[player].revealed is not None:
        raise IllegalMove(f"{state.name(player)} has already revealed: that hand no longer counts.")
