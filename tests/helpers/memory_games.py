"""Seeded random games played through the real companion's HTTP API, for the memory's tests: every seat from its
own token, the moves weighted as the engine's seeded random player weighs them."""
from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from companion.games import registered_games
from companion.rules.autoplay import sample


def call(server: Any, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One request, waiting out the per-token input limit (429) as a phone would."""
    for _ in range(100):
        status, answer = server.api(method, path, body, token=token)
        if status != 429:
            return status, answer
        time.sleep(0.25)
    raise AssertionError(f"{path} stayed at 429")


def play_game(server: Any, game: str, players: list[str], rng: random.Random, rolled: Counter) -> None:
    """Play a seeded random game to its end through the API, each seat with its own token; count the dice taken."""
    status, snap = call(server, "POST", "/api/game", {"game": game, "players": players, **server.ending_this_game()},
                        server.host_token)
    assert status == 200, snap
    for _ in range(3000):
        if snap["outcome"] is not None:
            return
        if snap["awaiting_dice"] is not None and (not snap["legal_moves"] or rng.random() < 0.85):
            sides = snap["awaiting_dice"]["sides"]
            values = [rng.randint(1, side) for side in sides]
            seats = snap["awaiting_dice"]["seats"]
            token = server.seat_token(seats[0]) if len(seats) == 1 else server.host_token
            status, answer = call(server, "POST", "/api/dice", {"values": values, "sides": sides}, token)
            if status == 200:
                rolled.update(zip(sides, values))
        else:
            rules = registered_games()[game]  # the moves weighted as the engine's seeded random player weighs them
            legal = snap["legal_moves"]
            move = rng.choices(legal, weights=[rules.move(each["move"]).weight for each in legal])[0]
            body = {"seat": move["seat"], "move": move["move"], "args": sample(move["args"], rng)}
            status, answer = call(server, "POST", "/api/actions", body, server.seat_token(move["seat"]))
        assert status in (200, 400, 409), answer
        snap = call(server, "GET", "/api/state", None, server.host_token)[1]  # every seat's moves
    raise AssertionError(f"{game} did not end")
