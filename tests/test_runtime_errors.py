"""Mistakes found while loading or playing name the file and line of the mistake and say
what to change: an endless loop, an error in a batch run, YAML syntax, a card id used twice,
a deck that breaks the game's deck rules."""
from __future__ import annotations

import re

import pytest

from conftest import edit
from engine import scenarios, yamlio
from engine.errors import DefinitionError, EngineError
from engine.loader import load_game
from engine.match import Match, Seat
from engine.sim import simulate

SVARA_MOVES = """\
game: {rules}
scenarios:
  - name: Svara moves
    seats: [polar_dwarves, fallen_kingdom]
    setup:
      clear_board: true
      board:
        a1: {{card: svara, owner: 1}}
        f8: {{card: ret_talus, owner: 2}}
      start: {{player: 1, phase: move}}
    steps:
      - answer: /Svara/
      - answer: b1
"""

SVARA_HOOK = "      after_move: |\n        function(self, ev)\n"


def _plant(cards_file, lua_line: str) -> int:
    """Puts a line of Lua first in Svara's after_move hook; returns its line in the file."""
    edit(cards_file, SVARA_HOOK, SVARA_HOOK + f"          {lua_line}\n")
    return cards_file.read_text().splitlines().index(f"          {lua_line}") + 1


def _svara_moves_failing(g, tmp_path, lua_line: str) -> tuple[int, str]:
    """Svara's after_move hook with lua_line first, played: (the line's number, the failure)."""
    line = _plant(g.cards / "polar_dwarves.yaml", lua_line)
    f = tmp_path / "svara.yaml"
    f.write_text(SVARA_MOVES.format(rules=g.rules))
    results, problems = scenarios.run_file(f)
    assert not problems
    return line, results[0].failures[0].message


def test_an_endless_loop_names_the_script_file_and_line(game_copy, tmp_path):
    line, message = _svara_moves_failing(game_copy(), tmp_path, "while true do end")
    assert "script ran too long" in message
    assert f"polar_dwarves.yaml:{line}" in message
    assert "in hook after_move of Svara" in message


def test_a_bad_argument_to_an_engine_function_is_said_at_the_scripts_line(game_copy, tmp_path):
    """An engine function given a bad argument fails inside the engine's own code: the error
    names the script's line that called it, and the engine's place only after it (it named
    engine/lua/board.lua alone, in a scenario, in summon check and in summon eval)."""
    g = game_copy()
    line, message = _svara_moves_failing(g, tmp_path, 'local near = board.within("a1")')
    assert re.search(rf"polar_dwarves\.yaml:{line}: attempt to compare \w+ with nil \(inside the engine, at "
                     rf"engine/lua/board\.lua:\d+: check what this line gives it\)", message), message
    m = Match(load_game(str(g.rules)), 1, [Seat("bot"), Seat("bot")], quiet=True)
    for code, said in (('return board.within("a1")', r"eval:1: attempt to compare"),   # (a tail call)
                       # (a table.sort order function that calls badly: its own line, not the sort's)
                       ('local t = {3, 1, 2}\ntable.sort(t, function(a, b)\n  local near = board.within("a1")\n'
                        '  return a < b end)', r"eval:3: attempt to compare"),
                       ('error("engine/lua/x.lua is a text, not a place", 0)', r"eval:1: engine/lua/x\.lua is a text"),
                       ('local x = 1\nlocal r = board.reach("a1")', r"eval:2: bad 'for' limit"),
                       # (win names its own argument now: it was end_game's, inside the engine)
                       ('win(1, 5)', r"eval:1: win: the reason must be text, not a number")):
        with pytest.raises(EngineError, match=said):
            m.eval(code)


@pytest.mark.parametrize("lua_line, said", [
    ("for _, c in ipairs(ev.cards) do end", r"ipairs needs a table \(a list\) to go through, got nil"),
    ("for _, c in ipairs(self.def) do end", r"ipairs needs a table \(a list\) to go through, got string"),
    ("local n = math.max(ev.bonus, 1)", "attempt to compare nil with number"),
    ("local n = math.floor(ev.bonus)", r"bad argument #1 to 'math.floor' \(number expected, got nil\)"),
])
def test_a_library_error_on_nil_names_the_scripts_line(game_copy, tmp_path, lua_line, said):
    """ipairs over a missing field, and math.max or math.floor of one, failed with no place
    at all (summon check put it at game.yaml:1:1): ipairs's steps are a C function the
    for loop calls, and the math wrappers reached their error through a tail call."""
    line, message = _svara_moves_failing(game_copy(), tmp_path, lua_line)
    assert re.search(rf"polar_dwarves\.yaml:{line}: {said}\n  in hook after_move of Svara", message), message


