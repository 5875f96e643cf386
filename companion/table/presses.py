"""What the box's NEXT and ROLL buttons ask of the table, and why a press does nothing (the phones say it)."""
from __future__ import annotations

from typing import Protocol

from companion.rules.inputs import Move
from companion.rules.engine import NO_ROLL_EXPECTED
from companion.rules.errors import IllegalMove, NoGame, NoRollExpected
from companion.table.session import NO_GAME_YET, Session

NEXT_DOES_NOTHING = "NEXT does nothing right now."
NO_CAMERA = "There is no camera; enter the roll by hand."


class RollingCamera(Protocol):
    """The camera as ROLL sees it: asked to read the dice of the roll the table awaits."""

    def roll(self, sides: tuple[int, ...]) -> None:
        """Start reading a roll of dice with these sides; raises nothing."""


def next_move(session: Session) -> tuple[Move, str]:
    """The move NEXT makes now and the player whose turn it ends; raises NoGame, IllegalMove."""
    table, game = session.table, session.game
    if table is None or game is None:
        raise NoGame(NO_GAME_YET)
    turn = game.whose_turn(table.state)
    if not turn or game.next_move is None:
        raise IllegalMove(NEXT_DOES_NOTHING)
    return Move(turn[0], game.next_move, {}), table.players[turn[0]]


def start_roll(session: Session, camera: RollingCamera | None) -> None:
    """Ask the camera to read the roll the table awaits; raises NoRollExpected, IllegalMove without a camera."""
    table, game = session.table, session.game
    request = game.awaiting_dice(table.state) if table is not None and game is not None else None
    if request is None:
        raise NoRollExpected(NO_ROLL_EXPECTED)
    if camera is None:
        raise IllegalMove(NO_CAMERA)
    camera.roll(request.sides)
