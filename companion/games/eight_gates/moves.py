"""The moves of 8 Gates: who may make each now, its arguments and its effect."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.eight_gates import grid, hands, scoring, words
from companion.games.eight_gates.state import (
    ARCHIVIST,
    DECK,
    OPENING,
    OVER,
    PLAYING,
    REVEAL,
    STARTING_GATES,
    EightGates,
    Gate,
)
from companion.games.eight_gates.turns import (
    add_points,
    change_hand,
    end_turn,
    name_archivist,
    open_middle,
    record_deal,
    set_player,
)
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, first_reason, say
from companion.rules.schema import JSON, array, integer, obj, text

Reason = Callable[[EightGates, int], "str | None"]
VALUE_TITLE = "value (1–6)"


def _in_phase(phase: str, sentence: str) -> Reason:
    return lambda state, seat: None if state.phase == phase else sentence


def your_turn(state: EightGates, seat: int) -> str | None:
    """None when it is this seat's turn to play, else why not; raises nothing."""
    if state.phase != PLAYING:
        return words.ONLY_IN_A_TURN
    return None if seat == state.current else words.whose_turn(state.name(state.current))


def _may_place(state: EightGates, seat: int) -> str | None:
    if state.gates_played < state.gates_allowed:
        return _has_cards(state, seat)
    if state.flipped_now:
        return words.BOTH_PLAYED
    if state.players[seat].flipped:
        return words.PLAYED_FLIPPED
    return words.PLAYED_MAY_FLIP


def _has_cards(state: EightGates, seat: int) -> str | None:
    return None if state.players[seat].hand_size > 0 else words.no_cards_to_play(state.name(seat))


def _may_flip(state: EightGates, seat: int) -> str | None:
    if state.players[seat].flipped:
        return words.flipped_already(state.name(seat))
    if state.gates_played != 1:
        return words.FLIP_AFTER_FIRST
    return _has_cards(state, seat)


def _gate_played(state: EightGates, seat: int) -> str | None:
    return None if state.gates_played > 0 else words.GATE_FIRST


def _may_end(state: EightGates, seat: int) -> str | None:
    if state.gates_played >= state.gates_allowed or state.players[seat].hand_size == 0:
        return None
    if state.gates_played == 0:
        return words.PLAY_BEFORE_END
    return words.SECOND_BEFORE_END


def _something_to_destroy(state: EightGates, seat: int) -> str | None:
    return None if any(not gate.ruins for gate in state.middle) else words.ALL_RUINS


def _still_to_reveal(state: EightGates, seat: int) -> str | None:
    if state.phase != REVEAL:
        return words.REVEAL_AT_END
    return None if state.players[seat].revealed is None else words.revealed_already(state.name(seat))


def _has_proposal(state: EightGates, seat: int) -> str | None:
    return None if state.players[seat].proposal is not None else words.ENTER_HAND_FIRST


def _player_arg(state: EightGates) -> JSON:
    return integer(0, len(state.players) - 1, "player")


def _deal(state: EightGates, act: Act) -> EightGates:
    return record_deal(state, tuple(act.args["values"]))


def _choose(state: EightGates, act: Act) -> EightGates:
    seat = act.args["seat"]
    return name_archivist(state, seat, words.CHOSEN_BY_TABLE)


def _open(state: EightGates, act: Act) -> EightGates:
    values = tuple(act.args["values"])
    types = tuple(act.args.get("types", (None,) * len(values)))
    return open_middle(state, values, types)


def _place(state: EightGates, act: Act) -> EightGates:
    x, y, value = act.args["x"], act.args["y"], act.args["value"]
    reason = grid.why_not_place(state.middle, x, y)
    if reason is not None:
        raise IllegalMove(reason)
    points = grid.placement_points(state.middle, x, y, value)
    middle = grid.place(state.middle, Gate(x, y, value, act.args.get("type")))
    state = change_hand(replace(state, middle=middle, gates_played=state.gates_played + 1), act.seat, -1)
    if points:
        state = add_points(state, act.seat, points, f"played a {value} next to a {value}")
    return say(state, words.placed(state.name(act.seat), value, x, y, points))


def _flip(state: EightGates, act: Act) -> EightGates:
    player = replace(state.players[act.seat], flipped=True)
    state = replace(set_player(state, act.seat, player), flipped_now=True)
    return say(state, words.flipped(state.name(act.seat)))


