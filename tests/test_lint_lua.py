"""`summon check` reads every script with a Lua parser: unknown globals, unknown fields of
engine tables and options, pairs() over a table that cannot be listed, a card's script that
sets a global, each as path:line:col with a suggestion; scenario files are checked too.
Each check is shown on a copy of a shipped game with one mistake planted in it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, edit, summon
from engine import loader, lualint, scenarios
from engine.check import check, notes


def planted(path: Path, old: str, new: str, marker: str) -> tuple[int, int]:
    """Replaces old by new in a file; the 1-based line and column of marker in the new text."""
    edit(path, old, new)
    hits = [(n, line.index(marker) + 1) for n, line in enumerate(path.read_text().splitlines(), 1) if marker in line]
    assert len(hits) == 1, f"{marker!r} is not once in {path}"
    return hits[0]


def prepend(path: Path, lua: str) -> None:
    """Puts lines of Lua at the top of a file."""
    path.write_text(lua + path.read_text())


def only(problems, path: Path):
    """The one problem of a check, which must be in this file."""
    assert len(problems) == 1, [str(p) for p in problems]
    p = problems[0]
    assert p.path.endswith(path.name), str(p)
    return p


# -- what the shipped games and the parser do --------------------------------------------

@pytest.mark.parametrize("game", sorted(loader.list_games(ROOT)))
def test_shipped_games_have_no_script_problems(game):
    assert check(game) == []


def test_every_shipped_lua_text_parses():
    texts = {str(f.relative_to(ROOT)): f.read_text()
             for f in [*ROOT.glob("engine/lua/*.lua"), *ROOT.glob("rules/*/*.lua")]}
    for game in loader.list_games(ROOT):
        for c in loader.load_game(game).cards.values():
            for src in c.lua:
                texts[f"{src.chunkname}:{c.id}:{src.field}"] = src.source
    assert len(texts) > 50
    unread = {name: lualint.scan(text).error for name, text in texts.items() if lualint.scan(text).error}
    assert unread == {}


@pytest.mark.slow   # builds the setup of every shipped scenario
def test_shipped_scenario_files_check_clean():
    files = scenarios.find_files([str(ROOT / "rules"), str(ROOT / "cards")])
    assert len(files) > 20
    problems = [str(p) for f in files for p in check(str(f))]
    assert problems == []


# -- each check, planted in a copy of a game ----------------------------------------------

def test_a_card_calling_an_undefined_global(game_copy):
    rules, cards = game_copy()
    fk = cards / "fallen_kingdom.yaml"
    line, col = planted(fk, "deal_damage(c, 1, self)", "deal_dmg(c, 1, self)", "deal_dmg")
    p = only(check(str(rules)), fk)
    assert (p.line, p.col) == (line, col)
    assert p.message == ("unknown name 'deal_dmg': no local or global of that name "
                         "(did you mean 'deal_damage'?)")


def test_locals_upvalues_and_rules_globals_are_known(game_copy):
    rules, cards = game_copy()
    edit(cards / "fallen_kingdom.yaml", "deal_damage(c, 1, self)",
         "local hurt = deal_damage\n            local function twice(f) return function(...) f(...) end end\n"
         "            twice(hurt)(c, 1, self)\n            for i = 1, 0 do hurt(i) end\n"
         "            if late_global then say(tostring(late_global)) end")
    # a rules function sets a global while the match runs: cards may read it
    prepend(rules / "phases.lua", "function remember(x) late_global = x end\n")
    assert check(str(rules)) == []


def test_an_unknown_field_of_an_engine_table(game_copy):
    rules, _ = game_copy()
    ph = rules / "phases.lua"
    line, col = planted(ph, "for _, sp in ipairs(board.neighbors(s.space)) do",
                        "for _, sp in ipairs(board.adjacent_to(s.space)) do", "board.adjacent_to")
    p = only(check(str(rules)), ph)
    assert (p.line, p.col, p.message) == (line, col, "board has no field 'adjacent_to'")


def test_a_misspelt_field_gets_a_suggestion(game_copy):
    rules, _ = game_copy()
    ph = rules / "phases.lua"
    line, col = planted(ph, "for _, sp in ipairs(board.neighbors(s.space)) do",
                        "for _, sp in ipairs(board.neighbours(s.space)) do", "board.neighbours")
    p = only(check(str(rules)), ph)
    assert (p.line, p.col) == (line, col)
    assert p.message == "board has no field 'neighbours' (did you mean 'neighbors'?)"


def test_the_evaluation_sees_only_the_shape_of_the_board(game_copy):
    # evaluate.lua runs in an environment of its own: board has no card_at there
    rules, _ = game_copy()
    ev = rules / "evaluate.lua"
    line, col = planted(ev, "local x1, y1 = board.xy(from)", "local x1, y1 = board.card_at(from)", "board.card_at")
    p = only(check(str(rules)), ev)
    assert (p.line, p.col, p.message) == (line, col, "board has no field 'card_at'")


def test_an_unknown_option(game_copy):
    rules, _ = game_copy("summoners_isle")
    hp = rules / "helpers.lua"
    line, col = planted(hp, "if energy(p) >= options.winning_energy then",
                        "if energy(p) >= options.winning_energy and state.round >= options.round then",
                        "options.round then")
    p = only(check(str(rules)), hp)
    assert (p.line, p.col) == (line, col)
    assert p.message == "no option called 'round' (did you mean 'rounds'?)"


def test_pairs_over_a_table_that_cannot_be_listed(game_copy):
    """Every table the engine gives scripts can be listed now (`sets` was the last that could
    not): the check stays for one a runtime says cannot be, shown with such a shape."""
    from engine.check import script_problems
    from engine.match import Match, Seat
    rules, _ = game_copy()
    st = rules / "setup.lua"
    line, col = planted(st, "function setup()\n", "function setup()\n  for id in pairs(sets) do say(id) end\n",
                        "pairs(sets)")
    assert check(str(rules)) == []   # (sets is listed)
    game = loader.load_game(str(rules))
    shapes = Match(game, 1, [Seat("random"), Seat("random")], quiet=True).script_shapes()
    shapes["rules"]["unlisted"] = {"sets"}
    p = only(script_problems(game, shapes, only=lambda src: src.chunkname.endswith("setup.lua")), st)
    assert (p.line, p.col) == (line, col)
    assert p.message.startswith("pairs(sets) goes through nothing: sets reads one entry at a time (sets[key])")


def test_a_card_script_that_sets_a_global(game_copy):
    rules, cards = game_copy()
    fk = cards / "fallen_kingdom.yaml"
    line, col = planted(fk, "deal_damage(c, 1, self)", "last_hit = deal_damage(c, 1, self); say(tostring(last_hit))",
                        "last_hit")
    p = only(check(str(rules)), fk)   # (the read of it after is not an unknown name as well)
    assert (p.line, p.col) == (line, col)
    assert p.message.startswith("a card's script cannot set the global 'last_hit'")


def test_rules_scripts_may_set_globals(game_copy):
    rules, _ = game_copy()
    prepend(rules / "phases.lua", "last_hit = 0\n")
    assert check(str(rules)) == []


def test_a_script_that_does_not_compile_is_reported_once(game_copy):
    rules, _ = game_copy()
    ph = rules / "phases.lua"
    edit(ph, "for _, sp in ipairs(board.neighbors(s.space)) do", "for _, sp in ipairs(board.neighbors(s.space) do")
    p = only(check(str(rules)), ph)
    assert p.message.startswith("Lua: ")


def test_lua_the_parser_cannot_read_is_a_note_not_a_problem(game_copy):
    # Lua compiles hexadecimal floats; luaparser does not read them
    rules, _ = game_copy()
    prepend(rules / "phases.lua", "local HALF = 0x1p-1\n")
    assert check(str(rules)) == []
    got = [n for n in notes(str(rules)) if "cannot read" in n]
    assert len(got) == 1 and got[0].endswith("phases.lua:1: note: the checker cannot read this Lua (could not "
                                             "convert string to float: '0x1p-1'), so the names it uses are not "
                                             "checked"), got


def test_a_tree_the_walker_does_not_know_is_a_note_not_a_crash(game_copy, monkeypatch):
    monkeypatch.setattr(lualint._Walker, "block", lambda *a: 1 / 0)
    monkeypatch.setattr(lualint, "_scans", {})
    monkeypatch.setenv("SUMMON_CACHE", "")   # nor from the disk
    rules, _ = game_copy()
    assert check(str(rules)) == []
    assert any("note: the checker cannot read this Lua (ZeroDivisionError" in n for n in notes(str(rules)))


def test_a_second_check_of_the_same_text_parses_nothing(game_copy):
    rules, _ = game_copy()
    assert check(str(rules)) == []
    prepend(rules / "phases.lua", "-- a change no other test makes\n")
    before = lualint.parses
    assert check(str(rules)) == []
    assert lualint.parses == before + 1      # only the changed file
    assert check(str(rules)) == []
    assert lualint.parses == before + 1


def test_abbreviations_are_suggested():
    assert lualint.suggest("deal_dmg", ["deal_damage", "destroy"]) == " (did you mean 'deal_damage'?)"
    assert lualint.suggest("dmg", ["deal_damage"]) == ""
    assert lualint.suggest("roun", ["rounds"]) == " (did you mean 'rounds'?)"


# -- scenario files -----------------------------------------------------------------------

SCENARIO = ROOT / "cards" / "summoner_tcg" / "tests" / "equipment_planes.yaml"


def test_summon_check_takes_a_scenario_file(tmp_path):
    sc = tmp_path / "planes.yaml"
    sc.write_text(SCENARIO.read_text())
    line, col = planted(sc, 'lua: tokens.set(field_card(1, "flame_blade")',
                        'lua: tokens.sett(field_card(1, "flame_blade")', "tokens.sett")
    p = only(check(str(sc)), sc)
    assert (p.line, p.col, p.message) == (line, col, "tokens has no field 'sett' (did you mean 'set'?)")
    edit(sc, "tokens.sett(", "tokens.set(")
    edit(sc, "      start: {player: 1, phase: main}", "      strat: {player: 1, phase: main}")
    p = only(check(str(sc)), sc)
    assert "unknown key 'strat' (did you mean 'start'?)" in p.message
    edit(sc, "strat:", "start:")
    edit(sc, "game: summoner_tcg", "game: summoner_tgc")
    res = summon("check", str(sc))
    assert res.returncode == 1
    assert f"{sc.name}:" in res.stdout and "no game called 'summoner_tgc' (did you mean 'summoner_tcg'?)" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr


def test_a_scenario_whose_setup_fails_names_the_line(tmp_path):
    sc = tmp_path / "planes.yaml"
    sc.write_text(SCENARIO.read_text())
    line, _ = planted(sc, 'lua: tokens.set(field_card(1, "flame_blade"), "host", ',
                      'lua: tokens.set(field_card(1, "flame_blade"), "host", nil, ', "nil, ")
    problems = check(str(sc))
    assert problems and problems[0].line == line and problems[0].message.startswith("setup failed: "), problems


# -- scopes -------------------------------------------------------------------------------

SCOPES = """local a <const> = -u1
x = not u2 and #u3 or u4 // 2 ~ u5 .. ('s'):rep(u6)
local function f(...) local t = {...}; return select('#', ...), f end
goto done
::done::
for k, v in next, u7 do print(k, v) end
for i = 1, u8 do print(i) end
local o = { [u9] = 1, plain = u10, u11 }
while u12 do break end
repeat local r = 1 until r > u13
if u14 then elseif u15 then else u16() end
do local z = 1 end
print(z, a, o)
function obj:meth(p) return self, p, u17 end
local g = function(q) return q, u18, g end
a.b.c = u19
"""


def test_locals_scopes_and_upvalues():
    sc = lualint.scan(SCOPES)
    assert sc.error is None
    reads = {u.name for u in sc.uses if u.kind == "read"}
    # (`local g = function ... g end`: the g inside is the global, as in Lua)
    assert reads == {f"u{i}" for i in range(1, 20)} | {"select", "next", "print", "z", "obj", "g"}
    assert [(u.name, u.line, u.col) for u in sc.uses if u.kind == "write"] == [("x", 2, 1)]
    writes = lualint.scan("a, b = b, a\nfunction c() end\n").uses
    assert [(u.name, u.line, u.col) for u in writes if u.kind == "write"] == [("a", 1, 1), ("b", 1, 4), ("c", 2, 10)]


UNREAD = """\
local g <close> = setmetatable({}, {__close = function() end})
local c <const> = 1
local n = 0
n = n + 1
local m = 0
for i = 1, 3 do m = m + i end
print(m)
local x
if y then x = 1 else x = 2 end
local never
local ok, err = pcall(print)
print(err)
local _spare = 3
local t = {}
t.k = 1
return function(self, p)
  local can
  can = p > 2
