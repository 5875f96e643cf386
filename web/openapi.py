"""The OpenAPI 3.1 description of the API, with schemas the responses are tested against."""
from __future__ import annotations

from typing import Any

from companion.table.port import PANEL_BUTTONS
from companion.table.snapshot import CAMERA_STATES
from web.limits import INPUT_BURST, INPUTS_PER_SECOND
from web import memory_openapi, teach_openapi

JSON = dict[str, Any]

INTEGER: JSON = {"type": "integer"}
STRING: JSON = {"type": "string"}
BOOLEAN: JSON = {"type": "boolean"}
OBJECT: JSON = {"type": "object"}
NAME: JSON = {"type": "string", "minLength": 1, "maxLength": 64}
PLAYER: JSON = {"type": "string", "minLength": 1, "maxLength": 256,
                "description": "a player's name: at most 24 characters as people see them (a family emoji or a flag "
                               "is one), not only blank or invisible ones, at most 4 marks on a letter (400 otherwise)"}


def _nullable(schema: JSON) -> JSON:
    return {"anyOf": [schema, {"type": "null"}]}


def _list(items: JSON) -> JSON:
    return {"type": "array", "items": items}


def _record(properties: JSON, *, closed: bool = True, optional: tuple[str, ...] = ()) -> JSON:
    return {
        "type": "object",
        "properties": properties,
        "required": [key for key in properties if key not in optional],
        "additionalProperties": not closed,
    }


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


GAME_NO: JSON = {**INTEGER, "minimum": 0, "maximum": 2**53,
                 "description": "the `game_no` of the snapshot the page acted on: an input meant for an earlier game "
                                "is refused (409, table_moved_on); leave it out to act on whatever game is on"}

ROLL_SEQ: JSON = {**INTEGER, "minimum": 0, "maximum": 2**53,
                  "description": "the `seq` of the last roll the page showed (0: none yet): a roll or a correction "
                                 "made before another roll came in (the camera's, another phone's) is refused (409, "
                                 "table_moved_on) instead of being taken for the next roll; leave it out to check nothing"}

ROLL: JSON = {"values": {**_list({**INTEGER, "minimum": 1, "maximum": 1000}), "minItems": 1, "maxItems": 20},
              "sides": {**_list({**INTEGER, "minimum": 2, "maximum": 1000}), "minItems": 1, "maxItems": 20}}

