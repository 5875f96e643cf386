"""What the phones show of Through The Gate, and the solo personal bests across games."""
from __future__ import annotations

from typing import Any, Mapping

from companion.games.through_the_gate import checks, korean, scoring
from companion.games.through_the_gate.state import COMPETITIVE, SCORING, SOLO, Check, TheGate
from companion.rules.schema import JSON


def view(state: TheGate, seat: int | None) -> JSON:
    """The table as every phone sees it (nothing is hidden in this game); raises nothing."""
    return {
        "mode": state.mode,
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current,
        "direction": "left (clockwise)" if state.direction == 1 else "right (counter-clockwise)",
        "reverse_at_end": state.reverse_at_end,
        "speed": state.effective_speed,
        "declared_speed": state.speed,
        "quickness_potion": state.quick,
        "players": [_player(explorer) for explorer in state.explorers],
        "check": _check(state.check),
        "roll_off": {"contenders": list(state.contenders), "rolls": list(state.first_rolls)} if state.contenders else None,
        "random_pick": state.random_pick,
        "scoring": _scoring(state) if state.phase == SCORING else None,
        "log": list(state.log),
    }


def _player(explorer: Any) -> JSON:
    tallies = explorer.tallies
    return {
        "name": explorer.name,
        "hourglasses": explorer.hourglasses,
        "tallies": {key: getattr(tallies, key) for key in tallies.__dataclass_fields__},
        "wilds": list(explorer.wilds) if explorer.wilds is not None else None,
    }


def _check(check: Check | None) -> JSON | None:
    if check is None:
        return None
    return {
        "kind": check.kind,
        "title": checks.CHECK_TITLES[check.kind],
        "player": check.player,
        "speed": check.speed,
        "dice": [{"raw": die.raw, "modifier": die.modifier, "value": die.value} for die in check.dice],
        "awaiting": check.awaiting,
        "verdict": checks.verdict(check),
        "verdict_ko": korean.verdict(check),
        "passed": checks.passed(check),
        "also": check.also,
        "also_passed": checks.conditions(check)[1][2] if check.also is not None and not check.awaiting else None,
        "failures": checks.failures(check) if check.kind == "three_less" else None,
    }


def _scoring(state: TheGate) -> JSON:
    if state.mode == COMPETITIVE:
        proposal = scoring.best_splits(state.explorers)
        rows = scoring.standings(state.explorers, proposal)
        return {
            "victories": [list(row.victories) for row in rows],
            "totals": [row.totals for row in rows],
            "wilds": [list(row.wilds) for row in rows],
            "leaders": list(scoring.winners(rows)),
            "contested": list(proposal.contested),
            "tie_rule": scoring.TIE_RULE,
            "tie_rule_ko": korean.TIE_RULE,
        }
    team = scoring.combined(state.explorers)
    met, split = scoring.targets_met(team, len(state.explorers))
    players = len(state.explorers)
    targets = [{"key": key, "title": title, "tally": tally, "needed": per * players} for key, title, tally, per in scoring.TARGETS]
    return {"totals": scoring.totals(team, split), "wilds": list(split), "targets": targets, "met": list(met)}


def records(finished: list[Mapping[str, Any]], current: Mapping[str, Any] | None) -> JSON | None:
    """Solo personal bests over finished solo games and what this game beat; raises nothing."""
    solo = [detail for detail in finished if detail.get("mode") == SOLO]
    if current is not None and current.get("mode") != SOLO:
        return None
    best: dict[str, int] = {}
    for detail in solo:
        for key, value in _record_values(detail).items():
            best[key] = max(best.get(key, 0), value)
    beaten = []
    if current is not None:
        beaten = [key for key, value in _record_values(current).items() if value > best.get(key, -1)]
    return {"games": len(solo), "best": best, "beaten": beaten}


def _record_values(detail: Mapping[str, Any]) -> dict[str, int]:
    values = dict(detail.get("tallies", {}))
    values["targets"] = len(detail.get("targets_met", []))
    return values
