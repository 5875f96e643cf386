"""Hypothesis state machines over the pure engine, one per registered game.

Any sequence of inputs — legal moves with random and edge arguments, illegal moves, dice with wrong
counts, sides or values, undo, corrections, new games (with odd names and options) — keeps the
invariants: a refused input leaves the table identical and says why; the table's seq grows by one
per accepted input; an outcome once set stays; every legal_moves entry validates against its
schemas; every view and snapshot is JSON; and replaying the journal rows gives the same table.
"""
from __future__ import annotations

import json
import math
import pickle
import random
import time
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from companion.journal.codec import decode, encode
from companion.games import game_for, registered_games
from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.rules import engine
from companion.rules.autoplay import random_input, sample
from companion.rules.errors import CompanionError
from companion.rules.names import check_name
from companion.rules.schema import text, validate
from companion.rules.table import Table
from companion.table.snapshot import Extras, snapshot
from web.openapi import document

GAMES = registered_games()
MACHINE_SETTINGS = settings(
    max_examples=15, stateful_step_count=25, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],  # no shrinking: it can take minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BUDGET = 2.0
"""Seconds one input may take the engine, its outcome included (a Pi is slower still)."""
ODD_TEXT = ("", " ", "\x00", "A\x00B", "\ud800", "a\udfffb", "\u202eevil", "An\u200dn", "\u200f", "\ufeff", "😀",
            "👩\u200d🚀", "x" * 10_000, "😀" * 5_000, "\n", "<script>", "Ann", "ann ", "P0")
ODD_NUMBERS = (-1, 0, 1, 2**64, -(2**64), 2**63 - 1, 10**30, 1e308, -0.0, 0.5, math.inf, math.nan, True, False)
ODD = st.sampled_from((None, [], {}, [1], {"a": 1}, "1", *ODD_TEXT, *ODD_NUMBERS))
PLAIN_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "민준", "Zoë", "😀 Max", "O'Neil", "Ann-Marie B")
SEATS = st.one_of(st.integers(-2, 7), st.sampled_from((None, True, 2**64, "0", 1.0)))


def component(name: str) -> Any:
    """A validator for one schema of the OpenAPI document; raises ValidationError when it does not compile."""
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document()["components"]})


SNAPSHOT = component("Snapshot")
LEGAL_MOVE = component("LegalMove")


def fitting(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that fit a rules.schema JSON Schema (the subset the games use); raises nothing."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        plain = st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 40))
        return plain | st.sampled_from(ODD_TEXT)
    if kind == "array":
        return st.lists(edgy(schema.get("items", {})), min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 8), 8))
    if kind == "object":
        properties = {key: edgy(sub) for key, sub in schema.get("properties", {}).items()}
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries({key: value for key, value in properties.items() if key in required},
                                     optional={key: value for key, value in properties.items() if key not in required})
    return ODD


