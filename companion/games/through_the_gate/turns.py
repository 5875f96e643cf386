"""Turn order: the high-roll start, the hourglass time check, direction and the end of the game."""
from __future__ import annotations

from dataclasses import replace

from companion.games.through_the_gate.state import FIRST_ROLL, PLAYING, SCORING, Explorer, TheGate
from companion.rules.game import say
from companion.rules.said import Said, listed


def record_first_roll(state: TheGate, value: int) -> TheGate:
    """The roll-off with the next contender's roll in; when all rolled, the winner starts."""
    roller = state.contenders[len(state.first_rolls)]
    name = state.name(roller)
    rolled = Said(f"{name} rolled {value} for first player.", f"{name}의 선 플레이어 정하기 굴림: {value}.")
    state = say(replace(state, first_rolls=state.first_rolls + (value,)), rolled)
    if len(state.first_rolls) < len(state.contenders):
        return state
    high = max(state.first_rolls)
    tied = tuple(seat for seat, roll in zip(state.contenders, state.first_rolls) if roll == high)
    if len(tied) > 1:
        names, names_ko = listed(state.name(seat) for seat in tied)
        again = Said(f"{names} tied on {high}: they roll again.", f"{names_ko}: {high} 동점입니다. 다시 굴리세요.")
        return say(replace(state, contenders=tied, first_rolls=()), again)
    name = state.name(tied[0])
    first = Said(f"{name} rolled highest and goes first.", f"{name}이(가) 가장 높게 굴려 선 플레이어가 됩니다.")
    state = say(replace(state, contenders=(), first_rolls=()), first)
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
            return say(state, Said(f"{explorer.name}'s turn: one hourglass spent, {spent.hourglasses} left.",
                                   f"{explorer.name}의 차례: 모래시계 1개를 쓰고 {spent.hourglasses}개 남았습니다."))
        state = say(state, Said(f"{explorer.name} has no hourglass: the turn is over at once.",
                                f"{explorer.name}에게 모래시계가 없습니다: 차례가 바로 끝납니다."))
        if _nobody_has_time(state):
            return _to_scoring(state)
        state = replace(state, current=_next_seat(state, state.direction))


def end_turn(state: TheGate) -> TheGate:
    """The turn ended: reverse if an Eclipse was played, end the game or pass on; raises nothing."""
    name = state.name(state.current)
    state = say(state, Said(f"{name} ends the turn.", f"{name}의 차례가 끝났습니다."))
    if state.reverse_at_end:
        reverses = Said("Play reverses direction.", "진행 방향이 바뀝니다.")
        state = say(replace(state, direction=-state.direction, reverse_at_end=False), reverses)
    if _nobody_has_time(state):
        return _to_scoring(state)
    return begin_turn(replace(state, current=_next_seat(state, state.direction)))


def _next_seat(state: TheGate, direction: int) -> int:
    return (state.current + direction) % len(state.explorers)


def _nobody_has_time(state: TheGate) -> bool:
    return all(explorer.hourglasses == 0 for explorer in state.explorers)


def _to_scoring(state: TheGate) -> TheGate:
    state = replace(state, phase=SCORING, speed=None, quick=False, check=None)
    return say(state, Said("Nobody has an hourglass left: the game is over. Enter the diaries' tallies, then finish.",
                           "모래시계가 남은 사람이 없습니다: 게임이 끝났습니다. 일기 집계를 입력한 뒤 점수를 확정하세요."))


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
