"""`summon check`: every problem of a game, its cards and its scripts, in one run."""
from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

from . import loader, lualint, yamlio
from .errors import DefinitionError, EngineError, Problem, ScriptError
from .files import read_bounded
from .lint import calls_made, old_call_problems, problem_from_lua, token_notes, unemitted_hooks, use_place
from .luac import first_line
from .match import region_owners
from .names import did_you_mean


def _target_game(target: str) -> str:
    """A game id or folder for a check target, which may also be one card file."""
    p = Path(target)
    if p.is_file() and p.suffix == ".lua":   # a rules file: its game (a card file's Lua is in its YAML)
        for folder in p.absolute().parents:
            if (folder / "game.yaml").is_file():
                return str(folder)
        raise EngineError(f"{target}: no game.yaml in this file's folder or above it: it belongs to no game")
    if p.is_file() and p.suffix in loader.YAML_SUFFIXES and p.name != "game.yaml":
        game_dir = p.resolve().parent
        rules = game_dir.parent.parent / "rules" / game_dir.name
        if (rules / "game.yaml").is_file():
            return str(rules)
        if (game_dir.parent / "game.yaml").is_file():
            return str(game_dir.parent)
        raise EngineError(f"{target}: cannot tell which game this file belongs to: a card file goes in "
                          f"cards/<game>/ beside rules/<game>/ (or give --game), and a scenario file holds "
                          f"game: and scenarios:")
    if p.is_file() and p.name == "game.yaml":
        return str(p.resolve().parent)
    if p.is_file() and not loader.list_games().get(target):   # (a file by a game's name is that game)
        raise EngineError(f"{target}: not a game, card, deck or scenario file: summon check takes a game's id "
                          f"or folder, its game.yaml, a YAML file of cards, a deck or scenarios, or a rules .lua file")
    return target


def _display_problems(game, m) -> list[Problem]:
    """The Lua of game.yaml's `display: toolbar` and `display: regions: owners` run on the
    first position, from each seat's view: each must run, and owners must return a table
    region -> player; `display: card_mark` on the marks of a random game (_card_mark_problems)."""
    display = game.data.get("display") or {}
    regions = display.get("regions")
    snippets = [(("display", "toolbar"), display.get("toolbar")),
                (("display", "regions", "owners"), regions.get("owners") if isinstance(regions, dict) else None)]
    for keys, code in snippets:
        if not isinstance(code, str) or not code or m.pending is None:
            continue
        name = ": ".join(keys)
        for seat in range(1, len(m.seats) + 1):
            try:
                res = m.eval(code, chunkname=f"{game.id}/game.yaml {'.'.join(keys)}", seat=seat)
            except ScriptError as e:
                return _display_failed(game, keys, seat, e)
            if keys[-1] == "owners":
                _, bad = region_owners(res[0] if res else None, game.data["board"].get("regions") or {},
                                       len(m.seats))
                if bad:
                    return _in_game_yaml(game, keys, f"{name} {bad}")
    code = display.get("card_mark")
    if isinstance(code, str) and code.strip() and m.pending is not None:
        return _card_mark_problems(game)
    return []


MARK_DECISIONS = 300   # decisions of a random game at whose marks `display: card_mark` is tried


def _card_mark_problems(game) -> list[Problem]:
    """`display: card_mark` tried on every mark in each seat's view, every few decisions of
    a random game (the first position has none, as a rule): it must run and give text."""
    keys = ("display", "card_mark")
    m = plain_match(game)
    while m.pending is not None and m.decisions < MARK_DECISIONS:
        for seat in range(1, len(m.seats) + 1):
            try:
                m.mark_words(seat)
            except ScriptError as e:
                return _display_failed(game, keys, seat, e, f" at decision {m.decisions + 1} of a random game")
            except EngineError as e:
                return _in_game_yaml(game, keys, f"{str(e).splitlines()[0]} (from seat {seat}'s view, at decision "
                                                 f"{m.decisions + 1} of a random game)")
        try:
            m.rollout(seed=m.decisions + 1, max_decisions=5)
        except EngineError:
            break   # (a game that stops is said by the other checks)
    return []


def _display_failed(game, keys: tuple, seat: int, e: ScriptError, when: str = "") -> list[Problem]:
    """A display snippet's error, at the line of game.yaml its Lua's line is on."""
    first = str(e).splitlines()[0]
    at = re.search(re.escape(".".join(keys)) + r":(\d+):", first)
    return _in_game_yaml(game, keys, f"{': '.join(keys)} fails from seat {seat}'s view{when}: {first}",
                         int(at.group(1)) if at else None)


def _in_game_yaml(game, keys: tuple, msg: str, lua_line: int | None = None) -> list[Problem]:
    """A problem at a key of game.yaml, or at a line of the Lua it holds."""
    gpath = game.root / "game.yaml"
    doc, _ = yamlio.load(gpath, loader.display(gpath))
    if doc is None:
        return [Problem(loader.display(gpath), 1, 1, msg)]
    if lua_line is not None:   # the line of game.yaml the Lua's line is on
        return [Problem(doc.path, doc.block_start(keys) + lua_line - 1, 1, msg)]
    return [doc.problem(keys, msg)]


def is_scenario_file(target: str) -> bool:
    """Whether a check target is a file of scenario tests: a map with `scenarios:`, or a
    YAML file in a tests/ folder that is plainly nothing else (as `summon test FOLDER` picks
    them), so that a broken scenario file is said to be broken."""
    from . import scenarios

    p = Path(target)
    if not (p.is_file() and p.suffix in loader.YAML_SUFFIXES):
        return False
    if p.absolute().parent.name == "tests" and not scenarios.other_kind(p):
        return True
    doc, _ = yamlio.load(p, loader.display(p), int_keys=True)
    return doc is not None and isinstance(doc.data, dict) and "scenarios" in doc.data


def check_scenarios(target: str, loaded: dict | None = None) -> list[Problem]:
    """A file of scenario tests without playing it: its schema, its game, each scenario's
    setup (built as `summon test` builds it) and the names its setup Lua uses.
    loaded: the games (and their script shapes) loaded so far, by what the files named, for
    the files of one check to share."""
    from . import scenarios

    doc, problems = scenarios.load_file(Path(target))
    if doc is None:
        return problems
    loaded = {} if loaded is None else loaded
    name = scenarios.own_game(Path(target), doc.data["game"]) or doc.data["game"]
    try:
        if name not in loaded:
            loaded[name] = [loader.load_game(name), None]
        game = loaded[name][0]
    except DefinitionError as e:
        return [doc.problem(("game",), f"the game does not load: {e.problems[0]}")]
    except EngineError as e:
        return [doc.problem(("game",), str(e).splitlines()[0])]
    out: list[Problem] = []
    for i in range(len(doc.data["scenarios"])):
        src = scenarios.setup_lua(doc, i)
        if src is not None:
            if loaded[name][1] is None:
                try:
                    loaded[name][1] = plain_match(game).script_shapes()
                except EngineError:   # the game itself is broken: `summon check GAME` says how
                    return [doc.problem(("game",), f"a match of {game.id} cannot start: check the game")]
            shapes = loaded[name][1]
            found = lualint.problems(src, shapes["scenario"], lualint.defined_globals(game.scripts),
                                     may_set=True, file_lines=doc.lines)
            if found:   # (building the setup would only fail on the first of them, less precisely)
                out += found
                continue
        try:
            match = scenarios.build_match(game, doc, i)
        except scenarios.SetupProblem as problem:
            e = problem.cause
            if e is None:
                out.append(doc.problem(("scenarios", i) + problem.keys, str(problem)))
                continue
            if isinstance(e, DefinitionError):
                out += e.problems
                continue
            failed = problem_from_lua(str(e), "")
            if failed.path and _same_place(failed, Problem(doc.path, failed.line, 1, "")):
                out.append(Problem(failed.path, failed.line, failed.col, f"setup failed: {failed.message}"))
            else:
                out.append(doc.problem(("scenarios", i) + problem.keys, f"setup failed: {str(e).splitlines()[0]}"))
            continue
        for n, step in enumerate(doc.data["scenarios"][i]["steps"]):
            if "expect" in step:
                keys = ("scenarios", i, "steps", n, "expect")
                out += [doc.problem(k, msg) for k, msg in
                        scenarios.unknown_names(game, match.board_spaces(), step["expect"], keys,
                                                scenarios.scenario_words(doc.data["scenarios"][i]), len(match.seats))]
    return sorted(set(out))


def _yaml_problems(target: str) -> list[Problem]:
    """Why a YAML file cannot be parsed (empty when it can, or is no YAML file)."""
    p = Path(target)
    if not (p.is_file() and p.suffix in loader.YAML_SUFFIXES):
        return []
    doc, problems = yamlio.load(p, loader.display(p), int_keys=True)
    return problems if doc is None else []