def edgy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Mostly values that fit the schema, now and then an odd one that does not; raises nothing."""
    return st.integers(0, 9).flatmap(lambda roll: ODD if roll == 0 else fitting(schema))


def odd_arguments() -> st.SearchStrategy[Any]:
    """Argument objects of any shape: odd keys and values; raises nothing."""
    keys = st.sampled_from(("die", "player", "speed", "kind", "gate", "values", "x", "y", "", "\x00"))
    return st.dictionaries(keys, ODD | st.integers(), max_size=3)


def dice(count: st.SearchStrategy[int] = st.integers(0, 4)) -> st.SearchStrategy[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """(values, sides) with wrong counts, sides and values; raises nothing."""
    sides = st.one_of(st.sampled_from((6, 8, 4, 12, 20)), st.integers(-3, 3), st.sampled_from((6.0, None, "6", True, 2**64)))
    values = st.one_of(st.integers(-1, 9), st.sampled_from((0, 2**64, -(2**64), 6.0, -0.0, True, None, "3", math.nan)))
    return count.flatmap(lambda many: st.tuples(st.lists(values, min_size=many, max_size=many).map(tuple),
                                               st.lists(sides, min_size=many, max_size=many).map(tuple)))


def no_looser_than_json_schema(value: Any, schema: dict[str, Any]) -> bool:
    """Whether value is a mapping; asserts that what rules.schema accepts, JSON Schema accepts too."""
    try:
        validate(value, schema)
    except CompanionError:
        return isinstance(value, dict)
    assert jsonschema_rs.Draft202012Validator(schema).is_valid(value), (value, schema)
    return True


def json_of(value: Any) -> str:
    """Strict JSON (no NaN/Infinity); raises ValueError or TypeError when the value is not JSON."""
    return json.dumps(value, allow_nan=False, ensure_ascii=False)


class TableMachine(RuleBasedStateMachine):
    """One table of one game, driven by arbitrary inputs; `GAME_ID` is set per game below."""

    GAME_ID = ""

    def __init__(self) -> None:
        super().__init__()
        self.table: Table | None = None
        self.rows: list[tuple[str, str]] = []
        self.outcome: Any = None

    @property
    def game(self) -> Any:
        assert self.table is not None
        return GAMES[self.table.game]

    # --- submitting ------------------------------------------------------------------
    def submit(self, given: Input) -> bool:
        """Offer one input; checks the per-input invariants; returns whether it was accepted."""
        before = self.table
        kept = pickle.dumps(before)
        started = time.monotonic()
        try:
            after = self._apply(given)
        except CompanionError as refusal:
            assert self.table is before and pickle.dumps(before) == kept, f"a refused {given!r} changed the table"
            assert refusal.message.strip() and refusal.code, f"{given!r} was refused without a sentence"
            return False
        assert pickle.dumps(before) == kept, f"an accepted {given!r} changed the table it was applied to"
        self._accept(given, before, after)
        assert time.monotonic() - started < BUDGET, f"{given!r} took the engine over {BUDGET} s"
        return True

    def _apply(self, given: Input) -> Table:
        if isinstance(given, StartGame):
            return engine.start(game_for(GAMES, given.game), given)
        assert self.table is not None
        return engine.apply(self.table, self.game, given)

    def _accept(self, given: Input, before: Table | None, after: Table) -> None:
        if isinstance(given, StartGame):
            assert after.seq == 0
            self.rows, self.outcome = [], None
        else:
            assert before is not None and after.seq == before.seq + 1, "seq must grow by one per accepted input"
            assert after.game == before.game and after.players == before.players
        kind, body = encode(given)
        body.encode("utf-8")  # what the journal stores: UnicodeEncodeError for lone surrogates
        self.rows.append((kind, body))
        self.table = after
        outcome = GAMES[after.game].outcome(after.state)
        if self.outcome is not None:  # after the end, only what ended the game may be put right: its roll or its move
            corrected = isinstance(given, CorrectDice) and before is not None and engine.can_correct(before)
            taken_back = isinstance(given, Undo) and outcome is None  # the game goes on from before that move
            assert corrected or taken_back, given
        self.outcome = outcome

    # --- rules ---------------------------------------------------------------------------
    @initialize(players=st.integers(0, 8), seed=st.integers(0, 2**32 - 1))
    def start(self, players: int, seed: int) -> None:
        game = GAMES[self.GAME_ID]
        count = min(max(players, game.min_players), game.max_players)
        assert self.submit(StartGame(game.id, tuple(f"P{index}" for index in range(count)), {}, seed))

    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        legal = engine.legal_moves(self.table, self.game)
        if legal:
            entry = data.draw(st.sampled_from(legal), "entry")
            args = data.draw(edgy(entry["args"]), "args")
            if no_looser_than_json_schema(args, entry["args"]):
                self.submit(Move(entry["seat"], entry["move"], args))

    @rule(data=st.data(), seat=SEATS)
    def any_move(self, data: st.DataObject, seat: Any) -> None:
        names = [rule_.name for rule_ in self.game.moves] + ["", "no_such_move", "\ud800", "x" * 10_000]
        name = data.draw(st.sampled_from(names), "move")
        self.submit(Move(seat, name, data.draw(odd_arguments(), "args")))

    @rule(data=st.data(), seat=SEATS)
    def awaited_roll(self, data: st.DataObject, seat: Any) -> None:
        request = self.game.awaiting_dice(self.table.state)
        if request is not None:
            values = tuple(data.draw(st.integers(1, sides)) for sides in request.sides)
            order = data.draw(st.permutations(range(len(values))))
            sides = tuple(request.sides[index] for index in order)
            rolled = self.submit(DiceRolled(tuple(values[index] for index in order), sides, ("phone",) * len(values), seat))
            if rolled and data.draw(st.booleans(), "correct it"):
                fixed = tuple(data.draw(st.integers(1, count)) for count in request.sides)
                self.submit(CorrectDice(fixed, request.sides, seat))

    @rule(roll=dice(), seat=SEATS)
    def odd_roll(self, roll: tuple[tuple[Any, ...], tuple[Any, ...]], seat: Any) -> None:
        self.submit(DiceRolled(roll[0], roll[1], (), seat))

    @rule(seat=SEATS)
    def undo(self, seat: Any) -> None:
        self.submit(Undo(seat))

    @rule(data=st.data(), seat=SEATS)
    def correct(self, data: st.DataObject, seat: Any) -> None:
        last = self.table.last_roll
        if last is not None and data.draw(st.integers(0, 4)) > 0:
            values = tuple(data.draw(st.integers(1, sides)) for sides in last.roll.sides)
            self.submit(CorrectDice(values, last.roll.sides, seat))
        else:
            values, sides = data.draw(dice())
            self.submit(CorrectDice(values, sides, seat))

    @rule(data=st.data(), seed=st.integers(0, 2**64))
    def new_game(self, data: st.DataObject, seed: int) -> None:
        game_id = data.draw(st.sampled_from([self.GAME_ID, *sorted(GAMES), "no-such-game", ""]), "game")
        game = GAMES.get(game_id, GAMES[self.GAME_ID])
        plain = st.lists(st.sampled_from(PLAIN_NAMES), min_size=game.min_players, max_size=game.max_players, unique=True)
        odd = st.lists(st.one_of(st.sampled_from(ODD_TEXT), st.text(min_size=1, max_size=30), ODD),
                       min_size=0, max_size=game.max_players + 1)
        players = data.draw(st.integers(0, 2).flatmap(lambda roll: odd if roll == 0 else plain), "players")
        options = data.draw(st.one_of(edgy(game.options), odd_arguments(), ODD), "options")
        self.submit(StartGame(game_id, tuple(players), options, seed))

    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 300))
    def play_on(self, seed: int, steps: int) -> None:
        """Many random legal inputs at once (as the conformance play-outs), to reach late states and ends."""
        rng = random.Random(seed)
        for _ in range(steps):
            given = random_input(self.table, self.game, rng)
            if given is None:
                return
            self.submit(given)

    # --- invariants --------------------------------------------------------------------
    @invariant()
    def replaying_the_journal_gives_the_table(self) -> None:
        inputs = [decode(kind, body) for kind, body in self.rows]
        assert engine.replay(lambda game_id: game_for(GAMES, game_id), inputs) == self.table

    @invariant()
    def the_players_are_named_plainly(self) -> None:
        names = self.table.players
        assert all(check_name(name, engine.MAX_NAME) == name for name in names), names  # as people see them
        assert len({name.casefold() for name in names}) == len(names), names

    @invariant()
    def legal_moves_fit_their_schemas(self) -> None:
        rng = random.Random(self.table.seq)
        for entry in engine.legal_moves(self.table, self.game):
            assert LEGAL_MOVE.is_valid(entry), entry
            published = jsonschema_rs.Draft202012Validator(entry["args"])
            example = sample(entry["args"], rng)
            validate(example, entry["args"])
            assert published.is_valid(example), (entry, example)

    @invariant()
    def views_and_snapshots_are_json(self) -> None:
        game = self.game
        for seat in (None, *range(len(self.table.players))):
            started = time.monotonic()
            json_of(game.view(self.table.state, seat))
            shown = snapshot(self.table, game, seat=seat, seq=self.table.seq, extras=Extras())
            assert time.monotonic() - started < BUDGET, f"a view took over {BUDGET} s"
            assert SNAPSHOT.is_valid(json.loads(json_of(shown))), list(SNAPSHOT.iter_errors(shown))[:3]


def _machine_for(game_id: str) -> type[TableMachine]:
    return type(f"Machine_{game_id.replace('-', '_')}", (TableMachine,), {"GAME_ID": game_id})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_any_inputs_keep_the_invariants(game_id: str) -> None:
    run_state_machine_as_test(_machine_for(game_id), settings=MACHINE_SETTINGS)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(value=st.sampled_from(ODD_TEXT) | st.text())
def test_text_the_rules_accept_is_printable_and_storable(value: str) -> None:
    try:
        validate(value, text(max_length=10_000))
    except CompanionError:
        return
    assert value.isprintable(), repr(value)
    value.encode("utf-8")  # the journal stores UTF-8: a lone surrogate would not go in
