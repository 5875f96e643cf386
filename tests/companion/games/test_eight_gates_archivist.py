"""8 Gates through the pure engine: choosing the Archivist, the Archivist's count, the end reveal and the winner."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.eight_gates import GAME, scoring, whose_turn
from companion.games.eight_gates.state import ARCHIVIST, OPENING, OVER, PLAYING, REVEAL
from companion.games.eight_gates.turns import add_points
from companion.rules.inputs import Undo
from companion.rules import engine
from companion.rules.errors import BadInput, NotYourTurn
from companion.rules.table import Table

from eight_gates_table import act, opened, play_turn, refused, start, to_reveal


# --- choosing the Archivist ------------------------------------------------------------------


def test_the_highest_dealt_card_names_the_archivist_who_starts_with_one_card() -> None:
    table = act(start(4), 0, "deal", values=[3, 6, 2, 5])
    state = table.state
    assert state.archivist == 1 and state.phase == OPENING
    assert [player.hand_size for player in state.players] == [2, 1, 2, 2]
    assert whose_turn(state) == (1,)


def test_a_tie_for_highest_is_dealt_again_among_the_tied_only() -> None:
    table = start(4)
    table = act(table, 0, "deal", values=[6, 2, 6, 6])
    assert table.state.phase == ARCHIVIST and table.state.contenders == (0, 2, 3)
    assert whose_turn(table.state) == (0, 2, 3)
    assert GAME.move("deal").schema(table.state, 0)["properties"]["values"]["minItems"] == 3
    refused(table, 0, "deal", BadInput, values=[6, 2, 6, 6])
    table = act(table, 0, "deal", values=[4, 4, 1])
    assert table.state.contenders == (0, 2)
    table = act(table, 0, "deal", values=[2, 5])
    assert table.state.archivist == 2
    draw = GAME.view(table.state, None)["archivist_draw"]
    assert [deal["contenders"] for deal in draw["deals"]] == [[0, 1, 2, 3], [0, 2, 3], [0, 2]]


def test_the_table_may_choose_the_archivist_instead() -> None:
    table = act(start(3), 2, "choose_archivist", seat=1)
    assert table.state.archivist == 1
    assert "already been chosen" in refused(table, 0, "choose_archivist", seat=2)
    assert "already been chosen" in refused(table, 0, "deal", values=[1, 2, 3])


def test_the_starting_gates_are_entered_once_then_play_starts_left_of_the_archivist() -> None:
    table = act(start(3), 0, "choose_archivist", seat=2)
    assert "after the Archivist" in refused(start(3), 0, "starting_gates", values=[1, 2, 3])
    refused(table, 2, "starting_gates", BadInput, values=[1, 2, 7])
    refused(table, 2, "starting_gates", BadInput, values=[1, 2])
    table = act(table, 2, "starting_gates", values=[1, 2, 3], types=["Dimensional Lens", "Gate A", "Gate B"])
    assert table.state.phase == PLAYING and table.state.current == 0
    assert table.state.middle[0].type == "Dimensional Lens"
    assert "placed once" in refused(table, 2, "starting_gates", values=[1, 2, 3])


# --- the Archivist's count -------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(3, 5), (4, 4)])
def test_the_game_ends_exactly_after_the_archivists_last_turn(players: int, rounds: int) -> None:
    archivist = 1
    table = opened(players, archivist=archivist)
    order = []
    for _ in range(players * rounds - 1):
        order.append(table.state.current)
        table = play_turn(table)
        assert table.state.phase == PLAYING
    assert table.state.current == archivist and table.state.face_down == rounds - 1
    assert GAME.view(table.state, None)["round_text"] == f"Round {rounds} of {rounds}"
    table = play_turn(table)
    assert table.state.phase == REVEAL and table.state.face_down == rounds
    first_round = [(archivist + 1 + step) % players for step in range(players)]
    assert order[:players] == first_round and first_round[-1] == archivist
    assert order.count(archivist) == rounds - 1
    assert whose_turn(table.state) == tuple(range(players))
    assert "during a player's turn" in refused(table, archivist, "place_gate", x=0, y=1, value=1)


def test_the_view_counts_rounds_and_warns_before_the_last() -> None:
    table = opened(4, archivist=3)
    seen = {}
    while table.state.phase == PLAYING:
        shown = GAME.view(table.state, None)
        seen[shown["round"]] = shown["warning"]
        assert shown["current"] == table.state.current and whose_turn(table.state) == (table.state.current,)
        table = play_turn(table)
    assert seen[1] is None and seen[2] is None
    assert "next round is the last" in seen[3]
    assert "Last round" in seen[4] and "Di" in seen[4]


def test_the_scoresheet_lists_points_by_round_and_the_series_by_turn() -> None:
    table = opened(3, archivist=2, gates=(6, 1, 1))
    table = act(table, 0, "place_gate", x=0, y=1, value=6)
    table = act(table, 0, "end_turn")
    table = play_turn(table, value=2)
    table = play_turn(table, value=3)
    table = act(table, 0, "place_gate", x=1, y=1, value=6)
    shown = GAME.view(table.state, None)
    assert shown["scoresheet"]["rows"][0]["by_round"] == [2, 3, 0, 0, 0]
    assert shown["series"]["labels"] == ["start", "1", "2", "3", "4"]
    assert shown["series"]["players"][0] == [0, 2, 2, 2, 5]


# --- the end reveal and the winner -----------------------------------------------------------


def test_a_revealed_run_or_set_scores_four_per_card_and_anything_else_is_refused() -> None:
    table = to_reveal(3)
    assert "neither a Run" in refused(table, 0, "reveal", values=[1, 2, 4])
    assert "neither a Run" in refused(table, 0, "reveal", values=[2, 2, 3])
    assert "neither a Run" in refused(table, 0, "reveal", values=[3, 4, 4, 5])
    before = table.state.points(0)
    table = act(table, 0, "reveal", values=[5, 3, 4])
    assert table.state.points(0) == before + 12
    assert "already revealed" in refused(table, 0, "reveal", values=[1])


def test_a_reveal_of_nothing_is_refused_while_the_hand_holds_a_card() -> None:
    """Rulebook: "When the game ends, each player reveals a **Run** or **Set** of cards from their hand to gain
    Points." """
    table = to_reveal(3)
    held = table.state.players[0].hand_size
    assert held > 0
    assert refused(table, 0, "reveal", values=[]) == (
        f"Ann holds {held} cards: reveal a Run or Set from them (one card is a Set of one).")
    emptied = act(table, 2, "discard_cards", player=0, cards=held)  # a hand with nothing left reveals nothing
    assert act(emptied, 0, "reveal", values=[]).state.players[0].revealed == ()


