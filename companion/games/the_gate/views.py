"""What the phones show of The Gate: both players' gates, the battle, the win counts, in two languages."""
from __future__ import annotations

from companion.games.the_gate.battle import attack_total, defence_total
from companion.games.the_gate.state import (
    CHOOSING_FIRST,
    CLOSED_TO_WIN,
    DAMAGE_TO_WIN,
    OVER,
    Battle,
    Duel,
    Gate,
    Summoner,
)
from companion.games.the_gate.texts import bilingual
from companion.rules.schema import JSON


def view(state: Duel, seat: int | None) -> JSON:
    """The table as one seat sees it: a face-down guardian's defence only for its owner; raises nothing."""
    return {
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current if state.phase != CHOOSING_FIRST else None,
        "first": state.first,
        "coin": state.coin,
        "viewer": seat,
        "players": [_summoner(state, owner, seat) for owner in (0, 1)],
        "battle": _battle(state, state.battle),
        "winner": state.winner,
        "win_reason": state.win_reason or None,
        "damage_to_win": DAMAGE_TO_WIN,
        "closed_to_win": CLOSED_TO_WIN,
        "status": status(state),
        "log": [bilingual(line) for line in state.log],
    }


def status(state: Duel) -> dict[str, str]:
    """What the table is doing now, in both languages; raises nothing."""
    if state.phase == CHOOSING_FIRST:
        return {"en": "Toss the coin, or choose the first player after rock–paper–scissors.",
                "ko": "동전을 던지거나, 가위바위보 후 선을 정하세요."}
    if state.phase == OVER and state.winner is not None:
        name = state.name(state.winner)
        return {"en": f"{name} wins.", "ko": f"{name} 승리."}
    name = state.name(state.current)
    if state.battle is not None:
        return {"en": f"{name} is attacking.", "ko": f"{name}의 공격 중."}
    return {"en": f"{name}'s turn.", "ko": f"{name}의 턴."}


def _summoner(state: Duel, owner: int, viewer: int | None) -> JSON:
    summoner: Summoner = state.summoners[owner]
    attacked = state.attacked if owner != state.current else ()
    return {
        "name": summoner.name,
        "damage_taken": summoner.damage_taken,
        "closed_gates": summoner.closed_gates,
        "reinforced_this_turn": state.reinforced and owner == state.current,
        "gates": [_gate(gate, number, owner == viewer, _revealed(state, owner, number), number in attacked)
                  for number, gate in enumerate(summoner.gates, start=1)],
    }


def _revealed(state: Duel, owner: int, number: int) -> bool:
    battle = state.battle
    return battle is not None and battle.defender == owner and battle.gate == number


def _gate(gate: Gate, number: int, own: bool, revealed: bool, attacked: bool) -> JSON:
    guardian = None
    if gate.guardian is not None:
        guardian = {"face_down": not revealed, "defence": gate.guardian if own or revealed else None}
    return {
        "number": number,
        "level": gate.level,
        "damage": gate.damage,
        "capacity": gate.capacity,
        "closed": gate.closed,
        "last_card_only": gate.last_card_only,
        "reinforcements": [{"kind": card.kind, "amount": card.amount} for card in gate.reinforcements],
        "reinforcement_limit": gate.level,
        "guardian": guardian,
        "attacked_this_turn": attacked,
    }


def _battle(state: Duel, battle: Battle | None) -> JSON | None:
    if battle is None:
        return None
    level = state.gate(battle.defender, battle.gate).level
    return {
        "attacker": battle.attacker,
        "defender": battle.defender,
        "gate": battle.gate,
        "attackers": battle.attackers,
        "attack": battle.attack,
        "attack_bonus": battle.attack_bonus,
        "attack_total": attack_total(battle),
        "guardian_defence": battle.guardian,
        "defence_bonus": battle.defence_bonus,
        "level": level,
        "defence_total": defence_total(state, battle),
        "won": battle.won,
    }
