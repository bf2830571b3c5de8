"""The host does not trust values from scripts: error values that claim to be anything, the
game-over marker, winners, the event chain after a caught error, choices asked from the
console, and text bound for the terminal."""
from __future__ import annotations

import pytest

from conftest import position, summon
from engine.errors import ScriptError
from engine.match import Match, Seat
from repl.terminal import safe

LIAR = "setmetatable({}, {__eq = function() return true end})"


def test_an_error_value_that_equals_everything_is_an_error_not_the_end(sw):
    with pytest.raises(ScriptError, match="a script raised an error value of type table"):
        position(sw, f"error({LIAR})", quiet=True)


def test_a_script_cannot_catch_the_end_of_the_game(sw):
    m = position(sw, "pcall(win, 2, 'caught?'); state.over = false", quiet=True)
    assert m.is_over and m.winner == 2
    assert m.snapshot()["result"] == "player 2 wins (caught?)"


def test_an_xpcall_handler_never_sees_the_game_over_marker(sw):
    m = position(sw, "xpcall(win, function(e) getmetatable(e).__tostring = nil end, 1); state.over = false",
                 quiet=True)
    assert m.is_over and m.winner == 1


@pytest.mark.parametrize("winner", ["0", "99", "'text'", "2.5", "'\\xff'"])
def test_end_game_takes_only_a_player_or_nothing(sw, winner):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"end_game: the winner must be a player from 1 to 2, a list of players, "
                                          r"or nil for a draw"):
        m.eval(f"end_game({winner})")
    assert not m.is_over


def test_a_caught_error_in_a_hook_does_not_leave_the_event_chain_deep(sw):
    from engine.loader import LuaSource
    m = Match(sw, 1, [Seat(), Seat()], quiet=True, scenario=LuaSource("scenario", (
        'on("turn_end", function(ev) if ev.boom then error("boom") end if ev.nest then emit("turn_end", {}) end end)')))
    # the game allows 30 levels; 29 caught errors must not leave 29 levels behind
    assert m.eval('for i = 1, 29 do pcall(emit, "turn_end", {boom = true}) end return "caught"') == ["caught"]
    assert m.eval('emit("turn_end", {nest = true}) return "fine"') == ["fine"]


def test_choose_from_the_console_leaves_the_real_question_alone(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    before = m.options()
    with pytest.raises(ScriptError, match="choose: a choice can only be asked while the match runs"):
        m.eval('return choose{player = 1, options = {"fake a", "fake b"}}')
    assert m.options() == before
    m.answer(0)
    assert m.answers == [before[0]]


def test_escape_sequences_never_reach_the_terminal():
    assert safe("\x1b]0;retitled\x07name") == "name"
    assert safe("\x1b]52;c;ZXZpbA==\x07x") == "x"
    assert safe("a\x1b[2Jb\x00c\x9bd") == "abcd"
    assert safe("\x1b[31mred\x1b[0m\nnext\ttab") == "\x1b[31mred\x1b[0m\nnext\ttab"


def test_a_message_with_escapes_is_printed_clean():
    r = summon("play", "summoner_wars", "--players", "human,random", "--seed", "2", "--designer",
               stdin="lua say('\\27]0;retitled\\7hello \\27[2Jthere')\nEnd summon phase\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "hello there" in r.stdout
    assert "\x1b]" not in r.stdout and "\x1b[2J" not in r.stdout


SCENARIO_HASH = """
import sys
sys.path.insert(0, {root!r})
from engine.loader import load_game
from engine.match import Match, Seat
setup = {{"zones": {{"hand": {{"1": ["frost_mage", "ice_golem"], "2": ["hellfire_cultist"]}},
                   "discard": {{"2": ["blood_summon"], "1": ["ice_repair"]}}}}}}
m = Match(load_game("summoner_wars"), 1, [Seat("bot", "polar_dwarves"), Seat("random", "fallen_kingdom")],
          setup=setup, quiet=True)
print(m.state_hash())
"""


def test_a_scenario_setup_gives_the_same_card_ids_in_every_process():
    import subprocess
    import sys

    from conftest import DEADLINE, ROOT

    code = SCENARIO_HASH.format(root=str(ROOT))
    hashes = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             timeout=DEADLINE).stdout.strip() for _ in range(6)}
    assert len(hashes) == 1 and len(next(iter(hashes))) == 64, hashes


# -- the options of a choice: bounded in length and number, duplicates named in linear time --

def asked(sw, options_lua: str) -> Match:
    """A match whose scenario asks player 1 to choose from the options `options_lua` builds."""
    return position(sw, f"local opts = {options_lua} choose{{player = 1, prompt = 'Pick', options = opts}}",
                    quiet=True)


def test_a_label_longer_than_the_limit_is_refused(sw):
    assert asked(sw, '{("é"):rep(500), "b"}').options() == ["é" * 500, "b"]   # 500 characters is fine
    for n, labels in ((2, '{"a", ("é"):rep(501)}'), (1, '{("x"):rep(16e6), "b"}')):
        with pytest.raises(ScriptError, match=rf"^scenario:1: choose: option {n}'s label is longer than 500 "
                                              r"characters, the most a label may have"):
            asked(sw, labels)


def test_more_options_than_the_limit_are_refused(sw):
    assert len(asked(sw, "{} for i = 1, 5000 do opts[i] = 'o' .. i end").options()) == 5000
    with pytest.raises(ScriptError, match=r"^scenario:1: choose: more than 5000 options; ask in steps "):
        asked(sw, "{} for i = 1, 5001 do opts[i] = 'o' .. i end")


def test_many_equal_labels_are_numbered_in_linear_time(sw):
    # numbering the n-th copy by trying #2, #3, ... again for each copy would take some 60
    # million instructions for 5000 copies: more than the budget allows
    m = asked(sw, "{} for i = 1, 5000 do opts[i] = 'same' end")
    assert m.options() == ["same"] + [f"same #{n}" for n in range(2, 5001)]
    m.answer_key("same #4999")
    assert m.answers == ["same #4999"]


def test_equal_labels_keep_their_numbering(sw):
    # the keys are what saves record: the numbering must stay as it was
    m = asked(sw, '{"a", "a", "a #2", "a", "a #3", "a", "b"}')
    assert m.options() == ["a", "a #2", "a #2 #2", "a #3", "a #3 #2", "a #4", "b"]
