"""Checks that need more than a schema: Lua syntax, names a script or a YAML value refers
to (events, stats, counters, zones, dice, cards, phases), and a game's own deck rules. A
script's names are read from its calls as the Lua parser sees them (engine/lualint.py)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import lualint
from .errors import Problem
from .luac import compile_lua, first_line, whole_places
from .names import did_you_mean
from .yamlio import Document


def _is_file(path: str) -> bool:
    try:
        return Path(path).is_file()
    except (OSError, ValueError):   # (a name too long, or holding a NUL: no file)
        return False


def problem_from_lua(msg: str, fallback: str) -> Problem:
    """Turns Lua's 'file:line: message' into a Problem (its file whole: luac.whole_places)."""
    first = whole_places(str(msg)).splitlines()[0] if msg else ""
    # (at the first ":LINE: ": a folder's name may hold ": ", but a message that only quotes
    # a place after its own words, "cannot start: setup.lua:4: ...", is not placed there)
    placed = re.match(r"(.+?):(\d+): (.*)", first)
    if placed and (": " not in placed.group(1) or re.search(r"[/\\]", placed.group(1).split(": ")[0])
                   or _is_file(placed.group(1))):   # (a folder from here: "my: games/rules/x.lua")
        return Problem(placed.group(1), int(placed.group(2)), 1, f"Lua: {placed.group(3)}")
    return Problem(fallback, 1, 1, f"Lua: {first}")


def syntax_problem(src, msg: str, file_lines: list[str] | None = None) -> Problem:
    """problem_from_lua of the syntax error Lua's compiler gave for src, at the column of
    the token Lua names ("near 'x'"): where the checker's parser stops on the same line
    before that token, else that token's place when it is on the line once; else column
    1, as Lua gives no column. file_lines: the lines of src's file (read when not given)."""
    p = problem_from_lua(msg, src.chunkname)
    near = re.search(r" near '(.+)'$", p.message)
    start, code = first_line(src.source)
    lines = code.splitlines()
    rel = p.line - start + 1
    if near is None or p.path != src.chunkname or not 0 < rel <= len(lines):
        return p
    token, line = near.group(1), lines[rel - 1]
    col = None
    stop = lualint.parse_stop(code)   # (the parser's line and column, from 1)
    if stop is not None and stop[0] == rel and line.startswith(token, stop[1] - 1):
        col = stop[1]
    elif line.count(token) == 1:
        col = line.index(token) + 1
    if col is None:
        return p
    if file_lines is None:
        try:
            file_lines = Path(src.chunkname).read_text(encoding="utf-8", errors="replace").splitlines()
        except (OSError, ValueError):
            file_lines = None
    return Problem(p.path, p.line, _column(line, _file_line(file_lines, p.line), token, col), p.message)


# A call whose string argument names something the game declares: (table, function) ->
# (kind, what a message calls it, the argument). Zones and counters come after their player,
# so their calls are read argument by argument: see _named.
_REFS = {
    ("", "emit"): ("hook", "event", 0), ("", "on"): ("hook", "event", 0),
    ("", "stat"): ("stat", "stat", 1),
    ("dice", "roll"): ("die", "die", 0),
    ("cards", "create"): ("card", "card", 0), ("scenario", "create"): ("card", "card", 0),
}
_REF_ORDER = ("hook", "stat", "die", "card")   # on one line, the kinds are reported in this order

# The engine tables whose calls name zones and counters (and had an order before 0.2.0).
_API = ("counters", "zones", "cards", "scenario")


def _calls(src) -> tuple[int, str, list]:
    """The line of its file a piece of Lua starts on, its text, and the calls it makes
    (engine/lualint.py; none when the parser cannot read it)."""
    start, code = first_line(src.source)
    sc = lualint.scan(code)
    return start, code, ([] if sc.error is not None else sc.calls)


def calls_made(src) -> list:
    """The calls a piece of Lua makes (none when the parser cannot read it)."""
    return _calls(src)[2]


# Where zone and counter names stand: for each function, the argument positions that
# may name one, in the shared form (first argument a name) and in the player form.
_ZONE_FNS = {"cards", "ids", "count", "top", "shuffle"}
_COUNTER_FNS = {"get", "add", "set", "spend", "can_spend", "bounds"}


