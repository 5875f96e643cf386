"""Through The Gate on the pure engine: the roll-off, the time check, speeds, checks, scoring."""
from __future__ import annotations

import pytest

from companion.games.through_the_gate import scoring, words
from companion.games.through_the_gate.state import Explorer, Tallies
from companion.rules.inputs import CorrectDice, DiceRolled, Move, Undo
from companion.rules import engine
from companion.rules.errors import BadInput, IllegalMove, NotYourTurn, NothingToUndo, WrongDice
from ttg_table import GAME, move, new, roll, started, to_scoring


def test_high_roll_goes_first_and_ties_reroll_among_the_tied_only() -> None:
    table = roll(new(), 3, 5, 5)
    assert table.state.contenders == (1, 2)
    assert GAME.awaiting_dice(table.state).why == "Bob rolls for first player."
    table = roll(table, 2, 4)
    assert table.state.current == 2 and table.state.phase == "playing"
    assert table.state.explorers[2].hourglasses == 4  # the time check spent one


def test_speed_must_be_two_to_seven_and_is_declared_once() -> None:
    table = started()
    for bad in (1, 8, "5", None):
        with pytest.raises(BadInput):
            move(table, "declare_speed", speed=bad)
    table = move(table, "declare_speed", speed=5)
    with pytest.raises(IllegalMove, match="already 5"):
        move(table, "declare_speed", speed=4)


def test_only_the_current_player_acts_and_a_refusal_changes_nothing() -> None:
    table = started()
    with pytest.raises(NotYourTurn, match="Ann's turn"):
        move(table, "declare_speed", seat=1, speed=3)
    assert engine.apply(table, GAME, Move(0, "declare_speed", {"speed": 3})).state.speed == 3


@pytest.mark.parametrize(
    ("kind", "speed", "die", "modifier", "verdict", "korean"),
    [
        ("item", 4, 3, None, "the item is overlooked and discarded.", "(속도 4): 아이템을 못 보고 지나쳐 버립니다."),
        ("item", 4, 4, None, "the item is kept.", "(속도 4): 아이템을 가집니다."),
        ("item", 4, 3, "brooch_of_alertness", "3 + 2 = 5 against speed 4: the item is kept.",
         "굴린 값 3 + 2 = 5 (속도 4): 아이템을 가집니다."),
        ("less", 5, 6, "braid_of_confusion", "6 − 2 = 4 against speed 5: 4 < 5? yes.", "6 − 2 = 4 (속도 5): 4 < 5? 예."),
        ("greater", 3, 3, "bottled_imp_plus", "3 + 1 = 4 against speed 3: 4 > 3? yes.", "4 > 3? 예."),
        ("greater", 3, 3, None, "3 against speed 3: 3 > 3? no.", "굴린 값 3 (속도 3): 3 > 3? 아니오."),
        ("six", 2, 6, None, "6 = 6? yes.", "6 = 6? 예."),
        ("equal", 4, 5, "bottled_imp_minus", "5 − 1 = 4 against speed 4: 4 = 4? yes.", "4 = 4? 예."),
        ("djinn", 2, 1, None, "1: discard.", "1: 카드를 버립니다."),
        ("djinn", 2, 3, None, "3: nothing happens.", "3: 아무 일도 없습니다."),
        ("djinn", 2, 4, "companion_bonus", "5: take a card from the pile and put it in your diary.",
         "5: 더미에서 카드 한 장을 가져와 일기에 넣습니다."),
    ],
)
def test_each_check_is_decided_by_the_die_with_raw_and_modified_values(
    kind: str, speed: int, die: int, modifier: str | None, verdict: str, korean: str
) -> None:
    table = move(move(started(), "declare_speed", speed=speed), "check", kind=kind)
    table = roll(table, die)
    if modifier:
        table = move(table, "modify", card=modifier)
    shown = GAME.view(table.state, 0)["check"]
    assert shown["verdict"].endswith(verdict)
    assert shown["verdict_ko"].endswith(korean)  # the same ruling on the Korean page
    assert shown["dice"][0]["raw"] == die


