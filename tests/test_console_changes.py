"""A designer's console changes (`lua` with --designer, Match.edit) are part of the match's
history: kept with the answers where they were made, and made again by every replay (undo,
redo, reload, a saved file loaded) and every fork (what a search bot plays on)."""
import json
import re
from pathlib import Path

import pytest
from conftest import edit

from engine.errors import SaveFileError, ScriptError
from engine.loader import load_game
from engine.match import Edit, Match, Seat, load_match, read_save
from engine.reload import reload_match
from repl.session import Session

MAGIC = 'counters.set(1, "magic", 9)'


@pytest.fixture(scope="module")
def sw():
    return load_game("summoner_wars")


def magic(m: Match) -> int:
    return m.snapshot()["counters"]["1"]["magic"]


def played(sw, n: int, keep: bool = False) -> Match:
    m = Match(sw, 3, [Seat("human"), Seat("bot")], quiet=True)
    if keep:
        m.keep_checkpoints()
    for _ in range(n):
        m.answer(0)
    return m


@pytest.mark.parametrize("keep", [False, True])
def test_a_fork_makes_the_change_again_where_it_was_made(sw, keep):
    """A fork replays the answers since its checkpoint: the change comes back before the
    answer it was made ahead of, so the fork and the match go on alike, answer for answer."""
    m = played(sw, 5, keep)
    assert magic(m) != 9
    results, changed = m.edit(MAGIC)
    assert (results, changed) == ([9], True) and m.edits == [Edit(5, MAGIC)]
    f = m.fork()
    assert magic(f) == 9 and f.state_hash() == m.state_hash() and f.edits == m.edits
    for _ in range(6):   # (on past the turn's checkpoints, and forks from each point)
        m.answer(0)
        assert m.fork().state_hash() == m.state_hash()
    g = m.fork()
    for _ in range(4):
        m.answer(0)
        g.answer(0)
    assert g.state_hash() == m.state_hash()
    assert magic(m.sample(2, 7)) == magic(m)   # (the sample's world holds the change too)


def test_a_read_is_no_change_and_a_failing_change_leaves_the_match_as_it_was(sw):
    m = played(sw, 5)
    assert m.edit('return counters.get(1, "magic")') == ([magic(m)], False) and m.edits == []
    before = m.state_hash()
    with pytest.raises(ScriptError, match="boom"):
        m.edit('counters.set(1, "magic", 2); error("boom")')
    assert m.state_hash() == before and m.edits == [] and m.decisions == 5
    m.answer(0)
    assert m.decisions == 6   # (the rebuilt match plays on)


def test_replays_and_saved_files_make_the_change_again(sw, tmp_path):
    m = played(sw, 5)
    m.edit(MAGIC)
    for _ in range(3):
        m.answer(0)
    again, diverged = m.restarted(m.answers)
    assert diverged is None and again.state_hash() == m.state_hash() and again.edits == m.edits
    before = m.restarted(m.answers[:5])[0]
    assert magic(before) == 9, "the state before the sixth answer holds the change made ahead of it"
    assert magic(m.restarted(m.answers[:4])[0]) != 9 and m.restarted(m.answers[:4])[0].edits == []
    path = tmp_path / "m.json"
    m.save(path)
    assert json.loads(path.read_text())["edits"] == [{"at": 5, "lua": MAGIC}]
    assert load_match(path).state_hash() == m.state_hash()
    assert load_match(path, upto=5).edits == m.edits and magic(load_match(path, upto=4)) != 9
    plain = played(sw, 2)
    plain.save(tmp_path / "p.json")
    assert "edits" not in json.loads((tmp_path / "p.json").read_text())   # (older saves: as they were)


def test_a_reload_makes_the_change_again_and_refuses_rules_under_which_it_fails(game_copy):
    """Under rules in which the change fails (a function it calls is gone), the reload is
    refused, naming the change, and the match goes on as it was."""
    copy = game_copy()
    helpers = copy.rules / "helpers.lua"
    helpers.write_text(helpers.read_text() + "\nfunction bonus() return 4 end\n")
    m = Match(load_game(str(copy.rules)), 3, [Seat("human"), Seat("bot")], quiet=True)
    for _ in range(5):
        m.answer(0)
    m.edit("state.vars.noted = bonus()")
    result = reload_match(m)
    assert result.match is not None and "and 1 console change" in result.report, result.report
    assert result.match.state_hash() == m.state_hash() and result.match.snapshot()["vars"]["noted"] == 4
    edit(helpers, "function bonus() return 4 end", "")
    result = reload_match(m)
    assert result.match is None, result.report
    assert "the console change made at decision 6, `lua state.vars.noted = bonus()`, fails now: lua:1:" \
        in result.report, result.report
    m.answer(0)   # (the match goes on)


