"""The moves of Through The Gate: who may make each now, its arguments and its effect."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.through_the_gate import checks, scoring, words
from companion.games.through_the_gate.state import (
    COMPETITIVE,
    PLAYING,
    SCORING,
    SUITS,
    TALLIES,
    TheGate,
)
from companion.games.through_the_gate.rolls import DECLARE_FIRST, start_check
from companion.games.through_the_gate.turns import change_hourglasses, end_turn, set_explorer
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, MoveRule, first_reason, say
from companion.rules.said import Said, listed
from companion.rules.schema import JSON, choice, integer, obj

Reason = Callable[[TheGate, int], "str | None"]
COMPANION_BONUS = "companion_bonus"
LOWEST_SUIT = -99  # ♥ ♠ ♣ net of cards such as "Switching Fate (-1 ♥)" can be below 0


def your_turn(state: TheGate, seat: int) -> str | None:
    """None when it is this seat's turn to play, else why not; raises nothing."""
    if state.phase != PLAYING:
        return Said("That can only be done during a turn.", "차례 중에만 할 수 있습니다.")
    if seat != state.current:
        name = state.name(state.current)
        return Said(f"It is {name}'s turn.", f"{name}의 차례입니다.")
    return None


def _no_roll_pending(state: TheGate, seat: int) -> str | None:
    if state.check is not None and state.check.awaiting:
        return Said("A roll is pending: roll the die first (or undo the check).",
                    "굴림을 기다리는 중입니다: 먼저 주사위를 굴리세요 (또는 판정을 되돌리세요).")
    return None


def _speed_open(state: TheGate, seat: int) -> str | None:
    if state.speed is None:
        return None
    return Said(f"Speed is already {state.speed} this turn; undo to change it.",
                f"이번 차례 속도는 이미 {state.speed}입니다. 바꾸려면 되돌리세요.")


def _speed_set(state: TheGate, seat: int) -> str | None:
    return DECLARE_FIRST if state.speed is None else None


def _turn_or_roller(state: TheGate, seat: int) -> str | None:
    """None for the player whose turn it is and for the player rolling the check (a Shortcut check on
    someone else's turn: their own cards change their own roll), else why not; raises nothing."""
    check = state.check
    return None if check is not None and seat == check.player and state.phase == PLAYING else your_turn(state, seat)


def _during_play(state: TheGate, seat: int) -> str | None:
    """None during a turn: any seat may play a ★ card or Silver Apples on the pending check ("★: Subtract two
    from a [die]" is played on another player's roll), else why not; raises nothing."""
    return None if state.phase == PLAYING else Said("That can only be done during a turn.", "차례 중에만 할 수 있습니다.")


def _has_check(state: TheGate, seat: int) -> str | None:
    return Said("There is no roll check this turn to change.", "이번 차례에 바꿀 판정 굴림이 없습니다.") if state.check is None else None


def _check_rolled(state: TheGate, seat: int) -> str | None:
    if state.check is None or not state.check.dice or state.check.awaiting:
        return Said("There is no rolled die to re-roll.", "다시 굴릴 주사위가 없습니다.")
    return None


def _not_quick(state: TheGate, seat: int) -> str | None:
    return Said("The Quickness Potion is already in effect.", "신속의 물약이 이미 적용 중입니다.") if state.quick else None


def _scoring(state: TheGate, seat: int) -> str | None:
    if state.phase == SCORING and not state.finished:
        return None
    return Said("Scoring starts when nobody has an hourglass left.", "모래시계가 남은 사람이 없을 때 점수 계산을 시작합니다.")


def _splits_settled(state: TheGate, seat: int) -> str | None:
    seats = scoring.best_splits(state.explorers).contested if state.mode == COMPETITIVE else ()
    if not seats:
        return None
    names, names_ko = listed(state.name(each) for each in seats)
    return Said(f"The best wild splits of {names} depend on each other, so none is best for all: "
                "place those wilds by hand (Place wilds), then the scores can be final.",
                f"{names_ko}의 최적 와일드 배분이 서로 얽혀 있어 모두에게 가장 좋은 배분이 없습니다: "
                "그 와일드를 직접 배치하면(와일드 배치) 점수를 확정할 수 있습니다.")


