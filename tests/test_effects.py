"""The engine's ordering of effects that happen at the same time (`defer` and game.yaml
`effects: order`), and a stat's bounds that hold whatever order the modifiers run in, on a
tiny game of its own (tests/games/timing), not Summoner Wars."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from engine.errors import ScriptError
from engine.loader import LuaSource, load_game
from engine.match import Match, Seat

TIMING = ROOT / "tests" / "games" / "timing"
ORDER_PROMPT = "These effects happen at the same time: which resolves first?"


@pytest.fixture(scope="module")
def timing():
    return load_game(str(TIMING))


def fixed_copy(tmp_path: Path, order: str | None):
    """The timing game with `effects: order` set to order (None: the key left out)."""
    game = Path(shutil.copytree(TIMING, tmp_path / "timing"))
    text = (game / "game.yaml").read_text()
    line = "effects: {order: active_player}\n"
    assert line in text
    text = text.replace(line, "" if order is None else f"effects: {{order: {order}}}\n")
    (game / "game.yaml").write_text(text)
    return load_game(str(game))


def new_match(game, lua: str | None = None) -> Match:
    return Match(game, 1, [Seat(), Seat()], quiet=False,
                 scenario=LuaSource("scenario", lua) if lua else None)


def score(m: Match, p: int) -> int:
    return m.eval(f'return counters.get({p}, "score")')[0]


def test_the_active_player_orders_effects_that_happen_at_once(timing):
    m = new_match(timing)
    m.answer_key("Ring")
    assert m.pending.player == 1 and m.pending.prompt == ORDER_PROMPT
    assert sorted(m.options()) == ["Adder at s2 adds 1", "Adder at s4 adds 1", "Doubler at s1 doubles"]
    m.answer_key("Adder at s2 adds 1")
    assert score(m, 1) == 2                      # only the effect picked has resolved
    assert sorted(m.options()) == ["Adder at s4 adds 1", "Doubler at s1 doubles"]
    m.answer_key("Doubler at s1 doubles")        # the last one is not asked about
    assert (score(m, 1), score(m, 2)) == (4, 2)
    assert m.options() == ["Ring", "Pass"] and m.pending.player == 2


def test_the_order_chosen_changes_the_outcome(timing):
    m = new_match(timing)
    m.answer_key("Ring")
    m.answer_key("Doubler at s1 doubles")
    m.answer_key("Adder at s2 adds 1")
    assert score(m, 1) == 3                      # doubled first: 1 * 2 + 1, not (1 + 1) * 2


def test_on_the_other_players_turn_that_player_orders_them(timing):
    m = new_match(timing)
    m.answer_key("Pass")
    m.answer_key("Ring")
    assert m.pending.player == 2 and m.pending.prompt == ORDER_PROMPT


def test_a_single_pending_effect_is_not_asked_about(timing):
    m = new_match(timing, 'scenario.remove(board.card_at("s1")); scenario.remove(board.card_at("s4"))')
    m.answer_key("Ring")
    assert m.options() == ["Ring", "Pass"] and m.pending.player == 2
    assert score(m, 1) == 2


@pytest.mark.parametrize("order", ["fixed", None])
def test_a_fixed_order_asks_nothing_and_keeps_the_order_of_deferral(tmp_path, order):
    m = new_match(fixed_copy(tmp_path, order))
    m.answer_key("Ring")
    assert m.options() == ["Ring", "Pass"] and m.pending.player == 2
    assert score(m, 1) == 3                      # the Doubler (s1) deferred first: 1 * 2 + 1


def test_effects_set_off_by_an_effect_resolve_before_the_others(timing):
    m = new_match(timing, 'cards.place(cards.create("chainer", 1), "s3")')
    m.answer_key("Ring")
    assert "Chainer at s3 echoes" in m.options()
    m.answer_key("Chainer at s3 echoes")
    # the echo's own deferred effect came right after it, before the Doubler and the Adders
    assert score(m, 1) == 11
    assert sorted(m.options()) == ["Adder at s2 adds 1", "Adder at s4 adds 1", "Doubler at s1 doubles"]
    said = m.messages()
    assert said.index("Echo adds 10") > said.index("Chainer echoes")


def test_effects_with_one_label_are_offered_once_and_alone_are_not_asked_about(timing):
    m = new_match(timing, """
