"""The sandbox against hostile scripts: each ends in the one error it must raise, or returns
the one harmless value it must return, and the host stays usable afterwards; and nothing a
script can reach, at any depth, leads out of the sandbox. (A script that loops for ever is
stopped by the instruction budget, which the cases check by its message, not by a clock.)"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from conftest import copy_game, edit
from engine.errors import ScriptError
from engine.loader import LuaSource, load_game
from engine.match import Match, Seat


@dataclass(frozen=True)
class Raises:
    """The script must fail with a ScriptError whose whole message matches this regex."""
    pattern: str


@dataclass(frozen=True)
class Returns:
    """The script must finish and Match.eval must give exactly these results."""
    values: list


@dataclass(frozen=True)
class ReturnsText:
    """The script must finish with one result, a text matching this regex."""
    pattern: str


def fails(message: str) -> Raises:
    """Fails with exactly this message."""
    return Raises(re.escape(message))


def nil_global(name: str, verb: str = "index") -> Raises:
    return fails(f"eval:1: attempt to {verb} a nil value (global '{name}')")


def nil_field(name: str, verb: str = "call") -> Raises:
    return fails(f"eval:1: attempt to {verb} a nil value (field '{name}')")


TOO_LONG = Raises(r"script ran too long: more than \d+ Lua instructions before the next decision "
                  r"\(an endless loop\?\)")
ENGINE_OWNS = "this table belongs to the engine"
OUT_OF_MEMORY = fails("a script ran out of memory (a match may use 256 MB)")


def too_slow(fn: str, repetitions: int, size: int) -> Raises:
    return fails(f"{fn}: a pattern with {repetitions} repetitions is too slow on a string of {size} characters")


ESCAPES = [
    ("io", 'io.open("/etc/passwd")', nil_global("io")),
    ("os.execute", 'os.execute("echo hi")', nil_global("os")),
    ("os.exit", "os.exit(1)", nil_global("os")),
    ("os.getenv", 'os.getenv("HOME")', nil_global("os")),
    ("require", 'require("os")', nil_global("require", "call")),
    ("package.loadlib", 'package.loadlib("libc.so.6", "system")', nil_global("package")),
    ("dofile", 'dofile("/etc/passwd")', nil_global("dofile", "call")),
    ("loadfile", 'loadfile("/etc/passwd")', nil_global("loadfile", "call")),
    ("load text with real globals", 'load("return io")()', nil_global("load", "call")),
    ("loadstring", 'loadstring("return 1")', nil_global("loadstring", "call")),
    ("load bytecode", 'load(string.char(27, 76, 117, 97, 84, 0), "x", "b")', nil_global("load", "call")),
    ("string.dump", "string.dump(print)", nil_field("dump")),
    ("dump through a string", '("x").dump(print)', nil_field("dump")),
    ("string metatable", 'getmetatable("").__index.rep = nil', fails("eval:1: attempt to index a nil value")),
    ("string metatable raw", 'return getmetatable("x")', Returns([None])),
    ("setmetatable on engine api", "setmetatable(board, {})", fails(f"setmetatable: {ENGINE_OWNS}")),
    ("change engine api", "board.distance = nil", fails("eval:1: cannot change board.distance: it belongs to the engine")),
    ("rawset on engine api", 'rawset(cards, "get", nil)', fails(f"rawset: {ENGINE_OWNS}")),
    ("rawset on shared defs", 'rawset(defs, "svara", {})', fails(f"rawset: {ENGINE_OWNS}")),
    ("change a card set", 'sets.polar_dwarves.name = "x"', fails("eval:1: cannot change name: a card set is read-only")),
    ("change a card definition", "defs.frost_mage.cost = 0", fails("eval:1: cannot change cost: a card definition is read-only")),
    ("change a card definition through a card", "cards.def(cards.get(1)).strength = 9",
     fails("eval:1: cannot change strength: a card definition is read-only")),
    ("change a definition's tags", 'defs.frost_mage.tags[1] = "x"',
     fails("eval:1: cannot change 1: a card definition is read-only")),
    ("rawget io from env", 'return rawget(_G, "io"), rawget(_ENV, "os")', Returns([None, None])),
    ("_ENV escape", "return _ENV.io.open", nil_global("io")),
    ("debug.getinfo", "debug.getinfo(1)", nil_global("debug")),
    ("debug.sethook", "debug.sethook()", nil_global("debug")),
    ("python.eval", 'python.eval("1")', nil_global("python")),
    ("python.builtins", "python.builtins.open", nil_global("python")),
    ("collectgarbage", 'collectgarbage("stop")', nil_global("collectgarbage", "call")),
    ("math.random", "math.random()", nil_field("random")),
    ("math.randomseed", "math.randomseed(1)", nil_field("randomseed")),
    ("attribute traversal on api", "return board.distance.__class__",
     fails("eval:1: attempt to index a function value (field 'distance')")),
    ("attribute traversal on state", "return state.__class__, state.cards.__globals__", Returns([None, None])),
    ("getmetatable of api", "return getmetatable(board)", Returns([False])),
]

EXHAUSTION = [
    ("infinite loop", "while true do end", TOO_LONG),
    ("loop inside pcall", "for i = 1, 1e12 do pcall(function() while true do end end) end", TOO_LONG),
    ("pcall swallowing the budget", "while true do pcall(function() while true do end end) end", TOO_LONG),
    ("xpcall handler loop", "xpcall(error, function() while true do end end)", TOO_LONG),
    ("goto loop", "::top:: goto top", TOO_LONG),
    ("coroutine library", "coroutine.wrap(function() while true do end end)()", nil_global("coroutine")),
    ("many coroutines", "for i = 1, 1e6 do coroutine.create(print) end", nil_global("coroutine")),
    ("tail recursion", "local function f() return f() end return f()", TOO_LONG),
    ("deep recursion", "local function f(n) return 1 + f(n + 1) end return f(1)", fails("eval:1: stack overflow")),
    ("recursion through __index",
     "local t = setmetatable({}, {}); getmetatable(t).__index = function(s, k) return s[k] end; return t.x",
     fails("eval:1: C stack overflow")),
    ("huge string.rep", 'return string.rep("x", 1e10)', fails("string.rep: result of 10000000000 bytes is too large")),
    ("huge rep by method", 'return ("xy"):rep(1e9, ",")', fails("string.rep: result of 2999999999 bytes is too large")),
    ("doubling concatenation", 'local s = "x" while true do s = s .. s end', OUT_OF_MEMORY),
    ("table growth", "local t = {} for i = 1, 1e10 do t[i] = i end", OUT_OF_MEMORY),
    ("catastrophic pattern", 'return string.find(string.rep("a", 1e5), ".-.-.-.-b")', too_slow("string.find", 4, 100000)),
    ("catastrophic pattern by method", 'return (("a"):rep(5e4)):match("(.-)(.-)(.-)c")',
     too_slow("string.match", 3, 50000)),
    ("gsub pattern", 'return string.gsub(string.rep("ab", 3e4), "(.*)(.*)(.*)x", "")', too_slow("string.gsub", 3, 60000)),
    ("__gc finaliser", "setmetatable({}, {__gc = function() while true do end end})",
     fails("setmetatable: __gc metamethods are not allowed in scripts")),
    ("__close loop", "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
     TOO_LONG),
    ("error with a table", "error({1, 2, 3})",
     fails('a script raised an error value of type table (raise errors with a message: error("what went wrong"))')),
    # results are shown, never run: bad bytes become '?', metamethods are not called, cycles are cut
    ("invalid utf-8 result", 'return "\\xff\\xfe ok"', Returns(["?? ok"])),
    ("__tostring loop in result", "return setmetatable({}, {__tostring = function() while true do end end})",
     Returns([[]])),
    ("__pairs loop in result", "return setmetatable({a = 1}, {__pairs = function() while true do end end})",
     Returns([{"a": 1}])),
    ("cyclic result", "local t = {} t.t = t return t",
     ReturnsText(r"<cannot show: engine/lua/core\.lua:\d+: state is nested too deeply to serialise>")),
    ("unpack bomb", "return select('#', table.unpack({}, 1, 1e8))", fails("eval:1: too many results to unpack")),
    ("format bomb", 'return string.format("%99999999d", 1)',
     fails("invalid conversion specification: '%99999999d'")),
    ("format bomb, not a tail call", 'local s = string.format("%99999999d", 1)',
     fails("eval:1: invalid conversion specification: '%99999999d'")),
    ("choose outside a match step", 'return choose{player = 1, options = {"a", "b"}}',
     fails("choose: a choice can only be asked while the match runs (not from the console or at load time)")),
    ("event storm", 'on("after_damage", function(ev) emit("after_damage", ev) end) emit("after_damage", {})',
     Raises(r"eval:1: events triggered each other more than 30 levels deep \(\.\.\. (after_damage -> )+after_damage\)")),
]

CASES = ESCAPES + EXHAUSTION


@pytest.fixture(scope="module")
def match(sw):
    return Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)


def assert_host_usable(match):
    assert match.eval('board.distance("a1", "b2")') == [2]
    assert match.options()
    match.state_hash()


@pytest.mark.parametrize("name,code,expect", CASES, ids=[c[0] for c in CASES])
def test_hostile_script(match, name, code, expect):
    if isinstance(expect, Raises):
        with pytest.raises(ScriptError) as e:
            results = match.eval(code)
            pytest.fail(f"{name}: expected an error, got results {results!r}")
        assert re.fullmatch(expect.pattern, str(e.value)), f"{name}: the error says {str(e.value)!r}"
    elif isinstance(expect, ReturnsText):
        results = match.eval(code)
        assert len(results) == 1 and re.fullmatch(expect.pattern, str(results[0])), f"{name}: {results!r}"
    else:
        assert match.eval(code) == expect.values, name
    assert_host_usable(match)


# Every way out that the design names (DESIGN.md, decision 7), and the resources a script
# could exhaust: each needs a case here. Counted from this list, not from the cases.
ROUTES = ["io", "os", "package", "require", "debug", "load", "loadstring", "dofile", "loadfile",
          "collectgarbage", "python", "string.dump", "math.random", "coroutine", "getmetatable",
          "setmetatable", "rawset", "rawget", "_ENV", "__gc", "__close", "while true", "goto",
          "string.rep", "string.find", "string.gsub", "table.unpack", "string.format", "emit"]


def test_the_corpus_covers_every_way_out():
    codes = [code for _, code, _ in CASES]
    missing = [r for r in ROUTES if not any(re.search(rf"(?<!\w){re.escape(r)}(?!\w)", c) for c in codes)]
    assert missing == [], f"no hostile case tries {missing}"
    names = [name for name, _, _ in CASES]
    assert len(set(names)) == len(names), "two cases share a name"
    assert len(CASES) >= 60


def test_memory_cap_stops_a_script_and_the_runtime_recovers(sw):
    m = Match(sw, 2, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"^a script ran out of memory \(a match may use 256 MB\)$"):
        m.eval('local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end')
    assert_host_usable(m)


# -- everything a script can reach ------------------------------------------------------

# Names that lead out of the sandbox, at any depth: the unsafe globals and library functions;
# functions only the os, io, package, debug and python tables have (so they are found under
# another name too); and the engine functions that load code (the engine table itself leaked).
FORBIDDEN = ["io", "os", "package", "require", "debug", "load", "loadstring", "dofile", "loadfile",
             "collectgarbage", "python", "dump", "random", "randomseed", "coroutine",
             "execute", "getenv", "tmpname", "popen", "loadlib", "searchpath", "sethook", "gethook",
             "getinfo", "getupvalue", "setupvalue", "getregistry", "builtins",
             "load_chunk", "install_lua", "eval"]

# Walks every table reachable from the roots (their keys, values and metatables, as far as
# getmetatable shows them) and names each forbidden key and each userdata or thread found.
WALK = """
local forbidden = {}
for _, k in ipairs(FORBIDDEN) do forbidden[k] = true end
local seen, problems, reported, reached = {}, {}, {}, {}
local function report(problem)
  if not reported[problem] then reported[problem] = true; problems[#problems + 1] = problem end
end
local function walk(v, path, depth)
  local tv = type(v)
  if tv == "userdata" or tv == "thread" then return report(path .. " is a " .. tv) end
  if tv ~= "table" or seen[v] then return end
  seen[v] = true
  if depth <= 2 then reached[#reached + 1] = path end
  local function visit(k, x)
    local name = type(k) == "string" and k or "[" .. tostring(k) .. "]"
    if forbidden[k] then report(path .. "." .. name) end
    walk(k, path .. "[key " .. name .. "]", depth + 1)
    walk(x, path .. "." .. name, depth + 1)
  end
  for k, x in pairs(v) do visit(k, x) end   -- what __pairs shows of a read-only view
  for k, x in next, v do visit(k, x) end    -- and the raw table behind it
  local mt = getmetatable(v)
  if mt ~= nil and type(mt) ~= "boolean" then walk(mt, path .. "<metatable>", depth + 1) end
end
for _, root in ipairs(ROOTS) do walk(root[2], root[1], 0) end
walk(getmetatable(""), "<string metatable>", 0)
table.sort(reached)
return problems, reached
"""

HOOK = "\nfunction rules_env_for_test() return _ENV end\n"


def reachable(match: Match, roots: str) -> tuple[list[str], list[str]]:
    """(problems, paths reached to depth 2) of a walk from the named roots."""
    lua = "local FORBIDDEN = {" + ", ".join(f'"{k}"' for k in FORBIDDEN) + "}\nlocal ROOTS = " + roots + "\n" + WALK
    problems, reached = match.eval(lua)
    return problems, reached


@pytest.fixture(scope="module")
def opened_match(tmp_path_factory):
    """A Summoner Wars match whose rules hand a test their environment table, and whose
    scenario chunk leaves its own there: so a walk can start from every environment."""
    g = copy_game(tmp_path_factory.mktemp("opened"))
    edit(g.rules / "helpers.lua", "\n", "\n" + HOOK)
    game = load_game(str(g.rules))
    return Match(game, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True,
                 scenario=LuaSource("scenario", "rules_env_for_test().scenario_env_for_test = _ENV"))


ROOTS = """{{"_ENV", _ENV}, {"_G", _G}, {"rules", rules_env_for_test()},
           {"scenario", rules_env_for_test().scenario_env_for_test}}"""


def test_nothing_reachable_from_a_script_leads_out(opened_match):
    problems, reached = reachable(opened_match, ROOTS)
    assert problems == []
    # the walk went where it should: libraries, the engine API, the state, card data, scenario
    for path in ["_ENV.string", "_ENV.math", "_ENV.board", "_ENV.cards", "_ENV.defs", "_ENV.sets",
                 "rules.state", "rules.state.cards", "rules.scenario_env_for_test.scenario"]:
        assert path in reached, f"the walk never reached {path}"


def test_the_walk_finds_what_is_hidden_deep_or_behind_a_metatable(opened_match):
    problems, _ = reachable(opened_match, """{{"deep", {a = {b = {os = 1}}}},
                                             {"behind", setmetatable({}, {__index = {load = 1}})}}""")
    assert problems == ["deep.a.b.os", "behind<metatable>.__index.load"]
