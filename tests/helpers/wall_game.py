"""A toy game for the undo rules: Ann builds walls in her turn, Bob paints one out of turn (only on a wall)."""
from __future__ import annotations

from typing import Any

from companion.rules.game import Game, MoveRule, Outcome

Walls = tuple[str, ...]


def _build(state: Walls, act: Any) -> Walls:
    return (*state, "wall")


def _paint(state: Walls, act: Any) -> Walls:
    return (*state, "paint")


def wall_game(*, moves_to_end: int = 99) -> Game[Walls]:
    """The toy game, over once `moves_to_end` walls and paints are made; raises nothing."""
    return Game(
        id="toy", title="Toy", min_players=2, max_players=2, options={"type": "object"},
        setup=lambda setup: (), whose_turn=lambda state: (0,), turn_key=lambda state: 0,
        outcome=lambda state: None if len(state) < moves_to_end else Outcome((0,), "done"), view=lambda state, seat: {},
        moves=(MoveRule("build", "Build a wall", _build, lambda state, seat: None),  # Ann's, in her turn
               MoveRule("paint", "Paint the wall", _paint,  # Bob's, out of turn: only on a wall
                        lambda state, seat: None if "wall" in state else "There is no wall to paint.")))