end
"""


def test_locals_given_a_value_nothing_reads():
    """Given a value where declared or later (local x ... x = 1), read by nothing but its own
    assignment (n = n + 1): noted. A <close> local (kept to be closed), one read later, one
    never given a value, one of several set together of which one is read, one named with _,
    a table whose field is set: not. In a function with no return, the note says so."""
    found = [(u.name, u.line, u.field) for u in lualint.scan(UNREAD).uses if u.kind == "unused"]
    assert found == [("c", 2, ""), ("n", 3, ""), ("x", 8, ""), ("can", 17, "return")], found


def test_a_rules_function_wrapped_by_a_later_file_is_no_redefinition():
    """A file that keeps the earlier function first (local base = add) wraps it; one that
    only calls it somewhere before defining it again replaces it."""
    from engine.loader import LuaSource
    first = LuaSource("a.lua", "function add(p, n) end\n")
    wrap = LuaSource("b.lua", "local base = add\nfunction add(p, n) base(p, n + 1) end\n")
    again = LuaSource("c.lua", "function add(p, n) end\nadd(1, 2)\n")
    called = LuaSource("d.lua", "local function twice(p) add(p, 1) add(p, 1) end\nfunction add(p, n) end\n")
    kept = LuaSource("e.lua", "base_add = add\nfunction add(p, n) base_add(p, n) end\n")
    found = lualint.redefined_functions([first, wrap, again, called, kept])
    assert [(s.chunkname, u.line, w.chunkname) for s, u, w, _ in found] == [("c.lua", 1, "a.lua"), ("d.lua", 2, "a.lua")]


def test_a_place_lua_cut_short_is_given_whole():
    """Lua cuts a file name past 59 characters to '...' and its last 56 (a folder with spaces
    included); a name that holds '...' itself is left alone."""
    from engine import luac
    long = "/home/x/My Documents/a folder with a long name/more/cards/mygame/starter.yaml"
    odd = "games/v2.../cards/g/starter.yaml"
    luac._names.update({long: None, odd: None})
    assert luac.whole_places("..." + long[-56:] + ":3: boom") == f"{long}:3: boom"
    assert luac.whole_places("error: ..." + long[-56:] + ":3: boom") == f"error: {long}:3: boom"
    assert luac.whole_places(f"{odd}:3: boom") == f"{odd}:3: boom"


@pytest.mark.parametrize("hearer", [
    'rawset(ev, "points", 1)', 'for k, v in pairs({points = 1}) do ev[k] = v end', 'stamp(ev, "points")',
    "ev = ev.inner", ""])
def test_an_event_a_listener_may_fill_by_any_name_is_not_noted(tmp_path, hearer):
    """A listener that sets fields by names given as it runs, hands the event to a function
    that may, or holds another table under the event's name: its reads are no slip. Without
    any of these (""), the same read is noted."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules = tmp_path / "rules" / "mygame"
    with (rules / "rules.lua").open("a") as f:
        f.write(f"\nfunction stamp(t, k) t[k] = 1 end\non(\"after_play\", function(ev)\n  {hearer}\n"
                f"  if ev.points == 1 then say(\"one\") end\nend)\n")
    said = [n.split(": note: ")[1] for n in notes(str(rules)) if "no emit" in n]
    assert said == ([] if hearer else ["no emit of 'after_play' gives the field 'points' (they give: card, player), "
                                       "and nothing sets it: it is always nil here"])