def _destroy(state: EightGates, act: Act) -> EightGates:
    x, y = act.args["x"], act.args["y"]
    try:
        middle = grid.destroy(state.middle, x, y)
    except ValueError as error:
        raise IllegalMove(error.args[0]) from None  # the sentence itself (a Said), with its Korean
    return say(replace(state, middle=middle), words.destroyed(x, y))


def _points(sign: int) -> Callable[[EightGates, Act], EightGates]:
    def change(state: EightGates, act: Act) -> EightGates:
        player, points = act.args.get("player", act.seat), act.args["points"]
        verb = "gains" if sign > 0 else "loses"
        state = add_points(state, player, sign * points, f"ability: {verb} {points}")
        return say(state, words.points_changed(state.name(player), sign > 0, points))

    return change


def _draw(state: EightGates, act: Act) -> EightGates:
    player, cards = act.args.get("player", act.seat), act.args["cards"]
    hands.still_holding(state, player)
    state = change_hand(state, player, cards)
    held = state.players[player].hand_size
    return say(state, words.drew(state.name(player), cards, held))


def _discard(state: EightGates, act: Act) -> EightGates:
    player, cards = act.args.get("player", act.seat), act.args["cards"]
    hands.still_holding(state, player)
    held = state.players[player].hand_size
    if cards > held:
        raise IllegalMove(words.only_holds(state.name(player), held))
    state = change_hand(state, player, -cards)
    return say(state, words.discarded(state.name(player), cards, held - cards))


def _end_turn(state: EightGates, act: Act) -> EightGates:
    return end_turn(state)


def _reveal(state: EightGates, act: Act) -> EightGates:
    return reveal(state, act.seat, tuple(act.args["values"]))


def reveal(state: EightGates, seat: int, values: tuple[int, ...]) -> EightGates:
    """The state with a player's Run or Set revealed and scored; raises IllegalMove for anything else, for
    more cards than the hand holds, or for nothing while the hand holds a card."""
    hands.within(state, seat, len(values), words.REVEAL_AGAIN)
    held = state.players[seat].hand_size
    if not values and held:  # "each player reveals a Run or Set of cards from their hand"
        raise IllegalMove(words.reveal_something(state.name(seat), held))
    reason = scoring.why_not_reveal(values)
    if reason is not None:
        raise IllegalMove(reason)
    points = scoring.reveal_points(values)
    shown = scoring.describe(values)
    state = set_player(state, seat, replace(state.players[seat], revealed=tuple(sorted(values)), proposal=None))
    state = add_points(state, seat, points, f"revealed {shown}", at_end=True)
    state = say(state, words.revealed(state.name(seat), values, points))
    if all(player.revealed is not None for player in state.players):
        return say(replace(state, phase=OVER), words.SCORES_FINAL)
    return state


def _enter_hand(state: EightGates, act: Act) -> EightGates:
    hand = tuple(act.args["hand"])
    hands.within(state, act.seat, len(hand), words.ENTER_THE_HAND_AGAIN)
    best = scoring.best_reveal(hand)
    state = set_player(state, act.seat, replace(state.players[act.seat], proposal=best))
    return say(state, words.proposal(state.name(act.seat), best, scoring.reveal_points(best)))


def _accept(state: EightGates, act: Act) -> EightGates:
    return reveal(state, act.seat, state.players[act.seat].proposal or ())


def _deal_args(state: EightGates, seat: int) -> JSON:
    count = len(state.contenders)
    dealt = array(integer(1, 6), count, count, "the dealt values, in seat order of the contenders", "받은 카드 값 (자리 순서대로)")
    return obj({"values": dealt}, ("values",))


def _gates_args(state: EightGates, seat: int) -> JSON:
    values = array(integer(1, 6), STARTING_GATES, STARTING_GATES, "values, left to right", "값 (왼쪽부터)")
    types = array(text(24), STARTING_GATES, STARTING_GATES, "types, left to right", "종류 (왼쪽부터)")
    return obj({"values": values, "types": types}, ("values",))


