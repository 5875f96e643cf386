"""What the phones show of Gateway: worlds, rescues, creatures left and the last roll."""
from __future__ import annotations

from companion.games.gateway_rescue.rescue import ESCAPED, PUSHED_BACK, RESCUE_TABLE
from companion.games.gateway_rescue.state import FIRST_ROLL, MOVE, PLAYING, DiceResult, Gateway
from companion.rules.schema import JSON


STEPPING = (PUSHED_BACK, ESCAPED)
RESULT_TEXTS = {result: text for _values, result, text in RESCUE_TABLE}


def view(state: Gateway, seat: int | None) -> JSON:
    """The table as every phone sees it (nothing is hidden in this game); raises nothing."""
    return {
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current if state.phase == PLAYING else None,
        "creatures_total": state.creatures_total,
        "creatures_left": state.creatures_left,
        "players": [
            {"name": each.name, "world": each.world, "rescues": each.rescues, "held_at_centre": each.held_at_centre}
            for each in state.rescuers
        ],
        "leaders": leaders(state),
        "waiting": state.waiting,
        "allowance": state.allowance,
        "last_roll": _last_roll(state.last_roll),
        "roll_off": _roll_off(state),
        "rescue_table": [{"d8": list(values), "result": result, "text": text} for values, result, text in RESCUE_TABLE],
        "log": list(state.log),
    }


def leaders(state: Gateway) -> list[int]:
    """The seats with the most rescues so far (all of them when tied); raises nothing."""
    most = max(each.rescues for each in state.rescuers)
    return [seat for seat, each in enumerate(state.rescuers) if each.rescues == most]


def _last_roll(result: DiceResult | None) -> JSON | None:
    if result is None:
        return None
    return {
        "kind": result.kind,
        "player": result.player,
        "d6": result.d6,
        "d6_origin": result.d6_origin,
        "d8": result.d8,
        "d8_origin": result.d8_origin,
        "result": result.result or None,
        "result_text": RESULT_TEXTS.get(result.result),
        "steps": result.d6 if result.kind == MOVE or result.result in STEPPING else None,
    }


def _roll_off(state: Gateway) -> JSON | None:
    if state.phase != FIRST_ROLL:
        return None
    return {"contenders": list(state.contenders), "rolls": list(state.first_rolls)}
