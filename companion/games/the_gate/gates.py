"""Gate arithmetic: replacing a gate, closing the gates that are full, and the win check."""
from __future__ import annotations

from dataclasses import replace

from companion.games.the_gate.state import CLOSED_TO_WIN, DAMAGE_TO_WIN, OVER, Duel, Gate, Summoner
from companion.games.the_gate.texts import tell
from companion.rules.game import say
from companion.rules.said import Said

DAMAGE = "damage"
CLOSED = "closed"


def with_gate(state: Duel, seat: int, number: int, gate: Gate) -> Duel:
    """The state with a player's gate (numbered 1–4) replaced; raises IndexError for a bad seat."""
    summoner = state.summoners[seat]
    gates = summoner.gates[:number - 1] + (gate,) + summoner.gates[number:]
    summoners = list(state.summoners)
    summoners[seat] = replace(summoner, gates=gates)
    return replace(state, summoners=(summoners[0], summoners[1]))


def closed(gate: Gate) -> Gate:
    """The gate closed: its reinforcements removed, no guardian; its damage stays; raises nothing."""
    return replace(gate, closed=True, reinforcements=(), guardian=None)


def settle(state: Duel) -> Duel:
    """The state after any change: full gates closed, then the win checked; raises nothing."""
    for seat in (0, 1):
        for number, gate in enumerate(state.summoners[seat].gates, start=1):
            if not gate.closed and gate.damage >= gate.capacity:
                state = _close(state, seat, number)
    return _check_win(state)


def _close(state: Duel, seat: int, number: int) -> Duel:
    state = with_gate(state, seat, number, closed(state.gate(seat, number)))
    name, count = state.name(seat), state.summoners[seat].closed_gates
    return tell(state, f"{name}'s gate {number} is closed: its reinforcements are removed ({count}/{CLOSED_TO_WIN} closed).",
                f"{name}의 게이트 {number} 폐문: 부착된 강화 카드를 모두 제거합니다 (폐문 {count}/{CLOSED_TO_WIN}).")


def _check_win(state: Duel) -> Duel:
    if state.winner is not None:
        return state
    for seat in (state.current, 1 - state.current):
        loser = state.summoners[1 - seat]
        reason = winning_reason(loser)
        if reason is not None:
            return _declare(state, seat, reason)
    return state


def winning_reason(loser: Summoner) -> str | None:
    """Why the opponent of this summoner has won ('damage' or 'closed'), or None; raises nothing."""
    if loser.damage_taken >= DAMAGE_TO_WIN:
        return DAMAGE
    if loser.closed_gates >= CLOSED_TO_WIN:
        return CLOSED
    return None


def result(winner: str, loser: str, reason: str) -> Said:
    """How `winner` beat `loser` (`reason`: DAMAGE or CLOSED), in both languages: the log's last line and the
    game's result; raises nothing."""
    if reason == DAMAGE:
        return Said(f"{winner} wins: {loser}'s gates have taken {DAMAGE_TO_WIN} damage.",
                    f"{winner} 승리: {loser}의 게이트에 총 {DAMAGE_TO_WIN} 데미지를 입혔습니다.")
    return Said(f"{winner} wins: {CLOSED_TO_WIN} of {loser}'s gates are closed.",
                f"{winner} 승리: {loser}의 게이트 {CLOSED_TO_WIN}개를 폐문시켰습니다.")


def _declare(state: Duel, seat: int, reason: str) -> Duel:
    state = replace(state, phase=OVER, winner=seat, win_reason=reason, battle=None)
    return say(state, result(state.name(seat), state.name(1 - seat), reason))
