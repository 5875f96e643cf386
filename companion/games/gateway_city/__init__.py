"""Gateway (the city), Sean Andrew Murray's deck-builder: district control, VP, phases, the event
deck and the battle calculator, for 2–3 players."""
from __future__ import annotations

from typing import Hashable

from companion.games.gateway_city.moves import MOVES
from companion.games.gateway_city.state import (
    EVENT,
    GUARD,
    Card,
    City,
    District,
    Faction,
)
from companion.games.gateway_city.views import view, whose_turn
from companion.games.gateway_city.words import josa
from companion.rules.errors import BadInput
from companion.rules.game import Game, Outcome, Setup, say
from companion.rules.said import Said, in_korean
from companion.rules.schema import JSON, array, boolean, integer, obj, text

DEFAULT_TOKENS = ("1", "2", "3", "4", "5", "6", "X", "X")
DISTRICTS_FOR = {2: 4, 3: 6}


def _option(schema: JSON, default: object, description: str) -> JSON:
    return {**schema, "default": default, "description": description}


OPTIONS = obj({
    "event_cards_1": _option(integer(0, 40, "Event Cards I"), 5, "how many cards the Event Cards I pile holds"),
    "event_cards_2": _option(integer(0, 40, "Event Cards II"), 5, "how many cards the Event Cards II pile holds"),
    "event_cards_3": _option(integer(0, 40, "Event Cards III"), 5, "how many cards the Event Cards III pile holds"),
    "starting_player": _option(integer(0, 2, "starting player"), 0, "the seat who claimed first"),
    "last_winner": _option(integer(-1, 2, "last game's winner"), -1,
                           "over several games: the seat who won the last one (the player to their right "
                           "starts; overrides starting_player); -1 for none"),
    "district_names": _option(array(text(24), 0, 6, "district names"), [], "the district boards' names, clockwise"),
    "event_tokens": _option(array(text(8), 1, 12, "district tokens"), list(DEFAULT_TOKENS),
                            "the district tokens (X: a free space), dealt clockwise one at a time"),
    "shuffle_tokens": _option(boolean("shuffle the tokens"), True, "false: deal them in the order given"),
    "guard_attack": _option(integer(0, 20, "starting City Guard attack"), 2, "each district's first City Guard"),
    "guard_defence": _option(integer(1, 20, "starting City Guard defence"), 2, "each district's first City Guard"),
    "guard_vp": _option(integer(0, 10, "starting City Guard VP"), 1, "each district's first City Guard"),
})


def setup(given: Setup) -> City:
    """A new game: districts with a City Guard each and their tokens, the event deck, the starting
    player; raises BadInput for an empty event deck or a seat not at the table."""
    options = given.options
    count = len(given.players)
    sizes = (options["event_cards_1"], options["event_cards_2"], options["event_cards_3"])
    if sum(sizes) == 0:
        raise BadInput("The event deck needs at least one card.")
    starting = _starting_player(options["starting_player"], options["last_winner"], count)
    districts = _districts(given, DISTRICTS_FOR[count])
    state = City(tuple(Faction(name) for name in given.players), districts, sizes, sizes,
                 starting=starting, starting_by_rule=options["last_winner"] >= 0, current=starting)
    state = say(state, Said(f"{len(districts)} districts, each with a City Guard; {sum(sizes)} event cards.",
                            f"구역 {len(districts)}개에 시 경비대가 하나씩 있고, 이벤트 카드는 {sum(sizes)}장입니다."))
    name = state.name(starting)
    return say(state, Said(f"{name} is the starting player: Deployment phase.",
                           f"{josa(name, '이/가')} 시작 플레이어입니다: 배치 단계."))


def _starting_player(claimed: int, last_winner: int, count: int) -> int:
    if last_winner >= count:
        raise BadInput(f"last_winner must be a seat from 0 to {count - 1}, or -1.")
    if last_winner >= 0:
        return (last_winner - 1) % count
    if claimed >= count:
        raise BadInput(f"starting_player must be a seat from 0 to {count - 1}.")
    return claimed


def _districts(given: Setup, count: int) -> tuple[District, ...]:
    options = given.options
    tokens = list(options["event_tokens"])
    if options["shuffle_tokens"]:
        given.rng.shuffle(tokens)
    names = list(options["district_names"])
    guard = Card(GUARD, options["guard_attack"], options["guard_defence"], options["guard_vp"], "City Guard")
    return tuple(
        District(number, names[number - 1] if number <= len(names) else f"District {number}",
                 tuple(tokens[number - 1::count]), cards=(guard,))
        for number in range(1, count + 1)
    )


def turn_key(state: City) -> Hashable:
    """What identifies the current turn, for undo: the round and the player (or the event draw); raises
    nothing."""
    return (state.round, EVENT if state.phase == EVENT else state.current)


def outcome(state: City) -> Outcome | None:
    """The result once an end condition is met, else None; raises nothing."""
    if state.finish is None:
        return None
    detail = {"reason": state.finish.reason, "vp": [faction.vp for faction in state.factions], "round": state.round,
              "summary_ko": in_korean(state.finish.message)}  # the message said in Korean
    return Outcome(state.finish.winners, state.finish.message, detail)


GAME: Game[City] = Game(
    id="gateway-city",
    title="Gateway: the city",
    min_players=2,
    max_players=3,
    options=OPTIONS,
    setup=setup,
    moves=MOVES,
    whose_turn=whose_turn,
    turn_key=turn_key,
    outcome=outcome,
    view=view,
    next_move="next_phase",
    summary="District control, VP, the four phases, the event deck and the battle calculator; 2–3 players.",
)
