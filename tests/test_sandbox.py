"""The sandbox against hostile scripts: each ends in the one error it must raise, or returns
the one harmless value it must return, and the host stays usable afterwards; and nothing a
script can reach, at any depth, leads out of the sandbox. (A script that loops for ever is
stopped by the instruction budget, which the cases check by its message, not by a clock.)

Work a library function does in C is charged to the budget by its size, so those cases end
with the budget's message too. Work inside single instructions on huge values (== and < on
long strings, lists of a million values) only the processor-time limit stops: those cases
run in a match whose limit is one second, and check the message, never the time taken."""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import DEADLINE, ROOT, copy_game, edit, position, summon
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


# (then where the script was: " at eval:1", or the file and line of a card's script)
TOO_LONG = Raises(r"script ran too long: more than \d+ steps \(loop turns and function calls\) before the next "
                  r"decision \(an endless loop\?\)( at \S+:\d+)?")
TOO_MUCH_WORK = Raises(r"script ran too long: more than \d+ steps' worth of work before the next "
                       r"decision \(library calls on large strings or tables\?\)( at \S+:\d+)?")
# (with where the script was after "decision", as for the budget)
TIME_LIMIT = ("script ran too long: it hit the time limit of {} s of processor time before the next decision"
              "{} (work on huge strings or long lists of values?); the time limit guards against runaway scripts "
              "and depends on the machine's speed: raise it with limits: {{seconds: N}} in game.yaml")
TOO_SLOW = fails(TIME_LIMIT.format(1, " at eval:1"))
ENGINE_OWNS = "this table belongs to the engine"
# (the game's own game.yaml named, as a path from where the tests run)
OUT_OF_MEMORY = Raises(r"a script ran out of memory: a match may use 256 MB \(limits: memory_mb in \S*game\.yaml\)")


def too_slow(fn: str, steps: str, size: int, repeated: int, where: str = "") -> Raises:
    """A pattern refused before it runs: `steps` is the bound as Lua prints it (%.3g)."""
    return fails(f"{where}{fn}: this pattern could take up to {steps} steps on a string of {size} characters "
                 f"(the limit is 1e+07; repeated items: {repeated})")


def too_much(fn: str, what: str, where: str = "eval:1: ") -> Raises:
    """Work refused before it starts: more than any budget could pay for."""
    return fails(f"{where}{fn}: {what} is more work than a script may do before the next decision")


def cannot_encode(why: str) -> str:
    return f"cannot encode the data: {why}"


TOO_MANY_VALUES = cannot_encode("it holds more than 1000000 values (a table referenced from many places "
                                "counts each time)")
TOO_MUCH_TEXT = cannot_encode("its text would be longer than 16 MB")
LYING_LEN = "local t = setmetatable({}, {__len = function() return 1e12 end}) "


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
    ("dump through a string", '("x").dump(print)', fails(
        "eval:1: a text has no field 'dump' (a text's fields are the string functions: s:upper(); a card's def "
        "is its id: cards.def(c) is its definition)")),
    ("a text's other fields are errors, not nil", 'local d = ("gem").strength', fails(
        "eval:1: a text has no field 'strength' (a text's fields are the string functions: s:upper(); a card's def "
        "is its id: cards.def(c) is its definition)")),
    ("string metatable", 'getmetatable("").__index.rep = nil', fails("eval:1: attempt to index a nil value")),
    ("string metatable raw", 'return getmetatable("x")', Returns([None])),
    ("setmetatable on engine api", "setmetatable(board, {})", fails(f"eval:1: setmetatable: {ENGINE_OWNS}")),
    ("change engine api", "board.distance = nil", fails("eval:1: cannot change board.distance: it belongs to the engine")),
    ("rawset on engine api", 'rawset(cards, "get", nil)', fails(f"eval:1: rawset: {ENGINE_OWNS}")),
    ("rawset on shared defs", 'rawset(defs, "svara", {})', fails(f"eval:1: rawset: {ENGINE_OWNS}")),
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
    # Lua ends a line comment at a carriage return too (old Mac line ends, a \r in YAML text)
    ("loop after a comment ended by \\r", "-- a note\rwhile true do end", TOO_LONG),
    ("function after a comment ended by \\r", "-- x\rlocal function f() return f() end return f()", TOO_LONG),
    ("repeat loop", "repeat local x = 1 until false", TOO_LONG),
    # no loop at all: the steps at function calls count the calls of a doubling recursion
    ("doubling recursion", "local function f(n) if n == 0 then return 0 end return f(n - 1) + f(n - 1) end "
                           "return f(60)", TOO_LONG),
    ("doubling through __index", "local t = setmetatable({}, {__index = function(s, k) if k > 100 then return 0 end "
                                 "return s[k + 1] + s[k + 1] end}) return t[1]", TOO_LONG),
    ("the step counter", "__summon_steps.n = 1e18 while true do end",
     fails("eval:1: the name __summon_steps is the engine's own: a script may not use it")),
    ("the step counter by _ENV", '_ENV["__summon_steps"] = {n = 1e18} while true do end', TOO_LONG),
    # (each chunk is a function of the counter: its parameter once was `_`, which scripts can name)
    ("the step counter by _", "return _", Returns([None])),
    ("pairs over two table keys with one id",
     "local t = {[{id = 1}] = 'a', [{id = 1}] = 'b'} for k in pairs(t) do end",
     fails("eval:1: pairs: two of a table's keys are tables with the same id (1): they have no order that is "
           "the same on every machine; key it by the cards themselves or by their ids")),
    ("the step counter's count by _", "_.n = math.maxinteger while true do end", nil_global("_", "index")),
    ("coroutine library", "coroutine.wrap(function() while true do end end)()", nil_global("coroutine")),
    ("many coroutines", "for i = 1, 1e6 do coroutine.create(print) end", nil_global("coroutine")),
    ("tail recursion", "local function f() return f() end return f()", TOO_LONG),
    ("deep recursion", "local function f(n) return 1 + f(n + 1) end return f(1)", fails("eval:1: stack overflow")),
    ("recursion through __index",
     "local t = setmetatable({}, {__index = function(s, k) return s[k] end}); return t.x",
     fails("eval:1: C stack overflow")),
    ("huge string.rep", 'return string.rep("x", 1e10)', fails("eval:1: string.rep: result of 10000000000 bytes is too large")),
    ("huge rep by method", 'return ("xy"):rep(1e9, ",")', fails("eval:1: string.rep: result of 2999999999 bytes is too large")),
    ("doubling concatenation", 'local s = "x" while true do s = s .. s end', OUT_OF_MEMORY),
    # (a table of 16 values a turn: memory runs out long before the steps)
    ("table growth", "local t = {} for i = 1, 1e10 do t[i] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16} end",
     OUT_OF_MEMORY),
    # `return f(...)` is a tail call: Lua keeps no frame for the line, but eval of one line names line 1
    ("catastrophic pattern", 'return string.find(string.rep("a", 1e5), ".-.-.-.-b")',
     too_slow("string.find", "2e+25", 100000, 4, "eval:1: ")),
    ("catastrophic pattern by method", 'return (("a"):rep(5e4)):match("(.-)(.-)(.-)c")',
     too_slow("string.match", "1.88e+19", 50000, 3, "eval:1: ")),
    ("gsub pattern", 'return string.gsub(string.rep("ab", 3e4), "(.*)(.*)(.*)x", "")',
     too_slow("string.gsub", "3.89e+19", 60000, 3, "eval:1: ")),
    # a metatable counts as it is when set: __mode given after would make a weak table, and
    # what that holds depends on when memory is collected, different on every run
    ("__mode given after setmetatable",
     'local mt = {} local w = setmetatable({}, mt) mt.__mode = "v" for i = 1, 100 do w[i] = {} end '
     "for step = 1, 300 do local junk = {} for j = 1, 100 do junk[j] = {step, j} end end "
     "local n = 0 for i = 1, 100 do if w[i] then n = n + 1 end end return n, getmetatable(w) == mt",
     Returns([100, True])),
    ("__gc finaliser", "setmetatable({}, {__gc = function() while true do end end})",
     fails("eval:1: setmetatable: __gc metamethods are not allowed in scripts")),
    ("__close loop", "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
     TOO_LONG),
    ("error with a table", "error({1, 2, 3})",
     fails('eval:1: a script raised an error value of type table (raise errors with a message: error("what went '
           'wrong"))')),
    # results are shown, never run: bad bytes become '?', metamethods are not called, cycles are cut
    ("invalid utf-8 result", 'return "\\xff\\xfe ok"', Returns(["?? ok"])),
    ("__tostring loop in result", "return setmetatable({}, {__tostring = function() while true do end end})",
     Returns([[]])),
    ("__pairs loop in result", "return setmetatable({a = 1}, {__pairs = function() while true do end end})",
     Returns([{"a": 1}])),
    ("cyclic result", "local t = {} t.t = t return t",
     Returns(["<cannot show: " + cannot_encode("it is nested more than 64 deep (a table inside itself?)") + ">"])),
    ("unpack bomb", "return select('#', table.unpack({}, 1, 1e8))", fails("eval:1: too many results to unpack")),
    ("format bomb", 'local s = string.format("%99999999d", 1)',
     fails("eval:1: invalid conversion specification: '%99999999d'")),
    ("emit of an event the game has not", 'emit("after_damag", {})',
     Raises(r"eval:1: emit: no event called 'after_damag' \(did you mean 'after_damage'\?\)")),
    ("choose outside a match step", 'return choose{player = 1, options = {"a", "b"}}',
     fails("eval:1: choose: a choice can only be asked while the match runs (not from the console or at load "
           "time)")),
]

