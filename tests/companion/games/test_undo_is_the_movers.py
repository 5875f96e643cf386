"""UNDO takes back only a move of the turn made by the seat that asks (the host and the button: the last
one); a move made out of turn, like a roll, is a fact: nothing before it can be taken back over it."""
from __future__ import annotations

from typing import Any

import pytest

from companion.games.eight_gates import GAME as EIGHT
from companion.games.eight_gates import grid
from companion.games.eight_gates.state import PLAYING
from companion.games.the_gate import GAME as GATE
from companion.games.through_the_gate import GAME as TTG
from companion.games.through_the_gate.state import Tallies
from companion.rules.inputs import DiceRolled, Move, StartGame, Undo
from companion.rules import engine
from companion.rules.errors import IllegalMove, NothingToUndo, NotYourTurn
from companion.rules.game import Game
from companion.rules.table import Table
from wall_game import wall_game


def play(table: Table, game: Game[Any], *inputs: Any) -> Table:
    for given in inputs:
        table = engine.apply(table, game, given)
    return table


def eight_gates_at_the_reveal(seed: int) -> Table:
    """8 Gates for Ann, Bo and Cy, every turn played (a 6 on the first legal cell), at the reveal."""
    table = engine.start(EIGHT, StartGame(EIGHT.id, ("Ann", "Bo", "Cy"), {}, seed))
    table = play(table, EIGHT, Move(0, "choose_archivist", {"seat": 0}), Move(0, "starting_gates", {"values": [1, 3, 5]}))
    while table.state.phase == PLAYING:
        seat = table.state.current
        x, y = grid.legal_cells(table.state.middle)[0]
        table = play(table, EIGHT, Move(seat, "place_gate", {"x": x, "y": y, "value": 6}), Move(seat, "end_turn", {}))
    return table


def test_in_8_gates_a_reveal_is_taken_back_only_by_its_player_or_the_host() -> None:
    table = eight_gates_at_the_reveal(seed=7)
    before = table.state.points(0)
    table = play(table, EIGHT, Move(0, "reveal", {"values": [2, 2, 2, 2]}))
    with pytest.raises(NotYourTurn, match=r"The last move was Ann's: only Ann \(or the host\) can take it back."):
        engine.apply(table, EIGHT, Undo(seat=1))  # Bo has not revealed yet; Ann's points are not his to undo
    assert not engine.can_undo(table, EIGHT, 1) and engine.can_undo(table, EIGHT, 0) and engine.can_undo(table, EIGHT)
    assert engine.apply(table, EIGHT, Undo(seat=0)).state.points(0) == before  # Ann mistyped her Set


def test_in_8_gates_a_mistyped_last_reveal_that_ended_the_game_is_taken_back_by_its_player() -> None:
    table = eight_gates_at_the_reveal(seed=1)
    table = play(table, EIGHT, Move(1, "reveal", {"values": [2, 2]}), Move(0, "reveal", {"values": [3, 4, 5]}))
    ended = play(table, EIGHT, Move(2, "reveal", {"values": [5]}))  # Cy meant 5, 5, 5, 5, 5
    assert EIGHT.outcome(ended.state) is not None and EIGHT.outcome(ended.state).winners == (0,)
    assert engine.can_undo(ended, EIGHT, 2) and engine.can_undo(ended, EIGHT) and not engine.can_undo(ended, EIGHT, 0)
    with pytest.raises(NotYourTurn):
        engine.apply(ended, EIGHT, Undo(seat=0))  # Ann, the winner of the typo, cannot make it stand or fall
    again = engine.apply(ended, EIGHT, Undo(seat=2))
    assert EIGHT.outcome(again.state) is None and again.state.points(2) == table.state.points(2)
    fixed = play(again, EIGHT, Move(2, "reveal", {"values": [5, 5, 5, 5, 5]}))
    assert EIGHT.outcome(fixed.state).winners == (2,)
    assert not engine.can_undo(engine.apply(ended, EIGHT, Undo(seat=2)), EIGHT, 2)  # once: the reveal was her turn's only move


def test_in_the_gate_the_attacker_cannot_take_back_the_defenders_one_shot() -> None:
    table = engine.start(GATE, StartGame(GATE.id, ("Ana", "Ben"), {}, seed=3))
    table = play(table, GATE, Move(0, "choose_first", {"player": 0}), Move(0, "end_turn", {}),
                 Move(1, "reinforce", {"gate": 1, "kind": "one_shot", "amount": 3}),
                 Move(1, "place_guardian", {"gate": 1, "defence": 1}), Move(1, "end_turn", {}),  # a guardian: Ben's step
                 Move(0, "attack", {"gate": 1, "attackers": [{"attack": 4}]}),
                 Move(1, "use_one_shot", {"gate": 1, "amount": 3}))
    for undoer in (0, None):
        with pytest.raises(NothingToUndo):
            engine.apply(table, GATE, Undo(seat=undoer))
    assert table.state.battle.defence_bonus == 3


