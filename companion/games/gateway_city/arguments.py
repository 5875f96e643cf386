"""The argument schemas of Gateway (the city)'s moves: cards, armies, damage lists, spawns."""
from __future__ import annotations

from companion.games.gateway_city.state import GUARD, HORDE, NOBODY, PLAYER, City
from companion.rules.schema import JSON, array, choice, integer, obj, text

MAX_CARDS = 12
MAX_SPAWNS = 8
MAX_TARGETS = 40
MAX_STAT = 20


def card(with_vp: bool) -> JSON:
    """One card: attack, defence, a name and, for Horde / City Guard cards, its VP; raises nothing."""
    properties = {"attack": integer(0, MAX_STAT, "attack"), "defence": integer(1, MAX_STAT, "defence"),
                  "name": text(30, "name")}
    if with_vp:
        properties["vp"] = integer(0, 10, "VP")
    return obj(properties, ("attack", "defence"))


def army(title: str) -> JSON:
    """A player's whole army as a list of insurgent cards; raises nothing."""
    return array(card(False), 0, MAX_CARDS, title)


def damage_list(title: str) -> JSON:
    """Damage put on each card of the other side, in their order; raises nothing."""
    return array(integer(0, 99), 0, MAX_TARGETS, title)


def runestones(title: str) -> JSON:
    """A runestone modifier added to a side's damage (±); raises nothing."""
    return integer(-MAX_STAT, MAX_STAT, title)


def district_number(state: City) -> JSON:
    """A district's number on this table; raises nothing."""
    return integer(1, len(state.districts), "district")


def attack_args(state: City, seat: int) -> JSON:
    """The arguments of an attack; raises nothing."""
    return obj({
        "district": district_number(state),
        "army": army("your army"),
        "runestones": runestones("your runestones (±damage)"),
        "defending_army": army("the defending player's army (a district held by a player)"),
        "defending_runestones": runestones("the defenders' runestones (±damage)"),
        "damage_to_defenders": damage_list("your damage on each defending card (else proposed)"),
        "damage_to_attackers": damage_list("the defenders' damage on each of your cards (else proposed)"),
    }, ("district", "army"))


def defend_args(state: City, seat: int) -> JSON:
    """The arguments of a district's defence against an event's spawn; raises nothing."""
    return obj({
        "army": army("your army (a district you hold)"),
        "runestones": runestones("the defenders' runestones (±damage)"),
        "spawn_runestones": runestones("the spawn's modifier (±damage)"),
        "damage_to_spawn": damage_list("the defenders' damage on each spawned card (else proposed)"),
        "damage_from_spawn": damage_list("the spawn's damage on each defending card (else proposed)"),
    })


def draw_args(state: City, seat: int) -> JSON:
    """The arguments of an event draw: the Horde / City Guard cards it spawned, where; raises nothing."""
    spawn = card(True)
    spawn["properties"] = {"district": district_number(state), "kind": choice([HORDE, GUARD], "Horde or City Guard"),
                           **spawn["properties"]}
    spawn["required"] = ["district", "kind", "attack", "defence"]
    return obj({"spawns": array(spawn, 0, MAX_SPAWNS, "what the event card spawned")})


def player(state: City) -> JSON:
    """A player's seat; raises nothing."""
    return integer(0, len(state.factions) - 1, "player")


def vp_args(state: City, seat: int) -> JSON:
    """The arguments of a VP change; raises nothing."""
    return obj({"player": player(state), "amount": integer(-5, 5, "VP (±)")}, ("player", "amount"))


def district_args(state: City, seat: int) -> JSON:
    """The arguments naming one district; raises nothing."""
    return obj({"district": district_number(state)}, ("district",))


def correction_args(state: City, seat: int) -> JSON:
    """The arguments of a district correction: who holds it and the cards on it; raises nothing."""
    return obj({
        "district": district_number(state),
        "controller": choice([NOBODY, HORDE, GUARD, PLAYER], "held by"),
        "player": player(state),
        "cards": array(card(True), 0, MAX_CARDS, "Horde / City Guard cards on it"),
    }, ("district", "controller"))
