"""The live push against the real companion: the snapshot first, then every change within 1 s."""
from __future__ import annotations


NEW_GAME = {"game": "through-the-gate", "players": ["Ann", "Bob", "Cy"]}


def test_snapshot_first_then_each_change_within_a_second(companion_server, open_events, api_schemas):
    server = companion_server
    server.api("POST", "/api/game", NEW_GAME, token=server.host_token)
    bob = open_events(server.url, token=server.seat_token(1))
    host = open_events(server.url, token=server.host_token)
    assert bob.status == 200 and "text/event-stream" in bob.headers and "cache-control: no-cache" in bob.headers
    first = bob.next_snapshot(timeout=10.0)
    assert first["you"] == 1 and first["players"] == ["Ann", "Bob", "Cy"]
    assert host.next_snapshot(timeout=10.0)["you"] is None

    status, _ = server.api("POST", "/api/dice", {"values": [4], "sides": [6]}, token=server.seat_token(0))
    assert status == 200
    pushed = bob.next_snapshot(timeout=10.0)
    assert pushed["seq"] > first["seq"] and pushed["view"]["roll_off"]["rolls"] == [4]
    assert pushed["awaiting_dice"]["why"] == "Bob rolls for first player."
    assert host.next_snapshot(timeout=10.0)["seq"] == pushed["seq"]
    for snapshot in (first, pushed):
        api_schemas.check("GET", "/api/state", 200, snapshot)


def test_every_reconnect_starts_with_the_full_snapshot(companion_server, open_events):
    server = companion_server
    first = open_events(server.url, token=server.seat_token(0)).next_snapshot(timeout=10.0)
    server.api("POST", "/api/press", {"button": "next"}, token=server.host_token)
    again = open_events(server.url, token=server.seat_token(0), headers={"Last-Event-ID": str(first["seq"])})
    snapshot = again.next_snapshot(timeout=10.0)
    assert snapshot["seq"] >= first["seq"] and set(snapshot) == set(first)


def test_a_stream_is_for_the_players_only(companion_server, open_events):
    assert open_events(companion_server.url).status == 403
    assert open_events(companion_server.url, token="not-a-token").status == 403


def test_twenty_phones_all_get_each_push_and_the_api_still_answers(companion_server, open_events):
    server = companion_server
    tokens = [server.seat_token(0), server.seat_token(1), server.host_token]
    phones = [open_events(server.url, token=tokens[index % 3], source=f"127.0.1.{index + 1}") for index in range(20)]
    seq = max(phone.next_snapshot(timeout=10.0)["seq"] for phone in phones)
    status, _ = server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.seat_token(0))
    assert status == 200
    for phone in phones:  # how fast is benchmarks/push.py's and evening.py's to say, not a timed test's
        assert phone.next_snapshot(timeout=10.0)["seq"] > seq
    assert server.api("GET", "/api/state", token=server.host_token)[0] == 200


def test_a_demo_laptops_tabs_keep_their_streams_and_a_phone_coming_back_ends_its_old_one():
    from web.events import StreamBook

    book = StreamBook(total=64)
    tabs = [book.open("192.0.2.2", own=True) for _ in range(5)]  # the host and four seats, in the laptop's tabs
    assert not any(tab.is_set() for tab in tabs)  # used to be 3 an address: the tabs pushed each other out
    phone = [book.open("192.168.1.20") for _ in range(4)]  # a phone back from the background, a fourth time
    assert [stream.is_set() for stream in phone] == [True, False, False, False]


def test_a_stream_from_the_box_s_own_address_is_the_demo_laptop_and_one_from_elsewhere_a_phone(monkeypatch):
    from flask import Flask

    import web.events
    from web.events import _from_the_box

    # the box's address, as its join link shows it
    monkeypatch.setattr(web.events, "lan_address", lambda: "192.0.2.2", raising=False)
    app = Flask(__name__)
    for host, address, own in (("192.0.2.2:8080", "192.0.2.2", True), ("192.0.2.2:8080", "192.0.2.20", False),
                               ("192.0.2.20:8080", "192.0.2.20", False),  # a phone naming itself in Host: still a phone
                               ("192.0.2.2:8080", "127.0.0.1", True), ("[::1]:8080", "::1", True)):
        with app.test_request_context("/api/events", headers={"Host": host}):
            assert _from_the_box(address) is own, (host, address)


def test_a_gone_phone_is_logged_once_however_its_stream_ended_and_a_replaced_one_not(caplog):
    import logging
    import threading

    from web.events import Ends, StreamBook

    caplog.set_level(logging.INFO, logger="web.events")
    book = StreamBook(total=64)
    gone = book.open("192.0.2.30")  # the server found it gone writing to it: the stream never looked
    Ends(gone, threading.Event(), lambda: True, "192.0.2.30").closed(book)
    replaced = book.open("192.0.2.31")
    replaced.set()  # a newer stream took its place: its phone is still there
    Ends(replaced, threading.Event(), lambda: True, "192.0.2.31").closed(book)
    lines = [record.getMessage() for record in caplog.records]
    assert lines == ["a phone at 192.0.2.30 closed its event stream"] and book.count() == 0
