"""What the phones show of 8 Gates: the middle, the legal cells, the Archivist's paper, the result."""
from __future__ import annotations

from companion.games.eight_gates import grid, scoring
from companion.games.eight_gates.state import ARCHIVIST, OVER, PLAYING, EightGates, Gate, Player
from companion.rules.game import Outcome
from companion.rules.said import Said, counted, listed
from companion.rules.schema import JSON


def view(state: EightGates, seat: int | None) -> JSON:
    """The table as every phone sees it (hands are only counted, so nothing is hidden); raises nothing."""
    low_x, high_x, low_y, high_y = grid.bounds(state.middle, 1)
    return {
        "phase": state.phase,
        "you": seat,
        "archivist": state.archivist,
        "archivist_draw": _archivist_draw(state),
        "players": [_player(state, index, player) for index, player in enumerate(state.players)],
        "middle": [_cell(gate) for gate in state.middle],
        "legal_cells": [{"x": x, "y": y} for x, y in legal_now(state)],
        "bounds": {"min_x": low_x, "max_x": high_x, "min_y": low_y, "max_y": high_y},
        "current": state.current if state.phase == PLAYING else None,
        "turn": state.turn,
        "gates_played": state.gates_played,
        "gates_allowed": state.gates_allowed,
        "round": state.round,
        "rounds": state.rounds,
        "round_text": f"Round {state.round} of {state.rounds}",
        "face_down": state.face_down,
        "warning": warning(state),
        "scoresheet": {"rounds": state.rounds, "rows": scoring.scoresheet(state)},
        "series": scoring.series(state),
        "result": _result(state),
        "log": list(state.log),
    }


def legal_now(state: EightGates) -> tuple[grid.Cell, ...]:
    """The cells the current player may place a Gate on now (none when no Gate may be played)."""
    if state.phase != PLAYING or state.gates_played >= state.gates_allowed:
        return ()
    if state.players[state.current].hand_size == 0:
        return ()
    return grid.legal_cells(state.middle)


def warning(state: EightGates) -> str | None:
    """A sentence before and during the last round, else None; raises nothing."""
    if state.phase != PLAYING:
        return None
    archivist = state.name(state.archivist) if state.archivist is not None else "the Archivist"
    if state.round == state.rounds - 1:
        return f"The next round is the last: after {archivist}'s turn in it, the game ends. Build your Run or Set."
    if state.round == state.rounds:
        return f"Last round: the game ends after {archivist}'s turn. Keep your Run or Set in hand."
    return None


def _archivist_draw(state: EightGates) -> JSON | None:
    if state.phase != ARCHIVIST and not state.deals:
        return None
    deals = [{"contenders": list(deal.contenders), "values": list(deal.values)} for deal in state.deals]
    return {"contenders": list(state.contenders), "deals": deals}


def _player(state: EightGates, seat: int, player: Player) -> JSON:
    return {
        "seat": seat,
        "name": player.name,
        "hand_size": player.hand_size,
        "points": state.points(seat),
        "flipped": player.flipped,
        "archivist": seat == state.archivist,
        "revealed": list(player.revealed) if player.revealed is not None else None,
        "proposal": list(player.proposal) if player.proposal is not None else None,
    }


def _cell(gate: Gate) -> JSON:
    return {"x": gate.x, "y": gate.y, "value": gate.value, "type": gate.type, "ruins": gate.ruins}


def _result(state: EightGates) -> JSON | None:
    found = outcome(state)
    if found is None:
        return None
    return {"winners": list(found.winners), "summary": found.summary, **found.detail}


def outcome(state: EightGates) -> Outcome | None:
    """The result once every hand is revealed, else None; raises nothing."""
    if state.phase != OVER:
        return None
    rows = scoring.standings(state)
    won = scoring.winners(rows)
    top = rows[won[0]]
    level = sum(1 for row in rows if row.total == top.total)
    summary = _summary(listed(state.name(seat) for seat in won), len(won), level, top)
    detail = {
        "totals": [row.total for row in rows],
        "revealed": [list(player.revealed or ()) for player in state.players],
        "series": scoring.series(state),
        "tie_rule": scoring.TIE_RULE,
        "tie_rule_ko": scoring.TIE_RULE_KO,
        "summary_ko": summary.ko,
    }
    return Outcome(won, summary, detail)


def _summary(names: tuple[str, str], winners: int, level: int, top: scoring.Standing) -> Said:
    """The result in both languages (`names`: the winners listed in English and in Korean); raises nothing."""
    english, korean = names
    points, cards = counted(top.total, "point"), counted(top.revealed, "card")
    if winners > 1:
        return Said(f"{english} share the win with {points} ({cards} revealed each).",
                    f"{korean} 공동 승리: {top.total}점 (각자 공개한 카드 {top.revealed}장).")
    if level > 1:
        return Said(f"{english} wins with {points}, the tie broken by {cards} revealed.",
                    f"{korean} 승리: {top.total}점, 공개한 카드 {top.revealed}장으로 동점을 깼습니다.")
    return Said(f"{english} wins with {points}.", f"{korean} 승리: {top.total}점.")
