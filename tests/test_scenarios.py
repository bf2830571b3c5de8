"""Scenario tests in YAML: every shipped scenario passes under pytest, and the runner
reports failures and malformed files with path:line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT, summon
from engine import scenarios

FILES = scenarios.find_files([str(p) for p in sorted(ROOT.glob("rules/*/tests"))] +
                             [str(p) for p in sorted(ROOT.glob("cards/*/tests"))])


def _cases():
    for f in FILES:
        doc, problems = scenarios.load_file(f)
        if doc is None:
            yield pytest.param(f, -1, id=f"{f.name}::malformed")
            continue
        for i, sc in enumerate(doc.data["scenarios"]):
            yield pytest.param(f, i, id=f"{f.parent.parent.name}/{f.name}::{sc['name']}")


@pytest.mark.parametrize("path,index", list(_cases()))
def test_shipped_scenario(path, index):
    doc, problems = scenarios.load_file(path)
    assert doc is not None, "\n".join(map(str, problems))
    from engine.loader import load_game

    res = scenarios.run_scenario(load_game(doc.data["game"]), doc, index)
    assert res.passed, "\n".join(f"{f.where}: step {f.step}: {f.message}" for f in res.failures)


def summon_test(*paths):
    return summon("test", *map(str, paths))


FAILING = """\
game: summoner_wars
scenarios:
  - name: wrong magic
    steps:
      - expect:
          counters: {magic: {1: 9}}
  - name: fine
    steps:
      - expect: {phase: summon}
  - name: not offered
    steps:
      - answer: Fly away
"""


def test_a_failure_shows_scenario_step_expected_actual_and_line(tmp_path):
    f = tmp_path / "fail.yaml"
    f.write_text(FAILING)
    r = summon_test(f)
    assert r.returncode == 1
    assert "fail.yaml:6: step 1: magic of player 1: expected 9, got 2" in r.stdout
    assert "wrong magic" in r.stdout
    assert "fail.yaml:12: step 1: 'Fly away' is not offered" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 2 failed"


def test_a_malformed_scenario_is_an_error_with_its_line(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("game: summoner_wars\nscenarios:\n  - name: x\n    stpes: []\n")
    r = summon_test(f)
    assert r.returncode == 1
    assert "bad.yaml:4:5: unknown key 'stpes' (did you mean 'steps'?)" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    f.write_text("game: [unclosed\n")
    r = summon_test(f)
    assert r.returncode == 1 and "bad.yaml:1:7: YAML syntax: this [ list is not closed" in r.stdout


EXPECTS_AN_ERROR = """\
game: summoner_wars
scenarios:
  - name: a script error is expected
    seats: [polar_dwarves, fallen_kingdom]
    setup:
      lua: |
        on("after_summon", function(ev) error("boom from the test") end)
      zones:
        hand: {1: [frost_mage]}
      counters: {magic: {1: 5}}
      start: {player: 1, phase: summon}
    steps:
      - answer: Summon Frost Mage (cost 1)
      - answer: c1
        error: boom from the test
      - expect: {to_act: 1, phase: summon}
"""


def test_an_expected_error_passes_only_when_raised(tmp_path):
    f = tmp_path / "err.yaml"
    f.write_text(EXPECTS_AN_ERROR)
    r = summon_test(f)
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"
    # without the hook that raises it, the same step fails
    f.write_text(EXPECTS_AN_ERROR.replace('        on("after_summon", function(ev) error("boom from the test") end)\n',
                                          '        -- nothing raises\n'))
    r = summon_test(f)
    assert r.returncode == 1
    assert "err.yaml:15: step 2: expected an error with 'boom from the test', but the answer worked" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_the_readme_example_passes(tmp_path):
    text = (ROOT / "README.md").read_text()
    block = text.split("A worked example")[1].split("```yaml")[1].split("```")[0]
    f = tmp_path / "example.yaml"
    f.write_text(block)
    r = summon_test(f)
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_a_misspelt_card_in_a_setup_names_the_line_and_suggests(tmp_path):
    f = tmp_path / "typo.yaml"
    f.write_text("game: summoner_wars\nscenarios:\n  - name: typo\n    setup:\n"
                 "      board: {c4: {card: frost_mag}}\n    steps: []\n")
    r = summon_test(f)
    assert r.returncode == 1
    assert "typo.yaml:5: step 0: setup failed: setup board c4: no card called 'frost_mag' " \
           "(did you mean 'frost_mage'?)" in r.stdout


SLOW_STEP = """\
game: {game}
scenarios:
  - name: expects the time limit
    setup:
      lua: |
        on("after_step", function()
          local a, b = ("x"):rep(2^24), ("x"):rep(2^24)
          while true do local _ = a == b end
        end)
    steps:
      - answer: Step to north_b
        error: script ran too long
