"""When a script fails while a match runs (on a bot's turn, while the screen is drawn, past
the memory cap), the message names where, and the match stays: it can still be saved.

The games here are `summon new game` scaffolds with one mistake added, as a modder would
make it.
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from conftest import summon

from engine import scenarios
from engine.errors import EngineError, ScriptError
from engine.files import write_whole
from engine.loader import load_game
from engine.match import Match, Seat
from engine.sim import simulate
from repl.scaffold import new_game

GAME = "slip"


def scaffold(tmp_path: Path, lua: str = "", yaml: str = "") -> Path:
    """A new scaffold game in tmp_path with Lua added to its rules.lua and YAML to its
    game.yaml; returns its rules folder."""
    new_game(GAME, tmp_path)
    rules = tmp_path / "rules" / GAME
    with open(rules / "rules.lua", "a", encoding="utf-8") as f:
        f.write(lua)
    with open(rules / "game.yaml", "a", encoding="utf-8") as f:
        f.write(yaml)
    return rules


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


BOT_BREAKS = 'on("after_play", function(ev) if ev.player == 2 then error("the bot broke it") end end)\n'
SELF_NESTED = 'on("after_play", function(ev) local t = {} t.self = t state.vars.loop = t end)\n'


def test_a_script_error_on_a_bots_turn_leaves_the_match_to_save(tmp_path):
    rules = scaffold(tmp_path, "\n" + BOT_BREAKS)
    save = tmp_path / "kept.json"
    r = summon("play", str(rules), "--players", "human,random", "--seed", "1",
               stdin=f"2\nsave {save}\nquit\n")
    assert "Traceback" not in r.stdout + r.stderr
    assert r.returncode == 0, r.stderr
    where = line_of(rules / "rules.lua", "the bot broke it")
    assert re.search(rf"script error while P2's bot was played: \S*rules\.lua:{where}: the bot broke it", r.stdout)
    assert "in rules listener for after_play" in r.stdout
    assert f"saved 1 decision to {save}" in r.stdout
    assert json.loads(save.read_text())["answers"] == ["Play Echo (0 points)"]


def test_at_a_terminal_the_error_is_shown_plainly_and_save_still_works(tmp_path, play_screen):
    rules = scaffold(tmp_path, "\n" + BOT_BREAKS)
    save = tmp_path / "kept.json"
    s = play_screen(str(rules), "--players", "human,random", "--seed", "1")
    s.wait(r"P1>")
    s.type("2")
    # (read as one line: the message wraps where the length of the tmp folder's name says)
    shown = " ".join(s.wait(r"fix the script and `reload`(.|\n)*P\d>").split())
    assert "script error while P2's bot was played:" in shown and "the bot broke it" in shown
    assert "ScriptError" not in shown
    s.type(f"save {save}")
    s.wait("saved 1 decision")
    assert save.is_file()


def test_a_bots_game_stopped_by_an_error_ends_with_status_1_not_a_traceback(tmp_path):
    rules = scaffold(tmp_path, "\n" + BOT_BREAKS)
    r = summon("play", str(rules), "--players", "random,random", "--seed", "1", stdin="")
    assert "Traceback" not in r.stdout + r.stderr
    assert "the bot broke it" in r.stdout and "end of input" in r.stdout
    assert r.returncode == 1


def test_a_state_that_cannot_be_shown_names_where_and_the_match_stays(tmp_path):
    rules = scaffold(tmp_path, "\n" + SELF_NESTED)
    save = tmp_path / "kept.json"
    r = summon("play", str(rules), "--players", "human,random", "--seed", "1",
               stdin=f"2\nsave {save}\nquit\n")
    assert "Traceback" not in r.stdout + r.stderr and r.returncode == 0, r.stderr
    assert "cannot show the match: cannot encode the data: it is nested more than 64 deep" in r.stdout
    assert "at state.vars.loop.self.self." in r.stdout
    assert save.is_file()


def test_too_many_values_name_the_part_of_the_state_that_holds_them(tmp_path):
    rules = scaffold(tmp_path, '\non("after_play", function(ev) local t = {} for i = 1, 1100000 do t[i] = i end '
                               'state.vars.heap = { big = t, small = { 1, 2 } } end)\n')
    game = load_game(str(rules))
    with pytest.raises(EngineError, match=r"holds more than 1000000 values .*, at state\.vars\.heap\.big$"):
        simulate(game, [Seat("random"), Seat("random")], 1, 1)


def test_running_out_of_memory_mid_match_names_the_limit_and_the_hook(tmp_path):
    rules = scaffold(tmp_path, '\non("after_play", function(ev) local t = {} for i = 1, 5e7 do t[i] = {i} end end)\n',
                     "limits: {memory_mb: 32, steps: 100000000}\n")
    m = Match(load_game(str(rules)), 1, [Seat("human"), Seat("random")], quiet=True)
    with pytest.raises(ScriptError) as e:
        m.answer(1)
    text = str(e.value)
    assert re.match(r"a script ran out of memory: a match may use 32 MB \(limits: memory_mb in \S*rules/slip/game\.yaml\)",
                    text), text
    assert "in rules listener for after_play" in text
    assert m.decisions == 0 and m.options()[0] == "Pass"   # the match stays at its last decision


def test_running_out_of_memory_in_setup_names_the_limit(tmp_path):
    rules = scaffold(tmp_path, "\nlocal setup0 = setup\nfunction setup() setup0() local t = {} "
                               "for i = 1, 5e7 do t[i] = {i} end end\n",
                     "limits: {memory_mb: 32, steps: 100000000}\n")
    with pytest.raises(ScriptError, match=r"^a script ran out of memory: a match may use 32 MB .*\n  in setup"):
        Match(load_game(str(rules)), 1, [Seat("random"), Seat("random")], quiet=True)


@pytest.mark.parametrize("raise_it", ['error({code = "bad_turn"})', "error()"])
def test_an_error_value_that_is_not_text_names_the_line_that_raised_it(tmp_path, raise_it):
    rules = scaffold(tmp_path, f"\nlocal play0 = play_phase\nfunction play_phase(p)\n"
                               f"  if state.turn == 2 then {raise_it} end\n  return play0(p)\nend\n")
    where = line_of(rules / "rules.lua", raise_it)
    with pytest.raises(EngineError, match=rf"rules\.lua:{where}: a script raised an error value of type"):
        simulate(load_game(str(rules)), [Seat("random"), Seat("random")], 1, 1)


def test_eval_names_the_line_of_an_error_value_that_is_not_text(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"^eval:2: a script raised an error value of type nil"):
        m.eval("local function f()\n  error()\nend\nf()")


@pytest.mark.parametrize("body,shown", [("return nil", "nil"), ("return 0/0", "nan")])
def test_an_evaluation_that_is_not_a_number_names_its_file(tmp_path, body, shown):
    rules = scaffold(tmp_path, yaml="bots: {evaluate: evaluate.lua}\n")
    (rules / "evaluate.lua").write_text(f"-- a bot's judgement\nfunction evaluate(view, seat)\n  {body}\nend\n")
    with pytest.raises(EngineError, match=rf"evaluate\.lua:2: evaluate\(view, seat\) must return a number "
                                          rf"from -1 to 1, not {shown}\n"):
        simulate(load_game(str(rules)), [Seat("greedy"), Seat("random")], 1, 1)


# -- scenario patterns ---------------------------------------------------------------

SCENARIO = """\
game: {rules}
scenarios:
  - name: one
    steps:
      - expect:
          said: ['{said}']
      - answer: {answer}
