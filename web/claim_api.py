"""Claiming a box with no screen from a phone: is the box taking a new host, become it, and where the box is.

NEXT and UNDO held together on the box open a minute (companion/table/claim.py) in which the first phone to ask
becomes the host, without a link: the person holding the box decided. The phone gets a new host link (the old one
ends) and goes through /join with it, so it holds the cookie. An address locked out for too many wrong links
(web/auth.py) cannot claim either; a refused claim is not counted as a wrong link, since it guesses nothing: the
window, opened by a hand on the box, is the gate.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, request

from companion.table.port import Holder
from web.auth import Refusal, check_same_site, host_reader, web_state
from web.api import json_body

bp = Blueprint("claim_api", __name__, url_prefix="/api")


@bp.get("/claim")
def claim_state() -> Response:
    """Whether a phone may become the host now, and for how many more seconds (no link needed); raises nothing."""
    return jsonify(web_state().port.claim.state())


@bp.post("/claim")
def claim() -> Response:
    """Become the host while the box's claim window is open (no link needed): a new host link, the old one ended;
    raises Refusal 400/403/429, ClaimClosed or ClaimTaken (409, nothing changed)."""
    check_same_site()
    json_body(required=(), optional=(), empty_ok=True)
    state = web_state()
    address = request.remote_addr or "unknown"
    if state.limiter.blocked(address):
        raise Refusal(429, "too_many_attempts", "Too many tries from this device; wait a minute, then try again.")
    token = state.port.claim_host()
    return jsonify({"url": state.port.join_url(Holder(None)), "join": f"/join?{urlencode({'token': token})}"})


@bp.get("/host/address")
def address() -> Response:
    """Where phones find the box: its announced name (or null) and its IP address, as URLs (host only); raises
    Refusal 403/429."""
    host_reader()
    return jsonify(web_state().port.box_address())
