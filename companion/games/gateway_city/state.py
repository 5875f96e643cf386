"""Gateway (the city)'s table state: districts, victory points, the turn's phase and the event deck."""
from __future__ import annotations

from dataclasses import dataclass, replace

DEPLOYMENT = "deployment"
DRAFTING = "drafting"
ATTACK = "attack"
CLEANUP = "cleanup"
EVENT = "event"
PHASES = (DEPLOYMENT, DRAFTING, ATTACK, CLEANUP)
PHASE_TITLES = {
    DEPLOYMENT: "Deployment: 1 power point to play cards; one district ability",
    DRAFTING: "Drafting: buy cards with the gold in your pool",
    ATTACK: "Attack: attack one district with your whole army",
    CLEANUP: "Cleanup: discard, keep insurgents and runestones, draw 6",
    EVENT: "Round end: the starting player draws an event card",
}

NOBODY = "nobody"
HORDE = "horde"
GUARD = "guard"
PLAYER = "player"
INSURGENT = "insurgent"
FACTION_NAMES = {HORDE: "the Horde", GUARD: "the City Guard", NOBODY: "nobody"}

TIERS = ("I", "II", "III")
WIN_VP = 20
FREE_TOKEN = "X"


@dataclass(frozen=True)
class Card:
    """A card in a battle: an insurgent of a player's army, or a Horde or City Guard card."""

    kind: str
    attack: int
    defence: int
    vp: int = 0
    name: str = ""
    damage: int = 0  # taken this turn and not lethal; it lasts until the end of the turn

    @property
    def title(self) -> str:
        """The card's name, or its kind and numbers when unnamed; raises nothing."""
        label = self.name or {HORDE: "Horde", GUARD: "City Guard"}.get(self.kind, "Insurgent")
        return f"{label} ({self.attack}/{self.defence})"

    @property
    def defence_left(self) -> int:
        """The defence still to be hit this turn: the full defence less the damage taken; raises nothing."""
        return self.defence - self.damage


@dataclass(frozen=True)
class District:
    """A district board: its number and name, event tokens, and who holds it.

    A player's seat in `holder`, or Horde / City Guard cards in `cards` (all of one kind), or neither.
    """

    number: int
    name: str
    tokens: tuple[str, ...] = ()
    holder: int | None = None
    cards: tuple[Card, ...] = ()

    @property
    def controller(self) -> str:
        """'player', 'horde', 'guard' or 'nobody'; raises nothing."""
        if self.holder is not None:
            return PLAYER
        return self.cards[0].kind if self.cards else NOBODY


@dataclass(frozen=True)
class Faction:
    """One player: name and victory points."""

    name: str
    vp: int = 0


@dataclass(frozen=True)
class Side:
    """One side of a battle: a player (by seat) or the Horde / City Guard, with its cards.

    `runestones` is added to the side's damage; `assignment`, when given, is the damage this side
    puts on each card of the other side.
    """

    faction: str
    seat: int | None
    cards: tuple[Card, ...]
    runestones: int = 0
    assignment: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Battle:
    """A battle being set up, shown as a preview until it is fought.

    `event` marks a battle caused by an event card (the spawn attacks); `owner` is the seat who
    enters and confirms it; `ready` is False while a defending player's army is still to be entered.
    """

    district: int
    attacker: Side
    defender: Side
    event: bool = False
    owner: int = 0
    ready: bool = True


@dataclass(frozen=True)
class Spawn:
    """Event cards of one kind arriving together on one district."""

    district: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Result:
    """What a battle does: each side's damage and where it goes, who dies, who holds, the VP.

    `to_defenders[i]` is the damage put on defending card i (likewise `to_attackers`); a card dies
    when its damage reaches its defence. `taken`: every defending card died.
    """

    attacker_damage: int
    defender_damage: int
    to_defenders: tuple[int, ...]
    to_attackers: tuple[int, ...]
    defenders_dead: tuple[bool, ...]
    attackers_dead: tuple[bool, ...]
    taken: bool
    attacker_vp: int
    defender_vp: int
    holder: str
    holder_seat: int | None
    proposed: tuple[bool, bool]


@dataclass(frozen=True)
class Report:
    """A fought battle: what was set up, what happened, and the story in sentences."""

    battle: Battle
    result: Result
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Finish:
    """How the game ended: why, the winning seats (none when all lose) and a sentence."""

    reason: str
    winners: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class City:
    """The whole table state of one game of Gateway (the city)."""

    factions: tuple[Faction, ...]
    districts: tuple[District, ...]
    deck_sizes: tuple[int, int, int]
    deck_left: tuple[int, int, int]
    starting: int = 0
    starting_by_rule: bool = False  # set by the last game's winner (a series of games): nobody can claim it
    current: int = 0
    round: int = 1
    phase: str = DEPLOYMENT
    opened: bool = False
    attacks_made: int = 0
    attacks_allowed: int = 1
    ability_used: int | None = None
    battle: Battle | None = None
    last_battle: Report | None = None
    event_drawn: bool = False
    spawn_queue: tuple[Spawn, ...] = ()
    held_at_draw: int | None = None
    finish: Finish | None = None
    log: tuple[str, ...] = ()

    def name(self, seat: int) -> str:
        """A seat's player name; raises IndexError for a seat not at the table."""
        return self.factions[seat].name

    def district(self, number: int) -> District:
        """The district with that number (from 1); raises IndexError for a number not on the table."""
        if not 1 <= number <= len(self.districts):
            raise IndexError(number)
        return self.districts[number - 1]

    @property
    def cards_left(self) -> int:
        """How many event cards are left in the deck, all tiers; raises nothing."""
        return sum(self.deck_left)


def set_district(state: City, district: District) -> City:
    """The state with one district replaced (by its number); raises IndexError for a bad number."""
    districts = list(state.districts)
    districts[district.number - 1] = district
    return replace(state, districts=tuple(districts))


def add_vp(state: City, seat: int, amount: int) -> City:
    """The state with a player's VP changed (never below 0); raises IndexError for a bad seat."""
    factions = list(state.factions)
    faction = factions[seat]
    factions[seat] = replace(faction, vp=max(0, faction.vp + amount))
    return replace(state, factions=tuple(factions))


def side_name(state: City, side: Side) -> str:
    """Who fights on that side, in players' words; raises IndexError for a bad seat."""
    if side.faction == PLAYER and side.seat is not None:
        return state.name(side.seat)
    return FACTION_NAMES.get(side.faction, side.faction)


def upper_first(words: str) -> str:
    """The words with the first letter in capitals ('the Horde' → 'The Horde'); raises nothing."""
    return words[:1].upper() + words[1:]


def district_title(district: District) -> str:
    """'District 3' or 'District 3 (Old Market)'; raises nothing."""
    default = f"District {district.number}"
    return default if district.name == default else f"{default} ({district.name})"


def left_of(state: City, seat: int) -> int:
    """The seat to a player's left (the next one clockwise); raises nothing."""
    return (seat + 1) % len(state.factions)
