"""Finds games and loads them: rules/<id>/game.yaml with Lua beside it, and card sets in cards/<id>/."""
from __future__ import annotations

import copy
import importlib.util
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import jsonschema
import referencing
import referencing.exceptions
import referencing.jsonschema

from . import ENGINE_DIR, yamlio
from .errors import DefinitionError, EngineError, Problem, UnknownGame
from .files import MB, FileRefused, read_bounded, resolved
from .lint import deck_problems, lua_problems, ref_problems
from .luac import at_line, first_line
from .names import did_you_mean, kind_of
from .options import OptionSpec, same_key, schema_misfit, schema_validator

# Keys that were renamed: where, old key -> what the message adds.
_RENAMED = {
    (("limits",), "instructions"): " (the budget is counted in steps now: use steps, about one for every "
                                   "20 instructions, so 50,000,000 instructions is steps: 2500000)",
}

# Events the engine itself emits; a game declares its own under `hooks:`.
ENGINE_EVENTS = ("turn_start", "turn_end", "phase_start", "phase_end", "round_start", "round_end")
# Card keys every game has; a game adds its own under `card_fields:`.
CORE_CARD_KEYS = ("id", "name", "tags", "copies", "text", "hooks", "modifiers", "abilities")
LUA_TABLES = ("hooks", "modifiers", "abilities")
# All of a game's card files together; each one alone is bounded by yamlio.MAX_BYTES.
MAX_CARD_BYTES = 4 * MB


@dataclass
class LuaSource:
    """A piece of Lua: a whole file, or a function inline in a YAML file."""

    chunkname: str   # the file as errors should name it
    source: str      # inline Lua starts with a mark of its first line (luac.at_line), so that
    field: tuple = ()  # Lua's line numbers are the file's
    joined: bool = False  # written in a YAML style that folds its lines into one (yamlio.joins_lines)


@dataclass
class CardDef:
    id: str
    set_id: str
    data: dict
    path: str
    line: int
    lua: list[LuaSource] = field(default_factory=list)

    def scripts(self) -> dict[str, str]:
        """The card's Lua functions by where they sit (`hooks.after_move`), without line marks."""
        return {".".join(str(k) for k in s.field[2:]): first_line(s.source)[1] for s in self.lua}


@dataclass
class SetDef:
    id: str
    name: str
    path: str
    data: dict
    card_ids: list[str]
    file: Path | None = None   # the file it was read from (path is how messages show it)


@dataclass
class GameDef:
    id: str
    name: str
    root: Path
    data: dict       # game.yaml as loaded; data["options"] holds each option's default
    scripts: list[LuaSource]
    sets: dict[str, SetDef]
    cards: dict[str, CardDef]
    files: list[Path]
    options: dict[str, OptionSpec] = field(default_factory=dict)
    extra_cards: list[Path] = field(default_factory=list)   # card or deck files loaded from outside cards/<id>/
    outside_sets: tuple[str, ...] = ()   # the sets those files hold: a seat plays one only by naming its file
    evaluator: LuaSource | None = None    # the bots' evaluate(view, seat), when the game has one
    pools: dict[str, SetDef] = field(default_factory=dict)  # sets no seat plays as they are (playable: false)
    words: tuple | None = field(default=None, repr=False, compare=False)  # scenarios.game_words

    def fingerprint(self) -> dict[str, str]:
        """A digest per card definition, to tell which cards a reload changed.

        A card's Lua counts by its text, not by the line it starts on, so a card that
        only moved within its file (a card added above it, say) has not changed.
        """
        return {cid: json.dumps([c.data, c.scripts()], sort_keys=True) for cid, c in self.cards.items()}


# Where games are found, earliest first: the folders in $SUMMON_PATH, the current folder
# when it holds rules/, then the games installed with the engine. Each folder holds
# rules/<id>/game.yaml and optionally cards/<id>/; an earlier folder wins an id.
GAMES_PACKAGE = "summon_games"


@dataclass(frozen=True)
class GameFolder:
    """A folder games are found in, and why it is searched."""

    root: Path
    origin: str   # "SUMMON_PATH", "current folder" or "installed"


def summon_path() -> list[Path]:
    """The folders named in $SUMMON_PATH (separated by os.pathsep, ':' on POSIX), in order."""
    text = os.environ.get("SUMMON_PATH", "")
    out = []
    for p in text.split(os.pathsep):
        if p.strip():
            try:
                out.append(resolved(Path(p).expanduser()))
            except FileRefused as e:
                raise EngineError(f"SUMMON_PATH names {p!r}: {e}") from None
    return out


@lru_cache(maxsize=1)
def installed_root() -> Path | None:
    """The folder holding the games that came with this engine (rules/ and cards/), or None.

    In a source checkout (installed editable or not) that is the checkout itself; a wheel
    installs them as the package summon_games.
    """
    checkout = ENGINE_DIR.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "rules").is_dir():
        return checkout
    try:
        spec = importlib.util.find_spec(f"{GAMES_PACKAGE}.rules")
    except (ImportError, ValueError):   # no such package, or a broken one
        return None
    places = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    return next((p.resolve().parent for p in places if p.is_dir()), None)


def in_package(path: Path) -> bool:
    """Whether a path is inside the games a wheel installed (the summon_games package, which an
    upgrade replaces), as opposed to a checkout or a folder of the user's own."""
    root = installed_root()
    return (root is not None and not (root / "pyproject.toml").is_file()
            and Path(path).resolve().is_relative_to(root))


def folders() -> list[GameFolder]:
    """The folders games are found in, earliest first, each once."""
    found = [GameFolder(p, "SUMMON_PATH") for p in summon_path()]
    cwd = Path.cwd().resolve()
    if (cwd / "rules").is_dir():
        found.append(GameFolder(cwd, "current folder"))
    installed = installed_root()
    if installed is not None:
        found.append(GameFolder(installed, "installed"))
    unique: list[GameFolder] = []
    for f in found:
        if all(f.root != u.root for u in unique):
            unique.append(f)
    return unique


def display(path: Path) -> str:
    """A path as messages show it, so that it opens from the current folder: relative to
    it for a file under it, else whole (a game on SUMMON_PATH checked from elsewhere was
    shown relative to its games folder, which opened nothing, or another file, from here).
    A file that is a symbolic link is shown by its own name, not its target's."""
    path = Path(path).parent.resolve() / Path(path).name
    here = Path.cwd().resolve()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def list_games(root: Path | None = None) -> dict[str, Path]:
    """Game ids with their rules folder: those under root/rules/, or else every game found."""
    if root is not None:
        rules = root / "rules"
        if not rules.is_dir():
            return {}
        return {p.name: p for p in sorted(rules.iterdir()) if (p / "game.yaml").is_file()}
    games: dict[str, Path] = {}
    for f in folders():
        for gid, rules_dir in list_games(f.root).items():
            games.setdefault(gid, rules_dir)
    return dict(sorted(games.items()))


def cards_beside(rules_dir: Path) -> Path | None:
    """The cards folder of a game's rules folder: cards/<id>/ beside rules/, or cards/ inside it."""
    for cards in (rules_dir / "cards", rules_dir.parent.parent / "cards" / rules_dir.name):
        if cards.is_dir():
            return cards
    return None


def resolve(game: str) -> tuple[Path, Path | None]:
    """The rules folder and cards folder of a game id or a path to a folder with a game.yaml."""
    p = Path(game)
    if (p / "game.yaml").is_file():
        return p.resolve(), cards_beside(p.resolve())
    games = list_games()
    if game in games:
        return games[game], cards_beside(games[game])
    raise UnknownGame(unknown_game_message(game, games))


