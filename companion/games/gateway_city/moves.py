"""The moves of Gateway (the city): who may make each now, its arguments and its effect."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.gateway_city import arguments, events, fights
from companion.games.gateway_city.ending import check_end
from companion.games.gateway_city.state import (
    ATTACK,
    CLEANUP,
    DEPLOYMENT,
    EVENT,
    FACTION_NAMES,
    GUARD,
    HORDE,
    NOBODY,
    PLAYER,
    Battle,
    City,
    add_vp,
    district_title,
    set_district,
    side_name,
)
from companion.games.gateway_city.turns import next_phase
from companion.games.gateway_city.words import FACTION_NAMES_KO, PHASE_NAMES_KO, district_ko, josa, place_ko, side_ko
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, anytime, first_reason, say
from companion.rules.said import Said
from companion.rules.schema import JSON

Reason = Callable[[City, int], "str | None"]


def your_turn(state: City, seat: int) -> str | None:
    """None when it is this seat's turn (not the round's end), else why not; raises nothing."""
    if state.phase == EVENT:
        return round_end(state)
    name = state.name(state.current)
    return None if seat == state.current else Said(f"It is {name}'s turn.", f"{name}의 턴입니다.")


def round_end(state: City) -> str:
    """What the round's end waits for: the event card, then the battles its spawns cause; raises nothing."""
    if not state.event_drawn:
        name = state.name(state.starting)
        return Said(f"The round is over: {name} draws the event card.",
                    f"라운드가 끝났습니다: {josa(name, '이/가')} 이벤트 카드를 뽑습니다.")
    if state.battle is None:
        return Said("This round's event card is already drawn and resolved.", "이번 라운드의 이벤트 카드는 이미 뽑아 해결했습니다.")
    return event_battle_first(state, state.battle)


def event_battle_first(state: City, battle: Battle) -> str:
    """What an event's battle waits for: the defending army, then the fight; raises nothing."""
    attacker = side_name(state, battle.attacker)
    place = district_title(state.district(battle.district))
    owner = state.name(battle.owner)
    awaited = (f"{owner} enters their army to defend it (even if it is empty), then fights the battle"
               if not battle.ready else f"{owner} fights the battle")
    awaited_ko = ("방어할 군대를 (비어 있어도) 입력한 뒤 전투를 벌입니다" if not battle.ready else "전투를 벌입니다")
    return Said(f"The event card is drawn and its battle comes first: {attacker} attacks {place}, and {awaited}.",
                f"이벤트 카드를 뽑았고 그 전투가 먼저입니다: {josa(side_ko(state, battle.attacker), '이/가')} "
                f"{josa(place_ko(state, battle.district), '을/를')} 공격하고, {josa(owner, '이/가')} {awaited_ko}.")


def no_battle(state: City, seat: int) -> str | None:
    """None when no battle is set up, else why that blocks the move; raises nothing."""
    if state.battle is None:
        return None
    if state.battle.event:
        return event_battle_first(state, state.battle)
    place = district_title(state.district(state.battle.district))
    return Said(f"A battle for {place} is set up: fight it or call it off first.",
                f"{place_ko(state, state.battle.district)}의 전투가 준비되어 있습니다: 먼저 싸우거나 공격을 취소하세요.")


def _attack_phase(state: City, seat: int) -> str | None:
    if state.phase != ATTACK:
        return Said(f"Attacks happen in the Attack phase; it is the {state.phase.capitalize()} phase now.",
                    f"공격은 공격 단계에 합니다. 지금은 {PHASE_NAMES_KO[state.phase]} 단계입니다.")
    return None


def _attacks_left(state: City, seat: int) -> str | None:
    if state.attacks_made >= state.attacks_allowed:
        times = "once" if state.attacks_made == 1 else f"{state.attacks_made} times"
        return Said(f"You have already attacked {times} this turn; only a card can grant another attack.",
                    f"이번 턴에 이미 {state.attacks_made}번 공격했습니다. 추가 공격은 카드 효과로만 얻습니다.")
    return None


def _event_draw(state: City, seat: int) -> str | None:
    if state.phase != EVENT:
        return Said("The event card is drawn at the end of the round, after the last player's Cleanup phase.",
                    "이벤트 카드는 라운드가 끝날 때, 마지막 플레이어의 정리 단계 뒤에 뽑습니다.")
    if state.event_drawn:
        return round_end(state)
    name = state.name(state.starting)
    return None if seat == state.starting else Said(f"The starting player, {name}, draws the event card.",
                                                    f"이벤트 카드는 시작 플레이어 {josa(name, '이/가')} 뽑습니다.")


