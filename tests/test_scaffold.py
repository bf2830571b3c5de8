"""`summon new game ID` and `summon new set GAME ID`: skeletons that pass check, test and sim
as written, never overwrite anything, and leave the project's own checks as they were."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, summon
from engine import docs
from engine.loader import list_games, load_game
from repl import scaffold

# A game id no game found from this checkout has (a modder may have added games to it).
GAME = next(g for g in ("pip_race", *(f"pip_race_{n}" for n in range(2, 100))) if g not in list_games(ROOT))


def test_a_new_game_passes_check_test_and_sim_as_written(tmp_path):
    r = summon("new", "game", GAME, "--dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    for f in (f"rules/{GAME}/game.yaml", f"rules/{GAME}/rules.lua", f"rules/{GAME}/README.md",
              f"rules/{GAME}/tests/basics.yaml", f"rules/{GAME}/cards.schema.json", f"cards/{GAME}/starter.yaml"):
        assert (tmp_path / f).is_file(), f
    assert "wrote " in r.stdout
    assert f"summon check {GAME}" in r.stdout                      # what to do next
    check = summon("check", GAME, cwd=tmp_path)                # the current folder's games are found
    assert check.returncode == 0 and f"ok: {GAME}" in check.stdout, check.stdout + check.stderr
    assert f"summon test {GAME}\n" in r.stdout
    test = summon("test", f"rules/{GAME}/tests", cwd=tmp_path)
    assert test.returncode == 0 and "3 passed, 0 failed" in test.stdout, test.stdout + test.stderr
    by_id = summon("test", GAME, cwd=tmp_path)                 # a game's id: its rules' and cards' tests
    assert by_id.returncode == 0 and by_id.stdout == test.stdout, by_id.stdout + by_id.stderr
    sim = summon("sim", GAME, "--games", "6", "--jobs", "1", "--json", cwd=tmp_path)
    assert sim.returncode == 0 and '"finished": 6' in sim.stdout, sim.stderr
    # the card schema the card file's first line points at is there and up to date
    first = (tmp_path / f"cards/{GAME}/starter.yaml").read_text().splitlines()[0]
    assert first.endswith(f"$schema=../../rules/{GAME}/cards.schema.json")
    fresh = summon("schema", GAME, cwd=tmp_path)
    assert fresh.stdout == (tmp_path / f"rules/{GAME}/cards.schema.json").read_text()
    # the engine's schemas, from a folder outside the checkout: absolute paths that are there
    for f, schema in ((f"rules/{GAME}/game.yaml", "game"), (f"rules/{GAME}/tests/basics.yaml", "scenario")):
        line = (tmp_path / f).read_text().splitlines()[0]
        path = Path(line.split("$schema=")[1])
        assert path.is_absolute() and path.name == f"{schema}.schema.json" and path.is_file(), line


def test_a_file_inside_the_checkout_finds_the_engine_schemas_by_a_relative_path():
    start = ROOT / "rules" / "some_game" / "tests"
    ref = scaffold._engine_schema("scenario.schema.json", start)
    assert ref == "../../../engine/schemas/scenario.schema.json"
    assert (start / ref).resolve() == (ROOT / "engine/schemas/scenario.schema.json").resolve()


@pytest.mark.parametrize("bad, said", [
    ("Pip-Race", "'Pip-Race' is no game id: use lowercase letters, digits and _"),
    ("summoner_wars", "a game called 'summoner_wars' is already found in"),
])
def test_a_bad_or_taken_game_id_writes_nothing(tmp_path, bad, said):
    r = summon("new", "game", bad, "--dir", str(tmp_path))
    assert r.returncode == 1 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not any(tmp_path.iterdir())


def test_nothing_is_overwritten(tmp_path):
    assert summon("new", "game", GAME, "--dir", str(tmp_path)).returncode == 0
    rules = tmp_path / f"rules/{GAME}/rules.lua"
    rules.write_text("-- mine\n")
    again = summon("new", "game", GAME, "--dir", str(tmp_path))
    assert again.returncode == 1 and "already exists: nothing was written" in again.stderr
    assert rules.read_text() == "-- mine\n"
    assert summon("new", "set", GAME, "extra", cwd=tmp_path).returncode == 0
    twice = summon("new", "set", GAME, "extra", cwd=tmp_path)
    assert twice.returncode == 1 and "already has a card set 'extra'" in twice.stderr


@pytest.mark.parametrize("game", ["summoner_wars", "summoners_isle", "summoner_tcg", "summonaria"])
def test_a_new_set_in_every_shipped_game_passes_check_and_its_test(game_copy, game):
    g = game_copy(game)
    r = summon("new", "set", str(g.rules), "raiders")
    assert r.returncode == 0, r.stderr
    set_file, test_file = g.cards / "raiders.yaml", g.cards / "tests" / "raiders.yaml"
    assert set_file.is_file() and test_file.is_file()
    # what it says it wrote, and the test to run next, are paths from where it ran (the checkout)
    wrote = [line[len("wrote "):] for line in r.stdout.splitlines() if line.startswith("wrote ")]
    assert [(ROOT / w).resolve() for w in wrote] == [set_file.resolve(), test_file.resolve()], r.stdout
    assert (ROOT / re.search(r"summon test (\S+)", r.stdout)[1]).resolve() == test_file.resolve()
    assert f"summon test cards/{game}/tests/raiders.yaml (from the folder that holds rules/)" in test_file.read_text()
    first = "raiders_summoner" if game == "summoner_wars" else "raiders_card"   # (its own shape: templates/set.yaml)
    assert first in load_game(str(g.rules)).cards
    root = g.rules.parent.parent
    check = summon("check", game, cwd=root)
    assert check.returncode == 0, check.stdout + check.stderr
    test = summon("test", str(test_file), cwd=root)
    assert test.returncode == 0 and "1 passed, 0 failed" in test.stdout, test.stdout + test.stderr


def test_a_new_game_in_the_project_leaves_the_docs_check_as_it_was(tmp_path, monkeypatch):
    """`summon docs --check` (a test of this suite) looks only at games that have their
    types/games file; a modder's new game gets one when they run `summon docs`."""
    assert summon("new", "game", GAME, "--dir", str(tmp_path)).returncode == 0
    monkeypatch.setenv("SUMMON_PATH", str(tmp_path))
    shipped = docs.game_ids()
    monkeypatch.setattr(docs, "game_ids", lambda: [*shipped, GAME])
    files = docs.generated(only_documented=True)
    assert not any(GAME in p.name for p in files)
    assert docs.stale(files) == []
    assert any(p.name == f"{GAME}.lua" for p in docs.generated())   # `summon docs` would write it


