"""Same seed, same game, in every fresh process: scripts see keys in one fixed order, no
addresses and one spelling of NaN, whatever Lua's per-runtime string hashing does."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import ROOT, edit, position, summon
from engine.errors import ScriptError
from engine.match import Match, Seat

# A rule that builds its options by iterating a table keyed by text: in raw Lua the order,
# and so which option a seeded bot picks, changes from one process to the next.
STRING_KEYS = '''
    local opts = { { label = "Stay" } }
    local by_name = {}
    for _, s in ipairs(board.neighbors(pawn.space)) do
      if board.is_empty(s) then by_name["Step to " .. s] = s end
    end
    for _, extra in ipairs({ "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta" }) do
      by_name["Wait (" .. extra .. ")"] = false
    end
    for label, to in pairs(by_name) do opts[#opts + 1] = { label = label, to = to or nil } end
'''


@pytest.fixture
def keyed_game(tmp_path):
    """tests/games/tiny_graph with options listed in pairs order over text keys."""
    dest = tmp_path / "keyed"
    shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", dest)
    edit(dest / "tiny.lua", '''    local opts = { { label = "Stay" } }
    for _, s in ipairs(board.neighbors(pawn.space)) do
      if board.is_empty(s) then opts[#opts + 1] = { label = "Step to " .. s, to = s } end
    end
''', STRING_KEYS)
    return dest


def test_seeded_games_that_iterate_text_keys_are_the_same_in_every_process(keyed_game):
    runs = []
    for _ in range(4):
        r = summon("sim", str(keyed_game), "--games", "6", "--seed", "1", "--jobs", "1", "--json")
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        runs.append([(g["decisions"], g["hash"]) for g in out["results"]])
    assert all(run == runs[0] for run in runs), runs


def test_pairs_gives_numbers_then_text_then_cards_by_id(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    got = m.eval("""
        local t = { zeta = 1, alpha = 2, [3] = 3, [1.5] = 4, [true] = 5, [false] = 6 }
        t[cards.get(7)] = 7; t[cards.get(2)] = 8
        local keys = {}
        for k, v in pairs(t) do keys[#keys + 1] = type(k) == "table" and ("card " .. k.id) or tostring(k) end
        return table.concat(keys, " ")""")
    assert got == ["1.5 3 alpha zeta false true card 2 card 7"]
    assert m.eval("next({b = 1, a = 2})") == ["a", 2]
    assert m.eval("next({b = 1, a = 2}, 'a')") == ["b", 1]


def test_a_table_keyed_by_plain_tables_has_no_order_and_says_so(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"eval:1: pairs: a table keyed by tables has no order that is the same "
                                          r"on every machine"):
        m.eval("local t = {[{}] = 1, [{}] = 2} for k in pairs(t) do end")


def test_no_address_and_one_nan(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    assert m.eval("tostring({}), tostring(print), tostring(0/0), tostring(-(0/0))") == ["table", "function", "nan", "nan"]
    assert m.eval("string.format('%s|%f|%5.1f', {}, 0/0, -(0/0))") == ["table|nan|  nan"]
    assert m.eval("('%g'):format(0/0)") == ["nan"]
    assert m.eval("('%E|%G'):format(0/0, -(0/0)) == 'NAN|NAN'") == [True]   # as the script sees it
    with pytest.raises(ScriptError, match="%p would show an address"):
        m.eval("string.format('%p', {})")


def test_weak_tables_are_refused(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    with pytest.raises(ScriptError, match=r"eval:1: setmetatable: weak tables \(__mode\) are not allowed"):
        m.eval('local t = setmetatable({}, {__mode = "k"})')


# NaN joined to text with `..` (or table.concat, string.rep) is spelt by the C library:
# "-nan" here, "nan" elsewhere, "-nan(ind)" on Windows. Text leaving a script spells it "nan".
def test_nan_joined_to_text_is_spelt_one_way_wherever_the_text_leaves_the_script(sw):
    m = position(sw, '''
        local nan = 0/0
        state.vars.note = "v=" .. nan
        state.vars["key " .. nan] = true
        say("said " .. nan)
        choose{player = 1, prompt = "pick " .. nan, options = {"deal " .. nan, "deal " .. -nan, "anti-nanotech"}}''',
                 quiet=False)
    assert m.options() == ["deal nan", "deal nan #2", "anti-nanotech"]
    assert m.pending.prompt == "pick nan"
    assert "said nan" in m.messages()
    vars_ = m.snapshot()["vars"]
    assert vars_["note"] == "v=nan" and vars_["key nan"] is True
    m.answer_key("deal nan")
    assert m.answers == ["deal nan"]
    assert m.eval('"x" .. 0/0, table.concat({0/0, 1}, ","), string.rep(0/0, 2), "nan5 " .. 0/0 .. 5') == \
        ["xnan", "nan,1", "nannan", "nan5 nan5"]
    with pytest.raises(ScriptError, match=r"^eval:1: bad nan$"):
        m.eval('error("bad " .. 0/0)')


def test_an_end_reason_with_nan_is_spelt_one_way(sw):
    m = position(sw, 'win(1, "won by " .. 0/0)', quiet=False)
    assert m.snapshot()["result"] == "player 1 wins (won by nan)"
    assert "Game over: player 1 wins (won by nan)" in m.messages()


def test_only_the_spellings_of_nan_change(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    # Windows spells it "-nan(ind)"; words that merely hold "-nan" keep it
    assert m.eval('"v" .. "-nan(ind)", "-nan(snan)", "anti-nanotech", "a-nano", "nan(x)", ("%E"):format(0/0)') == \
        ["vnan", "nan", "anti-nanotech", "a-nano", "nan(x)", "NAN"]


# -- the order pairs gives scripts ----------------------------------------------------

def _expected_order(keys):
    """Numbers ascending, then text by byte, then false, true, then cards by id (portable.lua)."""
    rank = {int: 0, float: 0, str: 1, bool: 2}
    return sorted(keys, key=lambda k: (rank[type(k)], k if not isinstance(k, str) else k.encode()))


def _lua_literal(k) -> str:
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, str):
        return '"' + "".join(f"\\{b}" for b in k.encode()) + '"'
    return repr(k)


def test_pairs_order_is_the_documented_one_for_every_kind_of_key(sw):
    """Keys all numbers or all text take a faster sort: the order must not change."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    m = Match(sw, 1, [Seat("bot"), Seat("bot")], quiet=True)
    ints = st.integers(min_value=-2**40, max_value=2**40)
    floats = st.floats(min_value=-1e6, max_value=1e6).filter(lambda f: not f.is_integer())
    texts = st.text(alphabet="abcAB _-09é", max_size=6)

    @settings(max_examples=80, deadline=None)
    @given(st.one_of(st.lists(ints, max_size=12, unique=True), st.lists(texts, max_size=12, unique=True),
                     st.lists(st.one_of(ints, floats, texts, st.booleans()), max_size=12, unique=True)))
    def check(keys):
        table = ", ".join(f"[{_lua_literal(k)}] = 1" for k in keys)
        got = m.eval(f"local out = {{}}\nfor k in pairs({{ {table} }}) do out[#out + 1] = k end\nreturn out")[0]
        assert (got or []) == _expected_order(keys)

    check()
