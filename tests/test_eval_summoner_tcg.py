"""The Summoner TCG's evaluation (rules/summoner_tcg/evaluate.lua): bounded, moved the
right way by Stamina and Summons, won above lost, and blind to what the seat cannot see."""
from __future__ import annotations

import pytest

from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play

GAME = "summoner_tcg"


@pytest.fixture(scope="module")
def tcg():
    return load_game(GAME)


def midgame(game, seed: int = 8, decisions: int = 40) -> Match:
    m = Match(game, seed, [Seat("random", "ember"), Seat("random", "tide")], quiet=True)
    play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=decisions)
    assert m.pending is not None
    return m


def test_declared(tcg):
    assert tcg.data["bots"]["evaluate"] == "evaluate.lua"


def test_values_stay_within_bounds_and_move(tcg):
    for seed in (1, 2, 4):
        m = Match(tcg, seed, [Seat("random", "ember"), Seat("random", "tide")], quiet=True)
        bots = {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}
        seen = set()
        while m.pending is not None and m.decisions < 400:
            for p in (1, 2):
                v = m.evaluate(p)
                assert -1.0 <= v <= 1.0
                seen.add(round(v, 2))
            play(m, bots, max_decisions=m.decisions + 10)
        assert len(seen) > 5, "the evaluation hardly moves over a game"


def test_stamina_counts(tcg):
    m = midgame(tcg)
    before1, before2 = m.evaluate(1), m.evaluate(2)
    m.eval("counters.add(1, 'stamina', -15)")
    assert m.evaluate(1) < before1 - 0.03
    assert m.evaluate(2) > before2 + 0.03


def test_a_revealed_summon_counts(tcg):
    m = midgame(tcg)
    before1, before2 = m.evaluate(1), m.evaluate(2)
    m.eval("""
      local c = nil
      for _, x in ipairs(zones.cards(1, 'deck')) do
        if x.def == 'ember_drake' or x.def == 'thornback_boar' or x.def == 'grove_stag' then c = x end
      end
      if c == nil then
        for _, x in ipairs(zones.cards(1, 'field')) do
          if is_summon(x) and (x.def == 'ember_drake' or x.def == 'grove_stag' or x.def == 'stone_sentry') then c = x end
        end
      end
      cards.to_zone(c, 1, 'field')
      cards.turn_face_up(c)
      -- as if paid for: the others judge player 1's unseen primed cards by what the
      -- ledger says was paid less the cards in sight
      state.vars.ledger[1].paid = state.vars.ledger[1].paid + stat(c, "cost")
    """)
    assert m.evaluate(1) > before1 + 0.05
    assert m.evaluate(2) < before2 - 0.05


def test_near_win_above_near_loss(tcg):
    won, lost = midgame(tcg), midgame(tcg)
    won.eval("counters.add(2, 'stamina', 2 - counters.get(2, 'stamina'))")
    lost.eval("counters.add(1, 'stamina', 2 - counters.get(1, 'stamina'))")
    assert won.evaluate(1) > 0.2
    assert lost.evaluate(1) < -0.2
    assert won.evaluate(1) > lost.evaluate(1) + 0.5


def test_a_seat_out_is_lost_and_three_players_judge_the_strongest(tcg):
    m = Match(tcg, 5, [Seat("random", "ember"), Seat("random", "tide"), Seat("random", "ember")], quiet=True)
    play(m, {p: RandomBot(5, p) for p in (1, 2, 3)}, max_decisions=40)
    assert m.pending is not None
    before = m.evaluate(1)
    m.eval("counters.add(2, 'stamina', 60)")    # the strongest opponent grows stronger
    assert m.evaluate(1) < before
    m.eval("eliminate(3, 'a test')")
    assert m.evaluate(3) == -1.0
    assert -1.0 < m.evaluate(1) < 1.0


def test_blind_to_the_opponents_hand_and_deck(tcg):
    m = midgame(tcg, seed=11, decisions=30)
    v = m.evaluate(1)
    changed = m.eval("""
      local h = zones.cards(2, 'hand')[1]
      if h == nil then return false end
      for _, d in ipairs(zones.cards(2, 'deck')) do
        if d.def ~= h.def then
          cards.to_zone(h, 2, 'deck')
          cards.to_zone(d, 2, 'hand')
          return true
        end
      end
      return false
    """)
    assert changed == [True]
    assert m.evaluate(1) == v
    for seed in (11, 12, 13):   # worlds dealt again from seat 1's view
        assert m.sample(1, seed).evaluate(1) == v


@pytest.mark.parametrize("seed", [5, 8, 11])
def test_stamina_above_fifty_counts_half(tcg, seed):
    # Stamina banked above 50 only pays for cards (HOARD in evaluate.lua): ten more
    # points there are worth less than ten points of score, ten more at 30 more than ten.
    # The score is read back through the squash v = x / (SCALE + |x|), SCALE = 40.
    def score(stamina):
        m = midgame(tcg, seed)
        m.eval(f"counters.add(1, 'stamina', {stamina} - counters.get(1, 'stamina'))")
        v = m.evaluate(1)
        return 40 * v / (1 - abs(v))
    assert score(40) - score(30) > 10
    assert score(80) - score(70) < 10
