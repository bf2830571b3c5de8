"""The Lua API's one convention (CHANGELOG 0.2.0): subject first, a shared zone or counter
named alone, the same kind of value from the same kind of call, unknown names raising with
a suggestion, calls in the old order named at run time and by `summon check`."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, position
from engine.errors import ScriptError
from engine.loader import load_game
from engine.match import Match, Seat

TINY = ROOT / "tests" / "games" / "tiny_graph"


@pytest.fixture(scope="module")
def tiny():
    """A graph game with per-player (pool, score) and shared (supply, steps) zones and counters."""
    return load_game(str(TINY))


@pytest.fixture()
def tm(tiny):
    return Match(tiny, 1, [Seat(), Seat()], quiet=True)


@pytest.fixture()
def swm(sw):
    return Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)


def run(m: Match, code: str):
    """Runs statements in the match's sandbox; returns the values of the last `return`."""
    return m.eval(code)


def error_of(m: Match, code: str) -> str:
    """The message of the error a statement raises (not a tail call, so it has a line)."""
    with pytest.raises(ScriptError) as e:
        m.eval(f"local x = {code}\nreturn x")
    return str(e.value)


# -- a player's own or a shared one, by the first argument --------------------------

def test_a_player_first_names_their_own_zone_and_counter(tm):
    assert run(tm, 'cards.create("pawn", 2, 2, "pool"); return zones.count(2, "pool"), zones.count(1, "pool")') \
        == [1, 0]
    assert run(tm, 'counters.set(2, "score", 4); return counters.get(2, "score"), counters.get(1, "score")') \
        == [4, 0]
    assert tm.snapshot()["counters"]["2"]["score"] == 4


def test_a_name_alone_names_a_shared_zone_and_counter(tm):
    # setup put one spare pawn in the shared supply
    assert run(tm, 'return zones.count("supply"), zones.top("supply").def') == [1, "pawn"]
    assert run(tm, 'counters.set("steps", 0); return counters.add("steps", 2), counters.get("steps")') == [2, 2]
    assert tm.snapshot()["counters"]["shared"]["steps"] == 2
    assert run(tm, 'cards.to_zone(zones.top("supply"), 1, "pool"); return zones.count("supply"), zones.count(1, "pool")') \
        == [0, 1]


def test_zones_draw_between_a_shared_and_a_players_zone(tm):
    run(tm, 'cards.create("pawn", 1, "supply")')
    assert run(tm, 'return #zones.draw(2, "supply", "pool", 5), zones.count("supply"), zones.count(2, "pool")') \
        == [2, 0, 2]
    assert run(tm, 'return #zones.draw(2, "pool", "supply", 1), zones.count("supply")') == [1, 1]


def test_a_player_given_for_a_shared_counter_or_zone_is_an_error(tm):
    assert error_of(tm, 'counters.get(1, "steps")') == \
        "eval:1: counters.get: 'steps' is a shared counter, so it takes no player: counters.get('steps')"
    assert error_of(tm, 'zones.cards(2, "supply")') == \
        "eval:1: zones.cards: 'supply' is a shared zone, so it takes no player: zones.cards('supply')"


def test_a_missing_or_unknown_player_is_an_error(tm):
    assert error_of(tm, 'counters.get(nil, "score")') == "eval:1: counters.get: no player nil (players are 1 to 2)"
    assert error_of(tm, 'zones.count(3, "pool")') == "eval:1: zones.count: no player 3 (players are 1 to 2)"
    assert error_of(tm, 'cards.create("pawn", 5)') == "eval:1: cards.create: no player 5 (players are 1 to 2)"
    assert error_of(tm, 'players.next(0)') == "eval:1: players.next: no player 0 (players are 1 to 2)"


# -- calls in the order before 0.2.0 say the new call ---------------------------------

OLD = " (the argument order changed in 0.2.0, see CHANGELOG.md)"