def unknown_game_message(game: str, games: dict[str, Path]) -> str:
    """Says no game has this id, with the nearest id, the games found and where they were looked for."""
    hint = did_you_mean(game, games)
    found = ", ".join(games) or "none"
    looked = ", ".join(f"{f.root} ({f.origin})" for f in folders())
    where = f"looked in {looked}" if looked else "no folder to look in: set SUMMON_PATH"
    return f"no game called '{game}'{hint}; games found: {found}; {where}"


@lru_cache(maxsize=1)
def _game_schema() -> dict:
    return json.loads((ENGINE_DIR / "schemas" / "game.schema.json").read_text())


def _own_roots(fields: Any, kind: str) -> dict:
    """Field schemas of game.yaml, each with definitions of its own ($defs) made a root of
    its own ($id), so that its '#/$defs/...' points within it, not to the card schema's root."""
    if not isinstance(fields, dict):
        return {}
    return {name: {**f, "$id": f"urn:summon:{kind}:{quote(str(name), safe='')}"}
            if isinstance(f, dict) and "$defs" in f and "$id" not in f else f for name, f in fields.items()}


def card_schema(game: dict) -> dict:
    """JSON Schema of a card set file for this game (core keys plus the game's own)."""
    card_props: dict[str, Any] = {
        "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "copies": {"type": "integer", "minimum": 0},
        "text": {"type": "string"},
        "hooks": {"type": "object", "additionalProperties": {"type": "string"}},
        "modifiers": {"type": "object", "additionalProperties": {"type": "string"}},
        "abilities": {"type": "object", "additionalProperties": {"type": "string"}},
    }
    card_props.update(_own_roots(game.get("card_fields"), "card-field"))
    set_props: dict[str, Any] = {
        "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "name": {"type": "string"},
        "text": {"type": "string"},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "deck": {"type": "array", "description": "a deck list: cards of any set, with their copies",
                 "items": {"type": "object", "additionalProperties": False, "required": ["card"],
                           "properties": {"card": {"type": "string", "x-ref": "card"},
                                          "copies": {"type": "integer", "minimum": 1}}}},
        "playable": {"type": "boolean", "description": "false: a pool of cards that decks draw on, "
                                                      "which no seat takes as its own"},
    }
    set_props.update(_own_roots((game.get("sets") or {}).get("fields"), "set-field"))
    card: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": ["id", "name"],
                            "properties": card_props}
    whole = game.get("card_schema")
    if isinstance(whole, dict):   # (its own root: its '#' is itself, never the card set schema)
        card["allOf"] = [whole if "$id" in whole else {**whole, "$id": "urn:summon:card-schema"}]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"summon card set for {game.get('id')}",
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "name"],
        "anyOf": [{"required": ["cards"]}, {"required": ["deck"]}],
        "properties": set_props,
        "$defs": {"card": card},
    }


def validate(doc: yamlio.Document, schema: dict) -> list[Problem]:
    """Checks a document against a JSON Schema; every problem, in the modder's words."""
    problems = []
    try:
        validator = schema_validator(schema)
    except Exception as e:  # a game's card_fields may hold an invalid schema
        return [doc.problem((), f"invalid schema: {e}")]
    try:
        errors = list(validator.iter_errors(doc.data))
    except Exception as e:
        return [doc.problem((), f"cannot validate: {e}")]
    for err in errors:
        if tuple(err.absolute_path) not in doc.unread:
            problems += _schema_problems(doc, err, schema)
    return problems


def _goes_under(key: str, props: dict, root: dict) -> str:
    """" (it goes under display:)" for a key that belongs to one of these properties' own
    tables (a `toolbar:` written at the top of game.yaml); "" when none has it."""
    for name, sub in props.items():
        if isinstance(sub, dict) and isinstance(sub.get("$ref"), str) and sub["$ref"].startswith("#/$defs/"):
            sub = (root.get("$defs") or {}).get(sub["$ref"][len("#/$defs/"):])
        if isinstance(sub, dict) and key in (sub.get("properties") or {}):
            return f" (it goes under {name}:)"
    return ""


def _schema_problems(doc: yamlio.Document, err, root: dict | None = None) -> list[Problem]:
    """One JSON Schema error in the modder's words (where the value is, what is wrong)."""
    out: list[Problem] = []
    where = tuple(err.absolute_path)
    inst = err.instance
    if err.validator == "additionalProperties" and isinstance(inst, dict):
        allowed = list((err.schema.get("properties") or {}).keys())
        for key in inst:
            if key not in allowed:
                hint = (_RENAMED.get((where, key)) or did_you_mean(key, allowed)
                        or _goes_under(key, err.schema.get("properties") or {}, root or {}))
                if not hint and inst[key] is None and isinstance(key, str) and " " in key.strip():
                    # (`{id: x, text: Sees far, moves far.}`: the comma ended the text there)
                    line, col = doc.where(where + (key,))
                    text = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
                    if "{" in text[:max(col - 1, 0)] and "," in text[:max(col - 1, 0)]:
                        hint = (" (words with no value: a comma in a { } mapping ends the value before it; "
                                "put text that holds a comma in quotes)")
                out.append(doc.key_problem(where + (key,), f"unknown key '{key}'{hint}"))
    elif err.validator == "required":
        missing = [k for k in err.validator_value if not (isinstance(inst, dict) and k in inst)]
        why = err.schema.get("x-message") if isinstance(err.schema.get("x-message"), str) else None
        for key in missing:
            out.append(doc.problem(where, f"missing required key '{key}'" + (f": {why}" if why else "")))
    elif err.validator == "type":
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        out.append(doc.problem(where, f"expected {_kinds_in_words(wanted)}, got {_got(inst)}"))
    elif err.validator == "enum":
        choices = [str(c) for c in err.validator_value]
        out.append(doc.problem(
            where, f"'{inst}' is not one of: {', '.join(choices)}{did_you_mean(inst, choices)}"))
    elif err.validator == "anyOf" and all(set(sub) == {"required"} for sub in err.validator_value):
        keys = [k for sub in err.validator_value for k in sub["required"]]
        out.append(doc.problem(where, f"needs one of the keys {', '.join(repr(k) for k in keys)}"))
    elif err.validator in ("minItems", "minProperties") and err.validator_value == 1 and not inst:
        name = f"'{where[-1]}'" if where and isinstance(where[-1], str) else "this"
        out.append(doc.problem(where, f"{name} is empty: give at least one entry"))
    elif err.validator == "dependentRequired":
        for key, needs in err.validator_value.items():
            if isinstance(inst, dict) and key in inst:
                missing = [k for k in needs if k not in inst]
                if missing:
                    out.append(doc.key_problem(where + (key,), f"'{key}' needs {' and '.join(repr(k) for k in missing)} "
                                                               f"beside it"))
    elif err.validator == "oneOf" and err.context and _alternative_of_kind(err):
        for sub in _alternative_of_kind(err):   # the alternative of the value's kind says what is wrong
            out += _schema_problems(doc, sub, root)
    elif err.validator == "oneOf" and err.context and _kinds_taken(err):
        out.append(doc.problem(where, f"expected {_kinds_in_words(_kinds_taken(err))}, got {_got(inst)}"))
    elif err.validator == "uniqueItems" and isinstance(inst, list):
        seen: set = set()
        for i, v in enumerate(inst):
            if where + (i,) in doc.unread:   # (its 0 stands in for a number said to be out of range)
                continue
            key = same_key(v)   # (one pass; 2 and 2.0 alike, 0 and false not)
            if key in seen:
                out.append(doc.problem(where + (i,), f"{json.dumps(v)[:40]} is listed already"))
            seen.add(key)
        if not out and not any(where + (i,) in doc.unread for i in range(len(inst))):
            out.append(doc.problem(where, err.message[:200]))
    elif err.validator == "pattern":
        said = err.schema.get("x-message", "is not a valid id: use lower-case letters, digits and _")
        out.append(doc.problem(where, f"'{inst}' {said}"))
    elif isinstance(inst, (dict, list)) and err.validator in ("not", "oneOf", "anyOf", "const"):
        why = err.schema.get("x-message") if isinstance(err.schema, dict) else None
        if why is None and isinstance(err.validator_value, dict):   # (not: {..., x-message: ...})
            why = err.validator_value.get("x-message")
        # (jsonschema's message holds the whole value: a card with its Lua)
        out.append(doc.problem(where, f"does not fit the schema ({err.validator})" +
                               (f": {why}" if isinstance(why, str) else "")))
    else:
        out.append(doc.problem(where, err.message))
    why = err.schema.get("x-message") if isinstance(err.schema, dict) else None
    if isinstance(why, str):   # (the schema's author says why, after what is wrong)
        out = [p if p.message.endswith(why) else Problem(p.path, p.line, p.col, f"{p.message}: {why}") for p in out]
    return out


