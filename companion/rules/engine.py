"""The pure engine: start a game, apply one input, list the legal moves. No I/O, no clocks."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.rules.errors import (
    BadInput,
    CompanionError,
    GameOver,
    IllegalMove,
    NoRollExpected,
    NothingToUndo,
    NotYourTurn,
    WrongDice,
)
from companion.rules.game import Act, Game, Roll, Setup, say
from companion.rules.names import check_name
from companion.rules.said import Said
from companion.rules.schema import JSON, validate
from companion.rules.table import MAX_UNDO, LastRoll, Table, Taken

MAX_NAME = 24
GAME_OVER = "This game is over; start a new one."
NO_ROLL_EXPECTED = "No roll is expected right now."
NOTHING_TO_UNDO = "There is no move of this turn to take back (a roll is never undone)."
MAX_DIE_SIDES = 100


def rng_for(seed: int, seq: int) -> random.Random:
    """A random source fixed by the game's journaled seed and the input's number; raises nothing."""
    return random.Random(f"{seed}:{seq}")


def start(game: Game[Any], request: StartGame) -> Table:
    """Set a new game up; raises BadInput for bad players or options."""
    players = check_players(game, request.players)
    options = check_options(game, request.options)
    state = game.setup(Setup(players, options, rng_for(request.seed, 0)))
    return Table(game.id, players, tuple(sorted(options.items())), request.seed, state)


def check_players(game: Game[Any], players: Any) -> tuple[str, ...]:
    """The players' names, checked; raises BadInput naming what is wrong."""
    if not isinstance(players, (list, tuple)):
        raise BadInput("players must be a list of names.")
    if not game.min_players <= len(players) <= game.max_players:
        raise BadInput(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {len(players)}."
        )
    names = tuple(_check_name(name) for name in players)
    if len({name.casefold() for name in names}) != len(names):  # as same_name() sees them
        raise BadInput("Each player needs a different name.")
    return names


def same_name(one: str, other: str) -> bool:
    """Whether two names are the same player's, as the table sees names (spaces and case aside); raises nothing."""
    return " ".join(one.split()).casefold() == " ".join(other.split()).casefold()


def _check_name(name: Any) -> str:
    """The tidied name; raises BadInput when neither today's rule (what people see: companion/rules/names.py; the
    web checks it before a game starts) nor the older one that journals already hold names by accepts it."""
    try:
        return check_name(name, MAX_NAME)
    except BadInput:
        if not _accepted_before(name):
            raise
        return " ".join(name.split())  # a game journaled before names were judged by what people see replays as it was


def _accepted_before(name: Any) -> bool:
    """Whether the rule before names.py accepted the name (printable text of at most MAX_NAME characters); raises
    nothing."""
    clean = " ".join(name.split()) if isinstance(name, str) else ""
    return bool(clean) and len(clean) <= MAX_NAME and clean.isprintable()


def check_options(game: Game[Any], options: Any) -> dict[str, Any]:
    """The game's options with defaults filled in; raises BadInput naming the bad option."""
    if options is None:
        options = {}
    validate(options, game.options, "options")
    defaults = {key: spec["default"] for key, spec in game.options.get("properties", {}).items() if "default" in spec}
    return {**defaults, **dict(options)}


def apply(table: Table, game: Game[Any], given: Input) -> Table:
    """The table after one input; raises a CompanionError (table unchanged) when it is refused."""
    if isinstance(given, Move):
        return _apply_move(table, game, given)
    if isinstance(given, DiceRolled):
        _check_roller(table, game, table.state, given.seat)
        return _apply_roll(table, game, Roll(tuple(given.values), tuple(given.sides), tuple(given.origins)))
    if isinstance(given, CorrectDice):
        _check_roller(table, game, table.last_roll.before if table.last_roll else table.state, given.seat)
        return _correct_roll(table, game, Roll(tuple(given.values), tuple(given.sides)))
    if isinstance(given, Undo):
        _check_undoer(table, given.seat)
        return _undo(table, game)
    raise BadInput(f"The table cannot take a {type(given).__name__} here.")