def test_an_error_in_a_batch_run_names_the_seed_decision_and_phase(game_copy):
    g = game_copy()
    _plant(g.cards / "polar_dwarves.yaml", 'error("the planted mistake")')
    game = load_game(str(g.rules))
    seats = [Seat("random", "polar_dwarves"), Seat("random", "fallen_kingdom")]
    with pytest.raises(EngineError) as e:
        simulate(game, seats, 3, 11)
    text = str(e.value)
    assert "the planted mistake" in text
    assert "in the game of seed 11, at decision" in text and "in the move phase" in text


@pytest.mark.parametrize("text,where,words", [
    ("a: [1, 2\nb: 3\n", "1:4", "this [ list is not closed (expected ',' or ']', but got ':' on line 2)"),
    ("a: {x: 1\n\nb: 3\n", "1:4", "this { mapping is not closed"),
    ('a: "abc\nb: 2\n', "1:4", "this quoted text is not closed"),
    ("cards:\n  - id x\n    name: X\n", "2:3", "is a ':' missing after the key on this line?"),
    ("name: X\n  cost: 2\n", "2:3", "this line is indented under line 1 ('name: X')"),
    ("a: b: c\n", "1:5", "mapping values are not allowed here"),
    # an unclosed quote closed by the next quote in the file: the parser fails lines later
    ('name: "Echo\ncost: 2\ntext: "Worth 2."\n', "1:7",
     "this quoted text runs on to line 3, where YAML gives up (expected <block end>, but found '<scalar>')"),
    ("- {id: a, text: 'one.}\n- {id: b, text: 'two.'}\n", "1:17", "this quoted text runs on to line 2"),
    ('a: "two\n  lines"\n- x\n', "3:1", "YAML syntax: expected <block end>, but found '-'"),  # a quote rightly on two lines
    ('- {id: a, text: "one\n  two", cost: [1, 2}\n', "2:20", "expected ',' or ']', but got '}'"),   # ... and a mistake after it
    ('text: "one\n  two" three\nname: x\n', "2:8", "expected <block end>, but found '<scalar>'"),  # ... or right after it
])
def test_a_yaml_mistake_is_reported_on_its_own_line(text, where, words):
    doc, problems = yamlio._parse(text.encode(), "f.yaml", False)
    assert doc is None and len(problems) == 1
    assert str(problems[0]).startswith(f"f.yaml:{where}: YAML syntax: "), problems[0]
    assert words in str(problems[0])


def test_a_card_id_defined_twice_names_both_places(game_copy):
    g = game_copy()
    first = (g.cards / "polar_dwarves.yaml").read_text().splitlines().index("  - id: frost_mage") + 1
    text = (g.cards / "fallen_kingdom.yaml").read_text()
    (g.cards / "fallen_kingdom.yaml").write_text(text.rstrip("\n") + "\n\n  - id: frost_mage\n    name: Frost Mage\n"
                                                  "    tags: [unit, common]\n    cost: 1\n    strength: 1\n"
                                                  "    life: 4\n    attack: ranged\n    copies: 1\n    text: again\n")
    second = (g.cards / "fallen_kingdom.yaml").read_text().splitlines().index("  - id: frost_mage") + 1
    with pytest.raises(DefinitionError) as e:
        load_game(str(g.rules))
    text = str(e.value)
    # sets load in file order: the second definition met is the one reported, naming the first
    assert f"polar_dwarves.yaml:{first}:" in text
    assert "card 'frost_mage' is defined twice: here and at " in text
    assert f"fallen_kingdom.yaml:{second} (card ids are one namespace" in text


TAIL_HERE = r" \(from a `return f\(\.\.\.\)` in the function defined here{}: such a call leaves no line of its own"