def _same_place(lua: Problem, other: Problem) -> bool:
    """Whether a problem from a Lua error is on the line of another (Lua shortens long file
    names to "...their end")."""
    path = lua.path[3:] if lua.path.startswith("...") else lua.path
    return lua.line == other.line and other.path.endswith(path)


def cannot_start(game, error: str) -> Problem:
    """The problem of a game whose match stops before its first decision: at the script line
    the error names (with the API function meant, for a misspelt one), else at game.yaml."""
    first = error.splitlines()[0] if error else ""
    placed = problem_from_lua(first, "")
    if not placed.path:   # (the step budget's message says where the script was: " at FILE:LINE")
        at = re.search(r" at (\S+):(\d+)\b", first)
        if at:
            return Problem(at.group(1), int(at.group(2)), 1, f"a match cannot start: {first}")
        return Problem(loader.display(game.root / "game.yaml"), 1, 1, f"a match cannot start: {first}")
    said = placed.message.removeprefix("Lua: ")
    field = re.search(r"attempt to call a nil value \(field '(\w+)'\)", said)
    if field:
        said += _api_suggestion(game, placed, field.group(1))
    return Problem(placed.path, placed.line, 1, f"a match cannot start: {said}")


def _api_suggestion(game, at: Problem, name: str) -> str:
    """' (zones.shufle: did you mean zones.shuffle?)' when the line calls table.name and
    the engine's API has a function of that table near the name."""
    from . import docs
    from .names import nearest

    line = None
    for path in (Path(at.path), game.root.parent.parent / at.path):   # (as shown, or in its games folder)
        try:
            line = path.read_text(encoding="utf-8", errors="replace").splitlines()[at.line - 1]
            break
        except (OSError, IndexError):
            continue
    if line is None:
        return ""
    call = re.search(r"(\w+)\s*\.\s*" + re.escape(name) + r"\b", line)
    if not call:
        return ""
    table = call.group(1)
    names = [e.name.split(".", 1)[1] for e in docs.engine_entries() if e.name.startswith(table + ".")]
    near = nearest(name, names)
    return f" ({table}.{name}: did you mean {table}.{near}?)" if near else ""


def plain_match(game):
    """A match of the game with its fewest seats and no scenario."""
    from .match import Match, Seat

    return Match(game, 1, [Seat("random") for _ in range(game.data["players"]["min"])], quiet=True)


def check(target: str, game_id: str | None = None) -> list[Problem]:
    """Loads a game fully (YAML, schemas, references, deck rules, Lua) and builds a match
    to run its scripts' top level; returns every problem found. With game_id, target may be
    a card or deck file kept anywhere, checked as one more card set of that game. A file
    of scenario tests is checked as such (check_scenarios). A game's own scenario files
    are checked with it as `summon check FILE` checks them (form, names, each scenario's
    setup built), or only for their form when the game itself has problems; `summon test`
    plays them."""
    if game_id is None and is_scenario_file(target):   # (with --game, a file is a card or deck file)
        return check_scenarios(target)
    if game_id is not None and Path(target).suffix == ".lua":
        game_id = None   # a rules file is no card file: its game is the one it is in
    wanted = deck_cards(Path(target)) if game_id is None and Path(target).is_file() else None
    if wanted:   # a deck kept outside any game: the game whose cards it names
        try:
            _target_game(target)
        except EngineError:
            game_id = deck_game(wanted)[0]
    found = _check_game(target, game_id)
    p = Path(target)
    if not p.is_file() or p.name == "game.yaml" or p.suffix == ".lua":   # a game, however named
        from . import scenarios
        try:
            rules_dir, _ = loader.resolve(_target_game(target))
        except EngineError:
            return found
        whole, loaded = not found, {}
        for f in scenarios.game_tests(rules_dir):
            found += check_scenarios(str(f), loaded) if whole else scenarios.load_file(f)[1]
    return sorted(set(found))


def _check_game(target: str, game_id: str | None) -> list[Problem]:
    """check() of a game, or of a card or deck file as one more set of its game."""
    try:
        if game_id is not None and Path(target).is_file():
            game = loader.load_game(game_id, extra_cards=[Path(target)])
        else:
            game = loader.load_game(_target_game(target))
    except DefinitionError as e:
        return sorted(set(e.problems + _names_in_scripts_of(e.partial)))
    except EngineError:
        unreadable = _yaml_problems(target)
        if unreadable:   # what it is, and so which game it is for, cannot be read either
            return unreadable
        raise
    old = old_calls(game)
    if old:
        return old   # the match would stop at the first of them
    pl = game.data["players"]
    in_sets = _set_problems(game)
    try:
        m = plain_match(game)
    except DefinitionError as e:
        return e.problems
    except EngineError as e:
        return in_sets or [cannot_start(game, str(e))]   # (what check_set found says why, at its place)
    found = in_sets + script_problems(game, m.script_shapes())
    found += _display_problems(game, m)
    if not found and m.pending is not None:
        try:
            found += _data_outside_state(game)
            found += _offers_forks_cannot_copy(game)
            found += [] if found else _each_set_played(game)   # (an error met already is said once)
            found += [] if found else _modifiers_that_write(game)
            found += [] if found else _samples_that_fail(game)
            found += [] if found else _readings_that_differ(game)
        except EngineError as e:   # (the random games these play stopped: a script's error)
            where = loader.display(game.root / "game.yaml")
            return sorted(set(found + [Problem(where, 1, 1, f"a random game stopped: {str(e).splitlines()[0]}")]))
    if game.evaluator is not None and m.pending is not None:
        for seat in range(1, pl["min"] + 1):   # the bots' evaluation runs on the first position
            try:
                m.evaluate(seat)
            except ScriptError as e:
                failed = _stopped_game(game, e, f"in the bots' evaluation of the first position for seat {seat}")
                if not any(_same_place(failed, p) for p in found):
                    found.append(failed)   # (else the check has said more precisely what fails there)
                return sorted(set(found))
    return sorted(set(found))


def _set_problems(game) -> list[Problem]:
    """What the rules' check_set(set) finds in each card set, at its place in the set's file
    (the set's id when it names none); an error of check_set itself at its own line."""
    from .runtime import rules_runtime

    try:
        found = rules_runtime(game).check_sets()
    except (EngineError, MemoryError):
        return []   # (rules that do not load: said elsewhere)
    out, docs = [], {}
    yaml = loader.display(game.root / "game.yaml")
    for set_id, keys, message, defined in found:
        s = game.sets.get(set_id)
        where = yaml if s is None else s.path
        if defined is not None:
            p = _placed_error(game, message)
            if defined and (p.path.startswith("engine/") or p.path == yaml):   # (no place of the game's scripts)
                p = _placed_error(game, defined + re.sub(r"^engine/lua/\w+\.lua:\d+: ", "", message))
            out.append(dataclasses.replace(p, message=f"{p.message} (check_set of card set {set_id})"
                                           if defined else p.message))
            continue
        if s is None or s.file is None:
            out.append(Problem(where, 1, 1, f"card set {set_id}: {message}"))
            continue
        if s.file not in docs:
            docs[s.file] = yamlio.load(s.file, s.path)[0]
        doc = docs[s.file]
        if doc is not None and keys and keys not in doc.positions and keys not in doc.key_positions:
            shown = ", ".join(str(k + 1) if isinstance(k, int) else json.dumps(k) for k in keys)
            message += f" (its place, at = {{{shown}}}, is not in the file)"
            keys = None
        keys = keys or ("id",)
        if doc is None:
            out.append(Problem(where, 1, 1, message))
        elif isinstance(keys[-1], str):
            out.append(doc.key_problem(keys, message))   # (a mapping's key: its own line, not its value's)
        else:
            out.append(doc.problem(keys, message))
    return out


def _names_in_scripts_of(game) -> list[Problem]:
    """For a game that does not load (DefinitionError.partial: its cards or references have
    problems), what its scripts name that they cannot see, so that one run of `summon check`
    reports these beside the YAML's problems. The rules run without any card to learn what
    each kind of script can name (card scripts see the same whatever the cards); a game whose
    rules do not run is left to the problems already found."""
    if game is None:
        return []
    from .runtime import rules_runtime

    try:
        shapes = rules_runtime(dataclasses.replace(game, cards={}, sets={})).script_shapes()
    except (EngineError, MemoryError):
        return []
    for shape in shapes.values():   # (the sets and cards that did load are there to read: `sets.market`)
        fields = shape.get("fields") or {}
        for name, ids in (("sets", game.sets), ("defs", game.cards)):
            if isinstance(fields.get(name), set):
                fields[name] |= set(ids)
    return script_problems(game, shapes)


