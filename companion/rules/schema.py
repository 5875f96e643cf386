"""A small JSON Schema subset (the one the games use) and its validator; stdlib only."""
from __future__ import annotations

from typing import Any, Mapping, NoReturn

from companion.rules.errors import BadInput
from companion.rules.said import Said

JSON = dict[str, Any]


def integer(minimum: int | None = None, maximum: int | None = None, title: str = "") -> JSON:
    """The schema of a whole number in [minimum, maximum]; raises nothing."""
    schema: JSON = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if title:
        schema["title"] = title
    return schema


def choice(values: list[Any] | tuple[Any, ...], title: str = "") -> JSON:
    """The schema of one value out of a list; raises nothing."""
    schema: JSON = {"enum": list(values)}
    if title:
        schema["title"] = title
    return schema


def text(max_length: int = 40, title: str = "") -> JSON:
    """The schema of a short string; raises nothing."""
    schema: JSON = {"type": "string", "minLength": 1, "maxLength": max_length}
    if title:
        schema["title"] = title
    return schema


def boolean(title: str = "") -> JSON:
    """The schema of true/false; raises nothing."""
    return {"type": "boolean", "title": title} if title else {"type": "boolean"}


def array(items: JSON, min_items: int = 0, max_items: int = 64, title: str = "", title_ko: str = "") -> JSON:
    """The schema of a list of items (`title_ko`: the title on the Korean page); raises nothing."""
    schema: JSON = {"type": "array", "items": items, "minItems": min_items, "maxItems": max_items}
    if title:
        schema["title"] = title
    if title_ko:
        schema["title_ko"] = title_ko
    return schema


def obj(properties: Mapping[str, JSON] | None = None, required: tuple[str, ...] = ()) -> JSON:
    """The schema of an arguments object with no extra keys; raises nothing."""
    return {
        "type": "object",
        "properties": dict(properties or {}),
        "required": list(required),
        "additionalProperties": False,
    }


TOP_LABELS = {"args": ("This move", "이 행동"), "options": ("The game's options", "게임 옵션")}
"""What a refusal calls the whole of a move's arguments or a game's options, in English and Korean."""


def validate(value: Any, schema: JSON, where: str = "args") -> None:
    """Check value against schema; raises BadInput naming the first offending field in the players' words (its
    title, else its key), in English and Korean, never as a path such as args.values[1]. A game's option also
    names its key, as a config file writes it ("Hourglasses per player (hourglasses)")."""
    if where == "options" and isinstance(value, Mapping):
        properties = schema.get("properties", {})
        schema = {**schema, "properties": {key: _keyed(key, spec) for key, spec in properties.items()}}
    _validate(value, schema, TOP_LABELS.get(where, (where, where)))


def _keyed(key: str, schema: JSON) -> JSON:
    """An option's schema whose title also names its key; raises nothing."""
    english, korean = label(key, schema)
    return {**schema, "title": f"{english} ({key})", "title_ko": f"{korean} ({key})"}


Label = tuple[str, str]


def _validate(value: Any, schema: JSON, where: Label) -> None:
    if "enum" in schema:
        if not any(value == allowed and type(value) is type(allowed) for allowed in schema["enum"]):
            shown = ", ".join(str(allowed) for allowed in schema["enum"])
            _refuse(where, f"must be one of {shown}, not {_show(value)}", f"{shown} 중 하나여야 합니다 (받은 값: {_show(value)})")
        return
    checker = _CHECKERS.get(schema.get("type"))
    if checker is not None:
        checker(value, schema, where)


def label(key: str, schema: JSON) -> Label:
    """A field's name in the players' words, in English and Korean: its title (capitalised), else its key
    humanised (`hand_size` → "Hand size"); raises nothing."""
    english = str(schema.get("title") or key.replace("_", " "))
    english = english[:1].upper() + english[1:]
    return english, str(schema.get("title_ko") or english)


def _refuse(where: Label, english: str, korean: str) -> NoReturn:
    """Refuse the value of the field `where`; raises BadInput with the sentence in both languages."""
    raise BadInput(Said(f"{where[0]}: {english}.", f"{where[1]}: {korean}."))


