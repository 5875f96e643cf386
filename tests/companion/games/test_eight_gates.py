"""8 Gates through the pure engine: the rulebook's examples, the grid and the turns."""
from __future__ import annotations

from companion.games.eight_gates import GAME, grid, scoring
from companion.rules.inputs import Undo
from companion.rules import engine
from companion.rules.errors import BadInput, NotYourTurn

from eight_gates_table import act, first_cell, opened, play_turn, refused, to_reveal


# --- the rulebook's two worked examples -------------------------------------------------------


def test_a_two_next_to_a_two_with_three_twos_in_play_scores_three() -> None:
    table = opened(gates=(2, 5, 2))
    seat = table.state.current
    table = act(table, seat, "place_gate", x=0, y=1, value=2)
    assert table.state.points(seat) == 3
    assert "+3 points" in table.state.log[-1]


def test_jimmy_reveals_his_set_of_four_twos_for_sixteen() -> None:
    assert scoring.best_reveal((2, 2, 2, 2, 3, 4)) == (2, 2, 2, 2)
    table = to_reveal(3)
    jimmy = 1
    table = act(table, jimmy, "enter_hand", hand=[2, 2, 2, 2, 3, 4])
    assert GAME.view(table.state, jimmy)["players"][jimmy]["proposal"] == [2, 2, 2, 2]
    before = table.state.points(jimmy)
    table = act(table, jimmy, "accept_proposal")
    assert table.state.points(jimmy) == before + 16
    assert table.state.players[jimmy].revealed == (2, 2, 2, 2)


# --- the middle ------------------------------------------------------------------------------


def test_the_starting_gates_lie_in_a_row_and_the_legal_cells_surround_them() -> None:
    table = opened(gates=(4, 1, 6))
    cells = GAME.view(table.state, None)["middle"]
    assert cells == [{"x": column, "y": 0, "value": value, "type": None, "ruins": False}
                     for column, value in enumerate((4, 1, 6))]
    legal = {(cell["x"], cell["y"]) for cell in GAME.view(table.state, None)["legal_cells"]}
    assert legal == {(-1, 0), (3, 0), (0, -1), (1, -1), (2, -1), (0, 1), (1, 1), (2, 1)}


def test_no_gate_of_the_same_value_next_to_it_scores_nothing() -> None:
    table = opened(gates=(2, 5, 2))
    seat = table.state.current
    table = act(table, seat, "place_gate", x=1, y=1, value=2)
    assert table.state.points(seat) == 0


def test_an_occupied_cell_is_refused() -> None:
    table = opened()
    message = refused(table, table.state.current, "place_gate", x=1, y=0, value=3)
    assert "already holds a 3" in message


def test_a_cell_touching_only_a_corner_is_refused() -> None:
    table = opened()
    message = refused(table, table.state.current, "place_gate", x=-1, y=1, value=3)
    assert "corner" in message


def test_a_cell_far_away_is_refused() -> None:
    table = opened()
    seat = table.state.current
    table = act(table, seat, "place_gate", x=0, y=1, value=3)
    table = act(table, seat, "end_turn")
    far = refused(table, table.state.current, "place_gate", x=3, y=2, value=3)
    assert "not next to any Gate" in far
    outside = refused(table, table.state.current, "place_gate", BadInput, x=30, y=0, value=3)
    assert "from -1 to 3" in outside


def test_ruins_count_as_gates_for_adjacency_but_have_no_value() -> None:
    table = opened(gates=(2, 5, 2))
    seat = table.state.current
    table = act(table, seat, "place_gate", x=-1, y=0, value=4)
    table = act(table, seat, "destroy_gate", x=2, y=0)
    assert grid.gate_at(table.state.middle, 2, 0).ruins
    table = act(table, seat, "end_turn")
    seat = table.state.current
    table = act(table, seat, "place_gate", x=3, y=0, value=2)
    assert table.state.points(seat) == 0
    assert GAME.view(table.state, None)["middle"][2] == {"x": 2, "y": 0, "value": None, "type": None, "ruins": True}


def test_destroying_ruins_or_an_empty_cell_is_refused() -> None:
    table = opened()
    seat = table.state.current
    table = act(table, seat, "place_gate", x=0, y=1, value=6, type="Dimensional Lens")
    assert refused(table, seat, "destroy_gate", x=1, y=1) == "There is no Gate on (1, 1) to destroy."
    table = act(table, seat, "destroy_gate", x=0, y=1)
    assert "already Ruins" in refused(table, seat, "destroy_gate", x=0, y=1)


