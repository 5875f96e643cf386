"""The event deck: drawing a card, its Horde and City Guard spawns, and the battles they cause."""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_city.ending import check_end, sole_holder
from companion.games.gateway_city.state import (
    FACTION_NAMES,
    NOBODY,
    PLAYER,
    TIERS,
    Battle,
    Card,
    City,
    Side,
    Spawn,
    district_title,
    set_district,
    upper_first,
)
from companion.games.gateway_city.turns import end_round
from companion.rules.game import say


def next_tier(state: City) -> int:
    """The index of the tier the next event card comes from (I, II, III); raises ValueError when the
    deck is empty."""
    for index, left in enumerate(state.deck_left):
        if left > 0:
            return index
    raise ValueError("The event deck is empty.")


def group_spawns(spawns: tuple[tuple[int, Card], ...]) -> tuple[Spawn, ...]:
    """Spawned cards grouped by district and kind, in the order they first appear; raises nothing."""
    groups: dict[tuple[int, str], list[Card]] = {}
    for number, card in spawns:
        groups.setdefault((number, card.kind), []).append(card)
    return tuple(Spawn(number, tuple(cards)) for (number, _kind), cards in groups.items())


def draw_event(state: City, spawns: tuple[tuple[int, Card], ...]) -> City:
    """The state after the starting player drew an event card spawning these cards (district, card);
    raises ValueError when the deck is empty."""
    tier = next_tier(state)
    left = list(state.deck_left)
    left[tier] -= 1
    state = replace(state, deck_left=tuple(left), event_drawn=True, held_at_draw=sole_holder(state),
                    spawn_queue=group_spawns(spawns))
    what = "; ".join(_spawn_text(state, number, card) for number, card in spawns) or "nothing spawns"
    state = say(state, f"{state.name(state.starting)} draws an event card (tier {TIERS[tier]}): {what}. "
                       f"{state.cards_left} event cards left.")
    return carry_on(state)


def _spawn_text(state: City, number: int, card: Card) -> str:
    return f"{card.title} on {district_title(state.district(number))}"


def carry_on(state: City) -> City:
    """The event resolved as far as it goes: spawns arrive one group at a time until one needs a
    battle or the game ends; with nothing left, the round ends; raises nothing."""
    while state.finish is None and state.battle is None and state.spawn_queue:
        spawn = state.spawn_queue[0]
        state = check_end(arrive(replace(state, spawn_queue=state.spawn_queue[1:]), spawn))
    if state.finish is None and state.battle is None:
        return end_round(state)
    return state


def arrive(state: City, spawn: Spawn) -> City:
    """Spawned cards arrive on a district: they take an empty one, join their own kind, or set up a
    battle against whoever holds it; raises IndexError for a district not on the table."""
    district = state.district(spawn.district)
    kind = spawn.cards[0].kind
    place = district_title(district)
    faction = upper_first(FACTION_NAMES[kind])
    controller = district.controller
    if controller in (NOBODY, kind):
        verb = "takes" if controller == NOBODY else "reinforces"
        return say(set_district(state, replace(district, cards=district.cards + spawn.cards)), f"{faction} {verb} {place}.")
    attacker = Side(kind, None, spawn.cards)
    if controller == PLAYER and district.holder is not None:
        defender = Side(PLAYER, district.holder, ())
        pending = Battle(district.number, attacker, defender, event=True, owner=district.holder, ready=False)
        line = f"{faction} attacks {place}: {state.name(district.holder)} enters their army to defend it."
        return say(replace(state, battle=pending), line)
    defender = Side(controller, None, district.cards)
    pending = Battle(district.number, attacker, defender, event=True, owner=state.starting)
    line = (f"{faction} attacks {place}, held by {FACTION_NAMES[controller]}: nobody earns VP; "
            f"{state.name(state.starting)} confirms the battle.")
    return say(replace(state, battle=pending), line)
