"""Every registered game, played by seeded random legal inputs through a real journal.

At every step: the refused inputs change nothing, and replaying the journal gives the same table.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import game_for, registered_games
from companion.rules.inputs import StartGame
from companion.journal.store import Journal
from companion.rules import engine
from companion.rules.autoplay import random_input
from companion.rules.errors import CompanionError
from companion.rules.game import Outcome
from companion.table.session import Session

GAMES = registered_games()
SEEDS = range(6)
MAX_STEPS = 3000


def _replayed(journal: Journal, game_id: int):
    inputs = [entry.input for entry in journal.entries(game_id)]
    return engine.replay(lambda game: game_for(GAMES, game), inputs)


def _play(session: Session, rng: random.Random) -> int:
    game = session.game
    assert game is not None and session.table is not None
    for step in range(MAX_STEPS):
        if game.outcome(session.table.state) is not None:
            return step
        given = random_input(session.table, game, rng)
        assert given is not None, f"{game.id}: no legal input and no outcome at step {step}"
        before = session.table
        try:
            session.submit(given, source="phone")
        except CompanionError as refusal:
            assert session.table is before, f"a refused {given} changed the table"
            assert refusal.message.strip(), "a refusal needs a sentence"
            continue
        assert _replayed(session.journal, session.game_id) == session.table
    raise AssertionError(f"{game.id} did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_and_replay_to_the_same_table(tmp_path: Path, game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    game = GAMES[game_id]
    players = tuple(f"P{index}" for index in range(rng.randint(game.min_players, game.max_players)))
    session = Session(games=GAMES, journal=Journal(tmp_path / "journal.sqlite"))
    session.submit(StartGame(game_id, players, {}, seed), source="host")
    steps = _play(session, rng)
    assert steps > 0
    reopened = Session(games=GAMES, journal=Journal(tmp_path / "journal.sqlite"))
    assert reopened.table == session.table
    assert session.journal.history()[0].outcome is not None
    assert session.journal.integrity() == "ok"
    _said_in_korean(game.outcome(session.table.state))


def _said_in_korean(outcome: Outcome | None) -> None:
    """The Korean page shows the result and any tie rule in Korean, not the English sentence."""
    assert outcome is not None
    hangul = [key for key in ("summary_ko", "tie_rule_ko") if any("가" <= letter <= "힣" for letter in
                                                                  str(outcome.detail.get(key, "")))]
    assert hangul == (["summary_ko", "tie_rule_ko"] if "tie_rule" in outcome.detail else ["summary_ko"]), outcome