SHARE_DECISIONS = 200   # decisions each match of the shared-runtime check plays


def _data_outside_state(game) -> list[Problem]:
    """A match built in the runtime of another (as `summon sim` builds game after game, and
    as forks live beside their match) must play as one built alone: it does unless a script
    keeps match data outside `state`. Checked with random playouts, so a leak that these
    games do not reach goes unseen."""
    from .match import Match, Seat

    seats = [Seat("random") for _ in range(game.data["players"]["min"])]
    try:
        kept = _card_kept_in_play(game, Match(game, 1, seats, quiet=True))   # (answers one by one)
        if kept is not None:
            return [kept]
        first = Match(game, 1, seats, quiet=True)
        first.rollout(seed=1, max_decisions=SHARE_DECISIONS)
        second = Match(game, 2, seats, quiet=True, beside=first)
        shared = second.rules_globals()   # (what a match starts with, beside another or alone)
        second.rollout(seed=2, max_decisions=SHARE_DECISIONS)
        alone = Match(game, 2, seats, quiet=True)
        own = alone.rules_globals()
        alone.rollout(seed=2, max_decisions=SHARE_DECISIONS)
    except ScriptError as e:   # a script that fails in these games fails in play: said where it is
        return [_stopped_game(game, e)]
    except EngineError:
        return []
    if second.error is not None or alone.error is not None:
        return []
    if second.answers == alone.answers and second.state_hash() == alone.state_hash():
        return []
    n = next((i for i, (a, b) in enumerate(zip(second.answers, alone.answers)) if a != b),
             min(len(second.answers), len(alone.answers)))
    # (values before tables: a table may be a cache of definitions, which may stay)
    changed = sorted((k for k in shared.keys() & own.keys() if shared[k] != own[k] and k != "state"),
                     key=lambda k: (own[k].startswith("a table of "), k))
    which = (" (" + ", ".join(f"{_rules_name(k)} starts at {own[k]} alone, at {shared[k]} after another match"
                              for k in changed[:3]) + ")" if changed else "")
    # (said at the function keeping the first local that changed, else at game.yaml)
    kept = next((re.search(r"\(kept by \S+, (.+):(\d+)\)$", k) for k in changed if k.startswith("local ")), None)
    path, line, col = (kept.group(1), int(kept.group(2)), 1) if kept else \
        _global_changed_at(game, changed[0]) if changed else (loader.display(game.root / "game.yaml"), 1, 1)
    return [Problem(path, line, col,
                    f"a match built after another one played differently from the same match built alone "
                    f"(from decision {n + 1}): a script keeps match data outside `state`, such as a file-level "
                    f"variable a function changes{which}; `summon sim` and the bots' forks need every match's "
                    f"data in `state` (caches of card definitions or the board may stay)")]


def _card_kept_in_play(game, m) -> Problem | None:
    """A card the state keeps whole outside state.cards (E.card_kept), which every view
    refuses, looked for after each decision of a random game of m (which it plays on), and
    placed at the line of a script that sets where it was found (_card_kept_at)."""
    for i in range(SHARE_DECISIONS + 1):
        kept = m.card_kept()
        if kept is not None:
            return _card_kept_at(game, *kept, m.decisions)
        if m.pending is None:
            break
        m.rollout(seed=1000 + i, max_decisions=1)
    return None


def _card_kept_at(game, path: str, card: int, decision: int) -> Problem:
    """The problem of a card kept whole at `path`, placed at the first line of a script that
    sets it: the key under the state's part, with what follows it (`.duel[p] =` for
    state.vars.duel[1]), else the key alone (`.duel =`), else game.yaml."""
    keys = re.findall(r"\.([A-Za-z_]\w*)", path)
    name = keys[1] if len(keys) > 1 and path.startswith("state.vars") else keys[-1] if keys else None
    where = (loader.display(game.root / "game.yaml"), 1, 1)
    if name is not None:
        deeper = re.search(rf"\.{re.escape(name)}(?=[.\[])", path) is not None
        pat = re.escape(name)
        tries = ([re.compile(rf"(?:\.{pat}|\[\s*[\'\"]{pat}[\'\"]\s*\])(?:\.\w+|\[[^\]]*\])+\s*=(?!=)")]
                 if deeper else [])
        tries.append(re.compile(rf"(?:\.{pat}|\[\s*[\'\"]{pat}[\'\"]\s*\])\s*=(?!=)"))
        files = _file_lines(game)
        found = None
        for sets in tries:
            for src, _kind in _scripts(game):
                start, code = first_line(src.source)
                hit = next(((i, h) for i, line in enumerate(code.splitlines(), 1) if (h := sets.search(line))), None)
                if hit:
                    found = (src, start, code, hit)
                    break
            if found:
                break
        if found:
            src, start, code, (line, hit) = found
            where = (src.chunkname, *use_place(src, start, code, files.get(src.chunkname), line,
                                               hit.start() + 2, hit.group(0)[1:]))
    return Problem(*where, f"{path} holds card {card} itself, and a seat's view holds what it is kept in whole: the "
                           f"card would be shown to every seat, face and all; keep in the state only what every seat "
                           f"may know of it (its id is no secret either: ids follow the order cards were made in) "
                           f"(at decision {decision} of a random game summon check played)")


def _global_changed_at(game, name: str) -> tuple[str, int, int]:
    """Where the rules change a global: the second place a script sets it (the first
    gives its value to start with), else the only one, else game.yaml."""
    writes = []
    for src in game.scripts:
        start, code = first_line(src.source)
        writes += [(src.chunkname, start + u.line - 1, u.col) for u in lualint.scan(code).uses
                   if u.kind == "write" and u.name == name]
    if not writes:
        return loader.display(game.root / "game.yaml"), 1, 1
    return writes[1] if len(writes) > 1 else writes[0]


def _rules_name(key: str) -> str:
    """A key of Match.rules_globals in words: "the rules' global X", or "the local X of a rules
    file that F (FILE:LINE) keeps"."""
    m = re.fullmatch(r"local (\S+) \(kept by (\S+), (.+)\)", key)
    return f"the local {m.group(1)} that {m.group(2)} ({m.group(3)}) keeps" if m else f"the rules' global {key}"


def _placed_error(game, msg: str) -> Problem:
    """A script's error at the line it names: Lua's own place, else the card's line that led
    there (error(msg, 0) names none), else where the step budget stopped the script, else
    game.yaml."""
    p = problem_from_lua(msg, "")
    called = re.search(r"^  called from (.+?):(\d+)(?: \(the function defined there, .*\))?$", msg, re.M)
    if not p.path and called:
        p = Problem(called.group(1), int(called.group(2)), 1, p.message)
    if not p.path:   # (the step budget's message says where the script was: " at FILE:LINE")
        at = re.search(r" at (\S+):(\d+)\b", msg.splitlines()[0] if msg else "")
        p = Problem(at.group(1), int(at.group(2)), 1, p.message) if at else \
            Problem(loader.display(game.root / "game.yaml"), 1, 1, p.message)
    return p


def _stopped_game(game, e: ScriptError, during: str = "in a random game summon check played") -> Problem:
    """The problem of a script error met in a random game the check played (or `during`
    something else), at the line the error names (else at game.yaml)."""
    p = _placed_error(game, str(e))
    # (the card whose script was running: its hook's parameters swapped, say, fail in the rules)
    lines = str(e).splitlines()[1:]
    caller = next((f", {x.strip()}" for x in lines if x.startswith("  called from ")), "")   # (a card's line)
    cards = (re.fullmatch(r"\s*(?:in|<-) (.+ of .+?) \(card \d+\)(, within .*)?", x) for x in lines)
    card = caller + next((f", in {m.group(1)}" for m in cards if m), "")
    return Problem(p.path, p.line, p.col, f"{p.message}{card} ({during})")


SET_GAMES = 6            # random games each card set plays in _each_set_played, from another seat each
SET_GAMES_ALL = 60       # ... and all sets together at most (fewer each, at least one, past ten sets)
SET_DECISIONS = 1000     # decisions each of those plays


def _set_game_stopped(game, e: ScriptError, set_id: str, seat: int, seed: int) -> Problem:
    """The problem of a script error met in a random game with set_id in that seat."""
    p = _stopped_game(game, e)
    return Problem(p.path, p.line, p.col, p.message.replace(
        "(in a random game summon check played)",
        f"(in a random game summon check played: {set_id} in seat {seat}, seed {seed})"))