SCHEMAS: JSON = {
    "Error": _record({"error": {**STRING, "description": "stable code, e.g. illegal_move, forbidden"},
                      "message": {**STRING, "description": "a sentence a player can read"},
                      "message_ko": {**STRING, "description": "the sentence in Korean, when the game words it so"}},
                     optional=("message_ko",)),
    "LegalMove": _record({"seat": INTEGER, "move": STRING, "title": STRING,
                          "args": {**OBJECT, "description": "JSON Schema of the move's arguments object"}}),
    "Outcome": _record({"winners": _list(INTEGER), "summary": STRING, "detail": OBJECT}),
    "AwaitingDice": _record({"sides": _list(INTEGER), "why": STRING,
                             "why_ko": {**_nullable(STRING), "description": "`why` in Korean, when the game words it so"},
                             "seats": _list(INTEGER)}),
    "Dice": _record({"values": _list(INTEGER), "sides": _list(INTEGER), "origins": _list(STRING),
                     "crops": _list({**STRING, "description": "URL of the die's crop, /api/crops/<name>.jpg"}),
                     "seq": INTEGER}),
    "Camera": _record({"status": {"enum": list(CAMERA_STATES)},
                       "message": STRING, "guess": _nullable(_ref("CameraGuess")),
                       "half": {**_nullable(_ref("Dice")),
                                "description": "while `read_part`: the dice the camera read, which the dice "
                                               "entered by hand (the others awaited) join"}}),
    "CameraGuess": _record({
        "values": {**_list(_nullable(INTEGER)), "description": "each die's likeliest value; null when none"},
        "sides": _list(INTEGER),
        "crops": _list({**STRING, "description": "URL of the die's crop, /api/crops/<name>.jpg"})}),
    "Lights": _record({"seats": _list(BOOLEAN), "status": STRING, "buzz": BOOLEAN}),
    "Snapshot": _record({
        "seq": {**INTEGER, "description": "grows with every change while the box runs; after a restart it "
                                          "goes on from the last accepted input, under a new `boot`"},
        "game": _nullable(STRING), "title": _nullable(STRING), "players": _list(STRING),
        "you": {**_nullable(INTEGER), "description": "the token's seat; null for the host"},
        "whose_turn": _list(INTEGER), "outcome": _nullable(_ref("Outcome")),
        "legal_moves": _list(_ref("LegalMove")), "can_undo": BOOLEAN,
        "can_correct": {**BOOLEAN, "description": "whether the last roll may still be corrected (even one that ended the game)"},
        "awaiting_dice": _nullable(_ref("AwaitingDice")),
        "view": {**OBJECT, "description": "the game's own view of the table"},
        "dice": _nullable(_ref("Dice")), "camera": _ref("Camera"), "message": _nullable(STRING),
        "message_ko": {**_nullable(STRING), "description": "`message` in Korean, when the game words it so"},
        "lights": _ref("Lights"), "records": _nullable(OBJECT), "demo": BOOLEAN,
        "boot": {**STRING, "description": "new each time the box starts: a snapshot of a new boot is newer "
                                          "than any of the last, whatever its seq"},
        "game_no": _nullable({**INTEGER, "description": "the number of the game being played (null before the "
                                                        "first): a rematch of the same players is a new number"}),
        "notices": {**_list(_ref("Notice")), "description": "for the host only (empty for a seat): what the box "
                                                             "says about itself, such as a camera or pins it could not use"},
    }),
    "Notice": _record({"message": STRING,
                       "message_ko": {**_nullable(STRING), "description": "`message` in Korean, when the box words it so"}}),
    "Game": _record({"id": STRING, "title": STRING, "summary": STRING, "min_players": INTEGER,
                     "max_players": INTEGER, "options": {**OBJECT, "description": "JSON Schema of the options"}}),
    "PastGame": _record({"id": INTEGER, "game": STRING, "players": _list(STRING), "started": {"type": "number"},
                         "finished": _nullable({"type": "number"}), "outcome": _nullable(OBJECT)}, closed=False),
    "SeatLink": _record({"seat": INTEGER, "url": STRING}),
    "HostLink": _record({"url": {**STRING, "description": "the host's new join link; the old one is refused from now on"}}),
    "Action": _record({"seat": {**INTEGER, "minimum": 0, "maximum": 63}, "move": NAME, "args": OBJECT,
                       "game_no": GAME_NO}, optional=("args", "game_no")),
    "Roll": _record({**ROLL, "game_no": GAME_NO, "roll_seq": ROLL_SEQ}, optional=("game_no", "roll_seq")),
    "Correction": _record({**ROLL, "game_no": GAME_NO, "roll_seq": ROLL_SEQ}, optional=("game_no", "roll_seq")),
    "Undo": _record({"game_no": GAME_NO}, optional=("game_no",)),
    "Press": _record({"button": {"enum": list(PANEL_BUTTONS),
                                 "description": "claim: NEXT and UNDO held together for 3 s, as on the box"}}),
    "ClaimWindow": _record({"open": {**BOOLEAN, "description": "whether a phone may become the host now"},
                            "seconds_left": {**INTEGER, "minimum": 0, "maximum": 60}}),
    "Claimed": _record({"url": {**STRING, "description": "the new host link to keep; the old one no longer works"},
                        "join": {**STRING, "description": "the same link on this address (/join?token=…): open it "
                                                          "to hold the host's cookie"}}),
    "BoxAddress": _record({"name": {**_nullable(STRING), "description": "the announced name, e.g. "
                                                                      "http://table-companion.local:8080/; null without one"},
                           "number": {**STRING, "description": "the IP address, as the QR codes hold it"}}),
    "NewGame": _record({"game": NAME, "players": {**_list(PLAYER), "minItems": 1, "maxItems": 16},
                        "options": OBJECT,
                        "ends_game": {**INTEGER, "minimum": 0, "maximum": 2**53,
                                      "description": "the `game_no` of the unfinished game this one ends for good; "
                                                     "without it a new game is refused (409, game_in_progress) while "
                                                     "one is unfinished"}},
                       optional=("options", "ends_game")),
    "Empty": _record({}),
    "Calibration": _record({"message": {**STRING, "description": "what was calibrated, a sentence for the host"},
                            "message_ko": STRING,
                            "tray": {**_list(INTEGER), "description": "x, y, width, height in the camera's pixels"},
                            "die_px": {**_nullable(INTEGER), "description": "a die's size; null when none was seen"},
                            "light_fixed": {**BOOLEAN, "description": "exposure and white balance locked (Pi camera)"}}),
    "Event": {**_record({"event": {"enum": ["snapshot"]}, "id": STRING, "retry": INTEGER,
                         "data": {**STRING, "contentMediaType": "application/json", "contentSchema": _ref("Snapshot")}},
                        optional=("retry",)),
              "description": "one server-sent event: a Snapshot as JSON, its seq as the id"},
}

