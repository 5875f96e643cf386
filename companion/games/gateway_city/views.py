"""What the phones show of Gateway (the city): districts, VP, the phase, the deck, the battles."""
from __future__ import annotations

from companion.games.gateway_city import battle as calculator
from companion.games.gateway_city.events import next_tier
from companion.games.gateway_city.state import (
    EVENT,
    FACTION_NAMES,
    FREE_TOKEN,
    NOBODY,
    PHASE_TITLES,
    PHASES,
    PLAYER,
    TIERS,
    WIN_VP,
    Battle,
    Card,
    City,
    District,
    Report,
    Result,
    Side,
    district_title,
    left_of,
    side_name,
)
from companion.rules.said import in_korean
from companion.rules.schema import JSON


def whose_turn(state: City) -> tuple[int, ...]:
    """The seats expected to act now; raises nothing."""
    if state.finish is not None:
        return ()
    if state.battle is not None:
        return (state.battle.owner,)
    return (state.starting,) if state.phase == EVENT else (state.current,)


def view(state: City, seat: int | None) -> JSON:
    """The table as every phone sees it (nothing is hidden in this game); raises nothing."""
    return {
        "round": state.round,
        "phase": state.phase,
        "phase_title": PHASE_TITLES[state.phase],
        "phases": [{"key": key, "title": PHASE_TITLES[key], "current": key == state.phase} for key in PHASES + (EVENT,)],
        "current": state.current,
        "starting": state.starting,
        "whose_turn": list(whose_turn(state)),
        "attacks": {"made": state.attacks_made, "allowed": state.attacks_allowed},
        "ability_used": state.ability_used,
        "win_vp": WIN_VP,
        "players": [_player(state, index) for index in range(len(state.factions))],
        "districts": [_district(state, district) for district in state.districts],
        "deck": _deck(state),
        "battle": _battle(state, state.battle) if state.battle is not None else None,
        "last_battle": _report(state, state.last_battle) if state.last_battle is not None else None,
        "finish": _finish(state),
        **_both("messages", [state.finish.message] if state.finish is not None else []),
        "log": list(state.log),
    }


def _player(state: City, seat: int) -> JSON:
    faction = state.factions[seat]
    held = [district.number for district in state.districts if district.holder == seat]
    return {"seat": seat, "name": faction.name, "vp": faction.vp, "districts": held,
            "starting": seat == state.starting}


def _card(card: Card) -> JSON:
    return {"kind": card.kind, "name": card.name, "title": card.title, "attack": card.attack,
            "defence": card.defence, "vp": card.vp, "damage": card.damage}


def _district(state: City, district: District) -> JSON:
    return {
        "number": district.number,
        "name": district.name,
        "title": district_title(district),
        "tokens": list(district.tokens),
        "event_tokens": [token for token in district.tokens if token != FREE_TOKEN],
        "controller": district.controller,
        "holder": district.holder,
        "holder_name": state.name(district.holder) if district.holder is not None else None,
        "cards": [_card(card) for card in district.cards],
        "attack": sum(card.attack for card in district.cards),
        "defence": sum(card.defence_left for card in district.cards),
    }


def _deck(state: City) -> JSON:
    tiers = [{"tier": tier, "size": size, "left": left}
             for tier, size, left in zip(TIERS, state.deck_sizes, state.deck_left)]
    upcoming = TIERS[next_tier(state)] if state.cards_left else None
    return {"tiers": tiers, "left": state.cards_left, "next_tier": upcoming, "drawn_this_round": state.event_drawn}


def _side(state: City, side: Side, damage: int, proposed: bool, taken: tuple[int, ...], dead: tuple[bool, ...]) -> JSON:
    cards = [{**_card(card), "damage_taken": hit, "dies": died} for card, hit, died in zip(side.cards, taken, dead)]
    return {"faction": side.faction, "seat": side.seat, "name": side_name(state, side), "runestones": side.runestones,
            "damage": damage, "assignment_proposed": proposed, "cards": cards}


def _battle(state: City, battle: Battle, result: Result | None = None) -> JSON:
    result = result or calculator.resolve(battle)
    return {
        "district": battle.district,
        "district_title": district_title(state.district(battle.district)),
        "event": battle.event,
        "owner": battle.owner,
        "ready": battle.ready,
        "faction_played_by": _faction_player(state, battle),
        "attacker": _side(state, battle.attacker, result.attacker_damage, result.proposed[0], result.to_attackers,
                          result.attackers_dead),
        "defender": _side(state, battle.defender, result.defender_damage, result.proposed[1], result.to_defenders,
                          result.defenders_dead),
        "result": {"taken": result.taken, "holder": result.holder, "holder_seat": result.holder_seat,
                   "holder_name": _holder_name(state, result),
                   "attacker_vp": result.attacker_vp, "defender_vp": result.defender_vp},
        **_both("lines", list(calculator.story(state, battle, result))),
    }


def _faction_player(state: City, battle: Battle) -> int | None:
    """Who plays the Horde / City Guard side: the player to the left of the player fighting them;
    in Horde against City Guard the starting player plays the Guard (None: no such side)."""
    factions = {battle.attacker.faction, battle.defender.faction}
    if factions == {PLAYER} or factions == {NOBODY, PLAYER}:
        return None
    if PLAYER not in factions:
        return state.starting
    return left_of(state, battle.owner)


def _holder_name(state: City, result: Result) -> str:
    if result.holder_seat is not None:
        return state.name(result.holder_seat)
    return FACTION_NAMES[result.holder]


def _report(state: City, report: Report) -> JSON:
    return _battle(state, report.battle, report.result) | _both("lines", list(report.lines))


def _both(key: str, sentences: list[str]) -> JSON:
    """Sentences for the players under `key`, and as the Korean page shows them under `key`_ko; raises nothing."""
    return {key: sentences, f"{key}_ko": [in_korean(sentence) for sentence in sentences]}


def _finish(state: City) -> JSON | None:
    if state.finish is None:
        return None
    winners = list(state.finish.winners)
    return {"reason": state.finish.reason, "winners": winners, "winner_names": [state.name(seat) for seat in winners],
            "message": state.finish.message}