_KIND_WORDS = {"string": "text", "object": "a map", "array": "a list", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "nothing"}


def _num(x) -> str:
    """A number as a message writes it: 3 for 3.0."""
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def _got(value) -> str:
    """A value a message says was given: `true`, `nothing`, or its kind and its start (`text "abc"`)."""
    if value is None or isinstance(value, bool):
        return "nothing" if value is None else json.dumps(value)
    return f"{kind_of(value)} {json.dumps(value)[:40]}"


def _kinds_in_words(wanted: list) -> str:
    """JSON Schema types (or constants, as ("const", value)) as a modder reads them: "a map or false"."""
    words = [json.dumps(w[1])[:40] if isinstance(w, tuple) else _KIND_WORDS.get(w, w) if isinstance(w, str)
             else json.dumps(w)[:40] for w in wanted]
    return " or ".join(dict.fromkeys(words))


def _kinds_taken(err) -> list:
    """The kinds of value a oneOf takes, read from its alternatives' errors on the value itself
    (a type, or a constant): empty when some alternative failed on something else."""
    kinds: list = []
    for i in range(len(err.validator_value)):
        errs = [e for e in err.context if e.relative_schema_path and e.relative_schema_path[0] == i
                and not e.relative_path]
        own = [e for e in errs if e.validator in ("type", "const")]
        if not own:
            return []
        for e in own:
            if e.validator == "const":
                kinds.append(("const", e.validator_value))
            else:
                kinds += e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
    return kinds


def _alternative_of_kind(err) -> list:
    """Of a oneOf's errors, those of the one alternative that takes values of this value's
    kind (a map where a map may go, say: its errors are about what is inside): none when no
    alternative, or more than one, is of it."""
    alts = []
    for i in range(len(err.validator_value)):
        errs = [e for e in err.context if e.relative_schema_path and e.relative_schema_path[0] == i]
        if errs and not any(not e.relative_path and e.validator in ("type", "const", "enum") for e in errs):
            alts.append(errs)
    return alts[0] if len(alts) == 1 else []


def _problem_paths(doc: yamlio.Document, problems: list[Problem]) -> list[tuple]:
    """The key paths whose positions the problems point at."""
    where = {(line, col): keys for keys, (line, col) in doc.positions.items()}
    return [where.get((p.line, p.col), ()) for p in problems]


def _check_names(doc, keys, names, declared, what) -> list[Problem]:
    out = []
    for name in names:
        if name not in declared:
            out.append(doc.key_problem(keys + (name,), f"no {what} called '{name}'{did_you_mean(name, declared)}"))
    return out


def _lua_function(doc: yamlio.Document, keys: tuple, src: str) -> LuaSource:
    """An inline Lua function of a YAML file, marked with the line its text starts on."""
    return LuaSource(doc.path, at_line("return " + src, doc.block_start(keys)), keys, doc.joins_lines(keys))


@dataclass
class _Loading:
    """What the stages of load_game collect: the problems found and the files read."""

    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    pools: dict[str, "SetDef"] = field(default_factory=dict)   # the card sets of playable: false
    unread_cards: bool = False   # a card file that could not be read: its cards are unknown, not missing


YAML_SUFFIXES = (".yaml", ".yml")


def yaml_files(folder: Path, deep: bool = False) -> list[Path]:
    """The YAML files (.yaml or .yml) in a folder, or with deep in it and its subfolders, sorted."""
    found = folder.rglob("*") if deep else folder.glob("*")
    return sorted(f for f in found if f.suffix in YAML_SUFFIXES and not f.is_dir())


def _resolved_or_given(path: Path) -> Path:
    """The file a path leads to, or the path itself when it leads nowhere readable (a loop of
    links: _read_card_sets says so at the file)."""
    try:
        return resolved(path)
    except FileRefused:
        return path


def load_game(game: str, extra_cards: list[Path] | None = None) -> GameDef:
    """Loads and validates a game; raises DefinitionError listing every problem found.

    The stages: game.yaml (schema, then its own cross-references), the rules' scripts,
    the card sets, then the names that YAML values and scripts refer to.
    """
    rules_dir, cards_dir = resolve(game)
    ld = _Loading()
    gdoc, g = _read_game_yaml(rules_dir, ld)
    ld.problems += _game_references(gdoc, g)
    options = _option_specs(gdoc, g, ld)
    g["options"] = {name: spec.default for name, spec in options.items()}
    scripts, script_texts = _read_scripts(rules_dir, gdoc, g, ld)
    # (said with other problems only: alone, the runtime says it as the game is built)
    missing = _flow_function_problems(gdoc, g, scripts)
    evaluator = _read_evaluator(rules_dir, gdoc, g, ld)
    rules_read = not ld.problems      # game.yaml and its scripts: a partial game can run them
    set_files = yaml_files(cards_dir) if cards_dir else []
    own_files = {display(f) for f in set_files}
    outside: list = []   # the extra files that are not the game's own
    for extra in extra_cards or []:
        try:
            resolved(extra)
        except FileRefused as e:
            raise DefinitionError([Problem(str(extra), 1, 1, str(e))]) from None
        if not Path(extra).exists():
            raise DefinitionError([Problem(str(extra), 1, 1, "no such card or deck file")])
        more = yaml_files(Path(extra)) if Path(extra).is_dir() else [Path(extra)]
        have = {_resolved_or_given(f) for f in set_files}
        set_files += [f for f in more if _resolved_or_given(f) not in have]   # (a file of the game's own: read once)
        outside += [extra] if any(_resolved_or_given(f) not in have for f in more) else []
    sets, cards, set_docs = _read_card_sets(set_files, g, ld)
    found = _reference_problems(g, cards, set_docs, scripts, script_texts, gdoc)
    if ld.unread_cards:   # (a card a script or deck names may be in the file that could not be read)
        found = [p for p in found if not p.message.startswith("no card called ")]
    ld.problems += found
    game = GameDef(g["id"], g["name"], rules_dir, g, scripts, sets, cards, ld.files, options,
                   [Path(p).resolve() for p in outside],
                   tuple(sorted(sid for sid, sd in sets.items() if sd.path not in own_files)), evaluator, ld.pools)
    if ld.problems:
        raise DefinitionError(_unsaid_of_unread([gdoc, *set_docs], ld.problems + missing),
                              partial=game if rules_read and not missing else None)
    return game