def test_a_saves_changes_are_checked_at_their_line(sw, tmp_path):
    m = played(sw, 3)
    m.edit(MAGIC)
    good = json.loads(json.dumps(m.to_json()))
    cases = {
        "not a list": ({"at": 1, "lua": "x = 1"}, "'edits' must be a list"),
        "no code": ([{"at": 1}], "change 1 has no 'lua'"),
        "empty code": ([{"at": 1, "lua": "  "}], "change 1 has 'lua' that is no code (a text of Lua)"),
        "negative": ([{"at": -1, "lua": "x = 1"}], "change 1 has 'at': -1, not a count of decisions (0 or more)"),
        "a count as text": ([{"at": "1", "lua": "x = 1"}], "change 1 has 'at': \"1\", not a count of decisions"),
        "a list": ([[1, "x = 1"]], "change 1 is a list, not a map"),
        "more keys": ([{"at": 1, "lua": "x = 1", "by": 2}], "change 1 has 'by', which is not 'at' or 'lua'"),
        "out of order": ([{"at": 2, "lua": "x = 1"}, {"at": 1, "lua": "x = 2"}], "change 2 comes before change 1"),
        "past the answers": ([{"at": 4, "lua": "x = 1"}], "made at decision 5, after the 3 answers"),
    }
    for name, (edits, said) in cases.items():
        data = dict(good, edits=edits)
        path = tmp_path / f"{name}.json"
        text = json.dumps(data, indent=1)
        path.write_text(text)
        line = text[: text.index('"edits"')].count("\n") + 1
        with pytest.raises(SaveFileError) as e:
            read_save(path)
        assert str(e.value).startswith(f"{path}:{line}:") and said in str(e.value), (name, str(e.value))
    path = tmp_path / "bad lua.json"
    path.write_text(json.dumps(dict(good, edits=[{"at": 3, "lua": "counters.set(1,"}])))
    with pytest.raises(ScriptError, match=r"the console change made at decision 4, `lua counters.set\(1,`, fails now"):
        load_match(path)


def test_the_console_undo_redo_save_and_load_keep_the_change(sw, tmp_path):
    s = Session(Match(sw, 3, [Seat("human"), Seat("bot")], quiet=True), designer=True)
    for _ in range(3):
        s.handle("1")
    at = s.match.decisions
    plain = s.match.state_hash()
    said = s.handle(f"lua {MAGIC}")
    assert f"kept with them at decision {at + 1}" in said and "undo takes it back" in said, said
    changed = s.match.state_hash()
    assert "kept with them" not in s.handle("lua return 1 + 1")   # (a read changes nothing)
    assert s.handle("undo").startswith(f"undone to decision {at} (1 console change taken back)")
    assert s.match.state_hash() == plain and s.match.edits == []
    assert s.handle("redo").startswith("made again 1 console change")
    assert s.match.state_hash() == changed and s.match.edits == [Edit(at, MAGIC)]
    s.handle("1")
    s.handle("1")
    after = s.match.state_hash()
    n = s.match.decisions
    assert s.handle(f"undo {n - at}").startswith(f"undone to decision {at}\n")
    assert s.match.state_hash() == changed, "undone to just before the answer: the change made ahead of it stays"
    s.handle("undo")   # (and then the change itself)
    assert s.match.state_hash() == plain
    said = s.handle("redo 5")
    assert said.startswith(f"redone {n - at} decisions (1 console change made again)"), said
    assert s.match.state_hash() == after and magic(s.match) == 9
    said = s.handle(f"save {tmp_path / 'm.json'}")
    assert said.startswith("saved") and "will not reproduce" not in said, said
    t = Session(Match(sw, 1, [Seat("human"), Seat("bot")], quiet=True), designer=True)
    t.handle(f"load {tmp_path / 'm.json'}")
    assert t.match.state_hash() == after and t.match.edits == s.match.edits


