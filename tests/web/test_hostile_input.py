"""Hostile input against the real companion on 127.0.0.1: no GET changes anything, and bad input
(huge, non-JSON, wrong types, odd Unicode, odd numbers) is a 4xx with a sentence that changes nothing.

Who may do what (tokens, seats, cross-site writes, the pages' policy) is tests/web/test_security.py.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Sequence

ANN, BOB = 0, 1
Raw = Callable[..., tuple[int, dict[str, str], bytes]]


def to_anns_turn(server: Any) -> None:
    """Play the roll-off (Ann 6, Bob 1): Ann's turn, where her moves' arguments get checked."""
    for seat, value in ((ANN, 6), (BOB, 1)):
        assert server.api("POST", "/api/dice", {"values": [value], "sides": [6]}, token=server.seat_token(seat))[0] == 200


def refused_in_every_body(table: Any, raw: Raw, is_sentence: Callable[[Any], bool], values: Sequence[str],
                          bodies: list[tuple[str, str]]) -> None:
    """POSTs, as the host, each raw JSON value put into each (path, body template): every one must be a
    4xx with a sentence, and the table must not change."""
    headers = {"Authorization": f"Bearer {table.host_token}", "Content-Type": "application/json"}
    before = table.seq()
    for value in values:
        for path, template in bodies:
            status, _, body = raw(table.url, "POST", path, (template % value).encode(), headers)
            assert 400 <= status < 500 and is_sentence(json.loads(body)), (path, template % value[:30], status, body[:200])
    assert table.seq() == before


# --- GET changes nothing ---------------------------------------------------------------------
def _gets(app: Any) -> list[str]:
    """Every GET route, with plausible path values."""
    values = {"seat": "0", "name": "die0", "filename": "app.js", "play": "1", "step": "1"}
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and rule.rule != "/api/events":
            paths.append(re.sub(r"<(?:\w+:)?(\w+)>", lambda match: values[match.group(1)], rule.rule))
    return sorted(paths)


def _table_state(server: Any) -> tuple[Any, ...]:
    host = server.host_token
    tokens = (host, *(server.seat_token(seat) for seat in range(2)))
    return server.seq(), server.api("GET", "/api/history", token=host)[1], tokens


def test_no_get_changes_anything(table: Any, raw: Raw, open_events: Any) -> None:
    app = table.companion.server.app
    for rule in app.url_map.iter_rules():
        assert rule.methods - {"GET", "HEAD", "OPTIONS"} in (set(), {"POST"}), (rule.rule, rule.methods)
    before = _table_state(table)
    for token in (table.host_token, table.seat_token(BOB)):
        for path in _gets(app):
            status, _, _ = raw(table.url, "GET", path, None, {"Authorization": f"Bearer {token}"})
            assert status < 500, path
        open_events(table.url, token=token).next_snapshot(timeout=2.0)
        raw(table.url, "GET", f"/join?token={token}", None, {})
    gets = {rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods}  # each asked above
    posts = [rule.rule for rule in app.url_map.iter_rules() if "POST" in rule.methods and rule.rule not in gets]
    for path in posts:
        status, _, _ = raw(table.url, "GET", path.replace("<int:seat>", "0"), None, {"Authorization": f"Bearer {table.host_token}"})
        assert status == 405, path
    assert _table_state(table) == before


# --- bad input: a 4xx with a sentence, and nothing changed --------------------------------------
def test_oversized_bodies_are_refused(table: Any, raw: Raw, is_sentence: Callable[[Any], bool]) -> None:
    before = table.seq()
    huge = json.dumps({"game": "through-the-gate", "players": ["Ann", "x" * 20_000]}).encode()
    headers = {"Authorization": f"Bearer {table.host_token}", "Content-Type": "application/json"}
    status, _, body = raw(table.url, "POST", "/api/game", huge, headers)
    assert status == 413 and is_sentence(json.loads(body))
    chunks = iter([b'{"values": [' + b"6, " * 20_000, b"6], \"sides\": [6]}"])
    status, _, body = raw(table.url, "POST", "/api/dice", chunks, headers)  # http.client sends it chunked
    assert status == 413 and is_sentence(json.loads(body))
    assert table.seq() == before


ODD_NAMES = [
    "\u202eevil",            # right-to-left override
    "A\u200fB",              # right-to-left mark
    "An\u200dn",             # zero-width joiner
    "\u200b",                # zero-width space alone
    "x" * 10_000,
    "😀" * 10_000,
    "A\x00B",
    "\n\t",
    "   ",
    "",
]


def test_odd_unicode_names_are_refused(table: Any) -> None:
    for name in ODD_NAMES:
        table.refused("/api/game", {"game": "through-the-gate", "players": ["Ann", name]}, table.host_token, status=(400, 413))


ESCAPED = ('"\\ud800"', '"a\\udfffb"', '"\\u0000"', '"\\ud83d"', '"\\u202e"', '"\\u200d"')


def test_lone_surrogates_and_nul_in_json_escapes_are_refused(table: Any, raw: Raw, is_sentence: Callable[[Any], bool]) -> None:
    to_anns_turn(table)
    bodies = [
        ("/api/game", '{"game": "through-the-gate", "players": ["Ann", %s]}'),
        ("/api/game", '{"game": "gateway-city", "players": ["Ann", "Bob"], "options": {"district_names": [%s]}}'),
        ("/api/game", '{"game": %s, "players": ["Ann", "Bob"]}'),
        ("/api/actions", '{"seat": 0, "move": %s}'),
        ("/api/actions", '{"seat": 0, "move": "declare_speed", "args": {%s: 4}}'),
    ]
    refused_in_every_body(table, raw, is_sentence, ESCAPED, bodies)


def test_a_plain_emoji_name_is_welcome(table: Any) -> None:
    status, snapshot = table.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "🐉 Bo"]},
                                 token=table.host_token)
    assert status == 200 and snapshot["players"] == ["Ann", "🐉 Bo"]


ODD_NUMBERS = ["18446744073709551616", "-18446744073709551616", "1e308", "-1e308", "1e999", "-0.0", "0.5", "-1",
               "NaN", "Infinity", "true", "null", '"6"', "[6]", "{}", "1" * 5000]


def test_odd_numbers_are_refused_everywhere(table: Any, raw: Raw, is_sentence: Callable[[Any], bool]) -> None:
    to_anns_turn(table)
    bodies = [
        ("/api/actions", '{"seat": %s, "move": "declare_speed", "args": {"speed": 4}}'),
        ("/api/dice", '{"values": [%s], "sides": [6]}'),
        ("/api/dice", '{"values": [6], "sides": [%s]}'),
        ("/api/dice/correct", '{"values": [%s], "sides": [6]}'),
        ("/api/game", '{"game": "through-the-gate", "players": ["Ann", "Bob"], "options": {"hourglasses": %s}}'),
        ("/api/actions", '{"seat": 0, "move": "declare_speed", "args": {"speed": %s}}'),
    ]
    refused_in_every_body(table, raw, is_sentence, ODD_NUMBERS, bodies)


def test_minus_zero_is_zero_and_refused_where_zero_is(table: Any, raw: Raw, is_sentence: Callable[[Any], bool]) -> None:
    headers = {"Authorization": f"Bearer {table.host_token}", "Content-Type": "application/json"}
    before = table.seq()
    for body in (b'{"values": [-0], "sides": [6]}', b'{"values": [6], "sides": [-0]}'):
        status, _, answer = raw(table.url, "POST", "/api/dice", body, headers)
        assert status == 400 and is_sentence(json.loads(answer))
    assert table.seq() == before


WRONG_SHAPES = (
    ("/api/actions", b"not json"),
    ("/api/actions", b'{"seat": "0", "move": "declare_speed"}'),
    ("/api/actions", b'{"seat": 0, "move": ["declare_speed"]}'),
    ("/api/actions", b'{"seat": 0, "move": "declare_speed", "args": [4]}'),
    ("/api/actions", b'{"seat": 0, "move": "declare_speed", "args": {"speed": "4"}}'),
    ("/api/actions", b'{"seat": 0, "move": "declare_speed", "extra": 1}'),
    ("/api/dice", b'{"values": 6, "sides": 6}'),
    ("/api/dice", b'{"values": [6, 6], "sides": [6]}'),
    ("/api/dice", b'{"values": [], "sides": []}'),
    ("/api/dice", b'{"values": [6, 6], "sides": [6, 6]}'),
    ("/api/dice", b'{"values": [7], "sides": [6]}'),
    ("/api/dice", b'{"values": [3], "sides": [8]}'),
    ("/api/game", b'{"game": "through-the-gate", "players": "Ann"}'),
    ("/api/game", b'{"game": "through-the-gate", "players": ["Ann", "ann"]}'),
    ("/api/game", b'{"game": "through-the-gate", "players": ["Ann", "Bob"], "options": []}'),
    ("/api/game", b'{"game": "through-the-gate", "players": ["Ann", "Bob"], "options": {"x": 1}}'),
    ("/api/game", b'{"game": "no-such-game", "players": ["Ann", "Bob"]}'),
    ("/api/press", b'{"button": "ROLL"}'),
    ("/api/undo", b'[]'),
    ("/api/seats/0/token", b'{"x": 1}'),
    ("/api/actions", b"\xff\xfe\x00{"),
    ("/api/actions", b"[" * 10_000 + b"]" * 10_000),
)


def test_wrong_shapes_and_types_are_refused(table: Any, raw: Raw, is_sentence: Callable[[Any], bool]) -> None:
    headers = {"Authorization": f"Bearer {table.host_token}", "Content-Type": "application/json"}
    before = table.seq()
    for path, body in WRONG_SHAPES:
        status, _, answer = raw(table.url, "POST", path, body, headers)
        assert 400 <= status < 500 and is_sentence(json.loads(answer)), (path, body[:80], status, answer[:200])
    assert table.seq() == before
