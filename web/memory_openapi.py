"""The OpenAPI description of the table's memory (web/memory_api.py): its paths and schemas, merged into
web/openapi.py's document."""
from __future__ import annotations

from typing import Any, Callable

JSON = dict[str, Any]
NUMBER: JSON = {"type": "number"}
INTEGER: JSON = {"type": "integer"}
STRING: JSON = {"type": "string"}
BOOLEAN: JSON = {"type": "boolean"}


def _nullable(schema: JSON) -> JSON:
    return {"anyOf": [schema, {"type": "null"}]}


def _list(items: JSON) -> JSON:
    return {"type": "array", "items": items}


def _open(properties: JSON, *, optional: tuple[str, ...] = ()) -> JSON:
    return {"type": "object", "properties": properties, "required": [key for key in properties if key not in optional]}


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


KIND: JSON = _open({
    "rolls": INTEGER, "counts": {**_list(INTEGER), "description": "how often each face came up, 1 first"},
    "shares": _list(NUMBER),
    "p_value": {**_nullable(NUMBER), "description": "chi-square goodness of fit against a fair die (Monte Carlo "
                                                    "below 5 rolls a face); null without rolls"},
    "flagged": {**BOOLEAN, "description": "p_value below 0.01"},
    "enough": {**INTEGER, "description": "the rolls after which a die landing one face 1.5x as often is flagged in "
                                         "80 % of trials; below it a fair-looking die is 'too few rolls to tell'"},
    "verdict": STRING, "verdict_ko": STRING})
DICE_PART: JSON = _open({"rolls": INTEGER, "camera_rolls": INTEGER, "hand_rolls": INTEGER,
                         "kinds": {"type": "object", "additionalProperties": _ref("DiceKind"),
                                   "description": "by number of sides ('6', '8'): every die, with `camera` (read "
                                                  "by the camera) and `hand` (entered or corrected by people) apart"}})
PLAYER_SCORE: JSON = _open({"seat": INTEGER, "name": STRING, "score": _nullable(NUMBER), "winner": BOOLEAN})

SCHEMAS: JSON = {
    "DiceKind": {**KIND, "properties": {**KIND["properties"], "camera": KIND, "hand": KIND},
                 "required": KIND["required"]},
    "DiceStats": {"allOf": [DICE_PART, _open({
        "scope": {"enum": ["all", "game"]}, "game_id": _nullable(INTEGER),
        "games": {"type": "object", "additionalProperties": DICE_PART, "description": "scope all: by game"},
        "luck": {**_list(_open({"seat": INTEGER, "name": STRING, "dice": INTEGER, "luck": _nullable(NUMBER)})),
                 "description": "scope game: each seat's average die against a fair die's (+0.5: half a pip above)"}},
        optional=("games", "luck"))]},
    "Play": _open({"id": INTEGER, "game": STRING, "title": STRING, "started": NUMBER, "finished": NUMBER,
                   "date": STRING, "duration_min": INTEGER, "players": _list(PLAYER_SCORE), "winners": _list(INTEGER),
                   "summary": STRING, "tie_rule": _nullable(STRING)}),
    "Plays": _open({"plays": _list(_ref("Play"))}),
    "BGStatsPlay": _open({
        "url": {**STRING, "description": "https://app.bgstatsapp.com/createPlay.html?data=… (BG Stats' push plays)"},
        "app_url": {**STRING, "description": "the same as bgstats://app.bgstatsapp.com/createPlay.html?data=…"},
        "play": {**_open({"sourceName": STRING, "sourcePlayId": STRING, "playDate": STRING, "durationMin": INTEGER,
                          "game": _open({"name": STRING, "highestWins": BOOLEAN, "noPoints": BOOLEAN}),
                          "players": _list(_open({"name": STRING, "winner": BOOLEAN, "startPlayer": BOOLEAN}))}),
                 "description": "the JSON in data=, as BG Stats documents it"}}),
    "Steps": _open({"id": INTEGER, "game": STRING, "title": STRING, "players": _list(STRING), "finished": BOOLEAN,
                    "steps": _list(_open({"seq": INTEGER, "at": NUMBER, "source": STRING, "kind": STRING}))}),
    "PlayerRow": _open({"key": STRING, "name": STRING, "plays": INTEGER, "wins": INTEGER}),
    "Players": _open({"players": _list(_ref("PlayerRow"))}),
    "PlayerRecord": _open({"key": STRING, "name": STRING, "plays": INTEGER, "wins": INTEGER,
                           "games": _list(_open({"game": STRING, "plays": INTEGER, "wins": INTEGER, "win_rate": NUMBER,
                                                 "best": _nullable(NUMBER), "average": _nullable(NUMBER)})),
                           "solo_bests": {"type": "object", "additionalProperties": NUMBER},
                           "streak": _open({"kind": {"enum": ["win", "loss", "none"]}, "length": INTEGER}),
                           "scores": _list(_open({"id": INTEGER, "game": STRING, "score": _nullable(NUMBER)})),
                           "luck": {**_open({"luck": _nullable(NUMBER), "dice": _nullable(INTEGER), "counting": INTEGER}),
                                    "description": "all-time luck: the average of the dice the camera read for this "
                                                   "player in finished games, against a fair die's (+0.5: half a pip "
                                                   "above), and the dice it rests on (luck null below one die); while "
                                                   "past games are still being counted, `counting` says how many are "
                                                   "left and luck and dice are null"}}),
    "Merge": {**_open({"name": {**STRING, "minLength": 1, "maxLength": 256},
                       "into": {**STRING, "minLength": 1, "maxLength": 256}}), "additionalProperties": False},
}