def _apply_move(table: Table, game: Game[Any], move: Move) -> Table:
    _refuse_after_end(table, game)
    rule = game.move(move.move)
    if rule is None:
        raise BadInput(f"{game.title} has no move called {move.move!r}.")
    _check_seat(table, move.seat)
    reason = rule.why_not(table.state, move.seat)
    if reason is not None:
        error = NotYourTurn if move.seat not in game.whose_turn(table.state) else IllegalMove
        raise error(reason)
    validate(dict(move.args), rule.schema(table.state, move.seat), "args")
    act = Act(move.seat, dict(move.args), rng_for(table.seed, table.seq + 1))
    state = rule.apply(table.state, act)
    same_turn = game.turn_key(state) == game.turn_key(table.state)
    in_turn = move.seat in game.whose_turn(table.state)
    ends = game.outcome(state) is not None  # a mis-tapped last move must not decide the game
    if rule.undoable and (same_turn and in_turn or ends):
        undo = (*table.undo, Taken(move.seat, table.state))[-MAX_UNDO:]
    elif same_turn and not in_turn:  # another player's fact: it stands through this turn's undo
        undo = tuple(_made_again(table, game, taken, move.move, act) for taken in table.undo)
    else:
        undo = ()
    return replace(table, state=state, seq=table.seq + 1, undo=undo)


def _check_seat(table: Table, seat: Any) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.players):
        raise BadInput(f"seat must be a number from 0 to {len(table.players) - 1}, not {seat!r}.")


def _check_roller(table: Table, game: Game[Any], state: Any, seat: int | None) -> None:
    """A seat may enter only a roll awaited from it (None: camera, button, host); raises NotYourTurn."""
    request = game.awaiting_dice(state)
    if seat is None or request is None or not request.seats or seat in request.seats:
        return
    who = " or ".join(table.players[each] for each in request.seats)
    raise NotYourTurn(f"This roll is {who}'s to make.")


def _check_undoer(table: Table, seat: int | None) -> None:
    """A seat may take back only its own last move (None: button or host, whoever made it); raises NotYourTurn."""
    if seat is None or not table.undo or table.undo[-1].seat == seat:
        return
    who = table.players[table.undo[-1].seat]
    raise NotYourTurn(f"The last move was {who}'s: only {who} (or the host) can take it back.")


def _refuse_after_end(table: Table, game: Game[Any]) -> None:
    if game.outcome(table.state) is not None:
        raise GameOver(GAME_OVER)


def check_roll(table: Table, game: Game[Any], roll: Roll) -> None:
    """Check a roll against the one awaited; raises NoRollExpected, WrongDice or BadInput."""
    request = game.awaiting_dice(table.state)
    if request is None:
        raise NoRollExpected(NO_ROLL_EXPECTED)
    if len(roll.values) != len(roll.sides):
        raise BadInput("Give one number of sides for every die value.")
    for sides in roll.sides:
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
            raise BadInput(f"A die has a whole number of sides, 2 or more, not {sides!r:.20}.")
    if sorted(roll.sides) != sorted(request.sides):
        raise WrongDice(f"Expecting {describe_dice(request.sides)}, got {describe_dice(roll.sides)}.")
    for value, sides in zip(roll.values, roll.sides):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise BadInput(f"A d{sides} shows 1 to {sides}, not {value!r}.")


def describe_dice(sides: tuple[int, ...]) -> str:
    """'1 d6' or '2 dice (d8, d6)'; raises nothing."""
    if len(sides) == 1:
        return f"1 die (d{sides[0]})"
    return f"{len(sides)} dice ({', '.join(f'd{count}' for count in sides)})"


def _apply_roll(table: Table, game: Game[Any], roll: Roll) -> Table:
    _refuse_after_end(table, game)
    check_roll(table, game, roll)
    roll = _in_request_order(table, game, roll)
    seq = table.seq + 1
    state = game.on_dice(table.state, roll)
    return replace(table, state=state, seq=seq, undo=(), last_roll=LastRoll(roll, table.state, seq))


def _in_request_order(table: Table, game: Game[Any], roll: Roll) -> Roll:
    """The roll reordered so its sides follow the request (a d8 + d6 given as d6 + d8)."""
    request = game.awaiting_dice(table.state)
    if request is None or sorted(roll.sides) != sorted(request.sides):
        return roll
    origins = roll.origins if len(roll.origins) == len(roll.values) else ("",) * len(roll.values)
    dice = list(zip(roll.sides, roll.values, origins))
    ordered = []
    for sides in request.sides:
        match = next(die for die in dice if die[0] == sides)
        dice.remove(match)
        ordered.append(match)
    return Roll(tuple(die[1] for die in ordered), tuple(die[0] for die in ordered), tuple(die[2] for die in ordered))


