"""`summon check`: every shipped game validates; broken files give every problem at once,
as path:line:col with suggestions; no input makes it raise."""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, copy_game, edit, summon
from engine import loader
from engine.check import card_schema_text, check
from engine.errors import EngineError


@pytest.mark.parametrize("game", sorted(loader.list_games(ROOT)))
def test_every_shipped_game_checks_clean(game):
    assert check(game) == []


@pytest.mark.parametrize("game", sorted(loader.list_games(ROOT)))
def test_the_card_schema_for_editors_is_up_to_date(game):
    path = ROOT / "rules" / game / "cards.schema.json"
    assert path.is_file(), f"run: summon schema {game} --write"
    assert path.read_text() == card_schema_text(game), f"run: summon schema {game} --write"


def test_one_run_reports_every_kind_of_problem(game_copy):
    rules, cards = game_copy()
    pd, fk = cards / "polar_dwarves.yaml", cards / "fallen_kingdom.yaml"
    edit(pd, "    strength: 3\n", "    strenght: 3\n")
    edit(pd, "after_move: |", "after_mvoe: |")
    edit(pd, "{card: frost_mage, row: 2, col: 2}", "{card: frost_mag, row: 2, col: 2}")
    edit(pd, "    copies: 4\n", "    copies: 5\n")
    edit(fk, "    attack: melee", "    attack: meele")
    edit(fk, "    life: 12\n", "    life: twelve\n")
    edit(fk, "    name: Dragos\n", "")
    edit(fk, "if ev.card ~= self then return end", "if ev.card ~= self then return")
    edit(rules / "phases.lua", 'emit("after_summon"', 'emit("after_sumon"')
    edit(rules / "game.yaml", "in_play: [active]", "in_play: [actve]")
    text = "\n".join(str(p) for p in check(str(rules)))
    expected = [
        r"polar_dwarves.yaml:\d+:\d+: unknown key 'strenght' \(did you mean 'strength'\?\)",
        r"polar_dwarves.yaml:\d+:\d+: no event hook called 'after_mvoe' \(did you mean 'after_move'\?\)",
        r"polar_dwarves.yaml:\d+:\d+: no card called 'frost_mag' \(did you mean 'frost_mage'\?\)",
        r"polar_dwarves.yaml:\d+:\d+: .*5 copies, but a deck may hold at most 4",
        r"fallen_kingdom.yaml:\d+:\d+: 'meele' is not one of: melee, ranged \(did you mean 'melee'\?\)",
        r"fallen_kingdom.yaml:\d+:\d+: expected a whole number, got text",
        r"fallen_kingdom.yaml:\d+:\d+: missing required key 'name'",
        r"fallen_kingdom.yaml:\d+:\d+: Lua: ",
        r"phases.lua:\d+:\d+: no event called 'after_sumon' \(did you mean 'after_summon'\?\)",
    ]
    for rx in expected:
        assert re.search(rx, text), f"missing {rx!r} in:\n{text}"


def test_names_scripts_cannot_see_are_reported_with_the_cards_problems(game_copy):
    """A card set with a schema problem still has every script read for unknown names."""
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, "    strength: 3\n", "    strength: three\n")
    edit(pd, "offer_force(p, mine, 1,", "ofer_force(p, mine, 1,")
    edit(rules / "phases.lua", "local hand = {}", "local hand = hnad or {}")
    text = "\n".join(str(p) for p in check(str(rules)))
    for rx in (r"polar_dwarves.yaml:\d+:\d+: expected a whole number, got text \"three\"",
               r"polar_dwarves.yaml:30:13: unknown name 'ofer_force'.*did you mean 'offer_force'",
               r"phases.lua:\d+:\d+: .*'hnad'"):
        assert re.search(rx, text), f"missing {rx!r} in:\n{text}"
    # a game.yaml with problems is all that is reported: its rules are not run to read the scripts
    edit(rules / "game.yaml", "in_play: [active]", "in_play: [actve]")
    text = "\n".join(str(p) for p in check(str(rules)))
    assert "no zone called 'actve'" in text and "ofer_force" not in text


def test_game_yaml_reference_errors(game_copy):
    rules, _ = game_copy()
    edit(rules / "game.yaml", "in_play: [active]", "in_play: [actve]")
    text = "\n".join(str(p) for p in check(str(rules)))
    assert "game.yaml:" in text and "no zone called 'actve' (did you mean 'active'?)" in text


def test_a_field_schema_whose_type_is_not_a_word_is_a_problem_not_a_crash(game_copy):
    # found by the mutation test below: `type: {}` in a set field's schema
    rules, _ = game_copy()
    edit(rules / "game.yaml", "    layout:               # where the faction's cards start, in the owner's view\n"
                              "      type: array", "    layout:\n      type: {}")
    problems = [str(p) for p in check(str(rules))]
    assert problems and all(re.match(r".+:\d+(:\d+)?: ", p) for p in problems), problems


def test_a_card_field_that_is_no_schema_is_a_problem_at_its_line_of_game_yaml(game_copy):
    from engine.errors import DefinitionError

    rules, _ = game_copy()
    edit(rules / "game.yaml", "  cost: {type: integer, minimum: 0}", "  cost: {type: integer, minimum: zero}")
    line = (rules / "game.yaml").read_text().splitlines().index("  cost: {type: integer, minimum: zero}") + 1
    problems = [str(p) for p in check(str(rules))]
    assert len(problems) == 1 and re.search(rf"game\.yaml:{line}:\d+: not a valid schema for a card field: "
                                            r"minimum: 'zero' is not of type 'number'", problems[0]), problems
    with pytest.raises(DefinitionError) as e:     # summon schema writes no broken schema
        card_schema_text(str(rules))
    assert f"game.yaml:{line}:" in str(e.value.problems[0])


def test_a_card_function_that_is_no_function_is_a_problem_at_its_own_line(tmp_path):
    from conftest import summon
    assert summon("new", "game", "hooked", "--dir", str(tmp_path)).returncode == 0
    cards = tmp_path / "cards" / "hooked" / "starter.yaml"
    cards.write_text(cards.read_text() + "  - id: ward\n    name: Ward\n    points: 0\n    hooks:\n"
                     '      after_play: "42"\n      turn_start: "nil"\n      turn_end: "{}"\n')
    lines = cards.read_text().splitlines()
    problems = [str(p) for p in check(str(tmp_path / "rules" / "hooked"))]
    said = "Lua: this Lua must be a function (function(...) ... end), not "
    assert [p.split("starter.yaml:")[1] for p in problems] == [
        f"{lines.index(text) + 1}:1: {said}{kind}" for text, kind in
        (('      after_play: "42"', "a number"), ('      turn_start: "nil"', "nothing"), ('      turn_end: "{}"', "a table"))]


@pytest.mark.parametrize("old, new, said", [
    ("  points: {scope: player, min: 0, start: 0}", "  points: {scope: player, min: 5, max: 2, start: 3}",
     "counter points: min 5 is more than max 2"),
    ("  points: {scope: player, min: 0, start: 0}", "  points: {scope: player, min: 0, start: -1}",
     "counter points: it starts at -1, outside its min 0"),
])
def test_counters_and_options_whose_numbers_do_not_fit_together_are_problems(tmp_path, old, new, said):
    from conftest import summon
    assert summon("new", "game", "numbers", "--dir", str(tmp_path)).returncode == 0
    game = tmp_path / "rules" / "numbers" / "game.yaml"
    edit(game, old, new)
    line = next(n for n, text in enumerate(game.read_text().splitlines(), 1) if text.startswith(new))
    problems = [str(p) for p in check(str(game.parent))]
    assert len(problems) == 1 and f"game.yaml:{line}:" in problems[0] and problems[0].endswith(said), problems


def test_game_yaml_lists_with_a_name_twice_or_a_name_taken_are_problems(tmp_path):
    from conftest import summon
    assert summon("new", "game", "lists", "--dir", str(tmp_path)).returncode == 0
    game = tmp_path / "rules" / "lists" / "game.yaml"
    edit(game, "  - after_play            # {card, player}: a card was played\n", "  - after_play\n  - after_play\n")
    problems = [str(p).split("game.yaml:")[1] for p in check(str(game.parent))]
    lines = game.read_text().splitlines()
    assert problems == [f"{lines.index('  - after_play') + 2}:5: \"after_play\" is listed already"], problems
    edit(game, "  - after_play\n  - after_play\n", "  - after_play\n  - turn_start\n")
    edit(game, "    - {id: draw, run: draw_phase}\n", "    - {id: draw, run: draw_phase}\n    - {id: play, run: play_phase}\n")
    problems = [str(p).split("game.yaml:")[1].split(":", 2)[2].strip() for p in check(str(game.parent))]
    assert problems == ["'turn_start' is an event of the engine's own: declare only the game's events",
                        "two phases are called 'play'"], problems


def test_a_game_named_by_its_game_yaml_or_a_lua_file_is_checked_alike_with_its_tests(tmp_path):
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    (game / "tests").mkdir()
    (game / "tests" / "typo.yaml").write_text("game: tiny_graph\nscenaros: []\n")    # no scenario file at all
    (game / "lib").mkdir()
    (game / "lib" / "extra.lua").write_text("-- nothing\n")
    for target in (game, game / "game.yaml", game / "tiny.lua", game / "lib" / "extra.lua", game / "tests" / "typo.yaml"):
        problems = [str(p) for p in check(str(target))]
        assert any(p.endswith("typo.yaml:2:1: unknown key 'scenaros' (did you mean 'scenarios'?)") for p in problems), \
            (target, problems)
    lone = tmp_path / "lone.lua"
    lone.write_text("-- nothing\n")
    with pytest.raises(EngineError, match="no game.yaml in this file's folder or above it: it belongs to no game"):
        check(str(lone))


