"""What the table teaches, learned: a small per-table layer (vision/layer.py) over the shipped face network, fitted
in numpy in seconds.

It learns by logistic regression pulled toward no correction, checks itself on examples held back (folds of photos
or rolls), picks how hard that pull is (a table of one set of dice wants little, one of many sets more), picks the
table's own sureness threshold (below the reader's 0.9 where its dice are read right but timidly, once 60 held-back
dice back it) so that silent errors there stay at or below the base reader's, and is kept only when it reads the
held-back dice better than the reader it would replace, by more than luck.
"""
from __future__ import annotations

import math

import numpy as np

from vision.faces import CLASSES
from vision.layer import READ_VIEWS, TEACH_VIEWS, Check, Example, Features, Layer, chances_with, value_chance
from vision.reader import SURE

FEWEST_TO_JUDGE = 30  # under this many taught dice a held-back check is luck: with 4 casino dice it passed a layer
# that read 0.37 % of the rest silently wrong where the reader alone read none wrong
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)  # the sureness thresholds a table may
# choose (0.9 is the reader's): a table whose dice the reader reads right but timidly gets surer, one it misreads warier
NEWLY_SURE_TO_LOWER = 60  # a threshold below the reader's must make this many held-back dice newly sure, none of
# them wrong: were 5 % of such reads wrong, 60 would show one 95 times in 100. A table that chose 0.5 from 31 dice
# (5 photos of nell-byler, base networks that never saw it) read the rest 1.40 % silently wrong, the reader alone 0.35 %
PULLS = (1e-3, 1e-4, 1e-5)  # the L2 pulls toward no correction a table may choose, on its held-back dice: taught 50
# photos, tomitomi3 (one set, one roller) read best with 1e-5, aws-vegas (many sets and tables) with 1e-4. One pull
# of 1e-2 for every table kept no layer anywhere: it held the correction too close to the reader's timid chances
STEPS = 300  # Adam steps over all examples
FOLDS = 5  # held-back folds when checking a new layer
LUCK = 0.05  # a new layer must beat the reader on held-back dice by more than a coin would this often (shared by
# the pulls tried, so the best of them is no luckier): taught 50 skovy-webcam-d6 crops, a layer that gained 2
# held-back dice and lost 1 read the rest 60.4 % sure & right, the reader alone 68.9 %


def learn(examples: list[Example], features: Features, *, previous: Layer | None = None) -> tuple[Layer | None, str]:
    """Returns (the layer to read with, one sentence on what was learned): the previous layer when it reads the dice
    taught since better than the new one; otherwise the new one when it reads the held-back dice better than the reader
    alone by more than luck, else None; raises ValueError when there is no example."""
    if not examples:
        raise ValueError("there is no example to learn from: teach the box a few dice first.")
    if len(examples) < FEWEST_TO_JUDGE:
        return previous, (f"learned nothing yet from {len(examples)} dice: a new layer is judged on at least "
                          f"{FEWEST_TO_JUDGE} of the table's dice.")
    seen = features.of_surrounds([example.surround for example in examples], TEACH_VIEWS)
    priors = np.stack([example.prior for example in examples]).astype(np.float64)
    values = np.array([example.value for example in examples])
    base = _base_check(examples)
    pull, held, (threshold, check) = _best_pull(_held_back(examples, seen, priors, values), values, base)
    weights = _fit(seen, priors, values, (pull,))[0]
    faces = [example.face for example in examples if example.face > 0]
    layer = Layer(weights, threshold, check, base, len(examples), float(np.median(faces)) if faces else 0.0)
    if previous is not None:
        kept = _earlier_kept(previous, held, threshold, seen, priors, values)
        if kept is not None:
            return previous, kept
    gained, lost = _gained_lost(examples, held, values, threshold)
    if not check.better_than(base) or not beyond_luck(gained, lost, tries=len(PULLS)):
        return None, _refused(len(examples), check, base, (gained, lost), previous is not None)
    return layer, (f"learned from {len(examples)} dice: on held-back dice it reads {_said(check)} "
                   f"(the reader alone {_said(base)}), sure from {threshold:g}.")


def _refused(examples: int, check: Check, base: Check, gained_lost: tuple[int, int], had_earlier: bool) -> str:
    """Returns the sentence for a new layer that is not kept; raises nothing."""
    gained, lost = gained_lost
    why = f"; {gained} dice gained against {lost} lost is within luck" if check.better_than(base) else ""
    dropped = " The earlier layer read the new dice no better, so the reader reads alone." if had_earlier else ""
    return (f"learned nothing yet from {examples} dice: on held-back dice a new layer read {_said(check)}, "
            f"the reader alone {_said(base)}{why}.{dropped}")