def test_a_scenario_file_that_is_not_yaml_names_its_line(tmp_path):
    sc = tmp_path / "planes.yaml"
    sc.write_text(SCENARIO.read_text())
    line, _ = planted(sc, "    seats: [ember, tide]\n", "    seats: [ember, tide] [unclosed\n", "[unclosed")
    p = only(check(str(sc)), sc)
    assert p.line == line and p.message.startswith("YAML syntax: "), str(p)


def test_a_method_call_on_an_engine_table_is_checked_too(game_copy):
    rules, _ = game_copy()
    ph = rules / "phases.lua"
    line, col = planted(ph, "for _, sp in ipairs(board.neighbors(s.space)) do",
                        "for _, sp in ipairs(board:neighbours(s.space)) do", "board:neighbours")
    p = only(check(str(rules)), ph)
    assert (p.line, p.col, p.message) == (line, col, "board has no field 'neighbours' (did you mean 'neighbors'?)")


# -- names in calls (engine/lint.py), read from the parse, not the text --------------------

KNOWN = {"hook": ["after_step"], "stat": ["speed"], "die": ["d6"], "card": ["pawn"],
         "zone": ["pool", "supply"], "counter": ["score", "steps"]}
SCOPE = {"zone": {"pool": "player", "supply": "shared"}, "counter": {"score": "player", "steps": "shared"}}


