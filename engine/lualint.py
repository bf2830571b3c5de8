"""What a script names, read with a Lua parser (luaparser), checked against what its kind of
script can see: unknown globals, unknown fields of engine tables and options, pairs() over a
table that cannot be listed, and a card's script that sets a global (`summon check`). The
same reading gives the calls of global functions and of fields of global tables with their
arguments, which engine/lint.py checks at every load (names of events, zones, counters...).

Parsing is the slow part, so each text is parsed and scanned once (by its content's digest):
in memory for the process, and on disk in the user's cache folder (`$SUMMON_CACHE`, else
`$XDG_CACHE_HOME/summon` or `~/.cache/summon`; SUMMON_CACHE set to nothing turns it off),
so a game loads without parsing texts it has read before and checking again after an edit,
as a designer does between hot reloads, parses only the texts that changed. A cache that
cannot be read or written is passed over. What a script can see comes from the live
environments the engine builds (Runtime.script_shapes), never from a list.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import Problem
from .luac import first_line
from .names import did_you_mean, nearest

_FORMAT_SPEC = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")

# How a message names the fields of these engine tables (the others: "<table> has no field").
_FIELD_WORDS = {"options": "option", "defs": "card"}
_ITERATORS = ("pairs", "ipairs", "next")
_COMPARED = ("phase", "zone")   # fields whose comparisons with a text are recorded ("compare" uses)


@dataclass(frozen=True)
class Use:
    """One thing a script does with a global, at a 1-based line and column of its text."""

    kind: str        # "read", "write" (`field` "function": a global function statement at the
    #                  text's top level), "field" (name.field), "iterate" (pairs(name)), "compare"
    #                  (see below), "unused" (a local given a value and never read: its name; in
    #                  `field`, "return" when it is in a function with no return at its body's level),
    #                  "emit" (emit("name", {...}): the event's name; in `field` the table's keys
    #                  joined by ",", or "?" when the data is no table written out), "event" (a
    #                  field of an event read or set by a function that hears it: its name; `field`
    #                  "r" or "w"; in `locals`, ("on:NAME",) for on("NAME", function(ev) ...) or
    #                  ("return",) for the second parameter of the function a text returns, as a
    #                  card's hook is) or "setfield" (a field set by assignment, x.name = ...)
    #                  (x.phase == "text", x.zone ~= "text": the text, its field in `field`,
    #                  locals ("card",) when x is a card by its usual names: self, c, card, ev.card),
    #                  (`field` "" for a card compared with a text, locals ("self",) or
    #                  ("ev.card",): self == "pawn", ev.card == "pawn" in a function hearing an event;
    #                  for a local given the card so, local c = ev.card ... c == "pawn", the
    #                  local's name after it: ("ev.card", "c"); `field` "id" for such a card
    #                  compared with a number or an id, ev.card == self.id: the other side as
    #                  written, locals as for a text; `field` "choice" for a local given what
    #                  choose returns (a table) compared with a text: the local's name in locals),
    #                  "member" (a field read on any table: x.name, x:name()) or "define"
    #                  (a field name the text sets or spells out: {name = ..}, x.name = .., "name"),
    #                  "defread" (a field read from a card's definition: cards.def(c).name,
    #                  defs[c.def].name, or a local given one, local d = cards.def(c) ... d.name;
    #                  `field` "cards.def" for these, or the name of the global function called
    #                  with the card, f(c).name, that is one when f returns cards.def of its first
    #                  parameter ("defwrap"); locals: the card as written (or ""), then what the read is
    #                  in, outermost first: the name of each function by name, "" for others; none
    #                  is recorded in a function given to add_modifier as written there),
    #                  "defwrap" (a global function returning the definition of its first parameter,
    #                  function f(c) return cards.def(c) end: its name), "modfn" (a function given
    #                  by its name to add_modifier: the name) or "calls" (a function the text calls by
    #                  name, f(..), x.f(..), x:f(..): its name; `field` the function the call is in
    #                  by name, "<modifier>" in one given to add_modifier as written, "" elsewhere;
    #                  once for each pair)
    name: str
    line: int
    col: int
    field: str = ""  # for "field": the field; for "iterate": the iterating function; for
    #                  "member": the global the field is read on, "" for any other table
    locals: tuple = ()  # for "read" and a "write" by assignment: the locals in scope (for suggestions)


@dataclass(frozen=True)
class Arg:
    """One argument of a call: its text as written (each run of spaces and comments one
    space), and the string when the argument is a string literal ("x", 'x', [[x]])."""

    text: str
    name: str | None = None


@dataclass(frozen=True)
class Call:
    """A call of a global function (table "") or of a field of a global table (table.fn,
    table["fn"]), with or without parentheses around the function, at the 1-based line and
    column of its first token."""

    table: str
    fn: str
    args: tuple[Arg, ...]
    line: int
    col: int
    text: str   # the whole call as written, on one line (each run of spaces one space)
    head: str   # the function part of it: "counters.get", "emit"


@dataclass
class Scan:
    """What a text does with globals and the calls it makes, or why it could not be read."""

    uses: list[Use] = field(default_factory=list)
    error: str | None = None
    calls: list[Call] = field(default_factory=list)


_scans: dict[str, Scan] = {}
parses = 0   # how many texts were parsed in this process (tests read it to see the cache work)


def scan(code: str) -> Scan:
    """The uses of globals in a Lua text and its calls, parsed once for each distinct text
    (kept in memory, and on disk when a cache folder can be written)."""
    global parses
    key = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
    hit = _scans.get(key)
    if hit is None:
        hit = _disk_read(key)
        if hit is None:
            parses += 1
            hit = _scan(code)
            if hit.error is None:   # (an error is rare, and may come from this process alone)
                _disk_write(key, hit)
        if len(_scans) > 4096:   # a long session of reloads: keep the memory bounded
            _scans.clear()
        _scans[key] = hit
    return hit


# -- the cache on disk ----------------------------------------------------------------

_DISK_KEEP = 4096          # texts kept in the cache folder; the oldest go beyond it
_OLD_FOLDER_DAYS = 30      # a folder of another version of this checker, unused this long, goes
_disk_off = False          # writing failed once in this process: stop trying
_disk_pruned = False
_version: str | None = None


def cache_folder() -> Path | None:
    """Where scans are kept on disk, or None when SUMMON_CACHE is set to nothing. The last
    part names the version of this checker and of the parser, so a change to either never
    reads scans made by the other."""
    global _version
    env = os.environ.get("SUMMON_CACHE")
    if env is not None:
        if not env.strip():
            return None
        base = Path(env).expanduser()
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "summon"
    if _version is None:
        try:
            from importlib.metadata import version
            parser = version("luaparser")
        except Exception:
            parser = "?"
        h = hashlib.sha256(Path(__file__).read_bytes())
        h.update(parser.encode())
        _version = h.hexdigest()[:16]
    return base / f"lua-scan-{_version}"


def _disk_read(key: str) -> Scan | None:
    try:
        folder = cache_folder()
        if folder is None:
            return None
        data = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        return Scan([Use(k, n, line, col, f, tuple(loc)) for k, n, line, col, f, loc in data["uses"]],
                    calls=[Call(t, fn, tuple(Arg(*a) for a in args), line, col, text, head)
                           for t, fn, args, line, col, text, head in data["calls"]])
    except Exception:   # not there, or not a scan of ours: parse again
        return None


def _disk_write(key: str, sc: Scan) -> None:
    global _disk_off
    if _disk_off:
        return
    try:
        folder = cache_folder()
        if folder is None:
            return
        folder.mkdir(parents=True, exist_ok=True)
        _prune(folder)
        data = {"uses": [[u.kind, u.name, u.line, u.col, u.field, list(u.locals)] for u in sc.uses],
                "calls": [[c.table, c.fn, [[a.text, a.name] for a in c.args], c.line, c.col, c.text, c.head]
                          for c in sc.calls]}
        tmp = folder / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, folder / f"{key}.json")   # whole or not at all, for a reader at the same time
        finally:
            tmp.unlink(missing_ok=True)
    except (OSError, ValueError):   # a folder that cannot be written: keep to memory
        _disk_off = True


def _prune(folder: Path) -> None:
    """Once per process: the oldest scans beyond _DISK_KEEP go, and so do the folders of other
    versions of the checker that have not been written to for _OLD_FOLDER_DAYS."""
    global _disk_pruned
    if _disk_pruned:
        return
    _disk_pruned = True
    try:   # (another process may be pruning too: what it took is gone either way)
        files = list(folder.glob("*.json"))
        if len(files) > _DISK_KEEP:
            files.sort(key=lambda f: f.stat().st_mtime)
            for f in files[:len(files) - _DISK_KEEP // 2]:
                f.unlink(missing_ok=True)
        for other in folder.parent.glob("lua-scan-*"):
            if other != folder and other.is_dir() and time.time() - other.stat().st_mtime > _OLD_FOLDER_DAYS * 86400:
                for f in other.iterdir():
                    f.unlink(missing_ok=True)
                other.rmdir()
    except OSError:
        pass


def parse_stop(code: str) -> tuple[int, int] | None:
    """Where the parser stops reading Lua it cannot parse: (line, column), from 1; None when
    it reads it all or says no place."""
    try:
        from luaparser import ast
        with contextlib.redirect_stderr(io.StringIO()):
            ast.parse(code)
    except RecursionError:
        return None
    except Exception as e:   # (its syntax errors: "line L:C: ...", C from 0)
        m = re.search(r"line (\d+):(\d+)", str(e))
        return (int(m.group(1)), int(m.group(2)) + 1) if m else None
    return None


def _scan(code: str) -> Scan:
    try:
        from luaparser import ast
        with contextlib.redirect_stderr(io.StringIO()):   # its lexer prints what it cannot read
            tree = ast.parse(code)
    except RecursionError:
        return Scan(error="too deeply nested for the checker to read")
    except Exception as e:   # the parser's own errors; Lua's compiler reports syntax errors first
        return Scan(error=(str(e).splitlines() or [type(e).__name__])[0])
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            w = _Walker(_Tokens(code))
        w.block(tree.body, [set()])
        w.unread_locals()
    except RecursionError:
        return Scan(error="too deeply nested for the checker to read")
    except Exception as e:   # a tree of a shape this walker does not know: say so, never crash
        return Scan(error=f"{type(e).__name__}: {e}")
    return Scan(w.uses, calls=sorted(w.calls, key=lambda c: (c.line, c.col)))


class _Scope(set):
    """The names a block declares, and for the locals given a value there (local x = ...)
    which of them is read (_Local): a value set and never read is a note."""

    def __init__(self, body_of=None):
        super().__init__()
        self.decl: dict[str, _Local] = {}
        self.body_of = body_of   # the function (_Fn) this block is the body of, if any
        self.holds: dict[str, tuple] = {}   # what a local of the block holds, when known (_Walker.holding)


@dataclass(eq=False)
class _Fn:
    returns: bool = False


@dataclass(eq=False)
class _Local:
    name: str
    line: int
    col: int
    fn: _Fn | None      # the function whose body's own block declares it (None: a deeper block)
    group: list         # the _Locals of the same statement (local ok, err = ...)
    read: bool = False
    given: bool = True  # given a value: where declared, or later (local ok ... ok = x)


class _Tokens:
    """The text's names and punctuation with their positions, to place AST nodes the parser
    leaves without a token (luaparser gives tokens to some nodes only)."""

    def __init__(self, code: str):
        from antlr4 import CommonTokenStream, InputStream
        from luaparser.parser.LuaLexer import LuaLexer
        stream = CommonTokenStream(LuaLexer(InputStream(code)))
        stream.fill()
        self.list = [t for t in stream.tokens if t.channel == 0 and t.type != -1]
        self.at = {t.start: i for i, t in enumerate(self.list)}

    def index(self, token) -> int | None:
        return None if token is None else self.at.get(token.start)

    def near(self, anchor: int | None, text: str, forward: bool) -> tuple[int, int] | None:
        """(line, 1-based column) of the token `text` nearest the anchor, looking one way first."""
        if anchor is None:
            return None
        ahead = range(anchor, len(self.list))
        behind = range(anchor, -1, -1)
        for order in ((ahead, behind) if forward else (behind, ahead)):
            for i in order:
                if self.list[i].text == text:
                    t = self.list[i]
                    return t.line, t.column + 1
        return None

    # -- calls -------------------------------------------------------------

    def opener(self, close: int) -> int | None:
        """The index of the bracket that the bracket at index close closes."""
        depth = 0
        for i in range(close, -1, -1):
            t = self.list[i].text
            if t in _CLOSE:
                depth += 1
            elif t in _OPEN:
                depth -= 1
                if depth == 0:
                    return i
        return None

    def start(self, i: int) -> int | None:
        """The first token of the name or bracketed group that ends at token i."""
        if i < 0:
            return None
        return self.opener(i) if self.list[i].text in _CLOSE else i

    def pieces(self, first: int, end: int) -> list[tuple[int, int]]:
        """The comma-separated expressions of tokens first to end (not included), each as
        (first, end): commas inside brackets or inside a function's body do not count."""
        if first >= end:
            return []
        out, depth, begin = [], 0, first
        for i in range(first, end):
            t = self.list[i].text
            if t in _OPEN or t in _BLOCK_OPEN:
                depth += 1
            elif t in _CLOSE or t in _BLOCK_CLOSE:
                depth -= 1
            elif t == "," and depth == 0:
                out.append((begin, i))
                begin = i + 1
        out.append((begin, end))
        return out

    def text(self, first: int, last: int) -> str:
        """Tokens first to last as written, with one space where spaces or comments were."""
        parts = []
        for i in range(first, last + 1):
            t = self.list[i]
            if i > first and t.start > self.list[i - 1].stop + 1:
                parts.append(" ")
            parts.append(t.text)
        return "".join(parts)


