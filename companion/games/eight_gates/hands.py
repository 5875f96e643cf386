"""The hands as the companion counts them: what a reveal may take, and how a player puts a count right."""
from __future__ import annotations

from companion.games.eight_gates import words
from companion.games.eight_gates.state import EightGates
from companion.rules.errors import IllegalMove


def to_enter(state: EightGates, seat: int) -> str | None:
    """None when the hand holds a card to enter, else how to put its size right; raises nothing."""
    if state.players[seat].hand_size > 0:
        return None
    return words.hand_empty(state.name(seat))


def within(state: EightGates, seat: int, count: int, then: words.Pair) -> None:
    """Nothing when the hand holds count cards or more; raises IllegalMove naming the hand size and the fix."""
    held = state.players[seat].hand_size
    if count > held:
        raise IllegalMove(words.hand_short(state.name(seat), held, count, then))


def still_holding(state: EightGates, player: int) -> None:
    """Nothing when that player's hand still counts; raises IllegalMove once their Run or Set is revealed."""
    if state.players[player].revealed is not None:
        raise IllegalMove(words.hand_gone(state.name(player)))