def _flow_function_problems(gdoc: yamlio.Document, g: dict, scripts: list[LuaSource]) -> list[Problem]:
    """A function game.yaml's flow names (setup, a phase's run or offer, next_player,
    after_round) that no rules script defines, read from the scripts' text, to be said
    beside the game's other problems (the runtime, which says it too, runs only once they
    are gone). Scripts that may make globals by a name given as they run (_ENV[k], rawset),
    or that the checker cannot read, are left to the runtime."""
    from . import lualint

    if len(scripts) < len(g.get("scripts") or []):
        return []   # (a script that could not be read: said already, and it may define them)
    texts = [first_line(s.source)[1] for s in scripts]
    if any("_ENV" in t or "rawset" in t or lualint.scan(t).error is not None for t in texts):
        return []
    defined = lualint.defined_globals(scripts)
    flow = g.get("flow") or {}
    needed = [(("flow", "setup"), flow.get("setup"))]
    needed += [(("flow", "phases", i, k), p[k]) for i, p in enumerate(flow.get("phases") or [])
               if isinstance(p, dict) for k in ("run", "offer") if k in p]
    needed += [(("flow", k), flow[k]) for k in ("next_player", "after_round") if k in flow]
    return [gdoc.problem(keys, f"no Lua function called '{name}' in the rules' scripts"
                               f"{did_you_mean(name, sorted(defined))}")
            for keys, name in needed if isinstance(name, str) and name not in defined]


def _unsaid_of_unread(docs: list[yamlio.Document], problems: list[Problem]) -> list[Problem]:
    """The problems less those said of a number that could not be read (past 64 bits): a 0
    stands in for it, and what a check says of that 0 is not the modder's mistake."""
    spots = {(d.path, *d.positions[k]) for d in docs for k in d.unread if k in d.positions}
    return [p for p in problems if (p.path, p.line, p.col) not in spots or p.message.startswith("number ")]


def _read_game_yaml(rules_dir: Path, ld: _Loading) -> tuple[yamlio.Document, dict]:
    """game.yaml parsed and checked against the game schema (stops the load when it is not valid)."""
    gpath = rules_dir / "game.yaml"
    ld.files.append(gpath)
    gdoc, probs = yamlio.load(gpath, display(gpath))
    ld.problems += probs
    if gdoc is None:
        raise DefinitionError(ld.problems)
    if not isinstance(gdoc.data, dict):
        raise DefinitionError([gdoc.problem((), "game.yaml must be a mapping of keys")])
    schema_problems = validate(gdoc, _game_schema())
    ld.problems += schema_problems
    if schema_problems or gdoc.unread:   # (a number past 64 bits is read as 0: nothing after may trust it)
        raise DefinitionError(ld.problems)
    return gdoc, copy.deepcopy(gdoc.data)   # parsed documents are cached and shared: never hand them out


def _space_names(board: dict) -> list[str]:
    """The spaces of a board: a graph's by their names, a grid's by column letter and row
    (a1 is the bottom left; x-ref: space names them)."""
    if board.get("type") == "grid":
        width, height = board.get("width", 0), board.get("height", 0)
        return [f"{chr(96 + x)}{y}" for x in range(1, width + 1) for y in range(1, height + 1)]
    return list((board.get("spaces") or {}).keys())


def _grid_region_problems(gdoc: yamlio.Document, board: dict) -> list[Problem]:
    """A grid's regions list their spaces: each must be on the board and in one region only
    (board.region(s) names one)."""
    problems = []
    on_board = set(_space_names(board))
    owner: dict[str, str] = {}
    regions = board.get("regions") or {}
    for name, info in regions.items():
        for j, s in enumerate(info.get("spaces") or []):
            keys = ("board", "regions", name, "spaces", j)
            if s not in on_board:
                problems.append(gdoc.problem(keys, f"no space called '{s}'{did_you_mean(s, sorted(on_board))}"))
            elif s in owner:
                problems.append(gdoc.problem(keys, f"space '{s}' is in region '{owner[s]}' already: a space "
                                                   "belongs to at most one region"))
            else:
                owner[s] = name
    return problems


def schema_mistake(schema: Any, refs: bool = True) -> tuple[tuple, str] | None:
    """Why a JSON Schema written in game.yaml is not one (the key path within it, and the
    reason in one line), or None when it is. Remembered by the schema's text: the check
    costs milliseconds, and a game's schemas are checked at every load. refs: also whether
    every reference ($ref) resolves within the schema."""
    try:
        text = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        return (), "it is not plain data"
    return _schema_mistake_of(text, refs)


@lru_cache(maxsize=256)
def _schema_mistake_of(text: str, refs: bool = True) -> tuple[tuple, str] | None:
    schema = json.loads(text)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        where = tuple(e.absolute_path)
        return where, f"{'.'.join(map(str, where)) + ': ' if where else ''}{e.message.splitlines()[0][:120]}"
    return _keyword_mistake(schema, ()) or ((_unresolved_ref(schema) or _overbranched(schema)) if refs else None)


# The kinds of name `x-ref` takes (what _reference_problems knows of a game).
XREF_KINDS = ("ability", "card", "counter", "die", "field", "hook", "phase", "region", "space", "stat", "tag", "zone")
# JSON Schema 2020-12's keywords that validate nothing (annotations, identifiers), and the
# older `definitions`; with those that validate (jsonschema's, and those it reads with
# another: then, else, minContains, maxContains), every keyword of the draft.
_ANNOTATIONS = ("$anchor", "$comment", "$defs", "$dynamicAnchor", "$id", "$schema", "$vocabulary", "contentEncoding",
                "contentMediaType", "contentSchema", "default", "definitions", "deprecated", "description", "examples",
                "readOnly", "title", "writeOnly")


def _keyword_mistake(node: Any, keys: tuple, depth: int = 0) -> tuple[tuple, str] | None:
    """A keyword close to one of JSON Schema's but none of them (`requried`, `minimun`): a
    validator passes over a keyword it does not know, so the rule it meant was never
    checked. A keyword far from every one is left alone (an annotation of one's own, best
    written x-...). And an `x-ref` naming no kind of name."""
    if not isinstance(node, dict) or depth > 64:
        return None
    checking = set(jsonschema.Draft202012Validator.VALIDATORS) | {"then", "else", "minContains", "maxContains"}
    for key in node:
        if isinstance(key, str) and key not in checking and key not in _ANNOTATIONS and not key.startswith("x-"):
            meant = _slip_of(key, checking | {"$defs"})   # (a slip of an annotation leaves no rule unchecked)
            if meant:
                return keys + (key,), _at(keys + (key,), f"'{key}' is no keyword of JSON Schema (did you mean "
                                                         f"'{meant}'?)")
    kind = node.get("x-ref")
    if "x-ref" in node and kind not in XREF_KINDS:
        hint = did_you_mean(kind, XREF_KINDS) if isinstance(kind, str) else ""
        return keys + ("x-ref",), _at(keys + ("x-ref",), f"{kind!r} is no kind of name{hint}; x-ref takes "
                                                         f"{', '.join(XREF_KINDS)}")
    for sub_keys, sub in _subschemas(node):
        found = _keyword_mistake(sub, keys + sub_keys, depth + 1)
        if found:
            return found
    return None


def _slip_of(key: str, words) -> str | None:
    """The keyword a key is a slip of: one edit away (two letters side by side swapped
    counting one, or a letter's case), two for a key of 8 letters or more; a short key of
    one's own (k0, id) is no slip of a keyword."""
    from .lualint import osa_distance
    if len(key) < 4:
        return None
    best = min(words, key=lambda w: (osa_distance(key.lower(), w.lower()),
                                     not (key.startswith(w) or w.startswith(key)), w))   # ($refs: $ref)
    if len(best) <= 3 and key.startswith(best):
        return None   # (note, iff: a word of one's own, not `not` or `if` misspelt)
    return best if osa_distance(key.lower(), best.lower()) <= (1 if len(key) < 8 else 2) else None


def _at(path: tuple, reason: str) -> str:
    return f"{'.'.join(map(str, path))}: {reason}" if path else reason


