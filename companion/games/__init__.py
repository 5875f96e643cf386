"""The registered games: every module or package here that defines a `GAME`."""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from companion.rules.errors import UnknownGame
from companion.rules.game import Game


def registered_games() -> Mapping[str, Game[Any]]:
    """Every game found in this package, by id; raises ImportError if a game module is broken."""
    found: dict[str, Game[Any]] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return found


def game_for(games: Mapping[str, Game[Any]], game_id: str) -> Game[Any]:
    """The registered game with that id; raises UnknownGame naming the ones there are."""
    try:
        return games[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"There is no game {game_id!r}; choose one of: {', '.join(sorted(games))}.") from None
