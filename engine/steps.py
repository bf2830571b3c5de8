"""The step count: how the sandbox's budget counts the work a script does.

A Lua debug hook that counts instructions makes Lua 5.4 stop at every instruction,
whatever the count (about a quarter of the time of a bot game went there). Instead, the
text of every chunk is compiled with a *step* written into it at each place where a run
can come back to code it has already run: the start of every loop body (after `do` and
`repeat`), before every `goto`, and, in game and card scripts, at the start of every
function body. A run that never reaches one of those places is as long as its text, so
counting steps bounds every run, and the count is the same on any machine.

A step is a few Lua instructions on a counter the chunk receives as its first argument
(never a global, so no script can reach it): it counts down, and when it passes zero it
calls the engine (`settle` in flow.lua), which charges the budget and checks Ctrl-C
and the time limit. The engine's own files take steps at loops only: their functions
call each other a great deal and recurse only as deep as the data, so steps at their
entries would cost much and guard nothing. Scripts' functions take one at entry as
well, so that recursion (and metamethods, which are calls) is counted.

Steps go into the text on the lines where the code is, so errors and tracebacks name
the same lines. The text is read with a scanner that knows Lua's strings, long brackets
and comments; it is only ever given text that Lua has just compiled (luac.compile_lua
checks the text as written first), so it never has to guess.
"""
from __future__ import annotations

import re

COUNTER = "__summon_steps"   # the name of the counter in every compiled chunk: no script may use it
_C = COUNTER
STEP = f" {_C}.n = {_C}.n - 1 if {_C}.n < 0 then {_C}.out() end "
HEAD = f"local {_C} = ...; return (function({_C}, ...) "   # (no name a script may use: the counter again)
TAIL = "\nend)(...)"

# One pass over the text: comments and strings are matched whole (and passed over); the
# words that matter are matched as whole words (no name has one inside it: names are
# words, and keywords cannot follow a "."); everything else is skipped by the search.
_SKIP = r"""
    --\[(?P<c>=*)\[.*?\](?P=c)\]     # long comment
  | --[^\r\n]*                       # line comment (Lua ends one at either)
  | \[(?P<s>=*)\[.*?\](?P=s)\]       # long string
  | "(?:[^"\\]|\\.)*"               # short strings, escapes and all
  | '(?:[^'\\]|\\.)*'
"""
_WORDS = re.compile(_SKIP + r"| \b(?P<word>do|repeat|goto|function|" + COUNTER + r")\b", re.VERBOSE | re.DOTALL | re.ASCII)
_CLOSE = re.compile(_SKIP + r"| (?P<close>\))", re.VERBOSE | re.DOTALL | re.ASCII)


class Reserved(Exception):
    """A text names the counter; .line is the 1-based line in the text."""

    def __init__(self, line: int):
        super().__init__(f"the name {COUNTER} is the engine's own: a script may not use it")
        self.line = line


def words(src: str):
    """(word, start, end) of each `do`, `repeat`, `goto`, `function` and COUNTER in the code
    of the text (not in its strings or comments). The text is valid Lua (it has just
    compiled), so nothing has to be guessed."""
    for m in _WORDS.finditer(src):
        if m.group("word") is not None:
            yield m.group("word"), m.start(), m.end()


def _params_end(src: str, at: int) -> int | None:
    """Where the parameter list of the function whose keyword ends at `at` ends: past the
    first ) outside comments (a parameter list has no parentheses or strings inside)."""
    for m in _CLOSE.finditer(src, at):
        if m.group("close") is not None:
            return m.end()
    return None


def meter(src: str, *, calls: bool = True) -> str:
    """The text with steps written in (see the module's docstring), as a chunk that takes
    the counter as its first argument and passes the rest on as `...`.

    calls: a step at the start of every function body too (scripts); without it, only at
    loops and gotos (the engine's own files). Raises Reserved if the text names COUNTER."""
    at: list[int] = []
    for word, a, b in words(src):
        if word == "do" or word == "repeat":
            at.append(b)
        elif word == "goto":
            at.append(a)
        elif word == "function":
            if calls:
                end = _params_end(src, b)
                if end is not None:
                    at.append(end)
        else:
            raise Reserved(src.count("\n", 0, a) + 1)
    at.sort()
    out, last = [HEAD], 0
    for pos in at:
        out.append(src[last:pos])
        out.append(STEP)
        last = pos
    out.append(src[last:])
    out.append(TAIL)
    return "".join(out)


def plain(src: str) -> str:
    """The text as a chunk of the same shape as meter's, with no steps (benchmarks measure
    what the steps cost with it)."""
    for word, a, _ in words(src):
        if word == COUNTER:
            raise Reserved(src.count("\n", 0, a) + 1)
    return HEAD + src + TAIL
