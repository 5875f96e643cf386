"""Setting battles up (a player's attack, a district's defence against an event) and fighting them."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from companion.games.gateway_city import battle as calculator
from companion.games.gateway_city.ending import check_end
from companion.games.gateway_city.state import (
    INSURGENT,
    NOBODY,
    PLAYER,
    Battle,
    Card,
    City,
    District,
    Report,
    Result,
    Side,
    add_vp,
    district_title,
    set_district,
    side_name,
)
from companion.games.gateway_city.words import district_ko, josa, side_ko
from companion.rules.errors import IllegalMove
from companion.rules.game import say
from companion.rules.said import Said


def cards_from(entries: Any, kind: str) -> tuple[Card, ...]:
    """Cards of one kind from checked argument objects; raises nothing."""
    return tuple(
        Card(kind, entry["attack"], entry["defence"], entry.get("vp", 0), entry.get("name", "")) for entry in entries
    )


def _assignment(args: Mapping[str, Any], key: str) -> tuple[int, ...] | None:
    return tuple(args[key]) if key in args else None


def plan_attack(state: City, seat: int, args: Mapping[str, Any]) -> City:
    """The state with the attack set up as a battle to preview; raises IllegalMove when not allowed."""
    district = state.district(args["district"])
    place, where = district_title(district), josa(district_ko(district), "을/를")
    army = cards_from(args["army"], INSURGENT)
    if not army:
        raise IllegalMove(Said("You need at least one card in your army to attack, even an empty district.",
                               "빈 구역을 공격할 때도 군대에 카드가 한 장 이상 있어야 합니다."))
    if district.holder == seat:
        raise IllegalMove(Said(f"You already hold {place}; attack a district you do not control.",
                               f"이미 {where} 지배하고 있습니다. 지배하지 않은 구역을 공격하세요."))
    attacker = Side(PLAYER, seat, army, args.get("runestones", 0), _assignment(args, "damage_to_defenders"))
    defender = _defenders(state, district, args)
    checked = _checked(state, Battle(district.number, attacker, defender, owner=seat))
    name, preview = state.name(seat), _preview_line(state, checked)
    line = Said(f"{name} sets up an attack on {place}: {preview}",
                f"{josa(name, '이/가')} {district_ko(district)} 공격을 준비합니다: {preview.ko}")
    return say(replace(state, battle=checked), line)


def _defenders(state: City, district: District, args: Mapping[str, Any]) -> Side:
    place, place_ko = district_title(district), district_ko(district)
    assignment = _assignment(args, "damage_to_attackers")
    if district.holder is not None:
        if "defending_army" not in args:
            owner = state.name(district.holder)
            raise IllegalMove(Said(f"Enter {owner}'s army (defending_army, even if empty) to attack {place}.",
                                   f"{josa(place_ko, '을/를')} 공격하려면 {owner}의 군대를 입력하세요 "
                                   "(defending_army, 비어 있어도)."))
        army = cards_from(args["defending_army"], INSURGENT)
        return Side(PLAYER, district.holder, army, args.get("defending_runestones", 0), assignment)
    if "defending_army" in args:
        raise IllegalMove(Said(f"The defenders of {place} are the cards on it; leave defending_army out.",
                               f"{place_ko}의 방어자는 그 위의 카드입니다. defending_army는 빼세요."))
    empty = josa(place_ko, "이/가")
    if not district.cards and assignment is not None:
        raise IllegalMove(Said(
            f"{place} is empty: there are no defenders to deal damage, so leave damage_to_attackers out.",
            f"{empty} 비어 있습니다: 피해를 줄 방어자가 없으니 damage_to_attackers는 빼세요."))
    if not district.cards and args.get("defending_runestones", 0):
        raise IllegalMove(Said(
            f"{place} is empty: there are no defenders to use runestones, so leave defending_runestones out.",
            f"{empty} 비어 있습니다: 룬스톤을 쓸 방어자가 없으니 defending_runestones는 빼세요."))
    return Side(district.controller, None, district.cards, args.get("defending_runestones", 0), assignment)


def set_defence(state: City, seat: int, args: Mapping[str, Any]) -> City:
    """The event battle with the defending side entered; raises IllegalMove when not allowed."""
    pending = state.battle
    assert pending is not None
    defender = pending.defender
    if defender.faction == PLAYER:
        if "army" not in args:
            raise IllegalMove(Said("Enter your army (army, an empty list if you have none).",
                                   "군대를 입력하세요 (army, 카드가 없으면 빈 목록)."))
        defender = replace(defender, cards=cards_from(args["army"], INSURGENT))
    elif "army" in args:
        raise IllegalMove(Said(f"No player's army fights here: {side_name(state, defender)} defends with its cards.",
                               f"여기서는 플레이어의 군대가 싸우지 않습니다: "
                               f"{josa(side_ko(state, defender), '은/는')} 자기 카드로 방어합니다."))
    defender = replace(defender, runestones=args.get("runestones", 0), assignment=_assignment(args, "damage_to_spawn"))
    attacker = replace(pending.attacker, runestones=args.get("spawn_runestones", 0),
                       assignment=_assignment(args, "damage_from_spawn"))
    checked = _checked(state, replace(pending, attacker=attacker, defender=defender, ready=True))
    preview = _preview_line(state, checked)
    return say(replace(state, battle=checked), Said(f"Event battle set up: {preview}", f"이벤트 전투 준비: {preview.ko}"))


def _checked(state: City, pending: Battle) -> Battle:
    attacker, defender = pending.attacker, pending.defender
    if attacker.assignment is not None:
        who = side_name(state, attacker)
        calculator.check_assignment(attacker.assignment, calculator.damage_of(attacker), defender.cards, who,
                                    side_ko(state, attacker))
    if defender.assignment is not None:
        who = side_name(state, defender)
        calculator.check_assignment(defender.assignment, calculator.damage_of(defender), attacker.cards, who,
                                    side_ko(state, defender))
    return pending


def _preview_line(state: City, pending: Battle) -> Said:
    result = calculator.resolve(pending)
    holding = pending.attacker if result.taken else pending.defender
    holder, holder_ko = side_name(state, holding), side_ko(state, holding)
    district = state.district(pending.district)
    place_ko = district_ko(district)
    after_ko = f"{josa(holder_ko, '이/가')} {josa(place_ko, '을/를')} 지배하게 됩니다"
    if result.holder == NOBODY:
        holder, after_ko = "nobody", f"{josa(place_ko, '은/는')} 아무도 지배하지 않게 됩니다"
    return Said(f"{result.attacker_damage} damage against {result.defender_damage}; "
                f"{holder} would hold {district_title(district)}.",
                f"피해 {result.attacker_damage} 대 {result.defender_damage}, {after_ko}.")


def fight(state: City) -> City:
    """The state after the set-up battle is fought: deaths, VP, control, the end checks, the report.

    Raises nothing (the battle was checked when it was set up).
    """
    battle = state.battle
    assert battle is not None
    result = calculator.resolve(battle)
    report = Report(battle, result, calculator.story(state, battle, result))
    state = replace(state, battle=None, last_battle=report)
    for line in report.lines:
        state = say(state, line)
    for side, vp in ((battle.attacker, result.attacker_vp), (battle.defender, result.defender_vp)):
        if vp and side.seat is not None:
            state = add_vp(state, side.seat, vp)
    state = set_district(state, district_after(state.district(battle.district), battle, result))
    if not battle.event:
        state = replace(state, attacks_made=state.attacks_made + 1)
    return check_end(state)


def district_after(district: District, battle: Battle, result: Result) -> District:
    """The district once the battle is over; raises nothing.

    A player who takes it holds it with no cards on it; spawned cards that take it stay on it;
    defending Horde / City Guard cards that hold it keep their survivors. Spawned cards that fail
    to take a district are discarded.
    """
    if result.holder == PLAYER:
        return replace(district, holder=result.holder_seat, cards=())
    if not result.taken:
        return replace(district, cards=calculator.survivors(battle.defender.cards, result.defenders_dead,
                                                            result.to_defenders))
    alive = calculator.survivors(battle.attacker.cards, result.attackers_dead, result.to_attackers)
    return replace(district, holder=None, cards=alive)