# where a schema (2020-12, with the older `definitions`) keeps the schemas within it: one
# schema, a list of them, or a map from names (properties, definitions) to them. A "$ref"
# anywhere else (in `default` or `const` data, an `x-` annotation, a keyword of one's own)
# is no reference.
_ONE_SCHEMA = ("additionalProperties", "contains", "contentSchema", "else", "if", "items", "not",
               "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAPS = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")


def _subschemas(node: dict) -> Iterator[tuple[tuple, Any]]:
    """The schemas within a schema, each with its keys from it, in the schema's order."""
    for key, value in node.items():
        if key in _ONE_SCHEMA:
            yield (key,), value
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            yield from (((key, i), sub) for i, sub in enumerate(value))
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            yield from (((key, name), sub) for name, sub in value.items())


_ROOT = "urn:summon:schema"


def _registry(schema: Any) -> referencing.Registry | None:
    """The schema and the resources within it, by their URIs (nothing fetched); None when
    referencing cannot read it (check_schema has said why)."""
    try:
        return (referencing.Registry().with_resource(_ROOT, referencing.jsonschema.DRAFT202012.create_resource(
            schema)).crawl())
    except Exception:
        return None


def _within(node: dict, resolver: referencing.Resolver) -> referencing.Resolver | None:
    """The resolver for the references inside node: a node with an $id is a resource of its
    own. None for an $id referencing cannot take (check_schema lets some through)."""
    if not isinstance(node.get("$id"), str):
        return resolver
    try:
        return resolver.in_subresource(referencing.jsonschema.DRAFT202012.create_resource(node))
    except Exception:
        return None


def _places(schema: Any) -> dict[int, tuple]:
    """Each mapping of the schema by its identity, with its keys from the root (references land
    on the schema's own mappings, so a problem found through one is put where it is written)."""
    out: dict[int, tuple] = {}
    stack: list[tuple[Any, tuple]] = [(schema, ())]
    while stack:
        node, keys = stack.pop()
        if isinstance(node, dict):
            out.setdefault(id(node), keys)
            stack += [(v, keys + (k,)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, keys + (i,)) for i, v in enumerate(node)]
    return out


_REFS = ("$ref", "$dynamicRef")
_DEFS = ("$defs", "definitions")


def _unresolved_ref(schema: Any) -> tuple[tuple, str] | None:
    """Where a schema's reference ($ref, $dynamicRef) does not resolve within the schema, and
    why: one to another file or a URL (never fetched: jsonschema fetched URLs at every load),
    or a '#...' one that points to nothing (found only when a value reached it). None when
    all resolve. The schemas looked at are those JSON Schema keeps schemas in, and those the
    references land on, wherever they are kept (OpenAPI's `components`); each problem is put
    where it is written. (A walk of its own, not Python's stack: a chain of 3,000
    definitions is a schema too.)"""
    registry = _registry(schema)
    if registry is None:
        return None
    places, seen = _places(schema), set()
    stack: list[tuple[Any, referencing.Resolver | None]] = [(schema, registry.resolver(base_uri=_ROOT))]
    while stack:
        node, resolver = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        resolver = _within(node, resolver)
        if resolver is None:
            continue
        where, leads = places.get(id(node), ()), []
        for key in _REFS:
            value = node.get(key)
            if not isinstance(value, str):
                continue
            try:
                found = resolver.lookup(value)
            except Exception:   # (Unresolvable; or ValueError, TypeError: a pointer through a value)
                reason = (f"{value!r} points to nothing in the schema" if value.startswith("#") else
                          f"{value!r} is outside the schema: a file or URL is never fetched, so write "
                          f"what it holds into the schema")
                return where + (key,), _at(where + (key,), reason)
            leads.append((found.contents, found.resolver))
        leads += [(sub, resolver) for _, sub in _subschemas(node)]
        stack += reversed(leads)
    return None


# how many ways, through its references, one value's check may reach one schema: past it the
# schema is refused, since a value that fits none of the branches is checked each way
SCHEMA_REACH = 4096
# the keywords that check the value itself (the others check what it holds: a property, an item)
_IN_PLACE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas")


# what a keyword that checks what the value holds passes its schema to: one property (by its
# name), any property, or the items (patternProperties and additionalProperties may take any
# name, so they count with every named one)
_ANY_KEY = ("patternProperties", "additionalProperties", "unevaluatedProperties")
SCHEMA_VALUES = 10_000   # the most sets of ways looked at (one a place in a value, alike ones once)


def _schema_graph(schema: dict, registry: referencing.Registry) -> tuple[dict, dict]:
    """The schema's schemas by identity: for each, those it checks the value itself against
    (in-place keywords and references) and, by what in the value they check, those it
    passes what the value holds to (("=name", id): a property; ("*", id): any property;
    ("#", id): an item; a property's name, checked by propertyNames, counts in place)."""
    in_place: dict[int, list[int]] = {}
    held: dict[int, list[tuple[str, int]]] = {}
    stack: list[tuple[dict, referencing.Resolver | None]] = [(schema, registry.resolver(base_uri=_ROOT))]
    while stack:
        node, resolver = stack.pop()
        if id(node) in in_place:
            continue
        in_place[id(node)], held[id(node)] = [], []
        resolver = _within(node, resolver)
        if resolver is None:
            continue
        for key in _REFS:
            if isinstance(node.get(key), str):
                try:
                    found = resolver.lookup(node[key])
                except Exception:   # (said by _unresolved_ref)
                    continue
                if isinstance(found.contents, dict):
                    in_place[id(node)].append(id(found.contents))
                    stack.append((found.contents, found.resolver))
        for keys, sub in _subschemas(node):
            if keys[0] in _DEFS or not isinstance(sub, dict):
                continue   # (kept to be referred to; or true or false)
            if keys[0] in _IN_PLACE or keys[0] == "propertyNames" or keys[0] == "contentSchema":
                in_place[id(node)].append(id(sub))
            elif keys[0] == "properties":
                held[id(node)].append((f"={keys[1]}", id(sub)))
            else:
                held[id(node)].append(("*" if keys[0] in _ANY_KEY else "#", id(sub)))
            stack.append((sub, resolver))
    return in_place, held


def _in_place_order(in_place: dict[int, list[int]]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """A place in an order where each schema comes before those it checks the value against,
    and those edges, a way round a cycle cut (one walk over every schema, in a fixed order)."""
    rank: dict[int, int] = {}
    kept: dict[int, list[int]] = {n: [] for n in in_place}
    state: dict[int, int] = {}
    done: list[int] = []
    for root in in_place:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(in_place[root]))]
        while stack:
            node, leads = stack[-1]
            for sub in leads:
                if state.get(sub) == 1:
                    continue   # (a way round: the schema is within itself)
                kept[node].append(sub)
                if sub not in state:
                    state[sub] = 1
                    stack.append((sub, iter(in_place[sub])))
                    break
            else:
                state[node] = 2
                done.append(node)
                stack.pop()
    for i, node in enumerate(reversed(done)):
        rank[node] = i
    return rank, kept