@pytest.mark.parametrize("code, message", [
    ('counters.get("score", 1)', "counters.get: 'score' is a per-player counter: counters.get(p, 'score')" + OLD),
    ('counters.add("score", 1, 2)', "counters.add: 'score' is a per-player counter: counters.add(p, 'score', n)" + OLD),
    ('counters.set("steps", nil, 3)',
     "counters.set: too many arguments for the shared counter 'steps': counters.set('steps', v)" + OLD),
    ('zones.cards("pool", 1)', "zones.cards: 'pool' is a per-player zone: zones.cards(p, 'pool')" + OLD),
    ('zones.draw("pool", "pool", 1, 1)', "zones.draw: too many arguments: zones.draw(p, from, to, n), or "
                                         "zones.draw(from, to, n) between shared zones" + OLD),
    ('cards.create("pawn", 1, "pool")', "cards.create: 'pool' is a per-player zone: "
                                        "cards.create(def, owner, p, 'pool')" + OLD),
    ('cards.to_zone(zones.top("supply"), "pool", 1)',
     "cards.to_zone: 'pool' is a per-player zone: cards.to_zone(c, p, 'pool')" + OLD),
])
def test_old_calls_name_the_new_call_at_run_time(tm, code, message):
    assert error_of(tm, code) == "eval:1: " + message


@pytest.mark.parametrize("code, message", [
    ('zones.cards("pool")', "zones.cards: 'pool' is a per-player zone: zones.cards(p, 'pool')"),
    ('counters.get("score")', "counters.get: 'score' is a per-player counter: counters.get(p, 'score')"),
    ('zones.draw("supply", "pool")', "zones.draw: 'pool' is a per-player zone: zones.draw(p, from, to, n)"),
    ('zones.draw("supply", "pool", 1)', "zones.draw: 'pool' is a per-player zone: zones.draw(p, from, to, n)" + OLD),
])
def test_a_player_left_out_is_not_blamed_on_the_old_argument_order(tm, code, message):
    """Only a call with a player where the order before 0.2.0 had it is told of that order."""
    assert error_of(tm, code) == "eval:1: " + message


def test_scenario_place_is_now_scenario_create(sw):
    with pytest.raises(ScriptError, match=r"scenario\.place creates no card since 0\.2\.0: now "
                                          r"scenario\.create\(def, p, space, tokens\) \(see CHANGELOG\.md\)"):
        position(sw, 'scenario.place("ice_golem", 1, "c4")')
    m = position(sw, 'scenario.create("ice_golem", 1, "c4", {damage = 2})\nscenario.start(1, "move")')
    c = m.eval('return board.card_at("c4")')[0]
    assert (c["def"], c["owner"], c["tokens"]) == ("ice_golem", 1, {"damage": 2})


def test_scenario_zones_and_counters_take_the_player_first(sw):
    m = position(sw, 'scenario.empty(1, "hand")\nscenario.add(1, "hand", {"ice_golem", "frost_mage"})\n'
                     'scenario.set_counter(2, "magic", 7)\nscenario.start(1, "summon")')
    assert m.eval('local ids = {}\nfor i, c in ipairs(zones.cards(1, "hand")) do ids[i] = c.def end\n'
                  'return ids, counters.get(2, "magic")') == [["ice_golem", "frost_mage"], 7]
    with pytest.raises(ScriptError, match=r"scenario\.add: 'hand' is a per-player zone: "
                                          r"scenario\.add\(p, 'hand', \{cards\}\) \(the argument order changed"):
        position(sw, 'scenario.add("hand", 1, {"ice_golem"})')


# -- unknown names raise, naming the function, the name and the nearest one ----------

