"""Named refusals: each carries a stable `code` for programs and a `message` for players."""
from __future__ import annotations


class CompanionError(Exception):
    """Base of every refusal; `code` is stable, `message` is a sentence a player can read."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class IllegalMove(CompanionError, ValueError):
    """The rules do not allow this now; the table is unchanged."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    """A seat tried to act when it is not theirs to act."""

    code = "not_your_turn"


class NoRollExpected(IllegalMove):
    """Dice arrived when the table was not waiting for a roll."""

    code = "no_roll_expected"


class WrongDice(IllegalMove):
    """The roll does not match the dice the table waits for (count or sides)."""

    code = "wrong_dice"


class NothingToUndo(IllegalMove):
    """Undo asked for when the current turn has no move left to take back."""

    code = "nothing_to_undo"


class GameOver(IllegalMove):
    """The game has ended; only a new game can be started."""

    code = "game_over"


class NoGame(IllegalMove):
    """No game is being played yet."""

    code = "no_game"


class TableMovedOn(IllegalMove):
    """The input was made on a phone that showed an older table: another game, or a roll since replaced."""

    code = "table_moved_on"


class GameInProgress(IllegalMove):
    """A new game was asked for while one is unfinished, without naming that game as the one to end."""

    code = "game_in_progress"


class BadInput(CompanionError, ValueError):
    """The input is malformed: wrong shape, type or range for what the move takes."""

    code = "bad_input"


class UnknownGame(CompanionError, LookupError):
    """No registered game has that id."""

    code = "unknown_game"
