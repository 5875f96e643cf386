"""Every sentence the four English-language games say to the players has its Korean twin (a `Said`): each
log line, each reason a move is not allowed now (`why_not`, which a refusal says), why a roll is awaited,
and each refusal a move's own checks raise, over seeded random play-outs with random options. The Gate words both languages its own
way (companion/games/the_gate/texts.py); the engine's own refusals (a game over, a roll out of turn) are put
in Korean by the page (web/static/box-sentences.js)."""
from __future__ import annotations

import random
import re
from typing import Any, Iterator

import pytest

from companion.games import registered_games
from companion.games.eight_gates import words as eight_gates_words
from companion.rules.inputs import StartGame
from companion.rules import engine
from companion.rules.autoplay import random_input, sample
from companion.rules.errors import BadInput, CompanionError
from companion.rules.said import Said, counted, in_korean, korean
from companion.rules.schema import array, boolean, choice, integer, obj, text, validate
from companion.rules.table import Table

GAMES = registered_games()
ENGLISH_GAMES = ("eight-gates", "gateway-city", "gateway-rescue", "through-the-gate")
SEEDS = range(4)
MAX_STEPS = 1500
HANGUL = re.compile("[\uac00-\ud7a3]")
DOUBLE_STOP = re.compile(r"[.?!:;,] ?[.!](?!\.)|(?<!\.)\.\.(?!\.)")  # "speed?." or "turn.." (an ellipsis is fine)
VIEW_SENTENCES = ("messages", "lines")  # view keys whose items are sentences (each has a `_ko` twin list)
ENGINE_OWN = re.compile(r"This roll is .+'s to make\.|The last move was .+'s: .+|.+'s move since then depends on it, .+")


def test_a_said_sentence_is_its_english_and_keeps_its_korean() -> None:
    said = Said("Ann ends the turn.", "앤의 턴이 끝났습니다.")
    assert said == "Ann ends the turn." and hash(said) == hash("Ann ends the turn.")
    assert (korean(said), in_korean(said), korean("plain"), in_korean("plain")) == (
        "앤의 턴이 끝났습니다.", "앤의 턴이 끝났습니다.", None, "plain")
    import copy
    import json
    import pickle

    assert korean(copy.deepcopy(said)) == korean(pickle.loads(pickle.dumps(said))) == said.ko
    assert json.dumps({"log": [said]}) == '{"log": ["Ann ends the turn."]}'
    with pytest.raises(TypeError):
        Said("Ann ends the turn.", None)  # type: ignore[arg-type]


