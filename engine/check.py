"""`summon check`: every problem of a game, its cards and its scripts, in one run."""
from __future__ import annotations

import json
from pathlib import Path

from . import loader, yamlio
from .errors import DefinitionError, EngineError, Problem, ScriptError
from .files import read_bounded
from .lint import old_call_problems, problem_from_lua


def _target_game(target: str) -> str:
    """A game id or folder for a check target, which may also be one card file."""
    p = Path(target)
    if p.is_file() and p.suffix in (".yaml", ".yml") and p.name != "game.yaml":
        game_dir = p.resolve().parent
        rules = game_dir.parent.parent / "rules" / game_dir.name
        if (rules / "game.yaml").is_file():
            return str(rules)
        if (game_dir.parent / "game.yaml").is_file():
            return str(game_dir.parent)
        raise EngineError(f"{target}: cannot tell which game this card file belongs to "
                          f"(expected it in cards/<game>/ beside rules/<game>/)")
    if p.is_file() and p.name == "game.yaml":
        return str(p.resolve().parent)
    return target


def check(target: str, game_id: str | None = None) -> list[Problem]:
    """Loads a game fully (YAML, schemas, references, deck rules, Lua) and builds a match
    to run its scripts' top level; returns every problem found. With game_id, target may be
    a card or deck file kept anywhere, checked as one more card set of that game."""
    from .match import Match, Seat

    try:
        if game_id is not None and Path(target).is_file():
            game = loader.load_game(game_id, extra_cards=[Path(target)])
        else:
            game = loader.load_game(_target_game(target))
    except DefinitionError as e:
        return e.problems
    old = old_calls(game)
    if old:
        return old   # the match would stop at the first of them
    pl = game.data["players"]
    try:
        m = Match(game, 1, [Seat("random") for _ in range(pl["min"])], quiet=True)
    except DefinitionError as e:
        return e.problems
    except EngineError as e:
        where = str(game.root / "game.yaml")
        return [Problem(loader.display(Path(where)), 1, 1, f"a match cannot start: {str(e).splitlines()[0]}")]
    if game.evaluator is not None and m.pending is not None:
        for seat in range(1, pl["min"] + 1):   # the bots' evaluation runs on the first position
            try:
                m.evaluate(seat)
            except ScriptError as e:
                return [problem_from_lua(str(e), game.evaluator.chunkname)]
    return []


def notes(target: str, game_id: str | None = None) -> list[str]:
    """What `summon check` mentions about a sound game without calling it a problem."""
    try:
        game = loader.load_game(game_id or _target_game(target))
    except (DefinitionError, EngineError):
        return []
    if game.evaluator is None:
        where = loader.display(game.root / "game.yaml")
        return [f"{where}: note: no `bots: evaluate:` file, so the greedy and mcts bots judge "
                f"{game.id} by a generic evaluation (each seat's share of the cards in play)"]
    return []


def old_calls(game) -> list[Problem]:
    """Calls of the engine API written in the argument order before 0.2.0, with their new form."""
    scope = {kind: {name: (d or {}).get("scope", "player") for name, d in (game.data.get(key) or {}).items()}
             for kind, key in (("zone", "zones"), ("counter", "counters"))}
    lines = {}
    for f in game.files:
        try:
            lines[loader.display(f)] = read_bounded(Path(f), yamlio.MAX_BYTES).decode("utf-8").splitlines()
        except (EngineError, UnicodeDecodeError):
            pass
    sources = list(game.scripts) + [src for c in game.cards.values() for src in c.lua]
    problems = []
    for src in sources:
        problems += old_call_problems(src, scope, lines.get(src.chunkname))
    return sorted(set(problems))


def card_schema_text(game_id: str) -> str:
    """The JSON Schema of a game's card set files, as an editor reads it."""
    rules_dir, _ = loader.resolve(game_id)
    doc, problems = yamlio.load(rules_dir / "game.yaml")
    if doc is None or not isinstance(doc.data, dict):
        raise DefinitionError(problems or [Problem(str(rules_dir / "game.yaml"), 1, 1, "not a mapping")])
    return json.dumps(loader.card_schema(doc.data), indent=2, sort_keys=True) + "\n"