ERRORS: JSON = {
    "400": "Malformed: not JSON, wrong types, missing or unknown keys, unknown move or game.",
    "403": "Missing or wrong token (or an Authorization header that is not Bearer), another seat's action, a seat the "
           "game being played does not have (not_at_table), a cross-site request or not JSON.",
    "404": "Not found.",
    "409": "The rules refuse this now; nothing changed.",
    "413": "The body is larger than 16 KB.",
    "429": "Too many wrong tokens from this address (too_many_attempts; wait a minute), or too many inputs from one "
           f"token at once (too_many_inputs: by default {INPUTS_PER_SECOND:g} a second after a burst of {INPUT_BURST}; "
           "nothing changed, Retry-After says when).",
    "503": "The table did not answer in time, too many event streams are open, or the camera is offline.",
}


ERROR_HEADERS: JSON = {
    "429": {"Retry-After": {"description": "with too_many_inputs: the seconds to wait before the next input",
                            "schema": {**INTEGER, "minimum": 1}}},
}


def _json(schema: JSON) -> JSON:
    return {"application/json": {"schema": schema}}


def _operation(summary: str, ok: JSON, *, errors: tuple[str, ...], body: str | None = None,
               public: bool = False, ok_description: str = "OK") -> JSON:
    operation: JSON = {
        "summary": summary,
        "responses": {"200": {"description": ok_description, "content": ok},
                      **{status: {"$ref": f"#/components/responses/E{status}"} for status in errors}},
    }
    if body is not None:
        operation["requestBody"] = {"required": body not in ("Empty", "Undo"), "content": _json(_ref(body))}
    operation["security"] = [] if public else [{"bearer": []}, {"cookie": []}]
    return operation


WRITE_ERRORS = ("400", "403", "409", "413", "429", "503")
READ_ERRORS = ("403", "429")
SEAT = {"name": "seat", "in": "path", "required": True, "schema": {**INTEGER, "minimum": 0}}