@pytest.mark.parametrize("code, message", [
    ('board.is_adjacent("a1", "a9")', "board.is_adjacent: no space called 'a9' (did you mean 'a1'?)"),
    ('board.is_adjacent("f9", "a1")', "board.is_adjacent: no space called 'f9' (did you mean 'f1'?)"),
    ('board.distance("a1", "g4")', "board.distance: no space called 'g4' (did you mean 'a4'?)"),
    ('board.is_empty("c0")', "board.is_empty: no space called 'c0' (did you mean 'c1'?)"),
    ('board.card_at("d9")', "board.card_at: no space called 'd9' (did you mean 'd1'?)"),
    ('counters.get(1, "magik")', "counters.get: no counter called 'magik' (did you mean 'magic'?)"),
    ('counters.bounds("magc")', "counters.bounds: no counter called 'magc' (did you mean 'magic'?)"),
    ('zones.cards(1, "hnad")', "zones.cards: no zone called 'hnad' (did you mean 'hand'?)"),
    ('zones.draw(1, "drwa", "hand", 1)', "zones.draw: no zone called 'drwa' (did you mean 'draw'?)"),
    ('dice.roll("battel", 1)', "dice.roll: no die called 'battel' (did you mean 'battle'?)"),
    ('dice.count(dice.roll("battle", 1), "meele")', "dice.count: no symbol called 'meele' (did you mean 'melee'?)"),
    ('cards.create("ice_golme", 1)', "cards.create: no card called 'ice_golme' (did you mean 'ice_golem'?)"),
    ('cards.has_tag(board.card_at("d3"), "strcture")', "cards.has_tag: no tag called 'strcture' "
                                                        "(did you mean 'structure'?)"),
    ('cards.in_play_with("hooks", "after_mvoe")', "cards.in_play_with: no event called 'after_mvoe' "
                                                  "(did you mean 'after_move'?)"),
    ('cards.place(board.card_at("d3"), "d33")', "cards.place: no space called 'd33' (did you mean 'd3'?)"),
    ('cards.get(9999)', "cards.get: no card with id 9999 (ids run from 1 to "),
    ('options.movers_per_trun', "options: no option called 'movers_per_trun'"),
    ('options.mover', "options: no option called 'mover' (did you mean 'movers'?)"),
    ('defs.ice_glem', "defs: no card called 'ice_glem' (did you mean 'ice_golem'?)"),
])
def test_unknown_names_raise_with_a_suggestion(swm, code, message):
    assert error_of(swm, code).startswith("eval:1: " + message)


@pytest.mark.parametrize("code, message", [
    ('rng.int(5, 1)', "rng.int: nothing lies from 5 to 1: the lowest comes first (rng.int(1, 5))"),
    ('rng.int("1", 6)', "rng.int: lo and hi must be whole numbers (rng.int(1, 6)), got '1' and 6"),
    ('rng.pick({})', "rng.pick: needs a list of at least one value, got an empty list"),
    ('zones.draw(1, "draw", "hand", -1)', "zones.draw: the number of cards must be a whole number, 0 or more, got -1"),
    ('on("after_move", 5)', "on: the listener of after_move must be a function(ev), not 5"),
    ('emit("after_move", 5)', "emit: the event's data must be a table"),
    ('add_modifier("strength", true)', "add_modifier: the modifier of strength must be a function(card, value), not true"),
    ('string.format("%d", nil)', "bad argument #2 to 'string.format' (number expected, got nil)"),
    ('dice.count(nil, "melee")', "dice.count: faces must be the list dice.roll returned, got nil"),
    ('dice.count({1}, "melee")', "dice.count: faces must be the list dice.roll returned, got a table"),
    ('dice.labels("melee")', "dice.labels: faces must be the list dice.roll returned, got 'melee'"),
    ('rng.shuffle("abc")', "rng.shuffle: needs a list, got 'abc'"),
    ('emit({}, {})', "emit: no event called a table"),   # (no address, which differs from run to run)
    ('on({}, function() end)', "on: no event called a table"),
    ('table.sort({3, 1}, function(a, b) for _ in ipairs(nil) do end return a < b end)',
     "ipairs needs a table (a list) to go through, got nil"),
])
def test_bad_arguments_are_named_at_the_callers_line(swm, code, message):
    assert error_of(swm, code).startswith("eval:1: " + message)


