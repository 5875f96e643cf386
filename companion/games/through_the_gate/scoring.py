"""Scoring: the five victories with the best wild split, the Ice Queen's targets, solo records."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from companion.games.through_the_gate.state import Explorer, Tallies

VICTORIES = (
    ("knight", "Knight", "strength"),
    ("scholar", "Scholar", "wisdom"),
    ("diplomat", "Diplomat", "compassion"),
    ("explorer", "Explorer", "diary"),
    ("leadership", "Leadership", "companions"),
)
TARGETS = (
    ("cold_guard", "The Cold Guard", "strength", 2),
    ("wintery_curse", "Wintery Curse", "wisdom", 2),
    ("reign_of_fear", "Reign of Fear", "compassion", 2),
    ("dark_alliance", "The Dark Alliance", "companions", 2),
    ("scattered_shards", "Scattered Shards", "diary", 12),
)
TIE_RULE = (
    "Ties (not covered by the rulebook): a victory is shared by all players tied for the most, "
    "and the game is won by all players tied on most victories."
)

Split = tuple[int, int, int]
MAX_SWEEPS = 64  # rounds of every player's best split before the proposal is called contested
SUITS = ("compassion", "strength", "wisdom")
"""The tallies a wild can count as, in the order of a Split: ♥, ♠, ♣."""


@dataclass(frozen=True)
class Standing:
    """A player's counted totals with wilds placed, and the victories those totals take."""

    totals: dict[str, int]
    wilds: Split
    victories: tuple[str, ...]


def totals(tallies: Tallies, wilds: Split) -> dict[str, int]:
    """The tallies with the wilds added to ♥ ♠ ♣; raises nothing."""
    return {
        "compassion": tallies.compassion + wilds[0],
        "strength": tallies.strength + wilds[1],
        "wisdom": tallies.wisdom + wilds[2],
        "companions": tallies.companions,
        "diary": tallies.diary,
    }


def victories_of(seat: int, all_totals: list[dict[str, int]]) -> tuple[str, ...]:
    """The victories a seat takes (shared on ties); raises nothing."""
    won = []
    for key, _title, tally in VICTORIES:
        best = max(each[tally] for each in all_totals)
        if all_totals[seat][tally] == best:
            won.append(key)
    return tuple(won)


@dataclass(frozen=True)
class Proposal:
    """The wild splits proposed, and the seats whose best split still changes with another's (none: settled)."""

    splits: list[Split]
    contested: tuple[int, ...]


def best_splits(explorers: tuple[Explorer, ...]) -> Proposal:
    """Each player's wild split that gives them the most victories against the others' splits, chosen splits
    kept; when the best splits chase each other round a circle, the seats caught in it are contested."""
    chosen = [explorer.wilds or (0, 0, 0) for explorer in explorers]
    seen: set[tuple[Split, ...]] = set()
    while tuple(chosen) not in seen and len(seen) < MAX_SWEEPS:
        seen.add(tuple(chosen))
        before = list(chosen)
        for seat, explorer in enumerate(explorers):
            if explorer.wilds is None:
                chosen[seat] = _best_for(seat, explorers, chosen)
        if chosen == before:
            return Proposal(chosen, ())
    unsettled = (seat for seat, each in enumerate(explorers) if each.wilds is None)
    return Proposal(chosen, tuple(seat for seat in unsettled if _best_for(seat, explorers, chosen) != chosen[seat]))


def _best_for(seat: int, explorers: tuple[Explorer, ...], chosen: list[Split]) -> Split:
    """The split best for the seat's result ("The player with the most victories wins the game."): winning
    alone before sharing the win, then the most victories, then the flattest; raises nothing."""
    def score(split: Split) -> tuple[int, int, int]:
        trial = list(chosen)
        trial[seat] = split
        all_totals = [totals(each.tallies, trial[index]) for index, each in enumerate(explorers)]
        counts = [len(victories_of(index, all_totals)) for index in range(len(explorers))]
        rivals = max((count for index, count in enumerate(counts) if index != seat), default=-1)
        result = 2 if counts[seat] > rivals else 1 if counts[seat] == rivals else 0
        return result, counts[seat], -max(split)

    others = [totals(each.tallies, chosen[index]) for index, each in enumerate(explorers) if index != seat]
    own = explorers[seat].tallies
    needs = tuple(max((each[suit] for each in others), default=0) - getattr(own, suit) for suit in SUITS)
    best = max(score(split) for split in _candidates(own.wild, needs, margins=(0, 1)))
    return min(split for split in _candidates(own.wild, needs, top=-best[2], margins=(0, 1)) if score(split) == best)


