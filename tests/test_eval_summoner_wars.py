"""Summoner Wars: the bots' evaluation (rules/summoner_wars/evaluate.lua) makes sense.

Positions are set with scenario Lua on a cleared battlefield: Svara (Polar Dwarves) for
seat 1 on a1, Ret-Talus (Fallen Kingdom) for seat 2 on f8, both with 12 life.
"""
from __future__ import annotations

import pytest

from conftest import position
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play

PD, FK = "polar_dwarves", "fallen_kingdom"
MR, M = 1, 6   # battle die faces: melee+ranged, melee


@pytest.fixture(scope="module")
def sw():
    return load_game("summoner_wars")


def board_position(sw, body: str = "", *, phase: str = "summon", active: int = 1, magic=(3, 3),
                   s1: str = "a1", s2: str = "f8", dice=()) -> Match:
    lua = ["scenario.clear_board()",
           f'scenario.create("svara", 1, "{s1}")', f'scenario.create("ret_talus", 2, "{s2}")',
           f'scenario.set_counter(1, "magic", {magic[0]})', f'scenario.set_counter(2, "magic", {magic[1]})',
           body]
    if dice:
        lua.append("scenario.force({" + ", ".join(map(str, dice)) + "})")
    lua.append(f'scenario.start({active}, "{phase}")')
    return position(sw, "\n".join(lua), sets=(PD, FK), quiet=True)


def values(m: Match) -> tuple[float, float]:
    return m.evaluate(1), m.evaluate(2)


def test_the_game_declares_its_evaluation(sw):
    assert sw.data["bots"]["evaluate"] == "evaluate.lua"


EMPTY_HANDS = 'scenario.empty(1, "hand")\nscenario.empty(2, "hand")'


def test_an_even_position_is_near_zero_and_the_seats_see_opposite_values(sw):
    # each seat values its own hand by what it holds and the other's by its size alone, so
    # the two values are opposite only when that makes no difference: with no hands
    e1, e2 = values(board_position(sw, EMPTY_HANDS))
    assert abs(e1) < 0.05
    assert e1 == pytest.approx(-e2)
    h1, h2 = values(board_position(sw))   # five unseen cards each: still near even for both
    assert abs(h1) < 0.1 and abs(h2) < 0.1


def test_a_cheap_strong_unit_in_hand_is_kept_and_a_champion_is_worth_its_magic(sw):
    """A card in hand is worth what it could add on the battlefield over its cost: a
    Hellfire Cultist (0 magic for a 2/2) more than the magic it would bring if discarded,
    a champion whose cost is as much as its body is worth less than that magic."""
    def keep_or_discard(card: str) -> tuple[float, float]:
        hand = EMPTY_HANDS + f'\nscenario.add(1, "hand", {{"{card}"}})'
        kept = board_position(sw, hand).evaluate(1)
        gone = board_position(sw, hand + '\nfor _, c in ipairs(zones.cards(1, "hand")) do '
                                         'cards.to_zone(c, 1, "discard") end', magic=(4, 3)).evaluate(1)
        return kept, gone
    kept, gone = keep_or_discard("hellfire_cultist")
    assert kept > gone
    kept, gone = keep_or_discard("gul_dass")
    assert gone > kept


def test_damage_on_your_summoner_lowers_your_value_and_healing_raises_it(sw):
    m = board_position(sw, 'tokens.add(board.card_at("a1"), "damage", 4)')
    hurt1, hurt2 = values(m)
    assert hurt1 < -0.05 and hurt2 > 0.05
    m.eval('tokens.remove(board.card_at("a1"), "damage")')
    healed1, healed2 = values(m)
    assert healed1 > hurt1 + 0.05
    assert healed2 < hurt2 - 0.05
    # a few points of life are a clear advantage, not a won game
    assert -0.5 < hurt1 < 0


def test_a_unit_more_is_an_advantage_that_moves_the_value_without_saturating_it(sw):
    e1, e2 = values(board_position(sw, EMPTY_HANDS + '\nscenario.create("bear_cavalry", 1, "c2")'))
    assert 0.05 < e1 < 0.4
    assert e2 == pytest.approx(-e1)


def test_a_unit_next_to_the_enemy_summoner_is_worth_more_than_one_far_away(sw):
    far, _ = values(board_position(sw, 'scenario.create("bear_cavalry", 1, "a3")'))
    near, _ = values(board_position(sw, 'scenario.create("bear_cavalry", 1, "f7")'))
    assert near > far


def test_magic_counts(sw):
    poor, _ = values(board_position(sw, magic=(0, 3)))
    rich, _ = values(board_position(sw, magic=(6, 3)))
    assert poor < 0 < rich


def test_a_lopsided_position_has_opposite_signs(sw):
    m = board_position(sw, """
        tokens.add(board.card_at("f8"), "damage", 9)
        scenario.create("bear_cavalry", 1, "f7")
        scenario.create("bear_cavalry", 1, "e8")
        scenario.create("ice_golem", 1, "b2")
    """)
    e1, e2 = values(m)
    assert e1 > 0.4 and e2 < -0.4
    assert -1 <= e2 < 0 < e1 <= 1


def test_a_won_game_is_1_and_a_lost_one_is_minus_1(sw):
    m = board_position(sw, """
        scenario.create("bear_cavalry", 1, "c4")
        tokens.add(board.card_at("c5"), "damage", 10)
    """, s2="c5", phase="attack", dice=[MR, MR, M])
    before = m.evaluate(1)
    m.answer_key("Attack with Bear Cavalry at c4")
    assert m.is_over and m.winner == 1
    assert m.evaluate(1) == 1.0 > before
    assert m.evaluate(2) == -1.0


def test_the_active_player_who_has_attacked_no_enemy_expects_the_cost_of_inaction(sw):
    idle = board_position(sw, phase="attack")
    e_move = board_position(sw, phase="move").evaluate(1)
    # the attack phase with nothing in reach: seat 1's summoner is about to take 1 damage
    assert idle.is_over or idle.evaluate(1) < e_move


def test_values_stay_within_bounds_in_random_games(sw):
    for seed in (1, 2):
        m = Match(sw, seed, [Seat("random", PD), Seat("random", FK)], quiet=True)
        for _ in range(6):
            play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=m.decisions + 40)
            e1, e2 = values(m)
            assert -1 <= e1 <= 1 and -1 <= e2 <= 1
            assert abs(e1 + e2) < 0.15   # (opposite but for what each seat sees of the hands)
            if m.is_over:
                break


def test_a_unit_s_modifiers_count_in_its_worth(tmp_path):
    """The evaluation reads a unit's strength through its modifiers (stat): a Frost Mage
    beside two of its structures is worth more to seat 1 than one without its modifier
    (a buff the evaluation could not see was never worth a card)."""
    from conftest import copy_game, edit
    body = ('scenario.create("frost_mage", 1, "c3") scenario.create("dwarf_gate", 1, "c4") '
            'scenario.create("ice_golem", 1, "b3")')
    g = copy_game(tmp_path)
    edit(g.cards / "polar_dwarves.yaml", "          return value + #near\n", "          return value\n")
    shipped = board_position(load_game("summoner_wars"), body)
    plain = board_position(load_game(str(g.rules)), body)
    assert shipped.eval('return stat(board.card_at("c3"), "strength")') == [3]
    assert plain.eval('return stat(board.card_at("c3"), "strength")') == [1]
    assert shipped.evaluate(1) > plain.evaluate(1) and shipped.evaluate(2) < plain.evaluate(2)
