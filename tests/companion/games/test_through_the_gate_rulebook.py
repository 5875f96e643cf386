"""Through The Gate as its rulebook words it: negative icons, the wild split for the result, one die for
every condition of a card, odd or even, ★ cards on another player's roll, the Ice Queen alone."""
from __future__ import annotations

import pytest

from companion.games.through_the_gate import scoring
from companion.games.through_the_gate.state import Explorer, Tallies
from companion.rules.errors import BadInput, IllegalMove
from ttg_table import GAME, move, new, roll, started, to_scoring


def _finished(table, *tallies):  # type: ignore[no-untyped-def]
    for seat, entered in enumerate(tallies):
        table = move(table, "set_tallies", seat=seat, **entered)
    return GAME.outcome(move(table, "finish_scoring", seat=0).state)


def test_a_net_negative_compassion_is_entered_and_loses_the_diplomat_to_zero() -> None:
    """Rulebook: "Only count the icons in (parentheses)." — and "Switching Fate (-1 ♥)" is such an icon."""
    table = to_scoring(("Ann", "Bob"))
    outcome = _finished(table, {"compassion": -1, "diary": 3}, {"compassion": 0, "diary": 3})
    assert outcome.detail["victories"][1] == ["knight", "scholar", "diplomat", "explorer", "leadership"]
    assert "diplomat" not in outcome.detail["victories"][0]
    assert outcome.detail["totals"][0]["compassion"] == -1
    with pytest.raises(BadInput):  # bounded, and only ♥ ♠ ♣ carry negative icons
        move(table, "set_tallies", seat=0, compassion=-100)
    with pytest.raises(BadInput):
        move(table, "set_tallies", seat=0, diary=-1)


def test_a_negative_tally_counts_against_the_ice_queen_target() -> None:
    """Rulebook: "Only count the icons in (parentheses)."; "combine your totals with the other players"."""
    table = to_scoring(("Ann", "Bob"), variant="ice_queen")
    outcome = _finished(table, {"strength": 4, "wisdom": 4, "compassion": 4, "companions": 4, "diary": 24},
                        {"compassion": -1})
    assert outcome.detail["totals"]["compassion"] == 3
    assert outcome.summary == "4 of 5 targets met: you win, but the Ice Queen escapes."


def test_the_proposed_wild_split_wins_alone_before_sharing() -> None:
    """Rulebook: "Wild cards count as Compassion, Strength, or Wisdom – you choose." and "The player with the
    most victories wins the game." """
    explorers = (Explorer("Ann", 0, Tallies(compassion=3, wisdom=3, wild=2)),
                 Explorer("Bob", 0, Tallies(compassion=3, strength=2, wisdom=3)))
    rows = scoring.standings(explorers)
    assert rows[0].wilds == (1, 0, 1)
    assert scoring.winners(rows) == (0,)


def test_the_wild_split_game_ends_with_ann_winning_alone() -> None:
    """Rulebook: "The player with the most victories wins the game." """
    outcome = _finished(to_scoring(("Ann", "Bob")), {"compassion": 3, "wisdom": 3, "wild": 2},
                        {"compassion": 3, "strength": 2, "wisdom": 3})
    assert outcome.winners == (0,) and outcome.summary == "Ann wins with 4 victories."


@pytest.mark.parametrize(("die", "first", "second"), [(6, "6 = 6? yes.", "6 < 5? no."), (3, "3 = 6? no.", "3 < 5? yes.")])
def test_goblin_ambush_decides_both_conditions_with_one_die(die: int, first: str, second: str) -> None:
    """Rulebook: "Goblin Ambush … Roll a die. If it is a six, discard a card. If it is less than your speed,
    end your turn." """
    table = move(move(started(), "declare_speed", speed=5), "check", kind="six", also="less")
    table = roll(table, die)
    assert GAME.awaiting_dice(table.state) is None  # one die, not a second roll
    shown = GAME.view(table.state, 0)["check"]
    assert shown["verdict"] == f"Rolled {die} against speed 5: {first} {second}"
    assert shown["verdict_ko"].endswith(f"{first} {second}".replace("yes", "예").replace("no", "아니오"))
    assert shown["also_passed"] is (die < 5)
    assert table.state.log[-1] == shown["verdict"]


def test_minotaur_greater_and_less_on_one_roll_and_nonsense_pairs_are_refused() -> None:
    """Rulebook (Minotaur): "If [die] > [speed], … If [die] < [speed], draw a card and play it." """
    table = move(move(started(), "declare_speed", speed=4), "check", kind="greater", also="less")
    assert GAME.view(roll(table, 5).state, 0)["check"]["verdict"].endswith("5 > 4? yes. 5 < 4? no.")
    with pytest.raises(IllegalMove, match="second condition"):
        move(move(started(), "declare_speed", speed=4), "check", kind="djinn", also="less")


@pytest.mark.parametrize(("die", "modifier", "english", "korean"),
                         [(3, None, "3: odd.", "3: 홀수."), (4, None, "4: even.", "4: 짝수."),
                          (3, "bottled_imp_plus", "3 + 1 = 4 against speed 2: 4: even.", "4: 짝수.")])
def test_grasping_trees_odd_or_even(die: int, modifier: str | None, english: str, korean: str) -> None:
    """Rulebook (Grasping Trees): "Odd: a [discard]. Even: a card with a border that is not black." """
    table = roll(move(move(started(), "declare_speed", speed=2), "check", kind="odd_even"), die)
    if modifier:
        table = move(table, "modify", card=modifier)
    shown = GAME.view(table.state, 0)["check"]
    assert shown["verdict"].endswith(english) and shown["verdict_ko"].endswith(korean)


def test_another_seat_plays_braid_of_confusion_on_the_pending_roll_and_the_log_names_them() -> None:
    """Rulebook: "Braid of Confusion ★: Subtract two from a [die]." — played on another player's roll."""
    table = move(move(started(), "declare_speed", speed=4), "check", kind="item")
    table = move(table, "modify", seat=1, card="braid_of_confusion")
    assert "Bob plays Braid of Confusion −2." in table.state.log
    table = roll(table, 5)
    assert GAME.view(table.state, 0)["check"]["verdict"].endswith("5 − 2 = 3 against speed 4: the item is overlooked and discarded.")
    table = move(table, "reroll", seat=2)
    assert "Cy plays Silver Apples: re-roll the die." in table.state.log
    with pytest.raises(IllegalMove, match="It is Ann's turn."):
        move(table, "modify", seat=2, card="companion_bonus")  # a companion helps its own leader only


def test_the_ice_queen_is_played_alone_with_the_one_player_targets() -> None:
    """Rulebook (the teal victory cards): "1 player = 2 🗡️" … "1 player = 12 cards"."""
    table = new(("Ann",), variant="ice_queen", hourglasses=1)
    assert table.state.mode == "ice_queen" and table.state.phase == "playing"
    table = move(table, "end_turn")
    outcome = _finished(table, {"strength": 2, "wisdom": 2, "compassion": 2, "companions": 2, "diary": 12})
    assert outcome.winners == (0,)
    assert outcome.summary == "All five targets met: the Ice Queen is banished!"
