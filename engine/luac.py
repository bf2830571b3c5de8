"""Compiling Lua text to bytecode once per process, in a runtime of its own."""
from __future__ import annotations

from lupa.lua54 import LuaRuntime

_compiler: LuaRuntime | None = None
_compiled: dict[tuple[str, str], tuple[bool, bytes | str]] = {}


def compile_lua(source: str, chunkname: str) -> tuple[bool, bytes | str]:
    """Compiles Lua text once per process: (True, bytecode) or (False, syntax error).

    Only text is ever compiled, by Lua's own compiler, so the bytecode handed to a
    match's runtime is as safe as the text; scripts themselves can never load bytecode.
    """
    global _compiler
    key = (chunkname, source)
    hit = _compiled.get(key)
    if hit is None:
        if _compiler is None:
            _compiler = LuaRuntime(register_eval=False, register_builtins=False, encoding=None)
            _compiler.execute(b"COMPILE = function(src, name)\n"
                              b"  local f, err = load(src, name, 't')\n"
                              b"  if not f then return false, err end\n"
                              b"  return true, string.dump(f)\n"
                              b"end")
        ok, res = _compiler.globals().COMPILE(source.encode("utf-8"), ("@" + chunkname).encode("utf-8"))
        hit = (bool(ok), res if ok else res.decode("utf-8", "replace"))
        _compiled[key] = hit
    return hit
