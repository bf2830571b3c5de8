"""The docs are checked, not trusted: the Lua annotations against the live sandbox, the
generated reference against the annotations, and every code example against code that runs.

- types/engine.lua names exactly what a script can reach (each shipped game's sandbox);
  types/games/<id>.lua names exactly what the game's rules define.
- docs/api.md and types/games/*.lua are what `summon docs` writes now (`summon docs --check`).
- Each `--- Example:` line of types/engine.lua runs in the duel example game.
- Every fenced block of docs/writing-a-game.md and docs/cookbook.md names the example file
  it quotes (```lua file=docs/examples/...```) and is found in it word for word; the
  example games pass `summon check`, their scenarios pass `summon test`, and bots finish
  games of them.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import docs
from engine.loader import LuaSource, load_game
from engine.luac import compile_lua
from engine.match import Match, RandomBot, Seat, play
from engine.runtime import Runtime
from repl.cli import main

ROOT = docs.ROOT
EXAMPLES = ROOT / "docs" / "examples"
EXAMPLE_GAMES = sorted(p.name for p in (EXAMPLES / "rules").iterdir() if (p / "game.yaml").is_file())
PROSE = [ROOT / "docs" / "writing-a-game.md", ROOT / "docs" / "cookbook.md"]

# What every `--- Example:` line of types/engine.lua may use (see that file's header).
EXAMPLE_PRELUDE = """
local c = scenario.create("scout", 1, "c3")
local a, b = c, scenario.create("scout", 2, "c4")
local knight = scenario.create("knight", 1, "b2")
local sword = cards.create("sword", 1, 1, "hand")
local faces = dice.roll("d6", 2)
scenario.set_counter(1, "coins", 9)
"""


@pytest.fixture(autouse=True)
def _example_games_found(monkeypatch):
    monkeypatch.setenv("SUMMON_PATH", str(EXAMPLES))


def _runtime(game) -> Runtime:
    n = max(2, game.data["players"]["min"])
    return Runtime(game, 1, [{"set": None, "name": f"P{i}"} for i in range(1, n + 1)])


# -- the annotations against the sandbox ------------------------------------------------

@pytest.mark.parametrize("gid", docs.game_ids() + EXAMPLE_GAMES)
def test_the_annotations_name_exactly_what_a_script_can_reach(gid):
    problems = docs.api_mismatches(_runtime(load_game(gid)))
    assert problems == [], "types/engine.lua and the sandbox differ:\n" + "\n".join(problems)


def test_a_missing_or_extra_annotation_is_reported():
    rt = _runtime(load_game("duel"))
    entries = [e for e in docs.engine_entries() if e.name not in ("board.ray", "say")]
    entries.append(docs.Entry(kind="function", name="cards.teleport", params=["c"]))
    problems = docs.api_mismatches(rt, entries)
    assert "say: in the sandbox but not in types/engine.lua" in problems
    assert "board.ray: in the sandbox but not in types/engine.lua" in problems
    assert "cards.teleport: in types/engine.lua but not in the sandbox" in problems


@pytest.mark.parametrize("gid", docs.documented_game_ids())
def test_each_games_meta_file_names_exactly_the_globals_its_rules_define(gid):
    meta = docs.parse_meta((docs.GAME_META_DIR / f"{gid}.lua").read_text())
    annotated = {e.name for e in meta if e.kind in ("function", "value")}
    live = set(docs.rules_globals(load_game(gid)))
    assert live, "the rules define no globals?"
    assert annotated == live, (f"only in the rules: {sorted(live - annotated)}; "
                               f"only in types/games/{gid}.lua: {sorted(annotated - live)}")


def test_every_engine_function_has_a_summary_its_arguments_and_an_example():
    entries = docs.engine_entries()
    functions = [e for e in entries if e.kind == "function"]
    assert len(functions) > 80
    for e in functions:
        assert e.text, f"{e.name}: no description"
        assert [a.name.rstrip("?") for a in e.args] == e.params, f"{e.name}: ---@param lines differ from {e.params}"
        assert e.example, f"{e.name}: no `--- Example:` line"
    for e in entries:
        if e.kind == "table":
            assert e.text, f"{e.name}: no description"


def test_the_meta_files_are_lua():
    for path in [docs.ENGINE_META, *sorted(docs.GAME_META_DIR.glob("*.lua"))]:
        ok, res = compile_lua(path.read_text(), str(path.relative_to(ROOT)))
        assert ok, res


def _examples():
    return [pytest.param(e.example, id=e.name) for e in docs.engine_entries() if e.example]


@pytest.mark.parametrize("example", _examples())
def test_each_example_of_the_api_runs(example):
    game = load_game("duel")
    src = LuaSource("types/engine.lua (example)", EXAMPLE_PRELUDE + example + "\n")
    m = Match(game, 1, [Seat("random"), Seat("random")], quiet=True, scenario=src)
    assert m.error is None, m.error


def test_state_and_card_fields_are_all_annotated():
    classes = {e.name: {f.name for f in e.fields} for e in docs.engine_entries() if e.kind == "class"}
    for gid in EXAMPLE_GAMES:
        m = Match(load_game(gid), 3, [Seat("random"), Seat("random")], quiet=True)
        play(m, {1: RandomBot(3, 1), 2: RandomBot(3, 2)}, max_decisions=400)
        snap = m.snapshot()
        assert set(snap) <= classes["State"], set(snap) - classes["State"]
        assert snap["cards"]
        for card in snap["cards"]:
            assert set(card) <= classes["Card"], set(card) - classes["Card"]
        view = m.view(1)
        assert set(view) <= classes["View"], set(view) - classes["View"]
        for z in view["zones"].values():
            assert set(z) <= classes["ViewZone"], set(z) - classes["ViewZone"]


# -- the generated files -------------------------------------------------------------------

def test_the_generated_reference_is_current(capsys):
    assert main(["docs", "--check"]) == 0, capsys.readouterr().out + "\nrun `summon docs`"


def test_docs_check_fails_on_a_stale_file_and_docs_writes_it(tmp_path, monkeypatch, capsys):
    target = tmp_path / "api.md"
    target.write_text("old text\n")
    monkeypatch.setattr(docs, "generated", lambda only_documented=False: {target: "new text\n"})
    assert main(["docs", "--check"]) == 1
    assert "is stale" in capsys.readouterr().out
    assert target.read_text() == "old text\n"
    assert main(["docs"]) == 0
    assert target.read_text() == "new text\n"
    assert main(["docs", "--check"]) == 0


def test_the_reference_documents_a_function_in_full():
    text = docs.API_MD.read_text()
    section = text.split("### `counters.spend(p, name, n)`", 1)[1].split("\n### ", 1)[0]
    assert "- `p` (`Player|string`)" in section
    assert "`value` (`number`): The new value." in section
    assert "Errors: the counter would go below its minimum" in section
    assert 'Example: `counters.spend(1, "coins", 3)`' in section


def test_the_parser_reads_params_returns_errors_and_examples():
    meta = """---@meta