def _diaries_entered(state: TheGate, seat: int) -> str | None:
    missing = [each.name for each in state.explorers if not each.diary_entered]
    if not missing:
        return None
    names, names_ko = listed(missing)
    return Said(f"Waiting for the diary tallies of {names} (zeros are an entry too); then the scores can be final.",
                f"{names_ko}의 일기 집계를 기다리는 중입니다 (0도 입력입니다). 그 뒤에 점수를 확정할 수 있습니다.")


def _competitive_scoring(state: TheGate, seat: int) -> str | None:
    if state.mode != COMPETITIVE:
        return Said("Wilds are placed for the team's targets automatically in this mode.",
                    "이 모드에서는 와일드가 팀의 목표에 맞게 자동으로 배치됩니다.")
    return _scoring(state, seat)


def _still_playing(state: TheGate, seat: int) -> str | None:
    return Said("The scores are final.", "점수가 이미 확정되었습니다.") if state.finished else None


def _player(state: TheGate, seat: int) -> JSON:
    return integer(0, len(state.explorers) - 1, "player")


def _declare_speed(state: TheGate, act: Act) -> TheGate:
    speed = act.args["speed"]
    name = state.name(act.seat)
    return say(replace(state, speed=speed), Said(f"{name} declares speed {speed}.", f"{name}이(가) 속도를 선언합니다: {speed}."))


def _quickness(state: TheGate, act: Act) -> TheGate:
    check = state.check
    if check is not None and check.awaiting and check.player == state.current:  # its roll is judged at speed 2 too
        state = replace(state, check=replace(check, speed=2))
    return say(replace(state, quick=True), Said("Quickness Potion: speed is 2 until the end of the turn.",
                                                "신속의 물약: 차례가 끝날 때까지 속도는 2입니다."))


def _modify(state: TheGate, act: Act) -> TheGate:
    amount = checks.MODIFIERS[act.args["card"]][0]
    title, title_ko = words.card_title(act.args["card"])
    check = state.check
    assert check is not None
    own = _turn_or_roller(state, act.seat) if act.args["card"] == COMPANION_BONUS else None
    if own is not None:  # a companion helps its own leader's challenges only
        raise IllegalMove(own)
    index = act.args["die"] - 1 if "die" in act.args else None
    if index is not None and index >= len(check.dice):
        rolled = len(check.dice)
        raise IllegalMove(Said(f"{rolled} {'die is' if rolled == 1 else 'dice are'} rolled so far in this check; "
                               "pick one of them to modify.",
                               f"이 판정에서 지금까지 굴린 주사위는 {rolled}개입니다. 그중 하나를 골라 수정하세요."))
    check = checks.modify(check, amount, index)
    name = state.name(act.seat)
    state = say(replace(state, check=check), Said(f"{name} plays {title}.", f"{name}: {title_ko}."))
    return say(state, words.verdict(check)) if not check.awaiting else state


def _reroll(state: TheGate, act: Act) -> TheGate:
    check = state.check
    assert check is not None
    index = act.args.get("die", len(check.dice)) - 1
    if index >= len(check.dice):
        raise IllegalMove(Said(f"This check has {len(check.dice)} dice; pick one of them to re-roll.",
                               f"이 판정의 주사위는 {len(check.dice)}개입니다. 그중 하나를 골라 다시 굴리세요."))
    speed = state.effective_speed if check.player == state.current else check.speed  # a Quickness Potion counts
    name = state.name(act.seat)
    again = Said(f"{name} plays Silver Apples: re-roll the die.", f"{name}: 은사과: 주사위를 다시 굴리세요.")
    return say(replace(state, check=replace(check, reroll_index=index, speed=speed)), again)


def _gain(state: TheGate, act: Act) -> TheGate:
    player = act.args.get("player", act.seat)
    name = state.name(player)
    return say(change_hourglasses(state, player, 1), Said(f"{name} gains an hourglass.", f"{name}: 모래시계 1개를 얻습니다."))


def _lose(state: TheGate, act: Act) -> TheGate:
    player = act.args["player"]
    name = state.name(player)
    return say(change_hourglasses(state, player, -1), Said(f"{name} loses an hourglass (never below 0).",
                                                           f"{name}: 모래시계 1개를 잃습니다 (0개 아래로는 줄지 않습니다)."))