def test_the_reveal_takes_no_more_cards_than_the_hand_holds_and_says_how_to_put_the_count_right() -> None:
    table = to_reveal(3)
    held = table.state.players[0].hand_size
    fix = "If a Gate's text made Ann draw and it was not entered, enter Draw cards for Ann first, then"
    message = refused(table, 0, "reveal", values=[1] * (held + 1))
    assert message == f"The companion counts {held} cards in Ann's hand, not {held + 1}. {fix} reveal again."
    message = refused(table, 0, "enter_hand", hand=[1] * (held + 2))
    assert message == f"The companion counts {held} cards in Ann's hand, not {held + 2}. {fix} enter the hand again."
    assert "args." not in message


def test_a_hand_counted_short_is_put_right_at_the_reveal_and_the_whole_set_revealed() -> None:
    at_reveal = to_reveal(3)  # the Archivist ended the last turn before entering a Gate's "draw 2"
    held, before = at_reveal.state.players[0].hand_size, at_reveal.state.points(0)
    table = act(at_reveal, 0, "draw_cards", cards=2)
    assert table.state.players[0].hand_size == held + 2 and table.state.phase == REVEAL
    assert table.state.log[-1] == f"Ann draws 2 cards ({held + 2} in hand)."
    assert engine.apply(table, GAME, Undo(seat=0)).state.players == at_reveal.state.players  # a mis-tap is undone
    table = act(table, 0, "enter_hand", hand=[4] * (held + 1) + [1])
    assert table.state.players[0].proposal == (4,) * (held + 1)
    table = act(table, 0, "accept_proposal")
    assert table.state.players[0].revealed == (4,) * (held + 1) and table.state.points(0) == before + 4 * (held + 1)


def test_a_hand_counted_long_is_put_right_at_the_reveal_and_the_reveal_follows_it() -> None:
    table = to_reveal(3)
    held = table.state.players[1].hand_size
    table = act(table, 1, "enter_hand", hand=[2] * held)
    table = act(table, 2, "discard_cards", player=1, cards=2)  # a Gate's "Bo discards 2", entered by Cy
    assert table.state.players[1].hand_size == held - 2 and table.state.players[1].proposal is None  # from 2 cards more
    assert "Enter your whole hand first" in refused(table, 1, "accept_proposal")
    assert f"counts {held - 2} cards in Bo's hand, not {held}" in refused(table, 1, "reveal", values=[2] * held)
    assert f"has only {held - 2} cards" in refused(table, 1, "discard_cards", cards=held)