def _cell_args(margin: int, extra: dict[str, JSON], required: tuple[str, ...]) -> Callable[[EightGates, int], JSON]:
    def schema(state: EightGates, seat: int) -> JSON:
        low_x, high_x, low_y, high_y = grid.bounds(state.middle, margin)
        cell = {"x": integer(low_x, high_x, "x (column)"), "y": integer(low_y, high_y, "y (row)")}
        return obj({**cell, **extra}, ("x", "y", *required))

    return schema


def _amount_args(key: str, most: int) -> Callable[[EightGates, int], JSON]:
    return lambda state, seat: obj({"player": _player_arg(state), key: integer(1, most, key)}, (key,))


def _reveal_args(state: EightGates, seat: int) -> JSON:
    """Up to a whole deck of values: more than the hand holds is refused by reveal(), in a sentence; raises nothing."""
    return obj({"values": array(integer(1, 6), 0, DECK, "the revealed Run or Set", "공개한 런 또는 세트")}, ("values",))


def _hand_args(state: EightGates, seat: int) -> JSON:
    """Up to a whole deck of values: more than the hand holds is refused by _enter_hand, in a sentence; raises nothing."""
    return obj({"hand": array(integer(1, 6), 1, DECK, "the values in your hand (all of them, or those to choose from)",
                             "손패의 값 (전부, 또는 고를 카드)")}, ("hand",))


_SETUP_ARCHIVIST = _in_phase(ARCHIVIST, words.ARCHIVIST_CHOSEN)
_SETUP_MIDDLE = _in_phase(OPENING, words.MIDDLE_ONCE)
_ABILITY = first_reason(your_turn, _gate_played)


def _points_now(state: EightGates, seat: int) -> str | None:
    """Points from a Gate's text: on the turn it was played, or during the reveal (the last turn was
    ended before they were entered, and end_turn cannot be taken back); raises nothing."""
    return None if state.phase == REVEAL else _ABILITY(state, seat)


def _cards_now(state: EightGates, seat: int) -> str | None:
    """Cards drawn or discarded by a Gate's text: on the turn it was played, or during the reveal by a player still
    to reveal (the last turn was ended before they were entered, and the reveal takes no more than the hand holds);
    raises nothing."""
    return _still_to_reveal(state, seat) if state.phase == REVEAL else _ABILITY(state, seat)


MOVES: tuple[MoveRule[EightGates], ...] = (
    MoveRule("deal", "Dealt for the Archivist", _deal, _SETUP_ARCHIVIST, _deal_args),
    MoveRule("choose_archivist", "The table chooses the Archivist", _choose, _SETUP_ARCHIVIST,
             lambda state, seat: obj({"seat": _player_arg(state)}, ("seat",)), weight=0.3),
    MoveRule("starting_gates", "Starting Gates", _open, _SETUP_MIDDLE, _gates_args),
    MoveRule("place_gate", "Play a Gate", _place, first_reason(your_turn, _may_place),
             _cell_args(1, {"value": integer(1, 6, VALUE_TITLE), "type": text(24, "type")}, ("value",)), weight=6.0),
    MoveRule("flip_reference", "Flip the reference card (second Gate)", _flip, first_reason(your_turn, _may_flip), weight=0.3),
    MoveRule("destroy_gate", "Destroy a Gate (→ Ruins)", _destroy, first_reason(_ABILITY, _something_to_destroy),
             _cell_args(0, {}, ()), weight=0.2),
    MoveRule("gain_points", "Gain points", _points(1), _points_now, _amount_args("points", 99), weight=0.2),
    MoveRule("lose_points", "Lose points", _points(-1), _points_now, _amount_args("points", 99), weight=0.1),
    MoveRule("draw_cards", "Draw cards", _draw, _cards_now, _amount_args("cards", 10), weight=0.2),
    MoveRule("discard_cards", "Discard under the deck", _discard, _cards_now, _amount_args("cards", 10), weight=0.1),
    MoveRule("end_turn", "End turn", _end_turn, first_reason(your_turn, _may_end), undoable=False, weight=3.0),
    MoveRule("reveal", "Reveal a Run or Set", _reveal, _still_to_reveal, _reveal_args),
    MoveRule("enter_hand", "Enter my hand (propose the best)", _enter_hand, first_reason(_still_to_reveal, hands.to_enter),
             _hand_args, weight=0.5),
    MoveRule("accept_proposal", "Reveal the proposed Run or Set", _accept, first_reason(_still_to_reveal, _has_proposal), weight=2.0),
)
