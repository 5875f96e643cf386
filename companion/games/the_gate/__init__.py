"""The Gate (게이트): a two-player summoning card game; the companion keeps the gates and settles battles."""
from __future__ import annotations

from typing import Callable, Hashable

from companion.games.the_gate import battle, moves
from companion.games.the_gate.checks import choosing_first
from companion.games.the_gate.gates import result, settle
from companion.games.the_gate.state import CHOOSING_FIRST, GATES, OVER, PLAYING, TOP_LEVEL, Duel, Gate, Summoner
from companion.games.the_gate.texts import tell
from companion.games.the_gate.views import view
from companion.rules.game import Act, Game, MoveRule, Outcome, Setup
from companion.rules.schema import integer, obj

OPTIONS = obj(
    {
        "starting_level": {**integer(1, TOP_LEVEL, "starting gate level"), "default": 2,
                           "description": "the level on top of each gate once the level-1 characters are taken out for the deck"},
    }
)


def setup(given: Setup) -> Duel:
    """A new game: four open gates each, no damage; the first player is chosen next; raises nothing."""
    level = given.options["starting_level"]
    summoners = tuple(Summoner(name, tuple(Gate(level) for _ in range(GATES))) for name in given.players)
    state = Duel((summoners[0], summoners[1]), CHOOSING_FIRST)
    return tell(state, "Who goes first? Toss the coin here, or choose after rock–paper–scissors.",
                "선을 정하세요: 여기서 동전을 던지거나, 가위바위보 후 선택하세요.")


def settled(apply: Callable[[Duel, Act], Duel]) -> Callable[[Duel, Act], Duel]:
    """A move's effect followed by closing full gates and the win check; raises what apply raises."""
    def apply_and_settle(state: Duel, act: Act) -> Duel:
        return settle(apply(state, act))

    return apply_and_settle


def whose_turn(state: Duel) -> tuple[int, ...]:
    """The seats expected to act now (either player while choosing the first); raises nothing."""
    if state.phase == CHOOSING_FIRST:
        return (0, 1)
    return (state.current,) if state.phase == PLAYING else ()


def turn_key(state: Duel) -> Hashable:
    """What identifies the current turn, for undo; raises nothing."""
    return (state.phase, state.turn)


def outcome(state: Duel) -> Outcome | None:
    """The winner once 7 damage or 2 closed gates are reached on the other side, else None; raises nothing."""
    if state.phase != OVER or state.winner is None:
        return None
    summary = result(state.name(state.winner), state.name(1 - state.winner), state.win_reason)
    detail = {"reason": state.win_reason, "summary_ko": summary.ko,
              "damage_taken": [each.damage_taken for each in state.summoners],
              "closed_gates": [each.closed_gates for each in state.summoners]}
    return Outcome((state.winner,), summary, detail)


MOVES: tuple[MoveRule[Duel], ...] = (
    MoveRule("toss_coin", "Toss the coin", settled(moves.toss_coin), choosing_first, undoable=False),
    MoveRule("choose_first", "First player (rock–paper–scissors)", settled(moves.choose_first), choosing_first,
             moves.first_player_args, undoable=False),
    MoveRule("summon", "Summon", settled(moves.summon), moves.can_act, moves.summon_args, weight=0.3),
    MoveRule("place_guardian", "Place a guardian", settled(moves.place_guardian), moves.can_act, moves.guardian_args, weight=0.5),
    MoveRule("swap_guardian", "Swap a guardian", settled(moves.swap_guardian), moves.can_act, moves.guardian_args, weight=0.2),
    MoveRule("reinforce", "Reinforce", settled(moves.reinforce), moves.can_reinforce, moves.reinforce_args, weight=0.5),
    # An attack reveals the guardian and a clash settles the battle: facts, like a roll, never taken back.
    MoveRule("attack", "Attack a gate", settled(battle.attack), battle.can_attack, battle.attack_args, undoable=False,
             weight=3.0),
    MoveRule("ability", "Ability (change attack or defence)", settled(battle.ability), battle.can_use_ability,
             battle.ability_args, weight=0.3),
    MoveRule("use_one_shot", "Use a one-shot reinforcement", settled(battle.use_one_shot), battle.can_use_one_shot,
             battle.one_shot_args, weight=0.3),
    MoveRule("clash", "Clash", settled(battle.clash), battle.can_clash, undoable=False, weight=3.0),
    MoveRule("deal_damage", "Deal 1 damage", settled(battle.deal_damage), battle.can_deal_damage, weight=2.0),
    MoveRule("remove_reinforcement", "Remove a reinforcement", settled(battle.remove_reinforcement), battle.can_remove,
             battle.removal_args),
    MoveRule("end_turn", "End turn", settled(moves.end_turn), moves.can_act, undoable=False, weight=1.0),
)

GAME: Game[Duel] = Game(
    id="the-gate",
    title="The Gate (게이트)",
    min_players=2,
    max_players=2,
    options=OPTIONS,
    setup=setup,
    moves=MOVES,
    whose_turn=whose_turn,
    turn_key=turn_key,
    outcome=outcome,
    view=view,
    summary="Two summoners, four gates each: levels, guardians, reinforcements, battles; win at 7 damage or 2 closed gates.",
)
