"""The API reference: parses the Lua language server annotations of types/*.lua and
writes docs/api.md and each game's types/games/<id>.lua (`summon docs`).

The annotation format is LuaLS's (`---@class`, `---@field`, `---@param`, `---@return`,
`---@type`, `---@alias`) plus two comment conventions of our own, `--- Errors: text`
and `--- Example: code`; types/engine.lua's header describes it. The parser reads the
comment lines one by one: it needs no Lua parser, because the format is fixed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_META = ROOT / "types" / "engine.lua"
GAME_META_DIR = ROOT / "types" / "games"
API_MD = ROOT / "docs" / "api.md"

# Standard Lua names a script sees: the language server knows them already.
LUA_BUILTINS = frozenset(
    "_G assert error getmetatable ipairs math next pairs pcall print rawequal rawget rawlen rawset select "
    "setmetatable string table tonumber tostring type utf8 xpcall".split())

_FUNCTION = re.compile(r"^function\s+([A-Za-z_][\w.]*)\s*\(([^)]*)\)")
_GLOBAL = re.compile(r"^([A-Za-z_]\w*)\s*=")
_GAME_FUNCTION = re.compile(r"^function\s+([A-Za-z_]\w*)\s*\(([^)]*)\)")


@dataclass
class Param:
    name: str
    type: str
    text: str = ""


@dataclass
class Entry:
    """One documented name: a function, a table of functions, a typed global or a class."""
    kind: str                      # "function", "table", "value", "class", "alias"
    name: str
    params: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    args: list[Param] = field(default_factory=list)
    returns: list[Param] = field(default_factory=list)
    errors: str = ""
    example: str = ""
    type: str = ""
    fields: list[Param] = field(default_factory=list)
    line: int = 0

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


def _split(rest: str, n: int) -> list[str]:
    parts = rest.split(None, n - 1)
    return parts + [""] * (n - len(parts))


def _type_and_text(rest: str) -> tuple[str, str]:
    """Splits `T description` where T may hold spaces inside parentheses or after `|`."""
    depth, i = 0, 0
    while i < len(rest):
        ch = rest[i]
        if ch in "(<{[":
            depth += 1
        elif ch in ")>}]":
            depth -= 1
        elif ch == " " and depth == 0 and not rest[:i].endswith((",", "|", ":")):
            break
        i += 1
    return rest[:i].strip(), rest[i:].strip()


def parse_meta(text: str) -> list[Entry]:
    """The entries of a `---@meta` file, in file order."""
    entries: list[Entry] = []
    block: list[tuple[int, str]] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if re.fullmatch(r"-{4,}", line):
            block = []
            continue
        if line.startswith("---@alias"):
            name, rest = _split(line[9:].strip(), 2)
            t, desc = _type_and_text(rest)
            entries.append(Entry(kind="alias", name=name, type=t, text=[desc] if desc else [], line=no))
            continue
        if line.startswith("---"):
            block.append((no, line[3:].strip()))
            continue
        if block or line:
            entry = _entry_of(block, line, no)
            if entry is not None:
                entries.append(entry)
            if not line.startswith("--"):
                block = []
    return entries


def _entry_of(block: list[tuple[int, str]], line: str, no: int) -> Entry | None:
    e = Entry(kind="", name="", line=no)
    for _, c in block:
        if c.startswith("@meta"):
            continue
        if c.startswith("@class"):
            e.kind, e.name = "class", _split(c[6:].strip(), 1)[0]
        elif c.startswith("@field"):
            name, rest = _split(c[6:].strip(), 2)
            t, desc = _type_and_text(rest)
            e.fields.append(Param(name, t, desc))
        elif c.startswith("@param"):
            name, rest = _split(c[6:].strip(), 2)
            t, desc = _type_and_text(rest)
            e.args.append(Param(name, t, desc))
        elif c.startswith("@return"):
            t, rest = _type_and_text(c[7:].strip())
            name, desc = "", rest
            if re.match(r"^[a-z_]\w*(\s|$)", rest):   # `---@return T name description`
                name, desc = _split(rest, 2)
            e.returns.append(Param(name, t, desc))
        elif c.startswith("@type"):
            e.type = c[5:].strip()
        elif c.startswith("@generic"):
            continue
        elif c.startswith("Errors:"):
            e.errors = c[7:].strip()
        elif c.startswith("Example:"):
            e.example = c[8:].strip()
        elif not c.startswith("@"):
            e.text.append(c)
    m = _FUNCTION.match(line)
    if m:
        e.kind, e.name = "function", m.group(1)
        e.params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        return e
    m = _GLOBAL.match(line)
    if m and (e.kind == "class" or e.type):
        if e.kind == "class":
            e.type = e.name
            e.kind = "table"
        else:
            e.kind = "value"
        e.name = m.group(1)
        return e
    if e.kind == "class":
        return e
    return None


def engine_entries(path: Path = ENGINE_META) -> list[Entry]:
    return parse_meta(path.read_text(encoding="utf-8"))


def documented_globals(entries: list[Entry]) -> dict[str, set[str]]:
    """Global name -> the names of its functions (empty for a function or a value)."""
    out: dict[str, set[str]] = {}
    for e in entries:
        if e.kind in ("table", "value"):
            out.setdefault(e.name, set())
        elif e.kind == "function":
            table, _, fn = e.name.rpartition(".")
            if table:
                out.setdefault(table, set()).add(fn)
            else:
                out.setdefault(fn, set())
    return out


# -- a game's own globals ----------------------------------------------------------

def rules_globals(game) -> dict[str, str]:
    """The globals a game's rules define beyond the engine's (name -> Lua type), from a live runtime."""
    from engine.runtime import rules_runtime

    return rules_runtime(game).script_globals("rules")


def _comment_above(lines: list[str], i: int) -> list[str]:
    out: list[str] = []
    j = i - 1
    while j >= 0 and lines[j].lstrip().startswith("--"):
        out.insert(0, lines[j].lstrip().lstrip("-").strip())
        j -= 1
    return [t for t in out if t]


def game_meta_text(game) -> str:
    """types/games/<id>.lua: the functions and tables a game's rules define, for card scripts and editors."""
    found: dict[str, tuple[str, list[str], str]] = {}
    for src in game.scripts:
        lines = src.source.splitlines()
        for i, line in enumerate(lines):
            m = _GAME_FUNCTION.match(line)
            if m and m.group(1) not in found:
                found[m.group(1)] = (m.group(2).strip(), _comment_above(lines, i), src.chunkname)
    live = rules_globals(game)
    out = ["---@meta",
           f"-- The globals that the rules of `{game.id}` define: card scripts read them through the",
           "-- rules' environment. Generated by `summon docs` from the rules as they load; do not edit",
           "-- (change the rules' comments and run `summon docs`).", ""]
    for name in sorted(live):
        kind = live[name]
        params, comment, chunk = found.get(name, ("...", [], ""))
        for t in comment:
            out.append(f"--- {t}")
        if chunk:
            out.append(f"--- Defined in {chunk}.")
        if kind == "function":
            out.append(f"function {name}({params}) end")
        else:
            out.append(f"---@type {'table' if kind == 'table' else 'any'}")
            out.append(f"{name} = {{}}" if kind == "table" else f"{name} = nil")
        out.append("")
    return "\n".join(out)