_OPEN, _CLOSE = ("(", "[", "{"), (")", "]", "}")
_BLOCK_OPEN, _BLOCK_CLOSE = ("function", "do", "if", "repeat"), ("end", "until")   # while/for count at `do`


class _Walker:
    """Walks the tree with the locals in scope; records reads and writes of globals."""

    def __init__(self, tokens: _Tokens):
        self.tokens = tokens
        self.uses: list[Use] = []
        self.calls: list[Call] = []
        self.defined: set[tuple[str, str]] = set()
        self.anchor: int | None = 0     # the last token seen, to place nodes without one
        self.fns: list[_Fn] = [_Fn()]   # the functions being walked, innermost last
        self.assigning: list[_Local] = []   # the locals an assignment being walked sets
        self.hearing: list[tuple] = []  # (params' scope, the event's parameter, what it hears), innermost last
        self.next_hearer: tuple | None = None   # (function node, parameter index, what it hears)
        self.locals: list[_Local] = []  # every local given a value, in order
        self.labels: list[str] = []     # the functions being walked, by name ("" none, "<modifier>")
        self.modifier_fns: set[int] = set()   # ids of the function nodes given to add_modifier
        self.next_name: tuple | None = None   # (function node, the name a local assignment gives it)
        self.edges: set[tuple] = set()   # (caller, callee, root) recorded as "calls"

    # -- positions ---------------------------------------------------------

    def _see(self, node) -> None:
        i = self.tokens.index(getattr(node, "first_token", None))
        if i is not None:
            self.anchor = i

    def where(self, node, text: str, forward: bool = True) -> tuple[int, int]:
        tok = getattr(node, "first_token", None)
        if tok is not None and tok.text == text:
            return tok.line, tok.column + 1
        return self.tokens.near(self.anchor, text, forward) or (1, 1)

    # -- scopes ------------------------------------------------------------

    @staticmethod
    def is_local(name: str, scopes: list[set]) -> bool:
        return name == "_ENV" or any(name in s for s in scopes)

    def block(self, block, scopes: list[set], body_of: _Fn | None = None) -> None:
        scopes = scopes + [_Scope(body_of)]
        for st in block.body:
            self.stmt(st, scopes)

    def function(self, args, body, scopes: list[set], extra: tuple = (), node=None, name: str = "") -> None:
        from luaparser import astnodes as A
        names = {a.id for a in args if isinstance(a, A.Name)} | set(extra)
        if node is not None and id(node) in self.modifier_fns:
            name = "<modifier>"
        elif node is not None and self.next_name is not None and self.next_name[0] is node:
            name, self.next_name = self.next_name[1], None
        self.labels.append(name)
        hears = self.next_hearer is not None and self.next_hearer[0] is node and node is not None
        if hears:
            _, index, what = self.next_hearer
            self.next_hearer = None
            param = args[index] if index < len(args) and isinstance(args[index], A.Name) else None
            hears = param is not None
            if hears:
                self.hearing.append((names, param.id, what))
        self.fns.append(_Fn())
        self.block(body, scopes + [names], self.fns[-1])
        self.fns.pop()
        self.labels.pop()
        if hears:
            self.hearing.pop()

    # -- what a local holds: a card, a card's definition ------------------------

    @staticmethod
    def holding(name: str, scopes: list[set]) -> tuple:
        """What the local a name reads holds: ("card", "self" or "ev.card"), ("def", how
        it was got, the card as written) or ("defwrap",) (a local function returning the
        definition of its first parameter); () when not known or not a local given so."""
        for s in reversed(scopes):
            if name in s:
                return s.holds.get(name, ()) if isinstance(s, _Scope) else ()
        return ()

    @staticmethod
    def hold(name: str, scopes: list[set], what: tuple) -> None:
        """A local given a value later (x = ...): what it holds now."""
        for s in reversed(scopes):
            if name in s:
                if isinstance(s, _Scope):
                    if what:
                        s.holds[name] = what
                    else:
                        s.holds.pop(name, None)
                return

    def held(self, node, scopes: list[set]) -> tuple:
        """What an expression holds, as holding() says of a local."""
        from luaparser import astnodes as A
        side = self.card_side(node, scopes)
        if side:
            return ("card", side)
        if isinstance(node, A.Name) and self.is_local(node.id, scopes):
            return self.holding(node.id, scopes)
        if (isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.func.id == "choose"
                and not self.is_local("choose", scopes)):
            return ("choice",)   # (the option picked: a table)
        return self.definition(node, scopes)

    def definition(self, node, scopes: list[set]) -> tuple:
        """("def", how, the card as written) when an expression is a card's definition:
        cards.def(c), defs[c.def] (how: "cards.def"), or f(c) for a global function f (how:
        its name: one when f returns the definition of its parameter) or a local one that
        does; a local holding one; else ()."""
        from luaparser import astnodes as A
        if isinstance(node, A.Name):
            held = self.holding(node.id, scopes) if self.is_local(node.id, scopes) else ()
            return held if held[:1] == ("def",) else ()
        if isinstance(node, A.Call) and len(node.args) == 1:
            fn = node.func
            if (isinstance(fn, A.Index) and isinstance(fn.value, A.Name) and fn.value.id == "cards"
                    and not self.is_local("cards", scopes) and _field_name(fn) == "def"):
                return ("def", "cards.def", _written(node.args[0]))
            if isinstance(fn, A.Name) and not self.is_local(fn.id, scopes):
                return ("def", fn.id, _written(node.args[0]))
            if isinstance(fn, A.Name) and self.holding(fn.id, scopes) == ("defwrap",):
                return ("def", "cards.def", _written(node.args[0]))
        if (isinstance(node, A.Index) and node.notation != A.IndexNotation.DOT and isinstance(node.value, A.Name)
                and node.value.id == "defs" and not self.is_local("defs", scopes)
                and isinstance(node.idx, A.Index) and _field_name(node.idx) == "def"):
            return ("def", "cards.def", _written(node.idx.value))
        return ()

    def wraps_definition(self, args, body, scopes: list[set]) -> bool:
        """Whether a function's body only returns the definition of its first parameter
        (function f(c) return cards.def(c) end)."""
        from luaparser import astnodes as A
        if not args or not isinstance(args[0], A.Name) or len(body.body) != 1 or not isinstance(body.body[0], A.Return):
            return False
        vals = body.body[0].values
        vals = vals if isinstance(vals, list) else [vals] if vals is not None else []
        inner = scopes + [{a.id for a in args if isinstance(a, A.Name)}]
        got = self.definition(vals[0], inner) if len(vals) == 1 else ()
        return got[:2] == ("def", "cards.def") and got[2] == args[0].id

    def card_side(self, node, scopes: list[set]) -> str:
        """"self" or "ev.card" when an expression is surely a card: self (in a card's script:
        the card), or the card of an event a function hears (ev.card); else ""."""
        from luaparser import astnodes as A
        if isinstance(node, A.Name) and node.id == "self":
            return "self"
        if (isinstance(node, A.Index) and node.notation == A.IndexNotation.DOT and isinstance(node.idx, A.Name)
                and node.idx.id == "card" and self.heard(node.value, scopes) is not None):
            return "ev.card"
        return ""

    def heard(self, node, scopes: list[set]) -> str | None:
        """What the event a name holds is, when it is the parameter of a function hearing one
        (and not a local of the same name within it)."""
        from luaparser import astnodes as A
        if not isinstance(node, A.Name):
            return None
        for params, param, what in reversed(self.hearing):
            if node.id == param:
                holder = next((s for s in reversed(scopes) if param in s), None)
                return what if holder is params else None
        return None

    def event_field(self, e, name: str | None, scopes: list[set], target: bool) -> None:
        """A field of the event a function hears (ev.name), read or set; name None: set by a
        name given as it runs (ev[k] = v), which may be any field."""
        what = self.heard(e.value, scopes)
        if what is None:
            return
        if name is None:
            self.uses.append(Use("event", "*", 0, 0, "w", (what,)))
            return
        token = getattr(e.idx, "first_token", None)   # (ev["name"]: its string's token)
        line, col = self.where(e.idx, token.text if token is not None else name, forward=True)
        self.uses.append(Use("event", name, line, col, "w" if target else "r", (what,)))

    @staticmethod
    def declare(scope: set, names, made: list | None = None) -> None:
        """Names a statement declares in scope; made: their _Locals (None: one not followed)."""
        for i, name in enumerate(names):
            scope.add(name)
            if isinstance(scope, _Scope):
                if made is not None and made[i] is not None and not name.startswith("_"):
                    scope.decl[name] = made[i]
                else:
                    scope.decl.pop(name, None)   # (a new local of the name hides the old one)

    @staticmethod
    def local_of(name: str, scopes: list[set]) -> _Local | None:
        """The _Local a name reads in these scopes, if it is one given a value."""
        for s in reversed(scopes):
            if name in s:
                return s.decl.get(name) if isinstance(s, _Scope) else None
        return None

    def read_local(self, name: str, scopes: list[set]) -> None:
        loc = self.local_of(name, scopes)
        if loc is not None and loc not in self.assigning:   # (n = n + 1 reads n for n alone)
            loc.read = True

    def unread_locals(self) -> None:
        """A "unused" use for each local given a value and never read. Of several set by one
        statement (local ok, err = pcall(f)), only when none of them is read."""
        for loc in self.locals:
            if loc.given and not any(x.read for x in loc.group) and not loc.name.startswith("_"):
                hint = "return" if loc.fn is not None and not loc.fn.returns else ""
                self.uses.append(Use("unused", loc.name, loc.line, loc.col, hint))

    def stmt(self, st, scopes: list[set]) -> None:
        from luaparser import astnodes as A
        self._see(st)
        if isinstance(st, A.LocalAssign):
            start = self.anchor
            if len(scopes) == 2 and len(self.fns) == 1:   # local base = f: the function kept, to wrap
                for v in st.values or []:
                    if isinstance(v, A.Name) and not self.is_local(v.id, scopes):
                        line, col = self.where(v, v.id)
                        self.uses.append(Use("alias", v.id, line, col))
            holds = [self.held(v, scopes) for v in st.values or []]
            for t, v in zip(st.targets, st.values or []):
                if isinstance(t, A.Name) and isinstance(v, A.AnonymousFunction):
                    self.next_name = (v, t.id)   # (local f = function ...: f by name)
            for v in st.values or []:
                self.expr(v, scopes)
            names = [t.id for t in st.targets if isinstance(t, A.Name)]
            made, after, self.anchor = [], self.anchor, start
            scope = scopes[-1]
            for t in st.targets:
                if isinstance(t, A.Name):
                    line, col = self.where(t, t.id)
                    made.append(_Local(t.id, line, col, getattr(scope, "body_of", None), made, given=bool(st.values)))
            self.anchor = after
            closing = {t.id for t in st.targets if isinstance(t, A.Name) and _attribute(t) == "close"}
            made = [None if m.name in closing else m for m in made]   # (a <close> local is kept to be closed)
            self.locals += [m for m in made if m is not None]
            self.declare(scopes[-1], names, made)
            for i, t in enumerate(st.targets):
                if isinstance(t, A.Name):
                    self.hold(t.id, scopes, holds[i] if i < len(holds) else ())
        elif isinstance(st, A.Assign):
            start = self.anchor
            if len(scopes) == 2 and len(self.fns) == 1:   # base_f = f (a global): the function kept, to wrap
                for v in st.values or []:
                    if isinstance(v, A.Name) and not self.is_local(v.id, scopes):
                        line, col = self.where(v, v.id)
                        self.uses.append(Use("alias", v.id, line, col))
            set_here = [self.local_of(t.id, scopes) for t in st.targets if isinstance(t, A.Name)]
            set_here = [loc for loc in set_here if loc is not None]
            self.assigning += set_here
            holds = [self.held(v, scopes) for v in st.values or []]
            for t, v in zip(st.targets, st.values or []):
                if isinstance(v, A.AnonymousFunction):   # (f = function ..., M.f = function ...: by name)
                    name = t.id if isinstance(t, A.Name) else _qualified(t) if isinstance(t, A.Index) else None
                    if name:
                        self.next_name = (v, name)
            for v in st.values or []:
                self.expr(v, scopes)
            del self.assigning[len(self.assigning) - len(set_here):]
            for i, t in enumerate(st.targets):
                if isinstance(t, A.Name) and self.is_local(t.id, scopes):
                    self.hold(t.id, scopes, holds[i] if i < len(holds) else ())
            for loc in set_here:
                loc.given = True
            for t in st.targets:
                if self.hearing and self.heard(t, scopes) is not None:   # (ev = ev.inner: another table)
                    self.uses.append(Use("event", "*", 0, 0, "w", (self.heard(t, scopes),)))
                if isinstance(t, A.Name):
                    if not self.is_local(t.id, scopes):
                        self.anchor = start    # the targets come first: look from the statement on
                        line, col = self.where(t, t.id)
                        self.uses.append(Use("write", t.id, line, col, locals=tuple(sorted(set().union(*scopes)))))
                elif isinstance(t, A.Index):
                    self.define(_field_name(t))
                    if _field_name(t) is not None:
                        self.uses.append(Use("setfield", _field_name(t), 0, 0))
                    self.expr(t, scopes, target=True)
                else:
                    self.expr(t, scopes)
        elif isinstance(st, A.LocalFunction):
            self.declare(scopes[-1], [st.name.id])
            self.hold(st.name.id, scopes, ("defwrap",) if self.wraps_definition(st.args, st.body, scopes) else ())
            self.function(st.args, st.body, scopes, name=st.name.id)
        elif isinstance(st, A.Function):
            name = ""
            if isinstance(st.name, A.Name):
                name = st.name.id
                if not self.is_local(st.name.id, scopes):
                    line, col = self.where(st.name, st.name.id)
                    top = len(scopes) == 2 and len(self.fns) == 1   # (at the text's top level)
                    self.uses.append(Use("write", st.name.id, line, col, "function" if top else ""))
                    if self.wraps_definition(st.args, st.body, scopes):
                        self.uses.append(Use("defwrap", st.name.id, line, col))
                else:
                    self.hold(name, scopes, ("defwrap",) if self.wraps_definition(st.args, st.body, scopes) else ())
            else:
                if isinstance(st.name, A.Index):
                    self.define(_field_name(st.name))
                    name = _qualified(st.name)
                self.expr(st.name, scopes, target=True)
            self.function(st.args, st.body, scopes, name=name)
        elif isinstance(st, A.Method):
            if isinstance(st.name, A.Name):
                self.define(st.name.id)
            self.expr(st.source, scopes)
            self.function(st.args, st.body, scopes, ("self",), name=st.name.id if isinstance(st.name, A.Name) else "")
        elif isinstance(st, A.Fornum):
            for e in (st.start, st.stop, st.step):
                if isinstance(e, A.Node):
                    self.expr(e, scopes)
            self.block(st.body, scopes + [{st.target.id}])
        elif isinstance(st, A.Forin):
            first = st.iter[0] if st.iter else None
            if (len(st.iter) > 1 and isinstance(first, A.Name) and first.id == "next"
                    and not self.is_local("next", scopes)):   # for k, v in next, t
                target = _target(st.iter[1], scopes, self)
                if target is not None:
                    line, col = self.where(first, "next")
                    self.uses.append(Use("iterate", target, line, col, "next"))
            for e in st.iter:
                self.expr(e, scopes)
            self.block(st.body, scopes + [{t.id for t in st.targets if isinstance(t, A.Name)}])
        elif isinstance(st, A.Repeat):   # `until` sees the body's locals
            inner = scopes + [_Scope()]
            for s in st.body.body:
                self.stmt(s, inner)
            self.expr(st.test, inner)
        elif isinstance(st, (A.While,)):
            self.expr(st.test, scopes)
            self.block(st.body, scopes)
        elif isinstance(st, (A.If, A.ElseIf)):
            self.expr(st.test, scopes)
            self.block(st.body, scopes)
            if isinstance(st.orelse, A.Block):
                self.block(st.orelse, scopes)
            elif st.orelse is not None:
                self.stmt(st.orelse, scopes)
        elif isinstance(st, A.Do):
            self.block(st.body, scopes)
        elif isinstance(st, A.Return):
            self.fns[-1].returns = True
            first = st.values[0] if isinstance(st.values, list) and st.values else st.values
            if isinstance(first, A.AnonymousFunction) and len(self.fns) == 1 and len(scopes) == 2:
                self.next_hearer = (first, 1, "return")   # (a card's hook: function(self, ev))
            vals = st.values if isinstance(st.values, list) else [st.values] if st.values is not None else []
            for v in vals:
                if isinstance(v, A.Node):
                    self.expr(v, scopes)
        elif isinstance(st, (A.Label, A.Goto, A.Break, A.SemiColon)):
            pass
        elif isinstance(st, A.Block):
            self.block(st, scopes)
        else:
            self.expr(st, scopes)   # calls and invocations

    def define(self, name: str | None, literal: bool = False, kind: str = "") -> None:
        """A field name the text sets or spells out, recorded once a text: field "'" for a
        string literal, ".." for a string joined to something ("slot" .. i: a piece of a
        name built), "%" for a format (not a name itself: what it may make one of)."""
        mark = kind or ("'" if literal else "")
        key = (name, mark)
        if name is not None and key not in self.defined:
            self.defined.add(key)
            self.uses.append(Use("define", name, 0, 0, mark))

    def member(self, name: str, node, on: str) -> None:
        """A field read by name (x.name, x:name()) at the name's own token."""
        line, col = self.where(node, name, forward=True)
        self.uses.append(Use("member", name, line, col, on))

    def called(self, fn, scopes: list[set], root: str | None = None) -> None:
        """A "calls" use, once a pair: the function called by name (f, x.f, x["f"], x:f; a
        field called once by its name and once as written, M.f) and the function by name the
        call is in; locals: the global a field's table hangs from (tokens in tokens.get(..), M
        in M:f()), else ()."""
        from luaparser import astnodes as A
        names = [fn.id] if isinstance(fn, A.Name) else [_field_name(fn), _written(fn)] if isinstance(fn, A.Index) else []
        if isinstance(fn, A.Index):
            root = self.root_global(fn.value, scopes)
        caller = self.labels[-1] if self.labels else ""
        for name in names:
            if name and (caller, name, root) not in self.edges:
                self.edges.add((caller, name, root))
                self.uses.append(Use("calls", name, 0, 0, caller, (root,) if root else ()))

    def root_global(self, node, scopes: list[set]) -> str:
        """The global a chain of fields starts from (M in M.a.b), or "" (a local, a call...)."""
        from luaparser import astnodes as A
        while isinstance(node, A.Index):
            node = node.value
        return node.id if isinstance(node, A.Name) and not self.is_local(node.id, scopes) else ""

    def expr(self, e, scopes: list[set], target: bool = False) -> None:
        """target: e is what an assignment sets (its last field is set, not read)."""
        from luaparser import astnodes as A
        if not isinstance(e, A.Node):
            return
        self._see(e)
        if isinstance(e, A.Name):
            if not self.is_local(e.id, scopes):
                line, col = self.where(e, e.id, forward=False)
                seen = tuple(sorted(set().union(*scopes)))
                self.uses.append(Use("read", e.id, line, col, locals=seen))
            else:
                self.read_local(e.id, scopes)
        elif isinstance(e, A.Index):
            fname = _field_name(e)
            on = ""
            if isinstance(e.value, A.Name) and not self.is_local(e.value.id, scopes):
                on = e.value.id
                line, col = self.where(e.value, e.value.id, forward=False)
                self.uses.append(Use("read", e.value.id, line, col, locals=tuple(sorted(set().union(*scopes)))))
                if fname is not None:
                    self.uses.append(Use("field", e.value.id, line, col, fname))
            else:
                self.expr(e.value, scopes)
                if self.hearing and isinstance(e.value, A.Name) and (fname is not None or target):
                    self.event_field(e, fname, scopes, target)
            if e.notation != A.IndexNotation.DOT:
                self.expr(e.idx, scopes)
            elif fname is not None and not target:
                self.member(fname, e.idx, on)
            if fname is not None and not target and "<modifier>" not in self.labels:
                got = self.definition(e.value, scopes)
                if got:
                    token = getattr(e.idx, "first_token", None)   # (d["name"]: its string's token)
                    text = token.text if token is not None else fname
                    line, col = self.where(e.idx, text, forward=True)
                    col += max(text.find(fname), 0)   # (at the name itself, within its quotes)
                    self.uses.append(Use("defread", fname, line, col, got[1], (got[2], *self.labels)))
        elif isinstance(e, A.Call):
            fn = e.func
            if isinstance(fn, A.Name) and fn.id in _ITERATORS and not self.is_local(fn.id, scopes) and e.args:
                target = _target(e.args[0], scopes, self)
                if target is not None:
                    line, col = self.where(fn, fn.id, forward=False)
                    self.uses.append(Use("iterate", target, line, col, fn.id))
            self.call(e, scopes)
            self.called(fn, scopes)
            if (isinstance(fn, A.Name) and fn.id == "add_modifier" and not self.is_local(fn.id, scopes)
                    and len(e.args) > 1):
                given = e.args[1]
                if isinstance(given, A.AnonymousFunction):
                    self.modifier_fns.add(id(given))
                elif isinstance(given, A.Name):
                    self.uses.append(Use("modfn", given.id, 0, 0))
                elif isinstance(given, A.Index) and _field_name(given):   # M.bonus: by its field's name
                    self.uses.append(Use("modfn", _qualified(given), 0, 0))
            if isinstance(fn, A.Name) and fn.id in ("emit", "on") and not self.is_local(fn.id, scopes) and e.args:
                self.event_call(fn.id, e)
            for a in e.args if self.hearing else ():   # (helper(ev), rawset(ev, k, v): it may set any field)
                what = self.heard(a, scopes)
                if what is not None:
                    self.uses.append(Use("event", "*", 0, 0, "w", (what,)))
            self.expr(fn, scopes)
            for a in e.args:
                self.expr(a, scopes)
        elif isinstance(e, A.Invoke):
            src = e.source
            on = ""
            if isinstance(src, A.Name) and isinstance(e.func, A.Name) and not self.is_local(src.id, scopes):
                on = src.id
                line, col = self.where(src, src.id, forward=False)   # board:nieghbors(s)
                self.uses.append(Use("field", src.id, line, col, e.func.id))
            self.expr(src, scopes)
            if isinstance(e.func, A.Name):
                self.member(e.func.id, e.func, on)
                self.called(e.func, scopes, self.root_global(src, scopes))
            for a in e.args:
                self.expr(a, scopes)
        elif isinstance(e, A.AnonymousFunction):
            self.function(e.args, e.body, scopes, node=e)
        elif isinstance(e, A.Table):
            for f in e.fields:
                if f.between_brackets:
                    self.expr(f.key, scopes)
                elif isinstance(f.key, A.Name):
                    self.define(f.key.id)
                self.expr(f.value, scopes)
        elif isinstance(e, A.String):
            text = _string(e)
            if text is not None and len(text) <= 64:
                if text.isidentifier():
                    self.define(text, literal=True)
                elif "%" in text and _FORMAT_SPEC.search(text) and re.search(r"\w", _FORMAT_SPEC.sub("", text)):
                    # ("%s_bonus" may format a name; "%q" or "%d%%" alone is no name's shape)
                    self.define(text, kind="%")
        elif isinstance(e, (A.Number, A.Nil, A.TrueExpr, A.FalseExpr, A.Varargs, A.Dots)):
            pass
        else:   # operators
            if isinstance(e, (A.EqToOp, A.NotEqToOp)):   # x.phase == "draw", c.zone ~= "hand:1"
                for field_side, text_side in ((e.left, e.right), (e.right, e.left)):
                    text = _string(text_side)
                    if (text is not None and isinstance(field_side, A.Index)
                            and field_side.notation == A.IndexNotation.DOT and isinstance(field_side.idx, A.Name)
                            and field_side.idx.id in _COMPARED):
                        line, col = self.where(text_side, getattr(getattr(text_side, "first_token", None), "text", ""))
                        card = _is_card(field_side.value)
                        self.uses.append(Use("compare", text, line, col, field_side.idx.id, ("card",) if card else ()))
                    elif text is not None and self.card_side(field_side, scopes):   # ev.card == "pawn"
                        line, col = self.where(text_side, getattr(getattr(text_side, "first_token", None), "text", ""))
                        self.uses.append(Use("compare", text, line, col, "", (self.card_side(field_side, scopes),)))
                    elif (text is not None and isinstance(field_side, A.Name)   # local c = ev.card ... c == "pawn"
                          and self.is_local(field_side.id, scopes)
                          and self.holding(field_side.id, scopes)[:1] == ("card",)):
                        line, col = self.where(text_side, getattr(getattr(text_side, "first_token", None), "text", ""))
                        side = self.holding(field_side.id, scopes)[1]
                        self.uses.append(Use("compare", text, line, col, "", (side, field_side.id)))
                    elif (text is not None and isinstance(field_side, A.Name)   # local pick = choose{..} ... pick == "Push"
                          and self.is_local(field_side.id, scopes)
                          and self.holding(field_side.id, scopes) == ("choice",)):
                        line, col = self.where(text_side, getattr(getattr(text_side, "first_token", None), "text", ""))
                        self.uses.append(Use("compare", text, line, col, "choice", (field_side.id,)))
                for card, other in ((e.left, e.right), (e.right, e.left)):   # ev.card == self.id, c == 3
                    is_id = (isinstance(other, A.Number) or (
                        isinstance(other, A.Index) and other.notation == A.IndexNotation.DOT
                        and isinstance(other.idx, A.Name) and other.idx.id == "id"))
                    held = self.held(card, scopes) if is_id else ()
                    if held[:1] == ("card",):
                        line, col = self.where(other, getattr(getattr(other, "first_token", None), "text", ""))
                        written = ((held[1],) if self.card_side(card, scopes)
                                   else (held[1], card.id) if isinstance(card, A.Name) else (held[1],))
                        shown = _written(other) or getattr(getattr(other, "first_token", None), "text", "")
                        self.uses.append(Use("compare", shown, line, col, "id", written))
                        break
            if isinstance(e, A.Concat):   # "slot" .. i, kind .. "_bonus": a piece of a name built
                for side in (e.left, e.right):
                    piece = _string(side)
                    if piece:
                        self.define(piece, kind="..")
            for k in ("left", "right", "operand"):
                sub = getattr(e, k, None)
                if isinstance(sub, A.Node):
                    self.expr(sub, scopes)

    def event_call(self, fn: str, e) -> None:
        """emit("name", {...}): the keys the event is given; on("name", function(ev) ...): its
        function hears the event."""
        from luaparser import astnodes as A
        name = _string(e.args[0])
        if name is None:
            return
        data = e.args[1] if len(e.args) > 1 else None
        if fn == "on":
            if isinstance(data, A.AnonymousFunction):
                self.next_hearer = (data, 0, "on:" + name)
            return
        keys: list[str] | None = []
        if data is not None and not isinstance(data, A.Table):
            keys = None
        for f in data.fields if isinstance(data, A.Table) else ():
            key = f.key.id if isinstance(f.key, A.Name) and not f.between_brackets else (
                _string(f.key) if f.between_brackets else None)
            if key is None:
                keys = None
                break
            keys.append(key)
        line, col = self.where(e.func, "emit", forward=False)
        self.uses.append(Use("emit", name, line, col, "?" if keys is None else ",".join(keys)))

    def call(self, e, scopes: list[set]) -> None:
        """Records a call of a global function or of a field of a global table, its
        arguments read from the tokens between its brackets."""
        from luaparser import astnodes as A
        fn = e.func
        if isinstance(fn, A.Name) and not self.is_local(fn.id, scopes):
            table, name = "", fn.id
        elif isinstance(fn, A.Index) and isinstance(fn.value, A.Name) and not self.is_local(fn.value.id, scopes):
            table = fn.value.id
            name = fn.idx.id if fn.notation == A.IndexNotation.DOT and isinstance(fn.idx, A.Name) else _string(fn.idx)
            if name is None:
                return
        else:
            return
        tk = self.tokens
        last = tk.index(e.last_token)
        if last is None:
            return
        if tk.list[last].text == ")":              # f(a, b)
            open_ = tk.opener(last)
            pieces = tk.pieces(open_ + 1, last) if open_ is not None else []
        else:                                      # f "s", f [[s]], f {t}
            open_ = tk.start(last)
            pieces = [(open_, last + 1)] if open_ is not None else []
        if open_ is None or len(pieces) != len(e.args) or open_ < 1:
            return   # not the shape the tree says: leave the call out rather than misread it
        end = open_ - 1   # the function's last token
        if getattr(fn, "wrapped", False) or isinstance(fn, A.Name):
            first = tk.start(end)              # emit, (emit), (counters.get)
        elif fn.notation == A.IndexNotation.DOT:
            first = tk.start(end - 2)          # counters.get, (counters).get
        else:
            at = tk.start(end)                 # counters["get"]
            first = tk.start(at - 1) if at is not None else None
        if first is None or first < 0:
            return
        args = tuple(Arg(tk.text(a, b - 1), _string(node)) for (a, b), node in zip(pieces, e.args))
        t = tk.list[first]
        whole = " ".join(tk.text(first, last).split())   # on one line, as a message shows it
        self.calls.append(Call(table, name, args, t.line, t.column + 1, whole, tk.text(first, end)))


