"""Schemathesis against the real companion: every operation of /api/openapi.json, with valid and
invalid data (coverage and fuzzing phases), as the host and as a seat. No 5xx, every status,
content type and body (event-stream payloads too) as documented, and invalid data always a 4xx.

The schema is built in process from `web.openapi.document()` (schemathesis' fixture-loaded schemas
do not run under this pytest); the first test proves the server serves exactly that document.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from web.openapi import document

MAX_EXAMPLES = 12
"""Per operation and generation mode in the fuzzing phase; the coverage phase adds its edge cases."""
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_schema_conformance", "response_headers_conformance", "negative_data_rejection")
"""positive_data_acceptance is left out on purpose: the rules refuse well-formed moves (409) and
unknown game ids (400), which the schema cannot know."""
WHO = ("host", "seat")
CASES: Counter[str] = Counter()


def run_config() -> schemathesis.Config:
    """Both generation modes, a fixed seed, few examples, bounded requests; raises ConfigError."""
    return schemathesis.Config.from_dict({
        "seed": 20240501,
        "max-stream-events": 1,
        "request-timeout": 5,
        "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "database": "none", "deterministic": True},
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True},
                   "fuzzing": {"enabled": True}, "stateful": {"enabled": False}},
        "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
    })


SCHEMA = schemathesis.openapi.from_dict(document(), config=run_config())


@pytest.fixture(scope="module", autouse=True)
def report_cases(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the module: how many cases ran, by token, phase and mode (shown in the pytest output)."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None and CASES:
        detail = ", ".join(f"{key}: {count}" for key, count in sorted(CASES.items()))
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"\nschemathesis: {sum(CASES.values())} cases ({detail})")


def test_the_server_serves_the_document_under_test(companion_server: Any) -> None:
    status, served = companion_server.api("GET", "/api/openapi.json")
    assert status == 200 and served == json.loads(json.dumps(document()))


@SCHEMA.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
def test_every_operation_answers_within_its_schema(case: Any, companion_server: Any) -> None:
    for who in WHO:  # one server for both: the seat's token is looked up again after the host's requests
        token = companion_server.host_token if who == "host" else companion_server.seat_token(0)
        try:
            case.call_and_validate(base_url=companion_server.url, headers={"Authorization": f"Bearer {token}"}, timeout=5)
        except Exception as failure:
            failure.add_note(f"(requested with the {who}'s token)")
            raise
        meta = case.meta
        CASES[f"{who} {meta.phase.name.value} {meta.generation.mode.value}" if meta else who] += 1
