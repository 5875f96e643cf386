"""Seeded random games for the memory's tests: through the real companion's HTTP API (every seat from its own token,
some rolls thrown for the camera to read, the moves weighted as the engine's seeded random player weighs them), or
through a session straight into a journal."""
from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from companion.games import registered_games
from companion.rules.autoplay import random_input, sample
from companion.rules.errors import CompanionError
from companion.rules.inputs import CorrectDice, DiceRolled, StartGame

GAMES = registered_games()


def call(server: Any, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One request, waiting out the per-token input limit (429) as a phone would."""
    for _ in range(100):
        status, answer = server.api(method, path, body, token=token)
        if status != 429:
            return status, answer
        time.sleep(0.25)
    raise AssertionError(f"{path} stayed at 429")


def play_game(server: Any, game: str, players: list[str], rng: random.Random, rolled: Counter,
              thrown: dict[int, int] | None = None) -> None:
    """Play a seeded random game to its end through the API, each seat with its own token; count the dice taken.
    With `thrown`, a roll of one d6 asked of one seat is thrown (demo ROLL) for the camera half the time, and
    `thrown` notes the journal entry of each camera read → the seat whose roll it was."""
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
            if thrown is not None and sides == [6] and len(seats) == 1 and rng.random() < 0.5:
                snap = throw(server, snap, seats[0], thrown)
                continue
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


def throw(server: Any, snap: dict[str, Any], seat: int, thrown: dict[int, int]) -> dict[str, Any]:
    """Press ROLL (demo mode throws the dice) and wait for the camera's read, throwing again when the camera asks
    to (as players do: a synthetic die may land where the last one lay); note its entry and seat."""
    before = (snap["dice"] or {}).get("seq")
    for _ in range(3):
        assert call(server, "POST", "/api/press", {"button": "roll"}, server.host_token)[0] == 200
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            snap = call(server, "GET", "/api/state", None, server.host_token)[1]
            dice = snap["dice"] or {}
            if dice.get("seq") != before and "camera" in dice.get("origins", []):
                thrown[int(dice["seq"])] = seat
                return snap
            if snap["camera"]["status"] == "reroll":
                break
            time.sleep(0.05)
    raise AssertionError(f"the camera never read the roll: {snap}")


def play_out(session: Any, game: str, players: tuple[str, ...], rng: random.Random, rolled: Counter) -> None:
    """Play one seeded random game to its end through a session, counting each die the journal keeps as (sides,
    face); some rolls are corrected, half come from the camera."""
    definition = GAMES[game]
    players = players[:max(2, definition.min_players)]
    session.submit(StartGame(game, players, {}, rng.randrange(2**31)), source="host")
    last: list[tuple[int, int]] = []
    for _ in range(5000):
        if definition.outcome(session.table.state) is not None:
            return
        given = random_input(session.table, definition, rng)
        if isinstance(given, DiceRolled) and rng.random() < 0.1 and session.table.last_roll is not None:
            roll = session.table.last_roll.roll
            given = CorrectDice(tuple(rng.randint(1, sides) for sides in roll.sides), roll.sides)
        try:
            session.submit(given, source="camera" if rng.random() < 0.5 else "phone")
        except CompanionError:
            continue
        if isinstance(given, CorrectDice):
            rolled.subtract(last)
        if isinstance(given, (DiceRolled, CorrectDice)):
            last = list(zip(given.sides, given.values))
            rolled.update(last)
    raise AssertionError(f"{game} did not end")