def _attribute(name) -> str | None:
    """A local's attribute: "const", "close" or None (local x <close> = ...)."""
    attr = getattr(name, "attribute", None)
    inner = getattr(attr, "name", None)
    return getattr(inner, "id", None)


def _is_card(node) -> bool:
    """Whether an expression is a card by its usual names: self, c, card, x.card."""
    from luaparser import astnodes as A
    return (isinstance(node, A.Name) and node.id in ("self", "c", "card")) or (
        isinstance(node, A.Index) and node.notation == A.IndexNotation.DOT and isinstance(node.idx, A.Name)
        and node.idx.id == "card")


def _qualified(node) -> str:
    """A function's name given as a table's field, as written (M.f, a.b.f), or the field's
    name alone when it is not names joined by dots: what a modifier given so is known by."""
    return _written(node) or _field_name(node) or ""


def _written(node) -> str:
    """A card's expression as written when it is a name or names joined by dots (ev.card);
    else ""."""
    from luaparser import astnodes as A
    if isinstance(node, A.Name):
        return node.id
    if isinstance(node, A.Index) and node.notation == A.IndexNotation.DOT and isinstance(node.idx, A.Name):
        inner = _written(node.value)
        return f"{inner}.{node.idx.id}" if inner else ""
    return ""


def _field_name(index) -> str | None:
    """The field an index names: x.name, x["name"]; None for x[k]."""
    from luaparser import astnodes as A
    if index.notation == A.IndexNotation.DOT and isinstance(index.idx, A.Name):
        return index.idx.id
    return _string(index.idx)


