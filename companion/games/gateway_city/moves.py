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
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, anytime, first_reason, say
from companion.rules.schema import JSON

Reason = Callable[[City, int], "str | None"]


def your_turn(state: City, seat: int) -> str | None:
    """None when it is this seat's turn (not the round's end), else why not; raises nothing."""
    if state.phase == EVENT:
        return round_end(state)
    return None if seat == state.current else f"It is {state.name(state.current)}'s turn."


def round_end(state: City) -> str:
    """What the round's end waits for: the event card, then the battles its spawns cause; raises nothing."""
    if not state.event_drawn:
        return f"The round is over: {state.name(state.starting)} draws the event card."
    if state.battle is None:
        return "This round's event card is already drawn and resolved."
    return event_battle_first(state, state.battle)


def event_battle_first(state: City, battle: Battle) -> str:
    """What an event's battle waits for: the defending army, then the fight; raises nothing."""
    attacker = side_name(state, battle.attacker)
    place = district_title(state.district(battle.district))
    owner = state.name(battle.owner)
    awaited = (f"{owner} enters their army to defend it (even if it is empty), then fights the battle"
               if not battle.ready else f"{owner} fights the battle")
    return f"The event card is drawn and its battle comes first: {attacker} attacks {place}, and {awaited}."


def no_battle(state: City, seat: int) -> str | None:
    """None when no battle is set up, else why that blocks the move; raises nothing."""
    if state.battle is None:
        return None
    if state.battle.event:
        return event_battle_first(state, state.battle)
    place = district_title(state.district(state.battle.district))
    return f"A battle for {place} is set up: fight it or call it off first."


def _attack_phase(state: City, seat: int) -> str | None:
    if state.phase != ATTACK:
        return f"Attacks happen in the Attack phase; it is the {state.phase.capitalize()} phase now."
    return None


def _attacks_left(state: City, seat: int) -> str | None:
    if state.attacks_made >= state.attacks_allowed:
        times = "once" if state.attacks_made == 1 else f"{state.attacks_made} times"
        return f"You have already attacked {times} this turn; only a card can grant another attack."
    return None


def _event_draw(state: City, seat: int) -> str | None:
    if state.phase != EVENT:
        return "The event card is drawn at the end of the round, after the last player's Cleanup phase."
    if state.event_drawn:
        return round_end(state)
    return None if seat == state.starting else f"The starting player, {state.name(state.starting)}, draws the event card."


def _event_battle(state: City, seat: int) -> str | None:
    if state.battle is None or not state.battle.event:
        return "No event battle is waiting to be set up."
    return _battle_owner(state, seat)


def _battle_owner(state: City, seat: int) -> str | None:
    if state.battle is None:
        return "No battle is set up: attack a district first."
    owner = state.battle.owner
    return None if seat == owner else f"{state.name(owner)} sets up and confirms this battle."


def _battle_ready(state: City, seat: int) -> str | None:
    if state.battle is not None and not state.battle.ready:
        return f"{state.name(state.battle.owner)} enters their army first (defend), even if it is empty."
    return None


def _planned_attack(state: City, seat: int) -> str | None:
    if state.battle is None or state.battle.event:
        return "There is no planned attack to call off (an event's battle must be fought)."
    return _battle_owner(state, seat)


def _ability_open(state: City, seat: int) -> str | None:
    if state.phase != DEPLOYMENT:
        return "District abilities are used in the Deployment phase only."
    if state.ability_used is not None:
        return f"You already used {district_title(state.district(state.ability_used))}'s ability this turn; one per turn."
    if not any(district.holder == seat for district in state.districts):
        return "You control no district, so you have no district ability to use."
    return None


def _before_cleanup(state: City, seat: int) -> str | None:
    return "Extra attacks are granted before the Cleanup phase." if state.phase == CLEANUP else None


def _first_turn(state: City, seat: int) -> str | None:
    if state.opened:
        return "The starting player is settled once the first phase is over."
    if state.starting_by_rule:
        return f"{state.name(state.starting)} starts: the player to the right of the last game's winner."
    return "You are already the starting player." if seat == state.starting else None


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
    return say(replace(state, battle=None), f"{state.name(act.seat)} calls the attack off.")


def _draw_event(state: City, act: Act) -> City:
    entries = act.args.get("spawns", ())
    spawns = tuple((entry["district"], fights.cards_from([entry], entry["kind"])[0]) for entry in entries)
    return events.draw_event(state, spawns)


def _extra_attack(state: City, act: Act) -> City:
    state = replace(state, attacks_allowed=state.attacks_allowed + 1)
    return say(state, f"{state.name(act.seat)} may attack {state.attacks_allowed} times this turn.")


def _use_ability(state: City, act: Act) -> City:
    district = state.district(act.args["district"])
    if district.holder != act.seat:
        raise IllegalMove(f"You do not control {district_title(district)}.")
    state = replace(state, ability_used=district.number)
    return say(state, f"{state.name(act.seat)} uses the ability of {district_title(district)} this turn.")


def _adjust_vp(state: City, act: Act) -> City:
    player, amount = act.args["player"], act.args["amount"]
    if amount == 0:
        raise IllegalMove("Give a VP change other than 0.")
    state = add_vp(state, player, amount)
    verb = "gains" if amount > 0 else "loses"
    return say(state, f"{state.name(player)} {verb} {abs(amount)} VP: {state.factions[player].vp} VP.")


def _set_district(state: City, act: Act) -> City:
    district = state.district(act.args["district"])
    controller = act.args["controller"]
    cards = fights.cards_from(act.args.get("cards", ()), controller)
    holder = act.args.get("player")
    if controller == PLAYER and holder is None:
        raise IllegalMove("Say which player holds the district (player).")
    if controller != PLAYER and holder is not None:
        raise IllegalMove("Only a district held by a player takes a player.")
    if controller in (HORDE, GUARD) and not cards:
        raise IllegalMove("A district held by the Horde or the City Guard needs its cards (cards).")
    if controller in (NOBODY, PLAYER) and cards:
        raise IllegalMove("Only Horde or City Guard cards stand on a district; a player's army stays with the player.")
    state = set_district(state, replace(district, holder=holder, cards=cards))
    held_by = state.name(holder) if holder is not None else FACTION_NAMES[controller]
    return say(state, f"{district_title(district)} corrected: held by {held_by}.")


def _claim_first(state: City, act: Act) -> City:
    state = replace(state, starting=act.seat, current=act.seat)
    return say(state, f"{state.name(act.seat)} claims first and is the starting player.")


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
