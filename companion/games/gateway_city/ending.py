"""The four ways the game ends, checked after every change."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_city.state import HORDE, PLAYER, WIN_VP, City, Finish
from companion.rules.game import say
from companion.rules.said import Said, listed

HORDE_HOLDS_ALL = "horde_holds_all"
TWENTY_VP = "twenty_vp"
HELD_ALL = "held_all_districts"
DECK_EMPTY = "event_deck_empty"


def check_end(state: City) -> City:
    """The state with `finish` set once a player has 20 VP or the Horde holds every district.

    VP are checked first: VP earned in a battle count before the battle's change of control.
    Raises nothing.
    """
    if state.finish is not None:
        return state
    reached = tuple(seat for seat, faction in enumerate(state.factions) if faction.vp >= WIN_VP)
    if reached:
        names, names_ko = listed(state.name(seat) for seat in reached)
        message = Said(f"{names} reached {WIN_VP} VP and wins at once!",
                       f"{names_ko}: 승점 {WIN_VP}점에 도달해 바로 승리합니다!")
        return _ended(state, Finish(TWENTY_VP, reached, message))
    if all(district.controller == HORDE for district in state.districts):
        message = Said("The Drueggar Horde holds every district: the city has fallen and everyone loses.",
                       "드루에가르 호드가 모든 구역을 차지했습니다: 도시가 무너져 모두 패배합니다.")
        return _ended(state, Finish(HORDE_HOLDS_ALL, (), message))
    return state


def check_round_end(state: City) -> City:
    """After the event card is resolved: a player who held every district through it wins, or an
    empty event deck ends the game on the most VP (tied players share the win); raises nothing."""
    state = check_end(state)
    if state.finish is not None:
        return state
    holder = sole_holder(state)
    if holder is not None and holder == state.held_at_draw:
        name = state.name(holder)
        message = Said(f"{name} held every district through the event draw and wins!",
                       f"{name}: 이벤트 카드를 뽑는 동안 모든 구역을 지켜 승리합니다!")
        return _ended(state, Finish(HELD_ALL, (holder,), message))
    if state.cards_left == 0:
        return _ended(state, _most_vp(state))
    return state


def sole_holder(state: City) -> int | None:
    """The seat that controls every district, or None; raises nothing."""
    seats = {district.holder for district in state.districts}
    if len(seats) != 1 or any(district.controller != PLAYER for district in state.districts):
        return None
    return next(iter(seats))


def _most_vp(state: City) -> Finish:
    best = max(faction.vp for faction in state.factions)
    winners = tuple(seat for seat, faction in enumerate(state.factions) if faction.vp == best)
    names, names_ko = listed(state.name(seat) for seat in winners)
    if len(winners) > 1:
        return Finish(DECK_EMPTY, winners, Said(f"The event deck is empty: {names} share the win with {best} VP each.",
                                                f"이벤트 덱이 비었습니다: {names_ko} 공동 승리 (각 승점 {best}점)."))
    return Finish(DECK_EMPTY, winners, Said(f"The event deck is empty: {names} wins with the most VP ({best}).",
                                            f"이벤트 덱이 비었습니다: {names_ko} 승리 (최다 승점 {best}점)."))


def _ended(state: City, finish: Finish) -> City:
    return say(replace(state, finish=finish, battle=None, spawn_queue=()), finish.message)