def _string(node) -> str | None:
    """The value of a string literal, else None."""
    from luaparser import astnodes as A
    if isinstance(node, A.String):
        s = node.s
        s = s.decode("utf-8", "replace") if isinstance(s, bytes) else str(s)
        long = getattr(getattr(A, "StringDelimiter", None), "DOUBLE_SQUARE", None)
        if long is not None and getattr(node, "delimiter", None) == long and s[:1] in ("\n", "\r"):
            s = s[2:] if s[:2] in ("\r\n", "\n\r") else s[1:]   # Lua skips a newline that opens [[...]]
        return s
    return None


def _target(arg, scopes: list[set], w: _Walker) -> str | None:
    """The global (or global.field) a call's argument is, when it is one."""
    from luaparser import astnodes as A
    if isinstance(arg, A.Name) and not w.is_local(arg.id, scopes):
        return arg.id
    if isinstance(arg, A.Index) and isinstance(arg.value, A.Name) and not w.is_local(arg.value.id, scopes):
        f = arg.idx.id if arg.notation == A.IndexNotation.DOT and isinstance(arg.idx, A.Name) else _string(arg.idx)
        return f"{arg.value.id}.{f}" if f is not None else None
    return None


# -- problems -----------------------------------------------------------------------

def _is_short_for(name: str, candidate: str) -> bool:
    """Whether name abbreviates candidate word by word (cnt_left for count_left): as many
    words, each starting with the same letter and made of the candidate word's letters in order."""
    words, full = name.split("_"), candidate.split("_")
    if len(words) != len(full) or name == candidate:
        return False
    for w, f in zip(words, full):
        if not w or not f or w[0] != f[0]:
            return False
        it = iter(f)
        if not all(ch in it for ch in w):
            return False
    return True


