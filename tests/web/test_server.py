"""The waitress server: SSE chunks leave at once, streams are bounded, close() is quick (fake port)."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from web import create_app
from web.server import make_server


@pytest.fixture
def served(fake_port):
    """The app over the fake port, served by web.server on 127.0.0.1 (port 0), keepalive 0.2 s."""
    app = create_app(fake_port)
    app.config["SSE_KEEPALIVE"] = 0.2
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{server.port}"
    server.close()
    thread.join(5)


def test_port_zero_binds_a_free_port(served):
    server, _url = served
    assert server.port > 0


def test_each_event_is_flushed_at_once(served, fake_port, open_events):
    _server, url = served
    stream = open_events(url, token="seat0-token")
    assert stream.status == 200 and "text/event-stream" in stream.headers
    first = stream.next_block(timeout=1.0)
    assert first["retry"] == "2000" and first["event"] == "snapshot" and first["data"]["you"] == 0
    for _ in range(3):  # small events (~600 bytes), far below any send buffer, still arrive at once
        started = time.monotonic()
        fake_port.bump()
        assert stream.next_snapshot(timeout=1.0)["seq"] == fake_port.seq
        assert time.monotonic() - started < 0.5


def test_a_quiet_stream_gets_ping_events_a_page_can_see(served, open_events):
    _server, url = served
    stream = open_events(url, token="host-token")
    stream.next_snapshot(timeout=1.0)
    assert stream.next_block(timeout=2.0) == {"event": "ping", "data": {"every": 0.2}}


def test_a_stream_needs_a_token(served, open_events):
    _server, url = served
    assert open_events(url).status == 403
    assert open_events(url, token="wrong").status == 403


def test_a_phone_that_reconnects_ends_its_oldest_stream(served, open_events):
    _server, url = served
    streams = [open_events(url, token="seat1-token") for _ in range(9)]  # the box's own address: at most 8 streams
    for stream in streams:
        stream.next_snapshot(timeout=1.0)
    assert streams[0].ends_within(2.0)
    assert not streams[-1].ends_within(0.3)


def test_phones_sharing_a_seat_do_not_push_each_other_out(served, open_events):
    _server, url = served
    streams = [open_events(url, token="seat1-token", source=f"127.0.0.{index}") for index in range(2, 6)]
    for stream in streams:
        stream.next_snapshot(timeout=1.0)
    assert not any(stream.ends_within(0.3) for stream in streams)


def test_streams_are_capped_so_requests_still_get_threads(served, open_events, raw):
    server, url = served
    total = server.app.extensions["companion"].streams.total
    assert total == 12 - 8
    for index in range(total):
        open_events(url, token="seat0-token", source=f"127.0.0.{10 + index}").next_snapshot(timeout=1.0)
    refused = open_events(url, token="seat1-token", source="127.0.0.99")
    assert refused.status == 503
    assert open_events(url, token="seat0-token", source="127.0.0.10").status == 200  # a reconnect replaces
    status, _headers, _body = raw(url, "GET", "/api/state", None, {"Authorization": "Bearer host-token"})
    assert status == 200


def test_a_revoked_token_ends_its_stream(served, fake_port, open_events):
    _server, url = served
    stream = open_events(url, token="seat1-token")
    stream.next_snapshot(timeout=1.0)
    fake_port.tokens.reissue(1)
    fake_port.bump()
    assert stream.ends_within(2.0)


def test_close_ends_open_streams_quickly(fake_port, open_events):
    server = make_server(create_app(fake_port), host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    stream = open_events(f"http://127.0.0.1:{server.port}", token="host-token")
    stream.next_snapshot(timeout=1.0)
    started = time.monotonic()
    server.close()
    thread.join(5)
    assert not thread.is_alive() and time.monotonic() - started < 3.0


def test_a_stream_never_started_is_still_forgotten(fake_port):
    app = create_app(fake_port)
    book = app.extensions["companion"].streams
    with app.test_request_context("/api/events", headers={"Authorization": "Bearer host-token"}):
        response = app.view_functions["events.events"]()
        assert book.count() == 1
        response.close()
    assert book.count() == 0


def test_connections_drop_a_vanished_phone(served):
    """Keepalive probes and TCP_USER_TIMEOUT free a dead phone's stream thread within about 30 s."""
    server, _url = served
    with socket.create_connection(("127.0.0.1", server.port)):
        deadline = time.monotonic() + 2.0
        channels: list = []
        while not channels and time.monotonic() < deadline:
            channels = [each for each in list(server._waitress._map.values()) if type(each).__name__ == "HTTPChannel"]
            time.sleep(0.02)
        accepted = channels[0].socket
        assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 30_000
