"""The fairness statistics against known answers: chi-square tails from the tables, a fair die flagged no more
often than the level says, a loaded die flagged after the rolls the page claims."""
from __future__ import annotations

import math

import pytest

from companion.memory import fairness
from companion.memory.dice import verdict

TRIALS = 2000


@pytest.mark.parametrize("statistic, degrees, tail", [
    (11.0705, 5, 0.05), (15.0863, 5, 0.01), (20.5150, 5, 0.001), (18.4753, 7, 0.01), (3.8415, 1, 0.05),
    (4.3515, 5, 0.5), (0.0, 5, 1.0)])
def test_chi_square_tails_match_the_printed_tables(statistic, degrees, tail):
    assert fairness.chi_square_tail(statistic, degrees) == pytest.approx(tail, abs=2e-5)


def test_the_tail_of_two_degrees_is_exp_of_minus_half_the_statistic():
    for statistic in (0.3, 2.0, 9.5, 40.0):
        assert fairness.chi_square_tail(statistic, 2) == pytest.approx(math.exp(-statistic / 2), rel=1e-9)


def test_counts_far_from_fair_get_a_small_p_value_and_even_counts_one():
    assert fairness.p_value([100] * 6) == pytest.approx(1.0)
    assert fairness.p_value([50, 50, 50, 50, 50, 150]) < 1e-10
    assert fairness.p_value([0] * 6) is None


def test_few_rolls_get_the_same_monte_carlo_p_value_every_time():
    counts = [0, 1, 0, 2, 0, 5]
    first = fairness.p_value(counts)
    assert first == fairness.p_value(counts) and 0 < first < 0.05


@pytest.mark.parametrize("sides, rolls", [(6, 60), (6, 725), (8, 925)])
def test_a_fair_die_is_flagged_about_as_often_as_the_level_says(sides, rolls):
    """The level is 1 %: over 2,000 seeded runs the share flagged stays within 1 % plus three binomial standard
    errors (0.67 points), the room chance gives a test whose false alarms are exactly 1 %."""
    rate = fairness.flag_rate(sides, rolls, [1 / sides] * sides, trials=TRIALS, seed=sides * rolls)
    assert rate <= fairness.ALPHA + 3 * math.sqrt(fairness.ALPHA * (1 - fairness.ALPHA) / TRIALS), rate


@pytest.mark.parametrize("sides", [6, 8])
def test_a_loaded_die_is_flagged_after_the_rolls_the_page_claims(sides):
    enough = fairness.enough_rolls(sides)
    chances = fairness.loaded(sides, face=sides - 1)
    assert fairness.flag_rate(sides, enough, chances, trials=400, seed=101) >= fairness.POWER
    assert fairness.flag_rate(sides, enough // 3, chances, trials=400, seed=101) < 0.5  # it does take that many


@pytest.mark.parametrize("sides", [6, 8])
def test_the_claimed_rolls_are_the_fewest_the_search_finds(sides):
    """ROLLS_TO_TELL is what rolls_to_tell() finds: flagged in 80 % of its trials there, not 25 rolls sooner."""
    enough = fairness.ROLLS_TO_TELL[sides]
    chances = fairness.loaded(sides)
    assert fairness.flag_rate(sides, enough, chances, trials=400, seed=37) >= fairness.POWER
    assert fairness.flag_rate(sides, enough - 25, chances, trials=400, seed=37) < fairness.POWER


def test_the_sentences_say_fair_too_few_or_unlikely():
    fair, fair_ko = verdict([122, 118, 121, 119, 120, 125], 6, fairness.p_value([122, 118, 121, 119, 120, 125]))
    assert fair.startswith("These d6 dice look fair over 725 rolls") and "공정해 보입니다" in fair_ko
    few, _ = verdict([5, 6, 4, 5, 6, 4], 6, fairness.p_value([5, 6, 4, 5, 6, 4]))
    assert few.startswith("Too few rolls to tell: 30 d6 rolls so far; it takes about 725")
    loaded = [40, 41, 39, 42, 45, 93]
    said, said_ko = verdict(loaded, 6, fairness.p_value(loaded))
    assert said.startswith("The 6 came up 31 % of the time over 300 d6 rolls — unlikely for a fair die, p")
    assert "31%" in said_ko
