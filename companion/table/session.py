"""The one mutable holder: the current table and the journal; submit(input) -> table."""
from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from companion.games import game_for
from companion.rules.inputs import CorrectDice, Input, StartGame, Undo
from companion.journal.store import Journal
from companion.rules import engine
from companion.rules.errors import CompanionError, GameInProgress, NoGame
from companion.rules.game import Game
from companion.rules.table import Table


NO_GAME_YET = "No game is being played yet; the host starts one."


def listed(names: tuple[str, ...]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'; raises nothing."""
    return " and ".join(filter(None, (", ".join(names[:-1]), names[-1]))) if names else ""


class Session:
    """Applies inputs with the pure engine and journals the accepted ones; one thread uses it."""

    def __init__(self, *, games: Mapping[str, Game[Any]], journal: Journal, clock: Callable[[], float] = time.time) -> None:
        """Rebuild the current game from the journal; raises JournalError (naming the entry) when it cannot."""
        self.games = games
        self.journal = journal
        self._clock = clock
        self.game_id: int | None = journal.current_game()
        self._begun = False  # whether anything has happened in the current game since it started
        self.table: Table | None = self._replay()
        self.seq = journal.last_seq()
        self._record_missing_end()

    def _replay(self) -> Table | None:
        if self.game_id is None:
            return None
        table: Table | None = None
        for entry in self.journal.entries(self.game_id):
            self._begun = not isinstance(entry.input, StartGame)
            try:
                table = self._replay_one(table, entry.input)
            except CompanionError as refusal:
                raise self.journal.damaged(f"entry {entry.seq} is refused by the rules when replayed "
                                           f"({refusal.message.rstrip('.')})") from None
        return table

    def _replay_one(self, table: Table | None, given: Input) -> Table | None:
        if isinstance(given, StartGame):
            return engine.start(game_for(self.games, given.game), given)
        return None if table is None else engine.apply(table, game_for(self.games, table.game), given)

    def _record_missing_end(self) -> None:
        """Record the end of a finished game a journal from before one-commit endings may lack."""
        outcome = self._outcome(self.table)
        if outcome is None or self.game_id is None or self.journal.read_only or self.journal.is_finished(self.game_id):
            return
        self.journal.finish(self.game_id, outcome, at=self._clock())

    @property
    def at_stake(self) -> bool:
        """Whether a new game would lose one under way: begun (an input since its start) and not ended; raises nothing."""
        return self._begun and self.table is not None and self._outcome(self.table) is None

    def check_ends(self, ends_game: int | None) -> None:
        """A new game ends a begun, unfinished one for good: only when the host named it (`ends_game`);
        raises GameInProgress."""
        if not self.at_stake or ends_game == self.game_id:
            return
        title = self.game.title if self.game is not None else "this table"
        players = listed(self.table.players) if self.table is not None else ""
        raise GameInProgress(f"The game of {title} with {players} is not finished, so no new game was started: "
                             "a new game would end it for good.")

    @property
    def game(self) -> Game[Any] | None:
        """The definition of the game being played, or None; raises nothing."""
        return self.games.get(self.table.game) if self.table is not None else None

    def submit(self, given: Input, *, source: str) -> Table:
        """Apply one input and journal it (with the game's end, in one commit).

        Raises CompanionError when refused, JournalError when it cannot be saved; nothing changed then.
        """
        table = self._next_table(given)
        outcome = self._outcome(table)
        self.seq, self.game_id = self.journal.append(self.game_id, given, source=source, at=self._clock(),
                                                     outcome=outcome, reopens=isinstance(given, (CorrectDice, Undo)))
        self.table = table
        self._begun = not isinstance(given, StartGame)
        return table

    def seats_given_to_others(self) -> list[int]:
        """The seats this game gives to someone other than the seat's last player in an earlier game (their
        links must go, so no phone acts for the wrong person); raises JournalError."""
        if self.table is None or not self.game_id:
            return []
        earlier = [self.journal.last_player(seat, self.game_id) for seat in range(len(self.table.players))]
        return [seat for seat, (was, now) in enumerate(zip(earlier, self.table.players))
                if was is not None and not engine.same_name(was, now)]

    def _next_table(self, given: Input) -> Table:
        if isinstance(given, StartGame):
            return engine.start(game_for(self.games, given.game), given)
        if self.table is None:
            raise NoGame(NO_GAME_YET)
        return engine.apply(self.table, game_for(self.games, self.table.game), given)

    def _outcome(self, table: Table | None) -> dict[str, Any] | None:
        """How the table's game ended, as the journal keeps it, or None while it goes on."""
        game = self.games.get(table.game) if table is not None else None
        outcome = game.outcome(table.state) if game is not None and table is not None else None
        if outcome is None:
            return None
        return {"winners": list(outcome.winners), "summary": outcome.summary, **dict(outcome.detail)}