def _named(table: str, fn: str, args: tuple) -> list[tuple[str, str]]:
    """(kind, name) for each zone or counter a call names with a string literal."""
    first = args[0].name if args else None
    at = lambda i: args[i].name if len(args) > i else None  # noqa: E731
    if table == "counters" and fn in _COUNTER_FNS:
        names = [("counter", first if first else at(1))]
    elif table == "zones" and fn in _ZONE_FNS:
        names = [("zone", first if first else at(1))]
    elif table == "zones" and fn in ("draw", "lose_track"):   # (the same shapes: (p, a, b) or (a, b))
        names = [("zone", at(0)), ("zone", at(1))] if first else [("zone", at(1)), ("zone", at(2))]
    elif table == "cards" and fn == "to_zone":
        names = [("zone", at(1) if at(1) else at(2))]
    elif table == "cards" and fn == "create":
        names = [("zone", at(2) if at(2) else at(3))]
    elif table == "scenario" and fn in ("add", "empty"):
        names = [("zone", first if first else at(1))]
    elif table == "scenario" and fn == "set_counter":
        names = [("counter", first if first else at(1))]
    else:
        names = []
    return [(k, n) for k, n in names if n is not None]


# The arguments a shared zone or counter takes in each function, after its name.
_SHARED_REST = {("counters", "get"): 0, ("counters", "add"): 1, ("counters", "set"): 1, ("counters", "spend"): 1,
                ("counters", "can_spend"): 1, ("zones", "cards"): 0, ("zones", "ids"): 0, ("zones", "count"): 0,
                ("zones", "top"): 0, ("zones", "shuffle"): 0, ("scenario", "add"): 1, ("scenario", "empty"): 0,
                ("scenario", "set_counter"): 1}


def _new_call(table: str, fn: str, arguments: tuple, scope: dict[str, dict[str, str]]) -> str | None:
    """The 0.2.0 form of a call written in the order before it, or None when the call is
    already in the new order (or cannot be told apart from it). arguments: lualint.Arg."""
    kind = {"counters": "counter", "zones": "zone", "scenario": "counter" if fn == "set_counter" else "zone",
            "cards": "zone"}[table]
    scopes = scope.get(kind, {})
    args = [a.text for a in arguments]
    names = [a.name for a in arguments]
    call = lambda *a: f"{table}.{fn}({', '.join(a)})"  # noqa: E731
    if table == "scenario" and fn == "place":
        return call(*args).replace("scenario.place(", "scenario.create(", 1)
    if (table, fn) in _SHARED_REST:
        name = names[0] if args else None
        if name is None or name not in scopes:
            return None
        if scopes[name] == "player":
            player = args[1] if len(args) > 1 and args[1] != "nil" else "p"
            return call(player, args[0], *args[2:])
        if len(args) > 1 + _SHARED_REST[(table, fn)]:
            return call(args[0], *args[2:])
        return None
    if table == "zones" and fn == "draw":
        if len(args) < 2 or None in names[:2] or any(n not in scopes for n in names[:2]):
            return None
        if "player" in (scopes[names[0]], scopes[names[1]]):
            player = args[2] if len(args) > 2 and args[2] != "nil" else "p"
            return call(player, args[0], args[1], *args[3:])
        if len(args) > 3:
            return call(args[0], args[1], *args[3:])
        return None
    if table == "cards" and fn == "to_zone":
        name = names[1] if len(args) > 1 else None
        if name is None or name not in scopes:
            return None
        if scopes[name] == "player":
            player = args[2] if len(args) > 2 and args[2] != "nil" else f"{args[0]}.owner"
            return call(args[0], player, args[1], *args[3:])
        if len(args) > 3 or (len(args) == 3 and args[2] == "nil"):
            return call(args[0], args[1], *args[3:])
        return None
    if table == "cards" and fn == "create":
        name = names[2] if len(args) > 2 else None
        if name is None or name not in scopes:
            return None
        if scopes[name] == "player":
            player = args[3] if len(args) > 3 and args[3] != "nil" else args[1]
            return call(args[0], args[1], player, args[2])
        if len(args) > 3:
            return call(args[0], args[1], args[2])
        return None
    return None