def named(code: str) -> list[str]:
    from engine.lint import lua_problems
    from engine.loader import LuaSource
    return [str(p) for p in lua_problems(LuaSource("t.lua", code), KNOWN)]


def old_calls(code: str) -> list[str]:
    from engine.lint import old_call_problems
    from engine.loader import LuaSource
    return [str(p) for p in old_call_problems(LuaSource("t.lua", code), SCOPE)]


def test_a_call_in_a_comment_or_a_string_names_nothing():
    code = ('--[[ an old example:\nemit("after_stpe")\ncounters.get("score", p)\n]]\n'
            'say(\'write emit("after_stpe") to announce\') -- or on("befor_step")\n'
            'local help = [==[\n  zones.count("pol", p)\n]==]\n')
    assert named(code) == []
    assert old_calls(code) == []


def test_a_call_after_a_string_holding_two_dashes_is_read():
    # a string with "--" in it is no comment: the call after it on the line is checked
    assert named('say("a -- b") emit("after_stpe")') == [
        "t.lua:1:15: no event called 'after_stpe' (did you mean 'after_step'?)"]


def test_a_call_over_several_lines_with_nested_brackets_and_a_long_string():
    code = ('local c = cards.to_zone(\n'
            '  zones.top(("supply")),  -- the spare one, (if any), to\n'
            '  [[pol]],\n'
            '  f(g(1, 2), {3, 4}))\n'
            'local n = stat(board.card_at("a1"),\n  "sped")\n')
    assert named(code) == ["t.lua:1:11: no zone called 'pol' (did you mean 'pool'?)",
                           "t.lua:5:11: no stat called 'sped' (did you mean 'speed'?)"]
    code = code.replace("[[pol]]", "[[pool]]").replace('"sped"', '"speed"')
    assert named(code) == []
    assert old_calls(code) == [
        't.lua:1:11: cards.to_zone( zones.top(("supply")), [[pool]], f(g(1, 2), {3, 4})) is the old call; '
        'now cards.to_zone(zones.top(("supply")), f(g(1, 2), {3, 4}), [[pool]])']


