"""The battle calculator: summed attack, damage assignment, who dies, who holds, the VP earned.

Proposed damage assignment (when a side does not give its own): a player, who earns the VP of the
Horde and City Guard cards killed, kills the most VP, then as many cards as the damage allows; any other
side kills the most cards, then the most VP; then the most attack, then the cards listed first. Each
doomed card gets exactly the defence it has left; damage that cannot kill anything more goes on the
survivors, none made lethal, since it lasts until the end of the turn (a second attack counts it).
"""
from __future__ import annotations

from dataclasses import replace

from companion.games.gateway_city.state import (
    GUARD,
    HORDE,
    NOBODY,
    PLAYER,
    Battle,
    Card,
    City,
    Result,
    Side,
    district_title,
    side_name,
    upper_first,
)
from companion.games.gateway_city.words import Both, card_ko, district_ko, josa, side_ko
from companion.rules.errors import IllegalMove
from companion.rules.said import Said

Value = tuple[int, int, int]


def damage_of(side: Side) -> int:
    """A side's damage: its cards' summed attack plus its runestones, never below 0; raises nothing."""
    return max(0, sum(card.attack for card in side.cards) + side.runestones)


def propose(damage: int, targets: tuple[Card, ...], *, earns_vp: bool = False) -> tuple[int, ...]:
    """The damage put on each target card by the proposal rule above (the most VP first when the side
    `earns_vp`); raises nothing."""
    best: dict[int, tuple[Value, tuple[int, ...]]] = {0: ((0, 0, 0), ())}
    for index, card in enumerate(targets):
        worth = card.vp if card.kind in (HORDE, GUARD) else 0
        first, second = (worth, 1) if earns_vp else (1, worth)
        for spent, (value, chosen) in list(best.items()):
            total = spent + card.defence_left
            if total > damage:
                continue
            candidate = ((value[0] + first, value[1] + second, value[2] + card.attack), chosen + (index,))
            if total not in best or candidate[0] > best[total][0]:
                best[total] = candidate
    _value, doomed = max(best.values(), key=lambda entry: entry[0])
    hits = [card.defence_left if index in doomed else 0 for index, card in enumerate(targets)]
    return _leftover(damage - sum(hits), targets, hits, earns_vp)


def _leftover(left: int, targets: tuple[Card, ...], hits: list[int], earns_vp: bool) -> tuple[int, ...]:
    """The hits with the damage that kills nothing more put on the survivors (it lasts the turn), the most VP
    first for a side that earns them, else in the order listed, none made lethal; raises nothing."""
    alive = [index for index, hit in enumerate(hits) if hit == 0]
    if earns_vp:
        alive.sort(key=lambda index: -targets[index].vp)
    for index in alive:
        extra = min(left, targets[index].defence_left - 1)
        hits[index], left = extra, left - extra
    return tuple(hits)


def check_assignment(assignment: tuple[int, ...], damage: int, targets: tuple[Card, ...], who: str,
                     who_ko: str | None = None) -> None:
    """Check a side's own damage assignment, `who` (in Korean `who_ko`, else as in English) dealing it;
    raises IllegalMove saying what does not add up."""
    who, who_ko = upper_first(who), who if who_ko is None else who_ko
    if len(assignment) != len(targets):
        raise IllegalMove(Said(
            f"{who} must give damage for each of the {len(targets)} cards on the other side, not {len(assignment)}.",
            f"{who_ko}: 상대편 카드 {len(targets)}장 각각에 줄 피해를 정해야 합니다 (지금은 {len(assignment)}개)."))
    if sum(assignment) > damage:
        raise IllegalMove(Said(f"{who} assigned {sum(assignment)} damage but deals only {damage}.",
                               f"{who_ko}: 배분한 피해({sum(assignment)})가 줄 수 있는 피해({damage})보다 많습니다."))


def _assigned(side: Side, damage: int, targets: tuple[Card, ...]) -> tuple[tuple[int, ...], bool]:
    if side.assignment is None:
        return propose(damage, targets, earns_vp=side.faction == PLAYER), True
    return side.assignment, False


