"""Choosing the Archivist, opening the middle, the turn order and the Archivist's count."""
from __future__ import annotations

from dataclasses import replace

from companion.games.eight_gates import grid
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
    dealt = ", ".join(f"{state.name(seat)} {value}" for seat, value in zip(state.contenders, values))
    state = say(replace(state, deals=state.deals + (Deal(state.contenders, values),)), f"Dealt for the Archivist: {dealt}.")
    high = max(values)
    tied = tuple(seat for seat, value in zip(state.contenders, values) if value == high)
    if len(tied) == 1:
        return name_archivist(state, tied[0], f"{state.name(tied[0])} has the highest card ({high})")
    names = " and ".join(state.name(seat) for seat in tied)
    return say(replace(state, contenders=tied), f"{names} tied on {high}: deal them one card each again.")


def name_archivist(state: EightGates, seat: int, why: str) -> EightGates:
    """The state with the Archivist named and the hands drawn (1 for them, 2 for others); raises nothing."""
    players = tuple(
        replace(player, hand_size=ARCHIVIST_HAND if index == seat else OTHER_HAND)
        for index, player in enumerate(state.players)
    )
    state = replace(state, players=players, archivist=seat, contenders=(), phase=OPENING)
    state = say(state, f"{why}: {state.name(seat)} is the Archivist and draws 1 card; everyone else draws 2.")
    return say(state, f"{state.name(seat)} places the top 3 cards of the deck in a row: enter their values.")


def open_middle(state: EightGates, values: tuple[int, ...], types: tuple[str | None, ...]) -> EightGates:
    """The middle's 3 starting Gates laid and the first turn begun (the Archivist's left); raises nothing."""
    middle = grid.starting_row(values, types)
    shown = ", ".join(map(str, values))
    state = say(replace(state, middle=middle, phase=PLAYING), f"The middle opens with {shown}.")
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
    last = " (the last round)" if state.round == state.rounds else ""
    return say(state, f"Round {state.round} of {state.rounds}{last}: {state.name(seat)}'s turn; they draw 2 cards.")


def end_turn(state: EightGates) -> EightGates:
    """The turn ended: the Archivist's card face down and the end check, or the next player's turn."""
    state = say(state, f"{state.name(state.current)} ends the turn.")
    if state.current != state.archivist:
        return begin_turn(state, next_seat(state, state.current))
    state = replace(state, face_down=state.face_down + 1)
    state = say(state, f"The Archivist puts a card face down beside the deck: {state.face_down} of {state.rounds}.")
    if state.face_down >= state.rounds:
        state = replace(state, phase=REVEAL)
        return say(state, "The game is over: everyone reveals one Run or one Set from their hand (4 points per card).")
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
