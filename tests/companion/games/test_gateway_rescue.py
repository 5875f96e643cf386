"""Gateway (rescue the creatures): the roll-off, the D8 table, worlds, the portal and the end."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.games.gateway_rescue import GAME
from companion.games.gateway_rescue.rescue import ALONE, ESCAPED, PUSHED_BACK, RESCUED, result_of
from companion.games.gateway_rescue.state import CREATURES, HOME
from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.rules import engine
from companion.rules.errors import BadInput, CompanionError, GameOver, IllegalMove, NothingToUndo, NotYourTurn, WrongDice
from companion.rules.table import Table


def start(*players: str, **options: Any) -> Table:
    """A new game of Gateway."""
    return engine.start(GAME, StartGame(GAME.id, players, options, seed=7))


def play(table: Table, *inputs: Input) -> Table:
    """The table after the inputs, each accepted."""
    for given in inputs:
        table = engine.apply(table, GAME, given)
    return table


def refused(table: Table, given: Input, error: type[CompanionError] = IllegalMove) -> str:
    """The refusal's sentence, after checking the table did not change."""
    before = copy.deepcopy(table)
    with pytest.raises(error) as caught:
        engine.apply(table, GAME, given)
    assert table == before
    assert caught.value.message.strip()
    return caught.value.message


def d6(value: int, origin: str = "camera") -> DiceRolled:
    """One D6 landing."""
    return DiceRolled((value,), (6,), (origin,))


def rescue_roll(d8: int, steps: int, d8_origin: str = "phone", d6_origin: str = "camera") -> DiceRolled:
    """The rescue's D8 and D6, landing together."""
    return DiceRolled((d8, steps), (8, 6), (d8_origin, d6_origin))


def two_players() -> Table:
    """Ana and Ben; Ana rolled lower and plays first."""
    return play(start("Ana", "Ben"), d6(2), d6(5))


def moves_of(table: Table, seat: int) -> set[str]:
    """The names of the moves a seat may make now (the correction of a world, open at any time, left out)."""
    return {entry["move"] for entry in engine.legal_moves(table, GAME)
            if entry["seat"] == seat and entry["move"] != "set_world"}


def correct(seat: int, player: int, world: str) -> Move:
    """A seat's correction of where a player is."""
    return Move(seat, "set_world", {"player": player, "world": world})


# --- first player ------------------------------------------------------------------------------
def test_the_lowest_d6_goes_first() -> None:
    table = start("Ana", "Ben", "Cy")
    assert GAME.awaiting_dice(table.state).seats == (0,)
    table = play(table, d6(4), d6(1), d6(6))
    assert table.state.current == 1 and table.state.phase == "playing"
    assert "Ben rolled lowest and goes first." in table.state.log


def test_the_tied_lowest_roll_again_and_only_they() -> None:
    table = play(start("Ana", "Ben", "Cy", "Di"), d6(2), d6(5), d6(2), d6(2))
    assert table.state.contenders == (0, 2, 3) and table.state.first_rolls == ()
    assert GAME.whose_turn(table.state) == (0,)
    table = play(table, d6(3), d6(3), d6(4))
    assert table.state.contenders == (0, 2)
    assert GAME.awaiting_dice(table.state).seats == (0,)
    table = play(table, d6(6), d6(1))
    assert table.state.phase == "playing" and table.state.current == 2
    assert any("tied lowest on 2" in line for line in table.state.log)


def test_the_roll_off_log_says_where_each_die_came_from() -> None:
    table = play(start("Ana", "Ben"), d6(3, "button"), d6(4, "phone"))
    assert "Ana rolled 3 (button) for first player." in table.state.log
    assert "Ben rolled 4 (phone) for first player." in table.state.log


def test_one_player_starts_at_once() -> None:
    table = start("Solo")
    assert table.state.phase == "playing" and GAME.awaiting_dice(table.state) is None
    assert moves_of(table, 0) == {"move", "rescue"}


def test_no_move_before_the_first_player_is_known() -> None:
    table = start("Ana", "Ben")
    refused(table, Move(0, "move", {}))


# --- the D8 table ------------------------------------------------------------------------------
@pytest.mark.parametrize(("d8", "result"), [(1, RESCUED), (2, PUSHED_BACK), (3, ESCAPED), (4, ALONE),
                                              (5, RESCUED), (6, PUSHED_BACK), (7, ESCAPED), (8, ALONE)])
def test_the_d8_decides_the_rescue(d8: int, result: str) -> None:
    assert result_of(d8) == result
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(d8, 3))
    ana = table.state.rescuers[0]
    last = table.state.last_roll
    assert (last.d8, last.d6, last.result) == (d8, 3, result)
    assert ana.world == (CREATURES if result in (RESCUED, ALONE) else HOME)
    assert ana.rescues == (1 if result == RESCUED else 0)
    assert table.state.creatures_left == (5 if result == RESCUED else 6)
    line = next(line for line in table.state.log if "tries a rescue" in line)
    assert f"D8 {d8} (phone), D6 3 (camera)" in line
    if result in (PUSHED_BACK, ESCAPED):
        assert "3 steps" in line
        assert GAME.view(table.state, 0)["last_roll"]["steps"] == 3
    else:
        assert GAME.view(table.state, 0)["last_roll"]["steps"] is None
    assert table.state.current == 1, "a rescue attempt is the whole turn"