# Library functions whose work is done in C, where the instruction count cannot see it: each
# is charged by the size of its work, or refuses work no budget could pay for. A table with a
# metatable is walked from Lua, where each step counts. (Statements, not `return`, so that
# the messages name the line.)
WORK_IN_C = [
    ("table.move of a huge range", "local t = table.move({}, 1, 1e12, 1, {})",
     too_much("table.move", "moving 1000000000000 elements")),
    ("table.insert through a lying __len", LYING_LEN + "table.insert(t, 1, 0)", TOO_LONG),
    ("table.remove through a lying __len", LYING_LEN + "table.remove(t, 1)", TOO_LONG),
    ("table.sort through a lying __len", LYING_LEN + "table.sort(t)", TOO_LONG),
    ("table.concat through a lying __len and a C __index",
     "local t = setmetatable({}, {__len = function() return 2^40 end, __index = tostring}) "
     "local s = table.concat(t)", too_much("table.concat", "joining 1099511627776 elements")),
    ("table.unpack through a lying __len", LYING_LEN + "local x = table.unpack(t)",
     fails("eval:1: too many results to unpack")),
    ("table.insert through a C __index",
     "local t = setmetatable({}, {__index = rawget, __len = function() return 1e9 end}) table.insert(t, 1, 0)",
     TOO_LONG),
    ("__len is read once", "local n = 0 local t = setmetatable({}, {__len = function() n = n + 1 "
     "return n == 1 and 1 or 1e12 end}) table.insert(t, 1, 0) return n", Returns([1])),
    ("shifting a long list again and again",
     "local t = {} for i = 1, 2e5 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end",
     TOO_MUCH_WORK),
    ("sorting a short list again and again", "local t = {} for i = 1, 100 do t[i] = -i end "
     "while true do table.sort(t) end", TOO_MUCH_WORK),
    ("sorting a long list again and again", "local t = {} for i = 1, 1e5 do t[i] = -i end "
     "while true do table.sort(t) end", TOO_LONG),
    # C's sort picks pivots from the clock for long lists out of balance: ties could move
    ("a long sort keeps ties in order", "local t = {} for i = 1, 500 do t[i] = {k = i % 3, i = i} end "
     "table.sort(t, function(a, b) return a.k < b.k end) return t[1].i, t[2].i, t[167].i, t[168].i, t[500].i",
     Returns([3, 6, 1, 4, 500])),
    ("%b on a long string", 'local s = ("("):rep(1e5) local i = s:find("%b()")',
     too_slow("string.find", "1e+10", 100000, 1, "eval:1: ")),
    ("plain string.find with a long needle",
     'local s, n = ("a"):rep(1e6), ("a"):rep(5e5) .. "b" local i = s:find(n, 1, true)',
     too_much("string.find", "searching 1000000 characters for a text of 500001")),
    ("long literal pattern on 16 MB", 'local s = ("a"):rep(16e6) local i = s:match(("a"):rep(999) .. "b")',
     too_slow("string.match", "1.6e+10", 16000000, 0, "eval:1: ")),
    ("long literal find on 16 MB", 'local s = ("a"):rep(16e6) local i = s:find(("a"):rep(999) .. "b")',
     too_much("string.find", "searching 16000000 characters for a text of 1000")),
    ("upper of 8 MB again and again", 'local s = ("x"):rep(8e6) while true do local u = s:upper() end',
     TOO_MUCH_WORK),
    ("format of 4 MB again and again",
     'local s = ("x"):rep(4e6) while true do local f = string.format("%s", s) end', TOO_MUCH_WORK),
    ("tonumber of a long text again and again",
     'local s = ("1"):rep(4e6) while true do local n = tonumber(s) end', TOO_MUCH_WORK),
    ("math.floor of a long number text again and again",
     'local s = ("1"):rep(4e6) while true do local n = math.floor(s) end', TOO_MUCH_WORK),
    ("math.max of long number texts again and again",
     'local s = ("1"):rep(4e6) while true do local n = math.max(s, s) end', TOO_MUCH_WORK),
    ("math.tointeger of a long text again and again",
     'local s = (" "):rep(4e6) .. "1" while true do local n = math.tointeger(s) end', TOO_MUCH_WORK),
    ("math.ult of a long number text again and again",
     'local s = ("0"):rep(4e6) .. "1" while true do local n = math.ult(s, 2) end', TOO_MUCH_WORK),
    ("select with a long number text as the count again and again",
     'local s = ("0"):rep(4e6) .. "1" while true do local x = select(s, 1) end', TOO_MUCH_WORK),
    ("string.sub with a long number text as the position again and again",
     'local s = ("0"):rep(4e6) .. "1" while true do local x = ("abc"):sub(s) end', TOO_MUCH_WORK),
    ("string.char with a long number text again and again",
     'local s = ("0"):rep(4e6) .. "65" while true do local x = string.char(s) end', TOO_MUCH_WORK),
    ("string.pack of a long number text again and again",
     'local s = ("0"):rep(4e6) .. "1" while true do local x = string.pack("i4", s) end', TOO_MUCH_WORK),
    ("select, sub, char and pack still read number texts",
     'return select(2, "a", "b"), select("#", 1, 2), ("hello"):sub("2", "3"), string.char("65"), '
     'string.unpack("i4", string.pack("i4", "7")), select(-1, 1, 2), select("2", 5, 6)',
     Returns(["b", 2, "el", "A", 7, 2, 6])),
    ("a bad select names the script's line", "return select(0)",
     fails("eval:1: bad argument #1 to 'select' (index out of range)")),
    ("arithmetic on a long number text again and again",
     'local s = ("1"):rep(4e6) while true do local n = s + 1 end', TOO_MUCH_WORK),
    ("arithmetic on text still reads it as a number, and its errors name the script's line",
     'return "10" + 1, "3" * "4", -"2", "7" // 2, "2" ^ 3, "7" % "4", "9" / 3, "5" - 1',
     Returns([11, 12, -2, 3, 8, 3, 3, 4])),
    ("arithmetic on text that is no number", 'local a = 1\nlocal b = "y" * 2',
     fails("eval:2: attempt to mul a 'string' with a 'number'")),
    ("tonumber with a long text as the base again and again",
     'local b = ("0"):rep(4e6) .. "10" while true do local n = tonumber("7", b) end', TOO_MUCH_WORK),
    ("a math error names the script's line", "local x = math.floor({})",
     fails("eval:1: bad argument #1 to 'math.floor' (number expected, got table)")),
    ("a math function still reads a number text",
     'return math.floor("2.5"), math.max("3", "12"), math.abs("-4"), math.max(1), math.min(3, 1, 2)',
     Returns([2, "3", 4, 1, 1])),
    ("a math function with no number says so", "local x = math.max()",
     fails("eval:1: bad argument #1 to 'math.max' (value expected)")),
    ("utf8.len of a long text again and again",
     'local s = ("x"):rep(4e6) while true do local n = utf8.len(s) end', TOO_MUCH_WORK),
    ("string.pack with a 2 GB field", 'local s = string.pack("c2147483647", "")',
     fails("eval:1: string.pack: result of 2147483647 bytes is too large")),
    ("string.rep of a number", "local s = string.rep(12345, 1e9)",
     fails("eval:1: string.rep: result of 5000000000 bytes is too large")),
    ("string.rep with a text count", 'local s = ("x"):rep("1e10")',
     fails("eval:1: string.rep: result of 10000000000 bytes is too large")),
    ("string.rep of nothing, many times", 'local s = (""):rep(1e18)',
     too_much("string.rep", "repeating a text 1000000000000000000 times")),
    ("string.byte of a million bytes", 'local s = ("x"):rep(1e6) local n = select("#", s:byte(1, -1))',
     fails("eval:1: string slice too long")),
    ("a library error names the script's line", 'local s = ("x"):rep({})',
     fails("eval:1: bad argument #2 to 'string.rep' (number expected, got table)")),
    ("a tail call's error names no wrong line", 'local function f()\n return ("x"):rep({})\nend\nlocal s = f()',
     fails("bad argument #2 to 'string.rep' (number expected, got table)")),
    ("read-only data through a Lua table function", 'local x = table.insert(defs.frost_mage.tags, "x")',
     fails("eval:1: cannot change 3: a card definition is read-only")),
    ("print of a long text again and again", 'local s = ("x"):rep(4e6) while true do print(s) end',
     TOO_MUCH_WORK),
]