def _everyone_gains(state: TheGate, act: Act) -> TheGate:
    for seat in range(len(state.explorers)):
        state = change_hourglasses(state, seat, 1)
    return say(state, Said("The Fantastic Hourglass: every player gains an hourglass.",
                           "환상의 모래시계: 모든 플레이어가 모래시계 1개를 얻습니다."))


def _pick_random(state: TheGate, act: Act) -> TheGate:
    picked = act.rng.randrange(len(state.explorers))
    name = state.name(picked)
    line = Said(f"Randomly selected (seeded draw, logged): {name}.", f"무작위 선택 (시드 추첨, 기록됨): {name}.")
    return say(replace(state, random_pick=picked), line)


def _eclipse(state: TheGate, act: Act) -> TheGate:
    flipped = not state.reverse_at_end
    line = (Said("Eclipse: play reverses direction at the end of this turn.", "일식: 이번 차례가 끝나면 진행 방향이 바뀝니다.")
            if flipped else Said("A second Eclipse cancels the reversal.", "두 번째 일식으로 방향 전환이 취소됩니다."))
    return say(replace(state, reverse_at_end=flipped), line)


def _end_turn(state: TheGate, act: Act) -> TheGate:
    return end_turn(state)


def _set_tallies(state: TheGate, act: Act) -> TheGate:
    explorer = state.explorers[act.seat]
    tallies = replace(explorer.tallies, **dict(act.args))
    wilds = explorer.wilds if tallies.wild == explorer.tallies.wild else None
    state = set_explorer(state, act.seat, replace(explorer, tallies=tallies, wilds=wilds, diary_entered=True))
    shown, shown_ko = words.tallies(act.args, TALLIES) if act.args else ("entered, nothing changed", "입력함, 바뀐 것 없음")
    return say(state, Said(f"{explorer.name}'s diary: {shown}.", f"{explorer.name}의 일기: {shown_ko}."))


def _choose_wilds(state: TheGate, act: Act) -> TheGate:
    explorer = state.explorers[act.seat]
    split = (act.args["compassion"], act.args["strength"], act.args["wisdom"])
    if sum(split) != explorer.tallies.wild:
        raise IllegalMove(Said(f"{explorer.name} has {explorer.tallies.wild} wilds; place exactly that many.",
                               f"{explorer.name}의 와일드는 {explorer.tallies.wild}개입니다. 정확히 그만큼 배치하세요."))
    state = set_explorer(state, act.seat, replace(explorer, wilds=split))
    placed = f"♥ {split[0]}, ♠ {split[1]}, ♣ {split[2]}"
    return say(state, Said(f"{explorer.name} places wilds: {placed}.", f"{explorer.name}의 와일드 배치: {placed}."))


def _auto_wilds(state: TheGate, act: Act) -> TheGate:
    state = set_explorer(state, act.seat, replace(state.explorers[act.seat], wilds=None))
    name = state.name(act.seat)
    return say(state, Said(f"{name}'s wilds go back to the best split.", f"{name}의 와일드가 최적 배분으로 돌아갑니다."))


def _finish(state: TheGate, act: Act) -> TheGate:
    return say(replace(state, finished=True), Said("Scores are final.", "점수를 확정했습니다."))


def _tally_args(state: TheGate, seat: int) -> JSON:
    return obj({key: integer(LOWEST_SUIT if key in SUITS else 0, 999, key) for key in TALLIES})


def _wild_args(state: TheGate, seat: int) -> JSON:
    wild = state.explorers[seat].tallies.wild
    return obj({suit: integer(0, wild, suit) for suit in ("compassion", "strength", "wisdom")}, ("compassion", "strength", "wisdom"))


def _check_args(state: TheGate, seat: int) -> JSON:
    return obj({"kind": choice(checks.CHECKS, "check"), "player": _player(state, seat),
                "also": choice(checks.YES_NO, "and, on the same die")}, ("kind",))


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
    MoveRule("check", "Roll check", start_check, first_reason(your_turn, _speed_set, _no_roll_pending), _check_args),
    MoveRule("modify", "Modify the roll", _modify, first_reason(_during_play, _has_check),
             _modify_args),
    MoveRule("reroll", "Re-roll (Silver Apples)", _reroll, first_reason(_during_play, _check_rolled), _reroll_args),
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

