"""The Python face of a match: Match's methods, typed state, replaying to a divergence, the
record of chance, scripted controllers and name suggestions."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT, position, tcg_sentry_position
from engine import match as match_module
from engine.errors import Divergence, IllegalAnswer
from engine.loader import load_game
from engine.match import Match, RandomBot, Scripted, Seat, play
from engine.names import did_you_mean, nearest
from repl.render import private_zones, render_state
from repl.session import Session

TINY = str(ROOT / "tests" / "games" / "tiny_graph")


def bot_answers(game, seed: int, n: int) -> list[str]:
    m = Match(game, seed, [Seat(), Seat()], quiet=True)
    play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=n)
    return m.answers


# -- nothing outside the match touches its Lua ------------------------------------

def test_the_lua_runtime_is_private_to_the_match(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    assert not hasattr(m, "E") and not hasattr(m, "rt")
    for path in list((ROOT / "engine").glob("*.py")) + list((ROOT / "repl").glob("*.py")):
        if path.name == "runtime.py":
            continue
        text = path.read_text()
        assert "._E" not in text and "._rt." not in text.replace("self._rt.", ""), path.name


# -- options and answers ----------------------------------------------------------

def test_index_of_finds_an_offered_label_and_nothing_else(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    labels = m.options()
    assert [m.index_of(label) for label in labels] == list(range(len(labels)))
    assert m.index_of("no such option") is None


def test_replay_returns_the_first_answer_that_no_longer_fits(sw):
    answers = bot_answers(sw, 3, 40)
    m = Match(sw, 3, [Seat(), Seat()], quiet=True)
    bent = answers[:10] + ["not an option"] + answers[11:]
    diverged = m.replay(bent)
    assert isinstance(diverged, Divergence)
    assert (diverged.number, diverged.answer) == (11, "not an option")
    assert diverged.offered == m.options() and m.decisions == 10
    assert m.replay(answers[10:]) is None and m.answers == answers


def test_restarted_is_a_new_match_at_the_given_answers(sw):
    answers = bot_answers(sw, 5, 60)
    m = Match(sw, 5, [Seat(), Seat()], quiet=True)
    m.replay(answers)
    back, diverged = m.restarted(answers[:30])
    assert diverged is None and back is not m
    assert back.answers == answers[:30] and m.answers == answers
    fresh = Match(sw, 5, [Seat(), Seat()], quiet=True)
    fresh.replay(answers[:30])
    assert back.state_hash() == fresh.state_hash()


def test_scripted_answers_by_label_and_refuses_what_is_not_offered(sw):
    answers = bot_answers(sw, 9, 25)
    m = Match(sw, 9, [Seat(), Seat()], quiet=True)
    script = Scripted(answers)
    play(m, {1: script, 2: script}, max_decisions=25)
    assert m.answers == answers
    with pytest.raises(IllegalAnswer, match="the script of answers ran out"):
        play(m, {1: script, 2: script})
    wrong = Scripted(["Surrender"])
    with pytest.raises(IllegalAnswer, match="scripted answer 'Surrender' is not offered"):
        play(Match(sw, 9, [Seat(), Seat()], quiet=True), {1: wrong, 2: wrong})


# -- typed state ------------------------------------------------------------------

def test_empty_maps_come_back_as_dicts_and_lists_as_lists():
    g = load_game(TINY)
    m = Match(g, 1, [Seat(), Seat()], quiet=True)
    st = m.snapshot()
    assert st["vars"] == {} and isinstance(st["spaces"], dict)
    assert all(isinstance(c["tokens"], dict) for c in st["cards"])
    assert all(isinstance(v, dict) for v in st["counters"].values())
    assert all(isinstance(ids, list) for ids in st["zones"].values())
    assert m.view(1)["vars"] == {}


def test_typed_state_turns_empty_lua_tables_into_the_right_type():
    st = {"zones": [], "spaces": [], "counters": {"shared": [], "1": {"x": 1}}, "vars": [],
          "cards": [{"id": 1, "tokens": []}, {"id": 2, "tokens": {"damage": 2}}]}
    out = match_module.typed_state(st)
    assert out == {"zones": {}, "spaces": {}, "counters": {"shared": {}, "1": {"x": 1}}, "vars": {},
                   "cards": [{"id": 1, "tokens": {}}, {"id": 2, "tokens": {"damage": 2}}]}


def test_every_zone_in_a_view_has_a_count_and_cards_only_when_seen(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    st, v = m.snapshot(), m.view(2)
    assert set(v["zones"]) == set(st["zones"])
    for key, z in v["zones"].items():
        assert z["count"] == len(st["zones"][key])
        seen = key.startswith("active:") or key in ("hand:2", "discard:2")
        assert ("cards" in z) == seen, key
        if seen:
            assert z["cards"] == st["zones"][key]


# -- the record of chance ------------------------------------------------------------

def test_last_chance_names_the_last_draw_roll_or_shuffle(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    assert m.last_chance() == (0, "random number")   # setup: shuffles, opening hands, then who goes first
    m = position(sw, 'scenario.start(1, "attack")', quiet=True)
    m.force_random([1])
    before = m.decisions
    while m.last_chance()[0] == 0 and not m.is_over:
        m.answer(0)
    n, what = m.last_chance()
    assert n > before and what in ("roll (battle)", "draw (draw)", "shuffle (draw:1)", "shuffle (draw:2)")


def test_a_random_number_drawn_by_a_script_is_a_barrier_too(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    m.answer(0)
    assert m.last_chance()[0] == 0
    m.eval("rng.int(1, 6)")       # designer-level eval on the match itself
    assert m.last_chance() == (1, "random number")


def test_fair_undo_names_what_stops_it(sw):
    s = Session(Match(sw, 2, [Seat("human"), Seat("bot")], quiet=True))

    def step():
        s.answer(0)
        s.play_bots()

    def ready() -> bool:   # a person answered before their last chance and after it
        floor, askers = s.match.last_chance(1)[0], s.match.askers   # (player 1's: what they learned)
        return 1 in askers[:floor - 1] and 1 in askers[floor:]

    while not ready():
        step()
    floor, why = s.match.last_chance(1)
    outs = []
    while not outs or outs[-1].startswith("undone"):
        outs.append(s.handle("undo"))
    assert outs[-1] == (f"cannot undo past decision {floor}: a {why} happened after it "
                        f"(play with --designer to undo anything)")
    assert len(outs) > 1 and s.match.decisions >= floor


def test_fair_undo_stops_at_a_bots_answer_which_came_from_what_it_holds():
    # the bot's answer in the Gambit window (secret) hangs on its face-down card: attacking,
    # seeing that nothing answers, then taking the attack back would let the person probe it
    for designer in (False, True):
        s = Session(tcg_sentry_position("parting_curse", kinds=("human", "bot")), designer=designer)
        for label in ("Battle", "Attack with Stone Sentry 10/10 (P1)", "Player 2 (Stamina 50)"):
            s.handle(label)
        s.play_bots()
        askers = s.match.askers
        assert askers[:3] == [1, 1, 1] and 2 in askers[3:]     # the bot answered after the person
        bot = max(i for i, p in enumerate(askers) if p == 2) + 1
        said = s.handle("undo")
        if designer:
            assert said.startswith("undone to decision"), said
        else:
            assert said == (f"cannot undo past decision {bot}: a bot's answer (player 2) happened after it "
                            f"(play with --designer to undo anything)")
            assert s.match.decisions >= bot


def test_a_rounds_games_status_says_the_round_not_a_turn_it_does_not_count():
    auction = load_game(str(ROOT / "docs" / "examples" / "rules" / "auction"))
    s = Session(Match(auction, 1, [Seat("human"), Seat("bot")], quiet=True))
    assert s.status_line().startswith("round 1 | P1: coins 8 points 0"), s.status_line()
    assert "turn" not in s.status_line() and "turn" not in render_state(s.match, 1).splitlines()[-1]


def test_fair_undo_goes_back_over_your_own_decisions_only(sw):
    s = Session(Match(sw, 3, [Seat("human"), Seat("human")], quiet=True))
    s.pass_to(1)
    s.handle("End summon phase")
    assert s.handle("undo").startswith("undone to decision 0")
    s.handle("End summon phase")
    while s.to_act() == 1:
        s.answer(0)
    assert s.is_other_human(s.to_act()) and "another player" in s.options_text()
    assert s.match.options()[0] not in s.screen()          # player 2's options stay hidden
    from repl.session import completions
    assert not [c for c in completions(s, "") if c in s.match.options()]   # and Tab does not offer them
    s.pass_to(2)
    assert s.handle("undo").startswith("cannot undo decision")
    assert s.match.askers[-1] == 1


# -- the screen reads the view, and names no game ------------------------------------

def test_the_life_left_comes_from_game_yaml(sw):
    m = position(sw, 'scenario.create("frost_mage", 1, "c3", {damage = 2})', quiet=True)
    assert "Frm1 2" in render_state(m, 1)      # life 4 less 2 damage
    plain = load_game("summoner_wars")
    plain.data = {k: v for k, v in plain.data.items() if k != "display"}
    m2 = Match(plain, 1, [Seat(), Seat()], quiet=True)
    m2.replay(m.answers)
    rows = [line for line in render_state(m2, 1).splitlines() if line[:3].strip().isdigit()]
    # without display: no life or badge beside a card (Sva1, never Sva1 12 or Sva1*2)
    assert "Sva" in "".join(rows) and not re.search(r"[A-Z][a-z-]{2}\d[ *]\d", "\n".join(rows))


def test_private_zones_are_the_owner_only_zones_of_the_viewer(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    names = {c["id"]: c["name"] for c in m.snapshot()["cards"]}
    zones = dict(private_zones(m, m.view(1), 1))
    assert set(zones) == {"hand", "discard"}
    assert zones["hand"] == [names[i] for i in m.snapshot()["zones"]["hand:1"]]
    assert dict(private_zones(m, m.view(2), 1))["hand"] == []   # seat 2 cannot see seat 1's hand
    render_source = (ROOT / "repl" / "render.py").read_text()
    assert '"damage"' not in render_source and '"hand' not in render_source


# -- name suggestions: one rule in Python and in Lua ---------------------------------

CASES = [
    ("strenght", ["strength", "life", "cost"]),
    ("polar_dwarfs", ["polar_dwarves", "fallen_kingdom"]),
    ("xyz", ["strength", "life"]),
    ("lif", ["life", "lift"]),
    ("on_destroy", ["on_destroyed", "after_attack", "before_attack"]),
    ("magc", ["magic"]),
    ("ab", ["abc", "xy"]),
    ("", ["a"]),
    ("g9", ["a1", "b2"]),
    ("g8", ["a1", "g9"]),
    ("x", ["y"]),
]


@pytest.fixture(scope="module")
def lua_suggest():
    """The engine's Lua E.suggest, loaded on its own."""
    from lupa.lua54 import LuaRuntime

    lua = LuaRuntime()
    E = lua.table()
    lua.execute("local E = ...; function E.match_part() end", E)   # (core.lua's, not needed here)
    lua.execute("local src, E = ...; assert(load(src, '@events.lua', 't'))(E)",
                (ROOT / "engine" / "lua" / "events.lua").read_text(), E)
    return lambda name, candidates: E.suggest(name, lua.table_from(candidates))


