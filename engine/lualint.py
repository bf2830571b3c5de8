"""What a script names, read with a Lua parser (luaparser), checked against what its kind of
script can see: unknown globals, unknown fields of engine tables and options, pairs() over a
table that cannot be listed, and a card's script that sets a global (`summon check`).

Parsing is the slow part, so each text is parsed and scanned once per process (by its
content's digest): checking again after an edit, as a designer does between hot reloads,
parses only the texts that changed. What a script can see
comes from the live environments the engine builds (Runtime.script_shapes), never from a list.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
from dataclasses import dataclass, field

from .errors import Problem
from .luac import first_line
from .names import did_you_mean

# How a message names the fields of these engine tables (the others: "<table> has no field").
_FIELD_WORDS = {"options": "option", "defs": "card"}
_ITERATORS = ("pairs", "ipairs", "next")


@dataclass(frozen=True)
class Use:
    """One thing a script does with a global, at a 1-based line and column of its text."""

    kind: str        # "read", "write", "field" (name.field) or "iterate" (pairs(name))
    name: str
    line: int
    col: int
    field: str = ""  # for "field": the field; for "iterate": the iterating function
    locals: tuple = ()  # for "read": the locals in scope (for suggestions)


@dataclass
class Scan:
    """What a text does with globals, or why it could not be read."""

    uses: list[Use] = field(default_factory=list)
    error: str | None = None


_scans: dict[str, Scan] = {}
parses = 0   # how many texts were parsed in this process (tests read it to see the cache work)


def scan(code: str) -> Scan:
    """The uses of globals in a Lua text, parsed once per process for each distinct text."""
    global parses
    key = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
    hit = _scans.get(key)
    if hit is None:
        parses += 1
        if len(_scans) > 4096:   # a long session of reloads: keep the memory bounded
            _scans.clear()
        hit = _scans[key] = _scan(code)
    return hit


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
    except RecursionError:
        return Scan(error="too deeply nested for the checker to read")
    except Exception as e:   # a tree of a shape this walker does not know: say so, never crash
        return Scan(error=f"{type(e).__name__}: {e}")
    return Scan(w.uses)


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


class _Walker:
    """Walks the tree with the locals in scope; records reads and writes of globals."""

    def __init__(self, tokens: _Tokens):
        self.tokens = tokens
        self.uses: list[Use] = []
        self.anchor: int | None = 0     # the last token seen, to place nodes without one

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

    def block(self, block, scopes: list[set]) -> None:
        scopes = scopes + [set()]
        for st in block.body:
            self.stmt(st, scopes)

    def function(self, args, body, scopes: list[set], extra: tuple = ()) -> None:
        from luaparser import astnodes as A
        names = {a.id for a in args if isinstance(a, A.Name)} | set(extra)
        self.block(body, scopes + [names])

    def stmt(self, st, scopes: list[set]) -> None:
        from luaparser import astnodes as A
        self._see(st)
        if isinstance(st, A.LocalAssign):
            for v in st.values or []:
                self.expr(v, scopes)
            scopes[-1].update(t.id for t in st.targets if isinstance(t, A.Name))
        elif isinstance(st, A.Assign):
            start = self.anchor
            for v in st.values or []:
                self.expr(v, scopes)
            for t in st.targets:
                if isinstance(t, A.Name):
                    if not self.is_local(t.id, scopes):
                        self.anchor = start    # the targets come first: look from the statement on
                        line, col = self.where(t, t.id)
                        self.uses.append(Use("write", t.id, line, col))
                else:
                    self.expr(t, scopes)
        elif isinstance(st, A.LocalFunction):
            scopes[-1].add(st.name.id)
            self.function(st.args, st.body, scopes)
        elif isinstance(st, A.Function):
            if isinstance(st.name, A.Name):
                if not self.is_local(st.name.id, scopes):
                    line, col = self.where(st.name, st.name.id)
                    self.uses.append(Use("write", st.name.id, line, col))
            else:
                self.expr(st.name, scopes)
            self.function(st.args, st.body, scopes)
        elif isinstance(st, A.Method):
            self.expr(st.source, scopes)
            self.function(st.args, st.body, scopes, ("self",))
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
            inner = scopes + [set()]
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

    def expr(self, e, scopes: list[set]) -> None:
        from luaparser import astnodes as A
        if not isinstance(e, A.Node):
            return
        self._see(e)
        if isinstance(e, A.Name):
            if not self.is_local(e.id, scopes):
                line, col = self.where(e, e.id, forward=False)
                seen = tuple(sorted(set().union(*scopes)))
                self.uses.append(Use("read", e.id, line, col, locals=seen))
        elif isinstance(e, A.Index):
            if isinstance(e.value, A.Name) and not self.is_local(e.value.id, scopes):
                fname = e.idx.id if e.notation == A.IndexNotation.DOT and isinstance(e.idx, A.Name) else \
                    _string(e.idx)
                line, col = self.where(e.value, e.value.id, forward=False)
                self.uses.append(Use("read", e.value.id, line, col, locals=tuple(sorted(set().union(*scopes)))))
                if fname is not None:
                    self.uses.append(Use("field", e.value.id, line, col, fname))
            else:
                self.expr(e.value, scopes)
            if e.notation != A.IndexNotation.DOT:
                self.expr(e.idx, scopes)
        elif isinstance(e, A.Call):
            fn = e.func
            if isinstance(fn, A.Name) and fn.id in _ITERATORS and not self.is_local(fn.id, scopes) and e.args:
                target = _target(e.args[0], scopes, self)
                if target is not None:
                    line, col = self.where(fn, fn.id, forward=False)
                    self.uses.append(Use("iterate", target, line, col, fn.id))
            self.expr(fn, scopes)
            for a in e.args:
                self.expr(a, scopes)
        elif isinstance(e, A.Invoke):
            src = e.source
            if isinstance(src, A.Name) and isinstance(e.func, A.Name) and not self.is_local(src.id, scopes):
                line, col = self.where(src, src.id, forward=False)   # board:nieghbors(s)
                self.uses.append(Use("field", src.id, line, col, e.func.id))
            self.expr(src, scopes)
            for a in e.args:
                self.expr(a, scopes)
        elif isinstance(e, A.AnonymousFunction):
            self.function(e.args, e.body, scopes)
        elif isinstance(e, A.Table):
            for f in e.fields:
                if f.between_brackets:
                    self.expr(f.key, scopes)
                self.expr(f.value, scopes)
        elif isinstance(e, (A.String, A.Number, A.Nil, A.TrueExpr, A.FalseExpr, A.Varargs, A.Dots)):
            pass
        else:   # operators
            for k in ("left", "right", "operand"):
                sub = getattr(e, k, None)
                if isinstance(sub, A.Node):
                    self.expr(sub, scopes)


def _string(node) -> str | None:
    from luaparser import astnodes as A
    if isinstance(node, A.String):
        s = node.s
        return s.decode("utf-8", "replace") if isinstance(s, bytes) else str(s)
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


def defined_globals(sources) -> set[str]:
    """Globals the texts set anywhere (at top level or inside a function)."""
    out: set[str] = set()
    for src in sources:
        _, code = first_line(src.source)
        out |= {u.name for u in scan(code).uses if u.kind == "write"}
    return out


def problems(src, shape: dict, extra_globals: set[str], *, may_set: bool,
             file_lines: list[str] | None = None) -> list[Problem]:
    """The problems of one piece of Lua run with the environment `shape` (Runtime.script_shapes)
    plus extra_globals; may_set: whether it may set globals (rules and evaluations do; a card's
    script may not). file_lines: the lines of its file, to give columns in the file."""
    from .lint import _column, _file_line
    start, code = first_line(src.source)
    sc = scan(code)
    if sc.error is not None:
        return []   # Lua's own compiler took it (else the load would have stopped): see unread_note
    lines = code.splitlines()
    own = {u.name for u in sc.uses if u.kind == "write"} if may_set else set()
    known = set(shape["globals"]) | extra_globals | own
    fields, unlisted = shape["fields"], shape["unlisted"]
    out = []

    def at(u: Use, text: str, message: str) -> None:
        line = u.line + start - 1
        src_line = lines[u.line - 1] if 0 < u.line <= len(lines) else ""
        col = _column(src_line, _file_line(file_lines, line), text, u.col)
        out.append(Problem(src.chunkname, line, col, message))

    for u in sc.uses:
        if u.kind == "read" and u.name not in known:
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
        elif u.kind == "iterate" and u.name in unlisted:
            call = f"{u.field}({u.name})" if u.field != "next" else f"next, {u.name}"
            at(u, u.field, f"{call} goes through nothing: {u.name} reads one entry at a time "
                           f"({u.name}[key]) and cannot be listed")
    return out