def test_a_count_names_one_thing_in_the_singular() -> None:
    assert [counted(count, "point") for count in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert (counted(1, "die", "dice"), counted(3, "die", "dice")) == ("1 die", "3 dice")


def test_the_games_name_one_point_card_or_gate_in_the_singular() -> None:
    assert eight_gates_words.placed("Ann", 4, 1, 2, 1) == "Ann plays a 4 at (1, 2); next to a 4, 1 Gate of value 4 in the middle: +1 point."
    assert eight_gates_words.revealed("Ann", (5,), 1).endswith(": +1 point.")
    assert eight_gates_words.points_changed("Ann", True, 1) == "Ann gains 1 point."


SCHEMA_REFUSALS = [  # (value, schema, the English refusal): one for each sentence rules.schema can say, naming
    # the field in the players' words (its title, else its key), never as a path such as args.values[1]
    ("x", choice(["a", "b"]), "This move: must be one of a, b, not 'x'."),
    (2.5, integer(1, 6), "This move: must be a whole number, not 2.5."),
    (7, integer(1, 6), "This move: must be from 1 to 6, not 7."),
    (-1, integer(0), "This move: must be at least 0, not -1."),
    (9, integer(maximum=6), "This move: must be at most 6, not 9."),
    (3, text(), "This move: must be text, not 3."),
    ("", text(), "This move: must not be empty."),
    ("abcdef", text(5), "This move: must be at most 5 characters long."),
    ("a\x00b", text(), "This move: must be printable text, without control or invisible characters."),
    ("yes", boolean(), "This move: must be yes or no, not 'yes'."),
    ({}, array(integer()), "This move: must be a list, not {}."),
    ([1, 2, 3], array(integer(), max_items=2), "This move: enter 0 to 2, not 3."),
    ({"values": [1]}, obj({"values": array(integer(), 3, 3, "values, left to right")}),
     "Values, left to right: enter exactly 3, not 1."),
    ({"hand": [1, "2"]}, obj({"hand": array(integer(), title="the values in your hand")}),
     "The values in your hand, no. 2: must be a whole number, not '2'."),
    ([], obj(), "This move: must be an object, not []."),
    ({}, obj({"speed": integer(2, 7)}, ("speed",)), "This move: Speed is missing."),
    ({"sped": 3}, obj({"speed": integer(2, 7)}), "This move: has no field 'sped'; its fields: speed."),
    ({"speed": 9}, obj({"speed": integer(2, 7)}), "Speed: must be from 2 to 7, not 9."),
    ({"hand_size": 0}, obj({"hand_size": integer(1)}), "Hand size: must be at least 1, not 0."),
]


@pytest.mark.parametrize(("value", "schema", "english"), SCHEMA_REFUSALS)
def test_a_malformed_input_is_refused_in_english_and_korean_naming_the_field(value: Any, schema: dict[str, Any],
                                                                            english: str) -> None:
    with pytest.raises(BadInput) as refused:
        validate(value, schema)
    said, where = refused.value.message, english.split(":")[0]
    korean_where = {"This move": "이 행동"}.get(where, where.replace(", no. 2", " 2번째"))
    assert said == english and HANGUL.search(korean(said) or "") and korean(said).startswith(f"{korean_where}: ")
    assert not re.search(r"args|\[\d\]", said + korean(said))


def test_a_list_refusal_names_the_field_by_its_korean_title_on_the_korean_page() -> None:
    schema = obj({"values": array(integer(1, 6), 3, 3, "values, left to right", "값 (왼쪽부터)")}, ("values",))
    with pytest.raises(BadInput) as refused:
        validate({"values": [5]}, schema)
    assert korean(refused.value.message) == "값 (왼쪽부터): 정확히 3개를 입력하세요 (받은 개수: 1)."
    with pytest.raises(BadInput) as refused:
        validate({"values": [5, 9, 3]}, schema)
    assert refused.value.message == "Values, left to right, no. 2: must be from 1 to 6, not 9."
    assert korean(refused.value.message) == "값 (왼쪽부터) 2번째: 1부터 6까지여야 합니다 (받은 값: 9)."


@pytest.mark.parametrize("game_id", ENGLISH_GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_sentence_an_english_language_game_says_has_its_korean_and_one_stop(game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    game = GAMES[game_id]
    table = _started(game, rng, seed)
    missing: set[str] = set()
    for _ in range(MAX_STEPS):
        _check_sentences(table, game, missing)
        if game.outcome(table.state) is not None:
            break
        given = random_input(table, game, rng)
        assert given is not None
        try:
            table = engine.apply(table, game, given)
        except BadInput:
            continue  # a malformed input: the page's forms do not send it, and the engine words it
        except CompanionError as refusal:
            if not ENGINE_OWN.fullmatch(refusal.message):
                _needs_korean(refusal.message, missing)
    assert not missing, f"{game_id}: without Korean, or stopped twice: {sorted(missing)}"


def _started(game: Any, rng: random.Random, seed: int) -> Table:
    """A table of the game with a random number of players and random options (the defaults when refused)."""
    players = tuple(f"P{index}" for index in range(rng.randint(game.min_players, game.max_players)))
    options = sample(game.options, rng) if game.options else {}
    try:
        return engine.start(game, StartGame(game.id, players, options, seed))
    except CompanionError:
        return engine.start(game, StartGame(game.id, players, {}, seed))


def _check_sentences(table: Table, game: Any, missing: set[str]) -> None:
    """Adds to `missing` each log line, reason a move is not allowed and why a roll is awaited without a Korean twin."""
    for line in getattr(table.state, "log", ()):
        _needs_korean(line, missing)
    request = game.awaiting_dice(table.state)
    if request is not None:
        _needs_korean(request.why, missing)
    for sentence in _view_sentences(game.view(table.state, None)):
        _needs_korean(sentence, missing)
    for seat in range(len(table.players)):
        for rule in game.moves:
            reason = rule.why_not(table.state, seat)
            if reason is not None:
                _needs_korean(reason, missing)


def _view_sentences(value: Any) -> Iterator[str]:
    """The sentences a view carries for the players to read (Gateway city's end and battle story)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from item if key in VIEW_SENTENCES else _view_sentences(item)
    elif isinstance(value, list):
        for item in value:
            yield from _view_sentences(item)


def _needs_korean(sentence: str, missing: set[str]) -> None:
    """Adds the sentence to `missing` when it has no Korean twin, or either of them stops twice ('speed?.')."""
    twin = korean(sentence)
    if twin is None or not HANGUL.search(twin):
        missing.add(str(sentence))
    for said in (sentence, twin or ""):
        if DOUBLE_STOP.search(said):
            missing.add(f"stopped twice: {said}")