def test_calls_without_parentheses_and_of_a_function_in_parentheses():
    assert named('emit "after_stpe"\non [[befor_step]];\n(dice.roll)("d7", 1)\n') == [
        "t.lua:1:1: no event called 'after_stpe' (did you mean 'after_step'?)",
        "t.lua:2:1: no event called 'befor_step'",
        "t.lua:3:1: no die called 'd7' (did you mean 'd6'?)"]
    assert old_calls('local n = zones["count"]("pool", 2)') == [
        't.lua:1:11: zones["count"]("pool", 2) is the old call; now zones.count(2, "pool")']


def test_a_method_a_field_or_a_local_of_the_same_name_is_not_the_engines():
    code = ('local function on(name) return name end\non("not_an_event")\n'
            'self:emit("not_an_event")\nlocal n = view.zones.count("not_a_zone", 1)\n'
            'local counters = {get = function() end}\ncounters.get("not_a_counter", 1)\n')
    assert named(code) == []
    assert old_calls(code.replace("not_a_counter", "score")) == []


# -- the scans kept on disk ---------------------------------------------------------------

def test_a_scan_is_read_back_from_the_cache_folder_without_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMMON_CACHE", str(tmp_path))
    monkeypatch.setattr(lualint, "_scans", {})
    code = f'-- {tmp_path}\nlocal n = zones.count("pool", p)\nemit "after_step"\nprint(undefined_here)\n'
    before = lualint.parses
    first = lualint.scan(code)
    assert lualint.parses == before + 1 and first.calls and first.uses
    assert len(list(lualint.cache_folder().glob("*.json"))) == 1
    monkeypatch.setattr(lualint, "_scans", {})     # as a new process would start
    again = lualint.scan(code)
    assert lualint.parses == before + 1
    assert again == first
    for f in lualint.cache_folder().glob("*.json"):   # a damaged cache is parsed again
        f.write_text('{"uses": [["read"]]')
    monkeypatch.setattr(lualint, "_scans", {})
    assert lualint.scan(code) == first and lualint.parses == before + 2


def test_a_cache_folder_that_cannot_be_written_is_passed_over(tmp_path, monkeypatch):
    blocked = tmp_path / "a_file"
    blocked.write_text("")
    monkeypatch.setenv("SUMMON_CACHE", str(blocked / "cache"))
    monkeypatch.setattr(lualint, "_scans", {})
    monkeypatch.setattr(lualint, "_disk_off", False)
    sc = lualint.scan(f"-- {tmp_path}\nemit('after_step')\n")
    assert sc.error is None and [c.fn for c in sc.calls] == ["emit"]
    assert lualint._disk_off


# -- fields no table has (notes: a guess) --------------------------------------------------

def field_notes(target) -> list[tuple[int, int, str]]:
    """The field notes of `summon check` of a game: (line, col, message)."""
    out = []
    for n in notes(str(target)):
        m = re.match(r".*:(\d+):(\d+): note: (no table of the game or the engine has a field .*)$", n)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return sorted(out)


def test_a_misspelt_field_no_table_has_is_noted_with_the_field_meant(game_copy):
    """A misspelt field of a card, an event or any table the script holds reads nil without
    a word; summon check notes it, with the field meant, even when the same mistake is made
    twice (a misspelling read twice is still set nowhere). A note, not a problem: it is a
    guess, and the game still passes."""
    rules, cards = game_copy()
    fk = cards / "fallen_kingdom.yaml"
    line, col = planted(fk, "if ev.player ~= self.controller or not self.space then return end",
                        "if ev.player ~= self.controler or not self.space then return end", "self.controler")
    edit(fk, "return adjacent_cards(ev.space, function(c) return is_unit(c) and c.controller ~= ev.controller end)",
         "return adjacent_cards(ev.spcae, function(c) return is_unit(c) and c.controller ~= ev.controler end)")
    # (no problem of its own; the nil it reads may fail in a random game, said where it fails)
    assert [p for p in check(str(rules)) if "in a random game summon check played" not in p.message] == []
    found = field_notes(rules)
    assert (line, col + len("self."), "no table of the game or the engine has a field 'controler' "
            "(did you mean 'controller'?)") in found
    messages = [m for _, _, m in found]
    assert len(found) == 3, found
    assert sum("'controler'" in m for m in messages) == 2
    assert sum("field 'spcae' (did you mean 'space'?)" in m for m in messages) == 1


def test_the_field_meant_is_found_through_swapped_letters():
    code = "function f(c, ev) return c.nmae, c.ower, ev.palyer, c.zoen, ev.crad, c.dfe, c.deff end"
    got = [u.name for u in lualint.scan(code).uses if u.kind == "member"]
    known = {"name", "max", "owner", "lower", "player", "zone", "Coin", "card", "rad", "def", "die", "defs", "own"}
    meant = {n: lualint.nearest_field(n, known) for n in got}
    assert meant == {"nmae": "name", "ower": "owner", "palyer": "player", "zoen": "zone", "crad": "card",
                     "dfe": "def", "deff": "def"}


