"""Summoner's Isle: the bots' evaluation (rules/summoners_isle/evaluate.lua) makes sense.

Positions are set with scenario Lua after the setup: `put(player, kind, space)` moves a
creature from the player's pool to a location (see tests/test_summoners_isle.py).
"""
from __future__ import annotations

import pytest

from conftest import position
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play


@pytest.fixture(scope="module")
def si():
    return load_game("summoners_isle")


def start(si, body: str = "", *, players: int = 2, energy=None, phase: str = "summoning",
          round: int | None = None, dice=()) -> Match:
    lua = []
    for p, e in enumerate(energy or [], 1):
        lua.append(f'scenario.set_counter({p}, "energy", {e})')
    lua.append("set_turn_order({" + ", ".join(str(p) for p in range(1, players + 1)) + "})")
    lua.append(body)
    if round is not None:
        lua.append(f"state.round = {round - 1}")
    if dice:
        lua.append("scenario.force({" + ", ".join(map(str, dice)) + "})")
    lua.append(f'scenario.start(1, "{phase}")')
    return position(si, "\n".join(lua), sets=(None,) * players, quiet=True)


def test_the_game_declares_its_evaluation(si):
    assert si.data["bots"]["evaluate"] == "evaluate.lua"


def test_the_start_is_even(si):
    m = start(si)
    assert m.evaluate(1) == pytest.approx(0) and m.evaluate(2) == pytest.approx(0)


def test_more_energy_is_better_and_the_seats_disagree(si):
    m = start(si, energy=[16, 10])
    e1, e2 = m.evaluate(1), m.evaluate(2)
    assert 0.05 < e1 < 0.6
    assert e2 == pytest.approx(-e1)


def test_the_energy_track_is_taken_into_account(si):
    # 24 loses 3 (21) and 9 gains 5 (14): a gap of 7, as between 21 (no change) and 11 (14)
    e = start(si, energy=[24, 9]).evaluate(1)
    assert 0 < e
    assert e == pytest.approx(start(si, energy=[21, 11]).evaluate(1))
    # spending 3 of 24 costs nothing once the track has taken its cut
    assert start(si, energy=[21, 9]).evaluate(1) == pytest.approx(e)


def test_a_lone_sprite_and_a_held_territory_promise_income(si):
    base = start(si, 'put(1, "troll", "heart_ne") put(2, "troll", "n_ridge_2")').evaluate(1)
    lone = start(si, 'put(1, "troll", "heart_ne") put(2, "troll", "n_ridge_2") put(1, "sprite", "s_bay_1")').evaluate(1)
    held = start(si, 'put(1, "troll", "heart_ne") put(2, "troll", "n_ridge_2") put(1, "sprite", "s_bay_1") '
                     'put(1, "sprite", "s_bay_2")').evaluate(1)
    assert base < lone < held


def test_a_contested_sprite_earns_nothing(si):
    alone = start(si, 'put(1, "sprite", "s_bay_1")').evaluate(1)
    contested = start(si, 'put(1, "sprite", "s_bay_1") put(2, "sprite", "s_bay_2")').evaluate(1)
    assert contested < alone


def test_a_creature_next_to_a_weaker_enemy_threatens_it(si):
    apart = start(si, 'put(1, "wyrm", "heart_ne") put(2, "troll", "s_ridge_2")', phase="actions").evaluate(1)
    close = start(si, 'put(1, "wyrm", "heart_ne") put(2, "troll", "heart_nw")', phase="actions").evaluate(1)
    assert close > apart


def test_the_same_lead_counts_for_more_in_the_last_round(si):
    early = start(si, energy=[20, 15], round=1).evaluate(1)
    late = start(si, energy=[20, 15], round=6).evaluate(1)
    assert 0 < early < late < 1


def test_reaching_36_wins_and_values_1_for_the_winner(si):
    # seat 1 on 34 removes a Troll (bounty 2): the Wyrm rolls 5 + 4 against defence 7
    m = start(si, 'put(1, "wyrm", "heart_ne") put(2, "troll", "heart_nw")', energy=[34, 10],
              phase="actions", dice=[5])
    before = m.evaluate(1)
    for _ in range(5):
        if m.is_over:
            break
        attack = [o for o in m.options() if "ttack" in o]
        m.answer_key(attack[0] if attack else m.options()[0])
    assert m.is_over and m.winner == 1
    assert m.evaluate(1) == 1.0 > before
    assert m.evaluate(2) == -1.0


def test_three_players_are_judged_against_the_strongest_opponent(si):
    m = start(si, players=3, energy=[15, 15, 5])
    e1, e2, e3 = (m.evaluate(p) for p in (1, 2, 3))
    assert e1 == pytest.approx(0, abs=1e-9) and e2 == pytest.approx(0, abs=1e-9)
    assert e3 < -0.05
    lead = start(si, players=3, energy=[20, 15, 5]).evaluate(1)
    assert lead > 0.05


def test_values_stay_within_bounds_in_random_games(si):
    for players, seed in ((2, 1), (4, 2)):
        m = Match(si, seed, [Seat("random")] * players, quiet=True)
        bots = {p: RandomBot(seed, p) for p in range(1, players + 1)}
        for _ in range(8):
            play(m, bots, max_decisions=m.decisions + 30)
            vals = [m.evaluate(p) for p in range(1, players + 1)]
            assert all(-1 <= v <= 1 for v in vals)
            if players == 2:
                assert vals[0] == pytest.approx(-vals[1])
            if m.is_over:
                break
