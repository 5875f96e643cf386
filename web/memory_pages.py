"""The pages of the table's memory: the history of finished games, one game replayed, a player's record, and
are these dice fair. Their data comes from web/memory_api.py with the page's cookie."""
from __future__ import annotations

from flask import Blueprint, render_template

from web.pages import game_scripts

bp = Blueprint("memory_pages", __name__)


def _page(kind: str, **values: object) -> str:
    """One memory page; the script fills it in; raises nothing."""
    return render_template("memory.html", page=kind, game_scripts=game_scripts() if kind == "replay" else [], **values)


@bp.get("/history")
def history() -> str:
    """The finished games, newest first; raises nothing."""
    return _page("history")


@bp.get("/history/<int:play>")
def replay(play: int) -> str:
    """One game replayed step by step; raises nothing."""
    return _page("replay", play=play)


@bp.get("/players/<path:name>")
def player(name: str) -> str:
    """One player's record; raises nothing."""
    return _page("player", name=name[:256])


@bp.get("/dice")
def dice() -> str:
    """Are these dice fair; raises nothing."""
    return _page("dice")