def test_check_notes_a_card_schema_left_behind_by_a_change_to_game_yaml(tmp_path):
    assert summon("new", "game", GAME, "--dir", str(tmp_path)).returncode == 0
    assert "cards.schema.json" not in summon("check", GAME, cwd=tmp_path).stdout
    game = tmp_path / f"rules/{GAME}/game.yaml"
    game.write_text(game.read_text().replace("  points: {type: integer, minimum: 0}\n",
                                             "  points: {type: integer, minimum: 0}\n  rarity: {type: string}\n"))
    r = summon("check", GAME, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (f"rules/{GAME}/cards.schema.json: note: out of date with game.yaml" in r.stdout
            and f"run `summon schema {GAME} --write`" in r.stdout), r.stdout
    assert summon("schema", GAME, "--write", cwd=tmp_path).returncode == 0
    assert "cards.schema.json" not in summon("check", GAME, cwd=tmp_path).stdout


def test_check_notes_a_card_files_schema_line_that_leads_to_no_file(tmp_path):
    assert summon("new", "game", GAME, "--dir", str(tmp_path)).returncode == 0
    (tmp_path / f"rules/{GAME}/cards.schema.json").unlink()
    card_file = next((tmp_path / f"cards/{GAME}").glob("*.yaml"))
    name = f"cards/{GAME}/{card_file.name}"
    first = card_file.read_text().splitlines()[0]
    col = first.index("../") + 1
    r = summon("check", GAME, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (f"{name}:1:{col}: note: no file is at ../../rules/{GAME}/cards.schema.json" in r.stdout
            and f"run `summon schema {GAME} --write` to write it" in r.stdout), r.stdout
    assert summon("schema", GAME, "--write", cwd=tmp_path).returncode == 0
    assert "no file is at" not in summon("check", GAME, cwd=tmp_path).stdout
    # a path that leads elsewhere is told the game's own
    card_file.write_text(card_file.read_text().replace(f"rules/{GAME}/", "rules/elsewhere/", 1))
    r = summon("check", GAME, cwd=tmp_path)
    assert (f"no file is at ../../rules/elsewhere/cards.schema.json" in r.stdout
            and f"the game's card schema is $schema=../../rules/{GAME}/cards.schema.json" in r.stdout), r.stdout


def test_a_file_where_a_folder_is_needed_stops_new_game_before_it_writes(tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder\n")
    r = summon("new", "game", GAME, "--dir", str(blocker))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "is a file, where a folder is needed" in r.stderr and "nothing was written" in r.stderr
    inside = tmp_path / "g"
    inside.mkdir()
    (inside / "rules").write_text("a file named rules\n")
    r = summon("new", "game", GAME, "--dir", str(inside))
    assert r.returncode == 1 and "rules is a file, where a folder is needed" in r.stderr, r.stderr
    assert sorted(p.name for p in inside.iterdir()) == ["rules"]      # no cards/ left behind


def test_new_game_takes_back_what_it_wrote_when_a_write_fails(tmp_path, monkeypatch):
    real = Path.write_text
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(self))
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Path, "write_text", failing)
    with pytest.raises(scaffold.ScaffoldError, match="No space left on device: nothing was written"):
        scaffold.new_game(GAME, tmp_path)
    assert len(calls) == 3 and list(tmp_path.iterdir()) == []


def test_schema_write_onto_a_folder_is_an_error_naming_the_file(tmp_path):
    assert summon("new", "game", GAME, "--dir", str(tmp_path)).returncode == 0
    schema = tmp_path / "rules" / GAME / "cards.schema.json"
    schema.unlink()
    schema.mkdir()
    r = summon("schema", GAME, "--write", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip() == f"error: cannot write rules/{GAME}/cards.schema.json: Is a directory"


def test_a_new_summoner_wars_set_is_a_faction_to_fill_in(game_copy):
    """summon new set summoner_wars wrote one plain card, with no summoner, layout or gates;
    the game's own shape (rules/summoner_wars/templates/set.yaml) is a faction: laid out as
    check_set asks, and once playable, held to the deck rules at their lines."""
    g = game_copy("summoner_wars")
    assert summon("new", "set", str(g.rules), "thornwood").returncode == 0
    made = load_game(str(g.rules))
    assert made.pools["thornwood"].data["layout"][0] == {"card": "thornwood_summoner", "row": 0, "col": 2}
    ids = sorted(c for c, d in made.cards.items() if d.set_id == "thornwood")
    assert ids == ["thornwood_champion", "thornwood_common", "thornwood_event", "thornwood_gate",
                   "thornwood_great_gate", "thornwood_summoner"]
    set_file = g.cards / "thornwood.yaml"
    set_file.write_text(set_file.read_text().replace("playable: false\n", ""))
    r = summon("check", str(g.rules))
    said = r.stdout + r.stderr
    assert r.returncode == 1 and "thornwood.yaml" in said and "layout" not in said, said
    assert re.search(r"thornwood\.yaml:\d+:\d+: .*common", said), said


@pytest.mark.parametrize("old, new, said", [
    ("text: Draw a card.", "text: Costs $5.", r"templates/set\.yaml:(?P<line>\d+): a \$ that is not \$\{id\} or \$\{title\}"),
    ("text: Draw a card.", "text: [Draw a card.", r"templates/set\.yaml:\d+: the set template is no YAML once"),
    ("  - id: ${id}_summoner", "  - id: [${id}_summoner]", r"templates/set\.yaml: a set template holds `cards:`, a list"),
])
def test_a_bad_set_template_is_named_and_nothing_written(game_copy, old, new, said):
    """A game's set template with a stray $, no YAML once filled in, or a card with no
    text id: an error naming the template (and its line), not an internal error."""
    g = game_copy("summoner_wars")
    template = g.rules / "templates" / "set.yaml"
    template.write_text(template.read_text().replace(old, new))
    r = summon("new", "set", str(g.rules), "thornwood")
    m = re.search(said, r.stderr)
    assert r.returncode == 1 and m, r.stderr
    if "line" in m.groupdict():
        assert template.read_text().splitlines()[int(m["line"]) - 1].endswith(new)
    assert not (g.cards / "thornwood.yaml").exists()


def test_the_shipped_set_template_is_yaml_as_it_stands():
    """Editors and `summon test rules` read it as YAML before any ${id} is put in."""
    from ruamel.yaml import YAML
    data = YAML(typ="safe").load((ROOT / "rules" / "summoner_wars" / "templates" / "set.yaml").read_text())
    assert data["layout"][0]["card"] == "${id}_summoner"


def test_a_set_template_that_is_not_utf8_is_named_at_its_line(game_copy):
    g = game_copy("summoner_wars")
    template = g.rules / "templates" / "set.yaml"
    template.write_bytes(template.read_bytes().replace(b"text: Draw a card.", b"text: Draw a card\xff."))
    line = template.read_bytes().split(b"\n").index(b"    text: Draw a card\xff.") + 1
    r = summon("new", "set", str(g.rules), "thornwood")
    assert r.returncode == 1 and f"templates/set.yaml:{line}: the set template is not UTF-8 text" in r.stderr, r.stderr


def test_a_set_template_that_is_no_file_is_said(game_copy):
    g = game_copy("summoner_wars")
    template = g.rules / "templates" / "set.yaml"
    template.unlink()
    template.mkdir()
    r = summon("new", "set", str(g.rules), "thornwood")
    assert r.returncode == 1 and "templates/set.yaml: the game's set template is no file" in r.stderr, r.stderr
    assert not (g.cards / "thornwood.yaml").exists()