# Results the host encodes (eval results here; snapshots and views below): bounded by the
# number of values and the length of the text, with a clear message.
ENCODING = [
    ("a DAG of 2^40 leaves as a result", "local t = {} for i = 1, 40 do t = {t, t} end return t",
     Returns([f"<cannot show: {TOO_MANY_VALUES}>"])),
    ("60 references to 4 MB of bad UTF-8", 'local s = ("\\xff"):rep(4e6) local t = {} '
     "for i = 1, 60 do t[i] = s end return t", Returns([f"<cannot show: {TOO_MUCH_TEXT}>"])),
    ("a stray continuation byte", 'return "\\x80abc", "caf\\xc3\\xa9\\x80!"', Returns(["?abc", "café?!"])),
    ("many results share one limit", 'local s = ("x"):rep(5e6) return s, s, s, s, s',
     Returns(["x" * 5000000] * 3 + [f"<cannot show: {TOO_MUCH_TEXT}>"] * 2)),
]

# Read-only views of the engine's tables never hand out the table behind them.
LEAKS = [
    ("the library behind string", "local _, lib = pairs(string) return lib", Returns([None])),
    ("replace string.format through pairs", "local it = pairs(string) local _, lib = it() "
     "return type(lib), pcall(function() string.format = nil end)",
     Returns(["function", False, "eval:1: cannot change string.format: it belongs to the engine"])),
    ("the table behind board", "local it, a, b = pairs(board) return type(it), a, b",
     Returns(["function", None, None])),
    ("the tables behind dice and counters", "local _, a = pairs(dice) local _, b = pairs(counters) return a, b",
     Returns([None, None])),
    ("a definition through pairs(defs)", "for id, d in pairs(defs) do d.cost = 0 end",
     fails("eval:1: cannot change cost: a card definition is read-only")),
    ("the table behind a definition", "local _, d = pairs(defs.frost_mage) return d", Returns([None])),
    ("a definition's tags through pairs", "for k, v in pairs(defs.frost_mage) do "
     "if k == 'tags' then v[1] = 'x' end end", fails("eval:1: cannot change 1: a card definition is read-only")),
    ("next, rawget and getmetatable of a view", "return next(string), rawget(board, 'distance'), "
     "getmetatable(defs), getmetatable(defs.frost_mage)", Returns([None, None, False, False])),
    ("the options behind options", "local _, o = pairs(options) return o", Returns([None])),
    # (every empty part of a definition is one view: a match reads dozens of definitions)
    ("an empty part of a definition", "local h = defs.frost_mage.hooks "
     "return #h, next(h), getmetatable(h), h == defs.ice_golem.abilities, pcall(function() h.x = 1 end)",
     Returns([0, None, False, True, False, "eval:1: cannot change x: a card definition is read-only"])),
    ("rawset into an empty part of a definition", "rawset(defs.frost_mage.hooks, 'x', 1)",
     fails("eval:1: rawset: this table belongs to the engine")),
    ("an error value from a view", 'local ok, e = pcall(function() board.distance = 1 end) return type(e)',
     Returns(["string"])),
]

