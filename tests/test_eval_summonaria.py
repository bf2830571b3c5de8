"""Summonaria's evaluation (rules/summonaria/evaluate.lua): bounded, moved the right way
by towers, the goal, units and wounds, and blind to the others' resource cards."""
from __future__ import annotations

import pytest

from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play

GAME = "summonaria"
ARMIES = ("tribes_of_pain", "sylvan_guardians")


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


def midgame(game, seed: int = 4, decisions: int = 60) -> Match:
    m = Match(game, seed, [Seat("random", ARMIES[0]), Seat("random", ARMIES[1])], quiet=True)
    play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=decisions)
    assert m.pending is not None
    return m


# Lua run in the match (the rules' API): a unit of player p standing on the board
UNIT_OF = """
local function unit_of(p, i)
  local us = units_of(p)
  return us[i or 1]
end
"""


def test_declared(game):
    assert game.data["bots"]["evaluate"] == "evaluate.lua"


def test_values_stay_within_bounds_and_move(game):
    m = Match(game, 2, [Seat("random", ARMIES[0]), Seat("random", ARMIES[1])], quiet=True)
    bots = {1: RandomBot(2, 1), 2: RandomBot(2, 2)}
    seen = set()
    while m.pending is not None and m.decisions < 300:
        for p in (1, 2):
            v = m.evaluate(p)
            assert -1.0 <= v <= 1.0
            seen.add(round(v, 2))
        play(m, bots, max_decisions=m.decisions + 15)
    assert len(seen) > 5, "the evaluation hardly moves over a game"


def test_taking_the_centre_tower_counts(game):
    m = midgame(game)
    m.eval("local c = board.card_at('f6') if c then destroy(c) end")
    before1, before2 = m.evaluate(1), m.evaluate(2)
    m.eval(UNIT_OF + "cards.place(unit_of(1), 'f6')")
    assert m.evaluate(1) > before1 + 0.03
    assert m.evaluate(2) < before2 - 0.03


def test_wounds_and_losses_count(game):
    m = midgame(game, seed=7)    # (a position still open: near -1 or 1 the squashed value moves little)
    assert abs(m.evaluate(1)) < 0.3
    before = m.evaluate(1)
    m.eval(UNIT_OF + """
      local c = unit_of(1)
      if stat(c, 'hits') > wounds(c) + 1 then tokens.add(c, 'wound') end
    """)
    wounded = m.evaluate(1)
    assert wounded <= before
    m.eval(UNIT_OF + "destroy(unit_of(1))")
    assert m.evaluate(1) < before - 0.05


def test_the_goal_near_a_win(game):
    """Holding the own tower and three others, claimed, is near a win; the mirror near a loss."""
    def hold(m, p):
        q = 3 - p
        m.eval(f"""
          local mine = units_of({p})
          local towers = {{ home_tower({p}) }}
          for _, s in ipairs(tower_spaces()) do
            if s ~= home_tower({p}) and s ~= home_tower({q}) then towers[#towers + 1] = s end
          end
          for _, s in ipairs(towers) do
            local c = board.card_at(s)
            if c and c.controller ~= {p} then destroy(c) end
          end
          local spare = {{}}
          for _, c in ipairs(zones.cards({p}, 'army')) do spare[#spare + 1] = c end
          for i, s in ipairs(towers) do
            if board.card_at(s) == nil then
              local c = table.remove(spare)
              cards.place(c, s)
            end
          end
          state.vars.claims[{p}] = true
        """)
    won, lost = midgame(game), midgame(game)
    hold(won, 1)
    hold(lost, 2)
    assert won.evaluate(1) > 0.5
    assert lost.evaluate(1) < -0.5
    assert won.evaluate(2) < -0.5


def test_blind_to_the_others_hands(game):
    m = midgame(game, seed=6, decisions=40)
    v = m.evaluate(1)
    for seed in (11, 12, 13):   # worlds dealt again from seat 1's view
        assert m.sample(1, seed).evaluate(1) == v
