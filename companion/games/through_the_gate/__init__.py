"""Through The Gate (Jonathan Leistiko): hourglasses, speed, the roll checks and the scoring."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Hashable

from companion.games.through_the_gate import checks, korean, scoring, words
from companion.games.through_the_gate.moves import MOVES
from companion.games.through_the_gate.state import (
    COMPETITIVE,
    FIRST_ROLL,
    ICE_QUEEN,
    PLAYING,
    SCORING,
    SOLO,
    Explorer,
    TheGate,
)
from companion.games.through_the_gate.turns import begin_turn, record_first_roll, rolling_for_first
from companion.games.through_the_gate.views import records, view
from companion.rules.game import DiceRequest, Game, Outcome, Roll, Setup, say
from companion.rules.said import Said
from companion.rules.schema import choice, integer, obj

OPTIONS = obj(
    {
        "variant": {**choice([COMPETITIVE, ICE_QUEEN], "variant"), "default": COMPETITIVE,
                    "description": "competitive (one player: Adventuring Alone), or Against the Ice Queen (cooperative, 1 to 5)"},
        "hourglasses": {**integer(1, 999, "hourglasses per player"), "default": 5,
                        "description": "How Long? variant: any number from 1"},
    }
)


def setup(given: Setup) -> TheGate:
    """A new game: hourglasses dealt, then the high-roll for first player (none for one player, who may
    also face the Ice Queen: her teal cards start at "1 player = 2 🗡️"); raises nothing."""
    count = len(given.players)
    variant = given.options["variant"]
    if variant == COMPETITIVE and count == 1:
        variant = SOLO
    explorers = tuple(Explorer(name, given.options["hourglasses"]) for name in given.players)
    state = TheGate(mode=variant, explorers=explorers, phase=FIRST_ROLL, contenders=tuple(range(count)))
    if count == 1:
        alone = (Said("Against the Ice Queen, alone: the targets for 1 player.", "혼자서 얼음 여왕에 맞섭니다: 1인 목표입니다.")
                 if variant == ICE_QUEEN else Said("Adventuring alone.", "혼자 모험합니다."))
        return begin_turn(say(replace(state, phase=PLAYING, contenders=()), alone))
    return say(state, Said("High roll goes first: everyone rolls the die in turn.",
                           "가장 높은 눈이 선 플레이어입니다: 모두 차례로 주사위를 굴리세요."))


def awaiting_dice(state: TheGate) -> DiceRequest | None:
    """The roll the table waits for (roll-off or a card's check), or None; raises nothing."""
    roller = rolling_for_first(state)
    if roller is not None:
        name = state.name(roller)
        return DiceRequest((6,), Said(f"{name} rolls for first player.", f"{name}의 선 플레이어 정하기 굴림입니다."), (roller,))
    check = state.check
    if state.phase == PLAYING and check is not None and check.awaiting:
        name, (title, title_ko) = state.name(check.player), words.check_title(check.kind)
        why = Said(f"{name}: {title} (speed {check.speed}).", f"{name}: {title_ko} (속도 {check.speed}).")
        return DiceRequest((6,), why, (check.player,))
    return None


def on_dice(state: TheGate, roll: Roll) -> TheGate:
    """The state after the awaited die landed; raises nothing (the engine checked the roll)."""
    if state.phase == FIRST_ROLL:
        return record_first_roll(state, roll.values[0])
    check = checks.add_roll(state.check, roll.values[0])  # type: ignore[arg-type]
    return say(replace(state, check=check), words.verdict(check))


def whose_turn(state: TheGate) -> tuple[int, ...]:
    """The seats expected to act now; raises nothing."""
    if state.finished:
        return ()
    if state.phase == FIRST_ROLL:
        roller = rolling_for_first(state)
        return (roller,) if roller is not None else ()
    if state.phase == SCORING:
        return tuple(range(len(state.explorers)))
    return (state.current,)


def turn_key(state: TheGate) -> Hashable:
    """What identifies the current turn, for undo; raises nothing."""
    return (state.phase, state.turn, len(state.contenders))


def outcome(state: TheGate) -> Outcome | None:
    """The result once the scores are final, else None; raises nothing."""
    if not state.finished:
        return None
    if state.mode == COMPETITIVE:
        return _competitive_outcome(state)
    return _team_outcome(state)


def _competitive_outcome(state: TheGate) -> Outcome:
    rows = scoring.standings(state.explorers)
    won = scoring.winners(rows)
    summary = words.competitive_result((state.name(seat) for seat in won), len(rows[won[0]].victories))
    detail = {"victories": [list(row.victories) for row in rows], "totals": [row.totals for row in rows],
              "wilds": [list(row.wilds) for row in rows], "tie_rule": scoring.TIE_RULE, "tie_rule_ko": korean.TIE_RULE,
              "summary_ko": summary.ko}
    return Outcome(won, summary, detail)


def _team_outcome(state: TheGate) -> Outcome:
    team = scoring.combined(state.explorers)
    met, split = scoring.targets_met(team, len(state.explorers))
    summary = words.solo_result(len(met)) if state.mode == SOLO else words.ice_queen_result(len(met))
    detail: dict[str, Any] = {"targets_met": list(met), "wilds": list(split), "totals": scoring.totals(team, split),
                              "mode": state.mode, "summary_ko": summary.ko}
    if state.mode == SOLO:
        detail["tallies"] = scoring.totals(team, split)
        return Outcome((0,), summary, detail)
    won = tuple(range(len(state.explorers))) if scoring.ice_queen_band(len(met)) != scoring.QUEEN_WINS else ()
    return Outcome(won, summary, detail)


GAME: Game[TheGate] = Game(
    id="through-the-gate",
    title="Through The Gate",
    min_players=1,
    max_players=5,
    options=OPTIONS,
    setup=setup,
    moves=MOVES,
    whose_turn=whose_turn,
    turn_key=turn_key,
    outcome=outcome,
    view=view,
    awaiting_dice=awaiting_dice,
    on_dice=on_dice,
    records=records,
    summary="Hourglass tokens, speed and roll checks; 1–5 explorers and one d6.",
)