@pytest.mark.parametrize("lua_line, said, engine", [
    ('do return board.within("a1") end', r"attempt to compare \w+ with nil", r"engine/lua/board\.lua:\d+"),
    ("do return stat(self) end", r"stat: no stat called nil", None),
    ("do return rng.pick({}) end", r"rng\.pick: needs a list of at least one value", None),
    ("do return string.rep() end", r"bad argument #1 to 'string\.rep'", None),
    ("do return cards.on_board(function(c) return board.within(c.space) end) end",
     r"attempt to compare \w+ with nil", r" or in a function it gave the engine \(a filter\), inside the engine at "
                                          r"engine/lua/board\.lua:\d+"),
])
def test_a_hooks_tail_call_that_fails_is_said_where_the_hook_is_defined(game_copy, tmp_path, lua_line, said, engine):
    """`return f(x)` in a hook leaves no frame of the hook's: the error is said at the line
    where the hook's function is defined (not at the rules' line that emitted the event, nor
    at the engine's line that ran the hook, nor at no line), with the engine's own place only
    where the error is inside the engine's code (a bad argument is raised at its caller)."""
    line, message = _svara_moves_failing(game_copy(), tmp_path, lua_line)
    first = message.splitlines()[0]
    where = (engine if engine.startswith(" or") else ", inside the engine at " + engine) if engine else ""
    assert re.search(rf"polar_dwarves\.yaml:{line - 1}: {said}.*" + TAIL_HERE.format(where), first), message
    assert "in hook after_move of Svara" in message
    assert "events.lua" not in message and "phases.lua" not in message