def test_a_card_set_kept_in_a_tests_folder_is_no_scenario_file_and_a_counter_may_start_in_setup(tmp_path):
    from conftest import summon
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    (game / "tests").mkdir()
    (game / "tests" / "fixture.yaml").write_text("id: fixture\nname: Fixture\ncards:\n  - {id: fx, name: FX}\n")
    edit(game / "game.yaml", "counters:\n", "counters:\n  gold: {scope: player, min: 1}\n")
    assert check(str(game)) == []      # no start given: the rules may set it (a start given below min is refused)
    r = summon("test", str(game))
    assert "fixture.yaml" not in r.stdout, r.stdout
    # with --game, a rules file is still checked as its game, not read as a card file
    assert check(str(game / "tiny.lua"), "tiny_graph") == check(str(game / "tiny.lua")) == []


def test_an_option_table_with_bounds_and_no_default_is_noted_not_refused(tmp_path):
    from engine.check import notes
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    edit(game / "game.yaml", "options:\n", "options:\n  span: {min: 1, max: 100}\n")
    assert check(str(game)) == []      # a table is a value an option may hold
    said = [n for n in notes(str(game)) if "option span" in n]
    assert len(said) == 1 and said[0].endswith('note: option span is the table {"max": 100, "min": 1}, having no '
                                               'default; a number with bounds is written '
                                               '{default: N, min: ..., max: ...}, a value with a schema '
                                               '{default: V, schema: ...}'), said
    edit(game / "game.yaml", "  span: {min: 1, max: 100}\n", "  order: {schema: {enum: [a, b]}}\n")
    assert check(str(game)) == []      # (its schema was never used, and --option order=a refused as no table)
    said = [n for n in notes(str(game)) if "option order" in n]
    assert len(said) == 1 and 'option order is the table {"schema": {"enum": ["a", "b"]}}, having no default' in said[0]


GRID_REGIONS = """  adjacency: orthogonal
  regions:
    south: {spaces: [a1, b1, c1]}
    west: {spaces: [a1, a2]}
    east: {spaces: [f1, z9]}
"""


def test_a_space_in_two_regions_and_a_region_of_no_space_are_problems(game_copy):
    # board.region(s) names one region: a space listed in two would belong to whichever
    # the engine read last
    rules, _ = game_copy()
    edit(rules / "game.yaml", "  adjacency: orthogonal\n", GRID_REGIONS)
    lines = (rules / "game.yaml").read_text().splitlines()
    west, east = lines.index("    west: {spaces: [a1, a2]}"), lines.index("    east: {spaces: [f1, z9]}")
    problems = [str(p) for p in check(str(rules))]
    assert [p.split("game.yaml:")[1] for p in problems] == [
        f"{west + 1}:{lines[west].index('a1') + 1}: space 'a1' is in region 'south' already: a space belongs "
        "to at most one region",
        f"{east + 1}:{lines[east].index('z9') + 1}: no space called 'z9'"], problems   # (a1 is no typo of z9)


def tiny_edited(tmp_path, old: str, new: str) -> tuple[Path, list[str], int]:
    """A copy of the tiny graph game with one line of its game.yaml changed: the game,
    the file's lines, and the changed line's index."""
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    edit(game / "game.yaml", old, new)
    lines = (game / "game.yaml").read_text().splitlines()
    return game, lines, lines.index(new)


def test_on_a_graph_board_each_space_names_its_region(tmp_path):
    game, lines, n = tiny_edited(tmp_path, "    north: {bonus: 2}", "    north: {bonus: 2, spaces: [south_a]}")
    problems = [str(p) for p in check(str(game))]
    assert [p.split("game.yaml:")[1] for p in problems] == [
        f"{n + 1}:{lines[n].index('spaces') + 1}: on a graph board each space names its region (region: north "
        "under the space); a region lists its spaces only on a grid"], problems


def test_a_region_for_a_number_of_players_the_game_has_not_is_a_problem(tmp_path):
    game, lines, n = tiny_edited(tmp_path, "    south: {bonus: 1}", "    south: {bonus: 1, player_counts: [3, 4]}")
    problems = [str(p) for p in check(str(game))]
    assert [p.split("game.yaml:")[1] for p in problems] == [
        f"{n + 1}:{lines[n].index('4]') + 1}: 4 players cannot play: players are from 2 to 3"], problems
    for wrong, said in (("[]", "'player_counts' is empty: give at least one entry"), ("[3, 3]", "3 is listed already")):
        edit(game / "game.yaml", lines[n].split(": ")[-1].rstrip("}"), wrong)
        lines = (game / "game.yaml").read_text().splitlines()
        assert [p.split("game.yaml:")[1].split(": ", 1)[1] for p in map(str, check(str(game)))] == [said]


def test_match_data_kept_outside_state_is_a_problem(tmp_path):
    # sim builds game after game in one runtime, and forks live beside their match: a
    # file-level variable that play changes carries one match's data into the next
    # (in a folder whose name Lua cuts to "..." and its last 56 bytes: said whole)
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / ("a_long_folder_name_" * 4) / "tiny"))
    assert check(str(game)) == [] and len(str(game / "tiny.lua")) > 60
    edit(game / "tiny.lua", "function act(round)\n", "local steps_left = 2\n\nfunction act(round)\n")
    edit(game / "tiny.lua", "      if board.is_empty(s) then", "      if steps_left > 0 and board.is_empty(s) then")
    edit(game / "tiny.lua", "      cards.place(pawn, pick.to)\n", "      cards.place(pawn, pick.to)\n"
                            "      steps_left = steps_left - 1\n")
    problems = [str(p) for p in check(str(game))]
    act = (game / "tiny.lua").read_text().splitlines().index("function act(round)") + 1
    assert len(problems) == 1 and problems[0].startswith(f"{game / 'tiny.lua'}:{act}:1: "), problems
    assert len(problems) == 1 and re.match(rf".*tiny\.lua:{act}:1: a match built after another one played differently "
                                           r"from the same match built alone \(from decision \d+\): a script keeps "
                                           r"match data outside `state`", problems[0]), problems
    # the local is named, with the function keeping it (where the problem is said)
    assert re.search(rf"\(the local steps_left that act \({re.escape(str(game / 'tiny.lua'))}:{act}\) keeps starts at 2 alone, at -?\d+ "
                     r"after another match\)", problems[0]), problems
    # a global of the rules is named, with what it holds alone and after another match
    edit(game / "tiny.lua", "local steps_left = 2\n", "STEPS_LEFT = 2\n")
    (game / "tiny.lua").write_text((game / "tiny.lua").read_text().replace("steps_left", "STEPS_LEFT"))
    problems = [str(p) for p in check(str(game))]
    assert len(problems) == 1 and re.search(r"a function changes \(the rules' global STEPS_LEFT starts at 2 alone, "
                                            r"at -?\d+ after another match\)", problems[0]), problems
    # said where a function changes it (it was at game.yaml:1:1)
    lines = (game / "tiny.lua").read_text().splitlines()
    at = next(n for n, text in enumerate(lines, 1) if "STEPS_LEFT = STEPS_LEFT - 1" in text)
    assert problems[0].startswith(f"{game / 'tiny.lua'}:{at}:{lines[at - 1].index('STEPS_LEFT') + 1}: "), problems


MAGE_STRENGTH = "          if card ~= self or not self.space then return value end\n"


@pytest.mark.parametrize("lua_line, changed", [
    ("state.vars.peeks = (state.vars.peeks or 0) + 1", r"at state\.vars\.peeks"),
    ("if card == self then self.looked = true end", r"at state\.cards\[\d+\]\.looked"),
    # (failing on the cards asked before its own, off the board, stops it on those alone)
    ("local col = card.space:sub(1, 1) if card == self then state.vars.col = col end", r"at state\.vars\.col"),
])
def test_a_card_modifier_that_changes_the_state_is_a_problem_at_its_line(game_copy, lua_line, changed):
    """A modifier runs whenever a stat is read, by the screens and each seat's view as well
    as the rules: a change it makes to the match happens at no moment of the game."""
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, MAGE_STRENGTH, f"          {lua_line}\n" + MAGE_STRENGTH)
    defined = pd.read_text().splitlines().index(f"          {lua_line}")   # (the line above it, counted from 1)
    problems = [str(p) for p in check(str(rules))]
    assert len(problems) == 1, problems
    assert re.fullmatch(rf".*polar_dwarves\.yaml:{defined}:1: Lua: modifier strength of Frost Mage \(card \d+\) "
                        rf"changes the match's state when it runs \({changed}\): a modifier may only compute the "
                        r"value, .*; make the change in a hook or a phase, and let the modifier read it",
                        problems[0]), problems


def test_a_rules_modifier_that_changes_the_state_is_a_problem_at_its_line(game_copy):
    rules, _ = game_copy()
    old = 'add_modifier("strength", function(c, v)\n'
    edit(rules / "abilities.lua", old, old + "  state.vars.asked = true\n")
    defined = (rules / "abilities.lua").read_text().splitlines().index(old.rstrip("\n")) + 1
    problems = [str(p) for p in check(str(rules))]
    assert len(problems) == 1, problems
    assert re.fullmatch(rf".*abilities\.lua:{defined}:1: Lua: the rules' modifier of strength changes the match's "
                        r"state when it runs \(at state\.vars\.asked\): .*", problems[0]), problems