def _event_battle(state: City, seat: int) -> str | None:
    if state.battle is None or not state.battle.event:
        return Said("No event battle is waiting to be set up.", "준비를 기다리는 이벤트 전투가 없습니다.")
    return _battle_owner(state, seat)


def _battle_owner(state: City, seat: int) -> str | None:
    if state.battle is None:
        return Said("No battle is set up: attack a district first.", "준비된 전투가 없습니다: 먼저 구역을 공격하세요.")
    owner = state.name(state.battle.owner)
    return None if seat == state.battle.owner else Said(f"{owner} sets up and confirms this battle.",
                                                        f"이 전투는 {josa(owner, '이/가')} 준비하고 확정합니다.")


def _battle_ready(state: City, seat: int) -> str | None:
    if state.battle is not None and not state.battle.ready:
        owner = state.name(state.battle.owner)
        return Said(f"{owner} enters their army first (defend), even if it is empty.",
                    f"먼저 {josa(owner, '이/가')} 군대를 입력해야 합니다 (이벤트 방어, 비어 있어도).")
    return None


def _planned_attack(state: City, seat: int) -> str | None:
    if state.battle is None or state.battle.event:
        return Said("There is no planned attack to call off (an event's battle must be fought).",
                    "취소할 공격 계획이 없습니다 (이벤트 전투는 꼭 싸워야 합니다).")
    return _battle_owner(state, seat)


def _ability_open(state: City, seat: int) -> str | None:
    if state.phase != DEPLOYMENT:
        return Said("District abilities are used in the Deployment phase only.", "구역 능력은 배치 단계에만 씁니다.")
    if state.ability_used is not None:
        return Said(f"You already used {district_title(state.district(state.ability_used))}'s ability this turn; "
                    "one per turn.",
                    f"이번 턴에 이미 {place_ko(state, state.ability_used)}의 능력을 썼습니다. 능력은 턴마다 하나입니다.")
    if not any(district.holder == seat for district in state.districts):
        return Said("You control no district, so you have no district ability to use.",
                    "지배하는 구역이 없어 쓸 구역 능력이 없습니다.")
    return None


def _before_cleanup(state: City, seat: int) -> str | None:
    if state.phase == CLEANUP:
        return Said("Extra attacks are granted before the Cleanup phase.", "추가 공격은 정리 단계 전에만 얻습니다.")
    return None


def _first_turn(state: City, seat: int) -> str | None:
    if state.opened:
        return Said("The starting player is settled once the first phase is over.",
                    "첫 단계가 끝나 시작 플레이어가 이미 정해졌습니다.")
    name = state.name(state.starting)
    if state.starting_by_rule:
        return Said(f"{name} starts: the player to the right of the last game's winner.",
                    f"{josa(name, '이/가')} 시작합니다: 지난 게임 승자의 오른쪽 플레이어입니다.")
    return Said("You are already the starting player.", "이미 시작 플레이어입니다.") if seat == state.starting else None


def _next_phase(state: City, act: Act) -> City:
    return next_phase(state)


def _attack(state: City, act: Act) -> City:
    return fights.plan_attack(state, act.seat, act.args)


def _defend(state: City, act: Act) -> City:
    return fights.set_defence(state, act.seat, act.args)


def _fight(state: City, act: Act) -> City:
    event = state.battle is not None and state.battle.event
    state = fights.fight(state)
    return events.carry_on(state) if event and state.finish is None else state


def _call_off(state: City, act: Act) -> City:
    name = state.name(act.seat)
    return say(replace(state, battle=None), Said(f"{name} calls the attack off.", f"{josa(name, '이/가')} 공격을 취소합니다."))


def _draw_event(state: City, act: Act) -> City:
    entries = act.args.get("spawns", ())
    spawns = tuple((entry["district"], fights.cards_from([entry], entry["kind"])[0]) for entry in entries)
    return events.draw_event(state, spawns)


def _extra_attack(state: City, act: Act) -> City:
    state = replace(state, attacks_allowed=state.attacks_allowed + 1)
    name = state.name(act.seat)
    return say(state, Said(f"{name} may attack {state.attacks_allowed} times this turn.",
                           f"{josa(name, '은/는')} 이번 턴에 {state.attacks_allowed}번 공격할 수 있습니다."))


def _use_ability(state: City, act: Act) -> City:
    district = state.district(act.args["district"])
    if district.holder != act.seat:
        raise IllegalMove(Said(f"You do not control {district_title(district)}.",
                               f"{josa(district_ko(district), '을/를')} 지배하고 있지 않습니다."))
    state = replace(state, ability_used=district.number)
    name = state.name(act.seat)
    return say(state, Said(f"{name} uses the ability of {district_title(district)} this turn.",
                           f"{josa(name, '이/가')} 이번 턴에 {district_ko(district)}의 능력을 씁니다."))