def game_ids() -> list[str]:
    from engine.loader import list_games
    return list(list_games(ROOT))


def documented_game_ids() -> list[str]:
    """The games that have their types/games/<id>.lua: those `summon docs --check` looks at
    (a game just written with `summon new game` has none until `summon docs` runs)."""
    return [g for g in game_ids() if (GAME_META_DIR / f"{g}.lua").is_file()]


# -- docs/api.md ---------------------------------------------------------------------

def _md(text: str) -> str:
    return text.replace("|", "\\|")


def api_markdown(entries: list[Entry], games: dict[str, list[Entry]]) -> str:
    out = ["<!-- Generated by `summon docs` from types/engine.lua and types/games/*.lua: do not edit.",
           "     tests/test_docs.py fails when this file is stale. -->",
           "# The engine's Lua API", "",
           "Every function and table a game or card script can reach, with its arguments, what it",
           "returns, the errors it raises and a one-line example. The same text is in",
           "[types/engine.lua](../types/engine.lua) as Lua language server annotations: with",
           "[.luarc.json](../.luarc.json) at the repository's root, an editor with the Lua language",
           "server (VS Code's *Lua* extension, Neovim's lua_ls, ...) completes and checks these calls.",
           "For how a game fits together, read [writing-a-game.md](writing-a-game.md).", "",
           "The one-line examples use the names of the docs' example game",
           "[docs/examples/rules/duel](examples/rules/duel) (a `scout` on `c3`, a `d6` die with `hit` faces,",
           "`coins`, the regions `north` and `south`), and the tests run each of them there.", "",
           "The standard Lua functions a script keeps (`ipairs`, `pairs`, `pcall`, `string`, `table`,",
           "`math` without `random`, `utf8`, ...) are described in the Lua 5.4 manual; see the",
           "README's *The sandbox* for what is removed.", ""]
    classes = [e for e in entries if e.kind == "class"]
    aliases = [e for e in entries if e.kind == "alias"]
    sections: list[tuple[str, list[Entry]]] = [("Globals", [])]
    index: dict[str, list[Entry]] = {"Globals": sections[0][1]}
    for e in entries:
        if e.kind == "table":
            index[e.name] = []
            sections.append((e.name, index[e.name]))
            index[e.name].append(e)
        elif e.kind == "value":
            index["Globals"].append(e)
        elif e.kind == "function":
            table = e.name.rpartition(".")[0] or "Globals"
            index[table].append(e)
    out.append("## Contents")
    out.append("")
    for title, _ in sections:
        out.append(f"- [{title}](#{title.lower()})")
    out.append("- [Data](#data)")
    if games:
        out.append("- [Each game's own globals](#each-games-own-globals)")
    out.append("")
    for title, items in sections:
        out.append(f"## {title}")
        out.append("")
        for e in items:
            if e.kind == "table":
                out.extend(e.text + [""])
                continue
            out.extend(_entry_md(e))
    out.append("## Data")
    out.append("")
    out.append("Tables the engine hands to scripts (plain data) and the names used for types above.")
    out.append("")
    for e in aliases:
        out.append(f"- `{e.name}`: `{e.type}`. {' '.join(e.text)}")
    out.append("")
    for e in classes:
        out.append(f"### {e.name}")
        out.append("")
        if e.text:
            out.append(" ".join(e.text))
            out.append("")
        if e.fields:
            out.append("| field | type | meaning |")
            out.append("|---|---|---|")
            for f in e.fields:
                out.append(f"| `{_md(f.name)}` | `{_md(f.type)}` | {_md(f.text)} |")
            out.append("")
    if games:
        out.append("## Each game's own globals")
        out.append("")
        out.append("The functions a shipped game's rules define, which its card scripts call. They are")
        out.append("examples of what a game adds, not engine API: another game defines its own.")
        out.append("Generated into `types/games/<game>.lua` for editors.")
        out.append("")
        for gid, ges in games.items():
            out.append(f"### {gid}")
            out.append("")
            for e in ges:
                summary = " ".join(t for t in e.text if not t.startswith("Defined in"))
                sig = e.signature if e.kind == "function" else e.name
                out.append(f"- `{sig}`" + (f": {summary}" if summary else ""))
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _entry_md(e: Entry) -> list[str]:
    if e.kind == "value":
        out = [f"### `{e.name}`", "", f"Type: `{e.type}`.", ""]
    else:
        out = [f"### `{e.signature}`", ""]
    if e.text:
        out += [" ".join(e.text), ""]
    if e.args:
        out.append("Arguments:")
        out.append("")
        for a in e.args:
            out.append(f"- `{a.name}` (`{a.type}`)" + (f": {a.text}" if a.text else ""))
        out.append("")
    if e.returns:
        out.append("Returns:")
        out.append("")
        for r in e.returns:
            label = f"`{r.name}` " if r.name else ""
            out.append(f"- {label}(`{r.type}`)" + (f": {r.text}" if r.text else ""))
        out.append("")
    if e.errors:
        out += [f"Errors: {e.errors}", ""]
    if e.example:
        out += ["Example: `" + e.example + "`", ""]
    return out