def test_fields_the_game_sets_names_or_declares_are_known(game_copy):
    """A field the rules set on a table, one written as a string key, a card's own YAML
    field and a hook's event field are all fields some table has: no note."""
    rules, cards = game_copy()
    prepend(rules / "phases.lua",
            'local memo = {}\nfunction remember(c) memo.last_seen = c; memo["by_key"] = 1 end\n'
            'function recall() return memo.last_seen, memo.by_key, memo.last_seen and memo.last_seen.strength end\n')
    edit(cards / "fallen_kingdom.yaml", "if ev.player ~= self.controller or not self.space then return end",
         "if ev.player ~= self.controller or not self.space or cards.def(self).strength == nil then return end")
    assert check(str(rules)) == [] and field_notes(rules) == []


def test_a_field_whose_name_the_rules_build_by_joining_is_known(game_copy):
    rules, _ = game_copy()
    prepend(rules / "phases.lua",
            'local bonus = { fire_bonus = 0 }\nfunction set_bonus(kind, n) bonus[kind .. "_bonus"] = n end\n'
            'function water_bonus() return bonus.water_bonus end\n'
            'function fire_typo() return bonus.fire_bonsu end\n')
    assert [m for _, _, m in field_notes(rules)] == [
        "no table of the game or the engine has a field 'fire_bonsu' (did you mean 'fire_bonus'?)"]


def test_names_made_at_run_time_are_not_called_misspellings(game_copy):
    """Fields set under names built while the rules run (joined, formatted, read through
    _G) or answered by a metatable are no misspelling: only a name close to a known one
    that nothing sets, and that none of the game's joins or formats could make, is noted."""
    rules, _ = game_copy()
    prepend(rules / "phases.lua", """
function joined()
  local t = {}
  for _, element in ipairs({ "fire", "ice" }) do t[element .. "_" .. "big"] = 1 end
  return t.fire_big
end
function formatted(kind)
  local b = {}
  b[string.format("%s_damage", kind)] = 2
  b[("%s_armor"):format(kind)] = 3
  b[string.format("%s_%d", kind, 1)] = 4
  return b.fire_damage, b.fire_armor, b.fire_1
end
function numbered() local s = {}; for i = 1, 3 do s["slot" .. i] = i end; return s.slot1, s.slot2 end
function plural(kind) local n = {}; n[kind .. "s"] = 1; return n.gems, n.coins end
function camel(kind) local b = {}; b["extra" .. kind] = 4; return b.extraFire end
function set_flag() flag_from_setup = 5 end
function read_flag() return _G.flag_from_setup end
function defaults() return setmetatable({}, { __index = function() return 6 end }).anything_at_all end
""")
    assert check(str(rules)) == [] and field_notes(rules) == []


# -- a card's definition read where its stat was meant; a card's local compared with an id ----

def place(path: Path, marker: str, text: str) -> tuple[int, int]:
    """The 1-based line and column of text on the one line of a file holding marker."""
    hits = [(n, line) for n, line in enumerate(path.read_text().splitlines(), 1) if marker in line]
    assert len(hits) == 1, f"{marker!r} is not once in {path}"
    n, line = hits[0]
    return n, line.index(text) + 1


CROWN = """\
  - id: crown
    name: Crown
    tags: [treasure]
    copies: 1
    points: 3
    text: Worth 1 more while in play, and as much as its base says.
    modifiers:
      points: |
        function(self, card, value)
          if card == self then return value + cards.def(card).points end  -- (printed: meant)
          return value
        end
    abilities:
      base: |
        function(self, card)
          return cards.def(card).points * 2  -- (a modifier calls it: printed, meant)
        end
"""


def definition_notes(rules: Path, root: Path) -> list[str]:
    return [n.replace(f"{root}/", "") for n in notes(str(rules)) if "a card's definition holds" in n]


