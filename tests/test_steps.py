"""The steps written into compiled Lua (engine/steps.py): where they go, that the text means
what it meant, that errors name the lines of the text as written, and that the budget counts
them exactly. (tests/test_sandbox.py has the hostile scripts the budget stops.)"""
from __future__ import annotations

import pytest
from lupa.lua54 import LuaRuntime

from engine.luac import at_line, compile_lua
from engine.steps import COUNTER, STEP, meter


def steps_in(text: str, calls: bool = True) -> int:
    return meter(text, calls=calls).count(STEP)


@pytest.mark.parametrize("text", [
    'local s = "while x do end repeat until goto function() end"',
    "local s = 'do \\' do'",
    'local s = "a \\" do"',
    "local s = [[ for i = 1, 2 do end ]]",
    "local s = [==[ ]] do ]=] function() end ]==]",
    "-- while true do end\nlocal x = 1",
    "--[[ goto top\n repeat until false ]] local x = 1",
    "--[=[ ]] do ]=] local y = 2",
    "local n = 0x1p4 + 1e-3 + 3e+2 + .5 + 0xA.8p0 + 7",
    "local t = {dot = 1} local x = t.dot",
    "local undo, doing, repeated, go_to, functions = 1, 2, 3, 4, 5",
])
def test_words_in_strings_comments_and_names_take_no_step(text):
    assert steps_in(text) == 0


@pytest.mark.parametrize("text,calls,loops", [
    ("while true do end", 1, 1),
    ("for i = 1, 3 do end for k, v in pairs({}) do end", 2, 2),
    ("repeat until true", 1, 1),
    ("do local x = 1 end", 1, 1),
    ("::top:: if false then goto top end", 1, 1),
    ("local function f(a, b) return a end", 1, 0),
    ("local t = {} function t.a.b:c(...) end", 1, 0),
    ("local f = function() return function() end end", 2, 0),
    ("local f = function() while false do end end", 2, 1),
])
def test_each_loop_goto_and_function_takes_one_step(text, calls, loops):
    assert (steps_in(text), steps_in(text, calls=False)) == (calls, loops)


class Box:
    """A runtime that runs compiled chunks as the engine does, with the counter first."""

    def __init__(self):
        self.lua = LuaRuntime(register_eval=False)
        self.counter = self.lua.eval("{n = 1000000000}")
        self.counter.out = self.lua.eval("function() error('out of steps') end")
        self.run = self.lua.eval("function(bc, c, ...) return assert(load(bc, nil, 'b'))(c, ...) end")

    def results(self, text: str, *args, steps: str = "calls"):
        ok, bc = compile_lua(text, "test.lua", steps)
        assert ok, bc
        return self.run(bc, self.counter, *args)

    def taken(self, text: str, steps: str = "calls") -> int:
        self.counter.n = 1000000000
        self.results(text, steps=steps)
        return 1000000000 - self.counter.n


PROGRAMS = [
    # a goto to a label at the end of a block skips the local declared before it
    ("local n = 0 for i = 1, 10 do if i % 2 == 0 then goto continue end local x = i n = n + x ::continue:: end "
     "return n", 25),
    ("local a, b = ... return b .. a", "yx"),
    ("local t = {} function t.f(x) return x * 2 end function t:g(x) return self.f(x) + 1 end return t:g(4)", 9),
    ("local s = 'do' .. [[ end ]] .. \"repeat\" return #s", 13),
    ("local i = 0 repeat local j = i i = i + 1 until j >= 4 return i", 5),
    ("return (function(...) return select('#', ...) end)(1, nil, 3)", 3),
    ("local x = 1 do local x = 2 end return x", 1),
    ("return 0x10 + 1e1 + .5", 26.5),
]


@pytest.mark.parametrize("text,expected", PROGRAMS)
def test_a_metered_chunk_returns_what_the_text_says(text, expected):
    box = Box()
    args = ("x", "y")
    assert box.results(text, *args) == expected
    assert box.results(text, *args, steps="loops") == expected
    assert box.results(text, *args, steps="none") == expected


def test_the_count_is_exact():
    box = Box()
    assert box.taken("for i = 1, 1000 do end") == 1000
    assert box.taken("local function f(n) if n > 0 then return f(n - 1) end end f(99)") == 100
    assert box.taken("local function f(n) if n > 0 then return f(n - 1) end end f(99)", steps="loops") == 0
    assert box.taken("local i = 0 ::top:: i = i + 1 if i < 50 then goto top end") == 49
    assert box.taken("for i = 1, 1000 do end", steps="none") == 0


