"""The one mutable holder: the current table and the journal; submit(input) -> table."""
from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from companion.games import game_for
from companion.inputs import Input, StartGame
from companion.journal import Journal
from companion.rules import engine
from companion.rules.errors import NoGame
from companion.rules.game import Game
from companion.rules.table import Table


class Session:
    """Applies inputs with the pure engine and journals the accepted ones; one thread uses it."""

    def __init__(self, *, games: Mapping[str, Game[Any]], journal: Journal, clock: Callable[[], float] = time.time) -> None:
        """Rebuild the current game from the journal; raises JournalError or CompanionError."""
        self.games = games
        self.journal = journal
        self._clock = clock
        self.game_id: int | None = journal.current_game()
        self.table: Table | None = self._replay()
        self.seq = journal.last_seq()

    def _replay(self) -> Table | None:
        if self.game_id is None:
            return None
        inputs = [entry.input for entry in self.journal.entries(self.game_id)]
        return engine.replay(lambda game_id: game_for(self.games, game_id), inputs)

    @property
    def game(self) -> Game[Any] | None:
        """The definition of the game being played, or None; raises nothing."""
        return self.games.get(self.table.game) if self.table is not None else None

    def submit(self, given: Input, *, source: str) -> Table:
        """Apply one input and journal it; raises CompanionError (nothing changed) when refused."""
        table = self._next_table(given)
        self.seq, self.game_id = self.journal.append(self.game_id, given, source=source, at=self._clock())
        self.table = table
        self._record_finish()
        return table

    def _next_table(self, given: Input) -> Table:
        if isinstance(given, StartGame):
            return engine.start(game_for(self.games, given.game), given)
        if self.table is None:
            raise NoGame("No game is being played yet; the host starts one.")
        return engine.apply(self.table, game_for(self.games, self.table.game), given)

    def _record_finish(self) -> None:
        game, table = self.game, self.table
        if game is None or table is None or self.game_id is None:
            return
        outcome = game.outcome(table.state)
        if outcome is not None:
            detail = {"winners": list(outcome.winners), "summary": outcome.summary, **dict(outcome.detail)}
            self.journal.finish(self.game_id, detail, at=self._clock())
