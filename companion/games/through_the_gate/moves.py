"""The moves of Through The Gate: who may make each now, its arguments and its effect."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.through_the_gate import checks, scoring
from companion.games.through_the_gate.state import (
    COMPETITIVE,
    PLAYING,
    SCORING,
    TALLIES,
    Check,
    TheGate,
)
from companion.games.through_the_gate.turns import change_hourglasses, end_turn, set_explorer
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, first_reason, say
from companion.rules.schema import JSON, choice, integer, obj

Reason = Callable[[TheGate, int], "str | None"]


def your_turn(state: TheGate, seat: int) -> str | None:
    """None when it is this seat's turn to play, else why not; raises nothing."""
    if state.phase != PLAYING:
        return "That can only be done during a turn."
    if seat != state.current:
        return f"It is {state.name(state.current)}'s turn."
    return None


def _no_roll_pending(state: TheGate, seat: int) -> str | None:
    if state.check is not None and state.check.awaiting:
        return "A roll is pending: roll the die first (or undo the check)."
    return None


def _speed_open(state: TheGate, seat: int) -> str | None:
    return f"Speed is already {state.speed} this turn; undo to change it." if state.speed is not None else None


def _speed_set(state: TheGate, seat: int) -> str | None:
    return "Declare your speed first." if state.speed is None else None


def _turn_or_roller(state: TheGate, seat: int) -> str | None:
    """None for the player whose turn it is and for the player rolling the check (a Shortcut check on
    someone else's turn: their own cards change their own roll), else why not; raises nothing."""
    check = state.check
    return None if check is not None and seat == check.player and state.phase == PLAYING else your_turn(state, seat)


def _has_check(state: TheGate, seat: int) -> str | None:
    return "There is no roll check this turn to change." if state.check is None else None


def _check_rolled(state: TheGate, seat: int) -> str | None:
    if state.check is None or not state.check.dice or state.check.awaiting:
        return "There is no rolled die to re-roll."
    return None


def _not_quick(state: TheGate, seat: int) -> str | None:
    return "The Quickness Potion is already in effect." if state.quick else None


def _scoring(state: TheGate, seat: int) -> str | None:
    return None if state.phase == SCORING and not state.finished else "Scoring starts when nobody has an hourglass left."


def _splits_settled(state: TheGate, seat: int) -> str | None:
    seats = scoring.best_splits(state.explorers).contested if state.mode == COMPETITIVE else ()
    if not seats:
        return None
    names = " and ".join(state.name(each) for each in seats)
    return (f"The best wild splits of {names} depend on each other, so none is best for all: "
            "place those wilds by hand (Place wilds), then the scores can be final.")


def _diaries_entered(state: TheGate, seat: int) -> str | None:
    missing = [each.name for each in state.explorers if not each.diary_entered]
    if not missing:
        return None
    names = " and ".join(missing)
    return f"Waiting for the diary tallies of {names} (zeros are an entry too); then the scores can be final."


def _competitive_scoring(state: TheGate, seat: int) -> str | None:
    if state.mode != COMPETITIVE:
        return "Wilds are placed for the team's targets automatically in this mode."
    return _scoring(state, seat)


def _still_playing(state: TheGate, seat: int) -> str | None:
    return "The scores are final." if state.finished else None


def _player(state: TheGate, seat: int) -> JSON:
    return integer(0, len(state.explorers) - 1, "player")


def _declare_speed(state: TheGate, act: Act) -> TheGate:
    speed = act.args["speed"]
    return say(replace(state, speed=speed), f"{state.name(act.seat)} declares speed {speed}.")


def _quickness(state: TheGate, act: Act) -> TheGate:
    check = state.check
    if check is not None and check.awaiting and check.player == state.current:  # its roll is judged at speed 2 too
        state = replace(state, check=replace(check, speed=2))
    return say(replace(state, quick=True), "Quickness Potion: speed is 2 until the end of the turn.")


def _start_check(state: TheGate, act: Act) -> TheGate:
    player = act.args.get("player", state.current)
    speed = state.effective_speed if player == state.current else 0
    if speed is None:
        raise IllegalMove("Declare your speed first.")
    check = Check(act.args["kind"], player, speed)
    note = "" if player == state.current else " (not their turn: speed is zero)"
    return say(replace(state, check=check), f"{state.name(player)}: {checks.CHECK_TITLES[check.kind]}{note}.")


def _modify(state: TheGate, act: Act) -> TheGate:
    amount, title = checks.MODIFIERS[act.args["card"]]
    check = state.check
    assert check is not None
    index = act.args["die"] - 1 if "die" in act.args else None
    if index is not None and index >= len(check.dice):
        rolled = len(check.dice)
        raise IllegalMove(f"{rolled} {'die is' if rolled == 1 else 'dice are'} rolled so far in this check; "
                          "pick one of them to modify.")
    check = checks.modify(check, amount, index)
    state = say(replace(state, check=check), f"{title}.")
    return say(state, checks.verdict(check)) if not check.awaiting else state


def _reroll(state: TheGate, act: Act) -> TheGate:
    check = state.check
    assert check is not None
    index = act.args.get("die", len(check.dice)) - 1
    if index >= len(check.dice):
        raise IllegalMove(f"This check has {len(check.dice)} dice; pick one of them to re-roll.")
    speed = state.effective_speed if check.player == state.current else check.speed  # a Quickness Potion counts
    return say(replace(state, check=replace(check, reroll_index=index, speed=speed)), "Silver Apples: re-roll the die.")


def _gain(state: TheGate, act: Act) -> TheGate:
    player = act.args.get("player", act.seat)
    return say(change_hourglasses(state, player, 1), f"{state.name(player)} gains an hourglass.")