def _paths() -> JSON:
    snapshot = _json(_ref("Snapshot"))
    return {
        "/api/state": {"get": _operation("The table for the token's seat (host: every seat's moves).", snapshot,
                                         errors=READ_ERRORS)},
        "/api/events": {"get": _operation(
            "Server-Sent Events: `snapshot` events (id = seq, data = Snapshot JSON), first on every connect, "
            "then on every change; a `ping` event (data: {\"every\": seconds}) when quiet that long, so a page "
            "whose stream went silent knows to reconnect; retry 2000 ms.",
            {"text/event-stream": {"schema": _ref("Event")}}, errors=("403", "429", "503"))},
        "/api/actions": {"post": _operation("Make a move for a seat.", snapshot, errors=WRITE_ERRORS, body="Action")},
        "/api/dice": {"post": _operation("Enter a roll by hand.", snapshot, errors=WRITE_ERRORS, body="Roll")},
        "/api/dice/correct": {"post": _operation("Correct the last roll.", snapshot, errors=WRITE_ERRORS,
                                                 body="Correction")},
        "/api/undo": {"post": _operation("Take back the last move of this turn.", snapshot, errors=WRITE_ERRORS,
                                         body="Undo")},
        "/api/press": {"post": _operation("Press a button of the virtual panel (demo mode).", snapshot,
                                          errors=(*WRITE_ERRORS, "404"), body="Press")},
        "/api/games": {"get": _operation("The games the host can start.", _json(_list(_ref("Game"))), errors=(),
                                         public=True)},
        "/api/game": {"post": _operation("Start a new game (host only); the old one stays in the history, and an unfinished one ends only when `ends_game` names it.", snapshot,
                                         errors=WRITE_ERRORS, body="NewGame")},
        "/api/history": {"get": _operation("The games played, newest first.", _json(_list(_ref("PastGame"))),
                                           errors=READ_ERRORS)},
        "/api/crops/{name}.jpg": {"get": {
            **_operation("A die's crop from the last camera read.", {"image/jpeg": {"schema": {**STRING, "format": "binary"}}},
                         errors=(*READ_ERRORS, "404")),
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": STRING}]}},
        "/api/seats/{seat}/token": {"post": {
            **_operation("Revoke a seat's token and issue a new one (host only).", _json(_ref("SeatLink")),
                         errors=(*WRITE_ERRORS, "404"), body="Empty"),
            "parameters": [SEAT]}},
        "/api/seats/{seat}/qr.svg": {"get": {
            **_operation("The QR code of a seat's join link (host only). It issues nothing: a new game gives each of "
                         "its seats a link, POST /api/seats/{seat}/token a new one (409 no_seat_link when there is none).",
                         {"image/svg+xml": {"schema": STRING}}, errors=(*READ_ERRORS, "404", "409")),
            "parameters": [SEAT]}},
        "/api/host/token": {"post": _operation(
            "End the host's link and issue a new one (host only): the old link is refused from the next request on "
            "and its event streams end; the answer sets the new token as this browser's cookie.",
            _json(_ref("HostLink")), errors=WRITE_ERRORS, body="Empty")},
        "/api/claim": {
            "get": _operation("Whether the box takes a new host now: NEXT and UNDO held together on the box open a "
                              "minute for it (no link needed).", _json(_ref("ClaimWindow")), errors=(), public=True),
            "post": _operation("Become the host while the box takes one (no link needed): a new host link, the old "
                               "one ended; the first phone wins, a later one or one outside the minute is refused "
                               "(409: claim_taken, claim_closed) and nothing changes.", _json(_ref("Claimed")),
                               errors=WRITE_ERRORS, body="Empty", public=True)},
        "/api/host/address": {"get": _operation(
            "Where phones find the box, to type it in (host only): its announced name, where it has one, and its IP "
            "address.", _json(_ref("BoxAddress")), errors=READ_ERRORS)},
        "/api/camera/view.jpg": {"get": _operation(
            "What the box's camera sees now, the tray outlined and each die boxed with its value (host only).",
            {"image/jpeg": {"schema": {**STRING, "format": "binary"}}}, errors=(*READ_ERRORS, "404", "409", "503"))},
        "/api/camera/calibrate": {"post": _operation(
            "Calibrate the camera as it sees the tray now (host only): find the tray, measure a die, fix the light; "
            "kept in the state folder and used at once. Refused (409) when the tray found leaves out a die.",
            _json(_ref("Calibration")), errors=(*WRITE_ERRORS, "404"), body="Empty")},
        "/api/openapi.json": {"get": _operation("This document.", _json(OBJECT), errors=(), public=True)},
        **memory_openapi.paths(_operation, _json, snapshot),
        **teach_openapi.paths(_operation, _json),
    }


def document() -> JSON:
    """The OpenAPI 3.1 document of the API; raises nothing."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table companion", "version": "1",
                 "description": "The board-game table companion's API for phones on the local network. "
                                "Every error body is an Error. State-changing requests take JSON and are "
                                "refused cross-site."},
        "paths": _paths(),
        "components": {
            "schemas": {**SCHEMAS, **memory_openapi.SCHEMAS, **teach_openapi.SCHEMAS},
            "responses": {f"E{status}": {"description": text, "content": _json(_ref("Error")),
                                         **({"headers": ERROR_HEADERS[status]} if status in ERROR_HEADERS else {})}
                          for status, text in ERRORS.items()},
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "a seat's or the host's token"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "companion_token",
                           "description": "set by GET /join?token=…"},
            },
        },
    }