def test_a_modifier_of_a_card_set_the_first_game_does_not_seat_is_run_too(game_copy):
    """Every card set a seat may play is seated in a game of its own for the check."""
    rules, cards = game_copy()
    vc = cards / "veiled_court.yaml"
    first = '          if card ~= self or tokens.get(self, "damage") == 0 then return value end\n'
    edit(vc, first, "          state.vars.court = true\n" + first)
    defined = vc.read_text().splitlines().index("          state.vars.court = true")
    problems = [str(p) for p in check(str(rules))]
    assert len(problems) == 1 and re.fullmatch(rf".*veiled_court\.yaml:{defined}:1: Lua: modifier strength of .* "
                                               r"changes the match's state when it runs \(at state\.vars\.court\).*",
                                               problems[0]), problems


def test_a_modifier_that_only_reads_is_no_problem(game_copy):
    """Reading the state, other stats and locals of its own is what a modifier is for."""
    rules, cards = game_copy()
    edit(cards / "polar_dwarves.yaml", MAGE_STRENGTH,
         "          local seen = {}\n          seen[#seen + 1] = stat(card, \"life\") + #cards.on_board()\n"
         + MAGE_STRENGTH)
    assert check(str(rules)) == []


def test_a_script_error_met_in_the_checks_random_games_is_a_problem_at_its_line(tmp_path):
    # the rules fail the first time a pawn steps: check's random games meet it, and say where
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    edit(game / "tiny.lua", "      cards.place(pawn, pick.to)\n",
         "      cards.place(pawn, pick.to)\n      local n = #state.vars.stepped\n")
    line = (game / "tiny.lua").read_text().splitlines().index("      local n = #state.vars.stepped") + 1
    problems = [str(p) for p in check(str(game))]
    assert len(problems) == 1, problems
    assert re.fullmatch(rf".*tiny\.lua:{line}:1: Lua: attempt to get length of a nil value \(field 'stepped'\) "
                        r"\(in a random game summon check played\)", problems[0]), problems


def test_checking_a_game_checks_the_form_of_its_scenario_files(tmp_path):
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    (game / "tests").mkdir()
    (game / "tests" / "steps.yml").write_text("game: tiny_graph\nscenarios:\n  - name: x\n    steps:\n"
                                              "      - answr: Stay\n")
    problems = [str(p) for p in check(str(game))]
    assert any(p.endswith("steps.yml:5:9: unknown key 'answr' (did you mean 'answer'?)") for p in problems), problems


def test_an_offer_that_forks_cannot_copy_is_a_problem_at_its_function(game_copy):
    # a phase's offer is copied with the checkpoints forks start from: a function in it
    # would be shared by every fork, so check plays a match that keeps checkpoints
    g = game_copy()
    assert check(str(g.rules)) == []
    edit(g.rules / "phases.lua", '{ label = "End " .. phase .. " phase", done = true }',
         '{ label = "End " .. phase .. " phase", done = true, later = function() end }')
    lua_lines = (g.rules / "phases.lua").read_text().splitlines()
    line = next(i for i, t in enumerate(lua_lines, 1) if t.startswith("function summon_offer("))
    problems = [str(p) for p in check(str(g.rules))]
    assert problems == [f"{loader.display(g.rules / 'phases.lua')}:{line}:1: Lua: the offer of phase summon "
                        f"(summon_offer) must be plain data, which forks copy: offer.options[1].later (a function) "
                        f"is not"], problems


def test_a_card_file_path_checks_its_game(game_copy):
    pd = game_copy().cards / "polar_dwarves.yaml"
    edit(pd, "    cost: 1\n", "    cost: -1\n")
    line = pd.read_text().splitlines().index("    cost: -1") + 1
    problems = [str(p) for p in check(str(pd))]
    assert len(problems) == 1, problems
    assert problems[0].endswith(f"polar_dwarves.yaml:{line}:11: -1 is less than the minimum of 0"), problems


# -- property: random damage to valid files never makes check raise -----------------

FILES = ["rules/summoner_wars/game.yaml", "cards/summoner_wars/polar_dwarves.yaml",
         "cards/summoner_wars/fallen_kingdom.yaml"]
VALUES = ["", "[]", "{}", "x", "-1", "3.5", "true", "null", "'", "[a, b", "{a: 1}", "999999999999999999999"]


@st.composite
def mutation(draw):
    f = draw(st.sampled_from(FILES))
    lines = (ROOT / f).read_text().splitlines()
    n = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "value", "typo", "indent", "dedent", "bytes", "duplicate"]))
    line = lines[n]
    if kind == "delete":
        lines.pop(n)
    elif kind == "value" and ":" in line:
        key = line.split(":", 1)[0]
        lines[n] = f"{key}: {draw(st.sampled_from(VALUES))}"
    elif kind == "typo" and len(line.strip()) > 2:
        i = draw(st.integers(0, len(line) - 2))
        lines[n] = line[:i] + line[i + 1] + line[i] + line[i + 2:]
    elif kind == "indent":
        lines[n] = "  " + line
    elif kind == "dedent":
        lines[n] = line[2:] if line.startswith("  ") else line
    elif kind == "duplicate":
        lines.insert(n, line)
    text = "\n".join(lines) + "\n"
    data = text.encode()
    if kind == "bytes":
        pos = draw(st.integers(0, len(data)))
        data = data[:pos] + draw(st.binary(min_size=1, max_size=8)) + data[pos:]
    return f, data


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_check_never_raises_and_always_names_a_path_and_line(mut):
    f, data = mut
    with tempfile.TemporaryDirectory() as tmp:
        rules, _ = copy_game(Path(tmp))
        (Path(tmp) / f).write_bytes(data)
        problems = check(str(rules))
        for p in problems:
            assert p.path and p.line >= 1 and p.col >= 1 and p.message
            assert str(p).startswith(f"{p.path}:{p.line}:{p.col}: ")


def test_notes_name_likely_slips_in_names_the_engine_does_not_own(tmp_path):
    """A token read under a name nothing adds, a tag one card carries that nothing uses, a
    declared hook nothing emits: each passed summon check and changed the game silently."""
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    shipped = notes(str(g.rules))
    cards = g.cards / "polar_dwarves.yaml"
    edit(cards, "if boost(self) >= 1 then", 'if tokens.get(self, "bost") >= 1 then')
    edit(cards, "    name: Bear Cavalry\n    tags: [unit, common]", "    name: Bear Cavalry\n    tags: [unit, common, unti]")
    edit(g.rules / "game.yaml", "hooks:\n", "hooks:\n  - before_summon\n")
    lines = cards.read_text().splitlines()
    token_line = next(i for i, x in enumerate(lines, 1) if '"bost"' in x)
    tag_line = next(i for i, x in enumerate(lines, 1) if "[unit, common, unti]" in x)
    hook_line = (g.rules / "game.yaml").read_text().splitlines().index("  - before_summon") + 1
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if n not in shipped]
    assert said == [
        f"cards/summoner_wars/polar_dwarves.yaml:{token_line}:16: note: no script adds a token 'bost' "
        "(did you mean 'boost'?): tokens.get finds none of it",
        f"rules/summoner_wars/game.yaml:{hook_line}:5: note: no script emits the hook 'before_summon' "
        "(emit(\"before_summon\", ...)), so a card's hook on it would never run",
        f"cards/summoner_wars/polar_dwarves.yaml:{tag_line}:26: note: no script or other card uses the tag 'unti' "
        "(did you mean 'unit'?)"], said
    assert not [n for n in shipped if "no script" in n or "tag" in n], shipped


def _deal_damage_line(rules) -> int:
    """The line after deal_damage's first guard in a copy's helpers.lua (where tests plant code)."""
    lines = (rules / "helpers.lua").read_text().splitlines()
    return lines.index("  if amount <= 0 or not target.space then return end") + 2


def _notes_after(tmp_path, game: str, file: str, old: str, new: str, about: str) -> list[str]:
    """The notes of summon check that name `about`, in a copy of a game with one change."""
    from engine.check import notes
    g = copy_game(tmp_path, game)
    edit(g.cards / file if file.endswith(".yaml") else g.rules / file, old, new)
    return [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if about in n]


def test_a_card_field_written_as_a_tag_is_noted(tmp_path):
    said = _notes_after(tmp_path, "summonaria", "nightstalkers_of_vodash.yaml", "    name: Winged Horror\n    tags: "
                        "[unit, fear]", "    name: Winged Horror\n    tags: [unit, fear, flying]", "flying")
    assert said == ["cards/summonaria/nightstalkers_of_vodash.yaml:12:24: note: 'flying' is a field of this game's "
                    "cards, not a tag: write flying: and its value"], said


def test_a_misspelt_field_is_noted_beside_the_problem_it_causes(tmp_path):
    """A misspelt field read as nil and then gone through with ipairs failed check's random
    games; the note that names the misspelling was left out whenever there was a problem."""
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.cards / "core.yaml", "for _, at in ipairs(attacks_on(player, ctx.attacks)) do\n            if is_revealed",
         "for _, at in ipairs(attacks_on(player, ctx.atacks)) do\n            if is_revealed")
    out = [re.sub(r"^\S*(?=(rules|cards)/summoner_tcg/)", "", x)
           for x in summon("check", str(g.rules)).stdout.splitlines()]
    assert re.fullmatch(r"rules/summoner_tcg/helpers\.lua:\d+:1: Lua: ipairs needs a table \(a list\) to go through, "
                        r"got nil, called from \S*cards/summoner_tcg/core\.yaml:272 \(in a random game summon check "
                        r"played\)", out[0]), out
    assert out[1:] == ["1 problem found", "cards/summoner_tcg/core.yaml:272:54: note: no table of the game or the "
                                          "engine has a field 'atacks' (did you mean 'attacks'?)"], out


