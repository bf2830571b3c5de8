"""Bad files and bad arguments: each is refused with one line naming the file (and line),
exit status 1 and no traceback, and a match in the REPL survives a bad `load`.

`summon` runs in a child process with its address space capped (a memory bound) and the
usual deadline (a hang guard); neither is a speed requirement.
"""
from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEADLINE, ROOT

from engine import luac, yamlio
from engine.errors import EngineError, SaveFileError
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, parse_options, play, read_save
from repl.session import Session

MEMORY_CAP = 1024 << 20      # bytes of address space a `summon` run may use here
TINY = ROOT / "tests" / "games" / "tiny_graph"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`summon ARGS` in a child process with at most MEMORY_CAP of memory."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "repl", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=DEADLINE, preexec_fn=cap)


def refused(r: subprocess.CompletedProcess, *needles: str) -> str:
    """The one line of a refusal (exit 1, no traceback), which holds every needle."""
    assert r.returncode == 1, f"exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr + r.stdout and "internal error" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def check_refuses(target: Path, file: Path, pattern: str) -> re.Match:
    """`summon check` on a game reports one problem in `file` at a line and column, matching pattern."""
    r = run("check", str(target))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    found = [line for line in r.stdout.splitlines() if line.startswith(str(file) + ":")]
    assert len(found) == 1, r.stdout
    m = re.match(re.escape(str(file)) + r":(\d+):(\d+): " + pattern, found[0])
    assert m, found[0]
    return m


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A copy of the tiny test game (rules and cards in one folder)."""
    return Path(shutil.copytree(TINY, tmp_path / "tiny_graph"))


# -- YAML -------------------------------------------------------------------------------

def laughs(levels: int = 9) -> str:
    """The billion laughs: each level a list of ten aliases of the level before."""
    out = ['lol0: &l0 "lol"\n']
    for i in range(1, levels + 1):
        out.append(f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n")
    return "".join(out)


def merge_bomb(levels: int = 40) -> str:
    """Mappings each merging the one before (<<) and listing it twice more."""
    out = ["m0: &m0 {a: 1, b: 2, c: 3, d: 4}\n"]
    for i in range(1, levels + 1):
        out.append(f"m{i}: &m{i} {{<<: *m{i - 1}, k{i}: [*m{i - 1}, *m{i - 1}]}}\n")
    return "".join(out)


def test_the_billion_laughs_in_a_card_file_is_refused_at_its_line(tiny):
    cards = tiny / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text() + laughs())
    m = check_refuses(tiny, cards, r"aliases .* would expand this file by more than 100,000 values")
    assert int(m.group(1)) > 8   # at an alias of the later levels, not at 1:1


def test_a_merge_key_bomb_in_game_yaml_is_refused(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + merge_bomb())
    check_refuses(tiny, game, r"aliases .* would expand")


def test_an_alias_inside_the_value_it_names_is_refused(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + "loop: &a [1, [2, *a]]\n")
    check_refuses(tiny, game, r"the alias \*a is inside the value it names")


def test_a_few_aliases_still_work(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("base: &b {strength: 1, life: 2}\n" + "".join(f"c{i}: {{<<: *b, id: c{i}}}\n" for i in range(50)))
    doc, problems = yamlio.load(f)
    assert problems == [] and doc.data["c7"] == {"strength": 1, "life": 2, "id": "c7"}


def test_the_same_text_in_two_files_is_parsed_once_and_each_named_as_its_own(tmp_path, monkeypatch):
    # a copy of a game parses none of the files it kept, yet every place names the copy's file
    fresh = f"# {tmp_path}\n"   # (a text no other test parsed in this process)
    text = fresh + "id: x\nname: !!str Echo\nbroken: [1, 2\n"
    first, second = tmp_path / "a.yaml", tmp_path / "b" / "a.yaml"
    second.parent.mkdir()
    good = tmp_path / "good.yaml"
    for f, t in ((first, text), (second, text), (good, fresh + "id: y\n")):
        f.write_text(t)
    copy = tmp_path / "copy.yaml"
    copy.write_text(fresh + "id: y\n")
    parsed = []
    monkeypatch.setattr(yamlio, "_parse", lambda *a, _p=yamlio._parse: parsed.append(a[1]) or _p(*a))
    one, two = yamlio.load(first, "one.yaml")[1], yamlio.load(second, "two.yaml")[1]
    assert [p.path for p in one] == ["one.yaml"] and [p.path for p in two] == ["two.yaml"]
    assert [(p.line, p.col, p.message) for p in one] == [(p.line, p.col, p.message) for p in two] != []
    docs = [yamlio.load(f, name)[0] for f, name in ((good, "good.yaml"), (copy, "copy.yaml"), (good, "good.yaml"))]
    assert [d.path for d in docs] == ["good.yaml", "copy.yaml", "good.yaml"]
    assert docs[1].problem(("id",), "m").path == "copy.yaml" and docs[1].data == {"id": "y"}
    assert parsed == ["one.yaml", "good.yaml"]


@pytest.mark.parametrize("value, said", [
    ("!!str Echo", "the YAML tag !!str is not read here: write the value without it"),
    ("!mine Echo", "the YAML tag !mine is not read here: write the value without it"),
    ("2024-01-02", "YAML reads 2024-01-02 as a date, which no game file holds: put it in quotes to keep it text"),
    ("!!binary aGk=", "YAML reads this as binary data (!!binary), which no game file holds"),
])
def test_a_yaml_value_of_a_kind_no_game_holds_says_what_to_write(tmp_path, value, said):
    f = tmp_path / "a.yaml"
    f.write_text(f"id: x\nname: {value}\n")
    _, problems = yamlio.load(f)
    assert [(p.line, p.col, p.message) for p in problems] == [(2, 7, said)], problems


@pytest.mark.parametrize("shape", ["flow", "block"])
def test_deeply_nested_yaml_is_refused_at_its_line(tiny, shape):
    cards = tiny / "cards" / "pieces.yaml"
    if shape == "flow":
        deep = "deep: " + "[" * 200_000 + "]" * 200_000 + "\n"
    else:
        deep = "deep:\n" + "".join("  " * i + f"- k{i}:\n" for i in range(1, 60)) + "  " * 60 + "- x\n"
    cards.write_text(cards.read_text() + deep)
    m = check_refuses(tiny, cards, r"the values here are nested more than 32 levels deep")
    assert int(m.group(1)) >= 9   # the file's first 8 lines are the card set itself


def test_nesting_up_to_the_bound_loads(tmp_path):
    f = tmp_path / "deep.yaml"
    f.write_text("a: " + "[" * (yamlio.MAX_DEPTH - 1) + "]" * (yamlio.MAX_DEPTH - 1) + "\n")
    doc, problems = yamlio.load(f)
    assert problems == [] and doc is not None


def test_a_10_mb_card_file_is_refused_at_once(tiny):
    big = tiny / "cards" / "big.yaml"
    card = ("  - id: c{i}\n    name: Card {i}\n    copies: 0\n    hooks:\n      after_step: |\n"
            "        function(self, ev)\n          if ev.card ~= self then return end\n        end\n")
    with big.open("w") as f:
        f.write("id: big\nname: Big\ncards:\n")
        for i in range(62_000):
            f.write(card.format(i=i))
    assert big.stat().st_size > 10_000_000
    check_refuses(tiny, big, r"cannot read this file: the file is \d+\.\d MB; the limit is 1 MB")


def test_card_files_over_4_mb_together_are_refused(tiny, monkeypatch):
    monkeypatch.setattr("engine.loader.MAX_CARD_BYTES", 300)
    extra = tiny / "cards" / "zz_more.yaml"
    extra.write_text("id: more\nname: More\ncards:\n" + "".join(
        f"  - {{id: m{i}, name: M {i}, copies: 0}}\n" for i in range(10)))
    with pytest.raises(EngineError, match=r"zz_more\.yaml:1:1: the game's card files come to more than"):
        load_game(str(tiny))


def test_inline_lua_is_compiled_at_its_own_size_not_the_files(tiny):
    """Inline functions far down a file are not padded to their line: what is compiled and
    linted grows with the file, not with functions times lines (loading was quadratic)."""
    cards = tiny / "cards" / "pieces.yaml"
    body = "".join(f"  - id: c{i}\n    name: C {i}\n    copies: 0\n    hooks:\n      after_step: |\n"
                   f"        function(self, ev) return {i} end\n" for i in range(300))
    cards.write_text(cards.read_text() + body)
    game = load_game(str(tiny))
    compiled = sum(len(src.source) for c in game.cards.values() for src in c.lua)
    assert compiled < len(cards.read_text())


def test_inline_lua_far_down_a_file_names_its_own_line(tiny):
    cards = tiny / "cards" / "pieces.yaml"
    filler = "".join(f"  - {{id: f{i}, name: F {i}, copies: 0}}\n" for i in range(400))
    bad = ("  - id: broken\n    name: Broken\n    copies: 0\n    hooks:\n      after_step: |\n"
           "        function(self, ev)\n          local x = = 1\n        end\n")
    cards.write_text(cards.read_text() + filler + bad)
    line = cards.read_text().splitlines().index("          local x = = 1") + 1
    with pytest.raises(EngineError, match=rf"pieces\.yaml:{line}:\d+: Lua: .*unexpected symbol"):
        load_game(str(tiny))


def test_a_script_error_far_down_a_file_names_its_own_line(tiny):
    cards = tiny / "cards" / "pieces.yaml"
    filler = "".join(f"  - {{id: f{i}, name: F {i}, copies: 0}}\n" for i in range(400))
    hook = ("  - id: faulty\n    name: Faulty\n    copies: 0\n    hooks:\n      after_step: |\n"
            "        function(self, ev)\n          local t = nil\n          return t.field\n        end\n")
    cards.write_text(cards.read_text() + filler + hook)
    line = cards.read_text().splitlines().index("          return t.field") + 1
    game = load_game(str(tiny))
    m = Match(game, 1, [Seat("bot"), Seat("bot")], quiet=True)
    with pytest.raises(EngineError, match=rf"pieces\.yaml:{line}:"):
        m.eval("local c = cards.create('faulty', 1); cards.place(c, 'north_b'); emit('after_step', {card = c})")


def test_moving_bytecode_lines_changes_nothing_else():
    for f in sorted((ROOT / "engine" / "lua").glob("*.lua")):
        ok, bc = luac.compile_lua(f.read_text(), str(f))
        assert ok and luac.shift_lines(bc, 0) == bc, f


def test_a_lone_surrogate_in_yaml_text_is_a_problem(tiny):
    cards = tiny / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text().replace("name: Pawn", 'name: "Pa\\ud800wn"'))
    check_refuses(tiny, cards, r"the text holds a lone surrogate escape \(\\ud800\)")


@pytest.mark.parametrize("number", ["99999999999999999999999", "-99999999999999999999999"])
def test_a_number_past_64_bits_is_one_problem(tiny, number):
    # the 0 that stands in for it was reported too ("0 is less than the minimum of ..."), and a
    # negative one was "too large"
    cards = tiny / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text().replace("copies: 0", f"copies: {number}"))
    check_refuses(tiny, cards, rf"number {number} is out of range \(numbers go from -2\^63 to 2\^63 - 1\)$")
    deck = tiny.parent / "deck.yaml"     # (a deck's copies start at 1: the stand-in 0 broke that rule)
    deck.write_text((ROOT / "cards" / "summoner_tcg" / "ember.yaml").read_text()
                    .replace("id: ember", "id: mine").replace("cinder_pup, copies: 3", f"cinder_pup, copies: {number}"))
    r = run("deck", "check", str(deck), "--game", "summoner_tcg")
    said = [line for line in r.stdout.splitlines() if line.startswith(str(deck))]
    assert r.returncode == 1 and len(said) == 1 and "is out of range" in said[0], r.stdout + r.stderr


@pytest.mark.parametrize("old, new", [
    ("rounds: 3", "rounds: {default: 3, min: 1, max: 99999999999999999999999}"),          # (was "min 1 is more than max 0")
    ("rounds: 3", "rounds: {default: [99999999999999999999999], schema: {items: {minimum: 1}}}"),
    ("north: {bonus: 2}", "north: {bonus: 2, player_counts: [99999999999999999999999, 99999999999999999999998]}"),
    # (where a list is wanted: the stand-in 0 went on to the scripts' loading, an internal error)
    ("scripts: [tiny.lua]", "scripts: 99999999999999999999999"),
])
def test_a_number_past_64_bits_in_game_yaml_is_one_problem(tiny, old, new):
    # (the second of two such numbers in a list was also "0 is listed already", and each "0
    # players cannot play")
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace(old, new))
    r = run("check", str(tiny))
    said = [line for line in r.stdout.splitlines() if line.startswith(str(game))]
    assert r.returncode == 1 and said and all("is out of range (numbers go from" in line for line in said), r.stdout
    assert len(said) == new.count("9999999999999999999"), said


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_card_file_that_is_a_pipe_or_a_device_is_refused_without_reading(tiny, kind):
    target = tiny / "cards" / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    word = "a named pipe" if kind == "fifo" else "a device"
    check_refuses(tiny, target, rf"cannot read this file: not a regular file \({word}\)")


def test_a_rules_script_that_is_a_pipe_is_refused(tiny):
    (tiny / "tiny.lua").unlink()
    os.mkfifo(tiny / "tiny.lua")
    m = check_refuses(tiny, tiny / "game.yaml", r"cannot read script 'tiny.lua': not a regular file \(a named pipe\)")
    assert m.group(1) == "25"   # the line of `scripts:` in game.yaml


# -- limits and options in game.yaml ------------------------------------------------------

@pytest.mark.parametrize("limit, value", [("memory_mb", 100_000), ("steps", 10 ** 12),
                                          ("trigger_depth", 100_000), ("seconds", 100_000)])
def test_limits_have_ceilings(tiny, limit, value):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + f"limits:\n  {limit}: {value}\n")
    check_refuses(tiny, game, rf"{value} is greater than the maximum of \d+")


def test_the_old_instruction_budget_is_named_with_its_new_form(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + "limits:\n  instructions: 50000000\n")
    m = check_refuses(tiny, game, r"unknown key 'instructions' \(the budget is counted in steps now: use steps, "
                                  r"about one for every 20 instructions, so 50,000,000 instructions is steps: 2500000\)")
    assert m.group(1) == str(game.read_text().splitlines().index("  instructions: 50000000") + 1)


@pytest.mark.parametrize("value, message", [("0", r"0 is less than the minimum of 1"),
                                            ("0.5", r"0.5 is less than the minimum of 1"),
                                            ("soon", r"expected a number, got text"),
                                            (".nan", r"limits: seconds must be a number, not NaN")])
def test_the_time_limit_is_a_number_of_seconds_within_bounds(tiny, value, message):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + f"limits:\n  seconds: {value}\n")
    m = check_refuses(tiny, game, message)
    assert m.group(1) == str(game.read_text().splitlines().index(f"  seconds: {value}") + 1)


def test_a_time_limit_in_game_yaml_is_the_matchs(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + "limits:\n  seconds: 2.5\n")
    r = run("eval", str(tiny), 'local a, b = ("x"):rep(2^24), ("x"):rep(2^24) while true do local _ = a == b end')
    refused(r, "error: script ran too long: it hit the time limit of 2.5 s of processor time")


@pytest.mark.parametrize("entry, message", [
    ("{default: 3, min: 5, max: 1}", r"option rounds: min 5 is more than max 1"),
    ("{default: 30, min: 1, max: 10}", r"option rounds: the default 30 is not from 1 to 10"),
    ("{default: many, min: 1}", r"option rounds has bounds, so its default must be a number"),
    ("{default: 3, most: 9}", r"unknown key 'most'"),
    ("{default: 3, schema: {type: five}}", r"option rounds: not a valid JSON Schema: type: 'five' is not valid"),
    ("{default: 3, schema: {type: string}}", r"option rounds: the default does not fit its schema: 3 is not of "
                                              r"type 'string'"),
    ("{default: x, schema: {enum: [a, b]}}", r"option rounds: the default does not fit its schema: 'x' is not one of: "
                                              r"'a', 'b'"),
    # (jsonschema fetched the URL at every load, with no time limit: a silent server hung summon)
    ("{default: 3, schema: {$ref: 'http://127.0.0.1:9/x.json'}}",
     r"option rounds: not a valid JSON Schema: \$ref: 'http://127.0.0.1:9/x.json' is outside the schema"),
    # (found only when a value reached it: --vary card.X.Y was an internal error)
    ("{default: 3, schema: {anyOf: [{type: integer}, {$ref: '#/$defs/big'}]}}",
     r"option rounds: not a valid JSON Schema: anyOf.1.\$ref: '#/\$defs/big' points to nothing in the schema"),
    # (a pointer through a list by a name was an internal error)
    ("{default: [1], schema: {prefixItems: [{type: integer}], items: {$ref: '#/prefixItems/first'}}}",
     r"option rounds: not a valid JSON Schema: items.\$ref: '#/prefixItems/first' points to nothing in the schema"),
    # (a property may be called default or const: a schema all the same, not data)
    ("{default: {default: 1}, schema: {properties: {default: {$ref: '#/$defs/n'}}}}",
     r"option rounds: not a valid JSON Schema: properties.default.\$ref: '#/\$defs/n' points to nothing"),
    # (a schema kept under a key of one's own, reached by a reference: OpenAPI's components)
    ("{default: 3, schema: {components: {a: {$ref: '#/components/x'}}, $ref: '#/components/a'}}",
     r"option rounds: not a valid JSON Schema: components.a.\$ref: '#/components/x' points to nothing"),
    # (found through an anchor, said where it is written)
    ("{default: 3, schema: {$ref: '#A', $defs: {a: {$anchor: A, properties: {p: {$ref: '#/$defs/nope'}}}}}}",
     r"option rounds: not a valid JSON Schema: \$defs.a.properties.p.\$ref: '#/\$defs/nope' points to nothing"),
    ("{default: [3], schema: {items: {$dynamicRef: '#count'}}}",
     r"option rounds: not a valid JSON Schema: items.\$dynamicRef: '#count' points to nothing in the schema"),
])
def test_bad_option_declarations_are_problems(tiny, entry, message):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", f"rounds: {entry}"))
    check_refuses(tiny, game, message)


@pytest.mark.parametrize("schema", [
    "{$id: 'urn:rounds#', $defs: {n: {type: integer}}, $ref: '#/$defs/n'}",      # (an $id may end in #)
    "{$defs: {n: {$id: 'urn:count', type: integer}}, $ref: 'urn:count'}",          # (a resource within it)
    "{type: integer, x-editor: {$ref: '#/nowhere'}}",                              # (an annotation's data)
    "{anyOf: [{$ref: '#/$defs/n'}], $defs: {n: {enum: [3, {$ref: x}]}}}",        # (a $ref key in data)
    "{$defs: {n: {$dynamicAnchor: count, type: integer}}, $dynamicRef: '#count'}",  # (a dynamic anchor)
    "{type: integer, counting: {$ref: '#/nowhere'}}",                             # (a keyword of one's own)
])
def test_schemas_whose_references_resolve_within_them_are_taken(tiny, schema):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", f"rounds: {{default: 3, schema: {schema}}}"))
    r = run("check", str(tiny))
    assert r.returncode == 0, r.stdout + r.stderr


def _doubling(levels: int, leaf: dict) -> str:
    """A schema (as JSON, which YAML reads) whose every level refers twice to the next."""
    defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    return json.dumps({"$defs": {**defs, f"d{levels}": leaf}, "$ref": "#/$defs/d0"})


def test_a_schema_whose_references_double_at_each_level_is_refused_before_any_value_is_checked(tiny):
    """Checking a value that fits no branch visits every branch: 18 such levels took 49 s to
    refuse the default. A schema reached more than 4,096 ways is refused; a schema within
    itself (a tree of any depth), a few levels of doubling and a wide schema (many kinds
    sharing one definition, more than 10,000 schemas in all) are taken."""
    game = tiny / "game.yaml"
    original = game.read_text()
    game.write_text(original.replace("rounds: 3", f"rounds: {{default: 3, schema: {_doubling(24, {'type': 'string'})}}}"))
    check_refuses(tiny, game, r"option rounds: not a valid JSON Schema: one of its schemas is reached more than "
                              r"4,096 ways through its references")
    tree = {"$defs": {"t": {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/t"}]}}},
            "$ref": "#/$defs/t"}
    kinds = {f"k{i}": {"type": "object", "properties": {"when": {"$ref": "#/$defs/when"}, **{
        f"f{j}": {"type": "integer"} for j in range(38)}}} for i in range(30)}
    wide = {"$defs": {"when": {"type": "object", "properties": {f"w{j}": {"type": "string"} for j in range(38)}},
                      "effect": {"oneOf": [{"$ref": f"#/$defs/kinds/{k}"} for k in kinds]}, "kinds": kinds},
            "type": "object", "properties": {f"hook{h}": {"type": "array", "items": {"$ref": "#/$defs/effect"}}
                                             for h in range(12)}}
    # (70 properties each referring to a card of 60 properties each referring to a stat: 4,200
    # ways to the stat, each for another value; and a chain of 1,000 definitions)
    shared = {"type": "object", "properties": {f"card{i}": {"$ref": "#/$defs/card"} for i in range(70)},
              "$defs": {"card": {"type": "object", "properties": {f"s{j}": {"$ref": "#/$defs/stat"} for j in range(60)}},
                        "stat": {"type": "integer"}}}
    chain = {"$defs": {f"d{i}": {"type": "object", "properties": {"next": {"$ref": f"#/$defs/d{i + 1}"}}}
                       for i in range(1000)}, "$ref": "#/$defs/d0"}
    chain["$defs"]["d1000"] = {}
    for default, schema in ((3, _doubling(6, {"type": "integer"})), ([[1, [2, [3]]]], json.dumps(tree)),
                            ("{}", json.dumps(wide)), ("{}", json.dumps(shared)), ("{}", json.dumps(chain))):
        game.write_text(original.replace("rounds: 3", f"rounds: 3\n  shape: {{default: {default}, schema: {schema}}}"))
        r = run("check", str(tiny))
        assert r.returncode == 0, r.stdout + r.stderr


def test_an_option_with_bounds_reads_as_its_value(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", "rounds: {default: 2, min: 1, max: 4}"))
    g = load_game(str(tiny))
    m = Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True)
    assert m.eval("options.rounds") == [2]
    assert Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": 4}).eval("options.rounds") == [4]
    for bad in (0, 5):
        with pytest.raises(EngineError, match=f"option rounds must be from 1 to 4, not {bad}"):
            Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": bad})


def test_an_option_whose_default_misfits_its_schema_is_a_problem_at_the_entry_that_misfits(tiny):
    game = tiny / "game.yaml"
    entry = ("rounds:\n    default:\n      - {from: 1, to: 2}\n      - {from: 3}\n"
             "    schema: {type: array, items: {required: [from, to]}}")
    game.write_text(game.read_text().replace("rounds: 3", entry))
    m = check_refuses(tiny, game, r"option rounds: the default does not fit its schema: lacks the key 'to'")
    assert int(m.group(1)) == game.read_text().splitlines().index("      - {from: 3}") + 1


def test_an_option_with_a_schema_takes_only_values_that_fit_it_and_says_where_one_does_not(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", "rounds: {default: 2}\n  order: {default: [a, b], schema: "
                                             "{type: array, items: {enum: [a, b, c]}, uniqueItems: true}}"))
    g = load_game(str(tiny))
    ok = Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"order": ["c", "a"]})
    assert ok.eval("options.order[1]") == ["c"]
    for bad, said in (([], None), (["a", "d"], r"option order\[2\]: 'd' is not one of: 'a', 'b', 'c'"),
                      (["b", "b"], r"option order: names 'b' more than once"),
                      ("a", r"option order: 'a' is not of type 'array'")):
        if said is None:   # (an empty list fits this schema)
            Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"order": bad})
            continue
        with pytest.raises(EngineError, match=said):
            Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"order": bad})
    # with a schema, the schema alone says what kinds of value an option takes
    game.write_text(game.read_text().replace("rounds: {default: 2}", "rounds: {default: 2, schema: {anyOf: "
                                             "[{type: number}, {const: none}]}}"))
    g = load_game(str(tiny))
    for fits in (1.5, "none"):
        assert Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": fits}).eval("options.rounds") \
            == [fits]
    with pytest.raises(EngineError, match="option rounds: 'many' is not valid under any of the given schemas"):
        Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": "many"})


def test_a_list_that_names_a_value_twice_is_said_with_that_value():
    from engine.options import schema_problem
    assert schema_problem({"uniqueItems": True}, [0, False, "x", "x"]) == ": names 'x' more than once"   # (0 == False)
    assert schema_problem({"uniqueItems": True}, [0, False, 1.5]) is None
    assert schema_problem({"items": {"uniqueItems": True}}, [[1], [2, {"a": 1}, {"a": 1}]]) == \
        "[2]: names {'a': 1} more than once"


def test_a_true_or_false_option_given_a_word_says_what_it_takes_once(tiny):
    """It said "takes true or false like true"."""
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", "rounds: 3\n  fast: false"))
    with pytest.raises(EngineError) as e:
        Match(load_game(str(tiny)), 1, [Seat("bot"), Seat("bot")], quiet=True, options={"fast": "maybe"})
    assert str(e.value) == "option fast takes true or false, not 'maybe'"


def test_a_schema_that_names_no_kind_leaves_the_defaults_kind_to_decide(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", "rounds: {default: [a], schema: {minItems: 1}}"))
    with pytest.raises(EngineError, match=r"option rounds takes a list like \['a'\], not 'a'"):
        Match(load_game(str(tiny)), 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": "a"})


def test_a_number_listed_twice_as_whole_and_as_decimal_is_listed_twice(tiny):
    # (JSON Schema counts 2 and 2.0 equal; the message looked for the repeat by text, found
    # none, and summon check said ok)
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("north: {bonus: 2}", "north: {bonus: 2, player_counts: [2, 2.0]}"))
    check_refuses(tiny, game, r"2.0 is listed already")


def test_a_card_fields_own_definitions_are_its_own(tiny):
    # ('#/$defs/n' in a card field's schema pointed at the card schema's root: every card file
    # got a 1,800-character "cannot validate" at its first line)
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + "card_fields:\n  level: {$defs: {n: {type: integer}}, $ref: '#/$defs/n'}\n")
    cards = tiny / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text().replace("name: Pawn", "name: Pawn\n    level: 3", 1))
    assert run("check", str(tiny)).returncode == 0
    cards.write_text(cards.read_text().replace("level: 3", "level: x"))
    check_refuses(tiny, cards, r'expected a whole number, got text "x"')


def test_a_card_field_may_refer_to_the_card_schema_and_is_not_blamed_for_another_fields_mistake(tiny):
    # (each field was checked alone, where '#' is the field: its reference pointed to nothing)
    game = tiny / "game.yaml"
    text = game.read_text() + "card_fields:\n  twin: {$ref: '#/$defs/card/properties/copies'}\n"
    game.write_text(text)
    assert run("check", str(tiny)).returncode == 0
    game.write_text(text + "  weight: {type: nonsense}\n")
    check_refuses(tiny, game, r"not a valid schema for a card field: type: 'nonsense' is not valid")


def test_a_plain_option_still_takes_any_number():
    g = load_game(str(TINY))
    assert Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": 7}).eval("options.rounds") == [7]


# -- the command line ---------------------------------------------------------------------

@pytest.mark.parametrize("args, needles", [
    pytest.param(["sim", "summoner_wars", "--games", "-5"], ["games must be", "not -5"], id="games-negative"),
    pytest.param(["sim", "summoner_wars", "--games", "0"], ["games must be", "not 0"], id="games-zero"),
    pytest.param(["sim", "summoner_wars", "--games", "2", "--jobs", "-1"], ["jobs must be"], id="jobs-negative"),
    pytest.param(["sim", "summoner_wars", "--games", "2", "--max-decisions", "-1"], ["--max-decisions must be"],
                 id="max-decisions-negative"),
    pytest.param(["sim", "summoner_wars", "--games", "1", "--seed", str(2 ** 63)], ["seed", str(2 ** 63 - 1)],
                 id="sim-seed-2^63"),
    pytest.param(["sim", "summoner_wars", "--games", "3", "--seed", str(2 ** 63 - 2)], ["would need seeds up to"],
                 id="sim-seeds-run-past-2^63"),
    pytest.param(["play", "summoner_wars", "--seed", str(2 ** 64)], ["seed is a whole number from 0 to"],
                 id="play-seed-2^64"),
    pytest.param(["play", "summoner_wars", "--seed", "-1"], ["seed is a whole number from 0 to", "not -1"],
                 id="play-seed-negative"),
    pytest.param(["eval", "summoner_wars", "1", "--seed", str(2 ** 63)], ["seed is a whole number"],
                 id="eval-seed-2^63"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "rounds=-3"],
                 ["option rounds must be from 1 to 20, not -3"], id="option-out-of-range"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "rounds=" + "1" + "0" * 30],
                 ["option rounds", "beyond the whole numbers a match can hold"], id="option-beyond-64-bits"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "rounds=10^30"],
                 ["option rounds takes a whole number"], id="option-not-a-number"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "rounds=.inf"],
                 ["option rounds", "not a number"], id="option-infinite"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "initial_turn_order=seat"],
                 ["option initial_turn_order: 'seat' is not one of: 'random', 'seats'", "did you mean 'seats'"],
                 id="option-not-a-choice"),
    pytest.param(["play", "summoners_isle", "--players", "bot,bot", "--option", "energy_track=[{from: 0, to: 9}]"],
                 ["option energy_track[1]: lacks the key 'change'"], id="option-entry-lacks-a-key"),
    pytest.param(["sim", "summonaria", "--games", "1", "--option", "domains_2=[sw, sw]"],
                 ["option domains_2: names 'sw' more than once"], id="option-list-twice"),
    pytest.param(["sim", "summonaria", "--games", "1", "--option", "domains_3=[sw, ne]"],
                 ["option domains_3: has 2 entries: it takes at least 3"], id="option-list-short"),
    pytest.param(["sim", "summoners_isle", "--games", "1", "--players", "bot:wyrms,bot"],
                 ["summoners_isle gives no seat a card set of its own", "'bot:wyrms'"],
                 id="set-in-a-game-without-sets"),
    pytest.param(["sim", "summoner_wars", "--games", "1", "--players", "bot:polar_dwarf,bot"],
                 ["no card set 'polar_dwarf'", "did you mean 'polar_dwarves'"], id="unknown-set"),
    pytest.param(["play", "summoner_wars", "--players", "robot,bot"], ["unknown seat kind 'robot'"], id="seat-kind"),
    *[pytest.param([cmd, "summoner_tcg", "--players", "3", *more], ["unknown seat kind '3'", "so 3 players of bots "
                                                                    "are bot,bot,bot"], id=f"player-count-{cmd}")
      for cmd, more in (("play", []), ("sim", ["--games", "1"]), ("eval", ["return 1"]))],
    pytest.param(["play", "summoner_tcg", "--players", "mcts:1e-3s,bot"], ["'mcts:1e-3s': the budget is"],
                 id="budget-with-an-exponent"),    # (it was read as a card set called 1e-3s)
    pytest.param(["sim", "summoners_isle", "--games", "1", "--option", "rounds=~"],
                 ["option rounds takes a whole number like 6, not null"], id="option-null"),   # (not None)
    pytest.param(["test", "summoner_tc"], ["no file or folder 'summoner_tc'", "did you mean 'summoner_tcg'"],
                 id="test-unknown-game"),
    pytest.param(["sim", "summoner_wars", "--games", "1", "--players", "bot,human:polar_dwarves"],
                 ["seat 2 is 'human'", "played by bots only"], id="sim-with-a-human"),
])
def test_arguments_out_of_range_are_refused(args, needles):
    refused(run(*args), *needles)


def test_a_date_given_as_an_option_stays_text_and_saves(tiny, tmp_path):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("rounds: 3", "rounds: 3\n  note: null   # takes any value"))
    opts = parse_options(["note=2024-01-01", "rounds=2"])
    assert opts == {"note": "2024-01-01", "rounds": 2}
    assert parse_options(["note=[a, 2024-01-02]"]) == {"note": ["a", "2024-01-02"]}
    m = Match(load_game(str(tiny)), 1, [Seat("human"), Seat("bot")], quiet=True, options=opts)
    assert m.eval("options.note") == ["2024-01-01"]
    m.save(tmp_path / "m.json")
    assert read_save(tmp_path / "m.json")["options"] == opts
    r = run("play", str(tiny), "--players", "human,random", "--option", "note=2024-01-01",
            stdin=f"save {tmp_path / 'p.json'}\nquit\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert read_save(tmp_path / "p.json")["options"] == {"note": "2024-01-01"}


def test_save_never_loses_the_match(tmp_path, sw):
    m = Match(sw, 1, [Seat("human"), Seat("bot")], quiet=True)
    m.answer(0)
    before = (m.state_hash(), list(m.answers))
    m.game_options = {"movers": float("nan")}      # as if something let a bad value through
    s = Session(m)
    out = s.handle(f"save {tmp_path / 'x.json'}")
    assert "cannot save this match" in out and not (tmp_path / "x.json").exists()
    assert (s.match.state_hash(), s.match.answers) == before
    s.match.game_options = {}
    assert "saved 1 decision to" in s.handle(f"save {tmp_path / 'x.json'}")


# -- saved matches ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_save(tmp_path_factory) -> dict:
    """A saved Summoner's Isle match of 20 decisions, as data."""
    g = load_game("summoners_isle")
    m = Match(g, 5, [Seat("bot"), Seat("bot")], quiet=True, options={"rounds": 2})
    play(m, {1: RandomBot(5, 1), 2: RandomBot(5, 2)}, max_decisions=20)
    path = tmp_path_factory.mktemp("saves") / "good.json"
    m.save(path)
    return json.loads(path.read_text())


