"""A card's roll check begun: its kind, its roller, its speed, and a second condition on the same die."""
from __future__ import annotations

from dataclasses import replace

from companion.games.through_the_gate import checks, words
from companion.games.through_the_gate.state import Check, TheGate
from companion.rules.errors import IllegalMove
from companion.rules.game import Act, say
from companion.rules.said import Said

DECLARE_FIRST = Said("Declare your speed first.", "먼저 속도를 선언하세요.")


def start_check(state: TheGate, act: Act) -> TheGate:
    """The card's roll check begun for its roller, against the speed (zero off their turn); raises IllegalMove
    before a speed is declared or for a second condition that does not pair."""
    player = act.args.get("player", state.current)
    speed = state.effective_speed if player == state.current else 0
    if speed is None:
        raise IllegalMove(DECLARE_FIRST)
    check = Check(act.args["kind"], player, speed, also=_second_condition(act.args))
    note, note_ko = ("", "") if player == state.current else (" (not their turn: speed is zero)", " (자기 차례가 아니므로 속도 0)")
    name, (title, title_ko) = state.name(player), words.check_title(check.kind)
    if check.also is not None:
        also, also_ko = words.check_title(check.also)
        title, title_ko = f"{title} and {also}, on the same die", f"{title_ko} 그리고 {also_ko}, 같은 주사위로"
    return say(replace(state, check=check), Said(words.stopped(f"{name}: {title}{note}"),
                                                 words.stopped(f"{name}: {title_ko}{note_ko}")))


def _second_condition(args: dict[str, str]) -> str | None:
    """A card's second condition on the same die ("If it is a six, … If it is less than your speed, …"), or
    None; raises IllegalMove unless both are yes/no conditions and differ."""
    also = args.get("also")
    if also is None:
        return None
    if args["kind"] not in checks.YES_NO or also == args["kind"]:
        raise IllegalMove(Said("A second condition on the same die goes with another yes/no check (<, >, = 6, = speed).",
                               "같은 주사위의 두 번째 조건은 다른 예/아니오 판정(<, >, = 6, = 속도)과 함께만 쓸 수 있습니다."))
    return also
