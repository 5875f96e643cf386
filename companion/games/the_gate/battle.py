"""Battles: declare the attack, reveal the guardian, abilities and one-shots, the clash, its effect."""
from __future__ import annotations

from dataclasses import replace

from companion.games.the_gate.checks import all_of, attack_won, before_clash, no_battle, refuse, your_turn
from companion.games.the_gate.gates import with_gate
from companion.games.the_gate.moves import gate_number
from companion.games.the_gate.state import ATTACK, DEFENCE, MAX_ATTACKERS, ONE_SHOT, Battle, Duel
from companion.games.the_gate.texts import SIDE_NAMES, kind_name, tell
from companion.rules.game import Act
from companion.rules.said import Said, counted
from companion.rules.schema import JSON, array, choice, integer, obj


def attack(state: Duel, act: Act) -> Duel:
    """The battle declared and the guardian revealed; raises IllegalMove for a closed gate, a gate
    already attacked this turn, more than 3 attackers or an attacker with attack 0."""
    number, attackers = act.args["gate"], act.args["attackers"]
    defender = 1 - act.seat
    gate = state.gate(defender, number)
    _check_attack(state, defender, number, attackers)
    total = sum(each["attack"] + each.get("bonus", 0) for each in attackers)
    battle = Battle(act.seat, number, total, len(attackers), gate.guardian)
    state = replace(state, battle=battle, attacked=state.attacked + (number,))
    name, target = state.name(act.seat), state.name(defender)
    count = len(attackers)
    state = tell(state, f"{name} attacks {target}'s gate {number} with {counted(count, 'character')}: attack {total}.",
                 f"{name}: 캐릭터 {count}장으로 {target}의 게이트 {number} 공격 — 공격력 합 {total}.")
    if gate.guardian is None:
        return tell(state, "No guardian: the defence is the gate's level alone.", "가디언 없음: 방어력은 게이트 레벨뿐입니다.")
    return tell(state, f"Guardian revealed: defence {gate.guardian}.", f"가디언 공개: 방어력 {gate.guardian}.")


def _check_attack(state: Duel, defender: int, number: int, attackers: list[dict[str, int]]) -> None:
    target = state.name(defender)
    if state.gate(defender, number).closed:
        raise refuse(f"{target}'s gate {number} is closed: it cannot be attacked.",
                     f"폐문된 게이트는 공격할 수 없습니다 ({target}의 게이트 {number}).")
    if number in state.attacked:
        raise refuse(f"{target}'s gate {number} was already attacked this turn.",
                     f"이번 턴에 이미 공격한 게이트입니다 ({target}의 게이트 {number}).")
    if len(attackers) > MAX_ATTACKERS:
        raise refuse(f"At most {MAX_ATTACKERS} characters attack together, not {len(attackers)}.",
                     f"공격에는 캐릭터를 최대 {MAX_ATTACKERS}장까지 보낼 수 있습니다 ({len(attackers)}장은 안 됩니다).")
    if any(each["attack"] < 1 for each in attackers):
        raise refuse("A character with attack 0 cannot attack (attack must be 1 or more).",
                     "공격력이 0인 캐릭터는 공격할 수 없습니다 (공격력 1 이상).")


def ability(state: Duel, act: Act) -> Duel:
    """The battle with an ability's change to its attack or defence (either player); raises nothing."""
    battle = state.battle
    assert battle is not None
    side, amount = act.args["side"], act.args["amount"]
    battle = _bonus(battle, side, amount)
    english_side, korean_side = SIDE_NAMES[side]
    now = attack_total(battle) if side == ATTACK else defence_total(state, battle)
    name = state.name(act.seat)
    return tell(replace(state, battle=battle), f"{name}: ability, {english_side} {amount:+d} (now {now}).",
                f"{name}: 능력 사용 — {korean_side} {amount:+d} (현재 {now}).")