def bad_saves(tmp: Path, good: dict) -> dict[str, tuple[Path, list[str]]]:
    """Broken saved matches: name -> (file, what the refusal must say)."""
    out: dict[str, tuple[Path, list[str]]] = {}

    def text(name: str, body: str, *needles: str) -> None:
        path = tmp / f"{name}.json"
        path.write_text(body)
        out[name] = (path, [str(path), *needles])

    def data(name: str, *needles: str, **changes) -> None:
        text(name, json.dumps({**good, **changes}), *needles)

    out["dev_zero"] = (Path("/dev/zero"), ["/dev/zero: not a regular file (a device)"])
    fifo = tmp / "fifo.json"
    os.mkfifo(fifo)
    out["fifo"] = (fifo, [f"{fifo}: not a regular file (a named pipe)"])
    out["folder"] = (tmp, [f"{tmp}: not a regular file (a folder)"])
    text("deep", '{"format": "summon-match/1", "x": ' + "[" * 200_000 + "]" * 200_000 + "}",
         ":1:", "nested too deeply")
    text("surrogate", json.dumps({**good, "answers": good["answers"][:3] + ["\ud800"]}),
         "answer 4 holds a lone surrogate escape (\\ud800)")
    data("seed_2_63", "'seed'", str(2 ** 63), seed=2 ** 63)
    data("seed_10_30", "'seed'", seed=10 ** 30)
    data("option_10_30", "'options'", "beyond the whole numbers", options={"rounds": 10 ** 30})
    data("option_range", "option rounds must be from 1 to 20, not -3", options={"rounds": -3})
    data("option_choice", "option initial_turn_order: 'sets' is not one of", options={"initial_turn_order": "sets"})
    text("nan", json.dumps(good).replace('"rounds": 2', '"rounds": NaN'), "NaN is not a number")
    text("digits", json.dumps({**good, "seed": 0}).replace('"seed": 0', '"seed": ' + "9" * 5000),
         "a number of 5000 digits")
    data("set", "gives no seat a card set of its own", seats=["bot:nope", "bot"])
    data("seat", "unknown seat kind 'robot'", seats=["robot", "bot"])
    data("empty_seat", "'seats' must be a list", seats=["", "bot"])     # ("" was read as a bot's seat)
    data("rules_huge", "'rules' must be the path of the folder the game was played from", rules="x" * 5000)
    for name, f in (("card_file_root", "/"), ("card_file_long", "/tmp/" + "x" * 300 + ".yaml")):
        # (the saved text went to a scratch folder under the file's name: "/" is the folder itself)
        data(name, "'card_files' must be a list of paths to card or deck files", card_files=[f],
             card_file_texts={f: "x: 1"})
    return out


