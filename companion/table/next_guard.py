"""The NEXT button's guard: a press meant for a turn that has just ended must not end the next player's.

Two ways it happens at a table: a double tap (the button bounces, or a player presses twice), and a
player ending a turn on a phone (or the camera's read ending it) while a neighbour presses NEXT for them.
End turn is never undone, so the second press is dropped (a double tap) or refused with a sentence.
"""
from __future__ import annotations

from companion.rules.errors import IllegalMove

DOUBLE_TAP_SECONDS = 1.0  # a second NEXT within this time of the last is a double tap, not another turn
JUST_PASSED_SECONDS = 2.0  # NEXT within this time of a turn passed by another input was meant for that turn


class NextGuard:
    """Remembers when NEXT was last taken and when another input last passed the turn (loop thread only)."""

    def __init__(self) -> None:
        self._pressed = float("-inf")
        self._passed = float("-inf")

    def turn_passed(self, now: float) -> None:
        """An input other than NEXT (a phone, the camera) has just passed the turn; raises nothing."""
        self._passed = now

    def allows(self, now: float, player: str) -> bool:
        """Whether a NEXT pressed at `now` may end `player`'s turn; False for a double tap, to be dropped quietly.

        Raises IllegalMove when the turn has just passed to `player` by another input: the press was most
        likely meant for the turn that ended. A press after the refusal (and its double-tap time) is meant.
        """
        if now - self._pressed < DOUBLE_TAP_SECONDS:
            return False
        self._pressed = now
        if now - self._passed < JUST_PASSED_SECONDS:
            self._passed = float("-inf")
            raise IllegalMove(just_passed(player))
        return True


def just_passed(player: str) -> str:
    """The sentence for a NEXT refused because the turn has just passed to `player`; raises nothing."""
    return f"The turn has just passed to {player}, so NEXT did nothing. Press NEXT again to end {player}'s turn."