def _overbranched(schema: Any) -> tuple[tuple, str] | None:
    """A problem when one place of a value would be checked against one schema more than
    SCHEMA_REACH ways: references that each point twice to the next level double the ways at
    each level (18 levels took 49 s to refuse a value), whether the level checks the value
    itself (anyOf, $ref) or passes it on (two branches each with the same property). Ways
    are followed place by place in a value, from the top: a property gets the ways of every
    schema that passes that property (or any property) on, so a wide schema sharing its
    definitions among many properties is reached few ways at each place. A schema within
    itself is followed until its ways stop growing, or until SCHEMA_VALUES sets of ways."""
    registry = _registry(schema)
    if registry is None or not isinstance(schema, dict):
        return None
    in_place, held = _schema_graph(schema, registry)
    rank, kept = _in_place_order(in_place)
    seen: set[frozenset] = set()
    todo: list[dict[int, int]] = [{id(schema): 1}]
    def through(node: int) -> int:   # (a schema that only refers to another: that one)
        while len(kept[node]) == 1 and not held[node]:
            node = kept[node][0]
        return node

    while todo and len(seen) < SCHEMA_VALUES:
        starts: dict[int, int] = {}
        for node, w in todo.pop().items():
            starts[through(node)] = min(starts.get(through(node), 0) + w, SCHEMA_REACH + 1)
        key = frozenset(starts.items())
        if key in seen:
            continue   # (alike places: one look; a way round that does not grow ends here)
        seen.add(key)
        ways = dict(starts)   # every schema this place is checked against, and how many ways
        reach, stack = set(starts), list(starts)
        while stack:
            for sub in kept[stack.pop()]:
                if sub not in reach:
                    reach.add(sub)
                    stack.append(sub)
        for node in sorted(reach, key=rank.__getitem__):
            for sub in kept[node]:
                ways[sub] = min(ways.get(sub, 0) + ways[node], SCHEMA_REACH + 1)
        if max(ways.values()) > SCHEMA_REACH:
            return (), (f"one of its schemas is reached more than {SCHEMA_REACH:,} ways through its references (a "
                        f"level that refers twice to the next doubles the ways), and a value that fits none is "
                        f"checked each way: let each level refer to the next once")
        passed: dict[str, dict[int, int]] = {}
        for node, w in ways.items():
            for what, sub in held[node]:
                group = passed.setdefault(what, {})
                group[sub] = min(group.get(sub, 0) + w, SCHEMA_REACH + 1)
        anyone = passed.pop("*", {})
        for what, group in sorted(passed.items()):
            if what.startswith("="):
                for sub, w in anyone.items():
                    group[sub] = min(group.get(sub, 0) + w, SCHEMA_REACH + 1)
            todo.append(group)
        if anyone:
            todo.append(anyone)
    return None


def field_schema_problems(gdoc: yamlio.Document, g: dict) -> list[Problem]:
    """game.yaml's card fields and card set fields whose schema is no JSON Schema, each at its line."""
    whole = schema_mistake(card_schema(g))   # (one check of them all: each costs time)
    if whole is None:
        return []
    whole_card = g.get("card_schema")
    bad = schema_mistake(whole_card) if isinstance(whole_card, dict) else None
    if bad:
        return [gdoc.problem(("card_schema",) + bad[0], f"not a valid schema for a card: {bad[1]}")]
    out = []
    places = ((("card_fields",), ("$defs", "card", "properties"), "card field"),
              (("sets", "fields"), ("properties",), "card set field"))
    for keys, _, what in places:
        fields = g.get("card_fields") if keys == ("card_fields",) else (g.get("sets") or {}).get("fields")
        for name, field_schema in (fields.items() if isinstance(fields, dict) else ()):
            if name in CORE_CARD_KEYS and what == "card field":
                continue   # (said apart: a core key cannot be redefined)
            bad = schema_mistake(field_schema, refs=False)   # (a field's '#' is the card schema's root)
            if bad:
                out.append(gdoc.problem(keys + (name,) + bad[0], f"not a valid schema for a {what}: {bad[1]}"))
    if out:
        return out
    path, message = whole   # a reference that does not resolve within the card schema
    for keys, prefix, what in places:
        if path[:len(prefix)] == prefix and len(path) > len(prefix):
            inner = path[len(prefix) + 1:]
            reason = message[len(_at(path, "")):]
            return [gdoc.problem(keys + path[len(prefix):], f"not a valid schema for a {what}: {_at(inner, reason)}")]
    return [gdoc.problem(("card_fields",), f"the card schema is not valid: {message}")]


def _game_references(gdoc: yamlio.Document, g: dict) -> list[Problem]:
    """Names inside game.yaml that must match each other: zones in play, board links and regions, players."""
    problems = []
    zones = g.get("zones") or {}
    for i, z in enumerate(g.get("in_play") or []):
        if z not in zones:
            problems.append(gdoc.problem(("in_play", i), f"no zone called '{z}'{did_you_mean(z, zones)}"))
    for i, h in enumerate(g.get("hooks") or []):
        if h in ENGINE_EVENTS:
            problems.append(gdoc.problem(("hooks", i), f"'{h}' is an event of the engine's own: declare only "
                                                       f"the game's events"))
    phase_ids: list = []
    for i, ph in enumerate(g["flow"]["phases"]):
        if ph["id"] in phase_ids:
            problems.append(gdoc.problem(("flow", "phases", i, "id"), f"two phases are called '{ph['id']}'"))
        phase_ids.append(ph["id"])
    hooks = list(ENGINE_EVENTS) + list(g.get("hooks") or [])
    for i, h in enumerate((g.get("balance") or {}).get("played") or []):
        if h not in hooks:
            problems.append(gdoc.problem(("balance", "played", i), f"no event called '{h}'{did_you_mean(h, hooks)}"))
    for name in (g.get("card_fields") or {}):
        if name in CORE_CARD_KEYS:
            problems.append(gdoc.problem(("card_fields", name), f"'{name}' is a core card key; it cannot be redefined"))
    problems += field_schema_problems(gdoc, g)
    board = g["board"]
    if board["type"] == "grid":
        for k in ("width", "height"):
            if k not in board:
                problems.append(gdoc.problem(("board",), f"a grid board needs '{k}'"))
        problems += _grid_region_problems(gdoc, board)
    elif board["type"] == "graph":
        spaces = board.get("spaces") or {}
        if not spaces:
            problems.append(gdoc.problem(("board",), "a graph board needs 'spaces'"))
        regions = board.get("regions") or {}
        for s, sp in spaces.items():
            for j, link in enumerate(sp.get("links") or []):
                if link not in spaces:
                    problems.append(gdoc.problem(("board", "spaces", s, "links", j),
                                                 f"no space called '{link}'{did_you_mean(link, spaces)}"))
            r = sp.get("region")
            if r is not None and regions and r not in regions:
                problems.append(gdoc.problem(("board", "spaces", s, "region"),
                                             f"no region called '{r}'{did_you_mean(r, regions)}"))
        for name, info in regions.items():
            if "spaces" in info:
                problems.append(gdoc.key_problem(("board", "regions", name, "spaces"),
                                                 f"on a graph board each space names its region (region: {name} "
                                                 "under the space); a region lists its spaces only on a grid"))
    pl = g["players"]
    for name, info in (board.get("regions") or {}).items():
        for j, k in enumerate(info.get("player_counts") or []):
            if isinstance(k, int) and not pl["min"] <= k <= pl["max"]:
                problems.append(gdoc.problem(("board", "regions", name, "player_counts", j),
                                             f"{k} players cannot play: players are from {pl['min']} to {pl['max']}"))
    if (g.get("display") or {}).get("regions") is not None and not board.get("regions"):
        problems.append(gdoc.problem(("display", "regions"), "display: regions shows the board's regions, "
                                                             "but board: declares none"))
    for name, value in (g.get("limits") or {}).items():
        if value != value:   # NaN passes the schema's bounds: every comparison with it is false
            problems.append(gdoc.problem(("limits", name), f"limits: {name} must be a number, not NaN"))
    if pl["min"] > pl["max"]:
        problems.append(gdoc.problem(("players",), "players: min is more than max"))
    named: dict[int, tuple] = {}
    for i, team in enumerate(pl.get("teams") or []):
        for j, seat in enumerate(team):
            keys = ("players", "teams", i, j)
            if seat > pl["max"]:
                problems.append(gdoc.problem(keys, f"players: teams name seat {seat}, but players are at most "
                                                   f"{pl['max']}"))
            elif seat in named:
                problems.append(gdoc.problem(keys, f"players: teams name seat {seat} twice (a seat is on one team)"))
            named.setdefault(seat, keys)
    for name, value in (g.get("stats") or {}).items():
        spec = stat_spec(value)
        if "min" in spec and "max" in spec and spec["min"] > spec["max"]:
            problems.append(gdoc.problem(("stats", name, "min"),
                                         f"stat {name}: min {spec['min']} is more than max {spec['max']}"))
    for name, c in (g.get("counters") or {}).items():
        if not isinstance(c, dict):
            continue
        low, high, start = c.get("min"), c.get("max"), c.get("start")
        if low is not None and high is not None and low > high:
            problems.append(gdoc.problem(("counters", name, "min"), f"counter {name}: min {_num(low)} is more than "
                                                                    f"max {_num(high)}"))
        elif start is not None and ((low is not None and start < low) or (high is not None and start > high)):
            bound = f"min {_num(low)}" if low is not None and start < low else f"max {_num(high)}"
            problems.append(gdoc.problem(("counters", name, "start"), f"counter {name}: it starts at {_num(start)}, "
                                                                      f"outside its {bound}"))
    return problems