CASES = ESCAPES + EXHAUSTION + WORK_IN_C + ENCODING + LEAKS

# Single instructions on huge values: the instruction count and the charges miss their work.
# These run in a match whose processor-time limit is one second.
IN_ONE_INSTRUCTION = [
    ("== on two 16 MB strings", 'local a, b = "x", "x" for i = 1, 24 do a = a .. a b = b .. b end '
     "while true do local _ = a == b end", TOO_SLOW),
    ("< on two long strings", 'local a, b = "x", "x" for i = 1, 22 do a = a .. a b = b .. b end '
     "while true do local _ = a < b end", TOO_SLOW),
    (".. of long strings", 'local a = "x" for i = 1, 22 do a = a .. a end while true do local b = a .. a end',
     TOO_SLOW),
    ("a hundred thousand values passed on", 'local function f(...) while true do local n = select("#", ...) end end '
     "f(table.unpack({}, 1, 1e5))", TOO_SLOW),
]


# The cases run in a worker process holding the match, so that a case whose bound has been
# lost fails after DEADLINE seconds instead of hanging the test run (work inside one C call
# cannot be interrupted from within).
WORKER = r"""
import dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
from engine.errors import EngineError
from engine.loader import load_game
from engine.match import Match, Seat
game = load_game("summoner_wars")
limits = json.loads(sys.argv[2])
if limits:
    game = dataclasses.replace(game, data={**game.data, "limits": {**(game.data.get("limits") or {}), **limits}})
match = Match(game, int(sys.argv[3]), [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
print("{}", flush=True)
for line in sys.stdin:
    name, args, kwargs = json.loads(line)
    try:
        out = {"ok": getattr(match, name)(*args, **kwargs)}
    except EngineError as e:
        out = {"error": str(e)}
    print(json.dumps(out), flush=True)
"""


class Worker:
    """A match in a process of its own: worker.eval(...), .options(), .state_hash(), .snapshot(),
    .view(p) as on a Match (a ScriptError raised there is raised here). A call that does not
    finish within DEADLINE seconds fails the test, and the next call gets a fresh match."""

    def __init__(self, seed: int = 1, **limits):
        import json

        self.json, self.argv = json, [sys.executable, "-c", WORKER, str(ROOT), json.dumps(limits), str(seed)]
        self.proc = None

    def _read(self, what: str) -> str:
        import select

        if not select.select([self.proc.stdout], [], [], DEADLINE)[0]:
            self.close()
            pytest.fail(f"{what} did not finish within {DEADLINE:.0f} s")
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            pytest.fail(f"the worker process died during {what}")
        return line

    def call(self, name: str, *args, **kwargs):
        if self.proc is None:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                         cwd=ROOT)
            self._read("starting the match")
        self.proc.stdin.write(self.json.dumps([name, list(args), kwargs]) + "\n")
        self.proc.stdin.flush()
        out = self.json.loads(self._read(f"{name}{args!r}"))
        if "error" in out:
            raise ScriptError(out["error"])
        return out["ok"]

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture(scope="module")
def match():
    w = Worker()
    yield w
    w.close()


def with_limits(game, **limits):
    """The game with engine limits changed, without going through game.yaml."""
    merged = dict(game.data.get("limits") or {}, **limits)
    return dataclasses.replace(game, data={**game.data, "limits": merged})


@pytest.fixture(scope="module")
def quick_match():
    """A match whose scripts may use one second of processor time per decision."""
    w = Worker(seconds=1)
    yield w
    w.close()


def assert_host_usable(match):
    assert match.eval('board.distance("a1", "b2")') == [2]
    assert match.options()
    match.state_hash()


