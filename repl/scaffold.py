"""`summon new game ID` and `summon new set GAME ID`: skeletons that pass `check`, `test`
and `sim` as soon as they are written, for a modder to change from there."""
from __future__ import annotations

import os
import re
import tempfile
from io import StringIO
from pathlib import Path
from string import Template

from ruamel.yaml import YAML

from engine import ENGINE_DIR, loader
from engine.check import card_schema_text
from engine.errors import EngineError

TEMPLATES = Path(__file__).parent / "templates"
ID = re.compile(r"[a-z][a-z0-9_]{0,39}")


class ScaffoldError(EngineError):
    """Why a skeleton was not written (nothing is written then)."""


def _check_id(what: str, value: str) -> None:
    if not ID.fullmatch(value):
        fixed = re.sub(r"[^a-z0-9_]", "_", value.lower()).strip("_")
        if fixed and not fixed[0].isalpha():
            fixed = "my_" + fixed
        fixed = fixed[:40].rstrip("_")
        if not ID.fullmatch(fixed):
            fixed = "my_game"
        raise ScaffoldError(f"{value!r} is no {what} id: use lowercase letters, digits and _, starting "
                            f"with a letter (at most 40), e.g. {fixed}")


def _relative(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def _engine_schema(name: str, start: Path) -> str:
    """Where a written file's `$schema` line finds one of the engine's schemas: a relative
    path from inside the folder that holds the engine (this checkout), so the checkout can
    move as one; from anywhere else an absolute one, which does not break when the
    modder's folder moves (a relative path would climb out of it into the install)."""
    target = ENGINE_DIR / "schemas" / name
    if start.resolve().is_relative_to(ENGINE_DIR.parent.resolve()):
        return _relative(target, start)
    return target.resolve().as_posix()


def _write_all(files: dict[Path, str]) -> list[Path]:
    """Writes every file, refusing first if any exists or a folder on the way is a file:
    nothing is overwritten. A write that fails part way (no room, no permission) takes back
    the files and folders it made."""
    taken = [p for p in files if p.exists() or p.is_symlink()]
    if taken:
        raise ScaffoldError(f"{loader.display(taken[0])} already exists: nothing was written "
                            f"(choose another id, or move it away)")
    for path in files:
        blocked = next((d for d in path.parents if d.exists() and not d.is_dir()), None)
        if blocked is not None:
            raise ScaffoldError(f"{loader.display(blocked)} is a file, where a folder is needed for "
                                f"{loader.display(path)}: nothing was written")
    made: list[Path] = []   # files and folders, in the order made
    try:
        for path, text in files.items():
            missing = [d for d in reversed(path.parents) if not d.exists()]
            for d in missing:
                d.mkdir()
                made.append(d)
            path.write_text(text, encoding="utf-8")
            made.append(path)
    except OSError as e:
        for p in reversed(made):
            try:
                p.rmdir() if p.is_dir() else p.unlink()
            except OSError:
                pass
        raise ScaffoldError(f"cannot write {loader.display(Path(e.filename or path))}: {e.strerror or e}: "
                            f"nothing was written") from None
    return list(files)


def new_game(game_id: str, into: Path) -> list[Path]:
    """Writes rules/<id>/ and cards/<id>/ under `into` (a games folder): a small working game."""
    _check_id("game", game_id)
    into = into.resolve()
    rules, cards = into / "rules" / game_id, into / "cards" / game_id
    found = loader.list_games()
    if game_id in found and found[game_id].resolve() != rules:
        raise ScaffoldError(f"a game called '{game_id}' is already found in {loader.display(found[game_id])}: "
                            f"choose another id (the two would hide one another)")
    for folder in (rules, cards):
        if folder.exists():
            raise ScaffoldError(f"{loader.display(folder)} already exists: nothing was written "
                                f"(choose another id, or move it away)")
    name = game_id.replace("_", " ").title()
    values = {"id": game_id, "name": name,
              "schema_path": _engine_schema("game.schema.json", rules),
              "card_schema_path": _relative(rules / "cards.schema.json", cards),
              "scenario_schema_path": _engine_schema("scenario.schema.json", rules / "tests"),
              "tests_path": _relative(rules / "tests", Path.cwd())}
    files = {}
    for template in sorted((TEMPLATES / "game").rglob("*")):
        if template.is_file():
            part = template.relative_to(TEMPLATES / "game")
            base = rules if part.parts[0] == "rules" else cards
            files[base.joinpath(*part.parts[1:])] = Template(template.read_text()).substitute(values)
    written = _write_all(files)
    schema = rules / "cards.schema.json"
    return written + _write_all({schema: card_schema_text(str(rules))})


def new_set(game: str, set_id: str) -> list[Path]:
    """Writes cards/<game>/<set_id>.yaml (one card to start from, made like the game's first
    card) and a scenario test of it in cards/<game>/tests/."""
    _check_id("card set", set_id)
    g = loader.load_game(game)
    if set_id in g.sets or any(c.set_id == set_id for c in g.cards.values()):
        raise ScaffoldError(f"{game} already has a card set '{set_id}': choose another id")
    rules_dir, cards_dir = loader.resolve(game)
    if loader.in_package(rules_dir):
        raise ScaffoldError(f"{g.id} is the copy installed with summon, in {rules_dir.parent.parent}: a card set "
                            f"written there would go with the next upgrade. Copy its rules/{g.id} and cards/{g.id} "
                            f"into a folder of your own and run this from there (a game in the current folder, or "
                            f"on SUMMON_PATH, is found before the installed one)")
    cards_dir = cards_dir or rules_dir.parent.parent / "cards" / g.id
    own = rules_dir / "templates" / "set.yaml"
    if (own.exists() or own.is_symlink()) and not own.is_file():
        raise ScaffoldError(f"{loader.display(own)}: the game's set template is no file (a folder, or a link that "
                            f"leads nowhere): make it the YAML of a set, or remove it")
    if own.is_file():
        return _set_from_template(game, g, own, rules_dir, cards_dir, set_id)
    model = next((c for c in g.cards.values() if c.data.get("copies", 1) and not c.lua), None) \
        or next(iter(g.cards.values()), None)
    card_id = f"{set_id}_card"
    if card_id in g.cards:
        raise ScaffoldError(f"{game} already has a card '{card_id}': choose another set id")
    card = {"id": card_id, "name": set_id.replace("_", " ").title() + " Card"}
    if model is not None:
        card.update({k: v for k, v in model.data.items() if k not in ("id", "name", "text", "copies")})
    card["copies"] = 1
    card["text"] = "Say in a player's words what it does."
    set_rules = g.data.get("sets", {})
    deck_rules = bool(set_rules.get("deck")) or bool(set_rules.get("fields"))
    head = [f"# yaml-language-server: $schema={_relative(rules_dir / 'cards.schema.json', cards_dir)}",
            f"# A card set for {g.name}, written by `summon new set {g.id} {set_id}`."]
    if deck_rules:
        head.append("# playable: false keeps it a pool of cards until it holds a whole deck under the rules")
        head.append("# of game.yaml's sets: (deck rules, set fields); then make it true, or list its cards")
        head.append("# in a deck file.")
    body = {"id": set_id, "name": set_id.replace("_", " ").title()}
    if deck_rules:
        body["playable"] = False
    body["cards"] = [card]
    test_head = [f"# yaml-language-server: $schema={_engine_schema('scenario.schema.json', cards_dir / 'tests')}",
                 f"# Scenario tests of the card set {set_id}: summon test "
                 f"{_relative(cards_dir / 'tests' / (set_id + '.yaml'), rules_dir.parent.parent)}"
                 " (from the folder that holds rules/)"]
    set_file, test_file = cards_dir / f"{set_id}.yaml", cards_dir / "tests" / f"{set_id}.yaml"
    written = _write_all({set_file: "\n".join(head) + "\n" + dump_text(body)})
    try:
        test_text = _a_passing_test(game, card, set_id, "\n".join(test_head) + "\n")
        return written + _write_all({test_file: test_text})
    except BaseException:
        set_file.unlink()   # all or nothing
        raise


def _set_from_template(game: str, g, template: Path, rules_dir: Path, cards_dir: Path, set_id: str) -> list[Path]:
    """new_set for a game that ships its own shape of a set (rules/<game>/templates/set.yaml:
    ${id} and ${title} stand for the set's id and its name), and a test of its first card."""
    title = set_id.replace("_", " ").title()
    where = loader.display(template)
    try:
        source = template.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = e.object[:e.start].count(b"\n") + 1
        raise ScaffoldError(f"{where}:{line}: the set template is not UTF-8 text") from None
    except OSError as e:
        raise ScaffoldError(f"{where}: cannot read the set template: {e.strerror or e}") from None
    try:
        text = Template(source).substitute(id=set_id, title=title)
    except (KeyError, ValueError) as e:
        line = next((n for n, t in enumerate(source.splitlines(), 1)
                     if re.search(r"\$(?!\$|\{id\}|\{title\}|id\b|title\b)", t.replace("$$", ""))), 1)
        raise ScaffoldError(f"{where}:{line}: a $ that is not ${{id}} or ${{title}} ({e}): write $$ for a $ of "
                            f"its own") from None
    try:
        data = YAML(typ="safe").load(text)
    except Exception as e:   # (ruamel's errors: the line is the template's, the text the same length)
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise ScaffoldError(f"{where}{line}: the set template is no YAML once ${{id}} and ${{title}} are put in: "
                            f"{getattr(e, 'problem', None) or e} (a value that starts with ${{id}} in [ ] or {{ }} needs quotes)") from None
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or not cards or not all(isinstance(c, dict) and isinstance(c.get("id"), str)
                                                             for c in cards):
        raise ScaffoldError(f"{where}: a set template holds `cards:`, a list of cards, each with a text id")
    taken = sorted(c["id"] for c in cards if c["id"] in g.cards)
    if taken:
        raise ScaffoldError(f"{g.id} already has the card{'s' if len(taken) > 1 else ''} {', '.join(taken)}: "
                            f"choose another set id")
    schema = f"# yaml-language-server: $schema={_relative(rules_dir / 'cards.schema.json', cards_dir)}\n"
    test_head = (f"# yaml-language-server: $schema={_engine_schema('scenario.schema.json', cards_dir / 'tests')}\n"
                 f"# Scenario tests of the card set {set_id}: summon test "
                 f"{_relative(cards_dir / 'tests' / (set_id + '.yaml'), rules_dir.parent.parent)}"
                 " (from the folder that holds rules/)\n")
    set_file, test_file = cards_dir / f"{set_id}.yaml", cards_dir / "tests" / f"{set_id}.yaml"
    written = _write_all({set_file: schema + text})
    try:
        return written + _write_all({test_file: _a_passing_test(game, cards[0], set_id, test_head)})
    except BaseException:
        set_file.unlink()   # all or nothing
        raise


def _a_passing_test(game: str, card: dict, set_id: str, head: str) -> str:
    """A scenario that puts the new card in a zone and expects its stats there: the first
    zone where it passes (a zone the first turn leaves alone), tried in a scratch file."""
    from engine.scenarios import load_file, run_scenario

    g = loader.load_game(game)
    stats = {s: card[s] for s in g.data.get("stats", {}) if isinstance(card.get(s), (int, float))
             and not isinstance(card.get(s), bool)}
    expect_card = {"card": card["id"], **({"stats": stats} if stats else {})}
    text = None
    for zone, per_player in _zones(g.data, set(g.data.get("in_play") or [])):
        key = f"{zone}:1" if per_player else zone
        scenario = {"game": g.id, "scenarios": [{
            "name": f"the {card['name']} is defined as its file says",
            "setup": {"zones": {zone: ({1: [card["id"]]} if per_player else [card["id"]])}},
            "steps": [{"expect": {"zones": {key: {"cards": [expect_card]}}}}]}]}
        text = text or head + dump_text(scenario)
        with tempfile.TemporaryDirectory() as scratch:
            trial = Path(scratch) / f"{set_id}.yaml"
            trial.write_text(head + dump_text(scenario))
            doc, problems = load_file(trial)
            if doc is not None and not problems and run_scenario(g, doc, 0).passed:
                return head + dump_text(scenario)
    if text is None:
        raise ScaffoldError(f"{g.id} has no zones to hold a card: write the set's test by hand")
    return text   # no zone keeps the card as it was put: the modder will see the test fail and why


def dump_text(data) -> str:
    """Plain data as block-style YAML."""
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.width = 100
    out = StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _zones(game_yaml: dict, in_play: set[str]) -> list[tuple[str, bool]]:
    """The game's zones as (id, whether per player), public ones out of play first (a
    discard pile, say): the card is only looked at there."""
    zones = game_yaml.get("zones") or {}
    order = sorted(zones.items(), key=lambda kv: (kv[1].get("visibility") != "public", kv[0] in in_play,
                                                  kv[1].get("scope") != "player"))
    return [(zid, spec.get("scope") == "player") for zid, spec in order]