# -- writing and checking --------------------------------------------------------------

def generated(only_documented: bool = False) -> dict[Path, str]:
    """Every file `summon docs` writes, with its text as the annotations and rules give it now
    (only_documented: for the games that have a types file already)."""
    from engine.errors import EngineError
    from engine.loader import load_game

    if not ENGINE_META.is_file():
        raise EngineError(f"{ENGINE_META} not found: `summon docs` runs in a checkout of the engine's repository")
    files: dict[Path, str] = {}
    games: dict[str, list[Entry]] = {}
    for gid in (documented_game_ids() if only_documented else game_ids()):
        text = game_meta_text(load_game(gid))
        files[GAME_META_DIR / f"{gid}.lua"] = text
        games[gid] = [e for e in parse_meta(text) if e.kind in ("function", "value")]
    files[API_MD] = api_markdown(engine_entries(), games)
    return files


def stale(files: dict[Path, str] | None = None) -> list[Path]:
    """The generated files whose text on disk differs from what `summon docs` writes now."""
    files = generated() if files is None else files
    return [p for p, text in files.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]


def write(files: dict[Path, str] | None = None) -> list[Path]:
    """Writes every generated file that changed; returns those written."""
    files = generated() if files is None else files
    changed = stale(files)
    for p in changed:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(files[p], encoding="utf-8")
    return changed


def api_mismatches(rt, entries: list[Entry] | None = None) -> list[str]:
    """What the live sandbox of a runtime and the annotations disagree on, in words (empty: none).

    Compares the globals a card script sees (beside the standard Lua ones) and the
    functions of every engine table, both ways.
    """
    entries = engine_entries() if entries is None else entries
    documented = documented_globals(entries)
    live = {k for k in rt.script_globals("api") if k not in LUA_BUILTINS} | {"scenario"}
    out = [f"{name}: in the sandbox but not in types/engine.lua" for name in sorted(live - set(documented))]
    out += [f"{name}: in types/engine.lua but not in the sandbox" for name in sorted(set(documented) - live)]
    for name in sorted(live & set(documented)):
        fns = documented[name]
        if not fns:
            continue
        have = set(rt.api_names(name))
        out += [f"{name}.{f}: in the sandbox but not in types/engine.lua" for f in sorted(have - fns)]
        out += [f"{name}.{f}: in types/engine.lua but not in the sandbox" for f in sorted(fns - have)]
    return out
