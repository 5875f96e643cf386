"""The JSON API the phones and the host page use: read the table, act, roll by hand, start a game."""
from __future__ import annotations

import json
import re
import secrets
from typing import Any

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, jsonify, request

from companion.rules.engine import MAX_NAME
from companion.rules.inputs import CorrectDice, DiceRolled, Input, Move, StartGame, Undo
from companion.rules.names import check_name
from companion.table.port import PANEL_BUTTONS, Holder, Seen, TablePort
from web.auth import (
    COOKIE, COOKIE_SECONDS, Refusal, host_reader, host_writer, may_act_for, reader, web_state, writer,
)
from web.limits import limit_inputs
from web.openapi import document

bp = Blueprint("api", __name__, url_prefix="/api")

CROP_NAME = re.compile(r"[A-Za-z0-9_.-]{1,80}")
MAX_DICE = 20
MAX_SIDES = 1000
MAX_PLAYERS = 16
MAX_TEXT = 64
MAX_NAME_CODES = 256
"""A name's length in code points, bounded only against abuse: the rules count the characters people see
(a family emoji is 5 code points, a flag up to 7)."""


def _port() -> TablePort:
    return web_state().port


# --- reading ------------------------------------------------------------------------------
@bp.get("/state")
def state() -> Response:
    """The table as the token's holder sees it; raises Refusal 403/429."""
    holder = reader()
    return jsonify(_port().snapshot(holder.seat))


@bp.get("/games")
def games() -> Response:
    """The games the host can start; raises nothing."""
    return jsonify(_port().games())


@bp.get("/history")
def history() -> Response:
    """The games played, newest first; raises Refusal 403/429."""
    reader()
    return jsonify(_port().history())


