"""A finished (or unfinished) game replayed from the journal, step by step: the table as it was after each
input, who rolled which dice, and who started."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from companion.games import game_for
from companion.journal.records import Entry
from companion.rules import engine
from companion.rules.errors import CompanionError
from companion.rules.game import Game
from companion.rules.inputs import CorrectDice, DiceRolled, Move, StartGame, Undo
from companion.rules.table import Table
from companion.table.snapshot import Extras, LastDice, snapshot


@dataclass(frozen=True)
class Rolled:
    """One roll: the seat it is credited to (None: several seats or none), its dice and where each came from."""

    seat: int | None
    values: tuple[int, ...]
    sides: tuple[int, ...]
    origins: tuple[str, ...]
    """Per die: 'camera', 'phone', …, or 'corrected' for a correction's dice (as the dice counts say it)."""


@dataclass
class Replayed:
    """What a replay found: the tables after each step, the dice each seat rolled, the start player."""

    tables: list[Table] = field(default_factory=list)
    rolled: list[Rolled] = field(default_factory=list)
    """Every roll of the game, oldest first (a correction replaces the roll it corrects, for the same seat)."""
    start_player: int | None = None


def replay(entries: Iterable[Entry], games: Mapping[str, Game[Any]], *, keep_tables: bool = True) -> Replayed:
    """Replay a game's entries with the rules; raises CompanionError when an entry is refused."""
    found = Replayed()
    table: Table | None = None
    for entry in entries:
        given = entry.input
        if isinstance(given, StartGame):
            table = engine.start(game_for(games, given.game), given)
        elif table is not None:
            game = game_for(games, table.game)
            _note(found, table, game, given, entry.source)
            table = engine.apply(table, game, given)
        if keep_tables and table is not None:
            found.tables.append(table)
    return found


def _note(found: Replayed, table: Table, game: Game[Any], given: Any, source: str) -> None:
    """Note who rolls a roll and who makes the game's first move in turn; raises nothing."""
    if isinstance(given, Move) and found.start_player is None and tuple(game.whose_turn(table.state)) == (given.seat,):
        found.start_player = given.seat
    if isinstance(given, CorrectDice) and found.rolled and table.last_roll is not None:
        seat = found.rolled.pop().seat
        found.rolled.append(Rolled(seat, tuple(given.values), tuple(given.sides), ("corrected",) * len(given.values)))
    elif isinstance(given, (DiceRolled, CorrectDice)):
        found.rolled.append(Rolled(roller(table, game, given.seat), tuple(given.values), tuple(given.sides),
                                   die_origins(given, source)))


def die_origins(given: DiceRolled | CorrectDice, source: str) -> tuple[str, ...]:
    """Where each die of a roll came from, as the dice counts take it: a correction's dice are 'corrected', a die
    without an origin of its own has the entry's source; raises nothing."""
    if isinstance(given, CorrectDice):
        return ("corrected",) * len(given.values)
    return tuple(given.origins[index] if index < len(given.origins) else source for index in range(len(given.values)))


def roller(table: Table, game: Game[Any], entered_by: int | None) -> int | None:
    """The seat a roll is for: the seat that entered it, else the one seat the table waits on (None: several or
    none); raises nothing."""
    if entered_by is not None:
        return entered_by
    request = game.awaiting_dice(table.state)
    seats = tuple(request.seats) if request is not None and request.seats else tuple(game.whose_turn(table.state))
    return seats[0] if len(seats) == 1 else None


def step_snapshot(entries: list[Entry], step: int, games: Mapping[str, Game[Any]]) -> dict[str, Any]:
    """The host's view of the table after entry number `step` (0: the start) of a game, with the dice last
    rolled; raises IndexError for a step the game lacks, CompanionError when the rules refuse an entry."""
    if not 0 <= step < len(entries):
        raise IndexError(step)
    found = replay(entries[: step + 1], games)
    table = found.tables[-1]
    dice = _last_dice(entries[: step + 1])
    extras = Extras(dice=dice, game_no=entries[0].game_id)
    return snapshot(table, game_for(games, table.game), seat=None, seq=step, extras=extras)


def _last_dice(entries: list[Entry]) -> LastDice | None:
    """The last roll among the entries as the phones show it; raises nothing."""
    for entry in reversed(entries):
        given = entry.input
        if isinstance(given, DiceRolled):
            origins = tuple(given.origins) or tuple(entry.source for _ in given.values)
            return LastDice(tuple(given.values), tuple(given.sides), origins, seq=entry.seq)
        if isinstance(given, CorrectDice):
            return LastDice(tuple(given.values), tuple(given.sides), tuple("corrected" for _ in given.values),
                            seq=entry.seq)
    return None


def step_line(entry: Entry) -> dict[str, Any]:
    """One step of the replay as the page lists it: number, time, who sent it and what it was; raises nothing."""
    given = entry.input
    line: dict[str, Any] = {"seq": entry.seq, "at": entry.at, "source": entry.source, "kind": type(given).__name__}
    if isinstance(given, StartGame):
        line.update(game=given.game, players=list(given.players))
    elif isinstance(given, Move):
        line.update(seat=given.seat, move=given.move, args=dict(given.args))
    elif isinstance(given, (DiceRolled, CorrectDice)):
        line.update(values=list(given.values), sides=list(given.sides), seat=given.seat)
    elif isinstance(given, Undo):
        line.update(seat=given.seat)
    return line


def safe_replay(entries: list[Entry], games: Mapping[str, Game[Any]]) -> Replayed | None:
    """replay() without the tables, or None when the rules refuse an entry (a journal from older rules);
    raises nothing."""
    try:
        return replay(entries, games, keep_tables=False)
    except (CompanionError, KeyError):
        return None