def test_scenario_files_where_summon_test_does_not_look_are_named(tmp_path):
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    scenario = "game: summoner_wars\nscenarios:\n  - name: a\n    steps: [{expect: {turn: 1}}]\n"
    (g.rules / "test").mkdir()
    (g.rules / "test" / "moves.yaml").write_text(scenario)
    assert [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if "moves.yaml" in n] == [
        "rules/summoner_wars/test/moves.yaml: note: `summon test summoner_wars` does not run these scenarios: it runs "
        "the files directly in rules/summoner_wars/tests and cards/summoner_wars/tests (`summon test` of this file's "
        "path runs it)"]
    (g.cards / "moves.yaml").write_text(scenario)
    assert [p.message.replace(f"{tmp_path}/", "") for p in check(str(g.rules))] == [
        "a file of scenario tests (it has `scenarios:`) among the card sets: move it to cards/summoner_wars/tests/, "
        "where summon test finds it"]


def test_a_misspelt_local_set_as_a_global_nothing_reads_is_noted(tmp_path):
    said = _notes_after(tmp_path, "summoner_wars", "helpers.lua", "  if amount <= 0 or not target.space then return "
                        "end\n", "  if amount <= 0 or not target.space then return end\n  if amount > 99 then amuont "
                        "= 99 end\n", "amuont")
    line = _deal_damage_line(ROOT / "rules" / "summoner_wars")
    assert said == [f"rules/summoner_wars/helpers.lua:{line}:23: note: this sets a global 'amuont' that no script reads "
                    "(did you mean the local 'amount'? a name no local has makes a global)"], said


@pytest.mark.parametrize("game, cards, old, new, said", [
    ("summoner_wars", "veiled_court.yaml", "    action_phase: move\n", "",
     "veiled_court.yaml:12:5: missing required key 'action_phase': a card with an action says in which phase it acts"),
    ("summoner_tcg", "core.yaml", "    windows: [battle]\n    text: When you are attacked",
     "    text: When you are attacked",
     "core.yaml:263:5: missing required key 'windows': a Gambit says when it may take effect (main, reveal, battle, "
     "turn_end)"),
])
def test_a_card_missing_what_another_of_its_keys_needs_is_a_problem(tmp_path, game, cards, old, new, said):
    """game.yaml's card_schema: an action with no phase, a Gambit with no windows were never
    offered, and summon check said nothing."""
    g = copy_game(tmp_path, game)
    assert check(str(g.rules)) == []
    edit(g.cards / cards, old, new)
    assert [f"{Path(p.path).name}:{p.line}:{p.col}: {p.message}" for p in check(str(g.rules))] == [said]


def test_a_card_schema_that_is_no_schema_is_a_problem_at_its_line(tmp_path):
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.rules / "game.yaml", "then: {required: [windows],", "then: {required: 5,")
    problems = check(str(g.rules))
    assert [(Path(p.path).name, p.line, p.col, p.message) for p in problems] == [
        ("game.yaml", 48, 20, "not a valid schema for a card: then.required: 5 is not of type 'array'")], problems


def test_a_comparison_that_is_never_true_is_noted(tmp_path):
    """A misspelt phase or zone, and a player's zone by its name alone (a card's zone is
    `hand:1`), compared with a field read as the game runs: the comparison is never true.
    The engine's own zones, a short word of the game's own and a zone of a table that is no
    card are not noted."""
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    planted = ('  local card = target if state.phase == "atack" or card.zone == "hand" or target.zone ~= "discrad:1" '
               'or card.zone == "board" or state.phase == "day" or target.zone == "hand" then end')
    edit(g.rules / "helpers.lua", "  if amount <= 0 or not target.space then return end\n",
         "  if amount <= 0 or not target.space then return end\n" + planted + "\n")
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if "comparison" in n or "zone" in n]
    phase, hand, discard = (planted.index(t) + 1 for t in ('"atack"', '"hand"', '"discrad'))
    line = _deal_damage_line(ROOT / "rules" / "summoner_wars")
    assert said == [
        f"rules/summoner_wars/helpers.lua:{line}:{phase}: note: no phase called 'atack' (did you mean 'attack'?): this "
        "comparison is never true",
        f"rules/summoner_wars/helpers.lua:{line}:{hand}: note: a card in a player's hand zone has the zone 'hand:1' (its "
        "name, a colon and the player): 'hand' alone is never a card's zone",
        f"rules/summoner_wars/helpers.lua:{line}:{discard}: note: no zone called 'discrad' (did you mean 'discard'?): "
        "this comparison is never true"], said


@pytest.mark.parametrize("game, old, new, said", [
    ("summoners_isle", "    default: [wyrm, troll, sprite]", "    default: [wyrm, trol, sprite]",
     "no card called 'trol' (did you mean 'troll'?)"),
    ("summonaria", "temples: {default: [a1, k1, a11, k11]", "temples: {default: [a1, k1, a11, k12]",
     "no space called 'k12' (did you mean 'k1'?)"),
])
def test_an_options_default_naming_nothing_is_a_problem_at_game_yaml(tmp_path, game, old, new, said):
    """x-ref in an option's schema: the default names a card or a square of the game (it was
    found only by the rules' own check as the match set up, at their line). A grid's
    squares are names x-ref: space takes (it took none)."""
    g = copy_game(tmp_path, game)
    edit(g.rules / "game.yaml", old, new)
    line = next(i for i, x in enumerate((g.rules / "game.yaml").read_text().splitlines(), 1) if new in x)
    problems = check(str(g.rules))
    assert [(Path(p.path).name, p.line, p.message) for p in problems] == [("game.yaml", line, said)], problems


@pytest.mark.parametrize("schema, default, said", [
    ("{type: array, prefixItems: [{type: string, x-ref: card}, {type: integer}]}", "[troll, 2]", "troll"),
    ("{anyOf: [{type: integer}, {type: string, x-ref: card}]}", "troll", "troll"),
    ("{oneOf: [{type: array, items: {type: string, x-ref: zone}}, {type: string, x-ref: card}]}", "[hand, dicard]",
     "dicard"),
])
def test_an_options_default_is_checked_through_every_part_of_its_schema(tmp_path, schema, default, said):
    """x-ref in prefixItems, and in the branch of an anyOf or oneOf that the value is of,
    was never checked: a default naming no card passed summon check."""
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.rules / "game.yaml", "options:                   # each with the range `--option` may set it to\n",
         f"options:\n  spare: {{default: {default}, schema: {schema}}}\n")
    problems = check(str(g.rules))
    assert len(problems) == 1 and re.fullmatch(r"no (card|zone) called '(troll|dicard)'.*", problems[0].message), problems
    spare = (g.rules / "game.yaml").read_text().splitlines().index(f"  spare: {{default: {default}, schema: {schema}}}") + 1
    assert problems[0].line == spare and problems[0].col == 20 + default.index(said), problems
    edit(g.rules / "game.yaml", f"default: {default}", f"default: {default.replace('troll', 'ice_golem')}"
         .replace("dicard", "discard"))
    assert check(str(g.rules)) == []


def test_a_value_of_a_choice_is_checked_by_the_branch_it_fits(tmp_path):
    """`any` fits the anyOf's first branch, which names nothing: the x-ref of the second branch
    does not hold it to name a card (a game that played was refused)."""
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.rules / "game.yaml", "options:                   # each with the range `--option` may set it to\n",
         "options:\n  spare: {default: any, schema: {anyOf: [{type: string, enum: [any]}, {type: string, x-ref: card}]}}\n"
         "  other: {default: {kind: zone, name: hand}, schema: {oneOf: [\n"
         "    {properties: {kind: {const: card}, name: {x-ref: card}}},\n"
         "    {properties: {kind: {const: zone}, name: {x-ref: zone}}}]}}\n")
    assert check(str(g.rules)) == []
    edit(g.rules / "game.yaml", "{kind: zone, name: hand}", "{kind: zone, name: hnad}")
    assert [p.message for p in check(str(g.rules))] == ["no zone called 'hnad' (did you mean 'hand'?)"]


def test_display_names_in_game_yaml_are_checked(tmp_path):
    """display: zones and fields misspelt showed nothing on the screen, without a word."""
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.rules / "game.yaml", "  zones: [field]  ", "  zones: [feild]  ")
    edit(g.rules / "game.yaml", "  fields: [strength, defense]", "  fields: [strength, defence]")
    assert [(p.line, p.col, p.message) for p in check(str(g.rules))] == [
        (101, 11, "no zone called 'feild' (did you mean 'field'?)"),
        (102, 22, "no field called 'defence' (did you mean 'defense'?)")]


@pytest.mark.parametrize("option, said", [
    ("{default: wyrm, schema: {type: string, x-ref: [card]}}", "x-ref: ['card'] is no kind of name; x-ref takes"),
    ("{default: {a: 1}, schema: {type: object, properties: [a]}}", "not a valid JSON Schema"),
])
def test_a_malformed_option_schema_is_said_not_a_crash(tmp_path, option, said):
    """Both stopped summon check, sim and play with an internal error (the x-ref check of
    option defaults took every schema to be well formed)."""
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.rules / "game.yaml", "options:                   # each with the range `--option` may set it to\n",
         f"options:\n  spare: {option}\n")
    problems = check(str(g.rules))
    assert [p.message for p in problems if said is None or said not in p.message] == [], problems
    assert said is None or len(problems) == 1