@bp.get("/crops/<name>.jpg")
def crop(name: str) -> Response:
    """A die's crop from the last camera read (JPEG); raises Refusal 403/429, 404 when unknown."""
    reader()
    image = _port().crop(name) if CROP_NAME.fullmatch(name) else None
    if image is None:
        raise Refusal(404, "not_found", "That picture of a die is gone; only the last roll's dice are kept.")
    response = Response(image, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3 description of this API; raises nothing."""
    return jsonify(document())


# --- acting -------------------------------------------------------------------------------
@bp.post("/actions")
def actions() -> Response:
    """Make a move for a seat; raises Refusal 400/403/429, CompanionError 409/400."""
    holder = writer()
    body = json_body(required=("seat", "move"), optional=("args", "game_no"))
    seat = _whole(body["seat"], "seat", 0, 63)
    move = _text(body["move"], "move")
    args = body.get("args", {})
    if not isinstance(args, dict):
        raise Refusal(400, "bad_input", "args must be an object.")
    may_act_for(holder, seat)
    return _submit(holder, Move(seat, move, args), seen=_seen(body))


@bp.post("/dice")
def dice() -> Response:
    """A roll entered by hand; raises Refusal 400/403/429, CompanionError 409/400."""
    holder = writer()
    body = json_body(required=("values", "sides"), optional=("game_no", "roll_seq"))
    values, sides = _roll(body)
    return _submit(holder, DiceRolled(values, sides, origins=("phone",) * len(values), seat=holder.seat), seen=_seen(body))


@bp.post("/dice/correct")
def correct_dice() -> Response:
    """The last roll put right; raises Refusal 400/403/429, CompanionError 409/400."""
    holder = writer()
    body = json_body(required=("values", "sides"), optional=("game_no", "roll_seq"))
    values, sides = _roll(body)
    return _submit(holder, CorrectDice(values, sides, seat=holder.seat), seen=_seen(body))


@bp.post("/undo")
def undo() -> Response:
    """Take back the last move of the turn; raises Refusal 400/403/429, CompanionError 409."""
    holder = writer()
    body = json_body(required=(), optional=("game_no",), empty_ok=True)
    return _submit(holder, Undo(seat=holder.seat), seen=_seen(body))


@bp.post("/press")
def press() -> Response:
    """Press a virtual panel button, or hold NEXT and UNDO together ("claim") (demo mode only); raises Refusal
    400/403/404/429."""
    holder = writer()
    port = _port()
    if not port.demo:
        raise Refusal(404, "not_found", "The virtual panel exists only in demo mode.")
    button = json_body(required=("button",), optional=())["button"]
    if button not in PANEL_BUTTONS:
        raise Refusal(400, "bad_input", f"button must be one of {', '.join(PANEL_BUTTONS)}.")
    limit_inputs(holder)
    port.press(button, by=holder)
    return jsonify(port.snapshot(holder.seat))


@bp.post("/game")
def new_game() -> Response:
    """Start a new game (host only); raises Refusal 400/403/429, CompanionError 400."""
    holder = host_writer()
    body = json_body(required=("game", "players"), optional=("options", "ends_game"))
    game = _text(body["game"], "game")
    players = body["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise Refusal(400, "bad_input", f"players must be a list of 1 to {MAX_PLAYERS} names.")
    names = tuple(_name(name) for name in players)  # judged by what people see: companion/rules/names.py
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise Refusal(400, "bad_input", "options must be an object.")
    given = StartGame(game, names, options, seed=secrets.randbits(32))
    ends = body.get("ends_game")
    return _submit(holder, given, source="host", seen=Seen(ends_game=None if ends is None else _whole(ends, "ends_game", 0, 2**53)))


@bp.post("/seats/<int:seat>/token")
def reissue(seat: int) -> Response:
    """Revoke a seat's token and issue a new one (host only); raises Refusal 403/404."""
    host_writer()
    json_body(required=(), optional=(), empty_ok=True)
    port = _seat_at_table(seat)
    port.tokens.reissue(seat)
    return jsonify({"seat": seat, "url": port.join_url(Holder(seat))})


@bp.get("/seats/<int:seat>/qr.svg")
def seat_qr(seat: int) -> Response:
    """The QR code (SVG) a seat's phone scans to join (host only); issues nothing (a new game does, or the POST
    above); raises Refusal 403/404, 409 when the seat holds no link."""
    host_reader()
    port = _seat_at_table(seat)
    if not port.tokens.has_seat_token(seat):
        raise Refusal(409, "no_seat_link", f"Seat {seat} has no link yet; press “New QR code” to make one.")
    image = qrcode.make(port.join_url(Holder(seat)), image_factory=qrcode.image.svg.SvgPathFillImage, border=2)
    response = Response(image.to_string(encoding="unicode"), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/host/token")
def new_host_link() -> Response:
    """End the host's link and issue a new one (host only): the old one is refused from the next request on and its
    event streams end; this browser gets the new one as its cookie; raises Refusal 403/429."""
    host_writer()
    json_body(required=(), optional=(), empty_ok=True)
    port = _port()
    token = port.tokens.reissue_host()
    response = jsonify({"url": port.join_url(Holder(None))})
    response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="Strict")
    return response


# --- helpers ------------------------------------------------------------------------------
def _submit(holder: Holder, given: Input, *, source: str = "phone", seen: Seen | None = None) -> Response:
    """Give the table one input and answer with the holder's snapshot; raises TooManyInputs (429) when the holder's
    phone sends too many at once, CompanionError when the rules refuse it."""
    limit_inputs(holder)
    port = _port()
    port.submit(given, source=source, seen=seen)
    return jsonify(port.snapshot(holder.seat))


def _seen(body: dict[str, Any]) -> Seen:
    """What the sender's page showed: the game's number and the last roll's seq (each may be left out)."""
    game_no, roll_seq = body.get("game_no"), body.get("roll_seq")
    return Seen(None if game_no is None else _whole(game_no, "game_no", 0, 2**53),
                None if roll_seq is None else _whole(roll_seq, "roll_seq", 0, 2**53))


def _seat_at_table(seat: int) -> TablePort:
    port = _port()
    if not 0 <= seat < len(port.snapshot(None)["players"]):
        raise Refusal(404, "not_found", f"There is no seat {seat} at this table.")
    return port


def json_body(*, required: tuple[str, ...], optional: tuple[str, ...], empty_ok: bool = False) -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if empty_ok and not raw:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        body = None
    if not isinstance(body, dict):
        raise Refusal(400, "bad_json", "The body must be a JSON object.")
    missing = [key for key in required if key not in body]
    if missing:
        raise Refusal(400, "bad_input", f"The body is missing {', '.join(missing)}.")
    unknown = sorted(key for key in body if key not in required + optional)
    if unknown:
        raise Refusal(400, "bad_input", f"Unknown field {unknown[0]!r}; accepted: {', '.join(required + optional) or 'none'}.")
    return body


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refusal(400, "bad_input", f"{name} must be a whole number from {low} to {high}.")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_TEXT:
        raise Refusal(400, "bad_input", f"{name} must be text of 1 to {MAX_TEXT} characters.")
    return value


def _name(value: Any) -> str:
    """The name as given; raises Refusal when it is no text or too long, BadInput when people would not see it
    (the engine also replays older journals' names, so the new game's names are judged here first)."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME_CODES:
        raise Refusal(400, "bad_input", f"Each player's name must be text of at most {MAX_NAME} characters.")
    check_name(value, MAX_NAME)
    return value


def _roll(body: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    values, sides = body["values"], body["sides"]
    if not isinstance(values, list) or not isinstance(sides, list) or not 1 <= len(values) <= MAX_DICE:
        raise Refusal(400, "bad_input", f"values and sides must be lists of 1 to {MAX_DICE} numbers.")
    if len(values) != len(sides):
        raise Refusal(400, "bad_input", "Give one number of sides for every die value.")
    checked_sides = tuple(_whole(count, "Each die's sides", 2, MAX_SIDES) for count in sides)
    checked_values = tuple(_whole(value, "Each die's value", 1, MAX_SIDES) for value in values)
    return checked_values, checked_sides
