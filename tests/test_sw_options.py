"""Summoner Wars' numbers live in game.yaml `options:`: changing one (as `--option` does)
changes both the rule and the prompt that states it."""
from __future__ import annotations

import pytest

from conftest import card_at, counter, tokens, zone
from engine.loader import LuaSource
from engine.match import Match, Seat

SEATS = [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")]

# Svara (seat 1) at a1 and Ret-Talus (seat 2) at f8, hands emptied, magic 5 each.
BOARD = """
scenario.clear_board()
scenario.empty(1, "hand"); scenario.empty(2, "hand")
scenario.create("svara", 1, "a1"); scenario.create("ret_talus", 2, "f8")
scenario.set_counter(1, "magic", 5); scenario.set_counter(2, "magic", 5)
"""


def match(sw, lua: str = "", phase: str | None = None, **options) -> Match:
    body = BOARD + lua + (f'\nscenario.start(1, "{phase}")' if phase else "")
    return Match(sw, 1, SEATS, scenario=LuaSource("scenario", body), options=options)


def test_the_defaults_are_the_rulebooks(sw):
    opts = sw.data["options"]
    assert (opts["movers"], opts["attackers"], opts["ranged_reach"], opts["build_rows"]) == (3, 3, 3, 3)
    assert (opts["opening_hand"], opts["hand_size"], opts["first_player_magic"], opts["second_player_magic"]) \
        == (5, 5, 2, 3)
    assert (opts["inaction_damage"], opts["magic_per_discard"]) == (1, 1)


@pytest.mark.parametrize("movers, prompt, mage_may_move", [
    (None, "Move up to 3 units (0 of 3 moved)", True),   # player 1 may move the Frost Mage too
    (1, "Move up to 1 unit (0 of 1 moved)", False),      # only ending the phase is left
])
def test_movers_per_turn(sw, movers, prompt, mage_may_move):
    opts = {} if movers is None else {"movers": movers}
    m = match(sw, 'scenario.create("ice_golem", 1, "c3"); scenario.create("frost_mage", 1, "d3")', "move", **opts)
    assert m.pending.prompt == prompt
    m.answer_key("Move Ice Golem at c3")
    assert m.pending.prompt == "Move Ice Golem from c3 to? (up to 1 space)"   # its move stat is 1
    m.answer_key("c4")
    assert m.pending.player == 1
    assert ("Move Frost Mage at d3" in m.options()) is mage_may_move
    if not mage_may_move:
        assert m.options() == ["End move phase"]


@pytest.mark.parametrize("attackers, prompt, frost_mage_may_attack", [
    (None, "Attack with up to 3 units (0 of 3 attacked)", True),
    (1, "Attack with up to 1 unit (0 of 1 attacked)", False),
])
def test_attackers_per_turn(sw, attackers, prompt, frost_mage_may_attack):
    opts = {} if attackers is None else {"attackers": attackers}
    m = match(sw, 'scenario.create("ice_golem", 1, "c4"); scenario.create("frost_mage", 1, "d5")\n'
                  'scenario.create("undead_warrior", 2, "c5"); scenario.create("undead_warrior", 2, "d6")\n'
                  'scenario.force({6, 6, 6, 6, 6, 6})', "attack", **opts)
    assert m.pending.prompt == prompt
    m.answer_key("Attack with Ice Golem at c4")
    assert ("Attack with Frost Mage at d5" in m.options()) is frost_mage_may_attack


@pytest.mark.parametrize("reach, targets", [(None, True), (2, False)])
def test_ranged_reach(sw, reach, targets):
    opts = {} if reach is None else {"ranged_reach": reach}
    m = match(sw, 'scenario.create("undead_archer", 2, "c6"); scenario.create("ice_golem", 1, "c3")\n'
                  "scenario.start(2, \"attack\")", **opts)
    assert ("Attack with Undead Archer at c6" in m.options()) is targets


def test_opening_hand_and_starting_magic(sw):
    m = Match(sw, 1, SEATS, options={"opening_hand": 3, "first_player_magic": 4, "second_player_magic": 9})
    first = m.snapshot()["first_player"]
    assert [len(zone(m, "hand", p)) for p in (1, 2)] == [3, 3]
    assert (counter(m, "magic", first), counter(m, "magic", 3 - first)) == (4, 9)


def test_hand_size_fills_the_hand_in_the_draw_phase(sw):
    m = match(sw, "", "draw", hand_size=2)
    assert len(zone(m, "hand", 1)) == 2


@pytest.mark.parametrize("damage, said", [
    (0, []),
    (2, ["Player 1 attacked no enemy this turn: their summoner takes 2 damage"]),
])
def test_inaction_damage(sw, damage, said):
    m = match(sw, "", "attack", inaction_damage=damage)
    m.answer_key("End attack phase")
    assert tokens(card_at(m, "a1"), "damage") == damage
    assert [s for s in m.messages() if "attacked no enemy" in s] == said


def test_magic_per_discard(sw):
    m = match(sw, 'scenario.add(1, "hand", {"ice_golem"})', "magic", magic_per_discard=2)
    assert m.pending.prompt == "Discard cards for 2 magic each"
    m.answer_key("Discard Ice Golem for magic")
    assert counter(m, "magic", 1) == 7