def test_the_place_gate_schema_spans_the_middle_and_one_cell_beyond() -> None:
    table = opened()
    schema = GAME.move("place_gate").schema(table.state, table.state.current)
    assert schema["properties"]["x"] == {"type": "integer", "minimum": -1, "maximum": 3, "title": "x (column)"}
    assert schema["properties"]["y"]["minimum"] == -1 and schema["properties"]["y"]["maximum"] == 1
    assert schema["properties"]["value"]["minimum"] == 1 and schema["properties"]["value"]["maximum"] == 6
    assert schema["required"] == ["x", "y", "value"]


# --- turns -----------------------------------------------------------------------------------


def test_a_turn_draws_two_and_a_play_uses_one() -> None:
    table = opened(players=4, archivist=2)
    assert table.state.current == 3
    assert [player.hand_size for player in table.state.players] == [2, 2, 1, 4]
    table = act(table, 3, "place_gate", x=0, y=1, value=6)
    assert table.state.players[3].hand_size == 3


def test_only_the_current_player_plays_and_only_one_gate_without_a_flip() -> None:
    table = opened()
    seat = table.state.current
    refused(table, (seat + 1) % 3, "place_gate", NotYourTurn, x=0, y=1, value=6)
    table = act(table, seat, "place_gate", x=0, y=1, value=6)
    assert "flip" in refused(table, seat, "place_gate", x=1, y=1, value=6)


def test_the_turn_ends_only_after_a_gate_is_played() -> None:
    table = opened()
    assert "must play a Gate" in refused(table, table.state.current, "end_turn")


def test_the_flip_plays_a_second_gate_once_per_game() -> None:
    table = opened()
    seat = table.state.current
    assert "after playing your first Gate" in refused(table, seat, "flip_reference")
    table = act(table, seat, "place_gate", x=0, y=1, value=6)
    table = act(table, seat, "flip_reference")
    assert "second Gate" in refused(table, seat, "end_turn")
    table = act(table, seat, "place_gate", x=1, y=1, value=6)
    assert table.state.points(seat) == 2
    assert "already flipped" in refused(table, seat, "flip_reference")
    table = act(table, seat, "end_turn")
    for _ in range(2):
        table = play_turn(table)
    assert table.state.current == seat
    table = act(table, seat, "place_gate", **first_cell(table), value=5)
    assert "already flipped" in refused(table, seat, "flip_reference")
    assert GAME.view(table.state, None)["players"][seat]["flipped"] is True


def test_a_play_with_an_empty_hand_is_refused() -> None:
    table = opened()
    seat = table.state.current
    table = act(table, seat, "place_gate", x=0, y=1, value=6)
    table = act(table, seat, "flip_reference")
    table = act(table, seat, "discard_cards", cards=table.state.players[seat].hand_size)
    assert "no cards in hand" in refused(table, seat, "place_gate", x=1, y=1, value=6)
    assert GAME.view(table.state, None)["legal_cells"] == []
    table = act(table, seat, "end_turn")
    assert table.state.current != seat


def test_ability_effects_change_points_and_hands() -> None:
    table = opened()
    seat = table.state.current
    assert "Play a Gate first" in refused(table, seat, "gain_points", points=2)
    table = act(table, seat, "place_gate", x=0, y=1, value=6)
    table = act(table, seat, "gain_points", points=5)
    table = act(table, seat, "lose_points", player=2, points=2)
    table = act(table, seat, "draw_cards", player=2, cards=3)
    assert table.state.points(seat) == 5 and table.state.points(2) == -2
    assert table.state.players[2].hand_size == 5
    assert "only 5 cards" in refused(table, seat, "discard_cards", player=2, cards=6)
    table = act(table, seat, "discard_cards", player=2, cards=4)
    assert table.state.players[2].hand_size == 1


def test_a_move_of_the_turn_can_be_undone() -> None:
    table = opened()
    seat = table.state.current
    placed = act(table, seat, "place_gate", x=0, y=1, value=6)
    back = engine.apply(placed, GAME, Undo())
    assert back.state.middle == table.state.middle
    assert back.state.players == table.state.players