def test_three_rolls_count_failures_and_a_modifier_before_the_roll_applies_to_it() -> None:
    table = move(move(started(), "declare_speed", speed=4), "check", kind="three_less")
    table = move(table, "modify", card="brooch_of_alertness")
    table = roll(table, 2, 5)
    assert GAME.awaiting_dice(table.state) is not None
    table = roll(table, 1)
    check = GAME.view(table.state, 0)["check"]
    assert [die["value"] for die in check["dice"]] == [4, 5, 1]
    assert check["failures"] == 1 and "1 failure — discard 1 card." in check["verdict"]
    assert check["verdict_ko"].endswith("실패 1번 — 카드 1장을 버립니다.")


def test_silver_apples_reroll_replaces_the_roll() -> None:
    table = roll(move(move(started(), "declare_speed", speed=5), "check", kind="item"), 2)
    table = move(table, "reroll")
    assert GAME.awaiting_dice(table.state) is not None
    table = roll(table, 6)
    assert GAME.view(table.state, 0)["check"]["verdict"].endswith("the item is kept.")


def test_quickness_potion_makes_speed_two_for_the_rest_of_the_turn() -> None:
    table = move(move(started(), "declare_speed", speed=6), "quickness_potion")
    table = roll(move(table, "check", kind="item"), 2)
    assert "against speed 2: the item is kept." in GAME.view(table.state, 0)["check"]["verdict"]
    table = move(table, "end_turn")
    assert table.state.speed is None and not table.state.quick


def test_a_quickness_potion_drunk_before_the_roll_judges_that_roll_at_speed_two() -> None:
    table = move(move(move(started(), "declare_speed", speed=6), "check", kind="item"), "quickness_potion")
    assert "(speed 2)" in GAME.awaiting_dice(table.state).why
    table = roll(table, 3)
    assert GAME.view(table.state, 0)["check"]["verdict"] == "Rolled 3 against speed 2: the item is kept."


def test_not_your_turn_your_speed_is_zero() -> None:
    table = move(started(), "declare_speed", speed=5)
    table = roll(move(table, "check", kind="greater", player=2), 1)
    assert GAME.view(table.state, 0)["check"]["verdict"].endswith("1 > 0? yes.")


def test_end_turn_is_refused_while_a_roll_is_pending() -> None:
    table = move(move(started(), "declare_speed", speed=4), "check", kind="six")
    with pytest.raises(IllegalMove, match="roll the die first"):
        move(table, "end_turn")


def test_eclipse_reverses_at_the_end_of_the_turn_and_two_cancel() -> None:
    table = move(started(), "eclipse")
    assert table.state.direction == 1
    table = move(table, "end_turn")
    assert table.state.direction == -1 and table.state.current == 2
    table = move(move(table, "eclipse"), "eclipse")
    assert move(table, "end_turn").state.current == 1


def test_hourglasses_never_go_below_zero_and_a_player_without_one_is_skipped() -> None:
    table = started(("Ann", "Bob"), hourglasses=1)
    table = move(table, "lose_hourglass", player=1)
    table = move(table, "lose_hourglass", player=1)
    assert table.state.explorers[1].hourglasses == 0
    table = move(table, "gain_hourglass")
    table = move(table, "end_turn")
    assert table.state.current == 0  # Bob had none: skipped at once
    assert "Bob has no hourglass: the turn is over at once." in table.state.log
    table = move(table, "end_turn")
    assert table.state.phase == "scoring"


def test_the_fantastic_hourglass_gives_everyone_one() -> None:
    table = move(started(), "everyone_gains_hourglass")
    assert [each.hourglasses for each in table.state.explorers] == [5, 6, 6]


def test_random_pick_is_fixed_by_the_journaled_seed() -> None:
    first = move(started(), "pick_random_player").state.random_pick
    again = move(started(), "pick_random_player").state.random_pick
    assert first == again and first in (0, 1, 2)


