"""The Gate's table state: two summoners' four gates, the turn, the battle under way, the winner."""
from __future__ import annotations

from dataclasses import dataclass

ATTACK = "attack"
DEFENCE = "defence"
GATE = "gate"
ONE_SHOT = "one_shot"
KINDS = (ATTACK, DEFENCE, GATE, ONE_SHOT)

CHOOSING_FIRST = "choosing_first"
PLAYING = "playing"
OVER = "over"

GATES = 4
TOP_LEVEL = 4
DAMAGE_TO_WIN = 7
CLOSED_TO_WIN = 2
MAX_ATTACKERS = 3


@dataclass(frozen=True)
class Reinforcement:
    """A reinforcing card attached under a gate: its kind and its +X."""

    kind: str
    amount: int


@dataclass(frozen=True)
class Gate:
    """One gate: the level on top, damage taken, reinforcements, the face-down guardian's defence."""

    level: int
    damage: int = 0
    reinforcements: tuple[Reinforcement, ...] = ()
    guardian: int | None = None
    closed: bool = False
    last_card_only: bool = False

    @property
    def capacity(self) -> int:
        """The damage the gate can take before it closes: level + gate reinforcements; raises nothing."""
        return self.level + sum(card.amount for card in self.reinforcements if card.kind == GATE)


@dataclass(frozen=True)
class Summoner:
    """One player: a name and four gates (gate 1 is `gates[0]`)."""

    name: str
    gates: tuple[Gate, ...]

    @property
    def damage_taken(self) -> int:
        """The damage on all four gates together (the opponent wins at 7); raises nothing."""
        return sum(gate.damage for gate in self.gates)

    @property
    def closed_gates(self) -> int:
        """How many of the four gates are closed (the opponent wins at 2); raises nothing."""
        return sum(1 for gate in self.gates if gate.closed)


@dataclass(frozen=True)
class Battle:
    """An attack under way: who attacks which gate, the attack, the revealed guardian, the bonuses."""

    attacker: int
    gate: int
    attack: int
    attackers: int
    guardian: int | None
    attack_bonus: int = 0
    defence_bonus: int = 0
    won: bool = False

    @property
    def defender(self) -> int:
        """The seat whose gate is attacked; raises nothing."""
        return 1 - self.attacker


@dataclass(frozen=True)
class Duel:
    """The whole table state of one game of The Gate."""

    summoners: tuple[Summoner, Summoner]
    phase: str
    current: int = 0
    first: int | None = None
    coin: str | None = None
    turn: int = 0
    reinforced: bool = False
    attacked: tuple[int, ...] = ()
    battle: Battle | None = None
    winner: int | None = None
    win_reason: str = ""
    log: tuple[str, ...] = ()  # each a Said: the English with its Korean twin

    def name(self, seat: int) -> str:
        """A seat's player name; raises IndexError for a seat not at the table."""
        return self.summoners[seat].name

    def gate(self, seat: int, number: int) -> Gate:
        """A player's gate by its number 1–4; raises IndexError for another number."""
        return self.summoners[seat].gates[number - 1]
