"""Unit tests of tokens, same-site writes, the wrong-token limit and error mapping (fake port)."""
from __future__ import annotations

import logging

import pytest

from companion.rules.inputs import Move, StartGame, Undo
from companion.table.port import TableBusy
from companion.rules.errors import BadInput, CompanionError, IllegalMove, NotYourTurn, UnknownGame
from web import create_app, status_for
from web.auth import COOKIE, FailureLimiter

JSON = {"Content-Type": "application/json"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **JSON}


def test_a_seat_token_acts_only_for_its_seat(client, fake_port):
    ok = client.post("/api/actions", json={"seat": 1, "move": "end_turn"}, headers=bearer("seat1-token"))
    other = client.post("/api/actions", json={"seat": 0, "move": "end_turn"}, headers=bearer("seat1-token"))
    assert ok.status_code == 200
    assert other.status_code == 403 and other.json["error"] == "forbidden"
    assert fake_port.inputs == [(Move(1, "end_turn", {}), "phone")]


def test_the_host_token_acts_for_every_seat_and_alone_starts_games(client, fake_port):
    assert client.post("/api/actions", json={"seat": 0, "move": "x"}, headers=bearer("host-token")).status_code == 200
    body = {"game": "through-the-gate", "players": ["Ann", "Bob"]}
    assert client.post("/api/game", json=body, headers=bearer("seat0-token")).status_code == 403
    assert client.post("/api/game", json=body, headers=bearer("host-token")).status_code == 200
    started = fake_port.inputs[-1][0]
    assert isinstance(started, StartGame) and started.players == ("Ann", "Bob") and 0 <= started.seed < 2**32


def test_the_cookie_from_join_works_and_the_link_leaves_the_address_bar(client, fake_port):
    answer = client.get("/join?token=seat0-token")
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    cookie = answer.headers["Set-Cookie"]
    assert f"{COOKIE}=seat0-token" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/state").json["you"] == 0
    assert client.get("/join?token=host-token").headers["Location"] == "/host"


def test_a_wrong_join_link_says_why_and_sets_no_cookie(client):
    answer = client.get("/join?token=guess")
    assert answer.status_code == 403 and "Set-Cookie" not in answer.headers
    assert "not valid" in answer.get_data(as_text=True)


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic abc"}])
def test_reading_the_table_needs_a_token(client, headers):
    answer = client.get("/api/state", headers=headers)
    assert answer.status_code == 403 and answer.json["error"] == "forbidden" and answer.json["message"]


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
])
def test_cross_site_writes_are_refused_and_change_nothing(client, fake_port, headers):
    answer = client.post("/api/undo", json={}, headers={**bearer("host-token"), **headers})
    assert answer.status_code == 403 and answer.json["error"] == "cross_site"
    assert fake_port.inputs == []


def test_same_origin_writes_pass(client, fake_port):
    headers = {**bearer("host-token"), "Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/undo", json={}, headers=headers).status_code == 200
    assert fake_port.inputs == [(Undo(None), "phone")]


def test_writes_must_be_json(client, fake_port):
    form = client.post("/api/undo", data="a=1", headers={"Authorization": "Bearer host-token",
                                                          "Content-Type": "application/x-www-form-urlencoded"})
    broken = client.post("/api/undo", data="{not json", headers=bearer("host-token"))
    assert form.status_code == 403 and form.json["error"] == "json_required"
    assert broken.status_code == 400 and broken.json["error"] == "bad_json"
    assert fake_port.inputs == []


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, '{"seat": 0, "move": "m", "args": ' + '{"a":' * 2500 + "1" + "}" * 2501,
                                  b"\xff\xfe{", "", "null", '"text"'])
def test_absurd_json_is_a_400_never_a_500(client, fake_port, body):
    answer = client.post("/api/actions", data=body, headers=bearer("host-token"))
    assert answer.status_code == 400 and answer.json["error"] == "bad_json"
    assert fake_port.inputs == []