def test_a_card_schema_is_its_own_and_says_why_a_card_misfits(tmp_path):
    """card_schema's '#' is itself (a $ref to the card set schema's card looped for ever), and
    a card that misfits a `not` is said in words, not as the whole card with its Lua."""
    g = copy_game(tmp_path, "summoner_tcg")
    game_yaml = g.rules / "game.yaml"
    edit(game_yaml, "  then: {required: [windows],", "  then: {$ref: '#/$defs/card', required: [windows],")
    problems = check(str(g.rules))
    assert [p.message for p in problems] == ["not a valid schema for a card: then.$ref: '#/$defs/card' points to "
                                             "nothing in the schema"], problems
    edit(game_yaml, "  then: {$ref: '#/$defs/card', required: [windows],", "  then: {required: [windows],")
    edit(game_yaml, "card_schema:\n", "card_schema:\n  not: {required: [strength, defense, windows], "
                                      "x-message: 'a Summon is no Gambit'}\n")
    cards = g.cards / "core.yaml"
    edit(cards, "    windows: [battle]\n    text: When you are attacked, destroy",
         "    windows: [battle]\n    strength: 1\n    defense: 1\n    text: When you are attacked, destroy")
    assert [(Path(p.path).name, p.line, p.message) for p in check(str(g.rules))] == [
        ("core.yaml", 263, "does not fit the schema (not): a Summon is no Gambit")]


def test_vary_a_cards_stat_sees_the_cards_other_keys(tmp_path):
    """--vary card.X.stat checked a card of that key alone: a card_schema asking for another
    key refused every value, though the real card has it."""
    from engine.lab import check_card_value
    from engine.loader import load_game
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.rules / "game.yaml", "card_schema:\n", "card_schema:\n  dependentRequired: {strength: [life]}\n")
    game = load_game(str(g.rules))
    check_card_value(game, "frost_mage", "strength", 3)   # (raised: 'life' is a dependency of 'strength')
    with pytest.raises(EngineError, match="must be|minimum|less than"):
        check_card_value(game, "frost_mage", "strength", -1)


def test_an_x_ref_to_a_field_in_a_card_field_takes_the_games_fields(tmp_path):
    """x-ref: field in a card field's schema refused every value (its names were known only
    while game.yaml itself was checked)."""
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.rules / "game.yaml", "card_fields:\n", "card_fields:\n  shown: {type: string, x-ref: field}\n")
    edit(g.cards / "core.yaml", "    windows: [battle]\n    text: When you are attacked, destroy",
         "    windows: [battle]\n    shown: cost\n    text: When you are attacked, destroy")
    assert check(str(g.rules)) == []
    edit(g.cards / "core.yaml", "    shown: cost\n", "    shown: cots\n")
    assert [p.message for p in check(str(g.rules))] == ["no field called 'cots' (did you mean 'cost'?)"]


def test_a_value_worked_out_and_never_read_is_noted(tmp_path):
    """A forgotten return: a can_play that sets `ok` and ends, a filter that works out its
    answer into a local. Each returns nil (the card never offered, the filter keeping
    nothing), and summon check said nothing."""
    g = copy_game(tmp_path, "summoner_wars")
    from engine.check import notes
    shipped = notes(str(g.rules))
    assert not [n for n in shipped if "nothing reads" in n], shipped
    edit(g.cards / "polar_dwarves.yaml",
         "            if #force_targets(c, 1) > 0 then return true end\n          end\n          return false\n",
         "            if #force_targets(c, 1) > 0 then ok = true end\n          end\n")
    edit(g.cards / "polar_dwarves.yaml", "          local s = summoner_of(player)\n          if not s then return false",
         "          local s = summoner_of(player)\n          local ok = false\n          if not s then return false")
    edit(g.rules / "helpers.lua", "function controlled(p, filter)\n",
         "function controlled(p, filter)\n  local mine = cards.on_board(function(c)\n"
         "    local keep = c.controller == p\n  end)\n  local _spare = #mine\n")
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if n not in shipped]
    assert said == [
        "rules/summoner_wars/helpers.lua:23:11: note: the local 'keep' is given a value that nothing reads; this "
        "function returns nothing (did you mean `return keep`?)",
        "cards/summoner_wars/polar_dwarves.yaml:323:17: note: the local 'ok' is given a value that nothing reads (a "
        "name starting with _ says it is meant)"], said


def test_a_rules_function_defined_again_in_a_later_file_is_noted(tmp_path):
    """Two rules files each with a global `destroy`: the later replaced the earlier for every
    script, silently. One inside a function (made as the game runs) is not noted."""
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    with (g.rules / "abilities.lua").open("a") as f:
        f.write("\nfunction destroy(c) c.gone = true end\nlocal function later() function refresh_bases() end end\n")
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if "already defined" in n]
    line = (g.rules / "abilities.lua").read_text().splitlines().index("function destroy(c) c.gone = true end") + 1
    assert said == [f"rules/summoner_wars/abilities.lua:{line}:10: note: the function 'destroy' is already defined at "
                    "rules/summoner_wars/helpers.lua:142:10; this one, loaded later, replaces it for every script "
                    "(give one of them another name)"], said


def test_a_stat_cards_modify_and_no_script_reads_is_noted(tmp_path):
    """A new stat with a card's modifier for it, and no stat() reading it: the modifier
    changed nothing in the game, silently. Once the rules read it, no note."""
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.rules / "game.yaml", "  kill_magic: 1 ", "  reach: 1\n  kill_magic: 1 ")
    edit(g.cards / "fallen_kingdom.yaml", "    modifiers:\n      strength: |\n",
         "    modifiers:\n      reach: |\n        function(self, card, value) return value + 1 end\n"
         "      strength: |\n")
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if "no script reads" in n]
    assert said == ["rules/summoner_wars/game.yaml:60:10: note: no script reads the stat 'reach' (stat(c, \"reach\")), "
                    "so the modifiers of Gul-Dass change only what the screen shows of a card, never the game"], said
    with (g.rules / "helpers.lua").open("a") as f:
        f.write('\nfunction reach_of(c) return stat(c, "reach") end\n')
    assert not [n for n in notes(str(g.rules)) if "no script reads" in n]


@pytest.mark.parametrize("game, file, old, new, said", [
    ("summoner_tcg", "core.yaml", "    consume: spirit\n", "    consume: spirits\n",
     "core.yaml:105:14: no tag called 'spirits' (did you mean 'spirit'?)"),
    ("summoners_isle", "creatures.yaml", "    defence_die: d6\n", "    defence_die: d8\n",
     "creatures.yaml:42:18: no die called 'd8' (did you mean 'd6'?)"),
    # a starting layout off the board, an army's resource named twice: both failed in setup.lua,
    # said at game.yaml:1:1 or with no place
    ("summoner_wars", "polar_dwarves.yaml", "  - {card: ice_golem, row: 1, col: 2}", "  - {card: ice_golem, row: 1, col: 7}",
     "polar_dwarves.yaml:9:36: 7 is greater than the maximum of 5"),
    # (an x-message says why, after what is wrong)
    ("summoner_wars", "polar_dwarves.yaml", "    name: Bear Cavalry\n    tags: [unit, common]",
     "    name: Bear Cavalry\n    tags: [common]", "polar_dwarves.yaml:86:11: ['common'] does not contain items "
     "matching the given schema: a summoner, champion or common is a unit: its tags need unit"),
    ("summonaria", "defenders_of_steneval.yaml", "resources: [dragon_teeth, bloodstones, fairy_dust]",
     "resources: [dragon_teeth, bloodstones, dragon_teeth]",
     "defenders_of_steneval.yaml:7:40: \"dragon_teeth\" is listed already"),
    ("summoner_tcg", "game.yaml", "then: {required: [windows],", "then: {requried: [windows],",
     "game.yaml:48:20: not a valid schema for a card: then.requried: 'requried' is no keyword of JSON Schema (did you "
     "mean 'required'?)"),
    ("summoner_tcg", "game.yaml", "  consume: {type: string, x-ref: tag,", "  consume: {type: string, x-ref: tags,",
     "game.yaml:39:34: not a valid schema for a card field: x-ref: 'tags' is no kind of name (did you mean 'tag'?); "
     "x-ref takes ability, card, counter, die, field, hook, phase, region, space, stat, tag, zone"),
    ("summoner_tcg", "game.yaml", "  consume: {type: string, x-ref: tag,", "  consume: {type: string, maxLenght: 9,",
     "game.yaml:39:38: not a valid schema for a card field: maxLenght: 'maxLenght' is no keyword of JSON Schema (did "
     "you mean 'maxLength'?)"),
])
def test_names_a_schema_gives_and_its_own_keywords_are_checked(tmp_path, game, file, old, new, said):
    """A misspelt Consume type or die passed summon check and failed in the rules; a
    misspelt schema keyword or x-ref kind was passed over, so its rule was never checked."""
    g = copy_game(tmp_path, game)
    assert check(str(g.rules)) == []
    edit(g.rules / file if file == "game.yaml" else g.cards / file, old, new)
    assert [f"{Path(p.path).name}:{p.line}:{p.col}: {p.message}" for p in check(str(g.rules))] == [said]


def test_a_field_an_event_never_has_is_noted_where_a_hook_reads_or_sets_it(tmp_path):
    """A hook reading a field no emit of its event gives (before_attack carries the attacker
    only), an emit with a key misspelt, and a hook setting a misspelt field the rules never
    read: each made a card do nothing, and summon check said nothing."""
    from engine.check import notes
    g = copy_game(tmp_path, "summoner_wars")
    shipped = notes(str(g.rules))
    fallen, polar = g.cards / "fallen_kingdom.yaml", g.cards / "polar_dwarves.yaml"
    edit(fallen, "          if ev.attacker ~= self then return end\n          state.vars.empowered",
         "          if ev.attacker ~= self or not ev.target then return end\n          state.vars.empowered")
    edit(polar, "            ev.hits = ev.hits + 2 * specials", "            ev.hit = ev.hits + 2 * specials")
    edit(g.rules / "helpers.lua", "controller = controller, source = source })",
         "controller = controller, sorce = source })")
    read = next(i for i, x in enumerate(fallen.read_text().splitlines(), 1) if "not ev.target" in x)
    source = next(i for i, x in enumerate(fallen.read_text().splitlines(), 1) if "if ev.source ~= self or" in x)
    said = [n.replace(f"{tmp_path}/", "") for n in notes(str(g.rules)) if n not in shipped]
    assert said == [
        f"cards/summoner_wars/fallen_kingdom.yaml:{source}:17: note: no emit of 'on_destroyed' gives the field 'source' "
        "(they give: card, controller, sorce, space), and nothing sets it: it is always nil here (did you mean "
        "'sorce'?)",
        f"cards/summoner_wars/fallen_kingdom.yaml:{read}:44: note: no emit of 'before_attack' gives the field "
        "'target' (they give: attacker), and nothing sets it: it is always nil here",
        "cards/summoner_wars/polar_dwarves.yaml:153:16: note: this sets a field 'hit' of the event 'attack_rolled' "
        "that nothing reads (did you mean 'hits'?)"], said