def _adjust_vp(state: City, act: Act) -> City:
    player, amount = act.args["player"], act.args["amount"]
    if amount == 0:
        raise IllegalMove(Said("Give a VP change other than 0.", "승점 변화는 0이 아니어야 합니다."))
    state = add_vp(state, player, amount)
    verb, verb_ko = ("gains", "얻습니다") if amount > 0 else ("loses", "잃습니다")
    name, total = state.name(player), state.factions[player].vp
    return say(state, Said(f"{name} {verb} {abs(amount)} VP: {total} VP.",
                           f"{josa(name, '이/가')} 승점 {abs(amount)}점을 {verb_ko}: 승점 {total}점."))


def _set_district(state: City, act: Act) -> City:
    district = state.district(act.args["district"])
    controller = act.args["controller"]
    cards = fights.cards_from(act.args.get("cards", ()), controller)
    holder = act.args.get("player")
    if controller == PLAYER and holder is None:
        raise IllegalMove(Said("Say which player holds the district (player).",
                               "구역을 지배하는 플레이어를 고르세요 (player)."))
    if controller != PLAYER and holder is not None:
        raise IllegalMove(Said("Only a district held by a player takes a player.",
                               "플레이어가 지배하는 구역에만 플레이어를 고릅니다."))
    if controller in (HORDE, GUARD) and not cards:
        raise IllegalMove(Said("A district held by the Horde or the City Guard needs its cards (cards).",
                               "호드나 시 경비대가 지배하는 구역에는 그 카드가 필요합니다 (cards)."))
    if controller in (NOBODY, PLAYER) and cards:
        raise IllegalMove(Said(
            "Only Horde or City Guard cards stand on a district; a player's army stays with the player.",
            "구역에는 호드나 시 경비대 카드만 놓입니다. 플레이어의 군대는 플레이어에게 남습니다."))
    state = set_district(state, replace(district, holder=holder, cards=cards))
    held_by = state.name(holder) if holder is not None else FACTION_NAMES[controller]
    held_by_ko = state.name(holder) if holder is not None else FACTION_NAMES_KO[controller]
    return say(state, Said(f"{district_title(district)} corrected: held by {held_by}.",
                           f"{josa(district_ko(district), '을/를')} 바로잡았습니다. 지배: {held_by_ko}."))


def _claim_first(state: City, act: Act) -> City:
    state = replace(state, starting=act.seat, current=act.seat)
    name = state.name(act.seat)
    return say(state, Said(f"{name} claims first and is the starting player.",
                           f"{josa(name, '이/가')} 먼저 나서 시작 플레이어가 됩니다."))


def _checked_after(apply: Callable[[City, Act], City]) -> Callable[[City, Act], City]:
    return lambda state, act: check_end(apply(state, act))


def _rule(name: str, title: str, apply: Callable[[City, Act], City], why_not: Reason,
          args: Callable[[City, int], JSON] | None = None, weight: float = 1.0) -> MoveRule[City]:
    return MoveRule(name, title, _checked_after(apply), why_not, args, weight=weight)


MOVES: tuple[MoveRule[City], ...] = (
    _rule("next_phase", "Next phase", _next_phase, first_reason(your_turn, no_battle), weight=10.0),
    _rule("attack", "Attack a district (preview)", _attack, first_reason(your_turn, _attack_phase, _attacks_left),
          args=arguments.attack_args, weight=3.0),
    _rule("defend", "Defend against the event (preview)", _defend, _event_battle, args=arguments.defend_args,
          weight=4.0),
    _rule("fight", "Fight the battle", _fight, first_reason(_battle_owner, _battle_ready), weight=6.0),
    _rule("call_off", "Call the attack off", _call_off, _planned_attack, weight=0.3),
    _rule("draw_event", "Draw the event card", _draw_event, _event_draw, args=arguments.draw_args, weight=6.0),
    _rule("extra_attack", "A card grants another attack", _extra_attack, first_reason(your_turn, _before_cleanup), weight=0.2),
    _rule("use_district_ability", "Use a district's ability", _use_ability, first_reason(your_turn, _ability_open),
          args=arguments.district_args, weight=0.5),
    _rule("adjust_vp", "Change VP", _adjust_vp, anytime, args=arguments.vp_args, weight=0.1),
    _rule("set_district", "Correct a district", _set_district, no_battle, args=arguments.correction_args,
          weight=0.03),
    _rule("claim_first", "I go first", _claim_first, _first_turn, weight=0.3),
)