def _column(source_line: str, file_line: str | None, text: str, col: int) -> int:
    """The column in the file of `text` found at col in the source line (inline Lua
    in YAML is indented in its file): the same occurrence of text, counted from the left."""
    if file_line is None:
        return col
    nth = source_line.count(text, 0, col - 1)
    at = -1
    for _ in range(nth + 1):
        at = file_line.find(text, at + 1)
        if at < 0:
            return col
    return at + 1


def _file_line(file_lines: list[str] | None, n: int) -> str | None:
    """Line n (1-based) of a file's lines, or None when it is not there."""
    return file_lines[n - 1] if file_lines is not None and 0 < n <= len(file_lines) else None


def _place(src, start: int, lines: list[str], file_lines: list[str] | None, call) -> tuple[int, int]:
    """The line and column in its file of a call in a piece of Lua that starts on line start."""
    return _text_place(start, lines, file_lines, call.line, call.col, call.head)


def use_place(src, start: int, code: str, file_lines: list[str] | None, line: int, col: int,
              text: str) -> tuple[int, int]:
    """The line and column in its file of text found at line, col of a piece of Lua that
    starts on line start (inline Lua in YAML is indented in its file)."""
    return _text_place(start, code.splitlines(), file_lines, line, col, text)


def _text_place(start: int, lines: list[str], file_lines: list[str] | None, line: int, col: int,
                text: str) -> tuple[int, int]:
    at = line + start - 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return at, _column(source_line, _file_line(file_lines, at), text, col)


def old_call_problems(src, scope: dict[str, dict[str, str]], file_lines: list[str] | None = None) -> list[Problem]:
    """Calls in the argument order before 0.2.0 (see CHANGELOG.md), each with its new form.

    scope: {"zone": {name: "player" or "shared"}, "counter": {...}} from game.yaml.
    file_lines: the lines of the file the Lua is in, to give columns in the file.
    """
    out = []
    start, code, calls = _calls(src)
    lines = code.splitlines()
    for c in calls:
        new = _new_call(c.table, c.fn, c.args, scope) if c.table in _API else None
        if new is None:
            continue
        line, col = _place(src, start, lines, file_lines, c)
        out.append(Problem(src.chunkname, line, col, f"{c.text} is the old call; now {new}"))
    return out


def lua_problems(src, known: dict[str, list[str]], file_lines: list[str] | None = None) -> list[Problem]:
    """Syntax errors and references to undeclared names in one piece of Lua.

    file_lines: the lines of the file the Lua is in, to give columns in the file.
    """
    ok, res = compile_lua(src.source, src.chunkname)
    if not ok:
        p = syntax_problem(src, res, file_lines)
        body = re.sub(r"^(?:\s*--[^\n]*\n)*\s*", "", first_line(src.source)[1].removeprefix("return "))
        if src.field and not body.startswith("function"):
            p = Problem(p.path, p.line, p.col, p.message + " (this Lua must be a function, written "
                        "function(self, ...) ... end, which the engine calls: see the card's hooks and abilities)")
        elif getattr(src, "joined", False):
            key = src.field[-1] if src.field else "the key"
            p = Problem(p.path, p.line, p.col, p.message + (
                          f" (YAML joined this Lua's lines into one, as it does for a plain, quoted or "
                          f"`>` value over several lines, so a `--` comment hides all that follows it: "
                          f"write `{key}: |` and the code on the lines below, indented)"))
        return [p]
    start, code, calls = _calls(src)
    lines = code.splitlines()
    problems, refs = [], []
    for c in calls:
        for kind, name in _named(c.table, c.fn, c.args) if c.table in _API else ():
            if name not in known.get(kind, ()):
                line, col = _place(src, start, lines, file_lines, c)
                problems.append(Problem(src.chunkname, line, col,
                                        f"no {kind} called '{name}'{did_you_mean(name, known.get(kind, ()))}"))
        ref = _REFS.get((c.table, c.fn))
        if ref is not None and len(c.args) > ref[2] and c.args[ref[2]].name is not None:
            kind, what, _ = ref
            name = c.args[ref[2]].name
            if name not in known.get(kind, ()):
                line, col = _place(src, start, lines, file_lines, c)
                refs.append((c.line, _REF_ORDER.index(kind), c.col,
                             Problem(src.chunkname, line, col,
                                     f"no {what} called '{name}'{did_you_mean(name, known.get(kind, ()))}")))
    return problems + [r[-1] for r in sorted(refs, key=lambda r: r[:3])]


