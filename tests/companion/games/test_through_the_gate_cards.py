"""Through The Gate: cards played in either order judge a roll alike, and wilds always count somewhere."""
from __future__ import annotations

import pytest

from companion.rules.errors import IllegalMove
from ttg_table import GAME, move, roll, started, to_scoring


def test_a_quickness_potion_counts_whether_it_comes_before_or_after_silver_apples() -> None:
    base = roll(move(move(started(), "declare_speed", speed=5), "check", kind="item"), 3)  # 3 < 5: overlooked
    apples_then_potion = roll(move(move(base, "reroll"), "quickness_potion"), 3)
    potion_then_apples = roll(move(move(base, "quickness_potion"), "reroll"), 3)
    for table in (apples_then_potion, potion_then_apples):
        assert table.state.check.speed == 2, table.state.log[-3:]  # the re-rolled 3 is judged at speed 2


def test_the_ice_queens_wilds_count_in_the_totals_even_when_no_target_can_be_met() -> None:
    table = to_scoring(("Ann", "Bob"), variant="ice_queen")
    table = move(table, "set_tallies", seat=0, compassion=1, wild=2, diary=3)
    shown = GAME.view(table.state, 0)["scoring"]
    assert shown["met"] == [] and sum(shown["wilds"]) == 2
    placed = shown["totals"]["compassion"] + shown["totals"]["strength"] + shown["totals"]["wisdom"]
    assert placed == 1 + 2


def test_a_solo_record_keeps_the_wild_when_no_target_is_met() -> None:
    table = move(move(to_scoring(("Ann",)), "set_tallies", seat=0, wild=1, diary=5), "finish_scoring", seat=0)
    tallies = GAME.outcome(table.state).detail["tallies"]
    assert tallies["compassion"] + tallies["strength"] + tallies["wisdom"] == 1


def test_a_modifier_can_lift_a_roll_already_seen_of_a_three_roll_check() -> None:
    check = move(move(started(), "declare_speed", speed=4), "check", kind="three_less")
    early = roll(move(roll(check, 2), "modify", card="brooch_of_alertness", die=1), 5, 5)  # the Brooch on the 2 just seen
    late = move(roll(check, 2, 5, 5), "modify", card="brooch_of_alertness", die=1)  # or once all three are rolled
    for table in (early, late):
        shown = GAME.view(table.state, 0)["check"]
        assert [(die["raw"], die["value"]) for die in shown["dice"]] == [(2, 4), (5, 5), (5, 5)]
        assert shown["failures"] == 0
    nothing_yet = move(check, "modify", card="brooch_of_alertness")  # before any roll: the next die, as before
    assert GAME.view(roll(nothing_yet, 2).state, 0)["check"]["dice"][0]["value"] == 4
    with pytest.raises(IllegalMove, match="1 die is rolled so far in this check"):
        move(roll(check, 2), "modify", card="brooch_of_alertness", die=2)


def test_a_player_rolling_a_shortcut_check_on_someone_elses_turn_plays_their_own_modifier() -> None:
    table = move(move(started(), "declare_speed", speed=4), "check", kind="less", player=1)  # Bob rolls, speed 0
    table = move(table, "modify", seat=1, card="companion_bonus")
    with pytest.raises(IllegalMove, match="It is Ann's turn."):
        move(table, "modify", seat=2, card="companion_bonus")  # Cy is not rolling
    assert GAME.view(roll(table, 3).state, 1)["check"]["dice"][0]["value"] == 4
