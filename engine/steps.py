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
calls the engine (flow.lua, E.settle_steps), which charges the budget and checks Ctrl-C
and the time limit. The engine's own files take steps at loops only: their functions
call each other a great deal and recurse only as deep as the data, so steps at their
entries would cost much and guard nothing. Scripts' functions take one at entry as
well, so that recursion (and metamethods, which are calls) is counted.

Steps go into the text on the lines where the code is, so errors and tracebacks name
the same lines. The text is read with a tokenizer that knows Lua's strings, long
brackets, comments and numbers; it is only ever given text that Lua has just compiled
(luac.compile_lua checks the text as written first), so it never has to guess.
"""
from __future__ import annotations

import re

COUNTER = "__summon_steps"   # the name of the counter in every compiled chunk: no script may use it
_C = COUNTER
STEP = f" {_C}.n = {_C}.n - 1 if {_C}.n < 0 then {_C}.out() end "
HEAD = f"local {_C} = ...; return (function(_, ...) "
TAIL = "\nend)(...)"

_LONG_BRACKET = re.compile(r"\[(=*)\[")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEX_NUMBER = re.compile(r"0[xX](?:[pP][+-]?|[0-9a-fA-F.])*")
_NUMBER = re.compile(r"(?:[eE][+-]?|[0-9a-fA-F.])*")


class Reserved(Exception):
    """A text names the counter; .line is the 1-based line in the text."""

    def __init__(self, line: int):
        super().__init__(f"the name {COUNTER} is the engine's own: a script may not use it")
        self.line = line


def _long_end(src: str, i: int) -> int | None:
    """Where the long bracket opening at i ([[ or [==[) ends, past its closing bracket."""
    m = _LONG_BRACKET.match(src, i)
    if not m:
        return None
    j = src.find("]" + m.group(1) + "]", m.end())
    return len(src) if j < 0 else j + len(m.group(1)) + 2


def tokens(src: str):
    """(kind, start, end) of the tokens metering needs: "name" (names and keywords), "(", ")".

    Strings, comments and numbers are skipped, and so is punctuation that does not matter
    here; the text is valid Lua (it has just compiled), so nothing has to be guessed."""
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "-" and src.startswith("--", i):
            end = _long_end(src, i + 2)
            if end is None:
                j = src.find("\n", i)
                end = n if j < 0 else j
            i = end
        elif c == "[":
            end = _long_end(src, i)
            i = i + 1 if end is None else end
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j + 1
        elif c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = _HEX_NUMBER.match(src, i) if src.startswith(("0x", "0X"), i) else None
            i = m.end() if m else _NUMBER.match(src, i + 1).end()
        elif c.isalpha() or c == "_":
            end = _NAME.match(src, i).end()
            yield ("name", i, end)
            i = end
        else:
            if c == "(" or c == ")":
                yield (c, i, i + 1)
            i += 1


def meter(src: str, *, calls: bool = True) -> str:
    """The text with steps written in (see the module's docstring), as a chunk that takes
    the counter as its first argument and passes the rest on as `...`.

    calls: a step at the start of every function body too (scripts); without it, only at
    loops and gotos (the engine's own files). Raises Reserved if the text names COUNTER."""
    toks = list(tokens(src))
    at: list[tuple[int, bool]] = []     # (position, True: the step goes before the token there)
    for k, (kind, a, b) in enumerate(toks):
        if kind != "name":
            continue
        word = src[a:b]
        if word == "do" or word == "repeat":
            at.append((b, False))
        elif word == "goto":
            at.append((a, True))
        elif word == "function" and calls:
            # the parameter list is the first ( after the keyword, and has no ( inside
            j = next((j for j in range(k + 1, len(toks)) if toks[j][0] == ")"), None)
            if j is not None:
                at.append((toks[j][2], False))
        elif word == COUNTER:
            raise Reserved(src.count("\n", 0, a) + 1)
    at.sort()
    out, last = [HEAD], 0
    for pos, _ in at:
        out.append(src[last:pos])
        out.append(STEP)
        last = pos
    out.append(src[last:])
    out.append(TAIL)
    return "".join(out)


def plain(src: str) -> str:
    """The text as a chunk of the same shape as meter's, with no steps (benchmarks measure
    what the steps cost with it)."""
    for kind, a, b in tokens(src):
        if kind == "name" and src[a:b] == COUNTER:
            raise Reserved(src.count("\n", 0, a) + 1)
    return HEAD + src + TAIL