_TOKEN_WRITES, _TOKEN_READS = {"add", "set"}, {"get", "remove"}


def token_notes(sources, file_lines: dict[str, list[str]]) -> list[Problem]:
    """Tokens read under a name no script adds or sets (by a literal name), close to one
    that is: likely misspelt, as tokens.get reads 0 for it (`tokens.get(c, "charg")`). A
    guess, so a note: a name built at run time cannot be seen here."""
    written, reads = set(), []
    for src in sources:
        start, code = first_line(src.source)
        sc = lualint.scan(code)
        if sc.error is not None:
            return []   # (a script the parser cannot read may add any token)
        for c in sc.calls:
            if c.table != "tokens" or len(c.args) < 2:
                continue
            if c.fn in _TOKEN_WRITES:
                if c.args[1].name is None:
                    return []   # (a name given at run time, through a helper: any token may be added)
                written.add(c.args[1].name)
            elif c.fn in _TOKEN_READS and c.args[1].name is not None:
                reads.append((src, start, code, c))
    out = []
    for src, start, code, c in reads:
        name = c.args[1].name
        hint = did_you_mean(name, sorted(written)) if name not in written else ""
        if hint:
            line, col = _place(src, start, code.splitlines(), file_lines.get(src.chunkname), c)
            out.append(Problem(src.chunkname, line, col, f"no script adds a token '{name}'{hint}: "
                                                         f"tokens.{c.fn} finds none of it"))
    return out


def unemitted_hooks(sources, declared: list, engine_events) -> list[tuple[int, str]]:
    """The hooks game.yaml declares (index, name) that no script emits, when every emit
    names its event by a literal (else nothing can be told): the cards' hooks on them never
    run. The engine's own events are emitted by the engine."""
    emitted, members = set(engine_events), set()
    for src in sources:
        sc = lualint.scan(first_line(src.source)[1])
        if sc.error is not None:
            return []   # (a script the parser cannot read may emit anything)
        calls = [c for c in sc.calls if c.table == "" and c.fn == "emit"]
        if len(calls) != sum(u.kind == "read" and u.name == "emit" for u in sc.uses):
            return []   # (emit passed on or kept under another name: its events cannot be told)
        for c in calls:
            if not c.args or c.args[0].name is None:
                return []
            emitted.add(c.args[0].name)
        members.update(u.name for u in sc.uses if u.kind in ("member", "define"))
    # (a hook read by its name, def.hooks.after_x(c, ev), may be called by the rules directly)
    return [(i, h) for i, h in enumerate(declared) if isinstance(h, str) and h not in emitted and h not in members]


def _resolve(schema: dict, root: dict) -> dict:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str) and ref.startswith("#/"):
        node: Any = root
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, dict) else {}
    return schema if isinstance(schema, dict) else {}


def ref_problems(doc: Document, data: Any, schema: dict, known: dict[str, list[str]],
                 keys: tuple = (), root: dict | None = None, fits: Any = None) -> list[Problem]:
    """Values marked `x-ref: <kind>` in a schema must name a declared thing of that kind.
    (root, fits: the whole schema and its validator, for the calls within.)"""
    if root is None:
        if not _marks(schema):
            return []   # (nothing to name: the value need not be walked)
        root = schema
    schema = _resolve(schema, root)
    if not isinstance(schema, dict):
        return []   # (a schema that is none: said where schemas are checked)
    out: list[Problem] = []
    kind = schema.get("x-ref")
    if isinstance(kind, str) and kind in known and isinstance(data, str) and data not in known[kind]:
        out.append(doc.problem(keys, f"no {kind} called '{data}'{did_you_mean(data, known.get(kind, ()))}"))
    for key in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(key)
        branches = branches if isinstance(branches, list) else []
        if key == "allOf":
            found = [ref_problems(doc, data, sub, known, keys, root, fits) for sub in branches]
        else:   # a choice: wrong only when every branch the value fits names something wrong
            fits = fits or _validator(root)
            found = [ref_problems(doc, data, sub, known, keys, root, fits) for sub in branches if _fits(fits, sub, data)]
            found = found[:1] if found and all(found) else []
        for problems in found:
            out += [p for p in problems if p not in out]
    if isinstance(data, dict):
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        extra = schema.get("additionalProperties")
        for k, v in data.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if isinstance(sub, dict):
                out += ref_problems(doc, v, sub, known, keys + (k,), root, fits)
    elif isinstance(data, list):
        first = schema.get("prefixItems")
        first = first if isinstance(first, list) else []
        items = schema.get("items")
        for i, v in enumerate(data):
            sub = first[i] if i < len(first) else items
            if isinstance(sub, dict):
                out += ref_problems(doc, v, sub, known, keys + (i,), root, fits)
    return out


