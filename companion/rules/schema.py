"""A small JSON Schema subset (the one the games use) and its validator; stdlib only."""
from __future__ import annotations

from typing import Any, Mapping

from companion.rules.errors import BadInput

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


def array(items: JSON, min_items: int = 0, max_items: int = 64, title: str = "") -> JSON:
    """The schema of a list of items; raises nothing."""
    schema: JSON = {"type": "array", "items": items, "minItems": min_items, "maxItems": max_items}
    if title:
        schema["title"] = title
    return schema


def obj(properties: Mapping[str, JSON] | None = None, required: tuple[str, ...] = ()) -> JSON:
    """The schema of an arguments object with no extra keys; raises nothing."""
    return {
        "type": "object",
        "properties": dict(properties or {}),
        "required": list(required),
        "additionalProperties": False,
    }


def validate(value: Any, schema: JSON, where: str = "args") -> None:
    """Check value against schema; raises BadInput naming the first offending key."""
    if "enum" in schema:
        if not any(value == allowed and type(value) is type(allowed) for allowed in schema["enum"]):
            raise BadInput(f"{where} must be one of {schema['enum']}, not {_show(value)}.")
        return
    kind = schema.get("type")
    checker = _CHECKERS.get(kind)
    if checker is None:
        return
    checker(value, schema, where)


def _show(value: Any) -> str:
    text_value = repr(value)
    return text_value if len(text_value) <= 40 else text_value[:37] + "..."


def _check_integer(value: Any, schema: JSON, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{where} must be a whole number, not {_show(value)}.")
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and value < low or high is not None and value > high:
        raise BadInput(f"{where} must be from {low} to {high}, not {value}.")


def _check_string(value: Any, schema: JSON, where: str) -> None:
    if not isinstance(value, str):
        raise BadInput(f"{where} must be text, not {_show(value)}.")
    if len(value) < schema.get("minLength", 0):
        raise BadInput(f"{where} must not be empty.")
    longest = schema.get("maxLength", 10_000)
    if len(value) > longest:
        raise BadInput(f"{where} must be at most {longest} characters long.")
    if not value.isprintable():  # control and invisible characters, lone surrogates (not storable)
        raise BadInput(f"{where} must be printable text, without control or invisible characters.")


def _check_boolean(value: Any, schema: JSON, where: str) -> None:
    if not isinstance(value, bool):
        raise BadInput(f"{where} must be true or false, not {_show(value)}.")


def _check_array(value: Any, schema: JSON, where: str) -> None:
    if not isinstance(value, (list, tuple)):
        raise BadInput(f"{where} must be a list, not {_show(value)}.")
    if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 10_000):
        raise BadInput(f"{where} must hold {schema.get('minItems', 0)} to {schema.get('maxItems')} items, not {len(value)}.")
    for index, item in enumerate(value):
        validate(item, schema.get("items", {}), f"{where}[{index}]")


def _check_object(value: Any, schema: JSON, where: str) -> None:
    if not isinstance(value, Mapping):
        raise BadInput(f"{where} must be an object, not {_show(value)}.")
    properties = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in value:
            raise BadInput(f"{where} is missing '{key}'.")
    for key, item in value.items():
        if key not in properties:
            if schema.get("additionalProperties", True) is False:
                raise BadInput(f"{where} has an unknown key {_show(key)}; accepted: {sorted(properties)}.")
            continue
        validate(item, properties[key], f"{where}.{key}")


_CHECKERS = {
    "integer": _check_integer,
    "string": _check_string,
    "boolean": _check_boolean,
    "array": _check_array,
    "object": _check_object,
}
