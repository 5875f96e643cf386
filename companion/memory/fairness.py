"""Are these dice fair: a chi-square goodness-of-fit test on each kind of die, and how many rolls it needs.

Standard library only. The p-value is the chi-square distribution's tail (every face expected 5 times or more),
or else a Monte Carlo estimate with a seed fixed by the counts, so the same counts always give the same answer.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

ALPHA = 0.01
"""A die is called unlikely to be fair when its p-value is below this."""
BIAS = 1.5
"""The loaded die the test must be able to see: one face lands 1.5 times as often as each other face."""
POWER = 0.8
"""'Able to see' means: flagged in at least this share of seeded trials."""
SIMULATIONS = 2000
ROLLS_TO_TELL = {6: 725, 8: 925}
"""The rolls after which a BIAS-loaded die is flagged at ALPHA in at least POWER of trials, found by
rolls_to_tell() (seed 37, 400 trials per count, counts in steps of 25); tests/memory recompute them."""


def chi_square(counts: list[int]) -> float:
    """Pearson's statistic of face counts against a fair die; raises ZeroDivisionError for no rolls."""
    total = sum(counts)
    expected = total / len(counts)
    return sum((count - expected) ** 2 for count in counts) / expected


def p_value(counts: list[int]) -> float | None:
    """How likely a fair die is to stray this far or further (None: no rolls); raises nothing."""
    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return None
    observed = chi_square(counts)
    if total >= 5 * len(counts):
        return chi_square_tail(observed, len(counts) - 1)
    return _simulated_p(counts, observed)


def _simulated_p(counts: list[int], observed: float) -> float:
    """The Monte Carlo p-value for few rolls, seeded by the counts themselves; raises nothing."""
    rng = random.Random(hash(tuple(counts)) & 0xFFFFFFFF)
    faces, total = range(len(counts)), sum(counts)
    beyond = 0
    for _ in range(SIMULATIONS):
        fake = [0] * len(counts)
        for face in rng.choices(faces, k=total):
            fake[face] += 1
        beyond += chi_square(fake) >= observed - 1e-9
    return (beyond + 1) / (SIMULATIONS + 1)


def chi_square_tail(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for a chi-square of that many degrees of freedom; raises ValueError for degrees < 1."""
    if degrees < 1:
        raise ValueError("a chi-square needs at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    return _upper_gamma(degrees / 2, statistic / 2)


def _upper_gamma(shape: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(shape, x): a series below shape + 1, a continued fraction above."""
    log_front = shape * math.log(x) - x - math.lgamma(shape)
    if x < shape + 1:
        term = total = 1 / shape
        step = shape
        for _ in range(1000):
            step += 1
            term *= x / step
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - shape
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - shape)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def loaded(sides: int, face: int = 0, bias: float = BIAS) -> list[float]:
    """The chances of each face of a die whose `face` lands `bias` times as often as each other; raises
    IndexError for a face it lacks."""
    weights = [1.0] * sides
    weights[face] = bias
    total = sum(weights)
    return [weight / total for weight in weights]


def flag_rate(sides: int, rolls: int, chances: list[float], *, trials: int, seed: int) -> float:
    """The share of seeded trials of `rolls` rolls with these chances that the test flags at ALPHA; raises
    nothing."""
    rng = random.Random(seed)
    faces = range(sides)
    flagged = 0
    for _ in range(trials):
        counts = [0] * sides
        for face in rng.choices(faces, weights=chances, k=rolls):
            counts[face] += 1
        found = p_value(counts)
        flagged += found is not None and found < ALPHA
    return flagged / trials


def rolls_to_tell(sides: int, *, trials: int = 400, seed: int = 37, step: int = 25) -> int:
    """The fewest rolls (a multiple of `step`) after which a BIAS-loaded die is flagged in POWER of seeded
    trials; raises nothing."""
    chances = loaded(sides)
    low, high = 1, 1
    while flag_rate(sides, high * step, chances, trials=trials, seed=seed) < POWER:
        low, high = high, high * 2
    while low < high:
        middle = (low + high) // 2
        if flag_rate(sides, middle * step, chances, trials=trials, seed=seed) >= POWER:
            high = middle
        else:
            low = middle + 1
    return high * step


@lru_cache(maxsize=None)
def enough_rolls(sides: int) -> int:
    """The rolls of a die of that many sides the verdict needs before it may call the dice fair; raises
    nothing (a kind not measured beforehand is measured now, once)."""
    return ROLLS_TO_TELL.get(sides) or rolls_to_tell(sides)