def _earlier_kept(previous: Layer, held: tuple[np.ndarray, np.ndarray], threshold: float, seen: np.ndarray,
                  priors: np.ndarray, values: np.ndarray) -> str | None:
    """Why the earlier layer stays, or None when the new one reads at least as well. They are compared on the dice
    taught since the earlier one learned (it never saw them; the new one reads them held back); with none since (the
    oldest dropped), on each one's own held-back dice. Raises nothing."""
    since = len(values) - previous.examples
    if since <= 0:
        new_check = _count(*held, values, threshold)
        if _as_good(new_check, previous.check):
            return None
        return (f"kept the table's earlier layer: on {new_check.dice} held-back dice the new one read {_said(new_check)}, "
                f"the earlier one {_said(previous.check)} of its own.")
    fresh = slice(len(values) - since, None)
    new_check = _count(held[0][fresh], held[1][fresh], values[fresh], threshold)
    old_check = _count(*chances_with(previous, seen[fresh, : len(READ_VIEWS)], priors[fresh]), values[fresh], previous.threshold)
    if new_check.sure_right >= old_check.sure_right and new_check.silent <= old_check.silent:
        return None
    return (f"kept the table's earlier layer: on the {since} dice taught since it the new one read {_said(new_check)}, "
            f"the earlier one {_said(old_check)}.")


def _gained_lost(examples: list[Example], held: tuple[np.ndarray, np.ndarray], values: np.ndarray,
                 threshold: float) -> tuple[int, int]:
    """Returns (held-back dice the layer reads sure & right and the reader alone does not, and the other way round);
    raises nothing."""
    sure, said = _sure(*held, threshold)
    layer_right = sure & (said == values)
    base_right = np.array([example.base_sure and example.base_value == example.value for example in examples])
    return int((layer_right & ~base_right).sum()), int((base_right & ~layer_right).sum())


def beyond_luck(gained: int, lost: int, *, tries: int = 1) -> bool:
    """Whether `gained` dice won against `lost` lost is more than luck: a coin would do as well at most LUCK of the
    time (a one-sided sign test), or LUCK / tries when the best of `tries` layers is judged; raises nothing."""
    tosses = gained + lost
    as_well = sum(math.comb(tosses, heads) for heads in range(gained, tosses + 1)) / 2**tosses
    return tosses > 0 and as_well * tries <= LUCK


def _count(chances: np.ndarray, agree: np.ndarray, values: np.ndarray, threshold: float) -> Check:
    """How readings read the dice at a sureness threshold: (dice, sure & right, sure & wrong); raises nothing."""
    sure, said = _sure(chances, agree, threshold)
    return Check(len(values), int((sure & (said == values)).sum()), int((sure & (said != values)).sum()))