def test_a_random_pick_cannot_be_undone_and_drawn_again() -> None:
    picked = move(move(started(), "declare_speed", speed=4), "pick_random_player")
    with pytest.raises(NothingToUndo):
        engine.apply(picked, GAME, Undo())
    assert any(line.startswith("Randomly selected") for line in picked.state.log)


def test_undo_takes_back_moves_of_this_turn_but_never_a_roll() -> None:
    table = move(started(), "declare_speed", speed=4)
    undone = engine.apply(table, GAME, Undo())
    assert undone.state.speed is None
    rolled = roll(move(table, "check", kind="item"), 3)
    with pytest.raises(NothingToUndo):
        engine.apply(rolled, GAME, Undo())


def test_a_misread_is_corrected_as_its_own_input() -> None:
    table = roll(move(move(started(), "declare_speed", speed=4), "check", kind="item"), 3)
    fixed = engine.apply(table, GAME, CorrectDice((5,), (6,)))
    assert fixed.state.check.dice[0].raw == 5
    assert "Roll corrected: 3 → 5." in fixed.state.log
    with pytest.raises(WrongDice):
        engine.apply(table, GAME, CorrectDice((5, 2), (6, 6)))


def test_the_best_wild_split_wins_the_most_victories_and_ties_are_shared() -> None:
    explorers = (
        Explorer("Ann", 0, Tallies(compassion=1, strength=0, wisdom=2, wild=2, companions=1, diary=8)),
        Explorer("Bob", 0, Tallies(compassion=2, strength=1, wisdom=0, wild=0, companions=1, diary=8)),
    )
    rows = scoring.standings(explorers)
    assert rows[0].wilds in ((1, 1, 0), (2, 0, 0), (0, 2, 0))
    assert set(rows[0].victories) >= {"scholar", "explorer", "leadership"}
    assert len(rows[0].victories) == 5  # every victory, two of them shared
    assert scoring.winners(rows) == (0,)


def test_a_chosen_wild_split_overrides_the_proposal() -> None:
    explorers = (Explorer("Ann", 0, Tallies(wild=2), (0, 0, 2)), Explorer("Bob", 0, Tallies(wisdom=1)))
    assert scoring.standings(explorers)[0].totals["wisdom"] == 2


def test_competitive_game_ends_with_victories_and_the_tie_rule() -> None:
    table = to_scoring(("Ann", "Bob"))
    table = move(table, "set_tallies", seat=0, strength=3, diary=9)
    table = move(table, "set_tallies", seat=1, wisdom=2, compassion=2, diary=9)
    table = move(table, "finish_scoring", seat=0)
    outcome = GAME.outcome(table.state)
    assert outcome.winners == (1,)
    assert "shared" in outcome.detail["tie_rule"]
    assert outcome.summary == "Bob wins with 4 victories."
    assert outcome.detail["summary_ko"] == "Bob 승리: 승리 칭호 4개." and "동점" in outcome.detail["tie_rule_ko"]
    with pytest.raises(IllegalMove):
        move(table, "set_tallies", seat=0, strength=9)


def test_a_result_counts_one_victory_in_the_singular() -> None:
    assert words.competitive_result(["Ann"], 1) == "Ann wins with 1 victory."
    assert words.competitive_result(["Ann", "Bob"], 0) == "Ann and Bob win with 0 victories."
    assert words.competitive_result(["Ann", "Bob"], 0).ko == "Ann, Bob 공동 승리: 승리 칭호 0개."