def check_case(match, name, code, expect):
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


@pytest.mark.parametrize("name,code,expect", CASES, ids=[c[0] for c in CASES])
def test_hostile_script(match, name, code, expect):
    check_case(match, name, code, expect)


def test_an_event_storm_is_stopped_and_said(sw):
    """A listener that emits the event it hears: stopped at the engine's depth, said once."""
    m = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=LuaSource(
        "scenario", 'on("after_damage", function(ev) if ev.storm then emit("after_damage", ev) end end)'))
    check_case(m, "event storm", 'emit("after_damage", {storm = true})', Raises(
        r"scenario:1: events triggered each other more than 30 levels deep \(\.\.\. (after_damage -> )+after_damage\)"
        r"\n  in rules listener for after_damage, within itself 29 times more: something it does runs it again "
        r"\(a hook emitting the event it hears, a modifier asking for the stat it modifies\)"))


@pytest.mark.parametrize("name,code,expect", IN_ONE_INSTRUCTION, ids=[c[0] for c in IN_ONE_INSTRUCTION])
def test_work_inside_one_instruction_is_stopped_by_the_time_limit(quick_match, name, code, expect):
    check_case(quick_match, name, code, expect)


# A rule that does slow work inside single instructions, catches the error, then declares a
# winner: the time limit must stop the match there, never let it end.
SLOW_THEN_WIN = """    if round == 2 then
      pcall(function()
        local a, b = "x", "x"
        for i = 1, 24 do a = a .. a b = b .. b end
        while true do local _ = a == b end
      end)
      win(1, "the clock decided")
    end
"""


def test_the_time_limit_stops_a_match_and_never_decides_its_result(tmp_path):
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "slow"))
    edit(game / "game.yaml", "options:", "limits: {seconds: 1}\noptions:")
    edit(game / "tiny.lua", "  for _, p in ipairs(players.list()) do\n    local pawn",
         SLOW_THEN_WIN + "  for _, p in ipairs(players.list()) do\n    local pawn")
    r = summon("sim", str(game), "--games", "1", "--json")
    assert r.returncode == 1 and r.stdout == "", r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "wins" not in r.stderr
    line = next(i for i, text in enumerate((game / "tiny.lua").read_text().splitlines(), 1) if "while" in text)
    assert r.stderr.splitlines()[0] == "error: " + TIME_LIMIT.format(1, f" at {game / 'tiny.lua'}:{line}"), r.stderr


# Lists under 128 go to C's sort, longer ones to a merge sort in Lua (C's takes pivots from
# the clock there): an order function must behave the same for both.
ORDER_FUNCTIONS = [
    ("asks for a choice", 'function(a, b) choose{player = 1, options = {"x", "y"}} return a < b end',
     Raises(r"scenario:2: choose: a question cannot be asked from inside a function that Lua's library calls "
            r"back \(a __tostring, a string\.gsub replacement, a sort's order function\): ask before or after "
            r"that call\n  in scenario setup")),
    ("asks for a choice through __lt", None,
     Raises(r"scenario:2: choose: a question cannot be asked from inside a function that Lua's library calls "
            r"back \(a __tostring, a string\.gsub replacement, a sort's order function\): ask before or after "
            r"that call\n  in scenario setup")),
    ("raises an error", 'function(a, b) error("no order") end', Raises(r"scenario:2: no order\n  in scenario setup")),
    ("raises an error at its caller", 'function(a, b) error("no order", 2) end',
     Raises(r"scenario:3: no order\n  in scenario setup")),
    ("ends the game", 'function(a, b) win(2, "sorted out") end', "over"),
]


@pytest.mark.parametrize("n,list_mt", [(10, ""), (200, ""), (10, "setmetatable(t, {})"), (200, "setmetatable(t, {})")],
                         ids=["short", "long", "short with a metatable", "long with a metatable"])
@pytest.mark.parametrize("name,order,expect", ORDER_FUNCTIONS, ids=[c[0] for c in ORDER_FUNCTIONS])
def test_an_order_function_does_the_same_for_short_and_long_lists(sw, n, list_mt, name, order, expect):
    fill = f"local t = {{}} for i = 1, {n} do t[i] = -i end {list_mt}"
    if order is None:   # no order function: the elements' own __lt
        make = ("local mt = {__lt = function(a, b) choose{player = 1, options = {'x', 'y'}} return a.v < b.v end} "
                "for i = 1, #t do t[i] = setmetatable({v = t[i]}, mt) end")
        lua = f"{fill}\n{make}\ntable.sort(t)"
    else:
        lua = f"{fill}\nlocal order = {order}\ntable.sort(t, order)"
    if expect == "over":
        m = position(sw, lua, quiet=True)
        assert m.is_over and m.winner == 2 and m.snapshot()["result"] == "player 2 wins (sorted out)"
    else:
        with pytest.raises(ScriptError) as e:
            position(sw, lua, quiet=True)
        assert re.fullmatch(expect.pattern, str(e.value)), str(e.value)


@pytest.mark.parametrize("lua", [
    "local x = tostring(setmetatable({}, {__tostring = function()\n  return choose{player = 1, options = {'x', 'y'}}.label end}))",
    "local x = string.gsub('ab', '.', function()\n  return choose{player = 1, options = {'x', 'y'}}.label end)"],
    ids=["__tostring", "gsub"])
def test_a_choice_asked_inside_a_library_call_back_is_named_at_its_line(sw, lua):
    # Lua's own words were "attempt to yield across a C-call boundary", with no file or line
    with pytest.raises(ScriptError) as e:
        position(sw, lua, quiet=True)
    assert str(e.value).startswith("scenario:2: choose: a question cannot be asked from inside a function that "
                                   "Lua's library calls back"), str(e.value)


def test_a_tostring_that_returns_no_text_is_named_at_the_scripts_line(sw):
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    for call in ("tostring(t)", "print(t)", "say(t)"):
        with pytest.raises(ScriptError) as e:
            m.eval(f"local t = setmetatable({{}}, {{__tostring = function() return {{}} end}})\n{call}")
        assert str(e.value).startswith("eval:2: '__tostring' must return a string"), (call, str(e.value))
    # an error value that is no text reaches the script as it is (its text would hold an address)
    assert m.eval("local t = setmetatable({}, {__tostring = function() error({code = 7}) end})\n"
                  "local ok, e = pcall(tostring, t) return type(e), e.code") == ["table", 7]
    with pytest.raises(ScriptError) as e:
        m.eval("local t = setmetatable({}, {__tostring = function() error('boom', 0) end})\n"
               "return string.format('%s', t)")
    assert str(e.value).startswith("boom") and "portable.lua" not in str(e.value), str(e.value)


