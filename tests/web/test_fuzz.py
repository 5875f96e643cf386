"""Never a 5xx for bad input: random JSON and random bytes to every write endpoint of the real
companion (its Flask app in process, the real engine loop behind it)."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ENDPOINTS = ("/api/actions", "/api/dice", "/api/dice/correct", "/api/undo", "/api/press", "/api/game",
             "/api/seats/0/token")
SCALARS = st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                      max_leaves=12)
KEYS = st.sampled_from(["seat", "move", "args", "values", "sides", "button", "game", "players", "options", "x"])
MOVES = st.sampled_from(["declare_speed", "check", "modify", "reroll", "end_turn", "set_tallies", "choose_wilds", "fly"])
BODIES = (st.dictionaries(KEYS, VALUES | MOVES, max_size=4)
          | st.fixed_dictionaries({"seat": st.integers(-2, 6), "move": MOVES, "args": st.dictionaries(st.text(max_size=8), VALUES, max_size=3)})
          | VALUES)
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _post(client: Any, token: str, path: str, data: bytes) -> Any:
    return client.post(path, data=data, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})


def _is_refusal_or_snapshot(answer: Any) -> bool:
    body = answer.get_json(silent=True)
    if answer.status_code == 200:
        return isinstance(body, dict)
    return isinstance(body, dict) and set(body) - {"message_ko"} == {"error", "message"} and bool(body["message"])


def test_random_json_is_answered_without_5xx(companion_server):
    client = companion_server.companion.server.app.test_client()
    token = companion_server.host_token

    @SETTINGS
    @given(path=st.sampled_from(ENDPOINTS), body=BODIES)
    def check(path: str, body: Any) -> None:
        answer = _post(client, token, path, json.dumps(body).encode())
        assert answer.status_code < 500 and _is_refusal_or_snapshot(answer), (path, body, answer.status_code, answer.get_data())

    check()


def test_random_bytes_are_answered_without_5xx(companion_server):
    client = companion_server.companion.server.app.test_client()
    token = companion_server.seat_token(0)

    @SETTINGS
    @given(path=st.sampled_from(ENDPOINTS), data=st.binary(max_size=64))
    def check(path: str, data: bytes) -> None:
        answer = _post(client, token, path, data)
        assert answer.status_code < 500 and _is_refusal_or_snapshot(answer), (path, data, answer.status_code)

    check()
