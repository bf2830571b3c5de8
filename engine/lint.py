"""Checks that need more than a schema: Lua syntax, names a script or a YAML value refers
to (events, stats, counters, zones, dice, cards, phases), and a game's own deck rules."""
from __future__ import annotations

import re
from typing import Any

from .errors import Problem
from .luac import compile_lua
from .names import did_you_mean
from .yamlio import Document


def problem_from_lua(msg: str, fallback: str) -> Problem:
    """Turns Lua's 'file:line: message' into a Problem."""
    first = str(msg).splitlines()[0] if msg else ""
    head, sep, rest = first.partition(": ")
    if sep and ":" in head:
        path, _, line = head.rpartition(":")
        if line.isdigit():
            return Problem(path, int(line), 1, f"Lua: {rest}")
    return Problem(fallback, 1, 1, f"Lua: {first}")


# A call whose string argument names something the game declares.
_REFS = [
    ("hook", "event", re.compile(r"""\b(?:emit|on)\s*\(\s*["'](\w+)["']""")),
    ("stat", "stat", re.compile(r"""\bstat\s*\([^,()]*,\s*["'](\w+)["']\s*\)""")),
    ("counter", "counter", re.compile(r"""\bcounters\.\w+\s*\(\s*["'](\w+)["']""")),
    ("zone", "zone", re.compile(r"""\bzones\.(?:cards|ids|count|top|shuffle)\s*\(\s*["'](\w+)["']""")),
    ("zone", "zone", re.compile(r"""\bzones\.draw\s*\(\s*["'](\w+)["']\s*,\s*["'](\w+)["']""")),
    ("zone", "zone", re.compile(r"""\bcards\.to_zone\s*\([^,()]*,\s*["'](\w+)["']""")),
    ("die", "die", re.compile(r"""\bdice\.roll\s*\(\s*["'](\w+)["']""")),
    ("card", "card", re.compile(r"""\bcards\.create\s*\(\s*["'](\w+)["']""")),
]


def lua_problems(src, known: dict[str, list[str]], file_text: str | None = None) -> list[Problem]:
    """Syntax errors and references to undeclared names in one piece of Lua."""
    ok, res = compile_lua(src.source, src.chunkname)
    if not ok:
        return [problem_from_lua(res, src.chunkname)]
    problems = []
    file_lines = file_text.splitlines() if file_text is not None else None
    for n, line in enumerate(src.source.splitlines(), 1):
        code = line.split("--", 1)[0]
        for kind, what, rx in _REFS:
            for m in rx.finditer(code):
                for name in m.groups():
                    if name is None or name in known.get(kind, ()):
                        continue
                    col = m.start(0) + 1
                    if file_lines is not None and 0 < n <= len(file_lines):
                        at = file_lines[n - 1].find(m.group(0))
                        col = at + 1 if at >= 0 else col
                    problems.append(Problem(src.chunkname, n, col,
                                            f"no {what} called '{name}'{did_you_mean(name, known.get(kind, ()))}"))
    return problems


def _resolve(schema: dict, root: dict) -> dict:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str) and ref.startswith("#/"):
        node: Any = root
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, dict) else {}
    return schema if isinstance(schema, dict) else {}


def ref_problems(doc: Document, data: Any, schema: dict, known: dict[str, list[str]],
                 keys: tuple = (), root: dict | None = None) -> list[Problem]:
    """Values marked `x-ref: <kind>` in a schema must name a declared thing of that kind."""
    root = root or schema
    schema = _resolve(schema, root)
    out: list[Problem] = []
    kind = schema.get("x-ref")
    if kind and isinstance(data, str) and data not in known.get(kind, ()):
        out.append(doc.problem(keys, f"no {kind} called '{data}'{did_you_mean(data, known.get(kind, ()))}"))
    if isinstance(data, dict):
        props = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        for k, v in data.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if isinstance(sub, dict):
                out += ref_problems(doc, v, sub, known, keys + (k,), root)
    elif isinstance(data, list):
        items = schema.get("items")
        if isinstance(items, dict):
            for i, v in enumerate(data):
                out += ref_problems(doc, v, items, known, keys + (i,), root)
    return out


def deck_problems(doc: Document, set_data: dict, rules: dict) -> list[Problem]:
    """A card set against the game's deck rules: copies per card and cards per tag."""
    out = []
    max_by_tag = rules.get("max_copies_by_tag") or {}
    count_by_tag = rules.get("count_by_tag") or {}
    totals = {t: 0 for t in count_by_tag}
    for i, card in enumerate(set_data.get("cards") or []):
        copies = card.get("copies", 1)
        tags = card.get("tags") or []
        for t in tags:
            if t in max_by_tag and copies > max_by_tag[t]:
                out.append(doc.problem(("cards", i, "copies"),
                                       f"{card.get('name', card.get('id'))}: {copies} copies, but a deck may hold "
                                       f"at most {max_by_tag[t]} of each {t} card"))
            if t in totals:
                totals[t] += copies
    for t, want in count_by_tag.items():
        if totals[t] != want:
            out.append(doc.problem(("cards",), f"the deck holds {totals[t]} {t} cards; the game's deck rules "
                                               f"want {want}"))
    return out