def use_one_shot(state: Duel, act: Act) -> Duel:
    """The battle with a one-shot from your own gate used and discarded (adding the +X it was attached
    with, unless another is given); raises IllegalMove when none is there."""
    battle = state.battle
    assert battle is not None
    number = act.args["gate"]
    gate = state.gate(act.seat, number)
    index = next((place for place, card in enumerate(gate.reinforcements) if card.kind == ONE_SHOT), None)
    if index is None:
        raise refuse(f"Gate {number} holds no one-shot reinforcement.", f"게이트 {number}에는 일시강화 카드가 없습니다.")
    amount = act.args.get("amount", gate.reinforcements[index].amount)
    cards = gate.reinforcements[:index] + gate.reinforcements[index + 1:]
    state = with_gate(state, act.seat, number, replace(gate, reinforcements=cards))
    side = ATTACK if act.seat == battle.attacker else DEFENCE
    english_side, korean_side = SIDE_NAMES[side]
    name = state.name(act.seat)
    return tell(replace(state, battle=_bonus(battle, side, amount)),
                f"{name} uses a one-shot reinforcement from gate {number} ({english_side} +{amount}); it is discarded.",
                f"{name}: 게이트 {number}의 일시강화 사용 ({korean_side} +{amount}) 후 더그아웃으로.")


def _bonus(battle: Battle, side: str, amount: int) -> Battle:
    if side == ATTACK:
        return replace(battle, attack_bonus=battle.attack_bonus + amount)
    return replace(battle, defence_bonus=battle.defence_bonus + amount)


def attack_total(battle: Battle) -> int:
    """The attack at the clash: attackers with their bonuses, plus abilities; raises nothing."""
    return battle.attack + battle.attack_bonus


def defence_total(state: Duel, battle: Battle) -> int:
    """The defence at the clash: guardian (0 without) + bonuses + the gate's current level; raises nothing."""
    return (battle.guardian or 0) + battle.defence_bonus + state.gate(battle.defender, battle.gate).level


def clash(state: Duel, act: Act) -> Duel:
    """The state after the clash: attack > defence succeeds (1 damage, or a reinforcement removed); raises nothing."""
    battle = state.battle
    assert battle is not None
    level = state.gate(battle.defender, battle.gate).level
    strike, guard = attack_total(battle), defence_total(state, battle)
    parts = f"guardian {battle.guardian or 0}{_signed(battle.defence_bonus)} + level {level}"
    korean_parts = f"가디언 {battle.guardian or 0}{_signed(battle.defence_bonus)} + 레벨 {level}"
    state = tell(state, f"Clash: attack {strike} against defence {guard} ({parts}).",
                 f"충돌: 공격력 {strike} 대 방어력 {guard} ({korean_parts}).")
    if strike <= guard:
        state = tell(state, "The defence holds: nothing happens.", "방어 성공: 아무 일도 일어나지 않습니다.")
        return _end_battle(state)
    if state.gate(battle.defender, battle.gate).reinforcements:
        return tell(replace(state, battle=replace(battle, won=True)),
                    "The attack succeeds: the attacker deals 1 damage or removes one reinforcement card.",
                    "공격 성공: 공격자는 1 데미지를 주거나 강화 카드 1장을 제거합니다.")
    state = tell(state, "The attack succeeds.", "공격 성공.")
    return _damage(state)


def _signed(amount: int) -> str:
    return f" {amount:+d}" if amount else ""


def deal_damage(state: Duel, act: Act) -> Duel:
    """The won clash deals 1 damage to the gate; raises nothing."""
    return _damage(state)


def _damage(state: Duel) -> Duel:
    battle = state.battle
    assert battle is not None
    gate = state.gate(battle.defender, battle.gate)
    gate = replace(gate, damage=gate.damage + 1)
    state = with_gate(state, battle.defender, battle.gate, gate)
    target, total = state.name(battle.defender), state.summoners[battle.defender].damage_taken
    state = tell(state, f"{target}'s gate {battle.gate} takes 1 damage ({gate.damage}/{gate.capacity}); {total}/7 damage in all.",
                 f"{target}의 게이트 {battle.gate}에 1 데미지 ({gate.damage}/{gate.capacity}); 총 {total}/7 데미지.")
    return _end_battle(state)


def remove_reinforcement(state: Duel, act: Act) -> Duel:
    """The state with one reinforcement card (1 = the first attached) removed by the won clash; raises nothing."""
    battle = state.battle
    assert battle is not None
    gate = state.gate(battle.defender, battle.gate)
    place = act.args["card"]
    card = gate.reinforcements[place - 1]
    cards = gate.reinforcements[:place - 1] + gate.reinforcements[place:]
    state = with_gate(state, battle.defender, battle.gate, replace(gate, reinforcements=cards))
    english_kind, korean_kind = kind_name(card.kind)
    name, target = state.name(battle.attacker), state.name(battle.defender)
    state = tell(state, f"{name} removes a {english_kind} +{card.amount} reinforcement from {target}'s gate {battle.gate}.",
                 f"{name}: {target}의 게이트 {battle.gate}에서 {korean_kind} +{card.amount} 카드 제거.")
    return _end_battle(state)


