"""Compiling Lua text to bytecode once per process, in a runtime of its own.

Lua inline in a YAML file starts partway down its file. Such text begins with a mark,
`--[[@line N]]` (a comment, so the text compiles as it is), and its bytecode has its line
numbers moved down by N - 1, so that errors and tracebacks name the file's own lines.
Moving them in the bytecode costs the size of the function; padding the text with N - 1
newlines, as before, cost the length of the file for every function in it.
"""
from __future__ import annotations

import re

from lupa.lua54 import LuaRuntime

from .steps import Reserved, meter, plain

_compiler: LuaRuntime | None = None
_compiled: dict[tuple[str, str, str, bool], tuple[bool, bytes | str]] = {}

_MARK = re.compile(r"--\[\[@line (\d{1,9})\]\]")
_names: dict[str, None] = {}   # the chunk names compiled in this process, in order (whole_places)
_CUT = re.compile(r"(?<![^\s(\[])\.\.\.([^\n]+?)(?=:\d+:)")   # (Lua's cut: "..." and the last 56 bytes)
_ERROR_LINE = re.compile(r"^(.*?):(\d+):")


def whole_places(text: str) -> str:
    """A message with the file names of its places whole: Lua cuts a long one to "..." and
    its last 56 characters (LUA_IDSIZE), which a game kept in a deep folder meets; the
    name is the one chunk compiled in this process that ends so (else left as it is)."""
    if "..." not in text:
        return text

    def whole(m: re.Match) -> str:
        tail = m.group(1).lstrip("\ufffd").encode()   # (a cut may split a letter of several bytes)
        found = [n for n in _names if len(n.encode()) > 59 and n.encode().endswith(tail)]
        return found[0] if len(found) == 1 else m.group(0)
    return _CUT.sub(whole, text)


def at_line(text: str, line: int) -> str:
    """Lua text marked as starting on `line` of its file (a comment on the text's own first line)."""
    return f"--[[@line {line}]]{text}" if line > 1 else text


def first_line(source: str) -> tuple[int, str]:
    """The line of its file a piece of Lua starts on, and its text without the mark."""
    m = _MARK.match(source)
    return (int(m.group(1)), source[m.end():]) if m else (1, source)


def compile_lua(source: str, chunkname: str, steps: str = "calls", *,
                locals: bool = True) -> tuple[bool, bytes | str]:
    """Compiles Lua text once per process: (True, bytecode) or (False, syntax error).

    Only text is ever compiled, by Lua's own compiler, so the bytecode handed to a
    match's runtime is as safe as the text; scripts themselves can never load bytecode.
    The bytecode counts steps for the budget (engine/steps.py) and takes the step
    counter as its first argument: steps "calls" counts loops, gotos and function calls
    (scripts), "loops" only loops and gotos (the engine's own files), "none" nothing
    (benchmarks). Syntax errors are those of the text as written. Without locals the
    bytecode keeps no names of local variables (see without_locals).
    """
    key = (chunkname, source, steps, locals)
    hit = _compiled.get(key)
    if hit is None:
        if len(_names) > 10000:   # (a long session of reloads: keep it bounded)
            _names.clear()
        _names[chunkname] = None
        line, text = first_line(source)
        ok, res = _compile(source, chunkname)
        if ok:
            ok, res = _metered(text, chunkname, steps)
        if line > 1:
            ok, res = _moved(ok, res, line - 1, lambda: _metered("\n" * (line - 1) + text, chunkname, steps))
        if ok and not locals:
            res = without_locals(res)
        hit = _compiled[key] = (ok, res)
    return hit


def _metered(text: str, chunkname: str, steps: str) -> tuple[bool, bytes | str]:
    """Lua text that compiles as written, compiled with its steps (engine/steps.py)."""
    try:
        counted = plain(text) if steps == "none" else meter(text, calls=steps == "calls")
    except Reserved as e:
        return False, f"{chunkname}:{e.line}: {e}"
    ok, res = _compile(counted, chunkname)
    if not ok:   # the tokenizer read valid Lua wrongly: a bug of the engine, said as one
        return False, (f"{chunkname}:1: the engine could not count the steps of this text "
                       f"(please report it with the text): {res}")
    return True, res