def _lose(state: TheGate, act: Act) -> TheGate:
    player = act.args["player"]
    return say(change_hourglasses(state, player, -1), f"{state.name(player)} loses an hourglass (never below 0).")


def _everyone_gains(state: TheGate, act: Act) -> TheGate:
    for seat in range(len(state.explorers)):
        state = change_hourglasses(state, seat, 1)
    return say(state, "The Fantastic Hourglass: every player gains an hourglass.")


def _pick_random(state: TheGate, act: Act) -> TheGate:
    picked = act.rng.randrange(len(state.explorers))
    line = f"Randomly selected (seeded draw, logged): {state.name(picked)}."
    return say(replace(state, random_pick=picked), line)


def _eclipse(state: TheGate, act: Act) -> TheGate:
    flipped = not state.reverse_at_end
    line = "Eclipse: play reverses direction at the end of this turn." if flipped else "A second Eclipse cancels the reversal."
    return say(replace(state, reverse_at_end=flipped), line)


def _end_turn(state: TheGate, act: Act) -> TheGate:
    return end_turn(state)


def _set_tallies(state: TheGate, act: Act) -> TheGate:
    explorer = state.explorers[act.seat]
    tallies = replace(explorer.tallies, **dict(act.args))
    wilds = explorer.wilds if tallies.wild == explorer.tallies.wild else None
    state = set_explorer(state, act.seat, replace(explorer, tallies=tallies, wilds=wilds, diary_entered=True))
    shown = ", ".join(f"{key} {act.args[key]}" for key in TALLIES if key in act.args)
    return say(state, f"{explorer.name}'s diary: {shown}.")


def _choose_wilds(state: TheGate, act: Act) -> TheGate:
    explorer = state.explorers[act.seat]
    split = (act.args["compassion"], act.args["strength"], act.args["wisdom"])
    if sum(split) != explorer.tallies.wild:
        raise IllegalMove(f"{explorer.name} has {explorer.tallies.wild} wilds; place exactly that many.")
    state = set_explorer(state, act.seat, replace(explorer, wilds=split))
    return say(state, f"{explorer.name} places wilds: ♥ {split[0]}, ♠ {split[1]}, ♣ {split[2]}.")


def _auto_wilds(state: TheGate, act: Act) -> TheGate:
    state = set_explorer(state, act.seat, replace(state.explorers[act.seat], wilds=None))
    return say(state, f"{state.name(act.seat)}'s wilds go back to the best split.")


def _finish(state: TheGate, act: Act) -> TheGate:
    return say(replace(state, finished=True), "Scores are final.")


def _tally_args(state: TheGate, seat: int) -> JSON:
    return obj({key: integer(0, 999, key) for key in TALLIES})


def _wild_args(state: TheGate, seat: int) -> JSON:
    wild = state.explorers[seat].tallies.wild
    return obj({suit: integer(0, wild, suit) for suit in ("compassion", "strength", "wisdom")}, ("compassion", "strength", "wisdom"))


def _check_args(state: TheGate, seat: int) -> JSON:
    return obj({"kind": choice(checks.CHECKS, "check"), "player": _player(state, seat)}, ("kind",))


def _modify_args(state: TheGate, seat: int) -> JSON:
    count = state.check.needed if state.check else 1
    return obj({"card": choice(tuple(checks.MODIFIERS), "card"), "die": integer(1, count, "which die (left out: the next)")},
               ("card",))


def _reroll_args(state: TheGate, seat: int) -> JSON:
    count = state.check.needed if state.check else 1
    return obj({"die": integer(1, count, "which die")})


def _one_player(required: bool) -> Callable[[TheGate, int], JSON]:
    return lambda state, seat: obj({"player": _player(state, seat)}, ("player",) if required else ())


MOVES: tuple[MoveRule[TheGate], ...] = (
    MoveRule("declare_speed", "Declare speed", _declare_speed, first_reason(your_turn, _speed_open, _no_roll_pending),
             lambda state, seat: obj({"speed": integer(2, 7, "speed")}, ("speed",))),
    MoveRule("check", "Roll check", _start_check, first_reason(your_turn, _speed_set, _no_roll_pending), _check_args),
    MoveRule("modify", "Modify the roll", _modify, first_reason(_turn_or_roller, _has_check),
             _modify_args),
    MoveRule("reroll", "Re-roll (Silver Apples)", _reroll, first_reason(_turn_or_roller, _check_rolled), _reroll_args),
    MoveRule("quickness_potion", "Quickness Potion", _quickness, first_reason(your_turn, _speed_set, _not_quick)),
    MoveRule("gain_hourglass", "+1 hourglass", _gain, your_turn, _one_player(False), weight=0.05),
    MoveRule("lose_hourglass", "−1 hourglass", _lose, your_turn, _one_player(True)),
    MoveRule("everyone_gains_hourglass", "The Fantastic Hourglass", _everyone_gains, your_turn, weight=0.02),
    MoveRule("pick_random_player", "Pick a random player", _pick_random, your_turn, undoable=False),  # no drawing again
    MoveRule("eclipse", "Eclipse (reverse at end of turn)", _eclipse, your_turn),
    MoveRule("end_turn", "End turn", _end_turn, first_reason(your_turn, _no_roll_pending), undoable=False, weight=4.0),
    MoveRule("set_tallies", "Diary tallies", _set_tallies, _still_playing, _tally_args, weight=0.3),
    MoveRule("choose_wilds", "Place wilds", _choose_wilds, _competitive_scoring, _wild_args),
    MoveRule("auto_wilds", "Best wild split", _auto_wilds, _competitive_scoring),
    MoveRule("finish_scoring", "Scores are final", _finish, first_reason(_scoring, _diaries_entered, _splits_settled),
             undoable=False,
             weight=0.3),
)