def test_the_d8_table_refuses_a_number_it_does_not_have() -> None:
    with pytest.raises(KeyError):
        result_of(9)


def test_the_rescue_takes_the_d8_and_the_d6_in_either_order() -> None:
    table = play(two_players(), Move(0, "rescue", {}))
    assert GAME.awaiting_dice(table.state).sides == (8, 6)
    table = play(table, DiceRolled((2, 5), (6, 8), ("camera", "phone")))
    assert (table.state.last_roll.d8, table.state.last_roll.d6) == (5, 2)
    assert any("D8 5 (phone), D6 2 (camera)" in line for line in table.state.log)


def test_a_corrected_rescue_roll_still_says_where_each_value_came_from() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(5, 4))
    table = play(table, CorrectDice((1, 4), (8, 6)))
    assert any("D8 1 (corrected), D6 4 (camera)" in line for line in table.state.log)
    assert (table.state.last_roll.d8_origin, table.state.last_roll.d6_origin) == ("corrected", "camera")


def test_the_rescue_needs_both_dice() -> None:
    table = play(two_players(), Move(0, "rescue", {}))
    refused(table, d6(4), WrongDice)


def test_an_unknown_origin_is_left_out_of_the_log() -> None:
    table = play(two_players(), Move(0, "rescue", {}), DiceRolled((6, 4), (8, 6)))
    assert any("D8 6, D6 4 — the creature is afraid and pushes Ana back 4 steps." in line for line in table.state.log)


# --- moving, worlds and the portal -------------------------------------------------------------
def test_a_move_states_the_d6_allowance_and_allows_an_immediate_rescue() -> None:
    table = play(two_players(), Move(0, "move", {}))
    assert GAME.awaiting_dice(table.state).sides == (6,)
    assert moves_of(table, 0) == set()
    table = play(table, d6(4))
    assert table.state.allowance == 4 and GAME.view(table.state, None)["allowance"] == 4
    assert any("move up to 4 steps" in line for line in table.state.log)
    assert moves_of(table, 0) == {"rescue", "end_turn"}
    table = play(table, Move(0, "rescue", {}), rescue_roll(1, 2))
    assert table.state.rescuers[0].rescues == 1 and table.state.current == 1


def test_a_rescue_from_the_creatures_world_is_refused() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(4, 1))
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    assert table.state.rescuers[0].world == CREATURES and table.state.current == 0
    message = refused(table, Move(0, "rescue", {}))
    assert "creatures' world" in message and "portal" in message
    table = play(table, Move(0, "move", {}), d6(5))
    assert "rescue" not in moves_of(table, 0)
    refused(table, Move(0, "rescue", {}))


def test_through_the_portal_puts_the_player_home_in_the_centre_until_their_next_turn() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(5, 1))
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    refused(table, Move(0, "through_portal", {}))
    table = play(table, Move(0, "move", {}), d6(6), Move(0, "through_portal", {}))
    ana = table.state.rescuers[0]
    assert ana.world == HOME and ana.held_at_centre and table.state.current == 1
    table = play(table, Move(1, "move", {}), d6(1), Move(1, "end_turn", {}))
    assert not table.state.rescuers[0].held_at_centre
    assert "rescue" in moves_of(table, 0)


def test_the_portal_is_refused_at_home() -> None:
    table = play(two_players(), Move(0, "move", {}), d6(3))
    assert "is already in the players' world" in refused(table, Move(0, "through_portal", {}))


def test_one_action_a_turn() -> None:
    table = two_players()
    assert "Take your turn's action first" in refused(table, Move(0, "end_turn", {}))
    table = play(table, Move(0, "move", {}))
    assert "Roll the D6" in refused(table, Move(0, "end_turn", {}))
    table = play(table, d6(3))
    assert "already rolled to move" in refused(table, Move(0, "move", {}))


def test_only_the_current_player_acts() -> None:
    table = two_players()
    refused(table, Move(1, "move", {}), NotYourTurn)
    refused(table, Move(1, "rescue", {}), NotYourTurn)


def test_a_move_can_be_taken_back_before_its_roll() -> None:
    table = play(two_players(), Move(0, "rescue", {}), Undo())
    assert GAME.awaiting_dice(table.state) is None and moves_of(table, 0) == {"move", "rescue"}