def _compile(source: str, chunkname: str) -> tuple[bool, bytes | str]:
    """Lua's compiler on the text as it is: (True, bytecode) or (False, the error)."""
    global _compiler
    if _compiler is None:
        _compiler = LuaRuntime(register_eval=False, register_builtins=False, encoding=None)
        _compiler.execute(b"COMPILE = function(src, name)\n"
                          b"  local f, err = load(src, name, 't')\n"
                          b"  if not f then return false, err end\n"
                          b"  return true, string.dump(f)\n"
                          b"end")
    ok, res = _compiler.globals().COMPILE(source.encode("utf-8"), ("@" + chunkname).encode("utf-8"))
    return (True, res) if ok else (False, res.decode("utf-8", "replace"))


def _moved(ok: bool, res: bytes | str, by: int, padded) -> tuple[bool, bytes | str]:
    """A compile result with its line numbers `by` lines further down the file; padded()
    compiles the text again padded with `by` newlines, for bytecode this cannot read."""
    if not ok:
        m = _ERROR_LINE.match(res)
        if m is None:
            return False, res
        # (and the lines the message names: "to close '(' at line 3", "label 'x' already defined on line 2")
        rest = re.sub(r"\b(at|on) line (\d{1,9})\b", lambda n: f"{n.group(1)} line {int(n.group(2)) + by}",
                      res[m.end():])
        return False, f"{m.group(1)}:{int(m.group(2)) + by}:{rest}"
    moved = shift_lines(res, by)
    if moved is None:   # a bytecode format this does not read: pad the text instead (slow, but right)
        return padded()
    return True, moved


# -- Lua 5.4 bytecode (ldump.c) --------------------------------------------------------

_SIGNATURE = b"\x1bLua\x54\x00\x19\x93\r\n\x1a\n"
_ABSLINEINFO = 0x80          # a lineinfo byte meaning "see the absolute line table"
_NIL, _FALSE, _TRUE = 0x00, 0x01, 0x11
_INT, _FLOAT = 0x03, 0x13
_SHORT_STR, _LONG_STR = 0x04, 0x14


class _Unreadable(Exception):
    """Bytecode in a layout this module does not know."""


class _Reader:
    """Reads the parts of a bytecode dump in order."""

    def __init__(self, data: bytes, pos: int):
        self.data, self.pos = data, pos

    def raw(self, n: int) -> bytes:
        """The next n bytes."""
        if n < 0 or self.pos + n > len(self.data):
            raise _Unreadable("truncated")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def size(self) -> int:
        """A size or int: 7 bits a byte, most significant first, the last byte marked by 0x80."""
        x = 0
        for _ in range(10):
            b = self.raw(1)[0]
            x = (x << 7) | (b & 0x7F)
            if b & 0x80:
                return x
        raise _Unreadable("bad size")

    def string(self) -> bytes | None:
        """A string (None for the empty mark that means "no string")."""
        n = self.size()
        return None if n == 0 else self.raw(n - 1)


def _size(x: int) -> bytes:
    """The dump encoding of a size or int."""
    out = [0x80 | (x & 0x7F)]
    x >>= 7
    while x:
        out.append(x & 0x7F)
        x >>= 7
    return bytes(reversed(out))


def _string(s: bytes | None) -> bytes:
    return _size(0) if s is None else _size(len(s) + 1) + s


