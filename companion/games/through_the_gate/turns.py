"""Turn order: the high-roll start, the hourglass time check, direction and the end of the game."""
from __future__ import annotations

from dataclasses import replace

from companion.games.through_the_gate.state import FIRST_ROLL, PLAYING, SCORING, Explorer, TheGate
from companion.rules.game import say


def record_first_roll(state: TheGate, value: int) -> TheGate:
    """The roll-off with the next contender's roll in; when all rolled, the winner starts."""
    roller = state.contenders[len(state.first_rolls)]
    state = say(replace(state, first_rolls=state.first_rolls + (value,)), f"{state.name(roller)} rolled {value} for first player.")
    if len(state.first_rolls) < len(state.contenders):
        return state
    high = max(state.first_rolls)
    tied = tuple(seat for seat, roll in zip(state.contenders, state.first_rolls) if roll == high)
    if len(tied) > 1:
        names = " and ".join(state.name(seat) for seat in tied)
        return say(replace(state, contenders=tied, first_rolls=()), f"{names} tied on {high}: they roll again.")
    state = say(replace(state, contenders=(), first_rolls=()), f"{state.name(tied[0])} rolled highest and goes first.")
    return begin_turn(replace(state, phase=PLAYING, current=tied[0]))


def rolling_for_first(state: TheGate) -> int | None:
    """The seat whose roll-off die is awaited, or None; raises nothing."""
    if state.phase != FIRST_ROLL or len(state.first_rolls) >= len(state.contenders):
        return None
    return state.contenders[len(state.first_rolls)]


def begin_turn(state: TheGate) -> TheGate:
    """The current player's time check: spend an hourglass, or the turn is skipped at once."""
    while True:
        state = replace(state, turn=state.turn + 1, speed=None, quick=False, check=None, random_pick=None)
        explorer = state.explorers[state.current]
        if explorer.hourglasses > 0:
            spent = replace(explorer, hourglasses=explorer.hourglasses - 1)
            state = set_explorer(state, state.current, spent)
            return say(state, f"{explorer.name}'s turn: one hourglass spent, {spent.hourglasses} left.")
        state = say(state, f"{explorer.name} has no hourglass: the turn is over at once.")
        if _nobody_has_time(state):
            return _to_scoring(state)
        state = replace(state, current=_next_seat(state, state.direction))


def end_turn(state: TheGate) -> TheGate:
    """The turn ended: reverse if an Eclipse was played, end the game or pass on; raises nothing."""
    state = say(state, f"{state.name(state.current)} ends the turn.")
    if state.reverse_at_end:
        state = say(replace(state, direction=-state.direction, reverse_at_end=False), "Play reverses direction.")
    if _nobody_has_time(state):
        return _to_scoring(state)
    return begin_turn(replace(state, current=_next_seat(state, state.direction)))


def _next_seat(state: TheGate, direction: int) -> int:
    return (state.current + direction) % len(state.explorers)


def _nobody_has_time(state: TheGate) -> bool:
    return all(explorer.hourglasses == 0 for explorer in state.explorers)


def _to_scoring(state: TheGate) -> TheGate:
    state = replace(state, phase=SCORING, speed=None, quick=False, check=None)
    return say(state, "Nobody has an hourglass left: the game is over. Enter the diaries' tallies, then finish.")


def change_hourglasses(state: TheGate, seat: int, amount: int) -> TheGate:
    """A player gains or loses hourglasses (never below 0); raises nothing."""
    explorer = state.explorers[seat]
    count = max(0, explorer.hourglasses + amount)
    return set_explorer(state, seat, replace(explorer, hourglasses=count))


def set_explorer(state: TheGate, seat: int, explorer: Explorer) -> TheGate:
    """The state with one explorer replaced; raises IndexError for a seat not at the table."""
    explorers = list(state.explorers)
    explorers[seat] = explorer
    return replace(state, explorers=tuple(explorers))