SAVE_CASES = ["dev_zero", "fifo", "folder", "deep", "surrogate", "seed_2_63", "seed_10_30", "option_10_30",
              "option_range", "option_choice", "nan", "digits", "set", "seat", "empty_seat", "card_file_root", "card_file_long",
              "rules_huge"]


@pytest.mark.parametrize("case", SAVE_CASES)
@pytest.mark.parametrize("command", ["replay", "play --load"])
def test_a_bad_save_is_refused_naming_the_file(tmp_path, good_save, case, command):
    path, needles = bad_saves(tmp_path, good_save)[case]
    refused(run(*command.split(), str(path)), *needles)


@pytest.mark.parametrize("key, bad", [("seed", "x"), ("seats", ["robot", "bot"]), ("answers", [1, 2])])
def test_a_bad_field_of_a_save_is_refused_at_its_line(tmp_path, good_save, key, bad):
    path = tmp_path / "bad.json"
    # as saves are written, one field a line; a nested key of that name comes first
    path.write_text(json.dumps({"card_file_texts": {key: "x"}, **good_save, key: bad}, indent=1))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(f' "{key}":'))
    assert line > 1
    with pytest.raises(SaveFileError, match=rf"bad\.json:{line}:2: '{key}'"):
        read_save(path)


def test_a_saved_option_the_game_does_not_take_is_refused_at_the_line_of_the_options(tmp_path, good_save):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good_save, "options": {"initial_turn_order": "sets"}}, indent=1))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(' "options":'))
    for command in ("replay", "play --load"):
        refused(run(*command.split(), str(path)), f"bad.json:{line}:2: option initial_turn_order: 'sets'")


