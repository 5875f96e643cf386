"""The host's camera tools: a picture of what the box's camera sees, and calibrating it from the page."""
from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.table.port import CameraPort
from web.api import json_body
from web.auth import Refusal, host_reader, host_writer, web_state

bp = Blueprint("camera_api", __name__, url_prefix="/api/camera")


def _camera() -> CameraPort:
    camera = web_state().camera
    if camera is None:
        raise Refusal(404, "not_found", "This box serves no camera tools.")
    return camera


@bp.get("/view.jpg")
def view() -> Response:
    """What the camera sees now, the tray and dice marked (host only); raises Refusal 403/404/429,
    CompanionError 409/503, TableBusy 503."""
    host_reader()
    response = Response(_camera().view(), mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/calibrate")
def calibrate() -> Response:
    """Calibrate the camera as it sees the tray now, and use it at once (host only); raises Refusal
    400/403/404/429, CompanionError 409/503, TableBusy 503."""
    host_writer()
    json_body(required=(), optional=(), empty_ok=True)
    return jsonify(_camera().calibrate())