def suggest(name: str, candidates) -> str:
    """" (did you mean 'x'?)": the nearest name by the engine's rule, else one it abbreviates."""
    candidates = sorted(candidates)
    hint = did_you_mean(name, candidates)
    if hint:
        return hint
    short = [c for c in candidates if _is_short_for(name, c)]
    return f" (did you mean '{short[0]}'?)" if short else ""


def unread_note(src) -> str | None:
    """A note for Lua that Lua compiles but the parser cannot read (a construct it does not
    know, such as a hexadecimal float), whose names are then not checked; else None."""
    start, code = first_line(src.source)
    sc = scan(code)
    if sc.error is None:
        return None
    return (f"{src.chunkname}:{start}: note: the checker cannot read this Lua ({sc.error}), so the names "
            f"it uses are not checked")


def unread_global_writes(rules, sources, mentioned: set[str]) -> list[tuple]:
    """(source, use, local) for each global the rules set by assignment that no script reads,
    when a local in scope there is close to its name: likely that local, misspelt
    (`bouns = 1` beside `local bonus`), as a global is made without a word."""
    read = set(mentioned)
    for src in sources:
        sc = scan(first_line(src.source)[1])
        if sc.error is not None:
            return []
        read.update(u.name for u in sc.uses if u.kind in ("read", "field", "iterate"))
        read.update(u.field for u in sc.uses if u.kind == "field" and u.name in ("_G", "_ENV"))   # (_G.x reads x)
    out = []
    for src in rules:
        for u in scan(first_line(src.source)[1]).uses:
            if u.kind == "write" and len(u.name) > 2 and u.locals and u.name not in read:
                near = nearest(u.name, [n for n in u.locals if len(n) > 2])
                if near is not None:
                    out.append((src, u, near))
    return out