@pytest.mark.parametrize("seats, said", [
    (["bot"] * 5, "summoners_isle is for 2 to 4 players, not 5"),
    (["mcts:abc", "bot"], "'mcts:abc' is mcts playing the set 'abc'; a budget is a number"),
])
def test_seats_the_game_cannot_seat_are_refused_at_the_line_of_the_seats(tmp_path, good_save, seats, said):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good_save, "seats": seats}, indent=1))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(' "seats":'))
    for command in ("replay", "play --load"):
        refused(run(*command.split(), str(path)), f"bad.json:{line}:2: ", said)


def test_play_of_one_game_with_a_save_of_another_says_whose_the_save_is(tmp_path, good_save):
    """`summon play summoner_wars --load F` of a Summoner's Isle save said that Summoner
    Wars has no option 'rounds'; a save naming a game that does not exist played on."""
    path = tmp_path / "isle.json"
    path.write_text(json.dumps(good_save, indent=1))
    refused(run("play", "summoner_wars", "--load", str(path)),
            f"{path} is a match of summoners_isle, not summoner_wars: leave the game out")
    path.write_text(json.dumps({**good_save, "game": "nosuch"}, indent=1))
    refused(run("play", "summoners_isle", "--load", str(path)), "is a match of nosuch, not summoners_isle")