scenario.remove(board.card_at("s1")); scenario.remove(board.card_at("s2")); scenario.remove(board.card_at("s4"))
cards.place(cards.create("twin", 1), "s1"); cards.place(cards.create("twin", 1), "s2")
cards.place(cards.create("doubler", 1), "s3")
""")
    m.answer_key("Ring")
    assert sorted(m.options()) == ["Doubler at s3 doubles", "Twin adds 1"]
    m.answer_key("Twin adds 1")
    assert score(m, 1) == 2
    assert sorted(m.options()) == ["Doubler at s3 doubles", "Twin adds 1"]
    m.answer_key("Doubler at s3 doubles")
    assert score(m, 1) == 5                      # the last twin was not asked about: (1 + 1) * 2 + 1
    assert m.options() == ["Ring", "Pass"] and m.pending.player == 2
    m2 = new_match(timing, """
scenario.remove(board.card_at("s1")); scenario.remove(board.card_at("s2")); scenario.remove(board.card_at("s4"))
cards.place(cards.create("twin", 1), "s1"); cards.place(cards.create("twin", 1), "s2")
""")
    m2.answer_key("Ring")
    assert m2.options() == ["Ring", "Pass"] and score(m2, 1) == 3


def test_orders_of_effects_replay_and_fork_alike(timing):
    m = new_match(timing, 'cards.place(cards.create("chainer", 1), "s3")')
    for key in ["Ring", "Adder at s4 adds 1", "Chainer at s3 echoes", "Doubler at s1 doubles"]:
        m.answer_key(key)
    copy = m.fork()
    again = new_match(timing, 'cards.place(cards.create("chainer", 1), "s3")')
    assert again.replay(m.answers) is None
    assert m.state_hash() == again.state_hash() == copy.state_hash()
    assert score(again, 1) == (1 + 10) * 2 + 1


def test_defer_outside_an_event_resolves_at_once_and_checks_its_arguments(timing):
    m = new_match(timing)
    assert m.eval('local n = 0; defer(function() n = n + 1 end, "now"); return n')[0] == 1
    with pytest.raises(ScriptError, match="defer: expected a function"):
        m.eval('defer(nil, "x")')
    with pytest.raises(ScriptError, match="defer: the label must be text"):
        m.eval('defer(function() end, 3)')


def test_a_bad_order_in_game_yaml_is_refused(tmp_path):
    from engine.errors import EngineError
    game = Path(shutil.copytree(TIMING, tmp_path / "timing"))
    text = (game / "game.yaml").read_text().replace("order: active_player", "order: sometimes")
    (game / "game.yaml").write_text(text)
    with pytest.raises(EngineError, match=r"game.yaml:18:18: .sometimes. is not one of: fixed, active_player"):
        load_game(str(game))


# -- a stat's bounds: kept once, after every modifier -----------------------------------------

# Cards for the timing game with a `speed` stat (bounded 0 to 5) and a `reach` stat (plain):
# a Weight takes 4 from every other card's speed and reach, a Wing adds 3 to both.
def _every_other(card_id: str, delta: int) -> str:
    """A card whose modifiers add `delta` to every other card's speed and reach."""
    body = "".join(f"""      {stat}: |
        function(self, card, value)
          if card.id ~= self.id then return value + ({delta}) end
          return value
        end
""" for stat in ("speed", "reach"))
    return f"""  - id: {card_id}
    name: {card_id.title()}
    tags: [piece]
    copies: 0
    text: Every other card has {abs(delta)} {"more" if delta > 0 else "less"} speed and reach.
    modifiers:
{body}"""


