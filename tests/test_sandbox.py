"""The sandbox against hostile scripts: each ends in a clear error (or a harmless result)
within 2 seconds, and the host stays usable afterwards."""
from __future__ import annotations

import time

import pytest

from engine.errors import ScriptError
from engine.match import Match, Seat

# (name, Lua, what the error must say; None when a harmless result is fine)
ESCAPES = [
    ("io", 'io.open("/etc/passwd")', "global 'io'"),
    ("os.execute", 'os.execute("echo hi")', "global 'os'"),
    ("os.exit", "os.exit(1)", "global 'os'"),
    ("os.getenv", 'os.getenv("HOME")', "global 'os'"),
    ("require", 'require("os")', "global 'require'"),
    ("package.loadlib", 'package.loadlib("libc.so.6", "system")', "global 'package'"),
    ("dofile", 'dofile("/etc/passwd")', "global 'dofile'"),
    ("loadfile", 'loadfile("/etc/passwd")', "global 'loadfile'"),
    ("load text with real globals", 'load("return io")()', "global 'load'"),
    ("loadstring", 'loadstring("return 1")', "global 'loadstring'"),
    ("load bytecode", 'load(string.char(27, 76, 117, 97, 84, 0), "x", "b")', "global 'load'"),
    ("string.dump", "string.dump(print)", "field 'dump'"),
    ("dump through a string", '("x").dump(print)', "field 'dump'"),
    ("string metatable", 'getmetatable("").__index.rep = nil', "index a nil value"),
    ("string metatable raw", 'return getmetatable("x")', None),
    ("setmetatable on engine api", "setmetatable(board, {})", "belongs to the engine"),
    ("change engine api", "board.distance = nil", "belongs to the engine"),
    ("rawset on engine api", 'rawset(cards, "get", nil)', "belongs to the engine"),
    ("rawset on shared defs", 'rawset(defs, "svara", {})', "belongs to the engine"),
    ("change a card set", 'sets.polar_dwarves.name = "x"', "read-only"),
    ("rawget io from env", 'return rawget(_G, "io"), rawget(_ENV, "os")', None),
    ("_ENV escape", "return _ENV.io.open", "'io'"),
    ("debug.getinfo", "debug.getinfo(1)", "global 'debug'"),
    ("debug.sethook", "debug.sethook()", "global 'debug'"),
    ("python.eval", 'python.eval("1")', "global 'python'"),
    ("python.builtins", "python.builtins.open", "global 'python'"),
    ("collectgarbage", 'collectgarbage("stop")', "global 'collectgarbage'"),
    ("math.random", "math.random()", "field 'random'"),
    ("attribute traversal on api", "return board.distance.__class__", "index a function value"),
    ("attribute traversal on state", "return state.__class__, state.cards.__globals__", None),
    ("getmetatable of api", "return getmetatable(board)", None),
]

EXHAUSTION = [
    ("infinite loop", "while true do end", "ran too long"),
    ("loop inside pcall", "for i = 1, 1e12 do pcall(function() while true do end end) end", "ran too long"),
    ("pcall swallowing the budget", "while true do pcall(function() while true do end end) end", "ran too long"),
    ("xpcall handler loop", "xpcall(error, function() while true do end end)", "ran too long"),
    ("goto loop", "::top:: goto top", "ran too long"),
    ("coroutine library", "coroutine.wrap(function() while true do end end)()", "global 'coroutine'"),
    ("many coroutines", "for i = 1, 1e6 do coroutine.create(print) end", "global 'coroutine'"),
    ("tail recursion", "local function f() return f() end return f()", "ran too long"),
    ("deep recursion", "local function f(n) return 1 + f(n + 1) end return f(1)", "stack overflow"),
    ("recursion through __index",
     "local t = setmetatable({}, {}); getmetatable(t).__index = function(s, k) return s[k] end; return t.x",
     "stack overflow"),
    ("huge string.rep", 'return string.rep("x", 1e10)', "too large"),
    ("huge rep by method", 'return ("xy"):rep(1e9, ",")', "too large"),
    ("doubling concatenation", 'local s = "x" while true do s = s .. s end', "memory"),
    ("table growth", "local t = {} for i = 1, 1e10 do t[i] = i end", None),
    ("catastrophic pattern", 'return string.find(string.rep("a", 1e5), ".-.-.-.-b")', "too slow"),
    ("catastrophic pattern by method", 'return (("a"):rep(5e4)):match("(.-)(.-)(.-)c")', "too slow"),
    ("gsub pattern", 'return string.gsub(string.rep("ab", 3e4), "(.*)(.*)(.*)x", "")', "too slow"),
    ("__gc finaliser", "setmetatable({}, {__gc = function() while true do end end})", "__gc"),
    ("__close loop", "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
     "ran too long"),
    ("error with a table", "error({1, 2, 3})", "error"),
    ("invalid utf-8 result", 'return "\\xff\\xfe ok"', None),
    ("__tostring loop in result", "return setmetatable({}, {__tostring = function() while true do end end})", None),
    ("__pairs loop in result", "return setmetatable({a = 1}, {__pairs = function() while true do end end})", None),
    ("cyclic result", "local t = {} t.t = t return t", None),
    ("unpack bomb", "return select('#', table.unpack({}, 1, 1e8))", "too many results"),
    ("format bomb", 'return string.format("%99999999d", 1)', "invalid conversion"),
    ("choose outside a match step", 'return choose{player = 1, options = {"a", "b"}}', "choice cannot be asked"),
    ("event storm", 'on("after_damage", function(ev) emit("after_damage", ev) end) emit("after_damage", {})',
     "more than 30 levels deep"),
]


@pytest.fixture(scope="module")
def match(sw):
    return Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)


def assert_host_usable(match):
    assert match.eval('board.distance("a1", "b2")') == [2]
    assert match.options()
    match.state_hash()


@pytest.mark.parametrize("name,code,expect", ESCAPES + EXHAUSTION, ids=[c[0] for c in ESCAPES + EXHAUSTION])
def test_hostile_script(match, name, code, expect):
    start = time.monotonic()
    try:
        match.eval(code)
        outcome = None
    except ScriptError as e:
        outcome = str(e)
    elapsed = time.monotonic() - start
    assert elapsed < 2.0, f"{name} took {elapsed:.1f} s"
    if expect is not None:
        assert outcome is not None, f"{name}: no error"
        assert expect in outcome, f"{name}: {outcome}"
    assert_host_usable(match)


def test_corpus_is_large_enough():
    assert len(ESCAPES) + len(EXHAUSTION) >= 40


def test_memory_cap_stops_a_script_and_the_runtime_recovers(sw):
    m = Match(sw, 2, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match="memory"):
        m.eval('local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end')
    assert_host_usable(m)


def test_no_python_object_reaches_a_script(match):
    # every value in the environment is a Lua value
    kinds = match.eval("""
        local seen = {}
        for k, v in pairs(_ENV) do seen[type(v)] = true end
        for k, v in pairs(getmetatable(_ENV) or {}) do seen[type(v)] = true end
        local out = {} for k in pairs(seen) do out[#out + 1] = k end
        table.sort(out) return out""")
    assert "userdata" not in kinds[0]
