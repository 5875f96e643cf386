"""The table's memory over HTTP: dice statistics, the finished games (plays), each replayed step by step,
players, BG Stats links and the exports. Read-only but for merging two names (host only).

The web front codes against MemoryPort; the daemon gives it companion.memory's Memory, which reads the journal
through a read-only connection of its own, so none of this waits on the engine loop.
"""
from __future__ import annotations

from typing import Any, Protocol

from flask import Blueprint, Response, current_app, jsonify, request

from companion.rules.errors import CompanionError
from web.api import json_body
from web.auth import Refusal, host_reader, host_writer, reader

bp = Blueprint("memory_api", __name__, url_prefix="/api")
MAX_NAME = 256


class MemoryPort(Protocol):
    """What the web front asks of the table's memory; every method raises CompanionError with a sentence."""

    def dice(self, scope: str = "all", game_id: int | None = None) -> dict[str, Any]:
        """The dice statistics of every game or of one."""

    def plays(self) -> list[dict[str, Any]]:
        """The finished games, oldest first."""

    def play(self, game_id: int) -> dict[str, Any]:
        """One finished game."""

    def bgstats(self, game_id: int) -> dict[str, Any]:
        """The play as BG Stats' push-plays link and JSON."""

    def steps(self, game_id: int) -> dict[str, Any]:
        """A game's steps."""

    def step(self, game_id: int, step: int) -> dict[str, Any]:
        """The table after one step."""

    def players(self) -> list[dict[str, Any]]:
        """Every player."""

    def player(self, name: str) -> dict[str, Any]:
        """One player's record."""

    def merge(self, name: str, into: str) -> dict[str, Any]:
        """Count `name` as `into`."""

    def export_json(self) -> str:
        """Every play as JSON."""

    def export_csv(self) -> str:
        """Every play as CSV."""

    def dice_csv(self) -> str:
        """The dice counts as CSV."""


def memory() -> MemoryPort:
    """The app's memory; raises Refusal 404 when this app keeps none."""
    found = current_app.extensions.get("memory")
    if found is None:
        raise Refusal(404, "not_found", "This box keeps no memory of past games.")
    return found


LARGEST = 2**53


def _known(number: int) -> int:
    """A game's or step's number from the path; raises Refusal 404 for one no journal can hold."""
    if number > LARGEST:
        raise Refusal(404, "not_found", f"There is no number {number} in the journal.")
    return number


def _game_number(raw: str | None) -> int | None:
    """The ?game= number, or None; raises Refusal 400 for one that is not a whole number."""
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 15:
        raise Refusal(400, "bad_input", "game must be a game's number (a whole number).")
    return int(raw)


@bp.get("/stats/dice")
def dice() -> Response:
    """Dice statistics: scope=all (every game) or scope=game (the newest, or ?game=N); raises Refusal, CompanionError."""
    reader()
    scope = request.args.get("scope", "all")
    if scope not in ("all", "game"):
        raise Refusal(400, "bad_input", "scope must be 'all' or 'game'.")
    game = _game_number(request.args.get("game"))
    return jsonify(memory().dice(scope, None if game is None else _known(game)))


@bp.get("/stats/dice.csv")
def dice_csv() -> Response:
    """The dice counts as CSV (host only); raises Refusal, CompanionError."""
    host_reader()
    return _download(memory().dice_csv(), "text/csv", "dice.csv")


@bp.get("/plays")
def plays() -> Response:
    """The finished games, newest first; raises Refusal, CompanionError."""
    reader()
    return jsonify({"plays": memory().plays()[::-1]})


@bp.get("/plays.csv")
def plays_csv() -> Response:
    """Every play as CSV, one row per player (host only); raises Refusal, CompanionError."""
    host_reader()
    return _download(memory().export_csv(), "text/csv", "plays.csv")


@bp.get("/plays.json")
def plays_json() -> Response:
    """Every play as JSON (host only); raises Refusal, CompanionError."""
    host_reader()
    return _download(memory().export_json(), "application/json", "plays.json")


@bp.get("/plays/<int:play>")
def one_play(play: int) -> Response:
    """One finished game; raises Refusal, CompanionError (404 when there is none)."""
    reader()
    return jsonify(memory().play(_known(play)))


@bp.get("/plays/<int:play>/bgstats")
def bgstats(play: int) -> Response:
    """The play as BG Stats' push-plays link; raises Refusal, CompanionError."""
    reader()
    return jsonify(memory().bgstats(_known(play)))


@bp.get("/plays/<int:play>/steps")
def steps(play: int) -> Response:
    """A game's steps, to replay it; raises Refusal, CompanionError."""
    reader()
    return jsonify(memory().steps(_known(play)))


@bp.get("/plays/<int:play>/steps/<int:step>")
def step(play: int, step: int) -> Response:
    """The table as it was after one step, as the host saw it; raises Refusal, CompanionError."""
    reader()
    return jsonify(memory().step(_known(play), _known(step)))


@bp.get("/players")
def players() -> Response:
    """Every player, most plays first; raises Refusal, CompanionError."""
    reader()
    return jsonify({"players": memory().players()})


@bp.get("/players/<path:name>")
def player(name: str) -> Response:
    """One player's record across games; raises Refusal, CompanionError."""
    reader()
    if len(name) > MAX_NAME:
        raise Refusal(400, "bad_input", f"A player's name has at most {MAX_NAME} characters.")
    return jsonify(memory().player(name))


@bp.post("/merges")  # not under /players/, where a player may be called "merge"
def merge() -> Response:
    """Count one name as another player (host only); raises Refusal, CompanionError (nothing kept then)."""
    host_writer()
    body = json_body(required=("name", "into"), optional=())
    names = [body["name"], body["into"]]
    if not all(isinstance(each, str) and 0 < len(each) <= MAX_NAME for each in names):
        raise Refusal(400, "bad_input", f"name and into must be players' names (1 to {MAX_NAME} characters).")
    return jsonify(memory().merge(names[0], names[1]))


@bp.errorhandler(CompanionError)
def refused(error: CompanionError) -> Response:
    """A game or player the memory does not have is 404, bad input 400, an unreadable journal 503; raises
    nothing."""
    status = 404 if error.code == "not_found" else 400 if error.code == "bad_input" else 503
    response = jsonify({"error": error.code, "message": error.message})
    response.status_code = status
    return response


def _download(text: str, kind: str, name: str) -> Response:
    response = Response(text, mimetype=kind)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

