"""A seeded random player: picks legal inputs and samples arguments from their JSON Schemas.

Used by the conformance play-outs, the load runs and the benchmarks; stdlib only.
"""
from __future__ import annotations

import random
from typing import Any

from companion.rules.inputs import DiceRolled, Input, Move, Undo
from companion.rules import engine
from companion.rules.game import Game
from companion.rules.schema import JSON
from companion.rules.table import Table


def sample(schema: JSON, rng: random.Random) -> Any:
    """A random value that fits the schema (the subset in rules.schema); raises nothing."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum", 0), schema.get("maximum", 9)
        return rng.randint(low, max(low, min(high, low + 20)))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind == "array":
        low = schema.get("minItems", 0)
        count = rng.randint(low, max(low, min(schema.get("maxItems", 4), 6)))
        return [sample(schema.get("items", {}), rng) for _ in range(count)]
    if kind == "object":
        required = set(schema.get("required", ()))
        return {key: sample(sub, rng) for key, sub in schema.get("properties", {}).items()
                if key in required or rng.random() < 0.5}
    return None


def random_input(table: Table, game: Game[Any], rng: random.Random) -> Input | None:
    """A random input the table should take now: the awaited roll, a legal move or an undo."""
    request = game.awaiting_dice(table.state)
    if request is not None and rng.random() < 0.85:
        return DiceRolled(tuple(rng.randint(1, sides) for sides in request.sides), request.sides)
    if engine.can_undo(table, game) and rng.random() < 0.03:
        return Undo()
    legal = engine.legal_moves(table, game)
    if not legal:
        if request is not None:
            return DiceRolled(tuple(rng.randint(1, sides) for sides in request.sides), request.sides)
        return None
    weights = [game.move(entry["move"]).weight for entry in legal]  # type: ignore[union-attr]
    entry = rng.choices(legal, weights=weights)[0]
    return Move(entry["seat"], entry["move"], sample(entry["args"], rng))
