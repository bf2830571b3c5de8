"""Random playouts: seeded bot games, with the state's invariants checked after every answer."""
from __future__ import annotations

import pytest

from conftest import seed_ranges, seeds_id
from engine.match import Match, RandomBot, Seat, play
from invariants import check_invariants

GAMES = 200
CHUNK = 5      # games a test plays: small pieces, so that parallel workers share them evenly


@pytest.mark.slow
@pytest.mark.parametrize("seeds", seed_ranges(GAMES, CHUNK), ids=seeds_id)
def test_summoner_wars_playouts_keep_invariants_and_end_with_a_winner(sw, seeds):
    for seed in seeds:
        m = Match(sw, seed, [Seat("bot"), Seat("bot")], quiet=True)
        check_invariants(sw, m.snapshot())
        bots = {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}
        play(m, bots, max_decisions=5000,
             on_decision=lambda match, p, key: check_invariants(sw, match.snapshot()))
        assert m.is_over, f"seed {seed}: no end after {m.decisions} decisions"
        assert m.winner in (1, 2), f"seed {seed}: ended without a winner"
        st = m.snapshot()
        # the winner's summoner stands, the loser's does not
        on_board = [c for c in st["cards"] if c.get("space")]
        summoners = {c["controller"] for c in on_board if c["def"] in ("svara", "ret_talus")}
        assert summoners == {m.winner}, f"seed {seed}: summoners left {summoners}, winner {m.winner}"


@pytest.mark.slow
@pytest.mark.parametrize("seeds", seed_ranges(10, CHUNK), ids=seeds_id)
@pytest.mark.parametrize("sets", [("polar_dwarves", "polar_dwarves"), ("fallen_kingdom", "polar_dwarves")],
                         ids=["mirror", "swapped"])
def test_mirror_and_swapped_factions_play_to_the_end(sw, sets, seeds):
    for seed in seeds:
        m = Match(sw, seed, [Seat("bot", sets[0]), Seat("bot", sets[1])], quiet=True)
        play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=5000,
             on_decision=lambda match, p, key: check_invariants(sw, match.snapshot()))
        assert m.is_over and m.winner in (1, 2)


SUMMONERS = ("svara", "ret_talus", "ilsevane")


@pytest.mark.slow
@pytest.mark.parametrize("seeds", seed_ranges(10, CHUNK), ids=seeds_id)
@pytest.mark.parametrize("sets", [("veiled_court", "polar_dwarves"), ("fallen_kingdom", "veiled_court"),
                                  ("veiled_court", "veiled_court")], ids=["vs-dwarves", "vs-kingdom", "mirror"])
def test_the_veiled_court_plays_to_the_end_against_every_faction(sw, sets, seeds):
    for seed in seeds:
        m = Match(sw, seed, [Seat("bot", sets[0]), Seat("bot", sets[1])], quiet=True)
        play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=5000,
             on_decision=lambda match, p, key: check_invariants(sw, match.snapshot()))
        assert m.is_over and m.winner in (1, 2), f"seed {seed}: no winner"
        st = m.snapshot()
        standing = {c["controller"] for c in st["cards"] if c.get("space") and c["def"] in SUMMONERS}
        assert standing == {m.winner}, f"seed {seed}: summoners left {standing}, winner {m.winner}"