def test_a_revealed_hand_is_no_longer_drawn_to_or_discarded_from() -> None:
    table = act(to_reveal(3), 1, "reveal", values=[3])
    assert refused(table, 1, "draw_cards", NotYourTurn, cards=1) == "Bo has already revealed."
    assert refused(table, 0, "draw_cards", player=1, cards=1) == "Bo has already revealed: that hand no longer counts."
    assert refused(table, 2, "discard_cards", player=1, cards=1) == "Bo has already revealed: that hand no longer counts."


@pytest.mark.parametrize(("hand", "best"), [
    ((2, 2, 2, 2, 3, 4), (2, 2, 2, 2)),
    ((1, 2, 3, 3, 5), (1, 2, 3)),
    ((6, 4, 5, 1, 3, 2), (1, 2, 3, 4, 5, 6)),
    ((1, 1, 4, 5), (1, 1)),
    ((5,), (5,)),
])
def test_the_best_single_run_or_set_is_proposed(hand: tuple[int, ...], best: tuple[int, ...]) -> None:
    assert scoring.best_reveal(hand) == best


def test_accepting_needs_a_proposal_and_the_last_reveal_ends_the_game() -> None:
    table = to_reveal(3)
    assert "Enter your whole hand" in refused(table, 0, "accept_proposal")
    table = act(table, 0, "reveal", values=[2])
    table = act(table, 1, "reveal", values=[4])
    assert GAME.outcome(table.state) is None
    table = act(table, 2, "enter_hand", hand=[1, 2, 3])
    table = act(table, 2, "accept_proposal")
    assert table.state.phase == OVER
    result = GAME.view(table.state, None)["result"]
    assert result["winners"] == list(GAME.outcome(table.state).winners)
    assert result["series"]["labels"][-1] == "end"


def evened(table: Table, points: int) -> Table:
    """The table with every player at the same points."""
    state = table.state
    for seat in range(len(state.players)):
        state = add_points(state, seat, points - state.points(seat), "even out")
    return replace(table, state=state)


def test_a_tie_goes_to_the_most_revealed_cards_and_then_is_shared() -> None:
    table = evened(to_reveal(4), 20)
    table = act(table, 0, "reveal", values=[3, 3])
    table = act(table, 1, "reveal", values=[1, 2])
    table = act(table, 2, "reveal", values=[5])
    table = act(table, 3, "reveal", values=[1])
    outcome = GAME.outcome(table.state)
    assert outcome.winners == (0, 1)
    assert "share the win with 28 points" in outcome.summary
    assert outcome.detail["summary_ko"].endswith("공동 승리: 28점 (각자 공개한 카드 2장).")
    assert "동점" in outcome.detail["tie_rule_ko"]


def test_more_revealed_cards_break_a_tie_in_points() -> None:
    rows = (scoring.Standing(0, 30, 2), scoring.Standing(1, 30, 3), scoring.Standing(2, 12, 3))
    assert scoring.winners(rows) == (1,)


def test_a_tie_broken_by_the_reveal_says_so() -> None:
    table = evened(to_reveal(3), 10)
    table = act(table, 0, "reveal", values=[4, 5, 6])
    table = act(table, 1, "reveal", values=[2, 2])
    table = act(table, 2, "reveal", values=[1, 1, 1])
    outcome = GAME.outcome(table.state)
    assert outcome.winners == (0, 2)
    table = to_reveal(3)
    state = table.state
    for seat, points in enumerate((18, 14, 14)):
        state = add_points(state, seat, points - state.points(seat), "set up a tie")
    table = act(replace(table, state=state), 0, "reveal", values=[4, 5])
    table = act(table, 1, "reveal", values=[3, 3, 3])
    table = act(table, 2, "reveal", values=[6])
    outcome = GAME.outcome(table.state)
    assert outcome.winners == (1,) and outcome.summary == "Bo wins with 26 points, the tie broken by 3 cards revealed."
    assert outcome.detail["summary_ko"] == "Bo 승리: 26점, 공개한 카드 3장으로 동점을 깼습니다."


def test_a_wrongly_named_archivist_can_be_undone_until_play_starts() -> None:
    table = act(start(3), 0, "deal", values=[1, 6, 2])
    back = engine.apply(table, GAME, Undo())
    assert back.state.archivist is None and back.state.phase == ARCHIVIST
    played = act(table, 1, "starting_gates", values=[1, 2, 3])
    assert not engine.can_undo(played, GAME)


def test_points_from_the_last_gates_text_can_still_be_entered_during_the_reveal() -> None:
    table = to_reveal(3)  # the Archivist ended the last turn before entering the Gate's +3
    before = table.state.points(0)
    table = act(table, 1, "gain_points", player=0, points=3)
    assert table.state.points(0) == before + 3 and table.state.phase == REVEAL
    assert refused(table, 1, "destroy_gate", x=0, y=0) == "That can only be done during a player's turn."  # points only