def _option_specs(gdoc: yamlio.Document, g: dict, ld: _Loading) -> dict[str, OptionSpec]:
    """Each option of game.yaml: a plain default, or {default:, min:, max:, schema:} for a
    number with bounds or a value a JSON Schema describes."""
    specs = {}
    for name, entry in (g.get("options") or {}).items():
        if not (isinstance(entry, dict) and "default" in entry):
            specs[name] = OptionSpec(entry)
            continue
        schema = entry.get("schema")
        keys = ("options", name)
        if any(k[:len(keys)] == keys for k in gdoc.unread):   # (a number past 64 bits, said already)
            specs[name] = OptionSpec(entry["default"])
            continue
        bad_schema = schema_mistake(schema) if schema is not None else None
        if bad_schema:
            ld.problems.append(gdoc.problem(keys + ("schema",) + bad_schema[0],
                                            f"option {name}: not a valid JSON Schema: {bad_schema[1]}"))
            schema = None
        spec = specs[name] = OptionSpec(entry["default"], entry.get("min"), entry.get("max"), schema)
        misfit = schema_misfit(schema, spec.default) if schema is not None else None
        if misfit:
            ld.problems.append(gdoc.problem(keys + ("default",) + misfit[0], f"option {name}: the default does not "
                                                                             f"fit its schema: {misfit[1]}"))
        number = isinstance(spec.default, (int, float)) and not isinstance(spec.default, bool)
        if (spec.min is not None or spec.max is not None) and not number:
            ld.problems.append(gdoc.problem(keys + ("default",), f"option {name} has bounds, so its default "
                                                                 f"must be a number, not {spec.default!r}"))
        elif spec.min is not None and spec.max is not None and spec.min > spec.max:
            ld.problems.append(gdoc.problem(keys + ("min",), f"option {name}: min {spec.min} is more than "
                                                             f"max {spec.max}"))
        elif not spec.admits(spec.default):
            ld.problems.append(gdoc.problem(keys + ("default",), f"option {name}: the default {spec.default} "
                                                                 f"is not {spec.range_text()}"))
    return specs


def _read_scripts(rules_dir: Path, gdoc: yamlio.Document, g: dict, ld: _Loading
                  ) -> tuple[list[LuaSource], dict[str, str]]:
    """The rules' Lua files named under `scripts:`, each inside the game's folder."""
    scripts = []
    texts: dict[str, str] = {}
    for i, name in enumerate(g["scripts"]):
        src = _read_lua_file(rules_dir, gdoc, ("scripts", i), "script", name, ld)
        if src is not None:
            scripts.append(src)
            texts[src.chunkname] = src.source
    return scripts, texts


def _read_lua_file(rules_dir: Path, gdoc: yamlio.Document, keys: tuple, what: str, name: str,
                   ld: _Loading) -> LuaSource | None:
    """A Lua file game.yaml names at `keys`, which must be inside the game's folder
    (None, with the problem noted, when it is not or cannot be read)."""
    try:
        spath = resolved(rules_dir / name)
    except FileRefused as e:
        ld.problems.append(gdoc.problem(keys, f"{what} '{name}': {e}".replace("\0", "\\0")))
        return None
    if rules_dir.resolve() not in spath.parents:
        ld.problems.append(gdoc.problem(keys, f"{what} '{name}' must be inside the game's folder"))
        return None
    ld.files.append(spath)
    try:
        text = read_bounded(spath, yamlio.MAX_BYTES).decode("utf-8")
    except FileRefused as e:
        ld.problems.append(gdoc.problem(keys, f"cannot read {what} '{name}': {e}"))
        return None
    except UnicodeDecodeError:
        ld.problems.append(gdoc.problem(keys, f"cannot read {what} '{name}': it is not UTF-8 text"))
        return None
    return LuaSource(display(spath), text)


def _read_evaluator(rules_dir: Path, gdoc: yamlio.Document, g: dict, ld: _Loading) -> LuaSource | None:
    """The file that defines the bots' evaluate(view, seat), when game.yaml names one."""
    name = (g.get("bots") or {}).get("evaluate")
    if name is None:
        return None
    return _read_lua_file(rules_dir, gdoc, ("bots", "evaluate"), "evaluation file", name, ld)


def _declared(g: dict) -> tuple[list[str], list[str], list[str]]:
    """The hooks (events), stats and abilities a game declares."""
    return list(ENGINE_EVENTS) + list(g.get("hooks") or []), list(g.get("stats") or {}), list(g.get("abilities") or [])


