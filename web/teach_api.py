"""The host's "Teach the box your dice": the page, and the API it uses (host only)."""
from __future__ import annotations

from typing import Any, Protocol

from flask import Blueprint, Response, current_app, jsonify, render_template

from web.api import json_body
from web.auth import Refusal, host_reader, host_writer

bp = Blueprint("teach_api", __name__)
MOST_VALUES = 30


class TeachPort(Protocol):
    """The table's teaching desk as the web layer uses it (companion.camera.teach_desk.TeachingDesk)."""

    def look(self) -> dict[str, Any]: ...
    def answer(self, look: int, values: list[int | None]) -> dict[str, Any]: ...
    def status(self) -> dict[str, Any]: ...
    def switch(self, on: bool) -> dict[str, Any]: ...
    def wipe(self) -> dict[str, Any]: ...


def _desk() -> TeachPort:
    """The box's teaching desk; raises Refusal 404 where the box has no camera to teach."""
    desk = current_app.extensions.get("teach")
    if desk is None:
        raise Refusal(404, "not_found", "This box reads no dice with a camera, so there is nothing to teach it.")
    return desk


@bp.get("/host/teach")
def page() -> str:
    """The teaching page; its script asks the API; raises nothing."""
    return render_template("teach.html")


@bp.get("/api/teach")
def status() -> Response:
    """How many dice the table taught and how well the box reads them (host only); raises Refusal 403/404/429."""
    host_reader()
    return jsonify(_desk().status())


@bp.post("/api/teach/looks")
def look() -> Response:
    """Read the tray now and show each die (host only); raises Refusal 403/404/429, CompanionError 503, TableBusy 503."""
    host_writer()
    json_body(required=(), optional=(), empty_ok=True)
    return jsonify(_desk().look())


@bp.post("/api/teach/answers")
def answer() -> Response:
    """Keep a look's dice with the values the host gave, null to leave a die out (host only); raises Refusal
    400/403/404/429, CompanionError 400/409."""
    host_writer()
    body = json_body(required=("look", "values"), optional=())
    look, values = body["look"], body["values"]
    if isinstance(look, bool) or not isinstance(look, int):
        raise Refusal(400, "bad_input", "look must be the number a look at the tray answered.")
    if not isinstance(values, list) or len(values) > MOST_VALUES or not all(
            value is None or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6) for value in values):
        raise Refusal(400, "bad_input", "values must be a list with each die's value, 1 to 6, or null to leave it out.")
    return jsonify(_desk().answer(look, values))


@bp.post("/api/teach/learning")
def learning() -> Response:
    """Switch reading with what the table taught on or off (host only); raises Refusal 400/403/404/429."""
    host_writer()
    on = json_body(required=("on",), optional=())["on"]
    if not isinstance(on, bool):
        raise Refusal(400, "bad_input", "on must be true or false.")
    return jsonify(_desk().switch(on))


@bp.post("/api/teach/forget")
def wipe() -> Response:
    """Forget every die the table taught (host only; a JSON body, which a form from another site cannot send);
    raises Refusal 400/403/404/429."""
    host_writer()
    json_body(required=(), optional=(), empty_ok=True)
    return jsonify(_desk().wipe())