BOUNDED_CARDS = f"""id: bounded
name: Bounded
cards:
{_every_other("weight", -4)}{_every_other("wing", 3)}  - id: runner
    name: Runner
    tags: [piece]
    copies: 0
    text: Runs.
"""


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    """The timing game with `stats: {speed: {default: 0, min: 0, max: 5}, reach: 0}` and the
    cards above."""
    game = Path(shutil.copytree(TIMING, tmp_path_factory.mktemp("bounded") / "timing"))
    text = (game / "game.yaml").read_text()
    assert "hooks: [ring, echo]\n" in text
    text = text.replace("hooks: [ring, echo]\n",
                        "stats:\n  speed: {default: 0, min: 0, max: 5}\n  reach: 0\nhooks: [ring, echo]\n")
    (game / "game.yaml").write_text(text)
    (game / "cards" / "bounded.yaml").write_text(BOUNDED_CARDS)
    return load_game(str(game))


def bounded_match(game, first: str | None, second: str | None, speed: int) -> Match:
    """A runner of printed speed `speed` (its `base`) at s3, `first` at s1 and `second` at s2:
    their modifiers run in board order, s1's first."""
    places = [f'cards.place(cards.create("{card}", 1), "{space}")'
              for card, space in ((first, "s1"), (second, "s2")) if card]
    lua = "\n".join(['scenario.clear_board()', *places,
                     'local r = cards.create("runner", 1)', 'cards.place(r, "s3")',
                     f'r.base = {{speed = {speed}, reach = {speed}}}'])
    return new_match(game, lua)


def runner_stats(m: Match) -> tuple[int, int, dict]:
    """The runner's speed and reach by stat(), and its stats as seat 1's screen has them."""
    speed, reach, rid = m.eval('local r = board.card_at("s3"); return stat(r, "speed"), stat(r, "reach"), r.id')
    return speed, reach, m.stats_seen(1, rid)


@pytest.mark.parametrize("order", [("weight", "wing"), ("wing", "weight")])
def test_a_stats_min_and_max_hold_once_after_every_modifier_whatever_their_order(bounded, order):
    # 0 - 4 + 3 = -1: the min (0) holds at the end. A bound kept after each modifier would
    # give 3 with the Weight first (0 - 4 -> 0, then + 3) and 0 with the Wing first.
    speed, reach, seen = runner_stats(bounded_match(bounded, *order, speed=0))
    assert speed == 0 and seen["speed"] == 0
    assert reach == -1 and seen["reach"] == -1        # a plain stat has no bounds
    # 4 + 3 - 4 = 3: below the max (5) once every modifier has run, though 7 on the way
    # with the Wing first; a bound kept after each modifier would give 1 then.
    speed, reach, seen = runner_stats(bounded_match(bounded, *order, speed=4))
    assert (speed, reach, seen["speed"], seen["reach"]) == (3, 3, 3, 3)


def test_a_stat_past_its_bounds_is_kept_to_them_and_a_plain_stat_is_not(bounded):
    assert runner_stats(bounded_match(bounded, "wing", None, speed=4))[:2] == (5, 7)
    assert runner_stats(bounded_match(bounded, "weight", None, speed=2))[:2] == (0, -2)
    assert runner_stats(bounded_match(bounded, None, None, speed=9))[:2] == (5, 9)   # the printed value too


def test_a_stat_whose_min_is_more_than_its_max_is_refused(tmp_path):
    from engine.errors import EngineError
    game = Path(shutil.copytree(TIMING, tmp_path / "timing"))
    text = (game / "game.yaml").read_text().replace("hooks: [ring, echo]\n",
                                                    "stats:\n  speed: {min: 3, max: 1}\nhooks: [ring, echo]\n")
    (game / "game.yaml").write_text(text)
    with pytest.raises(EngineError, match=r"game.yaml:\d+:\d+: stat speed: min 3 is more than max 1"):
        load_game(str(game))
    text = text.replace("{min: 3, max: 1}", "{least: 0}")
    (game / "game.yaml").write_text(text)
    with pytest.raises(EngineError, match=r"unknown key 'least'"):
        load_game(str(game))