def redefined_functions(rules) -> list[tuple]:
    """(source, use, earlier source, earlier use) for each global function that a rules
    text defines at its top level when one before it (in load order) already has: the later
    replaces the earlier for every script, which is rarely what its author meant."""
    first: dict[str, tuple] = {}
    out = []
    for src in rules:
        sc = scan(first_line(src.source)[1])
        uses = sc.uses if sc.error is None else []
        for u in uses:
            if u.kind == "write" and u.field == "function":
                wraps = any(r.kind == "alias" and r.name == u.name and r.line < u.line for r in uses)
                if u.name in first and not wraps:   # (local base = f ... function f(): a wrapper)
                    out.append((src, u) + first[u.name])
                else:
                    first.setdefault(u.name, (src, u))
    return out


def compared_names(sources) -> list[tuple]:
    """(source, use) for each comparison of a `.phase` or `.zone` field with a text, and of
    a card with a text, a number or an id."""
    out = []
    for src in sources:
        sc = scan(first_line(src.source)[1])
        out += [(src, u) for u in sc.uses if u.kind == "compare"] if sc.error is None else []
    return out


def definition_reads(rules, sources, is_modifier) -> list[tuple]:
    """(source, use) for each field the texts `sources` read from a card's definition
    ("defread": cards.def(c).name, or through a rules function returning cards.def of its
    parameter), save where the printed value may be the point: in a modifier (a text for
    which is_modifier(source) is true, a function given to add_modifier) and in what a
    modifier calls by name, however deep (a rules function, or a card's text whose last key
    is the name called: x.name(..)). Empty when a text cannot be read."""
    ruled, asked = {id(s) for s in rules}, {id(s) for s in sources}
    scans = []
    for src in list(rules) + [s for s in sources if id(s) not in ruled]:
        sc = scan(first_line(src.source)[1])
        if sc.error is not None:
            return []
        scans.append((src, sc))
    wraps = {u.name for src, sc in scans if id(src) in ruled for u in sc.uses if u.kind == "defwrap"}
    moded = {"<modifier>"} | {u.name for src, sc in scans if id(src) in ruled for u in sc.uses if u.kind == "modfn"}
    # a function given as a table's field is named as written (M.f) where that is known, and
    # by its field's name alone where it is called or given otherwise (M:f(), M["f"], an alias)
    def names(label: str) -> set[str]:
        return {label, label.rpartition(".")[2]}
    # (a field of a table the game's scripts do not make, the engine's tokens.get, names
    # no function of the game's: its name alone would exempt the game's own `get`)
    made = defined_globals(list(rules) + [s for s in sources if id(s) not in ruled])
    calls: dict[str, set[str]] = {}
    for src, sc in scans:
        whole = is_modifier(src)
        for u in sc.uses:
            if u.kind == "calls" and not (u.locals and u.locals[0] not in made):
                for caller in (["<modifier>"] if whole else names(u.field)):
                    calls.setdefault(caller, set()).add(u.name)
    todo = sorted(moded)
    while todo:   # (what a modifier calls, and what that calls...)
        for name in sorted(calls.get(todo.pop(), ())):
            if name not in moded:
                moded.add(name)
                todo.append(name)
    out = []
    for src, sc in scans:
        if id(src) not in asked or is_modifier(src) or (src.field and src.field[-1] in moded):
            continue
        out += [(src, u) for u in sc.uses if u.kind == "defread" and (u.field == "cards.def" or u.field in wraps)
                and not any(moded & names(label) for label in u.locals[1:])]
    return out