PLAY = {"name": "play", "in": "path", "required": True, "schema": {**INTEGER, "minimum": 0, "maximum": 2**53}}
READ = ("403", "404", "429", "503")


def paths(operation: Callable[..., JSON], as_json: Callable[[JSON], JSON], snapshot: JSON) -> JSON:
    """The memory's paths, built with openapi.py's `operation` and `as_json`; raises nothing."""
    csv = {"text/csv": {"schema": STRING}}
    return {
        "/api/stats/dice": {"get": {**operation(
            "Are these dice fair: each face's count per kind of die, camera reads apart from hand entries, a "
            "chi-square p-value and a sentence (scope=all: every game; scope=game: the newest or ?game=N, with each "
            "seat's luck).", as_json(_ref("DiceStats")), errors=("400", *READ)),
            "parameters": [{"name": "scope", "in": "query", "schema": {"enum": ["all", "game"]}},
                           {"name": "game", "in": "query", "schema": {**STRING, "pattern": "^[0-9]{1,15}$"}}]}},
        "/api/stats/dice.csv": {"get": operation("The dice counts as CSV (host only).", csv, errors=READ)},
        "/api/plays": {"get": operation("The finished games, newest first: players, scores, winners, duration.",
                                        as_json(_ref("Plays")), errors=READ)},
        "/api/plays.csv": {"get": operation("Every play as CSV, one row per player (host only).", csv, errors=READ)},
        "/api/plays.json": {"get": operation("Every play as JSON (host only).", as_json({"type": "object"}),
                                             errors=READ)},
        "/api/plays/{play}": {"get": {**operation("One finished game.", as_json(_ref("Play")), errors=READ),
                                      "parameters": [PLAY]}},
        "/api/plays/{play}/bgstats": {"get": {**operation(
            "The play as BG Stats' push-plays link (one tap logs it in the app).", as_json(_ref("BGStatsPlay")),
            errors=READ), "parameters": [PLAY]}},
        "/api/plays/{play}/steps": {"get": {**operation("A game's steps, to replay it.", as_json(_ref("Steps")),
                                                        errors=READ), "parameters": [PLAY]}},
        "/api/plays/{play}/steps/{step}": {"get": {**operation(
            "The table as the host saw it after one step (0: the start).", snapshot, errors=("400", *READ)),
            "parameters": [PLAY, {"name": "step", "in": "path", "required": True, "schema": {**INTEGER, "minimum": 0, "maximum": 2**53}}]}},
        "/api/players": {"get": operation("Every player (a name, case and spaces ignored), most plays first.",
                                          as_json(_ref("Players")), errors=READ)},
        "/api/players/{name}": {"get": {**operation("One player's record across games.", as_json(_ref("PlayerRecord")),
                                                    errors=("400", *READ)),
                                        "parameters": [{"name": "name", "in": "path", "required": True,
                                                        "schema": {**STRING, "minLength": 1}}]}},
        "/api/merges": {"post": operation(
            "Count one name as the same player as another (host only); kept beside the journal.",
            as_json(_ref("PlayerRecord")), errors=("400", "403", "404", "413", "429", "503"), body="Merge")},
    }