def test_a_stat_read_from_a_cards_definition_is_noted_once_a_modifier_changes_it(tmp_path):
    """cards.def(c).points, or a local holding the definition (directly or through a rules
    function returning it), is the printed value: every modifier is ignored, where
    stat(c, "points") was meant. Noted only once some modifier changes the stat, and only
    outside modifiers and what they call (a rules function, a card's ability), where the
    printed value may be the point. A field no modifier changes (name) is never noted."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules, starter = tmp_path / "rules" / "mygame", tmp_path / "cards" / "mygame" / "starter.yaml"
    edit(rules / "rules.lua", 'score(p, stat(pick.card, "points"))', 'score(p, cards.def(pick.card).points)')
    with (rules / "rules.lua").open("a") as f:
        f.write('\nfunction def_of(c) return cards.def(c) end\n'
                'function printed(c) return def_of(c).points end\n'
                'local function doubled(c, v) return cards.def(c).points * 2 end\n'
                'on("after_play", function(ev)\n'
                '  local d = def_of(ev.card)\n'
                '  say(d.name .. " " .. d.points .. " " .. defs[ev.card.def].name)  -- (last: listed)\n'
                'end)\n')
    edit(starter, "            score(self.owner, 1)",
         '            local mine = cards.def(self)\n            score(self.owner, mine["points"] + #mine.name)')
    assert definition_notes(rules, tmp_path) == []   # (no modifier changes points yet)

    with starter.open("a") as f:
        f.write(CROWN)
    with (rules / "game.yaml").open("a") as f:
        f.write("abilities: [base]\n")
    with (rules / "rules.lua").open("a") as f:
        f.write('add_modifier("points", function(c, v) return v + printed(c) - printed(c) end)\n'
                'add_modifier("points", doubled)\n'
                'add_modifier("points", function(c, v)\n'
                '  local base = cards.def(c).abilities.base\n'
                '  return base and base(c, c) - base(c, c) + v or v\n'
                'end)\n')
    lua = rules / "rules.lua"
    said = "a card's definition holds its printed points, which no modifier changes: this ignores the modifiers " \
           "of the rules and Crown"
    scored = place(lua, "cards.def(pick.card).points", "points)")
    heard = place(lua, 'd.points .. " "', "points")
    hook = place(starter, 'mine["points"]', 'points"')
    assert definition_notes(rules, tmp_path) == [
        f"rules/mygame/rules.lua:{scored[0]}:{scored[1]}: note: {said} (read stat(pick.card, \"points\"))",
        f"rules/mygame/rules.lua:{heard[0]}:{heard[1]}: note: {said} (read stat(ev.card, \"points\"))",
        f"cards/mygame/starter.yaml:{hook[0]}:{hook[1]}: note: {said} (read stat(self, \"points\"))"]
    assert check(str(rules)) == []   # (the game plays: notes, no problems)


def test_definition_reads_are_followed_through_locals_wrappers_and_modifiers():
    """What the scan records: reads from a definition by every way of getting one (a rules
    function returning it, a local function doing so, defs[c.def], a local copied), and
    none in a function given to add_modifier as written. A local given something else
    since, a function returning another card's definition or one that is no such function
    (not_def) reads no definition; nor does a card's modifier."""
    from engine.loader import LuaSource
    rules = LuaSource("a.lua", """\
function def_of(c) return cards.def(c) end
local function own(c) return defs[c.def] end
local function other(c) return cards.def(other_card) end
function use(c, ev)
  local d = def_of(c)
  local e = own(ev.card)
  local f = d
  local g = cards.def(c)
  g = {}
  local x = other(c).life
  return d.life, e.life, f.life, g.life, defs[c.def].life, cards.def(c).name, not_def(c).life
end
add_modifier("life", function(c, v) return cards.def(c).life + v end)
""")
    card = LuaSource("b.yaml", "return function(self, ev) local d = def_of(ev.card) return d.life end")
    sc = lualint.scan(rules.source)
    assert [u.name for u in sc.uses if u.kind == "defwrap"] == ["def_of"]
    reads = lualint.definition_reads([rules], [rules, card], lambda s: False)
    lines = rules.source.splitlines()
    n = next(i for i, x in enumerate(lines, 1) if x.startswith("  return d.life"))

    def at(text: str) -> int:   # the column of the field text ends with, on line n
        return lines[n - 1].index(text) + text.rindex(".") + 2
    assert [(s.chunkname, u.line, u.col, u.name, u.locals) for s, u in reads] == [
        ("a.lua", n, at("d.life"), "life", ("c", "use")), ("a.lua", n, at("e.life"), "life", ("ev.card", "use")),
        ("a.lua", n, at("f.life"), "life", ("c", "use")), ("a.lua", n, at("defs[c.def].life"), "life", ("c", "use")),
        ("a.lua", n, at("cards.def(c).name"), "name", ("c", "use")),
        ("b.yaml", 1, card.source.index("d.life") + 3, "life", ("ev.card", ""))]
    assert lualint.definition_reads([rules], [card], lambda s: s is card) == []


def test_a_modifier_given_as_a_tables_field_or_assigned_to_a_local_reads_no_definition():
    """add_modifier("points", M.crowned) and a local given its function by assignment were
    not known as modifiers: the printed value they read was noted, and reading stat() there
    instead, as the note said, runs the modifier within itself without end."""
    from engine.loader import LuaSource
    rules = LuaSource("a.lua", """\
M = {}
function M.crowned(c, v) return v + cards.def(c).points end
add_modifier("points", M.crowned)
local bonus
bonus = function(c, v) return v + cards.def(c).points end
add_modifier("points", bonus)
function use(c) return cards.def(c).points end
Shop = {}
function Shop.crowned(c) return cards.def(c).points end
Deal = {}
function Deal.price(c) return cards.def(c).points end
add_modifier("points", function(c, v) return v + Deal:price(c) end)
B = {}
function B.bonus(c, v) return v + cards.def(c).points end
add_modifier("points", B["bonus"])
add_modifier("points", function(c, v) return v + tokens.get(c, "rage") end)
function get(c) return cards.def(c).points end
""")
    reads = lualint.definition_reads([rules], [rules], lambda s: False)
    # (Deal.price, called by a modifier as Deal:price, and B.bonus, given as B["bonus"]: no note;
    # the engine's tokens.get, called by a modifier, is not the rules' own get)
    assert [(u.line, u.locals[1:]) for _, u in reads] == [(7, ("use",)), (9, ("Shop.crowned",)), (17, ("get",))]


