"""The Gate's moves outside battles: the first player, summon, guardians, reinforce, end turn."""
from __future__ import annotations

from dataclasses import replace

from companion.games.the_gate.checks import all_of, no_battle, refuse, your_turn
from companion.games.the_gate.gates import with_gate
from companion.games.the_gate.state import GATES, KINDS, PLAYING, TOP_LEVEL, Duel, Gate, Reinforcement
from companion.games.the_gate.texts import kind_name, refill_reminder, tell
from companion.rules.game import Act
from companion.rules.said import Said
from companion.rules.schema import JSON, choice, integer, obj

HEADS, TAILS = "heads", "tails"


def gate_number() -> JSON:
    """The schema of a gate's number, 1 to 4; raises nothing."""
    return integer(1, GATES, "gate number")


def toss_coin(state: Duel, act: Act) -> Duel:
    """The state after the companion's coin toss (seeded, so replay agrees; heads: seat 0 starts); raises nothing."""
    side = act.rng.choice((HEADS, TAILS))
    first = 0 if side == HEADS else 1
    name = state.name(first)
    korean_side = "앞면" if side == HEADS else "뒷면"
    state = tell(replace(state, coin=side), f"Coin toss (the companion's seeded draw): {side} — {name} goes first.",
                 f"동전 던지기 (컴패니언의 기록된 난수): {korean_side} — 선은 {name}입니다.")
    return _begin(state, first)


def choose_first(state: Duel, act: Act) -> Duel:
    """The table chose the first player (after rock–paper–scissors); raises nothing."""
    first = act.args["player"]
    name = state.name(first)
    state = tell(state, f"{name} goes first (chosen after rock–paper–scissors).", f"가위바위보 결과 선은 {name}입니다.")
    return _begin(state, first)


def _begin(state: Duel, first: int) -> Duel:
    second = 1 - first
    state = replace(state, phase=PLAYING, first=first, current=first, turn=1)
    return tell(state, f"{state.name(first)} holds 1 summoner and draws 2; {state.name(second)} holds 1 summoner and draws 5.",
                f"선 {state.name(first)}: 소환사 1장을 들고 2장 드로우. 후 {state.name(second)}: 소환사 1장을 들고 5장 드로우.")


def summon(state: Duel, act: Act) -> Duel:
    """The gate's level set to the card now on top; raises IllegalMove for the last card or a lower level."""
    number, level = act.args["gate"], act.args["level"]
    gate = state.gate(act.seat, number)
    if gate.last_card_only:
        raise refuse(f"Only gate {number}'s last card is left: it cannot be summoned (the summon fizzles).",
                     f"게이트 {number}에는 마지막 카드만 남았습니다: 소환할 수 없습니다 (소환 불발).")
    if level < gate.level:
        raise refuse(f"Gate {number} is at level {gate.level}; the card now on top cannot be lower (lowest level on top).",
                     f"게이트 {number}의 레벨은 {gate.level}입니다: 새로 위에 놓인 카드의 레벨은 더 낮을 수 없습니다.")
    last = gate.level == TOP_LEVEL
    state = with_gate(state, act.seat, number, replace(gate, level=level, last_card_only=last))
    name = state.name(act.seat)
    english = f"{name} summons from gate {number}: level {gate.level} → {level}."
    korean = f"{name}: 게이트 {number}에서 소환 — 레벨 {gate.level} → {level}."
    if last:
        english += " Only the gate's last card is left; it cannot be summoned."
        korean += " 이 게이트에는 소환할 수 없는 마지막 카드만 남았습니다."
    if gate.closed:
        english += " The gate stays closed."
        korean += " 폐문된 게이트는 다시 열리지 않습니다."
    return tell(state, english, korean)


def place_guardian(state: Duel, act: Act) -> Duel:
    """The state with a face-down guardian; raises IllegalMove for a closed or guarded gate or defence 0."""
    number, defence = act.args["gate"], act.args["defence"]
    gate = _guardable(state, act.seat, number, defence)
    if gate.guardian is not None:
        raise refuse(f"Gate {number} already has a guardian (one per gate): swap it instead.",
                     f"게이트 {number}에는 이미 가디언이 있습니다 (게이트당 1장): 가디언 교체를 하세요.")
    state = with_gate(state, act.seat, number, replace(gate, guardian=defence))
    name = state.name(act.seat)
    return tell(state, f"{name} places a guardian face down in front of gate {number}.",
                f"{name}: 게이트 {number} 앞에 가디언을 뒷면으로 배치.")