# --- correcting where a player is ----------------------------------------------------------------
def test_a_mistapped_portal_is_corrected_by_any_seat_and_the_rescue_is_refused_again() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(8, 3))  # Ana goes to the creatures' world alone
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    table = play(table, Move(0, "move", {}), d6(1), Move(0, "through_portal", {}))  # a mis-tap: she is 1 step short
    assert table.state.rescuers[0].world == HOME and table.state.current == 1
    refused(table, Undo(0), NothingToUndo)  # the portal passed the turn
    table = play(table, correct(1, 0, CREATURES))  # Ben, whose turn it is, puts it right
    ana = table.state.rescuers[0]
    assert (ana.world, ana.held_at_centre) == (CREATURES, False) and table.state.current == 1
    assert table.state.log[-1] == "Corrected: Ana is in the creatures' world, not the players' world."
    assert GAME.view(table.state, None)["players"][0]["world"] == CREATURES
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    assert "creatures' world" in refused(table, Move(0, "rescue", {})) and "rescue" not in moves_of(table, 0)
    table = play(table, Move(0, "move", {}), d6(5), Move(0, "through_portal", {}))
    assert table.state.rescuers[0].world == HOME


def test_a_player_corrected_home_may_try_a_rescue() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(4, 3))  # Ana goes to the creatures' world alone
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    table = play(table, Move(0, "move", {}), d6(6), Move(0, "end_turn", {}))  # she went through; End turn was tapped
    table = play(table, correct(0, 0, HOME))  # Ana corrects it on Ben's turn
    assert table.state.log[-1] == "Corrected: Ana is in the players' world, not the creatures' world."
    table = play(table, Move(1, "move", {}), d6(2), Move(1, "end_turn", {}))
    assert "rescue" in moves_of(table, 0)
    table = play(table, Move(0, "rescue", {}), rescue_roll(1, 2))
    assert table.state.rescuers[0].rescues == 1 and table.state.rescuers[0].world == CREATURES


def test_a_correction_is_open_to_every_seat_at_any_time_and_a_mistyped_one_is_undone_in_its_turn() -> None:
    for table in (start("Ana", "Ben"), two_players(), play(two_players(), Move(0, "rescue", {}))):
        assert {entry["seat"] for entry in engine.legal_moves(table, GAME) if entry["move"] == "set_world"} == {0, 1}
    table = two_players()
    undone = play(table, correct(0, 1, CREATURES), Undo(0))
    assert undone.state.rescuers == table.state.rescuers and undone.state.log[-1] == "Last move taken back."


def test_a_correction_that_changes_nothing_is_refused_in_words() -> None:
    table = two_players()
    assert refused(table, correct(1, 0, HOME)) == "Ana is already in the players' world: there is nothing to correct."
    refused(table, correct(1, 0, "the moon"), BadInput)
    refused(table, correct(1, 2, CREATURES), BadInput)
    over = play(start("Ana", "Ben", creatures=1), d6(1), d6(2), Move(0, "rescue", {}), rescue_roll(1, 1))
    refused(over, correct(1, 0, HOME), GameOver)


# --- the end -----------------------------------------------------------------------------------
def test_the_game_ends_when_the_last_creature_is_rescued_and_the_tied_leaders_win() -> None:
    table = start("Ana", "Ben", creatures=2)
    table = play(table, d6(1), d6(2), Move(0, "rescue", {}), rescue_roll(1, 1))
    assert GAME.outcome(table.state) is None and table.state.creatures_left == 1
    table = play(table, Move(1, "rescue", {}), rescue_roll(5, 6))
    result = GAME.outcome(table.state)
    assert result is not None and result.winners == (0, 1)
    assert result.summary == "Ana and Ben win with 1 rescue."
    assert result.detail["summary_ko"] == "Ana, Ben 공동 승리: 구출 1번."
    assert engine.legal_moves(table, GAME) == [] and GAME.awaiting_dice(table.state) is None


def test_the_one_with_most_rescues_wins() -> None:
    table = play(start("Ana", "Ben", creatures=2), d6(1), d6(2))
    table = play(table, Move(0, "rescue", {}), rescue_roll(1, 1), Move(1, "rescue", {}), rescue_roll(2, 3))
    table = play(table, Move(0, "move", {}), d6(6), Move(0, "through_portal", {}))
    table = play(table, Move(1, "move", {}), d6(1), Move(1, "end_turn", {}))
    table = play(table, Move(0, "rescue", {}), rescue_roll(5, 2))
    result = GAME.outcome(table.state)
    assert result is not None and result.winners == (0,) and result.detail == {"rescues": [2, 0], "summary_ko": "Ana 승리: 구출 2번."}


def test_the_view_shows_worlds_rescues_creatures_and_the_last_roll() -> None:
    table = play(two_players(), Move(0, "rescue", {}), rescue_roll(3, 4))
    shown = GAME.view(table.state, 1)
    assert shown["creatures_left"] == 6 and shown["creatures_total"] == 6
    assert [(each["name"], each["world"], each["rescues"]) for each in shown["players"]] == [("Ana", HOME, 0), ("Ben", HOME, 0)]
    assert shown["last_roll"] == {"kind": "rescue", "player": 0, "d6": 4, "d6_origin": "camera", "d8": 3,
                                  "d8_origin": "phone", "result": ESCAPED,
                                  "result_text": "The creature is afraid and escapes D6 steps away from the player.",
                                  "steps": 4}
    assert len(shown["rescue_table"]) == 4 and shown["current"] == 1