# Every way out that the design names (DESIGN.md, decision 7), and the resources a script
# could exhaust: each needs a case here. Counted from this list, not from the cases.
ROUTES = ["io", "os", "package", "require", "debug", "load", "loadstring", "dofile", "loadfile",
          "collectgarbage", "python", "string.dump", "math.random", "coroutine", "getmetatable",
          "setmetatable", "rawset", "rawget", "_ENV", "__gc", "__close", "while true", "goto",
          "string.rep", "string.find", "string.gsub", "table.unpack", "string.format", "emit",
          "table.move", "table.insert", "table.remove", "table.sort", "table.concat", "string.pack",
          "tonumber", "utf8.len", "upper", "__len", "__index", "%b", "pairs", "next", "print",
          "math.floor", "math.max", "math.tointeger", "math.ult"]


def test_the_corpus_covers_every_way_out():
    codes = [code for _, code, _ in CASES + IN_ONE_INSTRUCTION]
    missing = [r for r in ROUTES if not any(re.search(rf"(?<!\w){re.escape(r)}(?!\w)", c) for c in codes)]
    assert missing == [], f"no hostile case tries {missing}"
    names = [name for name, _, _ in CASES + IN_ONE_INSTRUCTION]
    assert len(set(names)) == len(names), "two cases share a name"
    assert len(CASES) >= 60


def test_memory_cap_stops_a_script_and_the_runtime_recovers(sw):
    m = Match(sw, 2, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"^a script ran out of memory: a match may use 256 MB "
                                          r"\(limits: memory_mb in \S*rules/summoner_wars/game\.yaml\)$"):
        m.eval('local s = ("x"):rep(1e6) local t = {} for i = 1, 1e9 do t[i] = s .. i end')
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


# -- Ctrl-C -------------------------------------------------------------------------------

def schema_max_steps() -> int:
    """The largest step budget game.yaml may ask for (the schema's maximum, if it has one)."""
    import json

    schema = json.loads((ROOT / "engine" / "schemas" / "game.schema.json").read_text())
    return schema["properties"]["limits"]["properties"]["steps"].get("maximum", 10 ** 12)


def cpu_seconds(pid: int) -> float:
    """Processor time a running process has used (Linux /proc)."""
    fields = (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1]).split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summon_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "repl", *args]