def test_a_change_made_where_a_reload_stopped_is_kept_with_the_later_answers(sw, tmp_path):
    """A reload that stops short keeps the later answers and changes; a change made where it
    stopped goes into that history at its place, and a save writes it all."""
    s = Session(Match(sw, 3, [Seat("human"), Seat("human")], quiet=True), designer=True)
    for _ in range(4):
        s.handle("1")
    s.handle(f"lua {MAGIC}")
    for _ in range(3):
        s.handle("1")
    answers, edits = list(s.match.answers), list(s.match.edits)
    s.kept_log, s.kept_edits = answers, edits   # (as a reload that stopped at decision 3 leaves them)
    s.match = s.match.restarted(answers[:2], edits=edits)[0]
    assert s.kept_answers() == answers
    s.handle('lua counters.set(2, "magic", 7)')
    assert s.kept_edits == [Edit(2, 'counters.set(2, "magic", 7)'), Edit(4, MAGIC)]
    s.handle(f"save {tmp_path / 'k.json'}")
    data = read_save(tmp_path / "k.json")
    assert data["answers"] == answers and [e["at"] for e in data["edits"]] == [2, 4]
    loaded = load_match(tmp_path / "k.json")
    assert magic(loaded) == 9 and loaded.snapshot()["counters"]["2"]["magic"] == 7


def test_the_console_change_survives_a_designers_save_and_load_at_the_terminal(play_screen, tmp_path):
    """Through a pseudo-terminal: a change, saved, loaded in a new session, is there."""
    path = tmp_path / "m.json"
    scr = play_screen("summoner_wars", "--players", "human,bot", "--seed", "3", "--designer")
    scr.wait(r"P1>")
    scr.type('lua counters.set(1, "magic", 11)')
    scr.wait(r"kept with them at decision 1")
    scr.type(f"save {path}")
    scr.wait(r"saved 0 decisions")
    scr.type("quit")
    scr.answer_quit("")
    scr = play_screen("--load", str(path), "--designer")
    scr.wait(r"P1>")
    scr.type('lua return counters.get(1, "magic")')
    scr.wait(r"\n11\s")


def test_every_fork_runs_the_change_with_globals_of_its_own(sw):
    """The change's code ran in one environment kept for every fork: a global it set stayed
    set, so each later fork made a different change (the bots searched other matches)."""
    m = played(sw, 5, keep=True)
    m.edit('n = (n or 0) + 1; counters.set(1, "magic", n)')
    assert magic(m) == 1
    assert [magic(m.fork()) for _ in range(3)] == [1, 1, 1]
    assert all(m.fork().state_hash() == m.state_hash() for _ in range(2))


def test_a_sample_after_a_change_deals_what_the_change_hid_again(sw):
    """Samples of one position share how to deal hidden cards again (kept with the checkpoint);
    a change made there was not seen by it: a card it put in player 2's hand kept its real
    identity in every later sample of seat 1, which had never seen it."""
    m = Match(sw, 3, [Seat("human"), Seat("human")], quiet=True).keep_checkpoints()
    for _ in range(4):
        m.answer(0)
    m.sample(1, 11)   # (before the change, at the same position)
    new = m.edit('return cards.create("ice_golem", 2, 2, "hand").id')[0][0]
    dealt = {next(c["def"] for c in m.sample(1, seed).snapshot()["cards"] if c["id"] == new) for seed in range(20)}
    assert len(dealt) > 1, dealt


def test_a_failing_change_does_not_say_the_match_again(sw):
    m = Match(sw, 3, [Seat("human"), Seat("bot")])
    for _ in range(3):
        m.answer(0)
    m.messages()
    with pytest.raises(ScriptError):
        m.edit('counters.set(1, "magic", 2); error("boom")')
    assert m.messages() == []


def test_a_change_that_leaves_a_state_no_save_can_hold_is_taken_back(sw):
    m = played(sw, 3)
    before = m.state_hash()
    with pytest.raises(ScriptError, match=r"cannot encode .* \(the change is taken back\)"):
        m.edit('counters.set(1, "magic", 7); local t = {} for i = 1, 50 do t = {t, t} end state.vars.big = t')
    assert m.state_hash() == before and m.edits == [] and m.fork().state_hash() == before