def shift_lines(bytecode: bytes, by: int, *, locals: bool = True) -> bytes | None:
    """A dumped chunk whose line numbers are all `by` more, or None if its layout is not Lua 5.4's;
    without locals, with no local variable names either (see without_locals)."""
    if not bytecode.startswith(_SIGNATURE) or len(bytecode) < 32:
        return None
    sizes = bytecode[12:15]   # instruction, lua_Integer, lua_Number
    r = _Reader(bytecode, 15 + sizes[1] + sizes[2] + 1)
    out = [bytecode[:r.pos]]
    try:
        _function(r, out, by, sizes, main=True, locals=locals)
    except (_Unreadable, IndexError):
        return None
    if r.pos != len(bytecode):
        return None
    return b"".join(out)


def without_locals(bytecode: bytes) -> bytes:
    """A dumped chunk without the names and scopes of its local variables, which only
    error messages (`attempt to index a nil value (local 'x')`) and debug.getlocal read.
    Line numbers and the file's name stay, so errors and tracebacks still say where.
    The engine's own files are loaded so: in every match's runtime their local names
    took about 50 KB of a match's 1 MB. Bytecode this cannot read is returned as it is."""
    return shift_lines(bytecode, 0, locals=False) or bytecode


def _function(r: _Reader, out: list[bytes], by: int, sizes: bytes, *, main: bool, locals: bool) -> None:
    """Copies one function prototype (and those inside it) with its lines moved."""
    out.append(_string(r.string()))
    first, last = r.size(), r.size()
    if not main:   # the main chunk is defined at line 0, which marks it as the main chunk
        first, last = first + by, last + by
    out += [_size(first), _size(last), r.raw(3)]                 # params, vararg, stack size
    ncode = r.size()
    out += [_size(ncode), r.raw(ncode * sizes[0])]
    _constants(r, out, sizes)
    nup = r.size()
    out += [_size(nup), r.raw(3 * nup)]                          # instack, idx, kind
    nprotos = r.size()
    out.append(_size(nprotos))
    for _ in range(nprotos):
        _function(r, out, by, sizes, main=False, locals=locals)
    _debug(r, out, by, main, locals)


def _constants(r: _Reader, out: list[bytes], sizes: bytes) -> None:
    """Copies a function's constants."""
    n = r.size()
    out.append(_size(n))
    for _ in range(n):
        tag = r.raw(1)
        out.append(tag)
        if tag[0] == _INT:
            out.append(r.raw(sizes[1]))
        elif tag[0] == _FLOAT:
            out.append(r.raw(sizes[2]))
        elif tag[0] in (_SHORT_STR, _LONG_STR):
            out.append(_string(r.string()))
        elif tag[0] not in (_NIL, _FALSE, _TRUE):
            raise _Unreadable(f"constant tag {tag[0]}")


def _debug(r: _Reader, out: list[bytes], by: int, main: bool, locals: bool) -> None:
    """Copies a function's debug information with its absolute lines moved (and without
    its local variables' names and scopes unless `locals`).

    Lines are stored as a difference per instruction from the line the function is defined
    on, plus an absolute line now and then. The main chunk is defined at line 0 and must
    stay so; its first instruction gets an absolute line instead.
    """
    lineinfo = bytearray(r.raw(r.size()))
    absolute = [(r.size(), r.size()) for _ in range(r.size())]
    if main and by and lineinfo and lineinfo[0] != _ABSLINEINFO:
        delta = lineinfo[0] - 256 if lineinfo[0] > 127 else lineinfo[0]
        absolute.insert(0, (0, delta))
        lineinfo[0] = _ABSLINEINFO
    out += [_size(len(lineinfo)), bytes(lineinfo), _size(len(absolute))]
    for pc, line in absolute:
        out += [_size(pc), _size(line + by)]
    nlocals = r.size()
    read = [(r.string(), r.size(), r.size()) for _ in range(nlocals)]
    kept = read if locals else []
    out.append(_size(len(kept)))
    for name, start, end in kept:
        out += [_string(name), _size(start), _size(end)]
    nnames = r.size()
    out.append(_size(nnames))
    for _ in range(nnames):
        out.append(_string(r.string()))