def test_a_rules_listener_reading_a_field_its_event_never_has_is_noted(tmp_path):
    """on("after_play", function(ev) ... ev.points ...) in a new game's rules: always nil (a
    name no table has, ev.plyer, is said once, by the misspelt-field note)."""
    from engine.check import notes
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules = tmp_path / "rules" / "mygame"
    assert not [n for n in notes(str(rules)) if "no emit" in n]
    with (rules / "rules.lua").open("a") as f:
        f.write('\non("after_play", function(ev)\n  if ev.points == 1 or ev.plyer then say("one") end\nend)\n')
    last = len((rules / "rules.lua").read_text().splitlines())
    assert [n.replace(f"{tmp_path}/", "") for n in notes(str(rules)) if "plyer" in n or "no emit" in n] == [
        f"rules/mygame/rules.lua:{last - 1}:27: note: no table of the game or the engine has a field 'plyer' (did you "
        "mean 'player'?)",
        f"rules/mygame/rules.lua:{last - 1}:9: note: no emit of 'after_play' gives the field 'points' (they give: card, "
        "player), and nothing sets it: it is always nil here"]


def test_a_card_compared_with_an_id_is_noted(tmp_path):
    """ev.card == "gem" is never true (a card is a table; its id is c.def), silently."""
    from engine.check import notes
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    starter = tmp_path / "cards" / "mygame" / "starter.yaml"
    edit(starter, "if ev.card ~= self and ev.player == self.owner then",
         'local c, pick = {card = "gem"}, {card = "gem"}\n          '
         'if ev.card ~= self and ev.player == self.owner and ev.card ~= "gem" and self ~= "nothing" '
         'and c.card == "gem" and pick.card ~= "coin" then')   # (c and pick are no cards: not noted)
    line = next(i for i, x in enumerate(starter.read_text().splitlines(), 1) if 'ev.card ~= "gem"' in x)
    col = starter.read_text().splitlines()[line - 1].index('"gem"') + 1
    assert [n.replace(f"{tmp_path}/", "") for n in notes(str(tmp_path / "rules" / "mygame")) if "table" in n] == [
        f"cards/mygame/starter.yaml:{line}:{col}: note: a card is a table, never its id: this comparison is never "
        "true (compare its def: c.def == \"gem\")"]


def test_a_cards_modifier_returning_nothing_is_named_at_its_own_line(tmp_path):
    """It was placed at the rules' line that read the stat, with a pointer into the engine."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    starter = tmp_path / "cards" / "mygame" / "starter.yaml"
    with starter.open("a") as f:
        f.write("  - id: crown\n    name: Crown\n    tags: [treasure]\n    copies: 1\n    points: 3\n"
                "    text: Worth 1 more once played.\n    modifiers:\n      points: |\n"
                "        function(self, card, value)\n          if card == self then return value + 1 end\n"
                "        end\n")
    line = len(starter.read_text().splitlines()) - 2
    assert [(p.path.replace(f"{tmp_path}/", ""), p.line, p.message) for p in check(str(tmp_path / "rules" / "mygame"))] == [
        ("cards/mygame/starter.yaml", line, "Lua: modifier points of Crown returned nil, not a number (in a random game "
                                            "summon check played)")]


def test_a_long_path_is_named_whole_in_a_scripts_error(tmp_path):
    """Lua cuts a file name past 60 characters to '...' and its end: a game kept in a deep
    folder had its errors named by a path that led nowhere."""
    from repl import scaffold
    deep = tmp_path / ("a_folder_with_a_long_name_" * 3)
    scaffold.new_game("mygame", deep)
    starter = deep / "cards" / "mygame" / "starter.yaml"
    edit(starter, "if ev.card ~= self and ev.player == self.owner then", "if ev.card.nope.x then")
    assert len(str(starter)) > 60
    r = summon("sim", str(deep / "rules" / "mygame"), "--games", "2", cwd=tmp_path.parent)
    assert r.returncode == 1 and r.stderr.startswith(
        f"error: {starter.relative_to(tmp_path.parent)}:17: attempt to index a nil value (field 'nope')"), r.stderr
    assert [(p.path, p.line) for p in check(str(deep / "rules" / "mygame"))] == [(str(starter), 17)]


def test_a_game_where_no_card_is_ever_in_play_is_noted(tmp_path):
    """No board and no zone under in_play: Crown's modifier never applied. (A hook alone is no
    reason: a game may mean its cards to hear only their own play.)"""
    from engine.check import notes
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules = tmp_path / "rules" / "mygame"
    edit(rules / "game.yaml", "in_play: [played]", "in_play: []      ")
    assert not [n for n in notes(str(rules)) if "in play (" in n]   # (Echo has a hook only)
    with (tmp_path / "cards" / "mygame" / "starter.yaml").open("a") as f:
        f.write("  - id: crown\n    name: Crown\n    tags: [treasure]\n    copies: 1\n    points: 3\n"
                "    text: Worth 1 more.\n    modifiers:\n      points: |\n"
                "        function(self, card, value) return value + 1 end\n")
    assert [n.replace(f"{tmp_path}/", "") for n in notes(str(rules)) if "in play (" in n] == [
        "rules/mygame/game.yaml:15:10: note: no card is ever in play (no board, and no zone under in_play:), so no "
        "card's modifier applies and a card's hook hears only events about its own card (Crown)"]


def test_an_error_in_the_rules_names_the_card_whose_script_called_them(tmp_path):
    """A hook's parameters swapped (function(ev, self)) failed in the rules' score(); check
    named the rules' line only, where summon test also names the hook and its card."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    edit(tmp_path / "cards" / "mygame" / "starter.yaml", "        function(self, ev)\n          if ev.card ~= self",
         "        function(ev, self)\n          if ev.card ~= self")
    assert [(Path(p.path).name, p.message.replace(f"{tmp_path}/", "")) for p in check(str(tmp_path / "rules" / "mygame"))] == [
        ("rules.lua", "Lua: counters.add: no player nil (players are 1 to 2), called from cards/mygame/starter.yaml:18, in "
                      "hook after_play of Echo (in a random game summon check played)")]


def test_a_scenarios_expectation_naming_what_the_game_has_not_is_a_problem_of_check(tmp_path):
    """A misspelt stat, phase or zone, or a player the match has not, in an expectation: found
    only when summon test played it (or, for a stat, said as the lookup's error)."""
    g = copy_game(tmp_path, "summoner_wars")
    tests = g.rules / "tests"
    tests.mkdir()
    (tests / "audit.yaml").write_text("""\
game: summoner_wars
scenarios:
  - name: names
    seats: [polar_dwarves, fallen_kingdom]
    setup:
      clear_board: true
      board: {a1: {card: svara, owner: 1}, f8: {card: ret_talus, owner: 2}, c4: {card: ice_golem, owner: 1}}
      start: {player: 1, phase: attack}
    steps:
      - expect:
          board: {c4: {card: ice_golem, stats: {strenght: 2}, owner: 3}}
          phase: atack
          to_act: 3
          counters: {magic: {3: 0}}
          zones: {hnad:1: [], hand:4: []}
""")
    assert sorted((p.line, p.message) for p in check(str(tests / "audit.yaml"))) == [
        (11, "no stat called 'strenght' (did you mean 'strength'?)"),
        (11, "there is no player 3 (players are 1 to 2; 0 is nobody)"),
        (12, "no phase called 'atack' (did you mean 'attack'?)"),
        (13, "there is no player 3 (players are 1 to 2)"),
        (14, "magic of player 3: there is no player 3 (players are 1 to 2)"),
        (15, "no zone called 'hnad' (did you mean 'hand'?)"),
        (15, "there is no player 4 (players are 1 to 2)")]


def test_every_card_set_plays_in_checks_random_games(tmp_path):
    """check's random games seated the first two factions only: an error in the third's
    cards (Ilsevane's can_act calling a helper with its arguments swapped) passed check and
    stopped a later sim. The problem names the card's line, as the rules' own line does not."""
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.cards / "veiled_court.yaml", "return #cards_within(self, 3, function(c) return is_unit(c) and",
         "return #cards_within(3, self, function(c) return is_unit(c) and")
    problems = [str(p).replace(f"{tmp_path}/", "") for p in check(str(g.rules))]
    assert problems == ["rules/summoner_wars/helpers.lua:72:1: Lua: attempt to index a number value (local 'card'), "
                        "called from cards/summoner_wars/veiled_court.yaml:38 (in a random game summon check played: "
                        "veiled_court in seat 1, seed 1)"]