def _each_set_played(game) -> list[Problem]:
    """Short random games in which each card set a seat may play takes a seat (the first
    in one game, the second in the next...), so that a script error of its cards is met
    here, not in a later `summon sim`: the games above seat the first sets only. A deck
    file checked with --game is one such set."""
    from .match import Match, Seat

    if not (game.data.get("sets") or {}).get("per_seat"):
        return []
    n = game.data["players"]["min"]
    each = max(1, min(SET_GAMES, SET_GAMES_ALL // max(1, len(game.sets))))
    for set_id in sorted(game.sets):
        for g in range(each):
            seats = [Seat("random", set_id if i == g % n else None) for i in range(n)]
            try:
                Match(game, g + 1, seats, quiet=True).rollout(seed=g + 1, max_decisions=SET_DECISIONS)
            except ScriptError as e:
                return [_set_game_stopped(game, e, set_id, g % n + 1, g + 1)]
            except EngineError:
                break   # (this set's matches cannot be built: its problems are said elsewhere)
    return []


def _offers_forks_cannot_copy(game) -> list[Problem]:
    """A phase's `offer` is copied with the checkpoints that forks start from, so it must be
    plain data: a match that keeps checkpoints (as a searching bot's does) plays random
    answers, and an offer holding a function is reported at the offer function's file and
    line. Checked with a random playout, so an offer these games do not reach goes unseen."""
    from .match import Match, Seat

    phases = [p for p in game.data["flow"]["phases"] if "offer" in p]
    if not phases:
        return []
    seats = [Seat("random") for _ in range(game.data["players"]["min"])]
    try:
        Match(game, 1, seats, quiet=True).keep_checkpoints().rollout(seed=1, max_decisions=SHARE_DECISIONS)
    except ScriptError as e:
        message = str(e).splitlines()[0]
    except EngineError:
        return []
    else:
        return []
    if not any(f"the offer of phase {p['id']} ({p['offer']}) must be plain data" in message for p in phases):
        return []   # (another failure in play: for play and `summon test` to report)
    return [problem_from_lua(message, loader.display(game.root / "game.yaml"))]


MODIFIER_POSITIONS = 10   # positions of a random game at which every modifier in play is run alone
MODIFIER_SETS = 20        # ... in a game for each card set a seat may play, up to this many sets


def _first_difference(before, after, path: str = "state") -> str:
    """Where two JSON values first differ, as a path (state.cards[12].vars.seen: a list by its
    position from 1, as Lua counts)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for k in sorted(before.keys() | after.keys()):
            if k not in after or k not in before:
                return f"{path}.{k}"
            if before[k] != after[k]:
                return _first_difference(before[k], after[k], f"{path}.{k}")
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (a, b) in enumerate(zip(before, after)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i + 1}]")
    return path


def _modifiers_that_write(game) -> list[Problem]:
    """A modifier may only compute a value: it runs whenever a stat is read (by the rules,
    the screens, each seat's view and the bots), so a change it made to the match would
    happen at no moment of the game, and differ with who looked. At positions of a random
    game (one for each card set a seat may play, in the first seat, up to MODIFIER_SETS of
    them) each modifier in play is run alone on every card, and one that changes the state
    is reported at its file and line with the first place it changed. Modifiers not in play
    in these positions go unseen."""
    from .match import Match, Seat

    n = game.data["players"]["min"]
    per_seat = (game.data.get("sets") or {}).get("per_seat")
    firsts = sorted(game.sets)[:MODIFIER_SETS] if per_seat else [None]
    found = None
    for first in firsts:
        seats = [Seat("random", first if i == 0 else None) for i in range(n)]
        try:
            m = Match(game, 1, seats, quiet=True)
            for k in range(MODIFIER_POSITIONS):
                found = m.modifier_that_writes()
                if found is not None or m.pending is None:
                    break
                m.rollout(seed=k + 1, max_decisions=SHARE_DECISIONS // MODIFIER_POSITIONS)
        except ScriptError as e:   # a script that fails in these games fails in play: said where it is
            return [_set_game_stopped(game, e, first, 1, 1) if first else _stopped_game(game, e)]
        except EngineError:
            continue   # (this set's matches cannot be built: its problems are said elsewhere)
        if found is not None:
            break
    if found is None:
        return []
    at, what, before, after, error = found
    changed = (f"at {_first_difference(json.loads(before), json.loads(after))}" if after is not None
               else f"the state can no longer be written: {error}")
    return [problem_from_lua(
        f"{at}{what} changes the match's state when it runs ({changed}): a modifier may only compute the "
        f"value, as it runs whenever a stat is read (by the rules, the screens, each seat's view, the bots), "
        f"so its change would happen at no moment of the game; make the change in a hook or a phase, and "
        f"let the modifier read it", loader.display(game.root / "game.yaml"))]


SAMPLE_POSITIONS = 6     # positions of a random game at which each seat's bot imagines worlds
SAMPLES = 2              # ... worlds each (Match.sample), each played on a while
SAMPLE_DECISIONS = 60    # ... for this many random decisions


def _samples_that_fail(game) -> list[Problem]:
    """A search bot plays on in worlds dealt from its seat's view (Match.sample): the cards
    it cannot see are dealt again among the hidden cards they could be. A game whose
    rules expect one kind of card in a place (events in the event deck) fails there when a
    world puts another kind in it, in every bot game and never in a random one. At positions
    of a random game, each seat's worlds are played on a while; a script error met there is
    said at its line, with what to do about it."""
    from .match import Match

    n = game.data["players"]["min"]
    try:
        m = Match(game, 1, _random_seats(game), quiet=True)
        m.keep_checkpoints()
    except EngineError:
        return []   # (said elsewhere)
    for k in range(SAMPLE_POSITIONS):
        # (a bot samples the seat asked, so each seat's worlds come from a position where it
        # is asked: the random game goes on a decision at a time until each seat has been)
        waiting = set(range(1, n + 1))
        for _ in range(SHARE_DECISIONS):
            if m.pending is None or not waiting:
                break
            seat = m.pending.player
            if seat in waiting:
                waiting.discard(seat)
                problem = _sampled_worlds_fail(game, m, seat, k)
                if problem is not None:
                    return [] if problem is False else [problem]
            try:
                m.rollout(seed=1000 * k + m.decisions, max_decisions=1)
            except ScriptError:
                return []   # (the game itself fails: said by the checks before)
        if m.pending is None:
            break
        try:
            m.rollout(seed=k + 1, max_decisions=SHARE_DECISIONS // SAMPLE_POSITIONS)
        except ScriptError:
            return []
    return []


def _sampled_worlds_fail(game, m, seat: int, k: int) -> "Problem | bool | None":
    """_samples_that_fail at one position: the problem met in one of seat's worlds, False
    for a world this game cannot deal (not this check's to say), None when all play on."""
    for j in range(SAMPLES):
        seed = 1000 * k + 10 * seat + j
        try:
            world = m.sample(seat, seed)
            world.rollout(seed=seed, max_decisions=SAMPLE_DECISIONS)
        except ScriptError as e:
            p = _stopped_game(game, e, f"in a world a bot of seat {seat} imagined, at decision {m.decisions + 1} "
                                       f"of a random game")
            return Problem(p.path, p.line, p.col, p.message + (
                ": a search bot plays on in worlds where the cards its seat cannot see are dealt again "
                "among the hidden cards they could be, so a card of another kind may lie where the "
                "rules expect one kind; mark the face-down cards the rules tell apart (cards.mark) and "
                "define fits(mark, def) in the evaluation file, or let the rules read any card there (an "
                "error that comes from no card of another kind is one a game can meet too: fix it there)"))
        except EngineError:
            return False
    return None


def _readings_that_differ(game) -> list[Problem]:
    """What a seat reads that its view does not explain (engine/fairness.py), in random games
    (AUDIT_GAMES: seeds, and players past the fewest where the game allows more), the first
    seat playing the first set when seats bring sets; at most five, each at its own place."""
    from . import fairness
    lines, out = _file_lines(game), {}
    pl = game.data["players"]

    def accepted(f) -> bool:   # (a line the modder marked: what it says or writes, the rules make public)
        p = fairness.placed(game, f, lines)
        text = lines.get(p.path) or []
        return 0 < p.line <= len(text) and _PUBLIC_COMMENT.search(text[p.line - 1]) is not None
    for seed, more in AUDIT_GAMES:
        for f in fairness.audit(game, _random_seats(game, min(pl["max"], pl["min"] + more)), seed, accepted=accepted):
            p = fairness.placed(game, f, lines)
            if p.path in lines and not p.path.endswith("game.yaml"):
                p = dataclasses.replace(p, message=p.message + f"; where the rules mean every seat to know it, end "
                                                               f"the line with the comment `{PUBLIC_BY_RULE}`")
            out.setdefault((p.path, p.line, p.col), p)
        if len(out) >= 5:
            break
    return list(out.values())[:5]


AUDIT_GAMES = [(1, 0), (2, 1), (3, 0)]   # the fairness audit's games: (seed, players past the fewest)
PUBLIC_BY_RULE = "-- check: public"     # a script line's comment: what it says or writes, the rules tell all
_PUBLIC_COMMENT = re.compile(r"--\s*check\s*:\s*public\b")   # (spaced as one likes)


def _random_seats(game, n: int | None = None) -> list:
    """Random bots for n players (the fewest by default); the first plays the first card set
    when seats bring one."""
    from .match import Seat

    first = sorted(game.sets)[0] if (game.data.get("sets") or {}).get("per_seat") and game.sets else None
    return [Seat("random", first if i == 0 else None) for i in range(n or game.data["players"]["min"])]


def _file_lines(game) -> dict[str, list[str]]:
    """The lines of each file of a game, by the name its Lua's chunks give it."""
    lines = {}
    for f in game.files:
        try:
            lines[loader.display(f)] = read_bounded(Path(f), yamlio.MAX_BYTES).decode("utf-8").splitlines()
        except (EngineError, UnicodeDecodeError):
            pass
    return lines


def _scripts(game) -> list[tuple]:
    """Each script of the game with its kind: rules, card or evaluation."""
    kinds = [(src, "rules") for src in game.scripts] + [(src, "card") for c in game.cards.values() for src in c.lua]
    if game.evaluator is not None:
        kinds.append((game.evaluator, "evaluation"))
    return kinds


def script_problems(game, shapes: dict[str, dict], only=None, members=None) -> list[Problem]:
    """What the game's scripts name that their kind of script cannot see (engine/lualint.py):
    unknown globals, fields and options, pairs() over what cannot be listed, and a card's
    script that sets a global. shapes: Match.script_shapes() of a match of the game.
    only: a test of which scripts (LuaSource) to look at; default every one. members
    (member_names): only the fields read by a name nothing sets, instead (field_notes)."""
    kinds = [(src, kind) for src, kind in _scripts(game) if only is None or only(src)]
    if not kinds:
        return []
    lines = _file_lines(game)
    rules_globals = lualint.defined_globals(game.scripts)
    out = []
    for src, kind in kinds:
        out += lualint.problems(src, shapes[kind], rules_globals if kind != "evaluation" else set(),
                                may_set=kind != "card", file_lines=lines.get(src.chunkname), members=members)
    return out


def field_notes(game) -> list[str]:
    """Notes of fields read by a name that nothing sets and that is close to a known one
    (member_names): likely misspelt, as they always read nil (`ev.card.deff`). A guess, so
    a note: a name the rules build in a way the check cannot see is no mistake."""
    from .runtime import rules_runtime

    try:
        shapes = plain_match(game).script_shapes()
    except (EngineError, MemoryError):
        try:   # (a match that cannot start: the rules' runtime alone says what scripts can see)
            shapes = rules_runtime(game).script_shapes()
        except (EngineError, MemoryError):
            return []
    members = member_names(game, shapes)
    if members is None:
        return []
    found = script_problems(game, shapes, members=members)
    return [f"{p.path}:{p.line}:{p.col}: note: {p.message}" for p in sorted(set(found))]


def member_names(game, shapes: dict[str, dict]) -> tuple[set[str], set[str], lualint.Built] | None:
    """Every field name a table of the game may have: what its scripts and the engine set or
    spell out, what the engine's tables hold, and the keys of its YAML (card definitions,
    options and the rest of game.yaml, card sets); those of them to suggest (the same
    without the engine's other words: its locals, its comments); and how the scripts build
    names at run time (lualint.Built). None when a script cannot be read."""
    sources = [src for src, _ in _scripts(game)]
    defined = lualint.defined_members(sources)
    if defined is None:
        return None
    engine_all, engine_fields = lualint.engine_words()
    names = defined[0] | engine_fields
    globals_ = lualint.defined_globals(sources)   # (_G.name reads a global: known, never suggested)
    for shape in shapes.values():
        globals_ |= set(shape["globals"])
        for fields in shape["fields"].values():
            names |= set(fields)

    def keys(value) -> None:   # (and names given as values: hooks, abilities)
        names.update(w for w in _yaml_words(value) if w.isidentifier())

    keys(game.data)
    for c in game.cards.values():
        keys(c.data)
        for src in c.lua:
            names.update(k for k in src.field if isinstance(k, str))
    for st in game.sets.values():
        keys(st.data)
    return names | engine_all | globals_, names, defined[1]


def notes(target: str, game_id: str | None = None, *, fields_only: bool = False) -> list[str]:
    """What `summon check` mentions about a sound game without calling it a problem. With
    fields_only, only the fields that look misspelt (field_notes): beside the problems of a
    game that loads, as one may be their cause (a misspelt field read as nil, then indexed)."""
    if game_id is None and is_scenario_file(target):
        return [] if fields_only else _scenario_notes(target)
    if game_id is not None and Path(target).suffix == ".lua":
        game_id = None
    wanted = deck_cards(Path(target)) if game_id is None and Path(target).is_file() else None
    try:
        try:
            game_id = game_id or _target_game(target)
        except EngineError:
            if not wanted:
                raise
            game_id = deck_game(wanted)[0]   # (a deck kept outside any game: check's game for it)
        game = loader.load_game(game_id)
    except (DefinitionError, EngineError):
        return []
    if fields_only:
        return field_notes(game)
    out = []
    unplayable = _deck_no_seat_plays(Path(target), game)
    if unplayable is not None:
        out.append(f"{unplayable.path}:{unplayable.line}:{unplayable.col}: note: {unplayable.message}")
    if game.evaluator is None:
        where = loader.display(game.root / "game.yaml")
        out.append(f"{where}: note: no `bots: evaluate:` file, so the greedy and mcts bots judge "
                   f"{game.id} by a generic evaluation (each seat's share of the cards in play)")
    for name, value in (game.data.get("options") or {}).items():
        if isinstance(value, dict) and {"min", "max", "schema"} & set(value):   # (a table is a value options may hold)
            out.append(f"{loader.display(game.root / 'game.yaml')}: note: option {name} is the table "
                       f"{json.dumps(value, sort_keys=True)[:200]}, having no default; a number with bounds is "
                       f"written {{default: N, min: ..., max: ...}}, a value with a schema {{default: V, schema: ...}}")
    sources = list(game.scripts) + [src for c in game.cards.values() for src in c.lua]
    sources += [game.evaluator] if game.evaluator is not None else []
    out += [n for n in map(lualint.unread_note, sources) if n is not None]
    fields = field_notes(game)
    hints = _event_field_hints(game, sources)
    for i, n in enumerate(fields):   # (an event's field: matched against what its emits give)
        where, _, said = n.partition(": note: ")
        misspelt = re.match(r"no table of the game or the engine has a field '([^']*)'(?: \(did you mean '([^']*)'\?\))?",
                            said)
        if where in hints and misspelt and misspelt.group(2) not in hints[where][1]:   # (else it is right as it is)
            event, keys = hints[where]
            fields[i] = (f"{where}: note: no table of the game or the engine has a field '{misspelt.group(1)}' "
                         f"(the emits of '{event}' give: {', '.join(keys)}){did_you_mean(misspelt.group(1), keys)}")
    out += fields
    placed = {n.split(": note: ")[0] for n in fields}   # (one note a place: the misspelt field's says it)
    out += [f"{p.path}:{p.line}:{p.col}: note: {p.message}"
            for p in sorted(set(token_notes(sources, _file_lines(game))))]
    out += _hook_notes(game, sources)
    out += _tag_notes(game, sources)
    out += _stray_scenario_notes(game.root)
    out += _comparison_notes(game, sources)
    out += _unread_local_notes(game, sources)
    out += [n for n in _event_field_notes(game, sources) if n.split(": note: ")[0] not in placed]
    out += _stat_notes(game, sources)
    out += _definition_notes(game)
    out += _in_play_notes(game)
    for src, u, was, w in lualint.redefined_functions(game.scripts):
        out.append(f"{src.chunkname}:{first_line(src.source)[0] + u.line - 1}:{u.col}: note: the function '{u.name}' "
                   f"is already defined at {was.chunkname}:{first_line(was.source)[0] + w.line - 1}:{w.col}; this "
                   f"one, loaded later, replaces it for every script (give one of them another name)")
    out += [f"{src.chunkname}:{u.line}:{u.col}: note: this sets a global '{u.name}' that no script reads (did you "
            f"mean the local '{near}'? a name no local has makes a global)"
            for src, u, near in lualint.unread_global_writes(game.scripts, sources, set(_yaml_words(game.data)))]
    out += _missing_schema_notes(game)
    schema = game.root / "cards.schema.json"
    if schema.is_file() and schema.read_text(encoding="utf-8") != card_schema_text(str(game.root)):
        out.append(f"{loader.display(schema)}: note: out of date with game.yaml (card_fields, stats, hooks...), "
                   f"so editors check card files against old fields: run `summon schema {game.id} --write`")
    return out


SCHEMA_LINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")


def _missing_schema_notes(game) -> list[str]:
    """A note at a card or deck file's `$schema` line (among its first lines) that names a
    card schema (cards.schema.json) no file is at: an editor then checks the file against
    nothing, and says nothing about it."""
    cards_dir = loader.cards_beside(game.root)
    out = []
    for f in loader.yaml_files(cards_dir, deep=True) if cards_dir else []:
        try:
            head = f.read_text(encoding="utf-8", errors="replace")[:2000].splitlines()[:5]
        except OSError:
            continue
        for n, line in enumerate(head, 1):
            m = SCHEMA_LINE.match(line.strip())
            if m is None or "://" in m.group(1) or Path(m.group(1)).name != "cards.schema.json":
                continue
            if not (f.parent / m.group(1)).is_file():
                col = line.index(m.group(1)) + 1
                own = game.root / "cards.schema.json"
                if (f.parent / m.group(1)).resolve() == own.resolve():
                    fix = f"run `summon schema {game.id} --write` to write it"
                else:
                    fix = f"the game's card schema is $schema={Path(os.path.relpath(own, f.parent)).as_posix()}"
                    if not own.is_file():
                        fix += f" (`summon schema {game.id} --write` writes it)"
                out.append(f"{loader.display(f)}:{n}:{col}: note: no file is at {m.group(1)}, the schema this "
                           f"line gives an editor, so the editor checks the file against nothing: {fix}")
            break
    return out


def _hook_notes(game, sources) -> list[str]:
    """A note at each hook game.yaml declares that no script emits (emit("name", ...))."""
    declared = game.data.get("hooks") or []
    missing = unemitted_hooks(sources, declared, loader.ENGINE_EVENTS) if isinstance(declared, list) else []
    if not missing:
        return []
    gdoc, _ = yamlio.load(game.root / "game.yaml", loader.display(game.root / "game.yaml"))
    out = []
    for i, name in missing:
        p = gdoc.problem(("hooks", i), "")
        users = sorted(str(c.data.get("name", c.id)) for c in game.cards.values()
                       if any(src.field[2:4] == ("hooks", name) for src in c.lua))
        who = (f"the {name} hooks of {', '.join(users[:3])}{' and more' if len(users) > 3 else ''} never run"
               if users else "a card's hook on it would never run")
        out.append(f"{p.path}:{p.line}:{p.col}: note: no script emits the hook '{name}' (emit(\"{name}\", ...)), "
                   f"so {who}")
    return out


def _tag_notes(game, sources) -> list[str]:
    """A note at a tag that one card alone carries and that no script, deck rule or other
    YAML of the game mentions: likely misspelt when close to a tag in use (`unti`), or a
    card field written as a tag (`tags: [flying]` where the game reads `flying: true`)."""
    carriers: dict[str, list] = {}
    for c in game.cards.values():
        tags = c.data.get("tags")
        for t in tags if isinstance(tags, list) else []:
            if isinstance(t, str) and c not in carriers.setdefault(t, []):
                carriers[t].append(c)
    defined = lualint.defined_members(sources)
    if defined is None:
        return []
    tested = {c.args[1].name for src in sources for c in calls_made(src)
              if (c.table, c.fn) == ("cards", "has_tag") and len(c.args) > 1 and c.args[1].name is not None}
    read = {u.name for src in sources for u in lualint.scan(first_line(src.source)[1]).uses if u.kind == "member"}
    # (named anywhere else: a script's text or field read (d.tagset.bear), game.yaml, another
    # key of a card (a card field naming a tag: consume: spirit))
    others = {w for c in game.cards.values() for k, v in c.data.items() if k != "tags" for w in _yaml_words(v)}
    mentioned = defined[0] | read | set(_yaml_words(game.data)) | others | tested
    fields = set(game.data.get("card_fields") or {})
    in_use = [t for t, cs in carriers.items() if len(cs) > 1 or t in mentioned]
    out = []
    for t, cs in sorted(carriers.items()):
        if len(cs) != 1 or t in tested:
            continue
        if t in fields:
            why = f"'{t}' is a field of this game's cards, not a tag: write {t}: and its value"
        elif t not in mentioned and did_you_mean(t, in_use):
            why = f"no script or other card uses the tag '{t}'{did_you_mean(t, in_use)}"
        else:
            continue
        out.append(_card_note(cs[0], ("tags", cs[0].data["tags"].index(t)), why))
    return out


def _yaml_words(value, depth: int = 0):
    """Every text in a YAML value, keys and values (keys that are no text are left out)."""
    if depth > 32:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield k
            yield from _yaml_words(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            yield from _yaml_words(v, depth + 1)
    elif isinstance(value, str):
        yield value


def _card_note(card, keys: tuple, message: str) -> str:
    """A note at a place within a card's entry in its set file (the card's line if not found)."""
    doc, _ = yamlio.load(Path(card.path), card.path)
    entries = (doc.data.get("cards") if doc is not None and isinstance(doc.data, dict) else None) or []
    for i, entry in enumerate(entries):
        if isinstance(entry, dict) and entry.get("id") == card.id:
            p = doc.problem(("cards", i) + keys, message)
            return f"{p.path}:{p.line}:{p.col}: note: {p.message}"
    return f"{card.path}:{card.line}: note: {message}"


def _comparison_notes(game, sources) -> list[str]:
    """A note at a comparison that is never true: of a `.phase` with a misspelt phase id
    (`state.phase == "darw"`), of a `.zone` with a player's zone by its name alone (a card's
    zone is `hand:1`) or with a misspelt zone."""
    phases = [p.get("id") for p in (game.data.get("flow") or {}).get("phases") or [] if isinstance(p, dict)]
    zones = game.data.get("zones") or {}
    names = [*zones, *ENGINE_ZONES]
    lines = _file_lines(game)
    out = []
    for src, u in lualint.compared_names(sources):
        start, code = first_line(src.source)
        text = u.name if u.field == "id" else '"' + u.name
        line, col = use_place(src, start, code, lines.get(src.chunkname), u.line, u.col, text)
        where = f"{src.chunkname}:{line}:{col}"
        zone = u.name.split(":")[0]
        if u.field == "" and u.name in game.cards and (u.locals[:1] == ("ev.card",) or src.field[:1] == ("cards",)):
            held = u.locals[1] if len(u.locals) > 1 else "c"   # (local target = ev.card ... target == "pawn")
            out.append(f"{where}: note: a card is a table, never its id: this comparison is never true (compare "
                       f"its def: {held}.def == \"{u.name}\")")
        elif u.field == "choice":
            out.append(f"{where}: note: choose returns the option picked, a table, never its label: this "
                       f"comparison is never true (compare its label: {u.locals[0]}.label == \"{u.name}\")")
        elif u.field == "id" and (u.locals[:1] == ("ev.card",) or src.field[:1] == ("cards",)):   # (self: a card's)
            out.append(f"{where}: note: a card is a table, never its id: this comparison is never true (compare "
                       f"ids: {u.locals[-1]}.id == {u.name or '...'})")
        elif u.field == "phase" and u.name not in phases and _close(u.name, phases):
            out.append(f"{where}: note: no phase called '{u.name}' (did you mean '{_close(u.name, phases)}'?): "
                       f"this comparison is never true")
        elif u.field == "zone" and "card" in u.locals and (zones.get(u.name) or {}).get("scope") == "player":
            out.append(f"{where}: note: a card in a player's {u.name} zone has the zone '{u.name}:1' (its name, a "
                       f"colon and the player): '{u.name}' alone is never a card's zone")
        elif u.field == "zone" and zone not in names and _close(zone, names):
            out.append(f"{where}: note: no zone called '{zone}' (did you mean '{_close(zone, names)}'?): this "
                       f"comparison is never true")
    return out


def _definition_notes(game) -> list[str]:
    """A note where a rules or card script reads from a card's definition (cards.def(c).x,
    or a local holding it) a stat that a modifier of the game changes: the printed value,
    where stat(c, "x") gives it with the modifiers. Not in a modifier, nor in what one calls
    (lualint.definition_reads), where the printed value may be the point; a modifier the
    rules add by a name given at run time (add_modifier(name, f)) is not counted."""
    stats = game.data.get("stats") or {}
    if not isinstance(stats, dict):
        return []
    by: dict[str, set[str]] = {}   # stat -> who modifies it
    for c in game.cards.values():
        for src in c.lua:
            if src.field[2:3] == ("modifiers",) and len(src.field) > 3:
                by.setdefault(src.field[3], set()).add(str(c.data.get("name", c.id)))
    ruled: set[str] = set()
    for src in game.scripts:
        for call in calls_made(src):
            if (call.table, call.fn) == ("", "add_modifier") and call.args and call.args[0].name is not None:
                ruled.add(call.args[0].name)
    modified = (set(by) | ruled) & set(stats)
    if not modified:
        return []
    scripts = list(game.scripts) + [src for c in game.cards.values() for src in c.lua]
    lines = _file_lines(game)
    out = []
    for src, u in lualint.definition_reads(game.scripts, scripts, lambda s: s.field[2:3] == ("modifiers",)):
        if u.name not in modified:
            continue
        start, code = first_line(src.source)
        line, col = use_place(src, start, code, lines.get(src.chunkname), u.line, u.col, u.name)
        names = sorted(by.get(u.name, ()))
        who = ["the rules"] * (u.name in ruled) + names[:3] + ["more"] * (len(names) > 3)
        who_text = who[0] if len(who) == 1 else f"{', '.join(who[:-1])} and {who[-1]}"
        out.append(f"{src.chunkname}:{line}:{col}: note: a card's definition holds its printed {u.name}, which no "
                   f"modifier changes: this ignores the modifiers of {who_text} (read stat({u.locals[0] or 'c'}, "
                   f"\"{u.name}\"))")
    return out


def _in_play_notes(game) -> list[str]:
    """A note when no card can ever be in play (no board, no zone under `in_play:`) and cards
    have modifiers: they never apply (and a hook hears only events about its own card,
    which a game may mean, so hooks alone are no reason for a note)."""
    if (game.data.get("board") or {}).get("type") != "none" or game.data.get("in_play"):
        return []
    users = sorted({str(c.data.get("name", c.id)) for c in game.cards.values()
                    if any(src.field[2:3] == ("modifiers",) for src in c.lua)})
    if not users:
        return []
    gdoc, _ = yamlio.load(game.root / "game.yaml", loader.display(game.root / "game.yaml"))
    p = gdoc.problem(("in_play",), "")
    who = f"{', '.join(users[:3])}{' and more' if len(users) > 3 else ''}"
    return [f"{p.path}:{p.line}:{p.col}: note: no card is ever in play (no board, and no zone under in_play:), so "
            f"no card's modifier applies and a card's hook hears only events about its own card ({who})"]


def _stat_notes(game, sources) -> list[str]:
    """A note at a stat of game.yaml that cards modify and no script reads with stat(): the
    modifiers change what the screen shows of a card, never the game. Off when a script
    reads stats by a name given at run time (stat(c, name)) or passes stat on."""
    stats = game.data.get("stats") or {}
    read: set[str] = set()
    for src in sources:
        sc = lualint.scan(first_line(src.source)[1])
        if sc.error is not None:
            return []
        calls = [c for c in sc.calls if (c.table, c.fn) == ("", "stat")]
        if len(calls) != sum(u.kind == "read" and u.name == "stat" for u in sc.uses):
            return []   # (stat passed on, or called in a way the scan does not read)
        for c in calls:
            if len(c.args) < 2 or c.args[1].name is None:
                return []
            read.add(c.args[1].name)
    life = (game.data.get("display") or {}).get("life")
    read.add(life.get("stat") if isinstance(life, dict) else life)
    modified: dict[str, list[str]] = {}
    for c in game.cards.values():
        for src in c.lua:
            if src.field[2:3] == ("modifiers",) and len(src.field) > 3:
                modified.setdefault(src.field[3], []).append(str(c.data.get("name", c.id)))
    out = []
    for name in sorted(set(modified) & set(stats) - read):
        gdoc, _ = yamlio.load(game.root / "game.yaml", loader.display(game.root / "game.yaml"))
        p = gdoc.problem(("stats", name), "")
        users = sorted(set(modified[name]))
        who = f"{', '.join(users[:3])}{' and more' if len(users) > 3 else ''}"
        out.append(f"{p.path}:{p.line}:{p.col}: note: no script reads the stat '{name}' (stat(c, \"{name}\")), so "
                   f"the modifiers of {who} change only what the screen shows of a card, never the game")
    return out


def _emits_and_hearers(sources) -> tuple | None:
    """What the scripts say of events: (event -> the keys its emits give, None when one
    gives a table made elsewhere; event -> [(source, use)] of the fields its hearers read or
    set; the fields set anywhere; the fields read anywhere; how often `emit` is named; how
    often it is called). None when a script cannot be read."""
    scans = []
    for src in sources:
        sc = lualint.scan(first_line(src.source)[1])
        if sc.error is not None:
            return None
        scans.append((src, sc))
    given: dict[str, set[str] | None] = {}
    set_anywhere: set[str] = set()
    read_anywhere: set[str] = set()
    mentions = emits = 0
    for src, sc in scans:
        for u in sc.uses:
            if u.kind == "emit":
                emits += 1
                had = given.get(u.name, set())
                given[u.name] = None if u.field == "?" or had is None else had | (set(u.field.split(",")) - {""})
            elif u.kind == "setfield":
                set_anywhere.add(u.name)
            elif u.kind == "member":
                read_anywhere.add(u.name)
            elif u.kind == "field":
                read_anywhere.add(u.field)
            elif u.kind == "read" and u.name == "emit":
                mentions += 1
    hooks_of: dict[str, list] = {}
    for src, sc in scans:
        for u in sc.uses:
            if u.kind != "event":
                continue
            hears = u.locals[0]
            if hears == "return":
                if src.field[2:3] != ("hooks",) or len(src.field) < 4:
                    continue
                event = src.field[3]
            else:
                event = hears[3:]
            hooks_of.setdefault(event, []).append((src, u))
    return given, hooks_of, set_anywhere, read_anywhere, mentions, emits


def _event_field_hints(game, sources) -> dict[str, tuple[str, list[str]]]:
    """For each field of an event a hook or listener reads: its place ("file:line:col") ->
    (the event, the keys its emits give), when every emit of it writes its table out: a
    misspelt field is better matched against these than against every table's fields."""
    found = _emits_and_hearers(sources)
    if found is None:
        return {}
    given, hooks_of = found[0], found[1]
    lines = _file_lines(game)
    out = {}
    for event, uses in hooks_of.items():
        keys = given.get(event)
        if not keys or event in loader.ENGINE_EVENTS:
            continue
        for src, u in uses:
            if u.field != "r" or u.name == "*":
                continue
            start, code = first_line(src.source)
            line, col = use_place(src, start, code, lines.get(src.chunkname), u.line, u.col, u.name)
            out[f"{src.chunkname}:{line}:{col}"] = (event, sorted(keys))
    return out


def _event_field_notes(game, sources) -> list[str]:
    """A note at a field of an event that a card's hook or a rules listener (on) reads and
    that no emit of the event gives, no function hearing it sets and no script sets on any
    table (`ev.target` in a hook of an event emitted as {source = c}: always nil); and at
    a field a hook sets that nothing reads anywhere, close to one the event has (`ev.amont =`
    where the rules read `ev.amount`). Only for events every emit of which writes its table
    out (emit("name", {k = v, ...})) and whose hearers set no field by a name given as they
    run (ev[k] = v) nor hand the event on (f(ev)); the engine's own events are left alone."""
    found = _emits_and_hearers(sources)
    if found is None:
        return []
    given, hooks_of, set_anywhere, read_anywhere, mentions, emits = found
    if mentions != emits:
        return []   # (emit passed on, or called with its name given as it runs: who emits what is unknown)
    lines = _file_lines(game)
    out = []
    for event, uses in sorted(hooks_of.items()):
        keys = given.get(event)
        if keys is None or event in loader.ENGINE_EVENTS:
            continue
        carried = keys | {"event"} | {u.name for _, u in uses if u.field == "w"}
        shown = ", ".join(sorted(keys)) or "nothing"
        anything = "*" in carried   # (a hearer sets fields by names given as it runs, or hands ev on)
        for src, u in uses:
            if u.name == "*" or (anything and u.field == "r"):
                continue
            start, code = first_line(src.source)
            line, col = use_place(src, start, code, lines.get(src.chunkname), u.line, u.col, u.name)
            where = f"{src.chunkname}:{line}:{col}"
            if u.field == "r" and u.name not in carried and u.name not in set_anywhere:
                out.append(f"{where}: note: no emit of '{event}' gives the field '{u.name}' (they give: {shown}), "
                           f"and nothing sets it: it is always nil here{did_you_mean(u.name, sorted(keys))}")
            elif (u.field == "w" and u.name not in keys and u.name not in read_anywhere
                  and _close(u.name, sorted(keys))):
                out.append(f"{where}: note: this sets a field '{u.name}' of the event '{event}' that nothing reads "
                           f"(did you mean '{_close(u.name, sorted(keys))}'?)")
    return sorted(set(out))


def _unread_local_notes(game, sources) -> list[str]:
    """A note at each local given a value that nothing reads: often an answer worked out and
    then not returned (`local ok = ...` at the end of a can_play or a filter, which so
    returns nil: never playable, never kept)."""
    lines = _file_lines(game)
    out = []
    for src in sources:
        start, code = first_line(src.source)
        sc = lualint.scan(code)
        for u in sc.uses if sc.error is None else []:
            if u.kind != "unused":
                continue
            line, col = use_place(src, start, code, lines.get(src.chunkname), u.line, u.col, u.name)
            why = (f"; this function returns nothing (did you mean `return {u.name}`?)" if u.field == "return"
                   else " (a name starting with _ says it is meant)")
            out.append(f"{src.chunkname}:{line}:{col}: note: the local '{u.name}' is given a value that "
                       f"nothing reads{why}")
    return out


ENGINE_ZONES = ("board", "under")   # where the engine keeps cards besides the game's zones (c.zone)


def _close(name: str, candidates) -> str | None:
    """The candidate a likely slip of name meant: one edit away (a swap of two letters side
    by side counting one: darw), or two for a long name (a short word of the game's own,
    "day", is not taken for "draw")."""
    best = min(candidates, key=lambda c: (lualint.osa_distance(name, c), c), default=None)
    return best if best is not None and lualint.osa_distance(name, best) <= (1 if len(name) < 6 else 2) else None


def _stray_scenario_notes(rules_dir: Path) -> list[str]:
    """Files of scenario tests under a game's folders that summon test never runs: it runs
    those in rules/ID/tests and cards/ID/tests only (a `test/` folder is a common slip)."""
    from . import scenarios

    cards_dir = loader.cards_beside(rules_dir)
    found = loader.yaml_files(rules_dir, deep=True) + (loader.yaml_files(cards_dir, deep=True) if cards_dir else [])
    runs = {f.resolve() for f in scenarios.test_folders(rules_dir)} | ({cards_dir.resolve()} if cards_dir else set())
    out = []
    for f in found:
        if f.parent.resolve() in runs or f.name == "game.yaml":
            continue
        doc, _ = yamlio.load(f, loader.display(f), int_keys=True)
        if doc is not None and isinstance(doc.data, dict) and "scenarios" in doc.data:
            where = [loader.display(p) for p in scenarios.test_folders(rules_dir)]
            out.append(f"{loader.display(f)}: note: `summon test {rules_dir.name}` does not run these scenarios: it "
                       f"runs the files directly in {' and '.join(where)} (`summon test` of this file's path runs it)")
    return out


def _scenario_notes(target: str) -> list[str]:
    from . import scenarios

    doc, _ = scenarios.load_file(Path(target))
    if doc is None:
        return []
    found = (lualint.unread_note(scenarios.setup_lua(doc, i)) for i in range(len(doc.data["scenarios"]))
             if scenarios.setup_lua(doc, i) is not None)
    return [n for n in found if n is not None]


def old_calls(game) -> list[Problem]:
    """Calls of the engine API written in the argument order before 0.2.0, with their new form."""
    scope = {kind: {name: (d or {}).get("scope", "player") for name, d in (game.data.get(key) or {}).items()}
             for kind, key in (("zone", "zones"), ("counter", "counters"))}
    lines = _file_lines(game)
    sources = list(game.scripts) + [src for c in game.cards.values() for src in c.lua]
    problems = []
    for src in sources:
        problems += old_call_problems(src, scope, lines.get(src.chunkname))
    return sorted(set(problems))


def card_schema_text(game_id: str) -> str:
    """The JSON Schema of a game's card set files, as an editor reads it."""
    rules_dir, _ = loader.resolve(game_id)
    doc, problems = yamlio.load(rules_dir / "game.yaml", loader.display(rules_dir / "game.yaml"))
    if doc is None or not isinstance(doc.data, dict):
        raise DefinitionError(problems or [Problem(str(rules_dir / "game.yaml"), 1, 1, "not a mapping")])
    schema = loader.card_schema(doc.data)
    if loader.schema_mistake(schema):   # a field's schema is no schema: say where, write nothing
        raise DefinitionError(loader.field_schema_problems(doc, doc.data)
                              or [doc.problem((), "the card schema built from game.yaml is no valid schema")])
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def deck_cards(path: Path) -> set[str] | None:
    """The card ids a deck file's `deck:` list names (None: no such file, or no deck list)."""
    doc, _ = yamlio.load(path, loader.display(path))
    entries = doc.data.get("deck") if doc is not None and isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        return None
    return {e.get("card") for e in entries if isinstance(e, dict) and isinstance(e.get("card"), str)}


def games_holding(cards: set[str]) -> list[str]:
    """The games found that have every one of these cards (a game that does not load has none)."""
    return [g for g, n in _cards_held(cards).items() if n == len(cards)]


def deck_game(cards: set[str]) -> tuple[str | None, str]:
    """The game a deck of these cards kept outside any game is for: the one game found with
    every card, else the one with most of them, if over half (a deck with a card or two
    misspelt: their problems say which). (None, the games that fit or why none) if unclear."""
    held = _cards_held(cards)
    fits = [g for g, n in held.items() if n == len(cards)]
    most = max(held.values(), default=0)
    nearest = [g for g, n in held.items() if n == most]
    if not fits and len(nearest) == 1 and most * 2 > len(cards):
        fits = nearest
    if len(fits) == 1:
        return fits[0], ""
    return None, ", ".join(fits) if fits else "none of the games found holds all its cards"


def _cards_held(cards: set[str]) -> dict[str, int]:
    """How many of these cards each game found has (a game that does not load: none)."""
    held = {}
    for g in loader.list_games():
        try:
            held[g] = len(cards & set(loader.load_game(g).cards))
        except EngineError:
            held[g] = 0
    return held


def _deck_no_seat_plays(path: Path, game: "loader.GameDef") -> Problem | None:
    """A deck file kept outside a game whose seats take no card set of their own (game.yaml
    `sets: {per_seat: false}`): its cards may be sound, but no seat can play it."""
    if (game.data.get("sets") or {}).get("per_seat", True) or not path.is_file() or not deck_cards(path):
        return None
    if path.resolve() in {f.resolve() for f in game.files}:   # (one of the game's own sets: its rules may read it)
        return None
    doc, _ = yamlio.load(path, loader.display(path))
    if doc is None:
        return None
    return doc.problem(("deck",), f"{game.id} gives no seat a card set of its own (its game.yaml has "
                                  f"sets: {{per_seat: false}}), so no seat can play this deck: "
                                  f"--players human:{path} is refused")


def deck_summary(target: str, game_id: str | None = None) -> tuple[str, list[str], list[Problem]]:
    """`summon deck check FILE`: the game a deck file is for, a summary of the deck in the
    game's own deck-rule terms (its leader, its cards per counted tag, its size) and every
    problem `summon check` finds with it. Without game_id, the game is the one whose
    cards/ folder holds the file, else the one game whose cards the deck all names."""
    path = Path(target)
    doc, problems = yamlio.load(path, loader.display(path))
    if doc is None:
        return game_id or "", [], problems
    entries = doc.data.get("deck") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        return game_id or "", [], [Problem(doc.path, 1, 1, "this file has no deck list (`deck:` with one "
                                                           "`{card: ID, copies: N}` per line)")]
    wanted = {e.get("card") for e in entries if isinstance(e, dict)}
    if game_id is None:
        try:
            game_id = Path(_target_game(target)).name
        except EngineError:
            game_id, among = deck_game(wanted)
            if game_id is None:
                return "", [], [Problem(doc.path, 1, 1, f"cannot tell which game this deck is for ({among}): "
                                                         f"name it with --game")]
    game = loader.load_game(game_id)
    rules = (game.data.get("sets") or {}).get("deck") or {}
    counted = list(rules.get("count_by_tag") or {})
    leader = (rules.get("leader") or {}).get("tag")
    size, per_tag, leaders = 0, {t: 0 for t in counted}, []
    for e in entries:
        d = game.cards.get(e.get("card")) if isinstance(e, dict) else None
        copies = e.get("copies", 1) if isinstance(e, dict) else 0
        if d is None or not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            continue   # (a problem of its own below: not counted)
        size += copies
        tags = d.data.get("tags") or []
        for t in counted:
            per_tag[t] += copies if t in tags else 0
        if leader in tags:
            leaders.append(d.data.get("name", d.id))
    lines = [f"{doc.data.get('name', path.stem)} ({game.id}): {size} cards"]
    if leader:
        lines.append(f"  {leader}: {', '.join(leaders) or 'none'}")
    if counted:
        lines.append("  " + ", ".join(f"{per_tag[t]} {t}" for t in counted))
    unplayable = _deck_no_seat_plays(path, game)
    return game.id, lines, check(target, game_id) + ([unplayable] if unplayable else [])