def _marks(schema: Any, depth: int = 0) -> bool:
    """Whether a schema has an `x-ref` anywhere in it."""
    if depth > 64:
        return True
    if isinstance(schema, dict):
        return "x-ref" in schema or any(_marks(v, depth + 1) for v in schema.values())
    if isinstance(schema, list):
        return any(_marks(v, depth + 1) for v in schema)
    return False


def _validator(root: dict) -> Any:
    import jsonschema
    try:
        return jsonschema.Draft202012Validator(root)
    except Exception:
        return None


def _fits(validator: Any, schema: Any, data: Any) -> bool:
    """Whether a value fits one branch of a schema (its references read in the whole, by
    the whole's validator); a branch that is no schema is taken to fit (where schemas are
    checked says why)."""
    try:
        return validator is None or validator.evolve(schema=schema).is_valid(data)
    except Exception:
        return True


def deck_problems(doc: Document, set_data: dict, rules: dict, cards: dict[str, dict] | None = None
                  ) -> list[Problem]:
    """A deck against the game's deck rules: its size, copies per card and cards per tag.

    The deck is the set's `deck:` list when it has one (cards of any set, their tags read
    from `cards`, card id -> definition), else the copies of the set's own cards. A set
    with `playable: false` is a pool of cards, not a deck, and keeps no rules.
    """
    if set_data.get("playable", True) is False:
        return []
    cards = cards or {}
    entries = []   # (keys of the entry, card id, name, copies, tags)
    if isinstance(set_data.get("deck"), list):
        for i, e in enumerate(set_data["deck"]):
            e = e if isinstance(e, dict) else {"copies": None}    # (not an entry: the schema says so)
            cid = e.get("card")
            d = (cards.get(cid) if isinstance(cid, str) else None) or {}
            entries.append((("deck", i), cid, d.get("name", cid), e.get("copies", 1), d.get("tags") or []))
        where = ("deck",)
    else:
        for i, card in enumerate(set_data.get("cards") or []):
            entries.append((("cards", i, "copies"), card.get("id"), card.get("name", card.get("id")),
                            card.get("copies", 1), card.get("tags") or []))
        where = ("cards",)
    # An entry the schema refuses (copies that are no whole number, no card id), or a deck
    # list's entry naming no card of the game (said where names are checked), is left out, so
    # the others are still checked card by card; the deck's totals, which it would make wrong,
    # wait until it is mended.
    by_list = where == ("deck",)
    whole = [e for e in entries if isinstance(e[1], str) and isinstance(e[3], int) and not isinstance(e[3], bool)
             and e[3] >= (1 if by_list else 0) and isinstance(e[4], list) and (not by_list or e[1] in cards)]
    if len(whole) < len(entries):
        return _per_card_problems(doc, whole, rules)
    out = _per_card_problems(doc, entries, rules)
    count_by_tag = rules.get("count_by_tag") or {}
    totals = {t: sum(e[3] for e in entries if t in e[4]) for t in count_by_tag}
    for t, want in count_by_tag.items():
        if totals[t] != want:
            change = f"remove {totals[t] - want}" if totals[t] > want else f"add {want - totals[t]}"
            out.append(doc.problem(where, f"the deck holds {totals[t]} {t} cards; the game's deck rules "
                                          f"want {want}: {change} copies of {t} cards, or change "
                                          f"sets.deck.count_by_tag.{t} in game.yaml"))
    for rule in rules.get("count_by_tags") or []:
        want, need, avoid = rule["count"], set(rule["tags"]), set(rule.get("without") or [])
        have = sum(e[3] for e in entries if need <= set(e[4]) and not avoid & set(e[4]))
        if have != want:
            what = " ".join(sorted(need)) + (f" (not {', '.join(sorted(avoid))})" if avoid else "")
            change = f"remove {have - want}" if have > want else f"add {want - have}"
            out.append(doc.problem(where, f"the deck holds {have} {what} cards; the game's deck rules want "
                                          f"{want}: {change}, or change sets.deck.count_by_tags in game.yaml"))
    if isinstance(rules.get("leader"), dict):
        out += _leader_problems(doc, where, entries, rules["leader"], cards, by_list=by_list)
    size = sum(e[3] for e in entries)
    if rules.get("min_size") is not None and size < rules["min_size"]:
        out.append(doc.problem(where, f"the deck holds {size} cards; the game's deck rules want at least "
                                      f"{rules['min_size']}: add {rules['min_size'] - size} cards, or lower "
                                      f"sets.deck.min_size in game.yaml"))
    if rules.get("max_size") is not None and size > rules["max_size"]:
        out.append(doc.problem(where, f"the deck holds {size} cards; the game's deck rules want at most "
                                      f"{rules['max_size']}: remove {size - rules['max_size']} cards, or raise "
                                      f"sets.deck.max_size in game.yaml"))
    return out