def swap_guardian(state: Duel, act: Act) -> Duel:
    """The state with a gate's guardian replaced; raises IllegalMove for a closed or unguarded gate or defence 0."""
    number, defence = act.args["gate"], act.args["defence"]
    gate = _guardable(state, act.seat, number, defence)
    if gate.guardian is None:
        raise refuse(f"Gate {number} has no guardian to swap.", f"게이트 {number}에는 교체할 가디언이 없습니다.")
    state = with_gate(state, act.seat, number, replace(gate, guardian=defence))
    name = state.name(act.seat)
    return tell(state, f"{name} swaps the guardian of gate {number}.", f"{name}: 게이트 {number}의 가디언 교체.")


def _guardable(state: Duel, seat: int, number: int, defence: int) -> Gate:
    gate = state.gate(seat, number)
    if gate.closed:
        raise refuse(f"Gate {number} is closed: it cannot hold a guardian.", f"폐문된 게이트 {number} 앞에는 가디언을 배치할 수 없습니다.")
    if defence < 1:
        raise refuse("A character without defence cannot guard a gate.", "방어력이 없는 캐릭터는 가디언으로 배치할 수 없습니다.")
    return gate


def reinforce(state: Duel, act: Act) -> Duel:
    """The state with a reinforcing card under your gate; raises IllegalMove for a closed or full gate."""
    number, kind, amount = act.args["gate"], act.args["kind"], act.args.get("amount", 0)
    gate = state.gate(act.seat, number)
    if gate.closed:
        raise refuse(f"Gate {number} is closed: it can no longer be reinforced.", f"폐문된 게이트 {number}: 더 이상 강화할 수 없습니다.")
    if len(gate.reinforcements) >= gate.level:
        raise refuse(f"Gate {number} is at level {gate.level}: it holds at most {gate.level} reinforcement cards.",
                     f"게이트 {number}의 레벨은 {gate.level}: 강화 카드는 최대 {gate.level}장까지 부착할 수 있습니다.")
    cards = gate.reinforcements + (Reinforcement(kind, amount),)
    state = with_gate(state, act.seat, number, replace(gate, reinforcements=cards))
    english_kind, korean_kind = kind_name(kind)
    name = state.name(act.seat)
    return tell(replace(state, reinforced=True),
                f"{name} reinforces gate {number}: {english_kind} +{amount} ({len(cards)}/{gate.level} cards).",
                f"{name}: 게이트 {number} 강화 — {korean_kind} +{amount} ({len(cards)}/{gate.level}장).")


def end_turn(state: Duel, act: Act) -> Duel:
    """The other player's turn, once the refill is done on the table; raises nothing."""
    english, korean = refill_reminder()
    name = state.name(act.seat)
    state = tell(state, f"{name} ends the turn. {english}", f"{name}: 턴 종료. {korean}")
    following = 1 - act.seat
    state = replace(state, current=following, turn=state.turn + 1, reinforced=False, attacked=())
    return tell(state, f"{state.name(following)}'s turn.", f"{state.name(following)}의 턴.")


def _not_reinforced(state: Duel, seat: int) -> str | None:
    if not state.reinforced:
        return None
    return Said("You already reinforced this turn (once a turn).", "이번 턴에는 이미 강화했습니다 (한 턴에 한 번).")


can_act = all_of(your_turn, no_battle)
can_reinforce = all_of(your_turn, no_battle, _not_reinforced)


def summon_args(state: Duel, seat: int) -> JSON:
    """The summon's arguments: the gate and the level of the card now on top; raises nothing."""
    return obj({"gate": gate_number(), "level": integer(1, TOP_LEVEL, "level now on top")}, ("gate", "level"))


def guardian_args(state: Duel, seat: int) -> JSON:
    """A guardian's arguments: the gate and its defence (with its bonuses); raises nothing."""
    return obj({"gate": gate_number(), "defence": integer(0, 20, "guardian defence")}, ("gate", "defence"))


def reinforce_args(state: Duel, seat: int) -> JSON:
    """A reinforcement's arguments: the gate, its kind and its +X; raises nothing."""
    return obj({"gate": gate_number(), "kind": choice(KINDS, "kind"), "amount": integer(0, 9, "+X")}, ("gate", "kind"))


def first_player_args(state: Duel, seat: int) -> JSON:
    """Who goes first, by seat; raises nothing."""
    return obj({"player": integer(0, 1, "first player")}, ("player",))