def test_best_wild_splits_that_chase_each_other_are_placed_by_hand_before_the_scores_are_final() -> None:
    table = to_scoring(("Ann", "Bob", "Cy"))
    for seat, tallies in enumerate(((3, 2, 4, 1, 1, 7), (0, 2, 2, 1, 0, 4), (0, 3, 1, 4, 2, 0))):
        table = move(table, "set_tallies", seat=seat, **dict(zip(("compassion", "strength", "wisdom", "wild",
                                                                   "companions", "diary"), tallies)))
    assert GAME.view(table.state, 0)["scoring"]["contested"] == [0, 1]  # each best split changes the other's
    with pytest.raises(IllegalMove, match="The best wild splits of Ann and Bob depend on each other"):
        move(table, "finish_scoring", seat=2)
    table = move(table, "choose_wilds", seat=0, compassion=0, strength=1, wisdom=0)
    table = move(table, "choose_wilds", seat=1, compassion=0, strength=0, wisdom=1)
    assert GAME.view(table.state, 0)["scoring"]["contested"] == []  # Cy's best split answers theirs
    table = move(table, "finish_scoring", seat=2)
    assert GAME.outcome(table.state).detail["wilds"] == [[0, 1, 0], [0, 0, 1], [0, 1, 3]]


@pytest.mark.parametrize(("met", "won", "summary", "korean"), [
    (5, True, "banished", "목표 다섯 개를 모두 달성: 얼음 여왕을 몰아냈습니다!"),
    (3, True, "escapes", "목표 5개 중 3개 달성: 이겼지만 얼음 여왕은 달아납니다."),
    (2, False, "Ice Queen wins", "목표 5개 중 2개만 달성: 얼음 여왕이 이깁니다."),
])
def test_ice_queen_targets_scale_with_players(met: int, won: bool, summary: str, korean: str) -> None:
    table = to_scoring(("Ann", "Bob"), variant="ice_queen")
    wanted = {"strength": 4, "wisdom": 4, "compassion": 4, "companions": 4, "diary": 24}
    given = dict(list(wanted.items())[:met])
    table = move(table, "set_tallies", seat=0, **given)
    with pytest.raises(IllegalMove, match=r"Waiting for the diary tallies of Bob \(zeros are an entry too\)"):
        move(table, "finish_scoring", seat=1)  # one tap must not close the scores before Bob has entered his
    table = move(move(table, "set_tallies", seat=1), "finish_scoring", seat=1)
    outcome = GAME.outcome(table.state)
    assert bool(outcome.winners) is won and summary in outcome.summary
    assert outcome.detail["summary_ko"] == korean


def test_ice_queen_wilds_fill_the_missing_targets() -> None:
    met, split = scoring.targets_met(Tallies(strength=4, wisdom=3, compassion=2, wild=3, companions=4, diary=24), 2)
    assert len(met) == 5 and split == (2, 0, 1)


def test_solo_records_track_personal_bests() -> None:
    table = to_scoring(("Ann",))
    table = move(move(table, "set_tallies", seat=0, strength=3, diary=5), "finish_scoring", seat=0)
    outcome = GAME.outcome(table.state)
    assert outcome.summary == "Adventure over: 1 of 5 targets reached."
    assert outcome.detail["summary_ko"] == "모험 끝: 목표 5개 중 1개 달성."
    detail = dict(outcome.detail)
    first = GAME.records([], detail)
    assert first["beaten"] and first["games"] == 0
    second = GAME.records([detail], {**detail, "tallies": {**detail["tallies"], "strength": 4}})
    assert second["best"]["strength"] == 3 and second["beaten"] == ["strength"]


def test_a_seat_enters_only_its_own_roll_and_undoes_only_its_own_move() -> None:
    table = new()
    with pytest.raises(NotYourTurn, match="This roll is Ann's to make."):
        engine.apply(table, GAME, DiceRolled((4,), (6,), ("phone",), seat=1))
    table = engine.apply(table, GAME, DiceRolled((4,), (6,), ("phone",), seat=0))
    table = roll(table, 1, 1)
    table = move(table, "declare_speed", speed=3)
    with pytest.raises(NotYourTurn, match=r"The last move was Ann's: only Ann \(or the host\) can take it back."):
        engine.apply(table, GAME, Undo(seat=1))
    assert engine.apply(table, GAME, Undo(seat=0)).state.speed is None
    assert engine.apply(table, GAME, Undo()).state.speed is None  # the button or the host