def test_state_changes_are_never_get(client):
    assert client.get("/api/undo", headers=bearer("host-token")).status_code == 405


def test_wrong_tokens_are_limited_per_address():
    clock = [0.0]
    limiter = FailureLimiter(limit=3, window=60, clock=lambda: clock[0])
    for _ in range(3):
        assert not limiter.blocked("10.0.0.5")
        limiter.fail("10.0.0.5")
    assert limiter.blocked("10.0.0.5") and not limiter.blocked("10.0.0.6")
    clock[0] = 61.0
    assert not limiter.blocked("10.0.0.5")


def test_ten_wrong_tokens_then_429_even_for_a_right_one(client):
    for _ in range(10):
        assert client.get("/api/state", headers={"Authorization": "Bearer nope"}).status_code == 403
    locked = client.get("/api/state", headers={"Authorization": "Bearer host-token"})
    assert locked.status_code == 429 and locked.json["error"] == "too_many_attempts"


@pytest.mark.parametrize("error, status", [
    (IllegalMove("No."), 409), (NotYourTurn("No."), 409), (BadInput("No."), 400), (UnknownGame("No."), 400),
    (CompanionError("No."), 409),
])
def test_refusals_map_to_statuses_with_the_sentence(client, fake_port, error, status):
    assert status_for(error) == status
    fake_port.refuse = error
    answer = client.post("/api/actions", json={"seat": 0, "move": "m"}, headers=bearer("host-token"))
    assert answer.status_code == status
    assert answer.json == {"error": error.code, "message": "No."}


def test_a_slow_engine_is_503_not_a_hang(client, fake_port):
    fake_port.refuse = TimeoutError("late")
    answer = client.post("/api/undo", json={}, headers=bearer("host-token"))
    assert answer.status_code == 503 and answer.json["error"] == "busy"
    assert answer.json["message"] == "The table did not answer in time; try again."  # not a bare "late"
    fake_port.refuse = TableBusy("The table did not answer in time, so nothing changed; try again.")
    answer = client.post("/api/undo", json={}, headers=bearer("host-token"))
    assert answer.status_code == 503 and answer.json["message"].endswith("so nothing changed; try again.")


def test_a_bug_is_a_json_500_without_a_traceback(client, fake_port):
    fake_port.refuse = KeyError("bug")
    answer = client.post("/api/undo", json={}, headers=bearer("host-token"))
    assert answer.status_code == 500 and set(answer.json) == {"error", "message"}


def test_pages_send_a_strict_policy(client):
    answer = client.get("/")
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    page = answer.get_data(as_text=True)
    assert "<script>" not in page and "style=" not in page and "games/through-the-gate.js" in page


def test_request_logs_never_show_tokens(fake_port, caplog):
    client = create_app(fake_port, log_requests=True).test_client()
    with caplog.at_level(logging.INFO, logger="companion.web"):
        client.get("/join?token=seat0-token")
        client.get("/api/state?token=seat0-token", headers={"Authorization": "Bearer seat1-token"})
    assert "GET /join 303" in caplog.text
    assert "token" not in caplog.text.replace("/join", "")


def test_press_is_404_outside_demo_mode(client, fake_port):
    fake_port.demo = False
    answer = client.post("/api/press", json={"button": "roll"}, headers=bearer("host-token"))
    assert answer.status_code == 404 and fake_port.pressed == []


def test_crops_and_qr_codes(client):
    assert client.get("/api/crops/die0.jpg", headers=bearer("seat1-token")).mimetype == "image/jpeg"
    assert client.get("/api/crops/gone.jpg", headers=bearer("seat1-token")).status_code == 404
    assert client.get("/api/seats/0/qr.svg", headers=bearer("seat0-token")).status_code == 403
    svg = client.get("/api/seats/0/qr.svg", headers=bearer("host-token"))
    assert svg.mimetype == "image/svg+xml" and svg.get_data(as_text=True).startswith("<svg")
    assert client.get("/api/seats/7/qr.svg", headers=bearer("host-token")).status_code == 404