"""


def test_a_scenario_cannot_pass_by_expecting_the_time_limit(tmp_path):
    # the time limit depends on the machine: a scenario that expects it would pass on one
    # machine and fail on another
    game = Path(shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", tmp_path / "tiny"))
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "limits: {seconds: 1}\n")
    f = tmp_path / "slow.yaml"
    f.write_text(SLOW_STEP.format(game=game))
    r = summon_test(f)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "slow.yaml:12: step 1: the time limit stopped the script, and it depends on the machine: " \
           "a scenario cannot expect it" in r.stdout, r.stdout


NEW_EXPECTATIONS = (Path(__file__).parent / "scenarios" / "new_expectations.yaml")


def _run_text(tmp_path, text, name="s.yaml"):
    f = tmp_path / name
    f.write_text(text)
    results, problems = scenarios.run_file(f)
    assert not problems, problems
    return results


def test_stats_zone_cards_option_counts_not_said_lua_and_named_rolls_hold():
    results, problems = scenarios.run_file(NEW_EXPECTATIONS)
    assert not problems and [r.passed for r in results] == [True], [f.message for r in results for f in r.failures]


@pytest.mark.parametrize("old,new,words", [
    ("c3: {card: frost_mage, stats: {strength: 2, life: 4}}", "c3: {card: frost_mage, stats: {strength: 3, life: 4}}",
     ":22: step 1: c3: expected strength 3 (after modifiers), got 2"),
    ("owner: 1, stats: {strength: 1}", "owner: 1, stats: {strength: 5}",
     "hand:1 card 2 (from the top): expected strength 5 (after modifiers), got 1"),
    ("{cards: [ice_repair, {card", "{cards: [{card", "hand:1: expected 1 cards, got 2"),
    ("offered_count: 2", "offered_count: 3", "expected 3 options, got 2"),
    ('offered_exactly: ["/Frost Mage/", End attack phase]', 'offered_exactly: ["/Frost Mage/"]',
     "(not expected: ['End attack phase'])"),
    ('not_said: ["misses"]', 'not_said: ["2 hits"]', "expected no message matching '2 hits'"),
    ("lua: options.inaction_damage == 2", "lua: options.inaction_damage == 3",
     "expected `options.inaction_damage == 3` to be true, got False"),
    ("lua: options.inaction_damage == 2", "lua: nowhere.x == 2", "the lua expectation failed to run"),
    ("turn: 5\n", "turn: 6\n", "turn: expected 6, got 5"),
    ('"battle:ranged+special", "ranged', '"battle:ranged+magic", "ranged',
     ":29: step 2: roll 'battle:ranged+magic': die battle has no face 'ranged+magic'; its faces are "
     "melee+ranged, ranged+special, melee+special, melee"),
    ('"battle:ranged+special", "ranged', '"dice:ranged+special", "ranged', "no die called 'dice'"),
    ('"ranged+special"]', '"hit"]', "no die has a face called 'hit'"),
    ("options: {inaction_damage: 2}", "options: {inaction_damage: 99}", "setup failed"),
    ("    seats: [polar_dwarves, fallen_kingdom]\n", "    seats: [polar_dwarves, fallen_kingdom]\n    players: 3\n",
     "players: 3, but 2 seats are named"),
])
def test_each_new_expectation_fails_with_what_went_wrong(tmp_path, old, new, words):
    text = NEW_EXPECTATIONS.read_text()
    assert old in text
    results = _run_text(tmp_path, text.replace(old, new))
    messages = [f"{f.where}: step {f.step}: {f.message}" for r in results for f in r.failures]
    assert len(messages) == 1 and words in messages[0], messages


ROUNDS = """\
game: summoners_isle
scenarios:
  - name: three seats from round 4, a die rolled by its face
    players: 3
    setup:
      start: {round: 4}
    steps:
      - expect: {round: 4}
"""


def test_players_and_start_round_in_a_rounds_game(tmp_path):
    results = _run_text(tmp_path, ROUNDS)
    assert [r.passed for r in results] == [True], [f.message for r in results for f in r.failures]
    results = _run_text(tmp_path, ROUNDS.replace("{round: 4}\n", "{round: 5}\n", 2).replace("start: {round: 5}",
                                                                                                "start: {round: 4}"))
    assert "round: expected 5, got 4" in results[0].failures[0].message
    m = scenarios.loader.load_game("summoners_isle")
    assert scenarios.roll_numbers(m, ["d6:6", "3", 2]) == [6, 3, 2]
