"""Gateway (the city) tables for the tests: a new game, one move, a changed state, a phase reached, a spawn."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.gateway_city import GAME
from companion.games.gateway_city.state import EVENT, HORDE, Card, City
from companion.rules.inputs import Move, StartGame
from companion.rules import engine
from companion.rules.table import Table

ARMY = [{"attack": 3, "defence": 2}]


def new_table(players: tuple[str, ...] = ("Ann", "Bo"), **options: Any) -> Table:
    """A new game at its first Deployment phase."""
    return engine.start(GAME, StartGame("gateway-city", players, options, 7))


def act(table: Table, seat: int, move: str, **args: Any) -> Table:
    """The table after one accepted move by the seat."""
    return engine.apply(table, GAME, Move(seat, move, args))


def state_of(table: Table) -> City:
    """The city's state."""
    return table.state


def with_state(table: Table, **changes: Any) -> Table:
    """The table with some fields of its state changed."""
    return replace(table, state=replace(table.state, **changes))


def with_district(table: Table, number: int, *, holder: int | None = None, cards: tuple[Card, ...] = ()) -> Table:
    """The table with one district's holder and cards set."""
    districts = list(state_of(table).districts)
    districts[number - 1] = replace(districts[number - 1], holder=holder, cards=cards)
    return with_state(table, districts=tuple(districts))


def to_phase(table: Table, phase: str) -> Table:
    """The table advanced to the phase; raises AssertionError if it is never reached."""
    for _ in range(20):
        if state_of(table).phase == phase:
            return table
        table = act(table, state_of(table).current, "next_phase")
    raise AssertionError(f"never reached {phase}")


def holders(table: Table) -> list[int | None]:
    """Each district's holding seat, None when no player holds it."""
    return [district.holder for district in state_of(table).districts]


def vp(table: Table) -> list[int]:
    """Each faction's victory points."""
    return [faction.vp for faction in state_of(table).factions]


def horde_spawn(district: int, attack: int = 1, defence: int = 1, vp: int = 1) -> dict[str, Any]:
    """A Horde spawn card's arguments for the event draw."""
    return {"district": district, "kind": HORDE, "attack": attack, "defence": defence, "vp": vp}


def at_event(table: Table) -> Table:
    """The table advanced to the event draw."""
    return to_phase(table, EVENT)