def defined_globals(sources) -> set[str]:
    """Globals the texts set anywhere (at top level or inside a function)."""
    out: set[str] = set()
    for src in sources:
        _, code = first_line(src.source)
        out |= {u.name for u in scan(code).uses if u.kind == "write"}
    return out


@dataclass
class Built:
    """How the texts may build names at run time: strings joined to something ("slot" .. i,
    kind .. "_bonus") and formats ("%s_%d")."""

    pieces: set[str] = field(default_factory=set)
    formats: list[re.Pattern] = field(default_factory=list)

    def could_make(self, name: str) -> bool:
        """Whether a field of this name may be one the texts build."""
        return (any(len(name) > len(p) and (name.startswith(p) or name.endswith(p)) for p in self.pieces)
                or any(f.fullmatch(name) for f in self.formats))


def _format_pattern(text: str) -> re.Pattern:
    """What string.format(text, ...) may give: each spec any text, the rest as written."""
    parts = _FORMAT_SPEC.split(text)
    return re.compile(".+".join(re.escape(part) for part in parts), re.S)


def defined_members(sources) -> tuple[set[str], Built] | None:
    """Field names the texts set or spell out (table keys, fields assigned, string
    literals), and how they build names at run time; None when one of them cannot be read."""
    out: set[str] = set()
    built = Built()
    for src in sources:
        _, code = first_line(src.source)
        sc = scan(code)
        if sc.error is not None:
            return None
        for u in sc.uses:
            if u.kind != "define":
                continue
            if u.field == "..":
                built.pieces.add(u.name)
            elif u.field == "%":
                built.formats.append(_format_pattern(u.name))
            else:
                out.add(u.name)
    return out, built