def _vp_for(side: Side, targets: tuple[Card, ...], dead: tuple[bool, ...]) -> int:
    if side.faction != PLAYER:
        return 0
    return sum(card.vp for card, died in zip(targets, dead) if died and card.kind in (HORDE, GUARD))


def resolve(battle: Battle) -> Result:
    """What the battle does, with proposed assignments where none were given; raises nothing."""
    attacker, defender = battle.attacker, battle.defender
    attack_damage, defence_damage = damage_of(attacker), damage_of(defender)
    to_defenders, attacker_proposed = _assigned(attacker, attack_damage, defender.cards)
    to_attackers, defender_proposed = _assigned(defender, defence_damage, attacker.cards)
    defenders_dead = tuple(hit >= card.defence_left for hit, card in zip(to_defenders, defender.cards))
    attackers_dead = tuple(hit >= card.defence_left for hit, card in zip(to_attackers, attacker.cards))
    taken = all(defenders_dead)
    holder, seat = _holder_after(attacker, defender, attackers_dead, taken)
    return Result(
        attacker_damage=attack_damage,
        defender_damage=defence_damage,
        to_defenders=to_defenders,
        to_attackers=to_attackers,
        defenders_dead=defenders_dead,
        attackers_dead=attackers_dead,
        taken=taken,
        attacker_vp=_vp_for(attacker, defender.cards, defenders_dead),
        defender_vp=0 if taken else _vp_for(defender, attacker.cards, attackers_dead),  # only for a battle won
        holder=holder,
        holder_seat=seat,
        proposed=(attacker_proposed, defender_proposed),
    )


def _holder_after(attacker: Side, defender: Side, attackers_dead: tuple[bool, ...], taken: bool) -> tuple[str, int | None]:
    if not taken:
        return defender.faction, defender.seat
    if attacker.faction == PLAYER:
        return PLAYER, attacker.seat
    survivors = [card for card, died in zip(attacker.cards, attackers_dead) if not died]
    return (attacker.faction, None) if survivors else (NOBODY, None)


def survivors(cards: tuple[Card, ...], dead: tuple[bool, ...], hits: tuple[int, ...] = ()) -> tuple[Card, ...]:
    """The cards that did not die, each keeping the `hits` it took ("Cards which do not sustain lethal damage
    have their defense value set back to full at the end of the turn": not before); raises nothing."""
    hits = hits or (0,) * len(cards)
    return tuple(replace(card, damage=card.damage + hit) for card, died, hit in zip(cards, dead, hits) if not died)


def story(state: City, battle: Battle, result: Result) -> tuple[str, ...]:
    """The battle told in sentences for the players; raises IndexError for a bad seat."""
    attacker = Both(side_name(state, battle.attacker), side_ko(state, battle.attacker))
    defender = Both(side_name(state, battle.defender), side_ko(state, battle.defender))
    district = state.district(battle.district)
    place = Both(district_title(district), district_ko(district))
    if battle.defender.faction == NOBODY and not battle.defender.cards:
        return (Said(f"{place.en} is empty: {attacker.en} takes it without a battle.",
                     f"{josa(place.ko, '이/가')} 비어 있습니다: {josa(attacker.ko, '이/가')} 전투 없이 차지합니다."),)
    verb = "arrives to fight" if battle.event else "attacks"
    verb_ko = f"{place.ko}에 나타나 싸웁니다" if battle.event else f"{josa(place.ko, '을/를')} 공격합니다"
    dealt = _damage_text(battle.attacker, result.attacker_damage)
    taken = _damage_text(battle.defender, result.defender_damage)
    lines = [
        Said(f"{attacker.en} {verb} {place.en}, held by {defender.en}.",
             f"{josa(attacker.ko, '이/가')} {verb_ko} (지배: {defender.ko})."),
        Said(f"{attacker.en} deals {dealt.en}; {defender.en} deals {taken.en}.",
             f"{josa(attacker.ko, '이/가')} 주는 피해는 {dealt.ko}, {josa(defender.ko, '이/가')} 주는 피해는 {taken.ko}입니다."),
        _deaths(attacker, battle.attacker, result.attackers_dead),
        _deaths(defender, battle.defender, result.defenders_dead),
        _control_line(state, battle, result, place),
    ]
    lines.extend(_spawn_left(battle, result, place))
    for name, vp in ((attacker, result.attacker_vp), (defender, result.defender_vp)):
        if vp:
            lines.append(Said(f"{name.en} earns {vp} VP.", f"{josa(name.ko, '이/가')} 승점 {vp}점을 얻습니다."))
    if battle.defender.faction == PLAYER and result.taken and _vp_for(battle.defender, battle.attacker.cards,
                                                                      result.attackers_dead):
        lines.append(Said(f"{defender.en} lost the battle: no VP for the cards killed in it.",
                          f"{josa(defender.ko, '은/는')} 전투에서 졌으므로 이 전투에서 죽인 카드의 승점을 받지 못합니다."))
    return tuple(Said(upper_first(line), line.ko) for line in lines)


