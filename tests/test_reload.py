"""Hot reload: change a card or a rule mid-game and keep playing (`summon play --watch`, `reload`)."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from conftest import edit, summon, words
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play
from engine.reload import load_with_report, reload_match
from repl.session import Session


@pytest.fixture
def sw_files(game_copy):
    """A copy of Summoner Wars: (its rules folder, the Polar Dwarves' card file)."""
    g = game_copy()
    return g.rules, g.cards / "polar_dwarves.yaml"


def set_frost_cost(card_file, cost: int) -> None:
    text, n = re.subn(r"(- id: frost_mage\n    name: Frost Mage\n    tags: \[unit, common\]\n(?:    symbols: .*\n)?    cost: )\d+",
                      rf"\g<1>{cost}", card_file.read_text())
    assert n == 1, f"no Frost Mage cost in {card_file}"
    card_file.write_text(text)


def session_after_a_summon(rules) -> Session:
    """Player 1 (human) has summoned a Frost Mage at the first space offered."""
    s = Session(Match(load_game(str(rules)), 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    s.handle("Summon Frost Mage (cost 1)")
    s.handle("1")
    return s


# -- the engine side ---------------------------------------------------------------

def test_reload_reports_changed_cards_and_a_changed_state(sw_files):
    rules, pd = sw_files
    m = Match(load_game(str(rules)), 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")])
    play(m, {1: RandomBot(4, 1), 2: RandomBot(4, 2)}, max_decisions=60)
    before = m.state_hash()
    set_frost_cost(pd, 0)
    r = reload_match(m)
    assert r.match is not None
    assert "1 card changed (Frost Mage: cost 1 -> 0)" in r.report
    same = reload_match(r.match)
    assert "no card changed" in same.report and "the state is as before" in same.report
    assert m.state_hash() == before   # the old match is untouched by the reload


def test_the_reload_summary_names_each_change_and_ignores_cards_that_only_moved(sw_files):
    rules, pd = sw_files
    m = Match(load_game(str(rules)), 4, [Seat(), Seat()])
    play(m, {1: RandomBot(4, 1), 2: RandomBot(4, 2)}, max_decisions=30)
    text = pd.read_text()
    text = text.replace("cards:\n", "cards:\n  # a note above every card moves their Lua down\n\n\n", 1)
    assert "    name: Ice Smith\n" in text and "        function(self, ev)\n" in text
    pd.write_text(text)
    moved = reload_match(m)
    assert "no card changed" in moved.report and "the state is as before" in moved.report, moved.report
    edit_smith = text.replace("    name: Ice Smith\n    tags: [unit, common]\n    symbols: [dwarf]\n    cost: 0\n    strength: 2\n",
                              "    name: Ice Smith\n    tags: [unit, common]\n    symbols: [dwarf]\n    cost: 0\n    strength: 3\n")
    assert edit_smith != text
    start = edit_smith.index("- id: ice_smith")
    fn = edit_smith.index("function(self", start)
    edit_smith = edit_smith[:fn] + edit_smith[fn:].replace("\n", "\n          -- a comment is a change\n", 1)
    pd.write_text(edit_smith)
    (rules / "phases.lua").write_text((rules / "phases.lua").read_text() + "\n-- touched\n")
    r = reload_match(moved.match)
    smith = re.search(r"Ice Smith: strength 2 -> 3, its hooks\.\w+ script changed", r.report)
    assert smith and "1 card changed" in r.report and "; phases.lua changed" in r.report, r.report


def test_a_reload_runs_the_static_checks_and_refuses_a_script_that_would_fail_later(sw_files):
    """`deal_dmg` is no function anywhere: the card would fail the first time its hook ran."""
    rules, pd = sw_files
    m = Match(load_game(str(rules)), 4, [Seat(), Seat()])
    play(m, {1: RandomBot(4, 1), 2: RandomBot(4, 2)}, max_decisions=30)
    before = m.state_hash()
    text = pd.read_text()
    fn = text.index("function(self", text.index("- id: ice_smith"))
    text = text[:fn] + text[fn:].replace("\n", "\n          if false then deal_dmg(self) end\n", 1)
    pd.write_text(text)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if "deal_dmg" in s)
    r = reload_match(m)
    assert r.match is None and "goes on under the old rules" in r.report, r.report
    assert re.search(rf"polar_dwarves.yaml:{line}:\d+: .*deal_dmg", r.report), r.report
    assert m.state_hash() == before


def test_a_reload_that_fails_keeps_the_old_rules_and_match(sw_files):
    rules, pd = sw_files
    m = Match(load_game(str(rules)), 4, [Seat(), Seat()])
    play(m, {1: RandomBot(4, 1), 2: RandomBot(4, 2)}, max_decisions=30)
    before = m.state_hash()
    pd.write_text(pd.read_text().replace("    strength: 1\n", "    strength: [1\n", 1))
    r = reload_match(m)
    assert r.match is None
    assert re.search(r"polar_dwarves.yaml:\d+:\d+: ", r.report)
    assert "goes on under the old rules" in r.report
    assert m.state_hash() == before and m.decisions == 30


def stopped_at_the_frost_mage(rules, pd) -> tuple[Session, list[str], int, str]:
    """Player 1 summoned a Frost Mage and ended the phase; then its cost went up and a
    reload stopped there: (the session, the answers before, the summon's decision, the report)."""
    s = session_after_a_summon(rules)
    s.handle("End summon phase")
    full = list(s.match.answers)
    n = full.index("Summon Frost Mage (cost 1)") + 1
    set_frost_cost(pd, 2)
    return s, full, n, s.reload()


def test_divergence_stops_there_and_the_kept_log_returns_with_the_old_rules(sw_files):
    rules, pd = sw_files
    s, full, n, report = stopped_at_the_frost_mage(rules, pd)
    assert f"the replay stopped at decision {n}" in report
    assert "'Summon Frost Mage (cost 1)' is not offered any more" in report
    assert "Summon Frost Mage (cost 2)" in report          # what is offered now
    assert s.match.decisions == n - 1
    set_frost_cost(pd, 1)                                  # the old rules again
    report = s.reload()
    assert "replayed" in report and s.match.answers == full


def test_a_match_saved_before_a_rule_change_loads_with_the_divergence_report(sw_files, tmp_path):
    rules, pd = sw_files
    s = session_after_a_summon(rules)
    save = tmp_path / "before.json"
    s.handle(f"save {save}")
    set_frost_cost(pd, 3)
    r = load_with_report(save, load_game(str(rules)))
    assert r.diverged_at is not None
    assert "the saved answer 'Summon Frost Mage (cost 1)' is not offered under the current rules" in r.report
    assert r.match.decisions == r.diverged_at - 1


# -- through the terminal, with --watch ----------------------------------------------

@pytest.fixture
def watched(sw_files, play_screen):
    rules, pd = sw_files
    s = play_screen(str(rules), "--watch", "--players", "human:polar_dwarves,random:fallen_kingdom", "--seed", "4")
    s.wait(r"watching [\s\S]*P1>")
    return s, pd


def test_watch_picks_up_a_card_change_and_shows_the_new_value(watched):
    s, pd = watched
    s.mark = len(s.buf)
    set_frost_cost(pd, 0)
    s.wait(r"reloaded in \d+ ms: 1 card changed \(Frost Mage: cost 1 -> 0\)[\s\S]*Summon Frost Mage \(cost 0\)")


def test_a_watched_reload_gives_back_the_line_being_typed(watched):
    s, pd = watched
    s.type("End summon", enter=False)         # half typed when the file changes
    s.mark = len(s.buf)
    set_frost_cost(pd, 0)
    s.wait(r"reloaded in \d+ ms[\s\S]*P1>")
    s.type(" phase")                          # the line goes on where it was
    s.wait(r"P1: End summon phase[\s\S]*Move up to 3 units")
    s.type("End move", enter=False)           # kept over a reload, then cancelled with Ctrl-C
    s.mark = len(s.buf)
    set_frost_cost(pd, 1)
    s.wait(r"reloaded in \d+ ms[\s\S]*P1>")
    s.p.sendcontrol("c")
    s.type("options")
    s.wait(r"Move up to 3 units[\s\S]*P1>")
    assert "neither an option" not in s.text


def test_broken_yaml_shows_the_error_and_the_match_goes_on(watched):
    s, pd = watched
    s.mark = len(s.buf)
    pd.write_text(pd.read_text().replace("    strength: 1\n", "    strength: [1\n", 1))
    s.wait(r"reload failed; the match goes on under the old rules:\s+\S*polar_dwarves.yaml:\d+:\d+: YAML syntax")
    s.type("End summon phase")
    s.wait(r"P1: End summon phase[\s\S]*Move up to 3 units")


def test_watch_reports_a_divergence_and_play_continues_by_hand(watched):
    s, pd = watched
    s.type("Summon Frost Mage (cost 1)")
    s.wait(r"Summon Frost Mage where\?[\s\S]*P1>")
    s.type("1")
    s.wait(r"summons Frost Mage at [\s\S]*P1>")   # (not "P1>" alone: the echo of the answer has it)
    s.mark = len(s.buf)
    set_frost_cost(pd, 2)
    s.wait(words("the replay stopped at decision") + r"\s+\d+:\s+" + words("the answer 'Summon Frost Mage (cost 1)' is not offered "
                                                         "any more. Offered now:")
           + r"[\s\S]*Summon Frost Mage \(cost 2\)[\s\S]*P1>")
    s.type("End summon phase")
    s.wait(r"P1: End summon phase")



def test_a_watched_reload_that_fails_after_its_replay_keeps_the_session(watched):
    """The replay ends, and then the state it leaves cannot be encoded: said, and play goes on."""
    s, pd = watched
    rules = pd.parent.parent.parent / "rules" / "summoner_wars"
    s.mark = len(s.buf)
    edit(rules / "setup.lua", "base_since = v.base_since, base_clock = v.base_clock }\n",
         "base_since = v.base_since, base_clock = v.base_clock }\n"
         "  state.vars.loop = {} state.vars.loop.self = state.vars.loop\n")
    s.wait(r"reload failed; the match goes on under the old rules:\s+cannot encode the data[\s\S]*P1>")
    s.type("End summon phase")
    s.wait(r"P1: End summon phase[\s\S]*Move up to 3 units")

def test_a_burst_of_saves_gives_one_reload(watched):
    s, pd = watched
    rules = pd.parent.parent.parent / "rules" / "summoner_wars"
    s.mark = len(s.buf)
    for f in (pd, rules / "helpers.lua", rules / "phases.lua", pd.parent / "fallen_kingdom.yaml"):
        f.write_text(f.read_text() + "\n")
    s.wait(r"reloaded in \d+ ms: no card changed[\s\S]*P1>")
    # A later save, told apart by what it changes: the watcher reports changes in order, so
    # a second reload from the burst would show before this one.
    set_frost_cost(pd, 0)
    shown = s.wait(r"reloaded in \d+ ms: 1 card changed \(Frost Mage: cost 1 -> 0\)")
    assert len(re.findall(r"reloaded in \d+ ms", shown)) == 2, shown


def test_start_returns_once_the_watcher_is_in_place(monkeypatch, tmp_path):
    """The screen says "watching" when start returns: by then the system's watcher must be
    in place, or a save made right after is missed (it was, on a busy machine). A watcher
    slow to build (a second here) is waited for."""
    import threading
    import time

    from repl import watch as watcher

    built = threading.Event()

    def slow_watch(*paths, stop_event=None, yield_on_timeout=False, **kw):
        time.sleep(1.0)            # building the system's watcher
        built.set()
        assert yield_on_timeout    # how it says it is in place with nothing changed
        while not stop_event.is_set():
            yield set()            # a wake-up with no change: never passed on
            time.sleep(0.05)

    monkeypatch.setattr(watcher, "watch", slow_watch)
    changes = []
    stop = watcher.start([tmp_path], changes.append)
    assert built.is_set()
    time.sleep(0.2)
    stop.set()
    assert changes == []


# -- the watcher thread when the system's file watcher fails ---------------------------

def test_a_failing_system_watcher_falls_back_to_polling_and_says_so(monkeypatch, tmp_path):
    """watchfiles raises OSError when the inotify limits are reached: the watcher polls
    instead and says so, and a failure of polling too stops watching with a message; no
    exception ever leaves the thread."""
    import threading

    from repl import watch as watcher

    calls = []

    def fake_watch(*paths, force_polling=None, stop_event=None, **kw):
        calls.append(force_polling)
        if not force_polling:
            raise OSError("OS file watch limit reached. about [x]")
        yield {("modified", str(tmp_path / "a.yaml"))}

    monkeypatch.setattr(watcher, "watch", fake_watch)
    changes, problems, done = [], [], threading.Event()

    def on_change(c):
        changes.append(c)
        done.set()

    stop = watcher.start([tmp_path], on_change, problems.append)
    assert done.wait(10)
    stop.set()
    assert calls[:2] == [None, True]
    assert changes == [{("modified", str(tmp_path / "a.yaml"))}]
    assert problems == ["the system's file watcher failed (OS file watch limit reached. about [x]); "
                        "watching by polling the folders instead (a save shows a little later)"]

    def always_failing(*paths, force_polling=None, **kw):
        calls.append(force_polling)
        raise OSError("no such folder")
        yield  # noqa (a generator, like watchfiles.watch)

    monkeypatch.setattr(watcher, "watch", always_failing)
    problems.clear()
    stopped = threading.Event()
    watcher.start([tmp_path], on_change, lambda text: (problems.append(text), stopped.set() if
                                                       text.startswith("watching for changes stopped") else None))
    assert stopped.wait(10)
    assert problems[-1] == "watching for changes stopped: no such folder; `reload` still reloads by hand"


# -- what a reload tells a seat, and what it keeps --------------------------------

def session_at_a_bots_magic_discard(rules, designer: bool = False) -> tuple[Session, int]:
    """Player 2 (a bot) has discarded a card for magic before player 1's first decision: the
    session and that decision's number (the first seed from 1 where the bot does so)."""
    for seed in range(1, 40):
        s = Session(Match(load_game(str(rules)), seed, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]),
                    designer=designer)
        s.play_bots()
        n = next((i for i, a in enumerate(s.match.answers, 1) if a.endswith(" for magic")), None)
        if n is not None:
            return s, n
    raise AssertionError("no seed from 1 to 39 has the bot discard for magic first")


def reword_the_magic_discard(rules) -> None:
    """Rewords the magic discard's label, or words it back."""
    f = rules / "phases.lua"
    old, new = '"Discard %s for magic"', '"Discard %s to gain magic"'
    edit(f, *((old, new) if old in f.read_text() else (new, old)))


def test_a_stop_at_another_seats_decision_names_whose_it_is_and_not_its_answer_or_options(sw_files, tmp_path):
    """The bot's magic discard is a secret choice, and what it is offered is its hand: a person
    in fair play reads neither, from a reload or from a load; a designer reads both."""
    rules, _ = sw_files
    s, n = session_at_a_bots_magic_discard(rules)
    secret = s.match.answers[n - 1]
    s.handle(f"save {tmp_path / 'before.json'}")
    reword_the_magic_discard(rules)
    loaded = load_with_report(tmp_path / "before.json", load_game(str(rules)))
    # (a save holds no askers: whose answer it was is not known, so only a designer reads it)
    assert loaded.shows(None) and not loaded.shows(1) and not loaded.shows(2)
    assert f"the replay stopped at decision {n}: the saved answer is not offered under the current rules " \
           "(what it was and what is offered now are shown to a designer only" in loaded.for_seat(1)
    reloaded = s.reload()
    assert f"the replay stopped at decision {n}, one of player 2's" in reloaded, reloaded
    for shown in (reloaded, loaded.for_seat(1)):
        assert secret.removesuffix(" for magic").removeprefix("Discard ") not in shown.split("\n")[0], shown
        assert "to gain magic" not in shown and secret not in shown, shown
    reword_the_magic_discard(rules)           # back as it was, to find the same decision
    d, n = session_at_a_bots_magic_discard(rules, designer=True)
    secret = d.match.answers[n - 1]
    reword_the_magic_discard(rules)
    shown = d.reload()
    assert f"the replay stopped at decision {n}: the answer {secret!r} is not offered any more" in shown, shown
    assert "to gain magic" in shown


def test_a_reload_whose_rules_leave_a_state_that_cannot_be_encoded_keeps_the_old_match(sw_files):
    rules, _ = sw_files
    s = session_after_a_summon(rules)
    before = s.match.state_hash()
    edit(rules / "setup.lua", "base_since = v.base_since, base_clock = v.base_clock }\n",
         "base_since = v.base_since, base_clock = v.base_clock }\n"
         "  state.vars.loop = {} state.vars.loop.self = state.vars.loop\n")
    shown = s.reload()
    assert shown.startswith("reload failed; the match goes on under the old rules:\ncannot encode the data"), shown
    assert "state.vars.loop.self" in shown and s.match.state_hash() == before


def test_a_reload_refuses_a_modifier_that_fails_on_a_card_in_sight_naming_where(sw_files):
    """The screen would show the printed strength as if the modifier were not there, and the
    error would come only when the card next attacks."""
    rules, pd = sw_files
    s = session_after_a_summon(rules)        # a Frost Mage is on the board
    before = s.match.state_hash()
    edit(pd, "          if card ~= self or not self.space then return value end\n",
         "          if card ~= self or not self.space then return value end\n          error('boom')\n")
    line = next(i for i, t in enumerate(pd.read_text().splitlines(), 1) if "error('boom')" in t)
    shown = s.reload()
    assert shown.startswith("reload failed; the match goes on under the old rules:\n"), shown
    assert re.search(rf"the strength of Frost Mage \(card \d+\): \S*polar_dwarves.yaml:{line}: boom", shown), shown
    assert s.match.state_hash() == before


def test_a_reload_keeps_what_undo_took_back(sw_files):
    rules, pd = sw_files
    s = session_after_a_summon(rules)
    s.handle("End summon phase")
    full = list(s.match.answers)
    assert s.handle("undo").startswith("undone")
    pd.write_text(pd.read_text() + "\n# a comment\n")
    assert "the state is as before" in s.reload()
    assert s.handle("redo").startswith("redone") and s.match.answers == full


def test_the_answers_a_reload_kept_are_saved_and_the_log_forgets_what_no_longer_happened(sw_files, tmp_path):
    rules, pd = sw_files
    s, full, n, _ = stopped_at_the_frost_mage(rules, pd)
    assert s.match.decisions == n - 1
    assert all(e.decision <= n - 1 for e in s.log), [(e.decision, e.text) for e in s.log]
    assert "summons Frost Mage" not in "\n".join(s.log_lines())
    saved = s.handle(f"save {tmp_path / 'kept.json'}")
    assert f"and the {len(full) - n + 1} later answers the reload kept" in saved, saved
    set_frost_cost(pd, 1)                      # the old rules: the save holds the whole match
    r = load_with_report(tmp_path / "kept.json", load_game(str(rules)))
    assert r.diverged_at is None and r.match.answers == full
    set_frost_cost(pd, 2)
    r = load_with_report(tmp_path / "kept.json", load_game(str(rules)))
    assert r.diverged_at == n and r.kept == full[n - 1:]


def test_undo_takes_its_decisions_out_of_the_log(sw_files):
    rules, _ = sw_files
    s = session_after_a_summon(rules)
    s.handle("End summon phase")
    assert "P1: End summon phase" in "\n".join(s.log_lines())
    s.handle("undo")
    assert "P1: End summon phase" not in "\n".join(s.log_lines())
    assert all(e.decision <= s.match.decisions for e in s.log)



def test_a_reload_the_matchs_own_option_no_longer_fits_names_the_line_and_the_option(sw_files):
    rules, _ = sw_files
    m = Match(load_game(str(rules)), 4, [Seat(), Seat()], options={"movers": 5})
    line = next(i for i, t in enumerate((rules / "game.yaml").read_text().splitlines(), 1) if t.startswith("  movers:"))
    edit(rules / "game.yaml", "movers: {default: 3, min: 0, max: 30}", "movers: {default: 3, min: 0, max: 4}")
    r = reload_match(m)
    assert r.match is None
    assert f"{rules / 'game.yaml'}:{line}: option movers must be from 0 to 4, not 5: this match was set up " \
           "with movers=5 (by --option, and a save keeps it), which only a new match can change" in r.report, r.report
    # an option whose name is also a field of another (max) is found at its own line
    edit(rules / "game.yaml", "movers: {default: 3, min: 0, max: 4}", "movers: {default: 3, min: 0, max: 30}")
    edit(rules / "game.yaml", "options:                   # each with the range `--option` may set it to\n",
         "options:                   # each with the range `--option` may set it to\n"
         "  first:\n    default: 1\n    max: 2\n  max: {default: 1, min: 0, max: 3}\n")
    at = next(i for i, t in enumerate((rules / "game.yaml").read_text().splitlines(), 1) if t.startswith("  max:"))
    m = Match(load_game(str(rules)), 4, [Seat(), Seat()], options={"max": 3})
    edit(rules / "game.yaml", "  max: {default: 1, min: 0, max: 3}", "  max: {default: 1, min: 0, max: 2}")
    assert f"{rules / 'game.yaml'}:{at}: option max must be from 0 to 2, not 3" in reload_match(m).report


def test_plain_play_with_watch_reloads_before_the_next_line(sw_files):
    """A pipe has no prompt to interrupt: a change is loaded before the next line is read."""
    import sys

    from pexpect.popen_spawn import PopenSpawn

    from conftest import DEADLINE, ROOT
    rules, pd = sw_files
    p = PopenSpawn([sys.executable, "-m", "repl", "play", str(rules), "--watch", "--seed", "4",
                    "--players", "human:polar_dwarves,random:fallen_kingdom"], cwd=str(ROOT), timeout=DEADLINE,
                   encoding="utf-8")
    try:
        p.expect(r"watching .* for changes")
        p.expect(r"P1> ")
        set_frost_cost(pd, 0)              # loaded while the line is awaited: no line needed
        p.expect(r"reloaded in \d+ ms: 1 card changed \(Frost Mage: cost 1 -> 0\)")
        p.expect(r"Summon Frost Mage \(cost 0\)")
        p.expect(r"P1> ")
        p.sendline("Summon Frost Mage (cost 0)")
        p.expect(r"P1: Summon Frost Mage \(cost 0\)")
        isle = Path(pd).parent.parent.parent / "isle.json"
        Match(load_game("summoners_isle"), 1, [Seat("human"), Seat("random")]).save(isle)
        p.sendline(f"load {isle}")         # and the loaded game's folders are watched after
        p.expect(r"watching \S*rules/summoners_isle, \S*cards/summoners_isle for changes")
    finally:
        p.kill(9)


def test_watch_follows_a_load_of_another_games_match(watched, tmp_path):
    s, _ = watched
    isle = tmp_path / "isle.json"
    Match(load_game("summoners_isle"), 1, [Seat("human"), Seat("random")]).save(isle)
    s.type(f"load {isle}")
    s.wait(r"loaded [\s\S]*watching \S*rules/summoners_isle, \S*cards/summoners_isle for changes")



def test_a_reload_veils_a_secret_answer_when_the_new_rules_ask_another_seat_or_nobody_there(tmp_path):
    """Whose answer it was is the old match's asker: under the new rules that decision may be
    another seat's, or the match may end before it."""
    import shutil

    from conftest import ROOT
    for change in ("reversed", "over"):
        d = tmp_path / change / "sealed_bid"
        shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", d)
        s = Session(Match(load_game(str(d)), 7, [Seat("human"), Seat("human")]))
        s.play_bots()
        s.handle("Bid 3")                  # player 1's secret answer
        s.pass_to(2)
        if change == "reversed":           # player 2 bids first, under new labels
            edit(d / "bid.lua", "for _, p in ipairs(players.list()) do\n    local opts = {}",
                 "for _, p in ipairs({2, 1}) do\n    local opts = {}")
            edit(d / "bid.lua", 'label = "Bid " .. n', 'label = "Bid " .. n .. " coins"')
        else:                              # the match ends before anyone bids
            edit(d / "bid.lua", "function bid_phase(round)\n",
                 "function bid_phase(round)\n  if true then end_game(nil, 'short') return end\n")
        shown = s.reload()
        assert "the replay stopped at decision 1, one of player 1's" in shown, (change, shown)
        assert "'Bid 3'" not in shown, (change, shown)   # (the screen after it may offer P2 its own bids)



def test_undo_drops_the_kept_answers(sw_files, tmp_path):
    """Kept answers go on from the decision where the replay stopped: going back past it
    (undo) leaves them behind, and neither save nor a later reload brings them back."""
    rules, pd = sw_files
    golem = "    name: Ice Golem\n    tags: [unit, common, structure, gate]\n    symbols: [dwarf]\n    cost: "
    s = session_after_a_summon(rules)
    s.handle("Summon Ice Golem (cost 2)")
    s.handle("1")
    full = list(s.match.answers)
    k = full.index("Summon Ice Golem (cost 2)") + 1
    edit(pd, golem + "2", golem + "3")
    s.reload()                                  # stops at the Ice Golem: the rest is kept
    assert s.match.decisions == k - 1 and s.kept_answers() == full
    assert s.handle("undo").startswith("undone")
    assert s.kept_answers() == [] and "later answer" not in s.handle(f"save {tmp_path / 's.json'}")
    edit(pd, golem + "3", golem + "2")
    assert "replayed" in s.reload() and s.match.decisions < k - 1
    assert s.handle("redo").startswith("redone") and s.match.answers == full[:k - 1]


def test_play_load_at_a_terminal_keeps_the_answers_a_stopped_replay_did_not_reach(sw_files, play_screen, tmp_path):
    rules, pd = sw_files
    s = session_after_a_summon(rules)
    s.handle("End summon phase")
    full = list(s.match.answers)
    s.handle(f"save {tmp_path / 'full.json'}")
    set_frost_cost(pd, 2)
    t = play_screen(str(rules), "--load", str(tmp_path / "full.json"))
    t.wait(r"the replay stopped at decision \d+[\s\S]*P1>")
    t.type(f"save {tmp_path / 'again.json'}")
    t.wait(words("later answers the reload kept"))
    import json
    assert json.loads((tmp_path / "again.json").read_text())["answers"] == full


def test_in_hot_seat_a_watched_change_waits_for_the_keyboard_to_be_passed(play_screen, tmp_path):
    """Saving a file while "Pass to player N" shows must not end it: N's screen would come up
    for whoever holds the device."""
    import shutil

    from conftest import ROOT
    d = tmp_path / "sealed_bid"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", d)
    t = play_screen(str(d), "--watch", "--players", "human,human", "--seed", "7")
    t.wait(r"Pass to player 1, then press Enter")
    t.type("")
    t.wait(r"P1>")
    t.type("Bid 3")
    t.wait(r"Pass to player 2, then press Enter")
    import pexpect

    from conftest import ANSI
    (d / "bid.lua").write_text((d / "bid.lua").read_text() + "\n-- touched\n")
    until = time.monotonic() + 3                # (a reload would have come by now)
    while time.monotonic() < until:
        try:
            t._take(t.p.read_nonblocking(100000, timeout=0.3))
        except pexpect.TIMEOUT:
            pass
    after = ANSI.sub("", t.buf[t.mark:])
    assert "P2>" not in after and "reloaded" not in after, after
    t.type("")
    t.wait(r"reloaded in \d+ ms[\s\S]*P2>")


def test_play_load_in_a_pipe_stops_at_a_changed_answer_and_shows_it_to_a_designer_only(sw_files, tmp_path):
    from conftest import summon
    rules, pd = sw_files
    s = session_after_a_summon(rules)
    n = s.match.answers.index("Summon Frost Mage (cost 1)") + 1
    s.handle(f"save {tmp_path / 'm.json'}")
    set_frost_cost(pd, 2)
    r = summon("play", str(rules), "--load", str(tmp_path / "m.json"), stdin="")
    assert r.returncode == 1, r.stderr
    assert f"the replay stopped at decision {n}: the saved answer is not offered under the current rules (what " \
           "it was and what is offered now are shown to a designer only" in r.stderr and "Frost Mage" not in r.stderr, \
        r.stderr
    r = summon("play", str(rules), "--load", str(tmp_path / "m.json"), "--designer", stdin="")
    assert r.returncode == 1 and f"decision {n}: the saved answer 'Summon Frost Mage (cost 1)'" in r.stderr, r.stderr


def test_a_stop_at_your_own_answer_where_another_seat_is_now_asked_does_not_list_its_options(sw_files):
    # the new rules no longer ask player 1 in the magic phase: the replay stops at player 1's
    # own answer, and what is pending there is the bot's summon question, whose options name
    # its hand; "Offered now" listed them to player 1
    rules, _ = sw_files
    s = Session(Match(load_game(str(rules)), 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    while not (s.match.view(1)["phase"] == "magic" and s.to_act() == 1):
        s.handle(str(len(s.match.options())))     # (the last option: each phase ends)
    s.handle(str(len(s.match.options())))
    s.handle("auto 3")
    edit(rules / "phases.lua", "function magic_offer(p)\n", "function magic_offer(p)\n  if p == 1 then return nil end\n")
    out = s.handle("reload")
    assert s.to_act() == 2 and "one of yours: the answer 'End magic phase' is not offered any more; the " \
                               "decision there is player 2's now." in out, out
    assert "Offered now" not in out and not any(o in out for o in s.match.options()), out


def test_redo_of_an_answer_a_reload_no_longer_offers_says_so(sw_files):
    # it said "redone 0 decisions" each time, and never why
    rules, cards = sw_files
    s = session_after_a_summon(rules)
    s.handle("undo 2")                           # (the space, then the summon)
    assert s.redo_stack[-1] == "Summon Frost Mage (cost 1)"
    set_frost_cost(cards, 2)
    s.handle("reload")
    said = s.handle("redo")
    assert said.startswith("nothing to redo here: the answer undo took back, ") and "is not offered now" in said, said
    set_frost_cost(cards, 1)
    s.handle("reload")
    assert s.handle("redo").startswith("redone ")       # kept: where it fits again, it is given again


def test_answers_a_reload_gives_back_come_back_to_the_log(sw_files):
    # the match came back whole, but `log` had lost every decision after the stop
    rules, cards = sw_files
    s = session_after_a_summon(rules)
    while s.match.decisions < 30 and s.match.pending is not None:
        s.answer(len(s.match.options()) - 1)
        s.play_bots()
    before, decisions = s.log_lines(), s.match.decisions
    set_frost_cost(cards, 2)
    assert "the replay stopped at decision" in s.handle("reload")
    assert len(s.log_lines()) < len(before)
    set_frost_cost(cards, 1)
    s.handle("reload")
    assert s.match.decisions == decisions
    after = s.log_lines()
    assert after[:len(before)] == before, "\n".join(after)
    answered = {int(m[1]) for line in after if (m := re.match(r"\[(\d+)\] P[12]( \(bot\))?(: | made a secret)", line))}
    assert answered == set(range(1, decisions + 1)), sorted(set(range(1, decisions + 1)) - answered)


def test_a_match_played_from_a_copy_of_a_game_loads_under_that_copy(sw_files, tmp_path):
    # the save named the game's id only: `load` brought it back under the shipped game, where
    # the copy's changed cost no longer fitted (and a later reload read the shipped files)
    rules, cards = sw_files
    set_frost_cost(cards, 0)
    s = Session(Match(load_game(str(rules)), 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    s.handle("Summon Frost Mage (cost 0)")
    s.handle("1")
    s.handle(f"save {tmp_path / 'copy.json'}")
    data = json.loads((tmp_path / "copy.json").read_text())
    assert data["rules"] == str(rules.resolve())
    decisions, state = s.match.decisions, s.match.state_hash()
    said = s.handle(f"load {tmp_path / 'copy.json'}")
    assert said.startswith(f"loaded {tmp_path / 'copy.json'}: summoner_wars, {decisions} decisions"), said
    assert s.match.state_hash() == state and Path(s.match.game.root) == rules.resolve()
    r = summon("replay", str(tmp_path / "copy.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    # a shipped game's save names no folder; one whose folder is gone loads the game by its id
    shipped = Match(load_game("summoner_wars"), 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")])
    assert "rules" not in shipped.to_json()
    for gone in (str(tmp_path / "gone"), str(tmp_path / ("x" * 300))):   # (a name too long: OSError)
        data["rules"] = gone
        (tmp_path / "gone.json").write_text(json.dumps(data))
        assert "not offered under the current rules" in Session(shipped).handle(f"load {tmp_path / 'gone.json'}")


def test_in_hot_seat_redo_gives_back_and_names_an_answer_only_to_its_player(sw_files):
    # player 1 undid a secret magic discard; a reload made the next decision player 2's, and
    # player 2's `redo` named player 1's card ("the answer undo took back, 'Discard X for magic'")
    rules, _ = sw_files
    s = Session(Match(load_game(str(rules)), 4, [Seat("human", "polar_dwarves"), Seat("human", "fallen_kingdom")]))
    while not (s.to_act() == 1 and s.match.view(1)["phase"] == "magic" and len(s.match.options()) > 1):
        if s.to_act() != s.keyboard:
            s.pass_to(s.to_act())
        s.handle(str(len(s.match.options())))
    secret = s.match.options()[0]
    s.handle("1")
    assert s.to_act() == 1 and s.handle("undo").startswith("undone") and s.redo_stack[-1] == secret
    edit(rules / "phases.lua", "function magic_offer(p)\n", "function magic_offer(p)\n  if p == 1 then return nil end\n")
    s.handle("reload")
    assert s.to_act() == 2 and s.redo_stack
    s.pass_to(2)
    said = s.handle("redo")
    assert said == "nothing to redo here (what undo took back was player 1's, and it is not asked now)", said
    assert secret.removesuffix(" for magic").removeprefix("Discard ") not in said and s.to_act() == 2
