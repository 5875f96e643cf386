"""Inputs to and from JSON, for the journal and the API; stdlib only."""
from __future__ import annotations

import json
from typing import Any

from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.rules.errors import BadInput

KINDS: dict[str, type] = {
    "start": StartGame,
    "move": Move,
    "dice": DiceRolled,
    "correct": CorrectDice,
    "undo": Undo,
}
KIND_OF = {cls: kind for kind, cls in KINDS.items()}


def encode(given: Input) -> tuple[str, str]:
    """The input's kind and its JSON body; raises BadInput for something that is not an input."""
    kind = KIND_OF.get(type(given))
    if kind is None:
        raise BadInput(f"{type(given).__name__} is not an input the journal keeps.")
    body = {name: _plain(getattr(given, name)) for name in given.__dataclass_fields__}  # type: ignore[union-attr]
    return kind, json.dumps(body, ensure_ascii=False)


def decode(kind: str, body: str) -> Input:
    """The input back from its kind and JSON body; raises BadInput when it does not parse."""
    cls = KINDS.get(kind)
    if cls is None:
        raise BadInput(f"Unknown journal entry kind {kind!r}.")
    try:
        fields = json.loads(body)
    except ValueError as error:
        raise BadInput(f"A journal entry is not valid JSON: {error}.") from None
    for name in ("players", "values", "sides", "origins"):
        if name in fields:
            fields[name] = tuple(fields[name])
    try:
        return cls(**fields)
    except TypeError as error:
        raise BadInput(f"A {kind} entry does not fit: {error}.") from None


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if hasattr(value, "items"):
        return dict(value)
    return value
