"""One busy seat cannot slow the table down (issue 36, item 3): moves made out of turn are made again on each
undo kept once, as they come, so a snapshot (can_undo) does no rules' work however many came; the undo history
keeps the last MAX_UNDO moves of a turn. Work is counted (the rules' calls), not timed: a busy CI machine
distorts time. benchmarks/busy_seat.py times the same over HTTP."""
from __future__ import annotations

import pickle
from collections import Counter
from dataclasses import replace
from typing import Any, Callable

import pytest

from companion.games.through_the_gate import GAME as TTG
from companion.games.through_the_gate.state import Tallies
from companion.rules import engine
from companion.rules.errors import IllegalMove, NothingToUndo
from companion.rules.game import Game
from companion.rules.inputs import DiceRolled, Move, StartGame, Undo
from companion.rules.table import MAX_UNDO, Table
from companion.table.snapshot import Extras, snapshot
from wall_game import wall_game

BUSY = 4000


def counted(game: Game[Any], calls: Counter[str]) -> Game[Any]:
    """The game with every move rule's apply and why_not counted in `calls` (by what was called)."""
    def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[name] += 1
            return function(*args)
        return call

    rules = tuple(replace(rule, apply=wrap("apply", rule.apply), why_not=wrap("why_not", rule.why_not))
                  for rule in game.moves)
    return replace(game, moves=rules)


def speed_declared(game: Game[Any]) -> Table:
    """Through the Gate for Ann, Bob and Cy: Ann's turn, her speed 7 declared (a move she can take back)."""
    table = engine.start(game, StartGame(game.id, ("Ann", "Bob", "Cy"), {}, 1))
    for value in (6, 1, 1):
        table = engine.apply(table, game, DiceRolled((value,), (6,)))
    return engine.apply(table, game, Move(0, "declare_speed", {"speed": 7}))


def diary(seat: int, count: int) -> Move:
    """A diary entered out of turn, each a little different."""
    return Move(seat, "set_tallies", {"strength": count % 5, "diary": count % 7})


def test_a_snapshot_does_no_rules_work_for_the_moves_made_out_of_turn_however_many() -> None:
    calls: Counter[str] = Counter()
    game = counted(TTG, calls)
    table = speed_declared(game)

    def work(table: Table) -> Counter[str]:
        """The rules' calls of the host's snapshot and each seat's."""
        calls.clear()
        for seat in (None, 0, 1, 2):
            shown = snapshot(table, game, seat=seat, seq=table.seq, extras=Extras())
            assert shown["can_undo"] == (seat in (None, 0))
        return Counter(calls)

    quiet = work(table)
    calls.clear()
    for count in range(BUSY):
        table = engine.apply(table, game, diary(1, count))
    made = calls["apply"]
    assert work(table) == quiet and quiet["apply"] == 0  # before: each snapshot made the 4,000 diaries again
    assert made == 2 * BUSY  # each diary once on the table, once on the state Ann's undo gives back
    again = engine.apply(table, game, Undo(seat=0))
    assert again.state.speed is None
    assert again.state.explorers[1].tallies == Tallies(strength=(BUSY - 1) % 5, diary=(BUSY - 1) % 7)


def test_a_move_made_out_of_turn_is_made_again_at_most_once_per_move_that_can_be_taken_back() -> None:
    calls: Counter[str] = Counter()
    game = counted(TTG, calls)
    table = speed_declared(game)
    for count in range(MAX_UNDO + 10):  # Ann re-enters her own diary, again and again: each can be taken back
        table = engine.apply(table, game, Move(0, "set_tallies", {"strength": count % 5}))
    assert len(table.undo) == MAX_UNDO
    calls.clear()
    engine.apply(table, game, diary(1, 0))
    assert calls["apply"] == 1 + MAX_UNDO


def test_the_undo_history_keeps_the_last_moves_of_a_turn_and_stays_the_same_size() -> None:
    table = speed_declared(TTG)
    sizes = []
    for count in range(BUSY):
        table = engine.apply(table, TTG, Move(0, "set_tallies", {"strength": count % 5, "diary": count % 7}))
        table = engine.apply(table, TTG, diary(1, count))
        if count + 1 in (100, BUSY):
            sizes.append(len(pickle.dumps(table)))
    assert len(table.undo) == MAX_UNDO and sizes[1] <= sizes[0] * 1.05, sizes  # before: 8,001 entries, 1.6 KB a move
    for _ in range(MAX_UNDO):
        table = engine.apply(table, TTG, Undo(seat=0))
    assert table.state.explorers[0].tallies == Tallies(strength=(BUSY - MAX_UNDO - 1) % 5, diary=(BUSY - MAX_UNDO - 1) % 7)
    assert table.state.explorers[1].tallies == Tallies(strength=(BUSY - 1) % 5, diary=(BUSY - 1) % 7)  # Bob's stands
    with pytest.raises(NothingToUndo):  # older moves of the turn stand
        engine.apply(table, TTG, Undo(seat=0))


def test_the_journal_replays_a_busy_turn_to_the_same_table() -> None:
    start = StartGame(TTG.id, ("Ann", "Bob", "Cy"), {}, 1)
    inputs: list[Any] = [start, *(DiceRolled((value,), (6,)) for value in (6, 1, 1)),
                         Move(0, "declare_speed", {"speed": 7})]
    for count in range(MAX_UNDO + 5):
        inputs += [Move(0, "set_tallies", {"strength": count % 5}), diary(1, count), diary(2, count + 1)]
    inputs += [Undo(seat=0)] * 3 + [diary(1, 99), Undo(None)]
    table = engine.replay(lambda name: TTG, inputs[:1])
    for given in inputs[1:]:
        table = engine.apply(table, TTG, given)
    assert engine.replay(lambda name: TTG, inputs) == table


def test_a_move_out_of_turn_that_depends_on_one_of_several_moves_holds_that_one_only() -> None:
    toy = wall_game()
    table = engine.start(toy, StartGame("toy", ("Ann", "Bob"), {}, 1))
    table = engine.apply(table, toy, Move(0, "build", {}))
    table = engine.apply(table, toy, Move(0, "build", {}))
    table = engine.apply(table, toy, Move(1, "paint", {}))  # stands without Ann's second wall, not without both
    assert engine.can_undo(table, toy, 0)
    table = engine.apply(table, toy, Undo(seat=0))
    assert table.state == ("wall", "paint") and not engine.can_undo(table, toy, 0) and not engine.can_undo(table, toy)
    with pytest.raises(IllegalMove, match=r"^Bob's move since then depends on it, so it cannot be taken back\.$"):
        engine.apply(table, toy, Undo(seat=0))
