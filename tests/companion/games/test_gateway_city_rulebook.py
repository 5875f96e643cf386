"""Gateway (the city) as its rulebook words it: damage lasts the turn, where spawned survivors go, and the
proposed damage split for a player's VP."""
from __future__ import annotations

from companion.games.gateway_city import GAME
from companion.games.gateway_city import battle as calculator
from companion.games.gateway_city.state import ATTACK, HORDE, Card
from gateway_city_table import act, at_event, holders, horde_spawn, new_table, state_of, to_phase, vp, with_district

BRUTE = Card(HORDE, 0, 4, 3, "Brute")
GRUNT = Card(HORDE, 0, 2, 0, "Grunt")


def test_a_brute_hit_for_two_twice_in_one_turn_dies() -> None:
    """Rulebook: "Cards which do not sustain lethal damage have their defense value set back to full at the end
    of the turn." """
    table = to_phase(with_district(new_table(), 1, cards=(BRUTE,)), ATTACK)
    table = act(act(table, 0, "attack", district=1, army=[{"attack": 2, "defence": 1}]), 0, "fight")
    assert state_of(table).district(1).cards[0].damage == 2
    assert GAME.view(state_of(table), 0)["districts"][0]["defence"] == 2
    table = act(table, 0, "extra_attack")
    table = act(act(table, 0, "attack", district=1, army=[{"attack": 2, "defence": 1}]), 0, "fight")
    assert holders(table)[0] == 0 and vp(table) == [3, 0]


def test_the_damage_is_gone_at_the_end_of_the_turn() -> None:
    """Rulebook: "Cards which do not sustain lethal damage have their defense value set back to full at the end
    of the turn." """
    table = to_phase(with_district(new_table(), 1, cards=(BRUTE,)), ATTACK)
    table = act(act(table, 0, "attack", district=1, army=[{"attack": 2, "defence": 1}]), 0, "fight")
    table = to_phase(act(table, 0, "next_phase"), "deployment")
    assert state_of(table).current == 1 and state_of(table).district(1).cards == (BRUTE,)
    assert "The turn is over: damaged cards are back to full defence." in state_of(table).log


def test_spawned_survivors_that_take_nothing_are_said_to_be_discarded() -> None:
    """Rulebook: "If the player beats the Guard(s) or Horde(s), then they receive the appropriate number of
    victory points from each defeated card." — and the spawned cards left standing go: the log says so."""
    table = at_event(with_district(new_table(), 2, holder=1))
    table = act(table, 0, "draw_event", spawns=[horde_spawn(2, attack=1, defence=2, vp=3),
                                                horde_spawn(2, attack=0, defence=5, vp=1)])
    table = act(act(table, 1, "defend", army=[{"attack": 2, "defence": 3}]), 1, "fight")
    assert holders(table)[1] == 1 and state_of(table).district(2).cards == ()
    assert "Horde (0/5) survives but did not take District 2: it is discarded." in state_of(table).log


def test_the_proposed_split_kills_the_most_vp_before_the_most_cards() -> None:
    """Rulebook: "If the attacking player kills any Horde or City Guards during his attack, then he also
    receives the appropriate number of Victory Tokens for each card killed." """
    table = to_phase(with_district(new_table(), 1, cards=(GRUNT, GRUNT, BRUTE)), ATTACK)
    table = act(act(table, 0, "attack", district=1, army=[{"attack": 4, "defence": 1}]), 0, "fight")
    assert vp(table) == [3, 0] and state_of(table).district(1).cards == (GRUNT, GRUNT)
    assert calculator.propose(4, (GRUNT, GRUNT, BRUTE)) == (2, 2, 0)  # a side that earns no VP kills the most
