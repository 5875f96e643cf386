"""End scoring: Runs and Sets, the best one in a hand, the totals, the winner and the tie-break."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from companion.games.eight_gates.state import POINTS_PER_CARD, EightGates
from companion.rules.said import Said

TIE_RULE = "A tie goes to the tied player with the most cards in the revealed Run or Set; still tied, they share the win."
TIE_RULE_KO = "동점이면 공개한 런이나 세트의 카드가 더 많은 플레이어가 이깁니다. 그래도 같으면 함께 이깁니다."


@dataclass(frozen=True)
class Standing:
    """One player's end result: total score and how many cards their reveal held."""

    seat: int
    total: int
    revealed: int


def is_set(values: tuple[int, ...]) -> bool:
    """Whether the values are all equal (one card is a Set); raises nothing."""
    return len(values) > 0 and len(set(values)) == 1


def is_run(values: tuple[int, ...]) -> bool:
    """Whether the values are consecutive numbers, in any order (one card is a Run); raises nothing."""
    ordered = sorted(values)
    return len(values) > 0 and all(later - earlier == 1 for earlier, later in zip(ordered, ordered[1:]))


def describe(values: tuple[int, ...]) -> str:
    """'a Set of four 2s', 'a Run 2–3–4', 'a single 5' or 'nothing'; raises nothing."""
    if not values:
        return "nothing"
    if len(values) == 1:
        return f"a single {values[0]}"
    ordered = sorted(values)
    if is_set(values):
        return f"a Set of {_count_word(len(values))} {ordered[0]}s"
    return "a Run " + "–".join(map(str, ordered))


def _count_word(count: int) -> str:
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[count] if count < len(words) else str(count)


def why_not_reveal(values: tuple[int, ...]) -> str | None:
    """Why these values are not one Run or one Set (a sentence), or None when they are; raises nothing."""
    if not values or is_set(values) or is_run(values):
        return None
    shown = ", ".join(map(str, values))
    return Said(f"{shown} is neither a Run (consecutive values, each once) nor a Set (all the same value); reveal only one of them.",
                f"{shown}은(는) 런(연속된 값, 각 한 장)도 세트(모두 같은 값)도 아닙니다. 둘 중 하나만 공개하세요.")


def reveal_points(values: tuple[int, ...]) -> int:
    """Points for a revealed Run or Set: 4 per card; raises nothing."""
    return POINTS_PER_CARD * len(values)


def best_reveal(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The largest single Run or Set in a hand (a Set wins a tie, then higher values); raises nothing."""
    if not hand:
        return ()
    counts = Counter(hand)
    best_set = max(counts.items(), key=lambda item: (item[1], item[0]))
    candidates = [tuple([best_set[0]] * best_set[1]), _longest_run(frozenset(hand))]
    return max(candidates, key=len)


def _longest_run(values: frozenset[int]) -> tuple[int, ...]:
    longest: tuple[int, ...] = ()
    for start in sorted(values):
        run = tuple(range(start, next(stop for stop in range(start, 8) if stop not in values)))
        if len(run) >= len(longest):
            longest = run
    return longest


def standings(state: EightGates) -> tuple[Standing, ...]:
    """Every player's total and revealed card count, by seat; raises nothing."""
    return tuple(
        Standing(seat, state.points(seat), len(player.revealed or ()))
        for seat, player in enumerate(state.players)
    )


def winners(rows: tuple[Standing, ...]) -> tuple[int, ...]:
    """The seats with the highest total, the tie broken by the most revealed cards; raises nothing."""
    top = max(row.total for row in rows)
    tied = [row for row in rows if row.total == top]
    most = max(row.revealed for row in tied)
    return tuple(row.seat for row in tied if row.revealed == most)


def scoresheet(state: EightGates) -> list[dict[str, object]]:
    """The Archivist's paper: per player the points of each round, the reveal and the total."""
    rows = []
    for seat, player in enumerate(state.players):
        lines = [line for line in state.scores if line.seat == seat]
        by_round = [sum(line.points for line in lines if line.round == number) for number in range(1, state.rounds + 1)]
        end = [line.points for line in lines if line.round == 0]
        rows.append({"seat": seat, "name": player.name, "by_round": by_round,
                     "reveal": end[0] if end else None, "total": state.points(seat)})
    return rows


def series(state: EightGates) -> dict[str, list]:
    """Each player's running score after every turn so far (start, 1…T, end) for a chart; raises nothing."""
    revealed = any(line.round == 0 for line in state.scores)
    labels = ["start", *(str(number) for number in range(1, state.turn + 1)), *(["end"] if revealed else [])]
    running = []
    for seat in range(len(state.players)):
        gained = [0] * len(labels)
        for line in state.scores:
            if line.seat == seat:
                gained[len(labels) - 1 if line.round == 0 else line.turn] += line.points
        running.append([sum(gained[: index + 1]) for index in range(len(labels))])
    return {"labels": labels, "players": running}
