"""The OpenAPI description of "Teach the box your dice" (web/teach_api.py), merged into web/openapi.py's document."""
from __future__ import annotations

from typing import Any, Callable

JSON = dict[str, Any]
INTEGER: JSON = {"type": "integer"}
STRING: JSON = {"type": "string"}
BOOLEAN: JSON = {"type": "boolean"}


def _open(properties: JSON) -> JSON:
    return {"type": "object", "properties": properties, "required": list(properties)}


READS: JSON = {**_open({"by": {"enum": ["reader", "layer"]}, "dice": INTEGER, "sure_right": INTEGER, "silent": INTEGER}),
               "description": "how the box reads the table's dice now: the shipped reader on every kept die, or the "
                              "learned layer on dice held back from its learning"}
STATUS: JSON = {"examples": {**INTEGER, "description": "dice kept (at most 4,000, oldest dropped first)"},
                "learning": {**BOOLEAN, "description": "whether the box reads with what it learned"},
                "reads": READS, "said": {**STRING, "description": "the last learning, in a sentence"},
                "fewest": {**INTEGER, "description": "dice needed before a learned layer is judged"}}
DIE: JSON = _open({"crop": {**STRING, "description": "a data: URL of the die's JPEG"},
                   "value": {"anyOf": [INTEGER, {"type": "null"}]}, "sure": BOOLEAN, "sides": INTEGER})
SCHEMAS: JSON = {
    "TeachStatus": _open(STATUS),
    "TeachLook": _open({"look": INTEGER, "dice": {"type": "array", "items": DIE}, **STATUS}),
    "TeachAnswer": _open({"look": INTEGER, "values": {"type": "array", "maxItems": 30,
                                                      "items": {"anyOf": [{**INTEGER, "minimum": 1, "maximum": 6},
                                                                          {"type": "null"}]}}}),
    "TeachTaught": _open({"taught": INTEGER, **STATUS}),
    "TeachSwitch": _open({"on": BOOLEAN}),
}


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def paths(operation: Callable[..., JSON], json: Callable[[JSON], JSON]) -> JSON:
    """The teaching paths, built with web/openapi.py's helpers; raises nothing."""
    status = json(_ref("TeachStatus"))
    write = ("400", "403", "404", "409", "413", "429", "503")
    return {
        "/api/teach": {"get": operation("How many dice the table taught and how well the box reads them (host only).",
                                        status, errors=("403", "404", "429"))},
        "/api/teach/forget": {"post": operation("Forget every die the table taught and what it learned (host only).",
                                                status, errors=write, body="Empty")},
        "/api/teach/looks": {"post": operation(
            "Read the tray now; each die with its crop, reading and sureness, to be confirmed or corrected (host only).",
            json(_ref("TeachLook")), errors=write, body="Empty")},
        "/api/teach/answers": {"post": operation(
            "Keep a look's dice with the values the host gave (null leaves a die out); the box learns in the background.",
            json(_ref("TeachTaught")), errors=write, body="TeachAnswer")},
        "/api/teach/learning": {"post": operation(
            "Read with what the table taught (true) or with the shipped reader alone (false) (host only).", status,
            errors=write, body="TeachSwitch")},
    }