@pytest.mark.parametrize("lua_line, said, engine", [
    ('do return board.within("a1") end', r"attempt to compare \w+ with nil", r"engine/lua/board\.lua:\d+"),
    ("do return string.rep() end", r"bad argument #1 to 'string\.rep'", None),
])
def test_a_modifiers_tail_call_that_fails_is_said_where_the_modifier_is_defined(game_copy, lua_line, said, engine):
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, MAGE_STRENGTH, f"          {lua_line}\n" + MAGE_STRENGTH)
    defined = pd.read_text().splitlines().index(f"          {lua_line}")   # (the line above it, counted from 1)
    m = Match(load_game(str(rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    with pytest.raises(EngineError) as e:
        m.eval('for _, c in ipairs(cards.on_board()) do stat(c, "strength") end')
    where = ", inside the engine at " + engine if engine else ""
    assert re.search(rf"polar_dwarves\.yaml:{defined}: {said}.*" + TAIL_HERE.format(where), str(e.value)), str(e.value)
    assert "in modifier strength of Frost Mage" in str(e.value) and "events.lua" not in str(e.value)


def test_a_rules_function_a_hook_reached_by_its_tail_call_names_the_hooks_line_too(game_copy, tmp_path):
    """An error in the rules a card's hook called is said at the rules' line, and the card's
    line follows (`called from`); a hook's `return helper(x)` left no line of the hook's,
    so where the hook is defined is named instead of nothing."""
    line, message = _svara_moves_failing(game_copy(), tmp_path, 'do return layout_space(1, 0.5, "x") end')
    assert re.search(r"helpers\.lua:\d+: attempt to (add|perform arithmetic)", message.splitlines()[0]), message
    assert re.search(rf"\n  called from \S*polar_dwarves\.yaml:{line - 1} \(the function defined there, by its "
                     r"`return f\(\.\.\.\)`\)\n", message), message


def test_a_phases_tail_call_that_fails_is_said_where_the_phase_function_is_defined(tmp_path):
    import shutil
    from conftest import ROOT
    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", game)
    edit(game / "tiny.lua", "function act(round)\n", "function act(round)\n  do return board.within('a1') end\n")
    defined = (game / "tiny.lua").read_text().splitlines().index("function act(round)") + 1
    with pytest.raises(EngineError) as e:
        Match(load_game(str(game)), 1, [Seat("bot"), Seat("bot")], quiet=True)
    assert re.search(rf"tiny\.lua:{defined}: board\.within: no space called 'a1'" + TAIL_HERE.format(""), str(e.value)), \
        str(e.value)


def test_a_modifier_that_says_something_is_refused(game_copy):
    """A modifier runs whenever a stat is read (a seat's screen, a bot's look-ahead): its
    message would say who looked."""
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, MAGE_STRENGTH, "          if card == self then say('looked at') end\n" + MAGE_STRENGTH)
    line = pd.read_text().splitlines().index("          if card == self then say('looked at') end") + 1
    m = Match(load_game(str(rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    with pytest.raises(EngineError, match=rf"polar_dwarves\.yaml:{line}: say inside the strength modifier: a modifier "
                                          r"may only compute the value"):
        m.eval('for _, c in ipairs(cards.on_board()) do stat(c, "strength") end')


def test_a_modifiers_tail_call_without_end_is_said_as_a_stack_overflow_where_it_is_defined(tmp_path):
    import shutil
    from conftest import ROOT
    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", game)
    text = (game / "tiny.lua").read_text()
    (game / "tiny.lua").write_text(text + '\nadd_modifier("speed", function(c, v)\n  local x = 1\n'
                                   '  return stat(c, "speed")\nend)\n')
    defined = (game / "tiny.lua").read_text().splitlines().index('add_modifier("speed", function(c, v)') + 1
    m = Match(load_game(str(game)), 1, [Seat("bot"), Seat("bot")], quiet=True)
    with pytest.raises(EngineError) as e:
        m.eval('return stat(cards.on_board()[1], "speed")')
    assert re.search(rf"tiny\.lua:{defined}: stack overflow: functions called within each other without end",
                     str(e.value)), str(e.value)


def test_a_hooks_call_through_a_filters_tail_call_still_names_the_hooks_line(game_copy, tmp_path):
    """The filter's `return board.within(x)` left no line, but the hook's own line that
    ran it is there: that line is named, as before."""
    line, message = _svara_moves_failing(game_copy(), tmp_path,
                                         "do local x = cards.on_board(function(c) return board.within(c.space) end) end")
    assert re.search(rf"polar_dwarves\.yaml:{line}: attempt to compare \w+ with nil \(inside the engine, at "
                     r"engine/lua/board\.lua:\d+, reached from a function this line's call ran", message), message


def test_a_filters_tail_call_into_the_engine_names_the_line_that_ran_the_filter(sw):
    m = Match(sw, 1, [Seat("bot"), Seat("bot")], quiet=True)
    with pytest.raises(EngineError, match=r"eval:2: attempt to compare \w+ with nil \(inside the engine, at "
                                          r"engine/lua/board\.lua:\d+, reached from a function this line's call ran"):
        m.eval('local x = 1\nlocal cs = cards.on_board(function(c) return board.within(c.space) end)\nreturn cs')



MAGE_STRENGTH = "          if card ~= self or not self.space then return value end\n"


def test_a_modifier_asking_for_the_stat_it_modifies_is_said_once_with_its_card(game_copy):
    """A Frost Mage whose strength modifier asks for its own strength runs itself without
    end: the stack overflow is said as such (not as a bad argument to the engine), at the
    card's line, and the tens of thousands of nested contexts as one line with their count
    (the message ran to millions of characters), in summon check, a match and an evaluation."""
    from engine.check import check
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, MAGE_STRENGTH, '          if stat(self, "strength") > 9 then return value end\n')
    line = pd.read_text().splitlines().index('          if stat(self, "strength") > 9 then return value end') + 1
    found = [str(p) for p in check(str(rules))]
    assert found and all(re.search(rf"(polar_dwarves\.yaml:{line}:1: Lua: stack overflow: functions called within each "
                                   rf"other without end|stack overflow: functions called within each other without end, "
                                   rf"called from \S*polar_dwarves\.yaml:{line}), in modifier strength of Frost Mage \(in ", p)
                         for p in found), found   # (at the card's line, or called from it)
    assert any("(in the bots' evaluation of the first position for seat 1)" in p for p in found)
    game = load_game(str(rules))
    m = Match(game, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    with pytest.raises(Exception) as e:
        m.evaluate(1)
    said = str(e.value)
    assert len(said) < 2000, said[:3000]
    # (where the stack runs out, at the card's line or in a rules modifier it called, depends
    # on the frames' sizes: either way the card's line is named)
    assert f"polar_dwarves.yaml:{line}" in said.splitlines()[0] + said.splitlines()[1], said
    assert re.search(r"stack overflow: functions called within each other without end\n(  called from \S+\n)?"
                     r"(  in modifier strength\n  <- |  in )modifier strength of Frost Mage \(card \d+\), within itself "
                     r"\d+ times more: something it does runs it again", said), said


def test_entries_that_run_within_each_other_are_said_once_with_their_count(sw):
    """Two hooks that set each other off (each emits the event the other hears): the pair
    is said once, with how many times more it ran within itself."""
    m = Match(sw, 1, [Seat("bot"), Seat("bot")], quiet=True)
    E = m._rt._E
    run = m._rt._lua.eval("""function(E) return function()
      E.push_context("phase attack", false)
      for i = 1, 50 do E.push_context("hook a", false) E.push_context("hook b", false) end
      E.push_context("hook c", false)
      error("boom", 0)
    end end""")(E)
    ok, said = E.run_guarded(run)
    assert not ok
    assert said == ("boom\n  in hook c\n  <- hook b\n  <- hook a, within these 49 times more: something they do runs "
                    "them again (a hook emitting the event it hears, a modifier asking for the stat it modifies)\n"
                    "  <- phase attack")
    # a ring of five, and a hundred different entries (no ring: the innermost and outermost)
    ring = m._rt._lua.eval("""function(E, n, size) return function()
      for i = 1, n do E.push_context("hook h" .. (i % size), false) end
      error("boom", 0)
    end end""")
    ok, said = E.run_guarded(ring(E, 500, 5))
    assert said.count("\n") == 5 and "within these 99 times more" in said, said
    ok, said = E.run_guarded(ring(E, 100, 1000))
    lines = said.splitlines()
    assert len(lines) == 42 and lines[31] == "  <- ... 60 more" and lines[-1] == "  <- hook h1", said


@pytest.mark.parametrize("message, place", [
    ("/tmp/my: games/rules/x.lua:12: boom", ("/tmp/my: games/rules/x.lua", 12, "Lua: boom")),
    ("rules/x.lua:3: a: b", ("rules/x.lua", 3, "Lua: a: b")),
    ('[string "eval"]:1: x', ('[string "eval"]', 1, "Lua: x")),
    ("a match cannot start: setup.lua:41: no", ("FALLBACK", 1, "Lua: a match cannot start: setup.lua:41: no")),
    ("stat: no stat called 'x'", ("FALLBACK", 1, "Lua: stat: no stat called 'x'")),
])
def test_a_folder_whose_name_holds_a_colon_and_space_is_still_a_place(message, place):
    """A Lua message's place ends at its first ":LINE: ": a folder called `my: games` held
    the game (the message was taken for one with no place, said at line 1 of game.yaml);
    words before a quoted place are no place."""
    from engine.lint import problem_from_lua
    p = problem_from_lua(message, "FALLBACK")
    assert (p.path, p.line, p.message) == place


def test_a_card_whose_name_or_id_a_script_changed_still_has_its_error_placed(game_copy):
    """The lines of what was running read a card's name and id: a script that set them to a
    table or a text turned the evaluation's error into "error in error handling"."""
    rules, cards = game_copy()
    pd = cards / "polar_dwarves.yaml"
    edit(pd, MAGE_STRENGTH, '          self.name = {} self.id = "x" error("first")\n')
    line = pd.read_text().splitlines().index('          self.name = {} self.id = "x" error("first")') + 1
    m = Match(load_game(str(rules)), 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")], quiet=True)
    with pytest.raises(Exception) as e:
        m.evaluate(1)
    assert re.match(rf"\S*polar_dwarves\.yaml:{line}: first\n  in modifier strength of a table \(card 'x'\)$",
                    str(e.value)), str(e.value)


def test_a_c_stack_overflow_is_no_bad_argument_to_the_engine(sw):
    m = Match(sw, 1, [Seat("bot"), Seat("bot")], quiet=True)
    E = m._rt._E
    assert E.blamed_on("engine/lua/core.lua:450: C stack overflow", "cards/x.yaml:3: ") == \
        "cards/x.yaml:3: stack overflow: functions called within each other without end"


def test_a_relative_folder_whose_name_holds_a_colon_is_a_place(tmp_path, monkeypatch):
    from engine.lint import problem_from_lua
    (tmp_path / "my: games").mkdir()
    (tmp_path / "my: games" / "x.lua").write_text("-- x\n")
    monkeypatch.chdir(tmp_path)
    p = problem_from_lua("my: games/x.lua:2: boom", "FALLBACK")
    assert (p.path, p.line, p.message) == ("my: games/x.lua", 2, "Lua: boom")