@pytest.mark.parametrize("all_games, each", [(60, 6), (10, 2), (3, 1)])
def test_checks_games_for_each_set_are_fewer_each_past_ten_sets(monkeypatch, all_games, each):
    """Six random games for each card set, and all sets together at most SET_GAMES_ALL (at
    least one each): a game with a hundred decks cost check six hundred games."""
    from engine import check as check_module
    from engine.loader import load_game
    from engine.match import Match

    played = []
    monkeypatch.setattr(check_module, "SET_GAMES_ALL", all_games)
    monkeypatch.setattr(Match, "rollout", lambda self, seed, max_decisions=0: played.append(self.seats) or 0)
    game = load_game("summonaria")
    assert check_module._each_set_played(game) == []
    assert len(played) == each * len(game.sets) and len(game.sets) == 5
    for set_id in game.sets:   # each set sat in its games (and may sit in others' beside it)
        assert sum(any(s.set == set_id for s in seats) for seats in played) >= each


def test_annotation_like_keys_are_no_keyword_slips_and_a_slip_names_the_keyword():
    """example, comment, note, readonly validate nothing however spelt: they refused a game
    that played. A slip of a keyword is named by the keyword it is nearest ($refs: $ref)."""
    from engine.loader import schema_mistake
    for key in ("example", "comment", "_comment", "note", "readonly", "iff"):
        assert schema_mistake({"type": "integer", key: 1}) is None, key
    assert [schema_mistake({k: v})[1] for k, v in (("$refs", "#"), ("$def", {}), ("thne", {}))] == [
        "$refs: '$refs' is no keyword of JSON Schema (did you mean '$ref'?)",
        "$def: '$def' is no keyword of JSON Schema (did you mean '$defs'?)",
        "thne: 'thne' is no keyword of JSON Schema (did you mean 'then'?)"]


def test_a_problem_of_game_yaml_text_does_not_hide_the_card_files_problems(tmp_path):
    """Only a problem the schema finds, or a number past 64 bits (read as 0), stops the load
    at game.yaml: a lone surrogate in the game's name hid a card's negative copies."""
    from repl import scaffold
    scaffold.new_game("mygame", tmp_path)
    rules = tmp_path / "rules" / "mygame"
    edit(rules / "game.yaml", "name: Mygame", 'name: "My\\udc80game"')
    edit(tmp_path / "cards" / "mygame" / "starter.yaml", "copies: 6", "copies: -6")
    assert sorted((Path(p.path).name, p.message) for p in check(str(rules))) == [
        ("game.yaml", "the text holds a lone surrogate escape (\\udc80), which is not a character"),
        ("starter.yaml", "-6 is less than the minimum of 0")]


def _line_of(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(text) + 1


def test_a_games_check_set_finds_problems_of_a_set_at_their_place(game_copy):
    """Summoner Wars' check_set (rules' setup.lua): two layout cards on one space and a
    layout without a summoner, each at its line of the set's file; the match could not
    start (setup.lua's line) or started with no summoner (a loss at once, unsaid)."""
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, "  - {card: ice_golem, row: 1, col: 2}", "  - {card: ice_golem, row: 2, col: 2}")
    found = [str(p) for p in check(str(rules))]
    golem = _line_of(pd, "  - {card: ice_golem, row: 2, col: 2}")
    assert found == [f"{loader.display(pd)}:{golem}:5: ice_golem starts on row 2, col 2, where frost_mage "
                     f"starts (layout entry 3)"]
    edit(pd, "  - {card: svara, row: 0, col: 3}", "  - {card: ice_golem, row: 0, col: 3}")
    edit(pd, "  - {card: ice_golem, row: 2, col: 2}", "  - {card: ice_golem, row: 1, col: 2}")
    found = [str(p) for p in check(str(rules))]
    assert found == [f"{loader.display(pd)}:{_line_of(pd, 'layout:')}:1: the layout has no summoner (a card "
                     f"tagged summoner): a player whose summoner is not on the battlefield has lost"]
    edit(pd, "  - {card: ice_golem, row: 0, col: 3}", "  - {card: svara, row: 0, col: 3}")
    assert check(str(rules)) == []


@pytest.mark.parametrize("body, expected", [
    ('return "too few cards"', r"cards\.yaml:<id>:1: too few cards"),
    ('return {{"a first", at = {"cards", 2, "value"}}, "second"}',
     r"cards\.yaml:<id>:1: second\n.*cards\.yaml:<low>:\d+: a first"),   # (in the order of lines)
    ('return {"one", at = {"cards"}}', r"cards\.yaml:<cards>:1: one"),
    ("return 7", r"cards\.yaml:<id>:1: check_set must return nil or a list of problems, each a text or "
                 r'\{"text", at = \{key, \.\.\.\}\} \(keys: texts, and list positions from 1\), not 7'),
    ('return {{"x", at = {{}}}}', r"cards\.yaml:<id>:1: x \(and its at = \.\.\. is no list of keys"),
    ("local t = nil return t.x", r"check\.lua:2:1: Lua: attempt to index a nil value .*\(check_set of card set cards\)"),
    ("while true do end", r"check\.lua:2:1: Lua: script ran too long"),
    ('return {{"far", at = {"cards", 9}}}', r'cards\.yaml:<id>:1: far \(its place, at = \{"cards", 9\}, is not in '
                                             r'the file\)'),
    ('return {{"zero", at = {"cards", 0}}}', r"cards\.yaml:<id>:1: zero \(and its at = \.\.\. is no list of keys: "
                                             r"texts, and list positions from 1\)"),
    ('return {{"hole", at = {"cards", nil, "id"}}}', r"cards\.yaml:<id>:1: hole \(and its at = \.\.\. is no list"),
    ('return {{"two\\nlines", at = {"cards", 1, extra = 1}}}', r"cards\.yaml:<id>:1: two lines \(and its at"),
    ('return "bad \\xff text"', r"cards\.yaml:<id>:1: bad \? text"),
    ("return choose{player = 1, prompt = 'x', options = {'a'}}",
     r"check\.lua:1:1: Lua: choose: a choice can only be asked while the match runs .*\(check_set of card set cards\)"),
    ("return nil", None),
])
def test_check_set_is_the_rules_way_to_say_what_a_set_lacks(tmp_path, body, expected):
    """Any game may define check_set(set): it returns nil, a text, or a list of texts and
    {"text", at = {keys}} (list positions from 1); summon check places each in the set's
    file (at the set's id when no place is given), and names check_set's own error at its
    line, under the budget."""
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", tmp_path / "sealed_bid"))
    (game / "check.lua").write_text(f"function check_set(set)\n  {body}\nend\n")
    edit(game / "game.yaml", "scripts: [", "scripts: [check.lua, ")
    found = "\n".join(str(p) for p in check(str(game)))
    if expected is None:
        assert found == ""
        return
    lines = (game / "cards" / "cards.yaml").read_text().splitlines()
    for name, start in (("<id>", "id:"), ("<cards>", "cards:"), ("<low>", "  - {id: middle")):
        expected = expected.replace(name, str(next(i for i, t in enumerate(lines, 1) if t.startswith(start))))
    assert re.search(expected, found), found


def test_a_misspelt_field_of_an_event_is_matched_against_what_the_event_gives(game_copy):
    """`ev.mover` in an after_move hook was taken for `moved` (a field of some other table):
    the note now says what the event's emits give instead; a suggestion the event has stays."""
    from engine.check import notes
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    text = pd.read_text()
    at = text.splitlines().index("          if ev.card ~= self then return end") + 1
    edit(pd, "          if ev.card ~= self then return end", "          if ev.mover ~= self then return end")
    said = [n for n in notes(str(rules)) if f"polar_dwarves.yaml:{at}:" in n]
    assert said == [f"{loader.display(pd)}:{at}:17: note: no table of the game or the engine has a field 'mover' "
                    f"(the emits of 'after_move' give: card, from, path, through, to)"]
    edit(pd, "ev.mover ~= self", "ev.crad ~= self")
    said = [n for n in notes(str(rules)) if f"polar_dwarves.yaml:{at}:" in n]
    assert len(said) == 1 and said[0].endswith("has a field 'crad' (did you mean 'card'?)"), said   # (right as it was)


def test_a_games_own_set_file_checked_with_game_is_read_once():
    """`summon check cards/summoner_wars/polar_dwarves.yaml --game summoner_wars` said the
    set was defined twice (the game's own file, and the same file given)."""
    r = summon("check", "cards/summoner_wars/polar_dwarves.yaml", "--game", "summoner_wars")
    assert r.returncode == 0 and "defined twice" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_a_loop_of_links_among_a_games_cards_is_a_problem_with_a_deck_given_too(tmp_path):
    """Reading a game's own files once (above) resolved every card file, and a loop of links
    among them was an internal error when a deck was given with --game."""
    g = copy_game(tmp_path, "summoner_tcg")
    (g.cards / "loop.yaml").symlink_to(g.cards / "loop.yaml")
    deck = tmp_path / "my_deck.yaml"
    deck.write_text((ROOT / "cards" / "summoner_tcg" / "ember.yaml").read_text().replace("id: ember\n", "id: my_deck\n"))
    r = summon("check", "--game", str(g.rules), str(deck))
    said = r.stdout + r.stderr
    assert "internal error" not in said and "loop.yaml:1:1: cannot read this file" in said, said


def test_a_games_own_file_given_as_a_deck_is_no_outside_file():
    """A save lists the outside card files it needs, with their text: the game's own file
    given as a deck was listed, and a save made with it would not load once the file changed
    (its saved copy clashed with the file itself)."""
    own = ROOT / "cards" / "summoner_tcg" / "ember.yaml"
    game = loader.load_game("summoner_tcg", extra_cards=[own])
    assert game.extra_cards == [] and "ember" in game.sets