def test_the_repl_keeps_its_match_when_a_load_fails(tmp_path, good_save):
    cases = bad_saves(tmp_path, good_save)
    lines = ["1"] + [f"load {path}" for path, _ in cases.values()] + [f"save {tmp_path / 'kept.json'}", "quit"]
    r = run("play", "summoner_wars", "--players", "human,random", "--seed", "2", stdin="\n".join(lines) + "\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    for case, (path, needles) in cases.items():
        said = [line for line in r.stdout.splitlines()
                if "cannot load" in line and re.search(re.escape(str(path)) + r"(?![/\w.])", line)]
        assert len(said) == 1 and all(n in said[0] for n in needles[1:]), (case, said)
        assert said[0].count(str(path)) == 1, said   # (named once: "cannot load: FILE: no such file")
    assert len(read_save(tmp_path / "kept.json")["answers"]) >= 1   # the match it had, not a loaded one


def test_read_save_bounds_the_file_size(tmp_path, monkeypatch):
    monkeypatch.setattr("engine.match.MAX_SAVE_BYTES", 100)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"format": "summon-match/1", "answers": ["x" * 200]}))
    with pytest.raises(SaveFileError, match=r"big\.json: the file is .* MB; the limit is"):
        read_save(big)


def test_play_load_stops_at_an_answer_that_no_longer_fits(tmp_path, good_save):
    path = tmp_path / "diverged.json"
    answers = good_save["answers"][:4] + ["An answer never offered"] + good_save["answers"][4:]
    path.write_text(json.dumps({**good_save, "answers": answers}))
    r = run("play", "--load", str(path))
    line = refused(r, str(path), "decision 5", "'An answer never offered'", "offered:", "stops there")
    assert r.stdout.strip() == "", "no bot may play on after the divergence"
    refused(run("replay", str(path)), str(path), "decision 5", "'An answer never offered'")
    assert line