@pytest.mark.parametrize("name,candidates", CASES)
def test_python_and_lua_suggest_the_same_name(lua_suggest, name, candidates):
    assert did_you_mean(name, candidates) == lua_suggest(name, candidates)


def test_suggestions_pick_a_close_name_or_none():
    assert nearest("strenght", ["life", "strength"]) == "strength"
    assert nearest("xyz", ["strength", "life"]) is None
    assert did_you_mean("magc", ["magic"]) == " (did you mean 'magic'?)"
    assert did_you_mean("q", []) == ""
    # every letter another is no typo, however short the name
    assert nearest("g9", ["a1", "f6"]) is None and nearest("x", ["y"]) is None
    assert nearest("g8", ["a1", "g9"]) == "g9" and nearest("ab", ["b"]) == "b"


def test_the_readme_python_example_runs():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(block, "README.md", "exec"), scope)
    m = scope["m"]
    assert m.decisions == 50 and scope["diverged"] is None
    assert scope["back"].answers == m.answers and scope["back"].state_hash() == m.state_hash()


def test_a_card_script_that_writes_to_its_definition_stops_at_its_own_line(game_copy):
    from conftest import edit
    from engine.errors import ScriptError
    from engine.loader import LuaSource

    rules, cards = game_copy()
    path = cards / "polar_dwarves.yaml"
    edit(path, "if ev.card ~= self then return end",
         "if ev.card ~= self then return end\n          cards.def(self).move = 5")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "cards.def(self).move" in text)
    m = Match(load_game(str(rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")],
              scenario=LuaSource("scenario", """
        scenario.clear_board()
        scenario.create("svara", 1, "c1"); scenario.create("ret_talus", 2, "c8")
        scenario.start(1, "move")"""))
    m.answer_key("Move Svara at c1")
    with pytest.raises(ScriptError, match=rf"polar_dwarves.yaml:{line}: cannot change move: a card definition is read-only"):
        m.answer_key("c3")


def test_undo_and_redo_take_a_count(sw):
    # `undo 3` undid one decision, the 3 dropped without a word
    s = Session(Match(sw, 3, [Seat("human"), Seat("random")], quiet=True))
    s.play_bots()
    while s.to_act() == 1 and s.match.decisions < 12:
        s.answer(0)
        s.play_bots()
    mine = [n for n, p in enumerate(s.match.askers, 1) if p == 1]
    hashes = {n: s.rebuild(s.match.answers[:n]).state_hash() for n in (mine[-3] - 1, mine[-1] - 1)}
    assert s.handle("undo 3").startswith(f"undone to decision {mine[-3] - 1}\n")
    assert s.match.state_hash() == hashes[mine[-3] - 1]
    assert s.handle("redo 2").startswith("redone ") and s.match.decisions == mine[-1] - 1
    assert s.match.state_hash() == hashes[mine[-1] - 1]
    said = s.handle("redo 5")
    assert said.startswith("redone 1 decision (1 of the 5 asked; then nothing to redo)"), said
    for bad in ("undo x", "undo 0", "redo -1"):
        assert s.handle(bad).startswith(f"usage: {bad.split()[0]} [N]"), bad
    said = s.handle("undo 999")
    assert said.startswith("undone to decision 0 (") and "of the 999 asked; then nothing to undo)" in said, said


def test_a_designer_redoes_what_undo_took_back_of_both_seats(sw):
    """In designer mode undo takes back either person's answers; redo gave back only those
    of the seat whose answer undo took last, and stopped at the other's, saying a reload
    had changed what is asked."""
    s = Session(Match(sw, 3, [Seat("human"), Seat("human")], quiet=True), designer=True)
    for _ in range(60):
        s.handle("1")
    askers, after = list(s.match.askers), s.match.state_hash()
    assert s.handle("undo 20").startswith("undone to decision ")
    assert set(askers[s.match.decisions:]) == {1, 2}
    said = s.handle("redo 20")
    assert said.startswith("redone 20 decisions\n"), said.splitlines()[0]
    assert s.match.state_hash() == after


