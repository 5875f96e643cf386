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
from companion.games.gateway_city.words import FACTION_NAMES_KO, card_ko, district_ko, josa, place_ko
from companion.rules.game import say
from companion.rules.said import Said


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
    what_ko = "; ".join(f"{place_ko(state, number)}에 {card_ko(card)}" for number, card in spawns) or "등장한 카드 없음"
    name = state.name(state.starting)
    state = say(state, Said(f"{name} draws an event card (tier {TIERS[tier]}): {what}. "
                            f"{state.cards_left} event cards left.",
                            f"{josa(name, '이/가')} 이벤트 카드를 뽑습니다 ({TIERS[tier]}단계): {what_ko}. "
                            f"이벤트 카드가 {state.cards_left}장 남았습니다."))
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
    faction_ko, where = josa(FACTION_NAMES_KO[kind], "이/가"), josa(district_ko(district), "을/를")
    controller = district.controller
    if controller in (NOBODY, kind):
        verb = "takes" if controller == NOBODY else "reinforces"
        verb_ko = "차지합니다" if controller == NOBODY else "증원합니다"
        line = Said(f"{faction} {verb} {place}.", f"{faction_ko} {where} {verb_ko}.")
        return say(set_district(state, replace(district, cards=district.cards + spawn.cards)), line)
    attacker = Side(kind, None, spawn.cards)
    if controller == PLAYER and district.holder is not None:
        defender = Side(PLAYER, district.holder, ())
        pending = Battle(district.number, attacker, defender, event=True, owner=district.holder, ready=False)
        holder = state.name(district.holder)
        line = Said(f"{faction} attacks {place}: {holder} enters their army to defend it.",
                    f"{faction_ko} {where} 공격합니다: {josa(holder, '이/가')} 방어할 군대를 입력합니다.")
        return say(replace(state, battle=pending), line)
    defender = Side(controller, None, district.cards)
    pending = Battle(district.number, attacker, defender, event=True, owner=state.starting)
    starting = state.name(state.starting)
    line = Said(f"{faction} attacks {place}, held by {FACTION_NAMES[controller]}: nobody earns VP; "
                f"{starting} confirms the battle.",
                f"{faction_ko} {where} 공격합니다 (지배: {FACTION_NAMES_KO[controller]}). "
                f"아무도 승점을 얻지 않고, {josa(starting, '이/가')} 전투를 확정합니다.")
    return say(replace(state, battle=pending), line)