def test_replay_to_a_negative_number_is_refused(tmp_path, good_save):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good_save))
    refused(run("replay", str(path), "--to", "-5"), "--to", "not -5")
    r = run("replay", str(path), "--to", "0", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["decisions"] == 0


def test_replay_to_past_the_end_of_the_save_says_it_stopped_short(tmp_path, good_save):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good_save))
    n = len(good_save["answers"])
    for extra in ([], ["--json"]):
        r = run("replay", str(path), "--to", str(n + 100), *extra)
        assert r.returncode == 0 and f"--to {n + 100}, but {path} holds {n} answers" in r.stderr, r.stderr
    r = run("replay", str(path), "--to", str(n), "--json")
    assert r.returncode == 0 and r.stderr == "" and json.loads(r.stdout)["decisions"] == n


@pytest.mark.slow
def test_cards_that_need_more_memory_than_the_limit_are_a_clear_error(tiny):
    game = tiny / "game.yaml"
    game.write_text(game.read_text() + "limits: {memory_mb: 16}\n")
    big = tiny / "cards" / "big.yaml"
    card = ("  - id: c{i}\n    name: C{i}\n    copies: 0\n    text: {text}\n    hooks:\n      after_step: |\n"
            "        function(self, ev)\n          if ev.card ~= self then return end\n        end\n")
    with big.open("w") as f:
        f.write("id: big\nname: Big\ncards:\n")
        for i in range(4_800):
            # one long text (a YAML alias) becomes a string of its own in each definition:
            # the cap is passed while the host hands definitions to Lua, which once aborted
            # the process (a Lua PANIC) instead of raising
            f.write(card.format(i=i, text="&t " + "x" * 3000 if i == 0 else "*t"))
    r = run("check", str(tiny))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert re.search(r"a match cannot start: tiny_graph: its cards and scripts need more than the 16 MB "
                     r"a match may use \(limits: memory_mb in game.yaml\)", r.stdout), r.stdout