def _spawn_left(battle: Battle, result: Result, place: Both) -> list[Said]:
    """A line for each spawned card that lived but did not take the district: it is discarded; raises nothing."""
    if not battle.event or result.taken:
        return []
    return [Said(f"{card.title} survives but did not take {place.en}: it is discarded.",
                 f"{josa(card_ko(card), '은/는')} 살아남았지만 {josa(place.ko, '을/를')} 차지하지 못해 버려집니다.")
            for card in survivors(battle.attacker.cards, result.attackers_dead)]


def _damage_text(side: Side, damage: int) -> Both:
    if side.runestones == 0:
        return Both(f"{damage} damage", f"{damage}")
    sign = "+" if side.runestones > 0 else "−"
    runestones = f"{sign}{abs(side.runestones)}"
    return Both(f"{damage} damage (runestones {runestones})", f"{damage} (룬스톤 {runestones})")


def _deaths(name: Both, side: Side, dead: tuple[bool, ...]) -> Said:
    lost = [card for card, died in zip(side.cards, dead) if died]
    if not side.cards:
        return Said(f"{name.en} has no cards in the fight.", f"{name.ko}: 전투에 나선 카드가 없습니다.")
    if not lost:
        return Said(f"{name.en} loses nothing.", f"{name.ko}: 잃은 카드가 없습니다.")
    whole = Both(" — the whole army", " — 군대 전체입니다")
    if side.faction != PLAYER:
        whole = Both(" — every card", " — 카드 전부입니다")
    everything = whole if len(lost) == len(side.cards) else Both("", "")
    lost_ko = ", ".join(card_ko(card) for card in lost)
    return Said(f"{name.en} loses {', '.join(card.title for card in lost)}{everything.en}.",
                f"{name.ko}: {josa(lost_ko, '을/를')} 잃습니다{everything.ko}.")


def _control_line(state: City, battle: Battle, result: Result, place: Both) -> Said:
    defender, defender_ko = side_name(state, battle.defender), side_ko(state, battle.defender)
    where = josa(place.ko, "을/를")
    if not result.taken:
        return Said(f"{defender} holds {place.en}.", f"{josa(defender_ko, '이/가')} {where} 지킵니다.")
    taker, taker_ko = side_name(state, battle.attacker), josa(side_ko(state, battle.attacker), "이/가")
    after = f"{taker} takes it" if result.holder != NOBODY else "nobody is left to hold it"
    after_ko = f"{taker_ko} 차지합니다" if result.holder != NOBODY else "지배할 쪽이 아무도 남지 않았습니다"
    if battle.defender.faction == PLAYER:
        return Said(f"{defender} has no army left and loses control of {place.en}: {after}.",
                    f"{josa(defender_ko, '은/는')} 군대가 남지 않아 {place.ko}의 지배를 잃습니다: {after_ko}.")
    if result.holder == NOBODY:
        return Said(f"Every defending card died: {after}.", f"방어 카드가 모두 사망했습니다: {after_ko}.")
    return Said(f"{taker} takes {place.en}.", f"{taker_ko} {where} 차지합니다.")