@pytest.mark.parametrize("ask, message", [
    ('player = p, prompt = "Play a card?", options = opts, secert = true',
     "choose: unknown key 'secert' (did you mean 'secret'?) (the keys are player, prompt, options, secret, confirm)"),
    ('playr = p, prompt = "Play a card?", options = opts',
     "choose: unknown key 'playr' (did you mean 'player'?)"),
    ('secert = true, playr = p, prompt = "Play a card?", options = opts',   # two: the first in sorted order
     "choose: unknown key 'playr' (did you mean 'player'?)"),
    ('player = tostring(p), prompt = "Play a card?", options = opts',
     "choose: player must be a player's number (1 to 2), not '1'"),
    ('player = p + 5, prompt = "Play a card?", options = opts', "choose: no player 6 (players are 1 to 2)"),
])
def test_a_choice_asked_wrongly_says_what_is_wrong(tmp_path, ask, message):
    from engine.errors import DefinitionError, ScriptError
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    rules = tmp_path / "rules/sprint/rules.lua"
    text = rules.read_text()
    assert 'choose { player = p, prompt = "Play a card?", options = opts }' in text
    rules.write_text(text.replace('player = p, prompt = "Play a card?", options = opts', ask))
    with pytest.raises((ScriptError, DefinitionError)) as e:
        Match(load_game(str(tmp_path / "rules/sprint")), 1, [Seat(), Seat()], quiet=True)
    assert f"rules.lua:24: {message}" in str(e.value), str(e.value)


@pytest.mark.parametrize("call", ["win(1)", "end_game(nil)", 'choose { player = 1, options = { "a", "b" } }',
                                  'emit("after_move", {})', "defer(function() end)"])
