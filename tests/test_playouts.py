"""Random playouts: seeded bot games, with the state's invariants checked after every answer."""
from __future__ import annotations

import pytest

from engine.match import Match, RandomBot, Seat, play
from invariants import check_invariants

GAMES = 200
CHUNK = 25


@pytest.mark.parametrize("first", range(1, GAMES + 1, CHUNK))
def test_summoner_wars_playouts_keep_invariants_and_end_with_a_winner(sw, first):
    for seed in range(first, first + CHUNK):
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


@pytest.mark.parametrize("sets", [("polar_dwarves", "polar_dwarves"), ("fallen_kingdom", "polar_dwarves")])
def test_mirror_and_swapped_factions_play_to_the_end(sw, sets):
    for seed in range(1, 11):
        m = Match(sw, seed, [Seat("bot", sets[0]), Seat("bot", sets[1])], quiet=True)
        play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=5000,
             on_decision=lambda match, p, key: check_invariants(sw, match.snapshot()))
        assert m.is_over and m.winner in (1, 2)