def test_in_through_the_gate_a_diary_entered_out_of_turn_stands_when_the_turn_is_undone() -> None:
    table = engine.start(TTG, StartGame(TTG.id, ("Ann", "Bob", "Cy"), {}, 1))
    table = play(table, TTG, *(DiceRolled((value,), (6,)) for value in (6, 1, 1)),
                 Move(0, "declare_speed", {"speed": 7}), Move(1, "set_tallies", {"strength": 3, "diary": 7}))
    with pytest.raises(NotYourTurn):
        engine.apply(table, TTG, Undo(seat=1))  # Bob's diary is a fact, not a move of this turn to take back
    for undoer in (0, None):  # Ann (or the host) takes back the speed 7 she mistyped; Bob's diary stays
        again = engine.apply(table, TTG, Undo(seat=undoer))
        assert again.state.speed is None and again.state.explorers[1].tallies == Tallies(strength=3, diary=7)
        assert engine.apply(again, TTG, Move(0, "declare_speed", {"speed": 3})).state.speed == 3
        with pytest.raises(NothingToUndo):
            engine.apply(again, TTG, Undo(seat=undoer))


def test_a_move_out_of_turn_kept_through_two_undos_and_replayed_the_same() -> None:
    table = engine.start(TTG, StartGame(TTG.id, ("Ann", "Bob"), {}, 1))
    table = play(table, TTG, *(DiceRolled((value,), (6,)) for value in (6, 1)), Move(0, "declare_speed", {"speed": 5}),
                 Move(1, "set_tallies", {"strength": 2, "diary": 1}), Move(0, "check", {"kind": "six"}),
                 Move(1, "set_tallies", {"strength": 4, "diary": 2}))
    taken = play(table, TTG, Undo(seat=0), Undo(seat=0))  # the check, then the speed
    assert taken.state.speed is None and taken.state.explorers[1].tallies == Tallies(strength=4, diary=2)
    inputs = [StartGame(TTG.id, ("Ann", "Bob"), {}, 1), *(DiceRolled((value,), (6,)) for value in (6, 1)),
              Move(0, "declare_speed", {"speed": 5}), Move(1, "set_tallies", {"strength": 2, "diary": 1}),
              Move(0, "check", {"kind": "six"}), Move(1, "set_tallies", {"strength": 4, "diary": 2}), Undo(0), Undo(0)]
    assert engine.replay(lambda name: TTG, inputs) == taken  # the journal's replay gives the same table


def test_in_the_gate_a_revealed_guardian_and_a_lost_clash_stand() -> None:
    table = engine.start(GATE, StartGame(GATE.id, ("Ana", "Ben"), {}, seed=3))
    table = play(table, GATE, Move(0, "choose_first", {"player": 0}), Move(0, "end_turn", {}),
                 Move(1, "place_guardian", {"gate": 1, "defence": 5}), Move(1, "end_turn", {}),
                 Move(0, "attack", {"gate": 1, "attackers": [{"attack": 3}]}))
    with pytest.raises(NothingToUndo):  # Ana has seen the 5: the attack cannot be taken back to try another gate
        engine.apply(table, GATE, Undo(seat=0))
    table = play(table, GATE, Move(0, "clash", {}))  # 3 against 5 + 2: the defence holds
    with pytest.raises(NothingToUndo):  # nor the lost clash, to add an ability and fight it again
        engine.apply(table, GATE, Undo())
    assert table.state.gate(1, 1).guardian is None and table.state.gate(1, 1).damage == 0


def test_the_gates_undo_refusals_are_the_engines_sentences_which_the_korean_page_words() -> None:
    """The Korean is the page's (box-sentences.js; tests/web/test_browser_failed_requests.py holds it to them)."""
    table = play(engine.start(GATE, StartGame(GATE.id, ("Ana", "Ben"), {}, seed=3)), GATE,
                 Move(0, "choose_first", {"player": 0}))
    with pytest.raises(NothingToUndo) as nothing:
        engine.apply(table, GATE, Undo(seat=0))
    with pytest.raises(NotYourTurn) as not_his:
        engine.apply(play(table, GATE, Move(0, "summon", {"gate": 1, "level": 2})), GATE, Undo(seat=1))
    assert nothing.value.message == "There is no move of this turn to take back (a roll is never undone)."
    assert not_his.value.message == "The last move was Ana's: only Ana (or the host) can take it back."
    assert not_his.value.code == "not_your_turn"


def test_a_move_is_not_taken_back_when_a_move_made_out_of_turn_since_depends_on_it() -> None:
    toy = wall_game(moves_to_end=9)
    table = engine.start(toy, StartGame("toy", ("Ann", "Bob"), {}, 1))
    table = play(table, toy, Move(0, "build", {}), Move(1, "paint", {}))
    with pytest.raises(IllegalMove, match=r"^Bob's move since then depends on it, so it cannot be taken back\.$"):
        engine.apply(table, toy, Undo(seat=0))
    assert table.state == ("wall", "paint")  # nothing was taken back
    assert not engine.can_undo(table, toy, 0) and not engine.can_undo(table, toy)  # and the phones grey Undo out
