"""One phone cannot keep the box busy for every other (issue 36, item 3): each token (a seat, the host) may send
INPUT_BURST inputs at once and INPUTS_PER_SECOND after that; more are refused with 429, a sentence in both
languages and Retry-After, and change nothing. The limit is a setting (web.inputs_per_second, web.input_burst)."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from companion.config import Config, ConfigError, from_dict
from companion.table.port import Holder
from web.limits import INPUT_BURST, INPUTS_PER_SECOND, InputLimiter, TooManyInputs
from web.openapi import document


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_a_burst_then_so_many_a_second_per_holder() -> None:
    clock = Clock()
    limiter = InputLimiter(clock=clock)
    bob, host = Holder(1), Holder(None)
    taken = [limiter.take(bob, per_second=10, burst=20) for _ in range(25)]
    assert taken[:20] == [0.0] * 20 and all(wait == pytest.approx(0.1) for wait in taken[20:])
    assert limiter.take(host, per_second=10, burst=20) == 0.0  # the host's bucket is its own
    clock.now += 0.25  # two and a half inputs' worth
    assert [limiter.take(bob, per_second=10, burst=20) for _ in range(3)][:2] == [0.0, 0.0]
    clock.now += 3600  # a quiet hour fills the bucket, no more than the burst
    assert sum(limiter.take(bob, per_second=10, burst=20) == 0.0 for _ in range(30)) == 20


def test_retry_after_is_whole_seconds_at_least_one() -> None:
    assert TooManyInputs(0.05).retry_after_header == "1" and TooManyInputs(2.2).retry_after_header == "3"


def test_the_limit_is_a_setting_of_the_config_and_a_bad_one_is_named() -> None:
    assert (Config().inputs_per_second, Config().input_burst) == (INPUTS_PER_SECOND, INPUT_BURST)
    assert (from_dict({}).inputs_per_second, from_dict({}).input_burst) == (INPUTS_PER_SECOND, INPUT_BURST)
    raised = from_dict({"web": {"inputs_per_second": 500, "input_burst": 1000}})
    assert (raised.inputs_per_second, raised.input_burst) == (500, 1000)
    with pytest.raises(ConfigError, match=r"web\.inputs_per_second = 0 must be a whole number"):
        from_dict({"web": {"inputs_per_second": 0}})


def test_the_api_documents_the_429_and_its_retry_after() -> None:
    spec = document()
    for path in ("/api/actions", "/api/dice", "/api/dice/correct", "/api/undo", "/api/press", "/api/game"):
        assert "429" in spec["paths"][path]["post"]["responses"], path
    answer = spec["components"]["responses"]["E429"]
    assert "too_many_inputs" in answer["description"] and answer["headers"]["Retry-After"]["schema"]["minimum"] == 1


def post(url: str, token: str, body: bytes) -> tuple[int, Any, str | None]:
    """POST /api/actions; returns (status, parsed body, Retry-After)."""
    request = urllib.request.Request(url + "/api/actions", data=body, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read()), answer.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


def three_at_the_gate(server: Any) -> bytes:
    """Through the Gate for Ann, Bob and Cy started by the host; returns the body of Bob's diary (out of turn)."""
    status, _ = server.api("POST", "/api/game", {"game": "through-the-gate", "players": ["Ann", "Bob", "Cy"],
                                                  **server.ending_this_game()}, token=server.host_token)
    assert status == 200
    return json.dumps({"seat": 1, "move": "set_tallies", "args": {"strength": 2}}).encode()


def test_a_phone_sending_too_many_inputs_is_told_to_wait_and_changes_nothing(start_server: Any, is_sentence: Any) -> None:
    server = start_server(inputs_per_second=INPUTS_PER_SECOND, input_burst=INPUT_BURST)  # the box's own limit
    diary, bob = three_at_the_gate(server), server.seat_token(1)
    began, answers = time.monotonic(), [post(server.url, bob, diary) for _ in range(60)]
    elapsed = time.monotonic() - began
    accepted = sum(status == 200 for status, _, _ in answers)
    refused = [(body, retry_after) for status, body, retry_after in answers if status == 429]
    assert accepted + len(refused) == 60
    assert INPUT_BURST <= accepted <= INPUT_BURST + INPUTS_PER_SECOND * elapsed + 1, (accepted, elapsed)
    for body, retry_after in refused:
        assert body["error"] == "too_many_inputs" and is_sentence(body) and retry_after == "1"
        assert body["message"] == "Too many moves from this phone at once; nothing changed — wait a moment."
        assert body["message_ko"].startswith("이 휴대폰에서 한꺼번에 너무 많은 행동이 왔습니다.")
    seq = server.seq()
    while post(server.url, bob, diary)[0] == 200:  # used up again
        seq += 1
    assert server.seq() == seq  # the refused input changed nothing
    server.act(server.seat_token(2), 2, "set_tallies", strength=1)  # Cy's phone is not held up by Bob's
    time.sleep(1.0 / INPUTS_PER_SECOND + 0.05)
    assert post(server.url, bob, diary)[0] == 200  # after the wait, Bob's phone is answered again


def test_a_server_with_the_limit_raised_takes_every_input(companion_server: Any) -> None:
    server = companion_server  # the tests' companion: its limit raised (tests/conftest.py)
    diary, bob = three_at_the_gate(server), server.seat_token(1)
    assert [post(server.url, bob, diary)[0] for _ in range(60)] == [200] * 60


def test_the_busy_seat_benchmark_in_short_counts_what_the_box_took(benchmark: Any) -> None:
    """benchmarks/busy_seat.py with 150 diaries: its counts, not its times (a busy CI machine distorts those)."""
    busy_seat = benchmark("busy_seat").busy_seat
    limited = busy_seat(inputs=150, mode="limited")
    assert limited["other"] == 0 and limited["taps_refused"] == 0 and limited["exit_code"] == 0, limited
    assert INPUT_BURST <= limited["accepted"] <= INPUT_BURST + INPUTS_PER_SECOND * limited["seconds"] + 1, limited
    assert limited["refused_429"] == 150 - limited["accepted"] and limited["can_undo_at_end"], limited
    raised = busy_seat(inputs=150, mode="raised")
    assert (raised["accepted"], raised["other"], raised["taps_refused"]) == (150, 0, 0) and raised["can_undo_at_end"], raised
    assert raised["host_snapshot_ms"]["count"] > 0 and raised["tap_answer_ms"]["count"] > 0, raised
