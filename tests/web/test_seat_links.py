"""A new game with other people in a seat gives that seat a new link; a rematch keeps every phone in its seat.

Over the real server on 127.0.0.1: a phone from the last game must not act for whoever sits there now.
"""
from __future__ import annotations

from typing import Any


def start(server: Any, game: str, players: list[str]) -> None:
    status, _ = server.api("POST", "/api/game", {"game": game, "players": players}, token=server.host_token)
    assert status == 200


def seat_of(server: Any, token: str) -> tuple[int, Any]:
    """(status, the seat the table says this token holds) for GET /api/state."""
    status, body = server.api("GET", "/api/state", token=token)
    return status, body.get("you") if status == 200 else body.get("message")


def test_a_new_player_in_a_seat_gets_a_new_link_and_the_old_phone_is_out(companion_server: Any) -> None:
    server = companion_server
    start(server, "through-the-gate", ["Ann", "Bob"])
    ann, bob = server.seat_token(0), server.seat_token(1)
    start(server, "through-the-gate", ["Ann", "Cy"])
    assert seat_of(server, ann) == (200, 0)  # Ann stays in her seat
    status, why = seat_of(server, bob)
    assert status == 403 and "not valid" in why  # Bob's phone no longer acts for Cy
    cy = server.seat_token(1)
    assert cy != bob and seat_of(server, cy) == (200, 1)


def test_a_rematch_keeps_every_phone_in_its_seat(companion_server: Any) -> None:
    server = companion_server
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    tokens = [server.seat_token(seat) for seat in range(3)]
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    assert [seat_of(server, token) for token in tokens] == [(200, 0), (200, 1), (200, 2)]


def test_a_smaller_table_then_a_larger_one_does_not_give_the_old_phone_its_seat_back(companion_server: Any) -> None:
    server = companion_server
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    cy = server.seat_token(2)
    start(server, "through-the-gate", ["Ann", "Bob"])
    start(server, "eight-gates", ["Ann", "Bob", "Dee"])
    assert seat_of(server, cy)[0] == 403


def test_a_smaller_game_in_between_keeps_the_phone_of_the_player_who_comes_back(companion_server: Any) -> None:
    server = companion_server
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    cy = server.seat_token(2)
    start(server, "the-gate", ["Ann", "Bob"])  # Cy watches this one
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    assert seat_of(server, cy) == (200, 2)


def test_a_rematch_keeps_the_links_of_names_typed_with_other_spaces_or_case(companion_server: Any) -> None:
    server = companion_server
    start(server, "eight-gates", ["Ann  Lee", "bob", "Cy"])  # the table shows "Ann Lee", "bob" and "Cy"
    tokens = [server.seat_token(seat) for seat in range(3)]
    start(server, "eight-gates", ["Ann Lee", "Bob", "Cy"])  # the host's rematch, the names retyped
    assert [seat_of(server, token) for token in tokens] == [(200, 0), (200, 1), (200, 2)]


def test_a_seat_last_taken_long_ago_still_gets_a_new_link_for_someone_else(companion_server: Any) -> None:
    server = companion_server
    start(server, "eight-gates", ["Ann", "Bob", "Cy"])
    cy = server.seat_token(2)
    for _ in range(101):  # a long season of two-player games
        start(server, "the-gate", ["Ann", "Bob"])
    start(server, "eight-gates", ["Ann", "Bob", "Dee"])
    assert seat_of(server, cy)[0] == 403
