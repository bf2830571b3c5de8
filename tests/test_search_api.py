"""The engine's doors for search: random playouts in Lua (Match.rollout) and, later in this
file, forks. Each is checked against the one-answer-at-a-time path it must agree with."""
from __future__ import annotations

import pytest

from conftest import ROOT  # noqa: F401  (puts the checkout on sys.path)
from engine.match import Match, Seat


def new(game, seed=5):
    return Match(game, seed, [Seat("bot"), Seat("bot")], quiet=True)


def test_rollout_logs_every_answer_so_a_replay_reaches_the_same_state(sw):
    m = new(sw)
    made = m.rollout(seed=11, max_decisions=400)
    assert made == m.decisions == len(m.askers)
    again = new(sw)
    assert again.replay(m.answers) is None
    assert again.state_hash() == m.state_hash()
    assert again.askers == m.askers
    assert (again.pending is None) == (m.pending is None)


def test_rollout_is_the_same_for_the_same_seed_and_differs_for_another(sw):
    a, b, c = new(sw), new(sw), new(sw)
    for m, seed in ((a, 3), (b, 3), (c, 4)):
        m.rollout(seed=seed, max_decisions=300)
    assert a.answers == b.answers and a.state_hash() == b.state_hash()
    assert c.answers != a.answers


def test_rollout_stops_after_max_decisions_and_play_goes_on_by_hand(sw):
    m = new(sw)
    assert m.rollout(seed=1, max_decisions=7) == 7 == m.decisions
    m.answer(0)
    assert m.decisions == 8


@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle"])
def test_rollout_plays_to_the_end(game_id):
    from engine.loader import load_game

    game = load_game(game_id)
    m = new(game, seed=2)
    m.rollout(seed=2)
    assert m.is_over and m.error is None


def test_repeated_labels_get_numbered_keys_in_order_and_answers_log_the_key(sw):
    from conftest import position

    m = position(sw, 'local pick = choose{player=1, prompt="Which?", options={"X", "X", "X #2", "X", "Y"}}\n'
                     'say("picked " .. pick.label)')
    assert m.options() == ["X", "X #2", "X #2 #2", "X #3", "Y"]
    m.answer_key("X #3")
    assert m.answers[-1] == "X #3"
    assert "picked X" in m.messages()


def test_a_unique_label_is_its_own_key_without_listing_the_options(sw):
    from conftest import position

    m = position(sw, 'choose{player=1, prompt="Which?", options={"A", "B #2", "B"}}')
    m.answer(2)   # answered by index: the key is worked out without asking for the list
    assert m.answers[-1] == "B"
    m2 = position(sw, 'choose{player=1, prompt="Which?", options={"A", "B #2", "B"}}')
    m2.answer(1)
    assert m2.answers[-1] == "B #2"
