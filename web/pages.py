"""The pages: the phone's table view, the host's page, and /join which turns a link into a cookie."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request, url_for

from companion.table.port import Holder
from web.auth import COOKIE, COOKIE_SECONDS, Refusal, check_token, host_reader, web_state

bp = Blueprint("pages", __name__)

REFUSED_KO = {"too_many_attempts": "이 기기에서 잘못된 링크가 너무 많았습니다. 1분 기다린 뒤 QR 코드를 다시 스캔하세요."}
"""The refused page's Korean sentence, by the refusal's code, where it differs from the usual one."""
LINK_NOT_VALID_KO = "링크가 유효하지 않습니다. 호스트에게 새 QR 코드를 요청하세요."


def game_scripts() -> list[str]:
    """The URLs of every game's scripts in static/games (renderers and the parts they load), sorted; raises nothing."""
    folder = Path(current_app.static_folder or "", "games")
    return [url_for("static", filename=f"games/{path.name}") for path in sorted(folder.glob("*.js"))]


@bp.get("/")
def table() -> str:
    """The phone page: the table, live; raises nothing (the data comes from the API)."""
    return render_template("table.html", game_scripts=game_scripts())


@bp.get("/host")
def host() -> str:
    """The host's page: new game, seats' QR codes, history; raises nothing."""
    return render_template("host.html", game_scripts=game_scripts())


@bp.get("/join")
def join() -> Response:
    """Turn a join link into an HttpOnly cookie and go to the table; a page says why when refused."""
    token = request.args.get("token", "")
    try:
        holder = check_token(token)
    except Refusal as refusal:
        korean = REFUSED_KO.get(refusal.code, LINK_NOT_VALID_KO)
        page = render_template("refused.html", message=refusal.message, message_ko=korean)
        return make_response(page, refusal.status)
    response = redirect(url_for("pages.host" if holder.is_host else "pages.table"), code=303)
    response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="Strict")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/host/seats/<int:seat>/open")
def open_seat(seat: int) -> Response:
    """Open a seat's page from the host's (a laptop has no camera to scan its QR code): to the seat's join link,
    the one its QR code holds; raises Refusal 403/429 for a page without the host's link, 404 for no such seat."""
    host_reader()
    port = web_state().port
    if not 0 <= seat < len(port.snapshot(None)["players"]):
        raise Refusal(404, "not_found", f"There is no seat {seat} at this table.")
    response = redirect(port.join_url(Holder(seat)), code=303)
    response.headers["Cache-Control"] = "no-store"
    return response