def osa_distance(a: str, b: str) -> int:
    """Edits from a to b, a swap of two letters side by side counting one (nmae: name)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


# The fields of the tables every game reads most, a card's and an event's (types/engine.lua:
# Card, Event): among equally close names, the one a misspelling most likely meant.
COMMON_FIELDS = frozenset({"id", "def", "name", "owner", "controller", "tokens", "under", "zone", "space",
                           "host", "face_down", "seen_by", "down_ref", "mark", "base", "event", "card",
                           "player"})


def nearest_field(name: str, candidates) -> str | None:
    """The known field a misspelt one likely meant: the fewest edits (a swap counting one),
    at most a third of the name's length (2 for short names); ties to a card's or an
    event's field, then the closest in length, then the first in order. Names of 2 letters
    or fewer are not offered."""
    best, key = None, None
    for c in sorted(candidates):
        if len(c) <= 2 or not c.isidentifier():
            continue
        d = osa_distance(name, c)
        k = (d, c not in COMMON_FIELDS, abs(len(c) - len(name)))
        if key is None or k < key:
            best, key = c, k
    if best is not None and key[0] <= max(2, len(name) // 3):
        return best
    return None


_engine_words: tuple[set[str], set[str]] | None = None


def engine_words() -> tuple[set[str], set[str]]:
    """Every name written anywhere in the engine's Lua (the fields of the tables it hands to
    scripts, cards, events and views, are among them), and the names it sets as fields
    (`{name = ..`, `.name = ..`), which are what a suggestion may offer."""
    global _engine_words
    if _engine_words is None:
        import re
        folder = Path(__file__).resolve().parent / "lua"
        texts = [f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.lua"))]
        words = {w for t in texts for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t)}
        fields = {w for t in texts for w in re.findall(r"(?:[{,]|\.)\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)", t)}
        _engine_words = (words, fields)
    return _engine_words


def problems(src, shape: dict, extra_globals: set[str], *, may_set: bool,
             file_lines: list[str] | None = None,
             members: tuple[set[str], set[str], "Built"] | None = None) -> list[Problem]:
    """The problems of one piece of Lua run with the environment `shape` (Runtime.script_shapes)
    plus extra_globals; may_set: whether it may set globals (rules and evaluations do; a card's
    script may not). file_lines: the lines of its file, to give columns in the file.
    members: every field name a table of the game may have (what its scripts and the engine
    set or spell out, its YAML's keys), those of them a suggestion may offer, and how the
    game builds names (Built); a field read by another name close to a known one is likely
    misspelt (None: not checked). Only these problems when members is given (field_notes)."""
    from .lint import _column, _file_line
    start, code = first_line(src.source)
    sc = scan(code)
    if sc.error is not None:
        return []   # Lua's own compiler took it (else the load would have stopped): see unread_note
    lines = code.splitlines()
    written = {u.name for u in sc.uses if u.kind == "write"}
    own = written if may_set else set()
    known = set(shape["globals"]) | extra_globals | own
    fields, unlisted = shape["fields"], shape["unlisted"]
    out = []

    def at(u: Use, text: str, message: str) -> None:
        line = u.line + start - 1
        src_line = lines[u.line - 1] if 0 < u.line <= len(lines) else ""
        col = _column(src_line, _file_line(file_lines, line), text, u.col)
        out.append(Problem(src.chunkname, line, col, message))

    for u in sc.uses:
        if members is not None and u.kind != "member":
            continue
        if u.kind == "read" and u.name not in known:
            if u.name in written:
                continue
            at(u, u.name, f"unknown name '{u.name}': no local or global of that name"
                          f"{suggest(u.name, known | set(u.locals))}")
        elif u.kind == "write" and not may_set:
            at(u, u.name, f"a card's script cannot set the global '{u.name}' (each card has its own "
                          f"globals, and they last for the whole match): make it local")
        elif u.kind == "field" and u.name in fields and u.field not in fields[u.name]:
            names = sorted(fields[u.name])
            word = _FIELD_WORDS.get(u.name)
            what = f"no {word} called '{u.field}'" if word else f"{u.name} has no field '{u.field}'"
            at(u, u.name, f"{what}{suggest(u.field, names)}")
        elif (u.kind == "member" and members is not None and u.name not in members[0]
              and u.field not in fields   # (an engine table's fields: checked above)
              and len(u.name) >= 3 and not members[2].could_make(u.name)):
            near = nearest_field(u.name, members[1])
            if near is not None:   # (a name close to none is likelier made at run time than misspelt)
                at(u, u.name, f"no table of the game or the engine has a field '{u.name}' "
                              f"(did you mean '{near}'?)")
        elif u.kind == "iterate" and u.name in unlisted:
            call = f"{u.field}({u.name})" if u.field != "next" else f"next, {u.name}"
            at(u, u.field, f"{call} goes through nothing: {u.name} reads one entry at a time "
                           f"({u.name}[key]) and cannot be listed")
    return out
