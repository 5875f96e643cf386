"""8 Gates (Small Box Games): the Archivist's bookkeeping — the middle, scores, rounds and the end."""
from __future__ import annotations

from typing import Hashable

from companion.games.eight_gates import words
from companion.games.eight_gates.moves import MOVES
from companion.games.eight_gates.state import ARCHIVIST, OPENING, PLAYING, REVEAL, EightGates, Player
from companion.games.eight_gates.views import outcome, view
from companion.rules.game import Game, Setup, say
from companion.rules.schema import obj


def setup(given: Setup) -> EightGates:
    """A new game waiting for the Archivist to be chosen; raises nothing (the engine checked players)."""
    players = tuple(Player(name) for name in given.players)
    state = EightGates(players=players, phase=ARCHIVIST, contenders=tuple(range(len(players))))
    return say(state, words.DEAL_OR_CHOOSE)


def whose_turn(state: EightGates) -> tuple[int, ...]:
    """The seats expected to act now; raises nothing."""
    if state.phase == ARCHIVIST:
        return state.contenders
    if state.phase == OPENING:
        return (state.archivist,) if state.archivist is not None else ()
    if state.phase == PLAYING:
        return (state.current,)
    if state.phase == REVEAL:
        return tuple(seat for seat, player in enumerate(state.players) if player.revealed is None)
    return ()


def turn_key(state: EightGates) -> Hashable:
    """What identifies the current turn, for undo (the setup and the reveal are one turn each); raises nothing."""
    if state.phase in (ARCHIVIST, OPENING):
        return ("setup",)
    return (state.phase, state.turn)


GAME: Game[EightGates] = Game(
    id="eight-gates",
    title="8 Gates",
    min_players=3,
    max_players=4,
    options=obj(),
    setup=setup,
    moves=MOVES,
    whose_turn=whose_turn,
    turn_key=turn_key,
    outcome=outcome,
    view=view,
    summary="The Archivist's bookkeeping: the middle's grid, points, the round count and the end reveal; 3–4 players.",
)