def test_a_modifier_that_would_change_the_match_is_stopped(game_copy, call):
    # a modifier is asked often and from views and bots: it may only compute
    g = game_copy()
    with (g.rules / "helpers.lua").open("a") as f:
        f.write(f'\nadd_modifier("strength", function(c, v) if state.vars.trip then {call} end return v end)\n')
    m = Match(load_game(str(g.rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.eval("state.vars.trip = true")
    with pytest.raises(ScriptError, match=r"inside the strength modifier: a modifier may only compute"):
        m.eval('stat(board.card_at("d3"), "strength")')
    assert not m.is_over


def test_an_offer_with_a_misspelt_key_is_named_at_the_offer(game_copy):
    from conftest import edit
    from engine.check import check
    rules, _ = game_copy()
    edit(rules / "phases.lua", "options = move_destinations(u) }", "options = move_destinations(u), secert = true }")
    found = [p for p in check(str(rules)) if "secert" in p.message]
    assert found and found[0].path.endswith("phases.lua"), [str(p) for p in found]
    assert "the offer of phase move (move_offer) returned an unknown key 'secert' (did you mean 'secret'?)" \
        in found[0].message


def test_board_regions_on_a_graph(tm):
    assert error_of(tm, 'board.spaces_in("nort")') == \
        "eval:1: board.spaces_in: no region called 'nort' (did you mean 'north'?)"
    assert error_of(tm, 'board.region("north_c")') == \
        "eval:1: board.region: no space called 'north_c' (did you mean 'north_a'?)"
    assert error_of(tm, 'board.region_info("soth")') == \
        "eval:1: board.region_info: no region called 'soth' (did you mean 'south'?)"
    assert run(tm, 'return board.region("south_a"), board.is_adjacent("north_a", "south_b")') == ["south", False]


def test_is_adjacent_and_is_empty_answer_for_real_spaces(swm):
    assert run(swm, 'return board.is_adjacent("a1", "a2"), board.is_adjacent("a1", "b2"), '
                    'board.is_empty("c4"), board.is_empty("d3")') == [True, False, True, False]


# -- the same kind of call returns the same kind of value -----------------------------

def test_tokens_add_remove_set_return_the_new_count(swm):
    c = 'local c = board.card_at("d3")\n'
    assert run(swm, c + 'return tokens.get(c, "damage"), tokens.add(c, "damage", 3), tokens.add(c, "damage"), '
                        'tokens.remove(c, "damage", 1), tokens.set(c, "damage", 7), tokens.remove(c, "damage", 10), '
                        'tokens.get(c, "damage")') == [0, 3, 4, 3, 7, 0, 0]
    assert run(swm, c + 'tokens.add(c, "boost", 2)\nreturn tokens.remove(c, "boost"), tokens.add(c, "boost", 3), '
                        'tokens.add(c, "boost", -5), c.tokens.boost') == [0, 3, 0, None]   # none left: no entry


def test_cards_with_no_tokens_or_nothing_under_share_one_read_only_empty_table(swm):
    # (what keeps a copy of the state small: forks and checkpoints copy far fewer tables)
    a, b = 'board.card_at("c2")', 'board.card_at("c3")'
    assert run(swm, f'local a, b = {a}, {b}\nreturn rawequal(a.tokens, b.tokens), rawequal(a.under, b.tokens), '
                    '#a.under, next(a.tokens)') == [True, True, 0, None]
    assert "tokens change through tokens.add/set/remove" in error_of(swm, f'{a}; {a}.tokens.damage = 1')
    assert "what is under it through cards.attach" in error_of(swm, f'{a}; table.insert({a}.under, 5)')
    assert "belongs to the engine" in error_of(swm, f'rawset({a}.tokens, "damage", 1)')
    # the first token gives the card a table of its own; the last one taken away, it shares again
    assert run(swm, f'local a, b = {a}, {b}\ntokens.add(a, "damage", 2)\n'
                    'local own = not rawequal(a.tokens, b.tokens) and b.tokens.damage == nil\n'
                    'tokens.remove(a, "damage")\nreturn own, a.tokens.damage, rawequal(a.tokens, b.tokens)') \
        == [True, None, True]
    # attaching gives the host a list of its own
    assert run(swm, f'local a, b = {a}, {b}\nlocal h = zones.cards(1, "draw")[1]\ncards.attach(h, a)\n'
                    'return #a.under, #b.under, a.under[1] == h.id') == [1, 0, True]


def test_counters_add_set_spend_return_the_new_value_within_bounds(swm):
    # magic runs 0..15
    assert run(swm, 'counters.set(1, "magic", 4)\nreturn counters.add(1, "magic", 3), counters.add(1, "magic", 20), '
                    'counters.set(1, "magic", -2), counters.set(1, "magic", 6), counters.spend(1, "magic", 4), '
                    'counters.get(1, "magic")') == [7, 15, 0, 6, 2, 2]
    assert run(swm, 'return counters.can_spend(1, "magic", 2), counters.can_spend(1, "magic", 3), '
                    'counters.bounds("magic")') == [True, False, 0, 15]
    assert error_of(swm, 'counters.spend(1, "magic", 3)') == "eval:1: counters.spend: player 1 has 2 magic, needs 3"


# -- summon check names an old call with its replacement ------------------------------

def copy_tiny(tmp_path):
    game = tmp_path / "tiny_graph"
    shutil.copytree(TINY, game)
    return game


def line_of(text: str, part: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if part in line)


def test_check_names_old_calls_with_their_new_form(tmp_path):
    game = copy_tiny(tmp_path)
    lua = game / "tiny.lua"
    text = lua.read_text()
    for old, new in (('local s = counters.get(p, "score")', 'local s = counters.get("score", p)'),
                     ('counters.add("steps", 1)', 'counters.add("steps", nil, 1)'),
                     ('cards.create("pawn", 1, "supply")',
                      'cards.create("pawn", 1, "supply"); cards.to_zone(zones.top("supply"), "pool", 2)')):
        assert old in text
        text = text.replace(old, new)
    lua.write_text(text)
    out = subprocess.run([sys.executable, "-m", "repl", "check", str(game)], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert out.returncode == 1
    def at(part: str) -> str:
        n = line_of(text, part)
        return f"{lua}:{n}:{text.splitlines()[n - 1].index(part) + 1}: "

    assert out.stdout.splitlines() == sorted([
        at("counters.get(") + 'counters.get("score", p) is the old call; now counters.get(p, "score")',
        at('counters.add("steps"') + 'counters.add("steps", nil, 1) is the old call; now counters.add("steps", 1)',
        at("cards.to_zone(") + 'cards.to_zone(zones.top("supply"), "pool", 2) is the old call; '
                               'now cards.to_zone(zones.top("supply"), 2, "pool")',
    ]) + ["3 problems found"]


def test_check_names_old_calls_in_card_yaml_at_their_column(tmp_path):
    from engine.check import check
    from engine.loader import display

    game = copy_tiny(tmp_path)
    cards = game / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text() + "    hooks:\n      after_step: |\n        function(self, ev)\n"
                                         '          local n = zones.count("pool", self.owner)\n        end\n')
    line = line_of(cards.read_text(), 'zones.count("pool"')
    assert [str(p) for p in check(str(game))] == [
        f'{display(cards)}:{line}:21: zones.count("pool", self.owner) is the old call; '
        'now zones.count(self.owner, "pool")']


def test_shipped_games_use_no_old_call():
    from engine.check import old_calls
    for game in ("summoner_wars", "summoners_isle", str(TINY)):
        assert old_calls(load_game(game)) == []


def test_results_are_canonical_json_whatever_the_keys_and_values(tm):
    """The host's JSON writer: sequences as arrays, other tables as objects with keys sorted as
    text (numbers and booleans spelt out), false and integral floats kept, NaN and the
    infinities as null, strings escaped."""
    m = tm
    text = m._rt._call(m._rt._E.to_json, m._rt._lua.eval(
        '{ [1] = false, [2.5] = false, b = false, a = { 1, 2.0, 0.5 }, [true] = "x", '
        'z = { "q\\"\\n", 0/0, 1/0, -1/0 }, e = {} }'))[0]
    assert text == ('{"1":false,"2.5":false,"<true>":"x","a":[1,2,0.5],"b":false,"e":[],'
                    '"z":["q\\"\\n",null,null,null]}')
    assert m._rt._call(m._rt._E.to_json, m._rt._lua.eval('{ false, "a" }'))[0] == '[false,"a"]'



def test_say_names_a_table_or_function_without_its_address(tiny):
    # the log is the same in every process: no "table: 0x55d2..." (print did this already)
    m = Match(tiny, 1, [Seat(), Seat()], quiet=False)
    m.messages()
    m.eval('say({})\nsay(say)\nprint({}, 2)')
    said = m.messages()
    assert len(said) == 3 and all("0x" not in s for s in said), said
    assert said[0].startswith("table") and said[1].startswith("function"), said


def test_a_regions_definition_is_read_only(tm):
    """It is the board's own: a change would last into forks, bots' samples and later matches."""
    assert error_of(tm, 'board.region_info("north").bonus == 2 and 1\nboard.region_info("north").bonus = 5') == \
        "eval:2: cannot change bonus: a region's definition is read-only"
    assert error_of(tm, 'setmetatable(board.region_info("south"), {})') == \
        "eval:1: setmetatable: this table belongs to the engine"
    assert tm.eval('board.region_info("north").bonus, board.region_info("south").bonus') == [2, 1]


# -- found by an audit of the API reference against the engine (session 47) ----------------

def test_stat_and_add_modifier_take_only_the_games_stats(tm):
    """stat() read any field of a definition (a name, a list of tags), and add_modifier took a
    misspelt stat and never ran: both now raise, naming the game's stats."""
    for code in ('stat(cards.create("pawn", 1), "name")', 'add_modifier("sped", function(c, v) return v end)'):
        message = error_of(tm, code)
        assert re.search(r"no stat called '(name|sped)'.*\(the game's stats: speed\)", message), message
    assert "did you mean 'speed'" in error_of(tm, 'add_modifier("sped", function(c, v) return v end)')
    # (and a right one is refused once the rules have loaded: test_listeners_and_modifiers_are_added_as_the_rules_load)
    assert "add_modifier: a modifier is added as the rules load" in error_of(
        tm, 'add_modifier("speed", function(c, v) return v + 1 end)')


@pytest.mark.parametrize("code", ['on("after_move", function(ev) end)',
                                  'add_modifier("strength", function(c, v) return v + 1 end)'])
def test_listeners_and_modifiers_are_added_as_the_rules_load(sw, code):
    """A listener or rules modifier added while a match runs (a card's script, the console)
    belonged to the runtime: it stayed for every later match built in it (a sim's next game)
    and no replay or save knew of it. Refused, naming the line, and the match is unchanged."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    before = m.state_hash()
    message = error_of(m, code)
    assert message.startswith(f"eval:1: {code.split('(')[0]}: a ") and "is added as the rules load" in message
    again = Match(sw, 2, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True, beside=m)
    assert m.state_hash() == before and again.eval('return stat(board.card_at("d3"), "strength")') == \
        Match(sw, 2, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True).eval(
            'return stat(board.card_at("d3"), "strength")')


def test_counters_stay_within_their_bounds(tm):
    """A negative spend raised the counter past its max; NaN passed every bound and stayed."""
    assert "counters.spend: the amount must be 0 or more, got -100" in error_of(tm, 'counters.spend(1, "score", -100)')
    assert "counters.can_spend: the amount must be 0 or more" in error_of(tm, 'counters.can_spend(1, "score", -1)')
    for code in ('counters.add(1, "score", 0/0)', 'counters.set("steps", 0/0)'):
        assert "must be a whole number, got nan" in error_of(tm, code), code
    assert run(tm, 'return counters.get(1, "score"), counters.spend(1, "score", 0)') == [0, 0]


def test_counters_hold_whole_numbers(tm):
    """counters.add(p, "points", n / 2) kept 1.5, and the error came later, from a format in
    the rules far from the card; a fraction is refused at the call, with the way to divide.
    A float of a whole value (a card's `points: 1.0`, 4 / 2) is that whole number."""
    for code in ('counters.add(1, "score", 3 / 2)', 'counters.set("steps", 2.5)', 'counters.spend(1, "score", 0.5)',
                 'counters.can_spend(1, "score", 1e-1)'):
        message = error_of(tm, code)
        assert re.fullmatch(r"eval:1: counters\.\w+: the (amount|value) must be a whole number, got [\d.]+ \(counters "
                            r"hold whole numbers: // divides to one, math\.floor rounds down\)", message), message
    assert error_of(tm, 'counters.add(1, "score", math.huge)') == "eval:1: counters.add: the amount must be a whole " \
                                                                   "number, got inf"
    for code in ('counters.add(1, "score", "2")', 'counters.set("steps", "0x10")', 'counters.spend(1, "score", " 1 ")'):
        assert "must be a whole number, got '" in error_of(tm, code), code   # (a text is no number)
    assert run(tm, 'return counters.add(1, "score", 3 // 2), counters.set("steps", math.floor(2.5)), '
                   'counters.add(1, "score", 4 / 2), math.type(counters.get(1, "score")), '
                   'counters.can_spend(1, "score", 3.0), counters.spend(1, "score", 1.0)') == [1, 2, 3, "integer", True, 2]


def test_every_function_taking_a_card_takes_its_id_too(tm):
    """CardArg: cards.has_tag, cards.is_on_board and describe failed inside the engine on an id."""
    got = run(tm, 'local c = cards.create("pawn", 1); '
                  'return cards.has_tag(c.id, "piece") and cards.has_tag(c, "piece"), cards.is_on_board(c.id), '
                  'describe(c.id) == describe(c)')
    assert got == [True, False, True]
    assert "describe: expected a card or a card's id, got 999" in error_of(tm, "describe(999)")
    assert "cards.is_on_board: expected a card or a card's id" in error_of(tm, "cards.is_on_board('x')")


def test_eval_shows_what_a_read_only_view_holds(tm):
    """summon eval and the lua console showed [] for every read-only view of the engine
    (options, card definitions, a region's definition): the encoder read them raw."""
    [region] = tm.eval('board.region_info("north")')
    assert region == {"bonus": 2}
    [pawn, inside] = tm.eval('defs.pawn, {deep = {defs.pawn}}')
    assert pawn["name"] == "Pawn" and pawn["tags"] == ["piece"] and inside["deep"] == [pawn]
    [shown] = tm.eval("local t = {}; t.me = t; return t")      # (a table inside itself: said, not looped)
    assert shown.startswith("<cannot show: ") and "nested more than 64 deep" in shown


def test_board_coordinates_and_positions_in_a_zone_are_checked(swm):
    """board.space_at named a square for coordinates far off the board (0, 1001 was a1);
    a ray going nowhere gave its start n times; cards.to_zone clamped a position outside the
    zone to its end without a word."""
    assert swm.eval("board.space_at(0, 1001), board.space_at(2, -997), board.space_at(1.5, 1), "
                    "board.space_at(1, 1), board.space_at(2.0, 3.0)") == [None, None, None, "a1", "b3"]
    for code in ('board.space_at("c", 3)', 'board.space_at("1", 1)'):
        assert "eval:1: board.space_at: x and y must be numbers, got '" in error_of(swm, code)
    assert "board.ray: dx and dy are both 0" in error_of(swm, 'board.ray("a1", 0, 0, 3)')
    assert "cards.to_zone: position 9 is not in discard:1: it takes 1 (the bottom) to 3 (the top)" in error_of(
        swm, 'cards.to_zone(zones.cards(1, "draw")[1], 1, "discard"); cards.to_zone(zones.cards(1, "draw")[1], 1, '
             '"discard"); cards.to_zone(zones.cards(1, "draw")[1], 1, "discard", 9)')
    assert swm.eval('local a, b = zones.cards(1, "draw")[1], zones.cards(1, "draw")[2]; cards.to_zone(a, 1, "discard"); '
                    'cards.to_zone(b, 1, "discard", 1); local d = zones.cards(1, "discard"); '
                    'return d[1].id == b.id, d[#d].id == a.id') == [True, True]     # (1 is the bottom)


def test_a_scenarios_listener_is_added_once_though_a_fork_runs_its_setup_again(sw):
    """A fork from a match's start runs its setup again, scenario included: a listener the
    scenario adds was added again to the runtime both share, and the match heard each
    event twice from then on."""
    from engine.loader import LuaSource
    counting = LuaSource("scenario", 'on("turn_start", function(ev) tokens.add(cards.get(1), "heard", 1) end)')
    forked = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=counting)
    alone = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=counting)
    f = forked.fork()
    for m in (forked, alone, f):
        while m.snapshot()["turn"] < 3:
            m.answer(0)
    heard = [m.eval('return tokens.get(cards.get(1), "heard")') for m in (forked, alone, f)]
    assert heard == [[3], [3], [3]], heard


def test_a_scenario_setup_waiting_on_a_question_lets_no_one_else_add_a_listener(sw):
    """A scenario's setup may add listeners as the match runs it; while it waits on a question,
    the console could add one too, and a fork made then turned the refusal off for the whole
    runtime once its own setup ended."""
    from engine.loader import LuaSource
    m = Match(sw, 1, [Seat("human", "polar_dwarves"), Seat("human", "fallen_kingdom")], quiet=True,
              scenario=LuaSource("scenario", 'local o = choose { player = 1, options = { "a", "b" } }'))
    adding = 'add_modifier("strength", function(c, v) return v + 100 end)'
    assert "a modifier is added as the rules load" in error_of(m, adding)
    f = m.fork()
    m.answer(0)
    f.answer(0)
    for x in (m, f):
        assert "a modifier is added as the rules load" in error_of(x, adding)


def test_a_scenario_setup_adds_its_listeners_before_it_asks_anything(sw):
    """A fork from the start runs the setup again and adds no listener then: one added after
    the setup's first question was missing from a fork made at that question. So the setup
    adds them first, and one added later is refused, saying so."""
    from engine.loader import LuaSource
    counting = 'on("turn_start", function(ev) tokens.add(cards.get(1), "heard", 1) end)'
    late = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=LuaSource(
        "scenario", 'local o = choose { player = 1, options = { "a", "b" } }\n' + counting))
    with pytest.raises(ScriptError, match=r"^scenario:2: on: a scenario's setup adds a listener before it asks any"):
        late.answer(0)
    m = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=LuaSource(
        "scenario", counting + '\nlocal o = choose { player = 1, options = { "a", "b" } }'))
    f = m.fork()
    for x in (f, m):
        while x.snapshot()["turn"] < 3:
            x.answer(0)
    assert [x.eval('return tokens.get(cards.get(1), "heard")') for x in (m, f)] == [[3], [3]]


def test_pairs_lists_the_card_sets_as_it_lists_the_definitions(sw):
    """`pairs(sets)` listed nothing while `pairs(defs)` listed every definition: a rules file
    building one pile from every set could not find them."""
    from engine.match import Match, Seat
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    got = m.eval("local ids = {} for id, s in pairs(sets) do ids[#ids + 1] = id .. ':' .. #s.cards end "
                 "return table.concat(ids, ' ')")[0]
    assert got.split() == [f"{sid}:{len(s.card_ids)}" for sid, s in sorted(sw.sets.items())]