def test_a_replay_given_in_parts_makes_each_change_once(sw):
    m = played(sw, 5)
    m.edit('counters.add(1, "magic", 1)')
    m.answer(0)
    whole = Match(sw, 3, [Seat("human"), Seat("bot")], quiet=True)
    whole.replay(m.answers, edits=m.edits)
    parts = Match(sw, 3, [Seat("human"), Seat("bot")], quiet=True)
    parts.replay(m.answers[:5], edits=m.edits)
    parts.replay(m.answers[5:], edits=m.edits)
    assert whole.state_hash() == parts.state_hash() == m.state_hash() and parts.edits == m.edits


def test_redo_makes_one_change_a_step_as_undo_takes_one_back(sw):
    s = Session(Match(sw, 3, [Seat("human"), Seat("bot")], quiet=True), designer=True)
    s.handle("1")
    for n in (4, 5, 6):
        s.handle(f'lua counters.set(1, "magic", {n})')
    after = s.match.state_hash()
    assert s.handle("undo 3").startswith("undone to decision 1 (3 console changes taken back)")
    assert s.handle("redo").startswith("made again 1 console change\n") and magic(s.match) == 4
    assert s.handle("redo 2").startswith("made again 2 console changes\n")
    assert s.match.state_hash() == after and s.handle("redo") == "nothing to redo"


def test_a_match_and_its_fork_changed_alike_at_one_position_sample_apart(sw):
    """Samples of one position share how to deal hidden cards again; a match and its fork,
    each changed once there (the same number of changes), shared it: every sample of the
    fork dealt the match's new card, not the fork's."""
    m = Match(sw, 3, [Seat("human"), Seat("human")], quiet=True).keep_checkpoints()
    for _ in range(4):
        m.answer(0)
    f = m.fork()
    m.edit('cards.create("ice_golem", 2, 2, "hand")')
    f.edit('cards.create("frost_mage", 2, 2, "hand")')
    m.sample(1, 5)

    def hidden(x):
        return sorted(c["def"] for c in x.snapshot()["cards"] if c["zone"] in ("hand:2", "draw:2"))
    assert all(hidden(f.sample(1, seed)) == hidden(f) for seed in range(10))


def test_a_change_redone_that_fails_now_stays_to_redo(game_copy):
    """A console change undo took back, redone under rules in which it fails: it left the
    redo stack before it was tried, and was gone once the rules were put back."""
    g = game_copy()
    s = Session(Match(load_game(str(g.rules)), 3, [Seat("human"), Seat("bot")], quiet=True), designer=True)
    s.handle("1")
    helpers = g.rules / "helpers.lua"
    text = helpers.read_text()
    helpers.write_text(text + "\nfunction bonus() return 4 end\n")
    s.reload()
    s.handle("lua state.vars.noted = bonus()")
    s.handle("undo")
    helpers.write_text(text)
    s.reload()
    assert s.handle("redo").startswith("script error: lua:1:")
    assert len(s.redo_stack) == 1
    helpers.write_text(text + "\nfunction bonus() return 4 end\n")
    s.reload()
    assert s.handle("redo").startswith("made again 1 console change") and s.match.snapshot()["vars"]["noted"] == 4


def test_a_change_that_fails_and_leaves_a_state_no_save_can_hold_says_its_own_error(sw):
    m = played(sw, 3)
    with pytest.raises(ScriptError, match=r"^lua:1: my own mistake"):
        m.edit('local t = {} for i = 1, 50 do t = {t, t} end state.vars.big = t error("my own mistake")')


def test_a_failing_change_at_a_reload_is_named_to_a_designer_only(game_copy):
    """The code of a change may name a card a seat cannot see: in hot seat, a reload refused
    because a change fails says only that one does, and when it was made."""
    g = game_copy()
    helpers = g.rules / "helpers.lua"
    text = helpers.read_text()
    helpers.write_text(text + "\nfunction bonus() return 4 end\n")
    m = Match(load_game(str(g.rules)), 3, [Seat("human"), Seat("human")], quiet=True)
    m.answer(0)
    m.edit('state.vars.noted = bonus() -- the golem in hand')
    helpers.write_text(text)
    seat = Session(m)
    said = seat.reload()
    assert "a designer's console change made at decision 2 fails now" in said and "golem" not in said, said
    assert "golem" in Session(m, designer=True).reload()


