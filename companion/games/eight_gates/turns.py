"""Choosing the Archivist, opening the middle, the turn order and the Archivist's count."""
from __future__ import annotations

from dataclasses import replace

from companion.games.eight_gates import grid, words
from companion.games.eight_gates.state import (
    ARCHIVIST_HAND,
    DRAW_PER_TURN,
    OPENING,
    OTHER_HAND,
    PLAYING,
    REVEAL,
    Deal,
    EightGates,
    Player,
    Score,
)
from companion.rules.game import say


def record_deal(state: EightGates, values: tuple[int, ...]) -> EightGates:
    """The Archivist draw with one dealt card per contender in: a re-deal among the tied, or the Archivist."""
    dealt = [(state.name(seat), value) for seat, value in zip(state.contenders, values)]
    state = say(replace(state, deals=state.deals + (Deal(state.contenders, values),)), words.dealt(dealt))
    high = max(values)
    tied = tuple(seat for seat, value in zip(state.contenders, values) if value == high)
    if len(tied) == 1:
        return name_archivist(state, tied[0], words.highest_card(state.name(tied[0]), high))
    names = [state.name(seat) for seat in tied]
    return say(replace(state, contenders=tied), words.tied(names, high))


def name_archivist(state: EightGates, seat: int, why: words.Pair) -> EightGates:
    """The state with the Archivist named and the hands drawn (1 for them, 2 for others); raises nothing."""
    players = tuple(
        replace(player, hand_size=ARCHIVIST_HAND if index == seat else OTHER_HAND)
        for index, player in enumerate(state.players)
    )
    state = replace(state, players=players, archivist=seat, contenders=(), phase=OPENING)
    state = say(state, words.archivist_named(why, state.name(seat)))
    return say(state, words.lay_middle(state.name(seat)))


def open_middle(state: EightGates, values: tuple[int, ...], types: tuple[str | None, ...]) -> EightGates:
    """The middle's 3 starting Gates laid and the first turn begun (the Archivist's left); raises nothing."""
    middle = grid.starting_row(values, types)
    state = say(replace(state, middle=middle, phase=PLAYING), words.middle_opens(values))
    return begin_turn(state, next_seat(state, archivist_seat(state)))


def archivist_seat(state: EightGates) -> int:
    """The Archivist's seat; raises ValueError before one is named."""
    if state.archivist is None:
        raise ValueError("The Archivist has not been chosen yet.")
    return state.archivist


def next_seat(state: EightGates, seat: int) -> int:
    """The seat to that one's left (clockwise, the next index); raises nothing."""
    return (seat + 1) % len(state.players)


def begin_turn(state: EightGates, seat: int) -> EightGates:
    """A new turn for that seat, who draws 2 cards at once; raises nothing."""
    state = replace(state, turn=state.turn + 1, current=seat, gates_played=0, flipped_now=False)
    state = change_hand(state, seat, DRAW_PER_TURN)
    return say(state, words.turn_begins(state.round, state.rounds, state.name(seat)))


def end_turn(state: EightGates) -> EightGates:
    """The turn ended: the Archivist's card face down and the end check, or the next player's turn."""
    state = say(state, words.turn_ends(state.name(state.current)))
    if state.current != state.archivist:
        return begin_turn(state, next_seat(state, state.current))
    state = replace(state, face_down=state.face_down + 1)
    state = say(state, words.face_down(state.face_down, state.rounds))
    if state.face_down >= state.rounds:
        state = replace(state, phase=REVEAL)
        return say(state, words.GAME_ENDS)
    return begin_turn(state, next_seat(state, state.current))


def change_hand(state: EightGates, seat: int, amount: int) -> EightGates:
    """A player's hand size changed by amount (never below 0), a proposal made from the hand before dropped;
    raises IndexError for a bad seat."""
    player = state.players[seat]
    return set_player(state, seat, replace(player, hand_size=max(0, player.hand_size + amount), proposal=None))


def set_player(state: EightGates, seat: int, player: Player) -> EightGates:
    """The state with one player replaced; raises IndexError for a seat not at the table."""
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def add_points(state: EightGates, seat: int, points: int, why: str, *, at_end: bool = False) -> EightGates:
    """A line on the Archivist's paper for that player (round 0 for the end reveal); raises nothing."""
    line = Score(seat, points, state.turn, 0 if at_end else state.round, why)
    return replace(state, scores=state.scores + (line,))