def _show(value: Any) -> str:
    text_value = repr(value)
    return text_value if len(text_value) <= 40 else text_value[:37] + "..."


def _span(low: int | None, high: int | None) -> tuple[str, str]:
    """The allowed range of a whole number in English and Korean, either end open; raises nothing."""
    if low is not None and high is not None:
        return f"from {low} to {high}", f"{low}부터 {high}까지"
    return (f"at least {low}", f"{low} 이상") if low is not None else (f"at most {high}", f"{high} 이하")


def _check_integer(value: Any, schema: JSON, where: Label) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        _refuse(where, f"must be a whole number, not {_show(value)}", f"정수여야 합니다 (받은 값: {_show(value)})")
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and value < low or high is not None and value > high:
        english, korean = _span(low, high)
        _refuse(where, f"must be {english}, not {value}", f"{korean}여야 합니다 (받은 값: {value})")


def _check_string(value: Any, schema: JSON, where: Label) -> None:
    if not isinstance(value, str):
        _refuse(where, f"must be text, not {_show(value)}", f"텍스트여야 합니다 (받은 값: {_show(value)})")
    if len(value) < schema.get("minLength", 0):
        _refuse(where, "must not be empty", "비어 있으면 안 됩니다")
    longest = schema.get("maxLength", 10_000)
    if len(value) > longest:
        _refuse(where, f"must be at most {longest} characters long", f"{longest}자 이하여야 합니다")
    if not value.isprintable():  # control and invisible characters, lone surrogates (not storable)
        _refuse(where, "must be printable text, without control or invisible characters",
                "제어 문자나 보이지 않는 문자가 없는 텍스트여야 합니다")


def _check_boolean(value: Any, schema: JSON, where: Label) -> None:
    if not isinstance(value, bool):
        _refuse(where, f"must be yes or no, not {_show(value)}", f"예 또는 아니오여야 합니다 (받은 값: {_show(value)})")


def _how_many(fewest: int, most: int) -> tuple[str, str]:
    """How many items a list takes, in English and in Korean (with its object particle); raises nothing."""
    if fewest == most:
        return f"exactly {fewest}", f"정확히 {fewest}개를"
    return (f"{fewest} to {most}", f"{fewest}~{most}개를") if most < 10_000 else (f"at least {fewest}", f"{fewest}개 이상을")


def _check_array(value: Any, schema: JSON, where: Label) -> None:
    if not isinstance(value, (list, tuple)):
        _refuse(where, f"must be a list, not {_show(value)}", f"목록이어야 합니다 (받은 값: {_show(value)})")
    fewest, most = schema.get("minItems", 0), schema.get("maxItems", 10_000)
    if not fewest <= len(value) <= most:
        english, korean = _how_many(fewest, most)
        _refuse(where, f"enter {english}, not {len(value)}", f"{korean} 입력하세요 (받은 개수: {len(value)})")
    for index, item in enumerate(value):
        _validate(item, schema.get("items", {}), (f"{where[0]}, no. {index + 1}", f"{where[1]} {index + 1}번째"))


def _check_object(value: Any, schema: JSON, where: Label) -> None:
    if not isinstance(value, Mapping):
        _refuse(where, f"must be an object, not {_show(value)}", f"객체여야 합니다 (받은 값: {_show(value)})")
    properties = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in value:
            missing = label(key, properties.get(key, {}))
            _refuse(where, f"{missing[0]} is missing", f"{missing[1]} 항목이 빠졌습니다")
    for key, item in value.items():
        if key not in properties:
            if schema.get("additionalProperties", True) is False:
                accepted = ", ".join(sorted(properties))
                _refuse(where, f"has no field {_show(key)}; its fields: {accepted or 'none'}",
                        f"{_show(key)} 항목은 없습니다; 받는 항목: {accepted or '없음'}")
            continue
        _validate(item, properties[key], label(key, properties[key]))


_CHECKERS = {
    "integer": _check_integer,
    "string": _check_string,
    "boolean": _check_boolean,
    "array": _check_array,
    "object": _check_object,
}
