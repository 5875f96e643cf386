"""8 Gates' table state: the players' hands and flips, the middle, the turn and the Archivist's paper."""
from __future__ import annotations

from dataclasses import dataclass

ARCHIVIST = "archivist"
OPENING = "opening"
PLAYING = "playing"
REVEAL = "reveal"
OVER = "over"

STARTING_GATES = 3
ARCHIVIST_HAND = 1
OTHER_HAND = 2
DRAW_PER_TURN = 2
POINTS_PER_CARD = 4
DECK = 48


@dataclass(frozen=True)
class Gate:
    """One card in the middle: its cell, its value and type, or Ruins (no value, no type)."""

    x: int
    y: int
    value: int | None
    type: str | None = None
    ruins: bool = False


@dataclass(frozen=True)
class Player:
    """One player: name, how many cards in hand, the reference card flip and the end reveal."""

    name: str
    hand_size: int = 0
    flipped: bool = False
    revealed: tuple[int, ...] | None = None
    proposal: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Deal:
    """One round of dealing for the Archivist: who was dealt a card and its value, in order."""

    contenders: tuple[int, ...]
    values: tuple[int, ...]


@dataclass(frozen=True)
class Score:
    """One line of the Archivist's paper: points gained or lost, in which turn and round, and why."""

    seat: int
    points: int
    turn: int
    round: int
    why: str


@dataclass(frozen=True)
class EightGates:
    """The whole table state of one game of 8 Gates."""

    players: tuple[Player, ...]
    phase: str
    contenders: tuple[int, ...] = ()
    deals: tuple[Deal, ...] = ()
    archivist: int | None = None
    middle: tuple[Gate, ...] = ()
    turn: int = 0
    current: int = 0
    face_down: int = 0
    gates_played: int = 0
    flipped_now: bool = False
    scores: tuple[Score, ...] = ()
    log: tuple[str, ...] = ()

    @property
    def rounds(self) -> int:
        """How many rounds the game lasts: 5 with 3 players, else 4; raises nothing."""
        return 5 if len(self.players) == 3 else 4

    @property
    def round(self) -> int:
        """The round being played (1-based; the last one once the game is over); raises nothing."""
        return min(self.face_down + 1, self.rounds)

    @property
    def gates_allowed(self) -> int:
        """How many Gates the current player may play this turn (2 after a flip); raises nothing."""
        return 2 if self.flipped_now else 1

    def name(self, seat: int) -> str:
        """A seat's player name; raises IndexError for a seat not at the table."""
        return self.players[seat].name

    def points(self, seat: int) -> int:
        """A player's score so far; raises nothing."""
        return sum(line.points for line in self.scores if line.seat == seat)