"""


@pytest.mark.parametrize("said,answer,bad", [("(unclosed", "Pass", "(unclosed"),
                                             ("goes first", "/[unclosed/", "[unclosed")])
def test_a_pattern_that_is_not_valid_is_a_problem_at_its_line(tmp_path, said, answer, bad):
    rules = scaffold(tmp_path)
    f = tmp_path / "bad.yaml"
    f.write_text(SCENARIO.format(rules=rules, said=said, answer=answer))
    results, problems = scenarios.run_file(f)
    assert results == [] and len(problems) == 1
    line = 6 if bad == said else 7
    assert problems[0].line == line and f"not a valid pattern: " in problems[0].message, problems
    assert repr(bad) in problems[0].message
    check = summon("check", str(f))
    assert check.returncode == 1 and re.search(rf"bad\.yaml:{line}:\d+: not a valid pattern", check.stdout)
    assert "Traceback" not in check.stdout + check.stderr


def test_a_pattern_too_slow_to_match_fails_its_step_instead_of_hanging(tmp_path, monkeypatch):
    rules = scaffold(tmp_path)
    f = tmp_path / "slow.yaml"
    f.write_text(f"game: {rules}\nscenarios:\n  - name: one\n    steps:\n      - expect:\n"
                 f"          offered: ['/(.*){{1,32000}}[xz]/']\n")   # (on "Play Gem (2 points)": years)
    monkeypatch.setattr(scenarios, "PATTERN_SECONDS", 0.2)
    results, problems = scenarios.run_file(f)
    assert problems == []
    (failure,) = results[0].failures
    assert failure.where.endswith("slow.yaml:6")
    assert "took more than 0.2 s to match" in failure.message and "a repeat inside a repeat" in failure.message


# -- files ---------------------------------------------------------------------------

def test_play_load_names_the_save_whose_game_is_not_found(tmp_path):
    m = Match(load_game("summoner_wars"), 3, [Seat("random", "polar_dwarves"), Seat("random", "fallen_kingdom")])
    save = tmp_path / "other.json"
    m.save(save)
    data = json.loads(save.read_text())
    data["game"] = "no_such_game"
    save.write_text(json.dumps(data))
    r = summon("play", "--load", str(save), stdin="")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {save}: no game called 'no_such_game'"), r.stderr


def test_a_write_that_fails_part_way_leaves_the_old_file(tmp_path):
    f = tmp_path / "game.json"
    f.write_text("the good save\n")
    f.chmod(0o640)
    with pytest.raises(UnicodeEncodeError):
        write_whole(f, "x" * 100000 + "\udc80")   # fails after much of the text is written
    assert f.read_text() == "the good save\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]   # nothing left beside it
    write_whole(f, "the new save\n")
    assert f.read_text() == "the new save\n" and stat.S_IMODE(f.stat().st_mode) == 0o640


def test_a_write_through_a_link_replaces_the_file_it_points_at(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_whole(link, "new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_write_to_a_device_writes_to_it(tmp_path):
    write_whole(Path(os.devnull), "nothing kept\n")
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


def test_a_save_over_an_old_one_that_runs_out_of_room_keeps_the_old_one(tmp_path):
    import resource
    import subprocess
    import sys

    from conftest import DEADLINE, ROOT

    m = Match(load_game("summoner_wars"), 3, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")])
    m.rollout(3, 60)
    save = tmp_path / "game.json"
    m.save(save)
    good = save.read_text()
    assert len(good) > 1024

    def small_disk() -> None:   # no file of this process may grow past 1 KB: as a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, "-m", "repl", "play", "--load", str(save)], input=f"save {save}\nquit\n",
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=DEADLINE, preexec_fn=small_disk)
    assert f"cannot save to {save}: File too large" in r.stdout, r.stdout[-500:] + r.stderr
    assert save.read_text() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# -- what the docs promise of the API's errors -----------------------------------------

@pytest.mark.parametrize("code,message", [
    ("return cards.is_seen_by(cards.in_play()[1], 7)", "eval:1: cards.is_seen_by: no player 7 (players are 1 to 2)"),
    ("local c = cards.in_play()[1] cards.attach(c, c)", "cannot go under itself, nor under a card under it"),
    ("local a, b = cards.in_play()[1], cards.in_play()[2] cards.attach(a, b) cards.attach(b, a)",
     "cannot go under itself, nor under a card under it"),
    ('win(1, "from the console")', "win() and end_game() end a match only from its rules and cards as it plays"),
])
def test_api_mistakes_are_errors_that_say_what(sw, code, message):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError) as e:
        m.eval(code)
    assert message in str(e.value)
    assert m.eval("return cards.is_seen_by(cards.in_play()[1], nil)") == [True]


def test_a_rules_modifiers_result_is_checked_and_named_where_it_is_written(game_copy):
    """A rules modifier's result is checked as a card's is, and named at its line."""
    g = game_copy()
    helpers = g.rules / "helpers.lua"
    text = helpers.read_text() + '\nadd_modifier("strength", function(c, v)\n  if state.vars.x then return "x" end return v\nend)\n'
    helpers.write_text(text)
    line = text.splitlines().index('add_modifier("strength", function(c, v)') + 1
    m = Match(load_game(str(g.rules)), 1, [Seat(), Seat()], quiet=True)
    m.eval("state.vars.x = true")
    with pytest.raises(ScriptError) as e:
        m.eval('return stat(cards.in_play()[1], "strength")')
    assert f"helpers.lua:{line}: the rules' modifier of strength returned string, not a number" in str(e.value), \
        str(e.value)


def test_summon_test_takes_a_games_folder_from_anywhere(tmp_path):
    rules = scaffold(tmp_path / "games")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = summon("test", str(rules), cwd=elsewhere)
    assert r.returncode == 0 and "3 passed, 0 failed" in r.stdout, r.stdout + r.stderr


def test_check_reports_a_random_game_that_stops_as_a_problem_of_the_game(tmp_path):
    rules = scaffold(tmp_path, "\n" + SELF_NESTED)
    r = summon("check", str(rules))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    assert re.search(r"rules/slip/game\.yaml:1:1: a random game stopped: cannot encode the data: "
                     r"it is nested more than 64 deep .*, at state\.vars\.loop\.self", r.stdout), r.stdout + r.stderr