def test_simulate_refuses_a_human_seat_before_playing():
    """The sim API too: a human seat has nobody to answer it (it used to fail at the first
    question with a KeyError)."""
    from engine.sim import simulate
    game = load_game("summoner_wars")
    with pytest.raises(EngineError, match="seat 1 is 'human'"):
        simulate(game, [Seat("human"), Seat("random")], 1, 1)


def _run_chunk(bc: bytes):
    from lupa.lua54 import LuaRuntime
    lua = LuaRuntime(register_eval=False, encoding=None)
    return lua.eval("function(bc) return pcall(assert(load(bc, nil, 'b'))) end")(bc)


def test_bytecode_without_locals_keeps_the_file_and_line_of_an_error():
    text = "local x = 1\nlocal abc = nil\nreturn abc.field + x\n"
    ok, kept = luac.compile_lua(text, "some/file.lua")
    ok2, stripped = luac.compile_lua(text, "some/file.lua", locals=False)
    assert ok and ok2 and len(stripped) < len(kept)
    assert _run_chunk(kept) == (False, b"some/file.lua:3: attempt to index a nil value (local 'abc')")
    assert _run_chunk(stripped) == (False, b"some/file.lua:3: attempt to index a nil value")
    # a chunk placed further down its file keeps its moved lines too
    ok, moved = luac.compile_lua(luac.at_line(text, 40), "some/file.yaml", locals=False)
    assert _run_chunk(moved) == (False, b"some/file.yaml:42: attempt to index a nil value")


def test_only_the_engine_files_lose_their_local_names(monkeypatch):
    import engine.runtime as runtime
    seen: dict[str, bool] = {}
    real = runtime.compile_lua

    def spy(source, chunkname, steps="calls", *, locals=True):
        seen[chunkname] = locals
        return real(source, chunkname, steps, locals=locals)

    monkeypatch.setattr(runtime, "compile_lua", spy)
    game = load_game(str(ROOT / "rules" / "summoner_wars"))
    m = Match(game, 1, [Seat("bot"), Seat("bot")], quiet=True)
    engine_files = {k for k in seen if k.startswith("engine/lua/")}
    assert engine_files and not any(seen[k] for k in engine_files)
    assert seen.keys() - engine_files and all(seen[k] for k in seen.keys() - engine_files)
    # a modder's script still hears the name of the local it got wrong
    with pytest.raises(EngineError, match=r"\(local 'abc'\)"):
        m.eval("local abc = nil; return abc.field")


# -- found by an audit of bad input (session 45) -------------------------------------------

def test_piped_play_keeps_the_match_through_huge_numbers_and_nul_in_a_file_name(tmp_path):
    # Python will not read a number of over 4300 digits, nor open a name holding a NUL: both
    # ended the session (exit 70) before the save that followed them
    big = "9" * 5000
    lines = ["1", big, f"card #{big}", f"log {big}", "save a\0b", "load a\0b", f"save {tmp_path / 'kept.json'}", "quit"]
    r = run("play", "summoner_wars", "--players", "human,random", "--seed", "1", stdin="\n".join(lines) + "\n")
    assert r.returncode == 0 and "internal error" not in r.stdout + r.stderr, r.stdout[-3000:] + r.stderr
    assert f"no option {'9' * 12}...: choose 1 to" in r.stdout
    assert "cannot save to a" in r.stdout and "holds a NUL character" in r.stdout
    assert len(read_save(tmp_path / "kept.json")["answers"]) >= 1


def test_an_unexpected_error_in_piped_play_is_said_and_the_match_goes_on(sw, monkeypatch):
    from repl import plain
    s = Session(Match(sw, 1, [Seat("human"), Seat("random")], quiet=True))
    handle = Session.handle

    def buggy(self, line):
        if line == "boom":
            raise RuntimeError("a bug of ours")
        return handle(self, line)
    monkeypatch.setattr(Session, "handle", buggy)
    said, lines = [], iter(["boom", "1", ""])
    assert plain._play(s, said.append, sys.stdout, lambda: next(lines)) == 1    # (said by the exit status too)
    assert any("internal error: RuntimeError: a bug of ours (the match stays at decision" in t for t in said), said
    assert s.match.decisions >= 1 and "end of input: leaving the match" in said[-1]


def test_a_loop_of_links_is_refused_naming_the_file(tiny, tmp_path, monkeypatch):
    (tiny / "tiny.lua").unlink()
    (tiny / "tiny.lua").symlink_to(tiny / "tiny.lua")
    m = check_refuses(tiny, tiny / "game.yaml", r"script 'tiny.lua': cannot read: a link that leads back to itself")
    assert m.group(1) == "25"
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    refused(run("play", "summoner_tcg", "--players", f"human:{loop},random"), f"{loop}: cannot read: a link")
    monkeypatch.setenv("SUMMON_PATH", str(loop))
    refused(run("list"), f"SUMMON_PATH names '{loop}': cannot read: a link")


def test_a_nul_in_a_script_name_is_a_problem_at_its_line(tiny):
    text = (tiny / "game.yaml").read_text().replace("scripts: [tiny.lua]", 'scripts: [tiny.lua, "a\\0b.lua"]')
    (tiny / "game.yaml").write_text(text)
    m = check_refuses(tiny, tiny / "game.yaml", r"script 'a\\0b\.lua': the file's name holds a NUL character")
    assert m.group(1) == "25"