def _correct_roll(table: Table, game: Game[Any], roll: Roll) -> Table:
    """The table with its last roll replaced (even one that ended the game: a mistyped last die must not
    decide it); raises GameOver, IllegalMove, NoRollExpected, WrongDice or BadInput."""
    last = table.last_roll
    if last is None or last.seq != table.seq:
        _refuse_after_end(table, game)
        raise IllegalMove("Only the last roll can be corrected, and only before anything else happens.")
    before = replace(table, state=last.before)
    check_roll(before, game, roll)
    roll = _sourced(_in_request_order(before, game, roll), last.roll)
    state = game.on_dice(last.before, roll)
    old = ", ".join(map(str, last.roll.values))
    new = ", ".join(map(str, roll.values))
    if hasattr(state, "log"):
        state = say(state, Said(f"Roll corrected: {old} → {new}.", f"굴림 정정: {old} → {new}."))
    seq = table.seq + 1
    return replace(table, state=state, seq=seq, undo=(), last_roll=LastRoll(roll, last.before, seq))


def _sourced(corrected: Roll, misread: Roll) -> Roll:
    """The corrected roll; a die whose value stands keeps its origin, a changed one is 'corrected'; raises nothing."""
    def origin(index: int) -> str:
        kept = index < len(misread.values) and (misread.values[index], misread.sides[index]) == (
            corrected.values[index], corrected.sides[index])
        return misread.origin(index) if kept else "corrected"

    return replace(corrected, origins=tuple(origin(index) for index in range(len(corrected.values))))


def _undo(table: Table, game: Game[Any]) -> Table:
    """The table before its last undoable move (after the end, only the move that ended it), the moves made out of
    turn since made again; raises GameOver, NothingToUndo, IllegalMove when one of those would not stand without it
    (nothing is taken back then)."""
    if not table.undo:
        _refuse_after_end(table, game)
        raise NothingToUndo(NOTHING_TO_UNDO)
    taken = table.undo[-1]
    if taken.held_by is not None:
        who = table.players[taken.held_by]
        raise IllegalMove(f"{who}'s move since then depends on it, so it cannot be taken back.")
    state = taken.again
    if hasattr(state, "log"):
        state = say(state, Said("Last move taken back.", "마지막 행동을 되돌렸습니다."))
    return replace(table, state=state, seq=table.seq + 1, undo=table.undo[:-1])


def _made_again(table: Table, game: Game[Any], taken: Taken, move: str, act: Act) -> Taken:
    """The undo kept for a move of this turn with a move made out of turn since made again on the state it gives back
    (once, as it comes: never replayed), or held by that move's seat when it would not stand there; raises nothing."""
    if taken.held_by is not None:
        return taken
    rule = game.move(move)
    try:
        if rule is None or rule.why_not(taken.again, act.seat) is not None:
            raise IllegalMove("not allowed")
        validate(act.args, rule.schema(taken.again, act.seat), "args")
        again = rule.apply(taken.again, Act(act.seat, dict(act.args), rng_for(table.seed, table.seq + 1)))
        return replace(taken, again=again)
    except CompanionError:
        return replace(taken, held_by=act.seat)


def legal_moves(table: Table, game: Game[Any]) -> list[JSON]:
    """Every move some seat may make now, with its argument schema; raises nothing."""
    if game.outcome(table.state) is not None:
        return []
    found: list[JSON] = []
    for seat in range(len(table.players)):
        for rule in game.moves:
            if rule.why_not(table.state, seat) is None:
                found.append({"seat": seat, "move": rule.name, "title": rule.title, "args": rule.schema(table.state, seat)})
    return found


def can_correct(table: Table) -> bool:
    """Whether the last roll may still be corrected (nothing has happened since); raises nothing."""
    return table.last_roll is not None and table.last_roll.seq == table.seq


def can_undo(table: Table, game: Game[Any], seat: int | None = None) -> bool:
    """Whether an Undo from `seat` (None: button or host) would be accepted now, at a cost that does not grow with the
    moves made out of turn since; raises nothing."""
    if not table.undo:  # after the end, the undo kept is the move that ended the game
        return False
    taken = table.undo[-1]
    return (seat is None or taken.seat == seat) and taken.held_by is None  # what others did since must stand without it


def replay(game_for: Any, inputs: list[Input]) -> Table | None:
    """The table rebuilt from a game's journaled inputs, oldest first; raises CompanionError."""
    table: Table | None = None
    for given in inputs:
        if isinstance(given, StartGame):
            table = start(game_for(given.game), given)
        elif table is not None:
            table = apply(table, game_for(table.game), given)
    return table
