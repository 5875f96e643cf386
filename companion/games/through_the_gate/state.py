"""Through The Gate's table state: explorers, hourglasses, the turn, the roll check, the tallies."""
from __future__ import annotations

from dataclasses import dataclass

COMPETITIVE = "competitive"
ICE_QUEEN = "ice_queen"
SOLO = "solo"

FIRST_ROLL = "first_roll"
PLAYING = "playing"
SCORING = "scoring"
OVER = "over"

SUITS = ("compassion", "strength", "wisdom")
TALLIES = ("compassion", "strength", "wisdom", "wild", "companions", "diary")


@dataclass(frozen=True)
class Tallies:
    """What a diary holds that scoring needs: ♥ ♠ ♣ (net of negative icons such as
    "Switching Fate (-1 ♥)", so below 0 too), wilds, companions 🦄 and all diary cards."""

    compassion: int = 0
    strength: int = 0
    wisdom: int = 0
    wild: int = 0
    companions: int = 0
    diary: int = 0


@dataclass(frozen=True)
class Explorer:
    """One player: name, hourglass tokens, tallies and, when chosen by hand, the wilds' split."""

    name: str
    hourglasses: int
    tallies: Tallies = Tallies()
    wilds: tuple[int, int, int] | None = None
    diary_entered: bool = False  # the player has entered their tallies (zeros are an entry too)


@dataclass(frozen=True)
class Die:
    """One die of a check: the raw roll and what was added to it before comparing."""

    raw: int
    modifier: int = 0

    @property
    def value(self) -> int:
        """The modified value that is compared; raises nothing."""
        return self.raw + self.modifier


@dataclass(frozen=True)
class Check:
    """A roll check from a card: its kind, who rolls, the speed it is against, the dice so far."""

    kind: str
    player: int
    speed: int
    dice: tuple[Die, ...] = ()
    next_modifier: int = 0
    reroll_index: int | None = None
    also: str | None = None  # a second condition of the same card, decided by the same die

    @property
    def needed(self) -> int:
        """How many dice the check takes; raises nothing."""
        return 3 if self.kind == "three_less" else 1

    @property
    def awaiting(self) -> bool:
        """Whether the check still waits for a roll; raises nothing."""
        return self.reroll_index is not None or len(self.dice) < self.needed


@dataclass(frozen=True)
class TheGate:
    """The whole table state of one game of Through The Gate."""

    mode: str
    explorers: tuple[Explorer, ...]
    phase: str
    current: int = 0
    direction: int = 1
    reverse_at_end: bool = False
    turn: int = 0
    speed: int | None = None
    quick: bool = False
    check: Check | None = None
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[int, ...] = ()
    random_pick: int | None = None
    finished: bool = False
    log: tuple[str, ...] = ()

    @property
    def effective_speed(self) -> int | None:
        """The speed in force now (2 under a Quickness Potion); raises nothing."""
        return 2 if self.quick else self.speed

    def name(self, seat: int) -> str:
        """A seat's player name; raises IndexError for a seat not at the table."""
        return self.explorers[seat].name