def test_counted_repeats_that_would_build_a_huge_pattern_are_refused(tmp_path):
    # compiling (?:(?:P{1000}){1000}){1000} took every byte of the machine's memory: tried
    # here only in a child process with its memory capped
    from engine.scenarios import _compiled, largest_repeat
    for fine in ("P{3}x{2,5}", "(?:ab){100}c{900}", "[0-9]{1,3}", "(ab){400}(cd){400}", r"(\d{1,3}\.){3}\d{1,3}"):
        assert _compiled(fine).pattern == fine
    assert largest_repeat("(ab){400}(cd){400}") == 400 and largest_repeat(r"(\d{1,3}\.){3}\d{1,3}") == 9
    assert largest_repeat("(?x)(?:(?:a{100}) {100}) {1000}") == 10 ** 7     # (verbose: a space before the count)
    assert largest_repeat("[]{]{5}") == 5 and largest_repeat(r"\\{9}") == 9 and largest_repeat(r"\{9}") == 1
    for n, bomb in enumerate(("(?:(?:P{1000}){1000}){1000}", "(?:P{100000}){2}", "P{200000}")):
        f = tmp_path / f"bomb{n}.yaml"
        f.write_text(f"game: {TINY}\nscenarios:\n  - name: one\n    steps:\n      - answer: \"/{bomb}/\"\n")
        r = run("check", str(f))
        assert r.returncode == 1 and "internal error" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert (f"{f}:5:17: not a valid pattern: its counted repeats ({{n}}) ask for over 100,000 copies"
                in r.stdout), r.stdout


regex_count = re.compile(r" \[\.\.\. ([\d,]+) more characters\]")


def test_a_script_error_of_millions_of_characters_is_cut(sw):
    from engine.errors import ScriptError
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    with pytest.raises(ScriptError) as e:
        m.eval('error(string.rep("x", 5000000))')
    text = str(e.value)
    assert len(text) <= 4000 and text.startswith("eval:1: xxx") and "more characters]" in text, text[-300:]
    import pickle
    for message in ("x" * 4100 + "\n" + "y" * 250, "q" * 9000 + "\n  in setup"):
        cut = str(ScriptError(message))
        kept = len(cut) - len(cut[cut.index(" [... "):cut.index("]") + 1])
        assert len(cut) <= 4000 and int(regex_count.search(cut)[1].replace(",", "")) == len(message) - kept, cut
        assert cut.endswith(message[message.rindex("\n"):]) and str(pickle.loads(pickle.dumps(ScriptError(cut)))) == cut


def test_end_game_names_a_table_without_its_address(sw):
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    with pytest.raises(EngineError) as e:
        m.eval("end_game(setmetatable({x = 1}, {}), 'x')")   # (a list is a team: end_game({}) is nobody's win)
    assert str(e.value).endswith("a list of players, {1, 3} say, not a table") and "0x" not in str(e.value), str(e.value)


def test_a_match_a_script_ended_without_a_result_says_so(sw):
    s = Session(Match(sw, 1, [Seat("human"), Seat("random")], quiet=True), designer=True)
    s.match.eval("state.over = true")     # (as a rule might, instead of calling end_game)
    s.match.answer(0)
    assert s.match.is_over and s.options_text() == "The match is over (the rules named no result)"


# -- found by an audit of the API reference against the engine (session 47) ----------------

def test_a_next_player_that_names_no_player_is_said_at_the_turns_end(tmp_path):
    """A flow's next_player returning 5 of 2 players was taken as whose turn it is: the error
    came at the next question, as 'no player 5', blamed on another script."""
    duel = Path(shutil.copytree(ROOT / "docs" / "examples", tmp_path / "examples"))
    game = duel / "rules" / "duel" / "game.yaml"
    game.write_text(game.read_text().replace("  setup: setup\n", "  setup: setup\n  next_player: whose_next\n"))
    script = duel / "rules" / "duel" / "duel.lua"
    script.write_text(script.read_text() + "\nfunction whose_next(p) return 5 end\n")
    r = run("sim", str(duel / "rules" / "duel"), "--games", "1", "--quiet")
    line = script.read_text().splitlines().index("function whose_next(p) return 5 end") + 1
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"error: {script}:{line}: whose_next (the flow's next_player) must return the player "
                               f"whose turn is next, from 1 to 2, not 5\n"), r.stderr


def test_state_phase_is_nil_between_rounds_as_between_turns(tiny):
    """In a rounds game state.phase kept the last phase's id through round_end and the next
    round_start; api.md says nil between turns, and a turns game reset it."""
    script = tiny / "tiny.lua"
    script.write_text(script.read_text() + '\non("round_end", function(ev) state.vars.seen = '
                                            '(state.vars.seen or "") .. tostring(state.phase) .. ";" end)\n')
    m = Match(load_game(str(tiny)), 1, [Seat("bot"), Seat("bot")], quiet=True)
    play(m, {1: RandomBot(1, 1), 2: RandomBot(1, 2)}, max_decisions=500)
    assert m.eval("state.vars.seen")[0].split(";")[:-1] == ["nil"] * m.eval("state.round")[0]


def test_doubling_through_what_a_value_holds_is_counted_place_by_place():
    """A review of 5dc3d4a: two branches that each pass the same property on, or a property
    and a pattern that both take it, double the ways at each level too (17 levels took 25 s
    to refuse one value); many properties sharing one big union are a wide schema, not a
    doubling one (their count took 18 s)."""
    from engine.loader import _overbranched

    def levels(n: int, level) -> dict:
        defs = {f"d{i}": level(f"#/$defs/d{i + 1}") for i in range(n)}
        return {"$defs": {**defs, f"d{n}": {"type": "string"}}, "$ref": "#/$defs/d0"}

    two_branches = lambda nxt: {"anyOf": [{"properties": {"a": {"$ref": nxt}}}] * 2}   # noqa: E731
    name_and_pattern = lambda nxt: {"properties": {"a": {"$ref": nxt}}, "patternProperties": {"^a": {"$ref": nxt}}}  # noqa: E731
    two_items = lambda nxt: {"anyOf": [{"items": {"$ref": nxt}}] * 2}   # noqa: E731
    for level in (two_branches, name_and_pattern, two_items):
        assert _overbranched(levels(12, level)) is None
        assert "reached more than 4,096 ways" in _overbranched(levels(13, level))[1]
    union = {"anyOf": [{"type": "object", "properties": {"k": {"const": i}}} for i in range(1000)]}
    wide = {"type": "object", "properties": {f"p{i}": {"$ref": "#/$defs/value"} for i in range(1000)},
            "$defs": {"value": union}}
    json_like = {"$defs": {"v": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/v"}},
                                           {"type": "object", "additionalProperties": {"$ref": "#/$defs/v"}}]}},
                 "$ref": "#/$defs/v"}
    assert _overbranched(wide) is None and _overbranched(json_like) is None


def test_check_of_a_file_that_is_no_game_file_says_what_it_takes(tmp_path):
    """`summon check /etc/hostname` said there is no game called '/etc/hostname'."""
    f = tmp_path / "notes.txt"
    f.write_text("hello\n")
    refused(run("check", str(f)), f"{f}: not a game, card, deck or scenario file: summon check takes")