def comparing_game(tmp_path, hook: str, listener: str) -> tuple[Path, Path]:
    """A new game whose starter card's hook runs `hook` first (lines indented as the hook's)
    and whose rules.lua ends with `listener`: (its rules folder, its starter card file)."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules, starter = tmp_path / "rules" / "mygame", tmp_path / "cards" / "mygame" / "starter.yaml"
    edit(starter, "if ev.card ~= self and ev.player == self.owner then",
         hook + "\n          if ev.card ~= self and ev.player == self.owner then")
    with (rules / "rules.lua").open("a") as f:
        f.write(listener)
    return rules, starter


def never_its_id(tmp_path, rules: Path) -> list[str]:
    """The notes of a card compared with what it never is, with paths from tmp_path."""
    return sorted(n.replace(f"{tmp_path}/", "") for n in notes(str(rules)) if "never its id" in n)


def test_a_card_compared_with_a_number_or_an_id_is_noted(tmp_path):
    """ev.card == self.id compares a card (a table) with a number: never true. So is a card
    held in a local compared with a number; an id with an id, or self in the rules (no card
    there), is no problem."""
    rules, starter = comparing_game(
        tmp_path, "local c = ev.card\n          if ev.card ~= self.id and c ~= 7 and ev.card.id ~= self.id then end",
        '\nlocal M = {}\nfunction M:same(n) return self == n.id end\n'
        'on("after_play", function(ev)\n  if 3 == ev.card then say("never") end\nend)\n')
    by_id = place(starter, "ev.card ~= self.id", "self.id")
    by_number = place(starter, "c ~= 7", "7")
    heard = place(rules / "rules.lua", "3 == ev.card", "3")
    said = "note: a card is a table, never its id: this comparison is never true (compare ids:"
    assert never_its_id(tmp_path, rules) == sorted([
        f"cards/mygame/starter.yaml:{by_id[0]}:{by_id[1]}: {said} ev.card.id == self.id)",
        f"cards/mygame/starter.yaml:{by_number[0]}:{by_number[1]}: {said} c.id == 7)",
        f"rules/mygame/rules.lua:{heard[0]}:{heard[1]}: {said} ev.card.id == 3)"])


def test_a_card_compared_with_an_id_through_a_local_is_noted(tmp_path):
    """local c = ev.card ... c == "gem" is never true, as ev.card == "gem" is; so is a local
    given self in a card's script. A local given something else since, or another local of
    the same name, is no card."""
    rules, starter = comparing_game(
        tmp_path, 'local c, me = ev.card, self\n          local kind = ev.card\n          kind = kind.def\n'
                  '          if c ~= "gem" and me ~= "coin" and kind ~= "gem" then\n'
                  '            local c = {}\n            if c == "gem" then return end\n          end',
        '\non("after_play", function(ev)\n  local target = ev.card\n'
        '  if target == "coin" then say("never") end\nend)\n')
    hook = place(starter, 'if c ~= "gem"', '"gem"')
    mine = place(starter, 'if c ~= "gem"', '"coin"')
    heard = place(rules / "rules.lua", 'target == "coin"', '"coin"')
    said = "note: a card is a table, never its id: this comparison is never true (compare its def:"
    assert never_its_id(tmp_path, rules) == sorted([
        f"cards/mygame/starter.yaml:{hook[0]}:{hook[1]}: {said} c.def == \"gem\")",
        f"cards/mygame/starter.yaml:{mine[0]}:{mine[1]}: {said} me.def == \"coin\")",
        f"rules/mygame/rules.lua:{heard[0]}:{heard[1]}: {said} target.def == \"coin\")"])


def test_what_choose_returns_compared_with_a_label_is_noted(tmp_path):
    """choose returns the option picked (a table): `pick ~= "Push"` was always true, and a
    cooperative game's team never moved on; `pick.label` is what was meant."""
    import shutil
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "team_up", tmp_path / "team_up"))
    team = game / "team.lua"
    team.write_text(team.read_text().replace('if pick.label ~= "Push"', 'if pick ~= "Push"'))
    at = place(team, 'if pick ~= "Push"', '"Push"')
    said = [n for n in notes(str(game)) if "choose returns" in n]
    assert [n.replace(f"{tmp_path}/", "") for n in said] == [
        f"team_up/team.lua:{at[0]}:{at[1]}: note: choose returns the option picked, a table, never its label: "
        f"this comparison is never true (compare its label: pick.label == \"Push\")"], said