def _per_card_problems(doc: Document, entries: list, rules: dict) -> list[Problem]:
    """Copies past the deck rules' most of a card (max_copies, max_copies_by_tag), at the
    entry where the count goes past it."""
    out = []
    max_copies = rules.get("max_copies")
    max_by_tag = rules.get("max_copies_by_tag") or {}
    per_card: dict[str, int] = {}
    for keys, cid, name, copies, tags in entries:
        per_card[cid] = per_card.get(cid, 0) + copies
        if max_copies is not None and per_card[cid] > max_copies:
            out.append(doc.problem(keys, f"{name}: {per_card[cid]} copies, but a deck may hold at most "
                                         f"{max_copies} of any card: remove {per_card[cid] - max_copies}, "
                                         f"or raise sets.deck.max_copies in game.yaml"))
        for t in tags:
            if t in max_by_tag and per_card[cid] > max_by_tag[t]:
                out.append(doc.problem(keys, f"{name}: {per_card[cid]} copies, but a deck may hold "
                                             f"at most {max_by_tag[t]} of each {t} card: remove "
                                             f"{per_card[cid] - max_by_tag[t]}, or raise "
                                             f"sets.deck.max_copies_by_tag.{t} in game.yaml"))
    return out


def _leader_problems(doc: Document, where: tuple, entries: list, rule: dict, cards: dict[str, dict],
                     by_list: bool) -> list[Problem]:
    """The deck's leader (exactly one card with rule['tag']) and the cards that must share a value of
    its field rule['share'] with it. A deck list counts the leader's copies; a set of its own cards
    names its leader once whatever its copies (it starts in play rather than in a pile)."""
    tag, share, among = rule["tag"], rule["share"], rule.get("among")
    leaders = [e for e in entries if tag in e[4]]
    count = sum(e[3] for e in leaders) if by_list else len(leaders)
    if count != 1:
        names = ", ".join(sorted({str(e[2]) for e in leaders})) or "none"
        change = f"keep one of them ({names})" if count > 1 else f"add one card tagged {tag}"
        return [doc.problem(where, f"a deck is built around exactly one {tag}, and this one has {count} "
                                   f"({names}): {change}")]
    keys, lid, lname, _, _ = leaders[0]
    theirs = _string_list((cards.get(lid) or {}).get(share))
    out = []
    for keys, cid, name, copies, tags in entries:
        if cid == lid or copies == 0 or (among is not None and not set(among) & set(tags)):
            continue
        mine = _string_list((cards.get(cid) or {}).get(share))
        if not set(mine) & set(theirs):
            out.append(doc.problem(keys, f"{name} has no {share} in common with the deck's {tag} {lname} "
                                         f"({', '.join(mine) or 'none'} against {', '.join(theirs) or 'none'}): "
                                         f"remove it, or build the deck around another {tag}"))
    return out


def _string_list(value) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
