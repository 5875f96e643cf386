"""The battle calculator: summed attack, damage assignment, who dies, who holds, the VP earned.

Proposed damage assignment (when a side does not give its own): the side kills as many of the other
side's cards as its damage allows; among the ways to kill that many, it kills the most VP, then the
most attack, then the cards listed first. Each doomed card gets exactly its defence; damage that
cannot kill anything more is left unassigned (damage does not last past the turn).
"""
from __future__ import annotations

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
from companion.rules.errors import IllegalMove

Value = tuple[int, int, int]


def damage_of(side: Side) -> int:
    """A side's damage: its cards' summed attack plus its runestones, never below 0; raises nothing."""
    return max(0, sum(card.attack for card in side.cards) + side.runestones)


def propose(damage: int, targets: tuple[Card, ...]) -> tuple[int, ...]:
    """The damage put on each target card by the proposal rule above; raises nothing."""
    best: dict[int, tuple[Value, tuple[int, ...]]] = {0: ((0, 0, 0), ())}
    for index, card in enumerate(targets):
        for spent, (value, chosen) in list(best.items()):
            total = spent + card.defence
            if total > damage:
                continue
            candidate = ((value[0] + 1, value[1] + card.vp, value[2] + card.attack), chosen + (index,))
            if total not in best or candidate[0] > best[total][0]:
                best[total] = candidate
    _value, doomed = max(best.values(), key=lambda entry: entry[0])
    return tuple(card.defence if index in doomed else 0 for index, card in enumerate(targets))


def check_assignment(assignment: tuple[int, ...], damage: int, targets: tuple[Card, ...], who: str) -> None:
    """Check a side's own damage assignment; raises IllegalMove saying what does not add up."""
    who = upper_first(who)
    if len(assignment) != len(targets):
        raise IllegalMove(
            f"{who} must give damage for each of the {len(targets)} cards on the other side, not {len(assignment)}."
        )
    if sum(assignment) > damage:
        raise IllegalMove(f"{who} assigned {sum(assignment)} damage but deals only {damage}.")


def _assigned(side: Side, damage: int, targets: tuple[Card, ...]) -> tuple[tuple[int, ...], bool]:
    if side.assignment is None:
        return propose(damage, targets), True
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
    defenders_dead = tuple(hit >= card.defence for hit, card in zip(to_defenders, defender.cards))
    attackers_dead = tuple(hit >= card.defence for hit, card in zip(to_attackers, attacker.cards))
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
        defender_vp=_vp_for(defender, attacker.cards, attackers_dead),
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


def survivors(cards: tuple[Card, ...], dead: tuple[bool, ...]) -> tuple[Card, ...]:
    """The cards that did not die; raises nothing."""
    return tuple(card for card, died in zip(cards, dead) if not died)


def story(state: City, battle: Battle, result: Result) -> tuple[str, ...]:
    """The battle told in sentences for the players; raises IndexError for a bad seat."""
    attacker, defender = side_name(state, battle.attacker), side_name(state, battle.defender)
    place = district_title(state.district(battle.district))
    if battle.defender.faction == NOBODY and not battle.defender.cards:
        return (f"{place} is empty: {attacker} takes it without a battle.",)
    verb = "arrives to fight" if battle.event else "attacks"
    lines = [
        f"{attacker} {verb} {place}, held by {defender}.",
        f"{attacker} deals {_damage_text(battle.attacker, result.attacker_damage)}; "
        f"{defender} deals {_damage_text(battle.defender, result.defender_damage)}.",
        _deaths(attacker, battle.attacker, result.attackers_dead),
        _deaths(defender, battle.defender, result.defenders_dead),
        _control_line(state, battle, result, place),
    ]
    for name, vp in ((attacker, result.attacker_vp), (defender, result.defender_vp)):
        if vp:
            lines.append(f"{name} earns {vp} VP.")
    return tuple(upper_first(line) for line in lines)


def _damage_text(side: Side, damage: int) -> str:
    if side.runestones == 0:
        return f"{damage} damage"
    sign = "+" if side.runestones > 0 else "−"
    return f"{damage} damage (runestones {sign}{abs(side.runestones)})"


def _deaths(name: str, side: Side, dead: tuple[bool, ...]) -> str:
    lost = [card.title for card, died in zip(side.cards, dead) if died]
    if not side.cards:
        return f"{name} has no cards in the fight."
    if not lost:
        return f"{name} loses nothing."
    whole = " — the whole army" if side.faction == PLAYER else " — every card"
    everything = whole if len(lost) == len(side.cards) else ""
    return f"{name} loses {', '.join(lost)}{everything}."


def _control_line(state: City, battle: Battle, result: Result, place: str) -> str:
    defender = side_name(state, battle.defender)
    if not result.taken:
        return f"{defender} holds {place}."
    taker = side_name(state, battle.attacker)
    after = f"{taker} takes it" if result.holder != NOBODY else "nobody is left to hold it"
    if battle.defender.faction == PLAYER:
        return f"{defender} has no army left and loses control of {place}: {after}."
    return f"Every defending card died: {after}." if result.holder == NOBODY else f"{taker} takes {place}."