@pytest.mark.parametrize("code, said", [
    ("state.zones = nil", "state.zones must be a table of zone -> card ids, not nil"),
    ("state.cards[1].id = 99", "state.cards[1] must be the card whose id is 1"),
    ("state.cards = {}", "but state.cards has no card "),
    ("state.cards[1].def = 'nothing'", "state.cards[1].def is 'nothing', which is no card of summoner_wars"),
    ("state.cards[1].owner = 3", "state.cards[1].owner must be a player from 1 to 2, not 3"),
    ("state.counters = 5", "state.counters must be a table of counters, not 5"),
    ("state.players[2] = nil", "state.players must list the match's 2 players, not 1"),
    # (a def that is a table raised Python's TypeError, kept no edit and went on changed)
    ("state.cards[1].def = {}", "state.cards[1].def is [], which is no card of summoner_wars"),
    # (true passed as a whole number, and a first owner was not looked at: a bot's sample then
    # failed at a line of the engine's; a winner past the seats stood)
    ("state.cards[1].owner = true", "state.cards[1].owner must be a player from 1 to 2, not true"),
    ("state.cards[1].first_owner = 'market'",
     "state.cards[1].first_owner must be a player from 1 to 2, or 0 for nobody, not 'market'"),
    ("state.winners = {7}", "state.winners must be a list of players from 1 to 2, not [7]"),
    ("state.cards[1].under = nil", "state.cards[1].under must be a list of the ids of the cards under it, not nil"),
    ("state.cards[1].under = {999}", "state.cards[1].under must be a list of the ids of the cards under it, not [999]"),
    ("state.cards[1].down_ref = {}", "state.cards[1].down_ref must be a whole number (its stand-in's), not []"),
    ("state.mixed = {{1, 'a'}}", "state.mixed must be a list of {player, place, place}, not [[1, 'a']]"),
    # (a card under itself, listed twice, or hosts in a loop were kept: the engine then
    # overflowed its stack or ran out of steps at a line of its own)
    ("state.cards[1].under = {1}", "state.cards[1].under holds card 1, whose zone is "),
    ("state.cards[1].seen_open = 5", "state.cards[1].seen_open must be a list of players from 1 to 2, not 5"),
    ("state.cards[1].seen_by = {3}", "state.cards[1].seen_by must be a list of players from 1 to 2, not [3]"),
    ("cards.attach(cards.get(2), cards.get(1)); state.cards[1].under = {2, 2}",
     "state.cards[1].under lists card 2 twice"),
    ("cards.attach(cards.get(2), cards.get(1)); state.cards[3].under = {2}",
     "state.cards[3].under lists card 2, which is already listed under card 1"),
    ("cards.attach(cards.get(2), cards.get(1)); local c = cards.get(1); c.zone = 'under'; c.host = 2; "
     "state.cards[2].under = {1}; state.cards[1].under = {}; "
     "for k, ids in pairs(state.zones) do for i = #ids, 1, -1 do if ids[i] == 1 then table.remove(ids, i) end end end; "
     "for s, id in pairs(state.spaces) do if id == 1 then state.spaces[s] = nil end end",
     "state.cards[1] lies under itself (through its hosts: a loop)"),
])
def test_a_change_that_breaks_what_the_engine_relies_on_is_taken_back(sw, code, said):
    """`lua state.zones = nil` was kept, and the screen, `hand` and the bots then failed at
    a line of the engine's own."""
    m = played(sw, 3)
    before, answers = m.state_hash(), list(m.answers)
    with pytest.raises(ScriptError, match=re.escape(said) + r"\S*; the engine relies on that \(the change is taken back\)"):
        m.edit(code)
    assert m.state_hash() == before and m.answers == answers and m.edits == []
    m.view(1)
    m.answer(0)   # (the match goes on)


def test_rules_data_kept_as_a_list_in_state_vars_is_no_broken_state():
    """state.vars[p] = {...} makes state.vars a list: every later console change was refused
    as if state.vars were not a table."""
    from conftest import ROOT
    m = Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 7, [Seat("human"), Seat("human")], quiet=True)
    assert m.edit("state.vars[1] = {bids = 0}; state.vars[2] = {bids = 0}")[1] is True
    assert m.edit('counters.add(1, "points", 1)')[1] is True
