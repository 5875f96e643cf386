"""The web front: a Flask application factory serving the phones' page, the host page and the API."""
from __future__ import annotations

import logging
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.table.port import CameraPort, TableBusy, TablePort
from companion.rules.errors import BadInput, CompanionError, IllegalMove, UnknownGame
from companion.rules.said import korean
from web import api, camera_api, claim_api, events, limits, memory_api, memory_pages, pages, teach_api
from web.auth import FailureLimiter, Refusal, WebState
from web.events import StreamBook

MAX_BODY = 16 * 1024
DEFAULT_STREAMS = 40
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
HTTP_ERRORS = {
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not take that method."),
    413: ("too_large", f"The request is too large (at most {MAX_BODY // 1024} KB)."),
}
log = logging.getLogger("companion.web")


def create_app(port: TablePort, *, camera: CameraPort | None = None, log_requests: bool = False,
               inputs_per_second: float = limits.INPUTS_PER_SECOND, input_burst: int = limits.INPUT_BURST,
               memory: memory_api.MemoryPort | None = None, streams_per_link: int = events.PER_TOKEN,
               teach: teach_api.TeachPort | None = None) -> Flask:
    """The Flask app serving the table through `port`, and the box's camera through `camera` (None: the host page
    says there is none), each token's inputs limited to `input_burst` at once, `inputs_per_second` after that;
    the table's memory of past games through `memory` (None: none kept), at most `streams_per_link` event streams on
    one link; "Teach the box your dice" through `teach` (None: the box has no camera to teach); raises nothing."""
    app = Flask(__name__)
    app.url_map.merge_slashes = False  # '/static//app.js' is not found, not redirected to an URL built from the Host header
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, SSE_KEEPALIVE=15.0, LOG_REQUESTS=log_requests)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["companion"] = WebState(port=port, limiter=FailureLimiter(), streams=StreamBook(total=DEFAULT_STREAMS,
                                                                                           per_token=streams_per_link),
                                           camera=camera)
    app.extensions["memory"] = memory
    app.extensions["teach"] = teach
    limits.install(app, per_second=inputs_per_second, burst=input_burst)
    for blueprint in (pages.bp, api.bp, camera_api.bp, claim_api.bp, events.bp, memory_api.bp, memory_pages.bp,
                      teach_api.bp):
        app.register_blueprint(blueprint)
    _add_error_handlers(app)
    app.after_request(_secure)
    return app


def status_for(error: CompanionError) -> int:
    """The HTTP status of a refusal from the rules: 400 bad input, 409 not allowed now; raises nothing."""
    if isinstance(error, (BadInput, UnknownGame)):
        return 400
    if isinstance(error, IllegalMove):
        return 409
    return 503 if isinstance(error, (RuntimeError, OSError)) else 409


def _failure(status: int, code: str, message: str) -> Response:
    twin = korean(message)
    response = jsonify({"error": code, "message": message, **({"message_ko": twin} if twin is not None else {})})
    response.status_code = status
    return response


def _add_error_handlers(app: Flask) -> None:
    @app.errorhandler(Refusal)
    def refused(error: Refusal) -> Response:
        return _failure(error.status, error.code, error.message)

    @app.errorhandler(limits.TooManyInputs)
    def too_many(error: limits.TooManyInputs) -> Response:
        response = _failure(error.status, error.code, error.message)
        response.headers["Retry-After"] = error.retry_after_header
        return response

    @app.errorhandler(CompanionError)
    def companion_refused(error: CompanionError) -> Response:
        return _failure(status_for(error), error.code, error.message)

    @app.errorhandler(TimeoutError)
    def timed_out(error: TimeoutError) -> Response:
        said = str(error) if isinstance(error, TableBusy) else "The table did not answer in time; try again."
        return _failure(503, "busy", said)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        default = ((error.name or "error").lower().replace(" ", "_"), error.description or error.name)
        code, message = HTTP_ERRORS.get(status, default)
        return _failure(status, code, message)

    @app.errorhandler(Exception)
    def broken(error: Exception) -> Response:
        log.exception("web: %s %s failed", request.method, request.path)
        return _failure(500, "internal", "Something went wrong on the box; the table is unchanged.")


def _secure(response: Response) -> Response:
    headers = response.headers
    headers["Content-Security-Policy"] = CSP
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Frame-Options"] = "DENY"
    headers["Cross-Origin-Opener-Policy"] = "same-origin"
    headers["Cross-Origin-Resource-Policy"] = "same-origin"
    location = headers.get("Location")
    if location:  # a redirect names a path on this box, never the host a request's Host header gave
        parts = urlsplit(location)
        headers["Location"] = urlunsplit(("", "", "/" + parts.path.lstrip("/"), parts.query, parts.fragment))
    if request.path.startswith("/api/") and "Cache-Control" not in headers:
        headers["Cache-Control"] = "no-store"
    if current_app.config.get("LOG_REQUESTS"):
        log.info("%s %s %s", request.method, request.path, response.status_code)  # the path only: no query string
    return response