def test_a_misspelt_field_is_noted_when_it_stops_the_match_from_starting(tmp_path):
    """The misspelt-field notes follow the problems, as a field read as nil is often what
    failed; a rules file failing as the match starts left them out (they need a match)."""
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    text = (game / "tiny.lua").read_text()
    (game / "tiny.lua").write_text(text + '\non("round_start", function(ev)\n  if ev.rund > 1 then return end\nend)\n')
    line = (game / "tiny.lua").read_text().splitlines().index("  if ev.rund > 1 then return end") + 1
    r = summon("check", str(game))
    assert r.returncode == 1
    assert re.search(rf"tiny\.lua:{line}:1: a match cannot start: attempt to compare number with nil", r.stdout), r.stdout
    assert re.search(rf"tiny\.lua:{line}:\d+: note: .*field 'rund' \(did you mean 'round'\?\)", r.stdout), r.stdout


def test_an_endless_loop_before_the_first_decision_is_said_at_its_line(tmp_path):
    """The step budget's message names where the script was; a match that could not start
    for it was said at game.yaml:1:1."""
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    edit(game / "game.yaml", "scripts:", "limits: {steps: 20000}\nscripts:")
    edit(game / "tiny.lua", "function setup()\n", "function setup()\n  while true do end\n")
    line = (game / "tiny.lua").read_text().splitlines().index("  while true do end") + 1
    problems = [str(p) for p in check(str(game))]
    assert len(problems) == 1 and re.match(rf".*tiny\.lua:{line}:1: a match cannot start: script ran too long",
                                           problems[0]), problems


def _checked_with_play_phase_first(tmp_path, lua: str, marker: str):
    """Sealed Bid whose play phase runs `lua` first, its line holding `marker`, and what
    `summon check` says of it: (the game's folder, that line, the run)."""
    import shutil
    game = tmp_path / "sealed_bid"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", game)
    bid = game / "bid.lua"
    bid.write_text(bid.read_text().replace("function play_phase(round)\n", "function play_phase(round)\n" + lua))
    line = next(n for n, text in enumerate(bid.read_text().splitlines(), 1) if marker in text)
    return game, line, summon("check", str(game))


def test_check_plays_on_in_the_worlds_a_bot_imagines(tmp_path):
    """A bot's look-ahead deals the cards its seat cannot see among one owner's hidden cards:
    rules that expect one kind of card in a place (a vault of Middles) failed in every bot
    game and in no random one, and `summon check` said ok."""
    game, line, r = _checked_with_play_phase_first(
        tmp_path, "  for _, p in ipairs(players.list()) do\n"
                  "    if zones.top(p, 'vault').def ~= 'middle' then error('the vault holds a Middle') end\n"
                  "  end\n", "the vault holds")
    assert r.returncode == 1, r.stdout
    assert re.search(rf"bid\.lua:{line}:\d+: Lua: the vault holds a Middle \(in a world a bot of seat \d imagined, "
                     r"at decision \d+ of a random game\): a search bot plays on in worlds .* \(cards\.mark\)", r.stdout), \
        r.stdout
    # the random games themselves never fail: only a world does
    assert summon("sim", str(game), "--games", "5").returncode == 0


def test_check_plays_on_in_the_worlds_of_each_seat_not_only_the_first_asked(tmp_path):
    """A world sampled for a seat not asked cannot be played on, and the check took that for
    the end: only the first seat asked had worlds. Rules only player 2's bot can break (it
    cannot see that player 1 holds a Low) are found too."""
    game, line, r = _checked_with_play_phase_first(
        tmp_path, "  local low = false\n"
                  "  for _, c in ipairs(zones.cards(1, 'hand')) do low = low or c.def == 'low' end\n"
                  "  if not low then error('player 1 holds no Low') end\n", "holds no Low")
    assert r.returncode == 1 and re.search(
        rf"bid\.lua:{line}:\d+: Lua: player 1 holds no Low \(in a world a bot of seat 2 imagined", r.stdout), r.stdout
    assert summon("sim", str(game), "--games", "5").returncode == 0


def test_a_problem_of_game_yaml_does_not_hide_a_phase_function_the_rules_lack(tmp_path):
    """A counter starting past its max was said alone; its fix then showed the misspelt
    phase function: one run of `summon check` says both."""
    import shutil
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("score: {scope: player, min: 0, max: 10, start: 0}",
                                             "score: {scope: player, min: 0, max: 10, start: 20}")
                    .replace("run: act}", "run: actt}"))
    lines = yaml.read_text().splitlines()
    score = next(n for n, text in enumerate(lines, 1) if "start: 20" in text)
    phase = next(n for n, text in enumerate(lines, 1) if "actt" in text)
    r = summon("check", str(game))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"game.yaml:{score}:" in r.stdout and "counter score: it starts at 20, outside its max 10" in r.stdout
    assert (f"game.yaml:{phase}:" in r.stdout
            and "no Lua function called 'actt' in the rules' scripts (did you mean 'act'?)" in r.stdout), r.stdout


def test_a_game_with_a_problem_names_no_set_or_card_its_rules_read(tmp_path):
    """Beside a misspelt zone in the rules, `sets.starter` and `defs.echo` there were said to
    name nothing: the rules were run without the cards to learn what scripts may read."""
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    rules = tmp_path / "rules/sprint/rules.lua"
    rules.write_text(rules.read_text() + "\nfunction first_cards() return sets.starter.cards, defs.echo.name, "
                                         "zones.count(1, 'hnad') end\n")
    said = [p.message for p in check(str(tmp_path / "rules/sprint"))]
    assert len(said) == 1 and "no zone called 'hnad'" in said[0], said


def test_a_key_written_at_the_wrong_level_says_where_it_goes(tmp_path):
    """From a modder's trial: `toolbar:` at the top of game.yaml was an unknown key, with no
    word that it belongs under `display:`."""
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    yaml = tmp_path / "rules/sprint/game.yaml"
    yaml.write_text(yaml.read_text() + 'toolbar: "return 1"\n')
    line = len(yaml.read_text().splitlines())
    assert [str(p).split("game.yaml:")[1] for p in check(str(tmp_path / "rules/sprint"))] == [
        f"{line}:1: unknown key 'toolbar' (it goes under display:)"]


def test_a_card_file_that_cannot_be_read_leaves_its_cards_unknown_not_missing(tmp_path):
    """From a modder's trial: a YAML mistake in the card file also gave "no card called
    'echo'" at each line of the rules naming one of its cards."""
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    rules = tmp_path / "rules/sprint/rules.lua"
    rules.write_text(rules.read_text() + '\nfunction extra() return cards.create("echo", 1) end\n')
    edit(tmp_path / "cards/sprint/starter.yaml", "\nname: ", "\nname: [")
    said = [p.message for p in check(str(tmp_path / "rules/sprint"))]
    assert len(said) == 1 and said[0].startswith("YAML syntax: "), said


def test_a_comma_in_the_text_of_a_one_line_card_is_said_to_need_quotes(tmp_path):
    """From a modder's trial: `{id: scout, ..., text: Sees far, moves far.}` gave "unknown key
    'moves far.'" and no hint that the comma ended the text."""
    import shutil
    game = tmp_path / "commas"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", game)
    edit(game / "cards" / "cards.yaml", "text: Worth 1.}", "text: Worth 1, or so.}")
    line = next(i for i, t in enumerate((game / "cards" / "cards.yaml").read_text().splitlines(), 1) if "or so" in t)
    col = (game / "cards" / "cards.yaml").read_text().splitlines()[line - 1].index("or so") + 1
    text = "\n".join(str(p) for p in check(str(game)))
    assert f"cards.yaml:{line}:{col}: unknown key 'or so.' (words with no value: a comma in a {{ }} mapping " \
           "ends the value before it; put text that holds a comma in quotes)" in text, text
    # (a review: not for a key of several words in a block mapping, where no comma is)
    edit(game / "cards" / "cards.yaml", "text: Worth 1, or so.}", "text: Worth 1.}")
    edit(game / "cards" / "cards.yaml", "  - {id: high, name: High, value: 3, copies: 0, text: Worth 3.}",
         "  - id: high\n    name: High\n    value: 3\n    copies: 0\n    text: Worth 3.\n    designer note:")
    text = "\n".join(str(p) for p in check(str(game)))
    assert "unknown key 'designer note'" in text and "a comma" not in text, text


def test_a_games_scenario_files_share_one_load_of_the_game(monkeypatch):
    # (each file loaded the game again: a fifth of a check of Summoner Wars)
    from engine import scenarios
    rules, _ = loader.resolve("summoner_wars")
    files = scenarios.game_tests(rules)
    loads = []
    monkeypatch.setattr(loader, "load_game", lambda *a, _l=loader.load_game, **k: loads.append(a[0]) or _l(*a, **k))
    assert check(str(rules)) == []
    assert len(files) > 2 and len(loads) == 2, loads   # the game's own check, then its scenario files'



@pytest.mark.parametrize("old, new, said, at_new", [
    ('then words[#words + 1] = "a Plane"', "then words[#words + 1] = mark.nothing.at_all",
     r"^display: card_mark fails from seat \d's view at decision \d+ of a random game: .*nothing", True),
    ('return table.concat(words, ", ")', "return words",
     r"^display: card_mark gives a list for the mark \{.*\}, not text \(or nil to show none\) \(from seat \d", False),
])
def test_check_tries_card_mark_on_the_marks_of_a_random_game(tmp_path, old, new, said, at_new):
    # the first position holds no mark: a mistake in the words for one shows only later
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.rules / "game.yaml", old, new)
    found = check(str(g.rules))
    assert len(found) == 1 and re.search(said, found[0].message), found
    lines = (g.rules / "game.yaml").read_text().splitlines()
    want = next(i for i, x in enumerate(lines, 1) if new in x) if at_new else lines.index("  card_mark: |") + 1
    assert (found[0].path.endswith("game.yaml"), found[0].line) == (True, want)