def test_errors_name_the_lines_as_written():
    box = Box()
    text = "local x = 1\nwhile x < 3 do\n  x = x + 1\nend\nlocal function f()\n  error('here')\nend\nf()"
    with pytest.raises(Exception, match=r"test\.lua:6: here"):
        box.results(text)
    # Lua inline in YAML: the text starts on line 40 of its file
    with pytest.raises(Exception, match=r"test\.lua:45: here"):
        box.results(at_line(text, 40))
    # syntax errors are those of the text as written, not of the text with steps in
    ok, msg = compile_lua("local x = 1\nif x then\n  x = 2\n", "test.lua")
    assert not ok and msg == "test.lua:4: 'end' expected (to close 'if' at line 2) near <eof>"
    # inline in YAML, the lines the message names are the file's too (it said "at line 2")
    ok, msg = compile_lua(at_line("local x = 1\nif x then\n  x = 2\n", 40), "cards.yaml")
    assert not ok and msg == "cards.yaml:43: 'end' expected (to close 'if' at line 41) near <eof>"
    ok, msg = compile_lua(at_line("::a::\n::a::", 10), "cards.yaml")
    assert not ok and msg == "cards.yaml:11: label 'a' already defined on line 11", msg   # (Lua 5.4 names the second)


def test_no_text_may_name_the_counter():
    ok, msg = compile_lua(at_line(f"local a = 1\nlocal b = {COUNTER}", 10), "cards.yaml")
    assert (ok, msg) == (False, f"cards.yaml:11: the name {COUNTER} is the engine's own: a script may not use it")
    ok, msg = compile_lua(f"local s = '{COUNTER}' -- {COUNTER}", "rules.lua")   # text and comments may
    assert ok


def test_the_budget_stops_at_the_same_step_every_time():
    """A budget of 1,000 steps: a run of 900 loop turns passes and one of 1,100 does not,
    whatever the machine; the limit is exact, so the run of 1,100 stops at its loop."""
    import dataclasses
    from pathlib import Path

    from engine.errors import ScriptError
    from engine.loader import load_game
    from engine.match import Match, Seat

    g = load_game(str(Path(__file__).parent / "games" / "sealed_bid"))
    g = dataclasses.replace(g, data={**g.data, "limits": {**(g.data.get("limits") or {}), "steps": 1000}})
    m = Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True)
    assert m.eval("local n = 0 for i = 1, 900 do n = n + 1 end return n") == [900]
    for _ in range(2):
        with pytest.raises(ScriptError, match=r"^script ran too long: more than 1000 steps \(loop turns and "
                                              r"function calls\) before the next decision \(an endless loop\?\) "
                                              r"at eval:1$"):
            m.eval("local n = 0 for i = 1, 1100 do n = n + 1 end return n")


# Text made of Lua's own words and marks, to hide in strings and comments.
LUA_BITS = ["do", "end", "while", "repeat", "until", "goto", "function", "(", ")", "[[", "]]", "[=[", "]=]",
            "--", "\\", '"', "'", "\n", "::", " ", "x", "=", "1e5", "0x1p4"]


def lua_quoted(text: str, quote: str) -> str:
    """text as a short Lua string literal."""
    body = text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n")
    return quote + body + quote


def lua_long(text: str) -> str:
    """text as a long Lua string literal, with enough = signs that nothing inside closes it."""
    level = 0
    while "]" + "=" * level + "]" in text + "]":
        level += 1
    return "[" + "=" * level + "[\n" + text + "]" + "=" * level + "]"


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(LUA_BITS), max_size=30).map("".join), st.sampled_from(['"', "'", "long"]))
def test_what_strings_and_comments_hold_is_never_metered(text, kind):
    literal = lua_long(text) if kind == "long" else lua_quoted(text, kind)
    comment = "--" + lua_long(text)
    program = f"{comment}\nlocal s = {literal} return s"
    assert steps_in(program) == 0
    assert Box().results(program) == text


def test_with_no_budget_library_work_is_not_refused():
    """limits: {steps: 0} (what `summon bench` compares against; game.yaml's schema refuses
    it) counts nothing, and charged library calls go through instead of being refused."""
    import dataclasses
    from pathlib import Path

    from engine.loader import load_game
    from engine.match import Match, Seat

    g = load_game(str(Path(__file__).parent / "games" / "sealed_bid"))
    g = dataclasses.replace(g, data={**g.data, "limits": {**(g.data.get("limits") or {}), "steps": 0}})
    m = Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True)
    assert m.eval('return #string.rep("ab", 100000)') == [200000]
    assert m.eval("local n = 0 for i = 1, 3000000 do n = n + 1 end return n") == [3000000]