@pytest.fixture
def ctrl_c_heard():
    """Ctrl-C as a terminal delivers it. A test run started in the background of a
    non-interactive shell (`pytest &`, as some CI runners do) inherits SIGINT ignored,
    and so would every `summon` it starts: these tests would then see no Ctrl-C at all.
    Python's own handler is put back for the test (a child started meanwhile gets the
    default action) and the ignoring restored after."""
    before = signal.getsignal(signal.SIGINT)
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processor time from /proc")
def test_ctrl_c_stops_a_running_script(tmp_path, ctrl_c_heard):
    """`summon eval` of an endless loop, with the largest budget: Ctrl-C stops it, with a clear
    message. Ctrl-C is sent by processor time used, not after a fixed delay (see below)."""
    g = copy_game(tmp_path)
    edit(g.rules / "game.yaml", "  steps: 1000000", f"  steps: {schema_max_steps()}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def cpu_of(code: str) -> tuple[float, subprocess.CompletedProcess]:
        before = os.times()
        done = subprocess.run(summon_cmd("eval", str(g.rules), code), capture_output=True, text=True,
                              cwd=ROOT, env=env, timeout=DEADLINE)
        after = os.times()
        return (after.children_user - before.children_user) + (after.children_system - before.children_system), done

    # The script runs between the end of setup (a whole `summon eval` of `return 1`) and the
    # end of its budget (the same loop left alone): Ctrl-C is sent half way, in processor
    # time, so the test holds on a fast machine and on a loaded one alike.
    cpu_of("return 1")   # the first load parses the game's scripts into the cache (engine/lualint.py)
    setup, quick = cpu_of("return 1")
    assert quick.returncode == 0 and quick.stdout == "1\n", quick.stderr
    budget, alone = cpu_of("while true do end")
    assert alone.returncode == 1 and "script ran too long" in alone.stderr, alone.stderr
    send_at = (setup + budget) / 2
    proc = subprocess.Popen(summon_cmd("eval", str(g.rules), "while true do end"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        give_up = time.monotonic() + DEADLINE
        while cpu_seconds(proc.pid) < send_at:
            assert proc.poll() is None, "summon eval ended by itself"
            assert time.monotonic() < give_up, "summon eval never got going"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=DEADLINE)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (1, "", "error: stopped: Ctrl-C interrupted the script at eval:1\n")


def test_ctrl_c_leaves_the_match_at_its_last_decision(sw, ctrl_c_heard):
    """A SIGINT while a rule loops in a decision's step stops it with a clear error, and the
    match is as it was before that answer. The signal is sent only once one call into Lua has
    lasted half a second (a step takes milliseconds), seen from another thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    from engine.runtime import Runtime

    game = with_limits(sw, steps=schema_max_steps())
    m = Match(game, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True,
              scenario=LuaSource("scenario", 'on("phase_start", function() if state.vars.hang then '
                                             "while true do end end end)"))
    m.eval("state.vars.hang = true")
    main, done = threading.main_thread().ident, threading.Event()

    def lua_call():
        """The frame of the main thread's call into Lua, if it is in one."""
        frame = sys._current_frames().get(main)
        while frame is not None and frame.f_code is not Runtime._call.__code__:
            frame = frame.f_back
        return frame

    def interrupt():
        seen, since = None, 0.0
        while not done.wait(0.01):
            frame = lua_call()
            if frame is None or frame is not seen:
                seen, since = frame, time.monotonic()
            elif time.monotonic() - since > 0.5:
                os.kill(os.getpid(), signal.SIGINT)
                return

    t = threading.Thread(target=interrupt)
    t.start()
    try:
        with pytest.raises(ScriptError) as e:
            for _ in range(1000):             # answer until a step runs into the loop
                before = (m.decisions, m.options())
                m.answer(0)
    except KeyboardInterrupt:                 # (it must not stop the test run)
        pytest.fail("Ctrl-C reached Python as KeyboardInterrupt instead of stopping the script")
    finally:
        done.set()
        t.join()
    assert str(e.value).startswith("stopped: Ctrl-C interrupted the script at scenario:1\n  in ")
    # rebuilt from its log at its last decision (so without the console's state.vars.hang)
    assert (m.decisions, m.options()) == before
    assert m.state_hash() == m.restarted(m.answers)[0].state_hash()
    assert m.eval("return state.vars.hang") == [None]


# -- the host's own encoding of script data -------------------------------------------------

DAG = "local t = {} for i = 1, 20 do t = {t, t, t, t} end state.vars.dag = t"   # 4^20 = 2^40 leaves
BAD_TEXT = 'local s = ("\\xff"):rep(4e6) state.vars.bad = {} for i = 1, 60 do state.vars.bad[i] = s end'


# (each message names where in the state the data is: the table that holds most of it)
@pytest.mark.parametrize("setup,message", [(DAG, TOO_MANY_VALUES + ", at state.vars.dag"),
                                           (BAD_TEXT, TOO_MUCH_TEXT + ", at state.vars.bad")],
                         ids=["dag of 2^40 leaves", "60 references to 4 MB of bad UTF-8"])
def test_state_too_large_to_encode_gives_a_clear_error(setup, message):
    """Snapshots, hashes, views and the console's view of a seat all stop with the same
    message, and the match goes on once the data is gone."""
    m = Worker(seed=3)
    try:
        m.eval(setup)
        for read in (m.snapshot, m.state_hash, lambda: m.view(1), lambda: m.view(None)):
            with pytest.raises(ScriptError) as e:
                read()
            assert str(e.value) == message
        if setup == DAG:   # the console's copy of what a seat sees is bounded the same way
            with pytest.raises(ScriptError) as e:
                m.eval("return 1", seat=1)
            assert str(e.value) == ("cannot copy the data: it holds more than 1000000 values "
                                    "(a table referenced from many places counts each time)")
        m.eval("state.vars.dag, state.vars.bad = nil, nil")
        assert_host_usable(m)
    finally:
        m.close()


def test_a_saved_match_with_unencodable_state_still_saves_its_answers(sw, tmp_path):
    """A save is the log of answers, never the state: it stays small whatever scripts store."""
    m = Match(sw, 3, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.answer(0)
    m.eval(DAG)
    m.save(tmp_path / "save.json")
    assert (tmp_path / "save.json").stat().st_size < 10_000


def test_a_card_chunk_cannot_change_definitions_while_the_game_loads(tmp_path):
    """Inline Lua runs when the game loads, before definitions are frozen: `defs` hands it
    read-only views then too, through indexing and through pairs."""
    g = copy_game(tmp_path)
    edit(g.cards / "polar_dwarves.yaml", '''      after_move: |
        function(self, ev)''', '''      after_move: |
        (function()
          pcall(function() defs.frost_mage.cost = 99 end)
          pcall(function() for _, d in pairs(defs) do d.life = 99 end end)
          return function(self, ev) end
        end)() or function(self, ev)''')
    m = Match(load_game(str(g.rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    assert m.eval("return defs.frost_mage.cost, defs.dwarf_great_gate.life") == [1, 10]


# -- definitions made views when first read, card environments sharing the API --------

def test_pairs_over_defs_lists_every_card_before_any_is_read(sw):
    """A definition's read-only view is made the first time it is read (state.lua
    freeze_definitions): pairs(defs) in a fresh match still lists every card, the
    unplayed card sets' too, each as a view the same on every read."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    ids = m.eval("local ids = {} for id, d in pairs(defs) do ids[#ids + 1] = id .. ':' .. d.name end return ids")[0]
    assert sorted(i.split(":")[0] for i in ids) == sorted(sw.cards)
    assert all(i.split(":", 1)[1] == sw.cards[i.split(":")[0]].data["name"] for i in ids)
    court = next(c for c in sorted(sw.cards) if sw.cards[c].set_id == "veiled_court")
    assert m.eval(f"local a = defs.{court} return a == defs.{court}, rawequal(a, defs.{court}), "
                  f"pcall(function() a.cost = 0 end)") == [
        True, True, False, "eval:1: cannot change cost: a card definition is read-only"]


def test_a_card_environment_reads_the_api_and_keeps_its_own_globals(sw):
    """Every card chunk's environment reads the engine API through one shared table:
    pairs(_ENV) lists the API and the chunk's own globals, a global set in one chunk is
    not seen by another, and none can change the shared table."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    listed = m.eval("mine = 1 local seen = {} for k in pairs(_ENV) do seen[#seen + 1] = k end return seen")[0]
    assert {"cards", "board", "defs", "string", "choose", "mine", "_G"} <= set(listed)
    assert m.eval("return mine, type(cards), _G == _ENV, getmetatable(_ENV)") == [None, "table", True, False]
    assert m.eval("cards = 5 return cards") == [5]
    assert m.eval("return type(cards.def)") == ["function"]


def test_a_scripts_metatable_on_the_state_runs_no_code_outside_the_budget():
    """Views, evaluations and a seat's console walk the state from the host: a script's
    __pairs there is never called (the state's own entries are read), and an __index that
    loops is stopped by the budget, as in a script."""
    m = Worker(seed=3)
    try:
        # the engine's own part of the state takes no metatable at all
        for part in ("state", "state.zones", "state.cards", "state.cards[1]", "state.counters", "state.players"):
            with pytest.raises(ScriptError) as e:
                m.eval(f"setmetatable({part}, {{}})")
            assert "setmetatable: this table is the engine's part of the state" in str(e.value), part
        m.eval("state.vars.loop = setmetatable({1}, {__pairs = function() while true do end end})")
        assert m.view(1)["vars"]["loop"] == [1] and m.view(None)["cards"]
        assert -1 <= m.evaluate(1) <= 1 and m.eval("return #view.cards > 0", seat=1) == [True]
        # a zone's list may have one, and the views read it under the budget
        m.eval("setmetatable(state.zones[next(state.zones)], {__index = function() while true do end end})")
        for read in (lambda: m.view(1), lambda: m.evaluate(2), lambda: m.eval("return 1", seat=1)):
            with pytest.raises(ScriptError) as e:
                read()
            assert re.fullmatch(TOO_LONG.pattern, str(e.value)), str(e.value)
        m.eval("setmetatable(state.zones[next(state.zones)], nil)")
        assert_host_usable(m)
    finally:
        m.close()


TALLY = ("local add = {add = function(self, k) self.n = self.n + k end} "
         "state.tally = setmetatable({n = 0}, {__index = add}) "
         # (a metatable that hides itself from getmetatable is copied all the same)
         "state.locked = setmetatable({n = 0}, {__index = add, __metatable = 'locked'})")


def test_a_scripts_object_in_the_state_is_copied_by_forks_and_samples(sw):
    """A fork and a bot's sample copy a table with a script's metatable like any other: what
    they do to their copy never reaches the match (it did: such tables were shared)."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.keep_checkpoints()                   # (as a searching bot's match does)
    m.eval(TALLY + " state.marks = {[state.cards[1]] = true}")   # (and a card as a key)
    turn = m.clock()[0]
    while m.clock()[0] == turn:            # on to the next turn: a checkpoint copies the state there
        m.answer(len(m.options()) - 1)
    before = m.state_hash()
    for copy in (m.fork(), m.fork(), m.sample(1, 42), m.sample(2, 7)):
        copy.eval("state.tally:add(5) state.locked:add(5)")
        assert copy.eval("return state.tally.n, state.locked.n") == [5, 5]
        assert copy.eval("local c = next(state.marks) c.marked = true return rawequal(c, state.cards[1])") == [True]
    assert m.eval("return state.tally.n, state.locked.n") == [0, 0] and m.state_hash() == before


def test_two_keys_with_one_text_stop_the_encoding_the_same_way_every_time(sw):
    """1.5 and "1.5" both write the key "1.5": which value won depended on the order next
    gave, which differs between runs (so did the state's hash)."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.eval("state.vars.k = {[1.5] = 1, ['1.5'] = 2}")
    for read in (m.state_hash, m.snapshot):
        with pytest.raises(ScriptError) as e:
            read()
        assert str(e.value) == ('cannot encode a table with two keys that read the same as text ("1.5"): '
                                "a number and the same number as text, two tables with the same id, or two "
                                "tables or functions with none")
    # true and false, and cards, are keys of their own
    m.eval("state.vars.k = {[true] = 1, [false] = 2, [state.cards[1]] = 3, [state.cards[2]] = 4}")
    assert m.snapshot()["vars"]["k"] == {"<false>": 2, "<true>": 1, "<card 1>": 3, "<card 2>": 4}


def test_the_host_reads_the_clock_a_script_set_oddly_as_a_script_error(sw):
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.eval("state.turn = 'soon'")
    with pytest.raises(ScriptError, match=r"^state\.turn must be a whole number, not 'soon'$"):
        m.clock()
    for value, shown in (("1.5", "1.5"), ("math.huge", "inf"), ("nil", "nil"), ("true", "true"), ("2^60", "1.15")):
        m.eval(f"state.turn = 1 state.active = {value}")
        with pytest.raises(ScriptError, match=rf"^state\.active must be a whole number, not {re.escape(shown)}"):
            m.active
    m.eval("state.active = 2.0")
    assert m.active == 2


OPTION_OBJECTS = """
-- options as objects of a class whose __index loops (a script's own tables may have metatables)
local Option = {__index = function(t, k) while true do end end}
local plain_offer = summon_offer
function summon_offer(arg)
  local req = plain_offer(arg)
  if req then
    for i, o in ipairs(req.options) do
      if type(o) == "string" then o = {label = o} end
      req.options[i] = setmetatable(o, Option)
    end
  end
  return req
end
"""

HOST_READS_OPTIONS = r"""
import sys
sys.path.insert(0, sys.argv[1])
from engine.loader import load_game
from engine.match import Match, Seat
m = Match(load_game(sys.argv[2]), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
while not any(o.startswith("Summon ") for o in m.options()):
    m.answer(len(m.options()) - 1)
print(len(m.options()), m.option_warnings() == [""] * len(m.options()), m.index_of(m.options()[0]))
"""


def test_the_host_reads_options_that_are_a_scripts_objects_without_running_their_code(tmp_path):
    """The labels the host reads are those choose checked, under the budget; `warn` is read
    raw. (A script's __index ran from the host before, outside any budget: a hang.)"""
    g = copy_game(tmp_path, "summoner_wars")
    (g.rules / "abilities.lua").write_text((g.rules / "abilities.lua").read_text() + OPTION_OBJECTS)
    r = subprocess.run([sys.executable, "-c", HOST_READS_OPTIONS, str(ROOT), str(g.rules)], capture_output=True,
                       text=True, timeout=DEADLINE)
    assert r.returncode == 0, r.stderr
    n, warnings_plain, first = r.stdout.split()
    assert int(n) > 1 and warnings_plain == "True" and first == "0"


@pytest.mark.parametrize("key", ["state.cards[1]", "setmetatable({id = 99}, {})"], ids=["a card", "a script's object"])
def test_forks_copy_a_table_used_as_a_key(sw, key):
    """Every fork starts from the position's own copy, also from the eighth fork on, when
    its copies are made by a compiled copier: a key written through in one fork is not
    seen by the next, nor by the match."""
    m = Match(sw, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    m.keep_checkpoints()
    m.eval(f"local k = {key} k.hp = 5 state.keyed = {{[k] = true}}")
    turn = m.clock()[0]
    while m.clock()[0] == turn:            # on to the next turn: a checkpoint copies the state there
        m.answer(len(m.options()) - 1)
    before = m.state_hash()
    seen = [m.fork().eval("local k = next(state.keyed) local was = k.hp k.hp = 0 return was")[0] for _ in range(11)]
    assert seen == [5] * 11 and m.state_hash() == before