def _sure(chances: np.ndarray, agree: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Returns (which readings are sure at a threshold, the value each says); raises nothing."""
    said = chances[:, 1:].argmax(axis=1) + 1
    confidence = value_chance(chances)
    return agree & (confidence >= threshold) & (said <= 6), said


def _proven_below(held: tuple[np.ndarray, np.ndarray], values: np.ndarray, threshold: float) -> bool:
    """Whether held-back dice show a threshold below the reader's to be safe: it makes at least NEWLY_SURE_TO_LOWER
    of them sure that the reader's threshold leaves unsure, and none of those wrong; raises nothing."""
    sure, said = _sure(*held, threshold)
    newly = sure & ~_sure(*held, SURE)[0]
    return int(newly.sum()) >= NEWLY_SURE_TO_LOWER and not (newly & (said != values)).any()


def _as_good(new: Check, old: Check) -> bool:
    """Whether a new check reads at least as large a share sure & right, with no larger share silently wrong; raises nothing."""
    return new.sure_right * old.dice >= old.sure_right * new.dice and new.silent * old.dice <= old.silent * new.dice


def _said(check: Check) -> str:
    """Returns a check in words; raises nothing."""
    return f"{check.sure_right} of {check.dice} sure & right, {check.silent} silently wrong"


def _best_pull(helds: list[tuple[np.ndarray, np.ndarray]], values: np.ndarray,
               base: Check) -> tuple[float, tuple[np.ndarray, np.ndarray], tuple[float, Check]]:
    """Returns the pull whose held-back readings read most dice sure & right with no more silent errors than the
    base (the strongest such pull on a tie), with those readings and its threshold and check; raises nothing."""
    tried = [(pull, held, _threshold(held, values, base)) for pull, held in zip(PULLS, helds)]
    return max(tried, key=lambda one: (one[2][1].silent <= base.silent, one[2][1].sure_right, one[0]))


def _held_back(examples: list[Example], seen: np.ndarray, priors: np.ndarray,
               values: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Returns, for each of PULLS, each example's chances and view agreement as read by a layer that never saw its
    fold; raises nothing."""
    groups = sorted({example.group for example in examples})
    keys = [example.group for example in examples] if len(groups) >= 3 else [str(index) for index in range(len(examples))]
    order = sorted(set(keys))
    fold_of = {key: index % FOLDS for index, key in enumerate(order)}
    folds = np.array([fold_of[key] for key in keys])
    helds = [(np.array(priors, copy=True), np.zeros(len(examples), bool)) for _ in PULLS]
    reading = seen[:, : len(READ_VIEWS)]
    for fold in np.unique(folds):
        out = folds == fold
        if out.all():
            continue
        for weights, (chances, agree) in zip(_fit(seen[~out], priors[~out], values[~out], PULLS), helds):
            trial = Layer(weights, 0.0, Check(0, 0, 0), Check(0, 0, 0), 0)
            chances[out], agree[out] = chances_with(trial, reading[out], priors[out])
    return helds


def _threshold(held: tuple[np.ndarray, np.ndarray], values: np.ndarray, base: Check) -> tuple[float, Check]:
    """Returns the threshold that reads most held-back dice sure & right with no more silent errors than the base, one
    below the reader's only where held-back dice prove it safe; raises nothing."""
    best: tuple[float, Check] | None = None
    for threshold in THRESHOLDS:
        if threshold < SURE and not _proven_below(held, values, threshold):
            continue
        check = _count(*held, values, threshold)
        if check.silent <= base.silent and (best is None or check.sure_right > best[1].sure_right):
            best = (threshold, check)
    if best is None:  # no threshold is as careful as the base: the surest one, which learn() then refuses
        best = (THRESHOLDS[-1], _count(*held, values, THRESHOLDS[-1]))
    return best


def _base_check(examples: list[Example]) -> Check:
    """Returns how the reader without a layer read the examples; raises nothing."""
    right = sum(1 for example in examples if example.base_sure and example.base_value == example.value)
    wrong = sum(1 for example in examples if example.base_sure and example.base_value != example.value)
    return Check(len(examples), right, wrong)


def _fit(seen: np.ndarray, priors: np.ndarray, values: np.ndarray, pulls: tuple[float, ...]) -> np.ndarray:
    """Returns (len(pulls), FEATURES + 1, CLASSES - 1) correction weights, one set a pull, fitted together by L2-pulled
    logistic regression over every view (Adam); raises nothing.

    Each view is a column, so the sums over a view's 7 classes run along whole rows of views (numpy is slow to
    reduce over an axis of 7)."""
    count, views, width = seen.shape
    columns = np.ascontiguousarray(seen.reshape(count * views, width).T, np.float32)  # single precision: half the time
    classes = CLASSES - 1
    offsets = np.repeat(np.log(np.clip(priors[:, 1:], 1e-6, 1.0)), views, axis=0).T[None].astype(np.float32)
    wanted = np.eye(classes, dtype=np.float32)[:, np.repeat(values - 1, views)][None]
    strength = np.repeat(np.asarray(pulls, np.float32), classes)[:, None]  # each weight's pull, pull by pull
    weights = np.zeros((len(pulls) * classes, width), np.float32)
    moment, spread = np.zeros_like(weights), np.zeros_like(weights)
    for step in range(1, STEPS + 1):
        logits = offsets + (weights @ columns).reshape(len(pulls), classes, -1)
        logits -= logits.max(axis=1, keepdims=True)
        chances = np.exp(logits)
        chances /= chances.sum(axis=1, keepdims=True)
        gradient = (chances - wanted).reshape(len(pulls) * classes, -1) @ columns.T / columns.shape[1]
        gradient += strength * weights
        moment = 0.9 * moment + 0.1 * gradient
        spread = 0.999 * spread + 0.001 * gradient * gradient
        weights -= 0.05 * (moment / (1 - 0.9**step)) / (np.sqrt(spread / (1 - 0.999**step)) + 1e-8)
    return weights.reshape(len(pulls), classes, width).transpose(0, 2, 1).astype(np.float64)