def _file_size(path: Path) -> int:
    """A file's size in bytes (0 when it cannot be looked at: reading it will say why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _read_card_sets(set_files: list[Path], g: dict, ld: _Loading
                    ) -> tuple[dict[str, SetDef], dict[str, CardDef], list[yamlio.Document]]:
    """Every card set file, checked against the game's card schema; cards with their inline Lua.

    Carries on past schema problems so one run reports everything: cards that are
    themselves well-formed are still read and checked.
    """
    hooks, stats, abilities = _declared(g)
    schema = card_schema(g)
    sets: dict[str, SetDef] = {}
    cards: dict[str, CardDef] = {}
    set_docs: list[yamlio.Document] = []
    seen: dict[str, str] = {}   # set id -> its file
    # a card or set field whose schema is no schema is a problem at its line of game.yaml:
    # the card files are not held to it (checked once a load, as it costs milliseconds)
    schema_fits = schema_mistake(schema) is None
    total = 0
    for sf in set_files:
        ld.files.append(sf)
        size = _file_size(sf)
        total += size if size <= yamlio.MAX_BYTES else 0   # a file too large alone is refused alone
        if total > MAX_CARD_BYTES:
            ld.problems.append(Problem(display(sf), 1, 1, f"the game's card files come to more than "
                                                          f"{MAX_CARD_BYTES // MB} MB with this one; the limit is "
                                                          f"{MAX_CARD_BYTES // MB} MB together"))
            break
        sdoc, probs = yamlio.load(sf, display(sf))
        if sdoc is not None and isinstance(sdoc.data, dict) and "scenarios" in sdoc.data \
                and not {"cards", "deck"} & set(sdoc.data):   # (what else is wrong, summon test says there)
            ld.problems.append(Problem(display(sf), 1, 1, f"a file of scenario tests (it has `scenarios:`) among "
                                                          f"the card sets: move it to {display(sf.parent / 'tests')}/, "
                                                          f"where summon test finds it"))
            continue
        ld.problems += probs
        if sdoc is None:
            ld.unread_cards = True
            continue
        sprobs = validate(sdoc, schema) if schema_fits else []
        ld.problems += sprobs
        sd = copy.deepcopy(sdoc.data)
        if not isinstance(sd, dict):
            continue
        bad_cards = {keys[1] for keys in _problem_paths(sdoc, sprobs) if len(keys) > 1 and keys[0] == "cards"}
        sid = sd.get("id") if isinstance(sd.get("id"), str) else sdoc.path
        if sid in seen:
            ld.problems.append(sdoc.problem(("id",), f"card set '{sid}' is defined twice: here and at "
                                                       f"{seen[sid]} (rename one of the files' id)"))
            continue
        seen[sid] = f"{sdoc.path}:{sdoc.where(('id',))[0]}"
        ids = []
        for i, cd in enumerate(sd.get("cards") if isinstance(sd.get("cards"), list) else []):
            keys = ("cards", i)
            if not isinstance(cd, dict) or not isinstance(cd.get("id"), str):
                continue
            cid = cd["id"]
            if cid in cards:
                ld.problems.append(sdoc.problem(keys + ("id",),
                                                f"card '{cid}' is defined twice: here and at "
                                                f"{cards[cid].path}:{cards[cid].line} (card ids are one "
                                                f"namespace across every set of a game: rename one)"))
                continue
            lua = []
            for table, declared, what in (("hooks", hooks, "event hook"), ("modifiers", stats, "stat"),
                                          ("abilities", abilities, "ability")):
                fns = cd.get(table)
                if not isinstance(fns, dict):
                    continue
                ld.problems += _check_names(sdoc, keys + (table,), fns, declared, what)
                for name, src in fns.items():
                    if isinstance(src, str):
                        lua.append(_lua_function(sdoc, keys + (table, name), src))
            data = {k: copy.deepcopy(v) for k, v in cd.items() if k not in LUA_TABLES}
            cards[cid] = CardDef(cid, sid, data, sdoc.path, sdoc.where(keys)[0], lua)
            if i not in bad_cards:
                ids.append(cid)
        if not sprobs:   # a pool no seat takes is no set to play
            kept = sets if sd.get("playable", True) else ld.pools
            kept[sid] = SetDef(sid, sd["name"], sdoc.path, {k: v for k, v in sd.items() if k != "cards"}, ids, sf)
        set_docs.append(sdoc)
    return sets, cards, set_docs


def known_names(g: dict, cards: dict[str, CardDef]) -> dict[str, list[str]]:
    """The names of each kind `x-ref` takes, as the game declares them (XREF_KINDS)."""
    hooks, stats, abilities = _declared(g)
    board = g["board"]
    return {
        "hook": hooks, "stat": stats, "ability": abilities,
        "zone": list(g.get("zones") or {}), "counter": list(g.get("counters") or {}),
        "die": list(g.get("dice") or {}), "card": list(cards),
        "phase": [p["id"] for p in g["flow"]["phases"]],
        "space": _space_names(board), "region": list((board.get("regions") or {}).keys()),
        "field": sorted({*CORE_CARD_KEYS, *(g.get("card_fields") or {}), *stats}),
        "tag": sorted({t for c in cards.values() for t in (c.data.get("tags") if isinstance(c.data.get("tags"), list)
                                                           else ()) if isinstance(t, str)}),
    }


def _reference_problems(g: dict, cards: dict[str, CardDef], set_docs: list[yamlio.Document],
                        scripts: list[LuaSource], script_texts: dict[str, str],
                        gdoc: yamlio.Document | None = None) -> list[Problem]:
    """Names that YAML values (x-ref) and scripts' string arguments refer to, in card files
    and in the defaults of options with a schema; deck rules."""
    known = known_names(g, cards)
    problems = []
    schema = card_schema(g)
    deck_rules = (g.get("sets") or {}).get("deck")
    for sdoc in set_docs:
        problems += ref_problems(sdoc, sdoc.data, schema, known)
        if deck_rules:
            try:
                problems += deck_problems(sdoc, sdoc.data, deck_rules, {cid: c.data for cid, c in cards.items()})
            except (TypeError, AttributeError):
                pass  # malformed copies or tags: the schema has already said so
    if gdoc is not None:   # game.yaml's own names (display: zones, a life's stat, fields)
        problems += ref_problems(gdoc, gdoc.data, _game_schema(), known)
    raw_options = (gdoc.data.get("options") if gdoc is not None and isinstance(gdoc.data, dict) else None) or {}
    for name, spec in raw_options.items() if isinstance(raw_options, dict) else ():
        if isinstance(spec, dict) and "default" in spec and isinstance(spec.get("schema"), dict):
            problems += ref_problems(gdoc, spec["default"], spec["schema"], known, ("options", name, "default"))
    for src in scripts:
        text = script_texts.get(src.chunkname)
        problems += lua_problems(src, known, text.splitlines() if text is not None else None)
    lines = {d.path: d.lines for d in set_docs}
    for c in cards.values():
        for src in c.lua:
            problems += lua_problems(src, known, lines.get(src.chunkname))
    return problems


def set_of_file(game: GameDef, path: Path) -> str:
    """The id of the card set a file of the game defines; raises EngineError when none does."""
    shown, real = display(Path(path)), _resolved_or_given(Path(path))
    for sid, s in game.sets.items():
        if s.path == shown or (s.file is not None and _resolved_or_given(s.file) == real):   # (a link to it too)
            return sid
    raise EngineError(f"{path}: defines no card set a seat can play in {game.id}")


def stat_spec(value: int | dict) -> dict:
    """A stat of game.yaml as {default, min?, max?}: from its plain default (`strength: 0`) or
    its map (`strength: {default: 0, min: 0}`; the default is 0 when left out)."""
    if isinstance(value, dict):
        return {"default": 0, **value}
    return {"default": value}


HOST_ONLY_KEYS = ("card_fields", "card_schema", "display", "bots", "balance", "scripts", "sets")


def lua_game_table(gd: GameDef) -> dict:
    """The game definition as the engine's Lua sees it, with lookup sets precomputed. What
    only the host reads (the card schemas, the screen's display, the bots' and the balance
    lab's settings, the scripts' and sets' lists) is left out: every match's runtime would
    hold a copy."""
    g = copy.deepcopy({k: v for k, v in gd.data.items() if k not in HOST_ONLY_KEYS})
    hooks = list(ENGINE_EVENTS) + list(g.get("hooks") or [])
    zones = {}
    for name, z in (g.get("zones") or {}).items():
        zones[name] = {"scope": z.get("scope", "player"), "visibility": z.get("visibility", "public")}
    stats = g.get("stats") or {}
    counters = {}
    for name, c in (g.get("counters") or {}).items():
        counters[name] = {"scope": c.get("scope", "player"), "start": c.get("start", 0),
                          **{k: c[k] for k in ("min", "max") if k in c}}
    g.update(
        zones=zones,
        counters=counters,
        dice=g.get("dice") or {},
        hooks=hooks,
        hookset={h: True for h in hooks},
        stats=list(stats.keys()),
        statset={s: True for s in stats},
        stat_defaults={s: stat_spec(v)["default"] for s, v in stats.items()},
        stat_min={s: stat_spec(v)["min"] for s, v in stats.items() if "min" in stat_spec(v)},
        stat_max={s: stat_spec(v)["max"] for s, v in stats.items() if "max" in stat_spec(v)},
        in_play=g.get("in_play") or [],
        in_play_set={z: True for z in g.get("in_play") or []},
        played_set={h: True for h in (gd.data.get("balance") or {}).get("played") or []},
        options=g.get("options") or {},
        effects_order=(g.get("effects") or {}).get("order", "fixed"),
    )
    return g