--- Adds two numbers.
---@param a integer the first
---@param b integer|nil the second (default 0)
---@return integer sum The sum.
--- Errors: when a is not a number.
--- Example: local s = calc.add(1, 2)
function calc.add(a, b) end
"""
    [e] = docs.parse_meta(meta)
    assert (e.kind, e.name, e.params, e.text) == ("function", "calc.add", ["a", "b"], ["Adds two numbers."])
    assert [(a.name, a.type, a.text) for a in e.args] == [("a", "integer", "the first"),
                                                           ("b", "integer|nil", "the second (default 0)")]
    assert [(r.name, r.type, r.text) for r in e.returns] == [("sum", "integer", "The sum.")]
    assert e.errors == "when a is not a number."
    assert e.example == "local s = calc.add(1, 2)"


# -- the prose docs and their examples ---------------------------------------------------

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```\s*$", re.S | re.M)


def _blocks(path: Path):
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(path.read_text())]


@pytest.mark.parametrize("path", PROSE, ids=lambda p: p.name)
def test_every_code_block_quotes_an_example_file_word_for_word(path):
    blocks = _blocks(path)
    assert len(blocks) >= 5
    for info, body in blocks:
        m = re.match(r"^(lua|yaml)\s+file=(\S+)$", info)
        assert m, f"{path.name}: a code block without `lua file=...` or `yaml file=...`: ```{info}"
        quoted = ROOT / m.group(2)
        assert quoted.is_file(), f"{path.name}: {m.group(2)} does not exist"
        assert quoted.resolve().is_relative_to(EXAMPLES), f"{path.name}: {m.group(2)} is not under docs/examples"
        assert body in quoted.read_text(), f"{path.name}: this block is not in {m.group(2)}:\n{body}"


def test_a_block_that_differs_from_its_file_is_caught(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("```lua file=docs/examples/rules/duel/duel.lua\nfunction setup() end\n```\n")
    [(info, body)] = _blocks(doc)
    assert body not in (EXAMPLES / "rules" / "duel" / "duel.lua").read_text()


def test_the_cookbook_has_each_recipe():
    text = (ROOT / "docs" / "cookbook.md").read_text().lower()
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    for recipe in ("triggered ability", "modifier", "reaction", "sealed bid", "attachment", "initiative"):
        assert any(recipe in h for h in headings), recipe


@pytest.mark.parametrize("gid", EXAMPLE_GAMES)
def test_the_example_games_check_pass_their_scenarios_and_play_to_the_end(gid, capsys):
    assert main(["check", str(EXAMPLES / "rules" / gid)]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["test", str(EXAMPLES / "rules" / gid / "tests")]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert re.search(r"[1-9]\d* passed, 0 failed", out), out
    assert main(["sim", gid, "--games", "6", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] == 6
    # the greedy bot runs the game's evaluate(view, seat), where it has one
    assert main(["sim", gid, "--games", "2", "--players", "greedy,greedy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 2


def test_the_readmes_python_bot_runs_and_beats_random():
    """The README's bot written in Python, run as written (it would rot unseen): it plays
    a whole game through the API it names, and wins it against random."""
    import subprocess
    import sys
    text = (ROOT / "README.md").read_text()
    code = re.search(r"\*\*A bot of your own, in Python\.\*\*.*?```python\n(.*?)```", text, re.S).group(1)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert r.returncode == 0, r.stderr
    winner, decisions = map(int, r.stdout.split())
    assert winner == 1 and decisions > 50