def _candidates(wild: int, needs: tuple[int, ...], *, top: int | None = None,
                margins: tuple[int, ...] = (0,)) -> list[Split]:
    """Per choice of suits left alone or lifted to `needs` plus each margin (to tie, or to beat with 1),
    the flattest split (or the first under `top`); raises nothing."""
    # The first best split, in order of every possible split, is always one of these: 999 wilds need not
    # try all 500,000 splits.
    found = []
    for wanted in itertools.product((None, *margins), repeat=3):
        floor = [0 if want is None else max(0, need + want) for need, want in zip(needs, wanted)]
        split = _flattest(floor, wild) if top is None else _first_under(floor, wild, top)
        if split is not None:
            found.append(split)
    return found


def _flattest(floor: list[int], wild: int) -> Split | None:
    if sum(floor) > wild:
        return None
    return _first_under(floor, wild, max(*floor, -(-wild // 3)))


def _first_under(floor: list[int], wild: int, top: int) -> Split | None:
    heart = max(floor[0], wild - 2 * top)
    spade = max(floor[1], wild - heart - top)
    wisdom = wild - heart - spade
    return (heart, spade, wisdom) if max(heart, spade) <= top and floor[2] <= wisdom <= top else None


def standings(explorers: tuple[Explorer, ...], proposal: Proposal | None = None) -> list[Standing]:
    """Every player's totals and victories with the proposed (or chosen) wild splits; raises nothing."""
    chosen = (proposal or best_splits(explorers)).splits
    all_totals = [totals(each.tallies, chosen[index]) for index, each in enumerate(explorers)]
    return [Standing(all_totals[seat], chosen[seat], victories_of(seat, all_totals)) for seat in range(len(explorers))]


def winners(rows: list[Standing]) -> tuple[int, ...]:
    """The seats with the most victories (all of them on a tie); raises nothing."""
    most = max(len(row.victories) for row in rows)
    return tuple(seat for seat, row in enumerate(rows) if len(row.victories) == most)


def targets_met(combined: Tallies, players: int) -> tuple[tuple[str, ...], Split]:
    """The Ice Queen targets met by the combined tallies, wilds placed to meet the most (placed all the
    same when no target can be met, so they still count in the totals)."""
    best: tuple[tuple[str, ...], Split] | None = None
    per_suit = {tally: per for _key, _title, tally, per in TARGETS}
    needs = tuple(per_suit[suit] * players - getattr(combined, suit) for suit in SUITS)
    for split in sorted(_candidates(combined.wild, needs, top=combined.wild)):
        counted = totals(combined, split)
        met = tuple(key for key, _title, tally, per in TARGETS if counted[tally] >= per * players)
        if best is None or len(met) > len(best[0]):
            best = (met, split)
    return best if best is not None else ((), (0, 0, 0))


def combined(explorers: tuple[Explorer, ...]) -> Tallies:
    """Every player's tallies added up; raises nothing."""
    return Tallies(*(sum(getattr(each.tallies, field) for each in explorers) for field in Tallies.__dataclass_fields__))


BANISHED, ESCAPES, QUEEN_WINS = "banished", "escapes", "queen_wins"
TARGETS_TO_WIN = 3


def ice_queen_band(count: int) -> str:
    """What meeting `count` of the five targets means: BANISHED, ESCAPES (the team wins) or QUEEN_WINS; raises nothing."""
    return BANISHED if count == len(TARGETS) else ESCAPES if count >= TARGETS_TO_WIN else QUEEN_WINS