def _end_battle(state: Duel) -> Duel:
    battle = state.battle
    assert battle is not None
    gate = state.gate(battle.defender, battle.gate)
    state = with_gate(state, battle.defender, battle.gate, replace(gate, guardian=None))
    state = replace(state, battle=None)
    return tell(state, "The battle is over: the attackers and the guardian go to their owners' discard piles.",
                "전투 종료: 공격한 캐릭터와 가디언은 각자의 더그아웃으로 갑니다.")


def _target_open(state: Duel, seat: int) -> str | None:
    defender = 1 - seat
    if any(not gate.closed and number not in state.attacked
           for number, gate in enumerate(state.summoners[defender].gates, start=1)):
        return None
    target = state.name(defender)
    return Said(f"None of {target}'s gates can be attacked any more this turn.",
                f"이번 턴에 더 공격할 수 있는 {target}의 게이트가 없습니다.")


def _has_reinforcement(state: Duel, seat: int) -> str | None:
    battle = state.battle
    if battle is not None and state.gate(battle.defender, battle.gate).reinforcements:
        return None
    return Said("The gate holds no reinforcement card to remove.", "제거할 강화 카드가 없습니다.")


def _holds_one_shot(state: Duel, seat: int) -> str | None:
    if any(card.kind == ONE_SHOT for gate in state.summoners[seat].gates for card in gate.reinforcements):
        return None
    return Said("None of your gates holds a one-shot reinforcement.", "일시강화 카드가 부착된 게이트가 없습니다.")


def _attacker_only(state: Duel, seat: int) -> str | None:
    return your_turn(state, seat)


def _guardian_on_guard(state: Duel, seat: int) -> str | None:
    """None unless the defender acts for a gate with no guardian: "만약 가디언이 없다면 가디언 공개 단계를 생략하고
    바로 공격자 능력사용 단계로 넘어갑니다." (the guardian's ability step, where the defender's abilities and
    one-shots go, is skipped); raises nothing."""
    battle = state.battle
    if battle is None or battle.guardian is not None or seat != battle.defender:
        return None
    return Said("No guardian on the attacked gate: the guardian's ability step is skipped, so the defender uses no "
                "ability or one-shot; the defence is the gate's level alone.",
                "공격받은 게이트에 가디언이 없습니다: 가디언 능력 사용 단계를 생략하므로 방어자는 능력도 일시강화도 쓸 수 "
                "없습니다. 방어력은 게이트 레벨뿐입니다.")


can_attack = all_of(your_turn, no_battle, _target_open)
can_use_ability = all_of(before_clash, _guardian_on_guard)
can_use_one_shot = all_of(before_clash, _guardian_on_guard, _holds_one_shot)
can_clash = all_of(before_clash, _attacker_only)
can_remove = all_of(attack_won, _has_reinforcement)
can_deal_damage = attack_won


def attack_args(state: Duel, seat: int) -> JSON:
    """The attack's arguments: the opponent's gate and the attackers' attack and bonus; raises nothing."""
    attacker = obj({"attack": integer(0, 20, "attack"), "bonus": integer(0, 20, "reinforcement bonus")}, ("attack",))
    return obj({"gate": gate_number(), "attackers": array(attacker, 1, 6, "attackers")}, ("gate", "attackers"))


def ability_args(state: Duel, seat: int) -> JSON:
    """An ability's arguments: which side it changes and by how much; raises nothing."""
    return obj({"side": choice((ATTACK, DEFENCE), "side"), "amount": integer(-20, 20, "change")}, ("side", "amount"))


def one_shot_args(state: Duel, seat: int) -> JSON:
    """A one-shot's arguments: your gate it is attached to and what it adds to your side (left out: the +X
    it was attached with); raises nothing."""
    return obj({"gate": gate_number(), "amount": integer(0, 9, "+X")}, ("gate",))


def removal_args(state: Duel, seat: int) -> JSON:
    """Which reinforcement card to remove, counted from the first attached; raises nothing."""
    battle = state.battle
    count = len(state.gate(battle.defender, battle.gate).reinforcements) if battle is not None else 1
    return obj({"card": integer(1, max(1, count), "reinforcement card")}, ("card",))
