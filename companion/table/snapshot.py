"""The snapshot every phone gets: the table for one seat plus what the box shows (pure, stdlib)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import engine
from companion.rules.game import Game
from companion.rules.said import in_korean, korean
from companion.rules.table import Table
from companion.table.port import Holder

JSON = dict[str, Any]

CAMERA_STATES = ("none", "ready", "reading", "read_ok", "read_part", "reroll", "offline", "changed")


@dataclass(frozen=True)
class LastDice:
    """The last roll as the phones show it: values, sides, where each came from, crop names."""

    values: tuple[int, ...]
    sides: tuple[int, ...]
    origins: tuple[str, ...]
    crops: tuple[str, ...] = ()
    seq: int = 0


@dataclass(frozen=True)
class CameraGuess:
    """What the camera saw when it could not read surely: each die's likeliest value (None: none), sides, crop."""

    values: tuple[int | None, ...]
    sides: tuple[int, ...]
    names: tuple[str, ...]
    crops: tuple[bytes, ...] = field(default=(), repr=False)

    def crop(self, name: str) -> bytes | None:
        """The crop called `name`, or None; raises nothing."""
        return dict(zip(self.names, self.crops)).get(name)


@dataclass(frozen=True)
class Extras:
    """What the box adds to the table: the last dice, the camera's state and a message."""

    dice: LastDice | None = None
    camera: str = "none"
    camera_message: str = ""
    guess: CameraGuess | None = None
    half: LastDice | None = None  # while "read_part": the camera's dice of a roll whose others are entered by hand
    message: str | None = None
    message_to: Holder | None = None  # the phone the message is for alone (a press on its panel), None: every phone
    records: JSON | None = None
    demo: bool = False
    panel: JSON = field(default_factory=dict)
    boot: str = ""  # new each time the box starts, when the seq starts again from the journal's
    game_no: int | None = None  # the journal's number of the game being played: a rematch is a new number
    notices: tuple[tuple[str, str], ...] = ()  # (about, sentence): what the host should know about the box itself
    claiming: bool = False  # a phone may become the host now (NEXT and UNDO held): the status LED blinks white


def lights(table: Table | None, game: Game[Any] | None, extras: Extras) -> JSON:
    """What the LEDs show: whose turn, the status colour (a claim window over all else), the game-over buzzer;
    raises nothing."""
    if table is None or game is None:
        return {"seats": [], "status": "claiming" if extras.claiming else _status(extras.camera), "buzz": False}
    over = game.outcome(table.state) is not None
    turn = set(game.whose_turn(table.state))
    status = "claiming" if extras.claiming else "game_over" if over else _status(extras.camera)
    return {"seats": [seat in turn for seat in range(len(table.players))], "status": status, "buzz": over}


def _message(extras: Extras, seat: int | None) -> JSON:
    """The box's message in both languages, for this view unless it is another phone's alone; raises nothing."""
    mine = extras.message_to is None or extras.message_to.seat == seat
    message = extras.message if mine else None
    return {"message": message, "message_ko": None if message is None else korean(message)}


def _status(camera: str) -> str:
    return {"none": "ready", "ready": "ready"}.get(camera, camera)


def snapshot(table: Table | None, game: Game[Any] | None, *, seat: int | None, seq: int, extras: Extras) -> JSON:
    """The full state for a seat (None: the host, who sees every seat's moves); raises nothing."""
    base: JSON = {
        "seq": seq, "game": None, "title": None, "players": [], "you": seat, "whose_turn": [],
        "outcome": None, "legal_moves": [], "can_undo": False, "can_correct": False, "awaiting_dice": None, "view": {},
        "dice": _dice(extras.dice), "camera": _camera(extras),
        **_message(extras, seat),
        "lights": lights(table, game, extras), "records": extras.records,
        "demo": extras.demo, "boot": extras.boot, "game_no": extras.game_no,
        "notices": [] if seat is not None else [{"message": sentence, "message_ko": korean(sentence)}
                                                 for _, sentence in extras.notices],
    }
    if table is None or game is None:
        return base
    return {**base, **_table_part(table, game, seat)}


def _table_part(table: Table, game: Game[Any], seat: int | None) -> JSON:
    outcome = game.outcome(table.state)
    request = game.awaiting_dice(table.state)
    moves = engine.legal_moves(table, game)
    return {
        "game": game.id,
        "title": game.title,
        "players": list(table.players),
        "whose_turn": list(game.whose_turn(table.state)),
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "summary": outcome.summary, "detail": dict(outcome.detail)},
        "legal_moves": [move for move in moves if seat is None or move["seat"] == seat],
        "can_undo": engine.can_undo(table, game, seat),
        "can_correct": engine.can_correct(table),
        "awaiting_dice": None if request is None else {"sides": list(request.sides), "why": request.why,
                                                        "why_ko": korean(request.why), "seats": list(request.seats)},
        "view": _with_korean_log(game.view(table.state, seat)),
    }


def _with_korean_log(view: JSON) -> JSON:
    """The game's view with `log_ko`, its log as the Korean page shows it, when the log is of sentences
    (The Gate's lines carry both languages already); raises nothing."""
    log = view.get("log")
    if not isinstance(log, list) or not all(isinstance(line, str) for line in log):
        return view
    return {**view, "log_ko": [in_korean(line) for line in log]}


def _dice(dice: LastDice | None) -> JSON | None:
    if dice is None:
        return None
    return {"values": list(dice.values), "sides": list(dice.sides), "origins": list(dice.origins),
            "crops": [f"/api/crops/{name}.jpg" for name in dice.crops], "seq": dice.seq}


def _camera(extras: Extras) -> JSON:
    """The camera's status, sentence and guess at unsure dice, as the phones get them; raises nothing."""
    guess = extras.guess
    shown = None if guess is None else {"values": list(guess.values), "sides": list(guess.sides),
                                        "crops": [f"/api/crops/{name}.jpg" for name in guess.names]}
    half = _dice(extras.half) if extras.camera == "read_part" else None
    return {"status": extras.camera, "message": extras.camera_message, "guess": shown, "half": half}
