"""The `summon` command line, run as a user runs it."""
from __future__ import annotations

import json
import re
import sys

import pytest

from conftest import ROOT, SHIPPED_GAMES, summon
from engine.match import Match, RandomBot, Seat, load_match, play


def test_list_shows_games_and_factions():
    r = summon("list")
    assert r.returncode == 0
    assert "summoner_wars" in r.stdout and "polar_dwarves" in r.stdout and "fallen_kingdom" in r.stdout


def test_list_with_a_game_shows_each_card_as_printed_under_its_id_and_each_deck():
    """What a deck builder needs: the ids a deck file names, and the cards they stand for."""
    from engine import yamlio
    core = yamlio.load(ROOT / "cards" / "summoner_tcg" / "core.yaml", "core.yaml")[0].data
    r = summon("list", "summoner_tcg")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "summoner_tcg  Summoner TCG, 2-6 players"
    assert f"  core  Core Set ({len(core['cards'])} cards; a pool that decks draw on)" in out
    for card in core["cards"]:
        at = out.index(f"    {card['id']}  {card['name']}: {', '.join(card['tags'])}")
        assert out[at + 1].startswith(f"      cost {card['cost']}")
    ember = yamlio.load(ROOT / "cards" / "summoner_tcg" / "ember.yaml", "ember.yaml")[0].data
    r = summon("list", "summoner_tcg", "ember")
    lines = r.stdout.splitlines()
    assert lines[1] == f"  ember  Ember Pack (a deck of {sum(e['copies'] for e in ember['deck'])} cards)"
    listed = " ".join(line.strip() for line in lines[2:]).split(", ")   # an entry is never split over lines
    assert listed == [f"{e['copies']} {e['card']}" for e in ember["deck"]]
    sw = summon("list", "summoner_wars", "polar_dwarves").stdout
    assert re.search(r"^    dwarf_gate  Gate: structure, gate\n      life 5, cost 0, copies 3$", sw, re.M)
    # a list of numbers is said with what the game.yaml field says they are
    troll = summon("list", "summonaria", "tribes_of_pain").stdout
    assert re.search(r"^      cost \d/\d/\d \(primary, secondary, tertiary resources to summon it\)$", troll, re.M)
    bad = summon("list", "summoner_wars", "polar_dwarfs")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error: summoner_wars has no card set 'polar_dwarfs' (did you mean 'polar_dwarves'?)")


def test_sim_json_has_the_documented_fields_and_is_deterministic():
    a = summon("sim", "summoner_wars", "--games", "6", "--seed", "5", "--json")
    b = summon("sim", "summoner_wars", "--games", "6", "--seed", "5", "--json", "--jobs", "2")
    assert a.returncode == 0, a.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    for k in ("game", "seed", "games", "finished", "wins", "decisions", "seconds", "results"):
        assert k in ja
    assert ja["games"] == 6 and ja["finished"] == 6
    assert sum(ja["wins"].values()) + ja["draws"] == 6
    assert set(ja["wins"]) == {"fallen_kingdom", "polar_dwarves"}
    assert ja["decisions"] == sum(r["decisions"] for r in ja["results"])
    assert [r["seed"] for r in ja["results"]] == [5, 6, 7, 8, 9, 10]
    for j in (ja, jb):   # the time each took is all that may differ
        j.pop("seconds"), j.pop("bots")
        for r in j["results"]:
            assert len(r.pop("thinking")) == 2
    assert ja == jb


def test_play_with_bots_prints_the_game_and_the_winner(sw):
    r = summon("play", "summoner_wars", "--players", "random,random", "--seed", "2")
    assert r.returncode == 0, r.stderr
    assert "P1 (bot):" in r.stdout and "P2 (bot):" in r.stdout
    # the same seeded bots, played here, give the winner the program names
    m = play(Match(sw, 2, [Seat("bot"), Seat("bot")], quiet=True), {1: RandomBot(2, 1), 2: RandomBot(2, 2)})
    assert r.stdout.splitlines()[-1] == f"The match is over: Player {m.winner} wins: the other summoner has fallen"


def test_play_as_a_human_through_a_pipe_with_numbers_and_labels(tmp_path):
    save = tmp_path / "s.json"
    r = summon("play", "summoner_wars", "--players", "human:polar_dwarves,random:fallen_kingdom", "--seed", "4",
               stdin=f"99\nEnd summon\n1\nsave {save}\nquit\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "  1. " in out and "P1> " in out
    assert "no option 99" in out
    data = json.loads(save.read_text())
    assert f"saved {len(data['answers'])} decisions to {save}" in out
    assert data["seats"] == ["human:polar_dwarves", "random:fallen_kingdom"]
    # "End summon" named an option by its start, "1" the first option of the move phase
    assert data["answers"][-2:] == ["End summon phase", "Move Svara at d1"]


def test_replay_json_gives_the_hash_of_the_saved_match(tmp_path):
    save = tmp_path / "g.json"
    r = summon("play", "summoner_wars", "--players", "human,random", "--seed", "6",
               stdin=f"1\n1\n1\nsave {save}\nquit\n")
    assert r.returncode == 0, r.stderr
    out = summon("replay", str(save), "--json")
    assert out.returncode == 0, out.stderr
    j = json.loads(out.stdout)
    assert j["hash"] == load_match(save).state_hash()
    text = summon("replay", str(save)).stdout.splitlines()
    assert re.fullmatch(r"\s+a\s+b\s+c\s+d\s+e\s+f\s*", text[0])      # the board comes first
    assert text[-1] == f"hash {j['hash']}"


def test_replay_of_a_game_of_rounds_says_its_round(tmp_path):
    """A game played in rounds has no turns: replay said `turn 0`."""
    from engine.match import Match, Seat
    from engine.loader import load_game
    m = Match(load_game(str(ROOT / "tests" / "games" / "tiny_graph")), 3, [Seat("random"), Seat("random")], quiet=True)
    m.rollout(seed=1, max_decisions=7)
    save = tmp_path / "tiny.json"
    m.save(save)
    round_now = m.snapshot()["round"]
    out = summon("replay", str(save))
    assert out.returncode == 0, out.stderr
    assert f"Tiny Graph: decision {m.decisions}, round {round_now}\n" in out.stdout, out.stdout


def test_unknown_game_is_a_message_not_a_traceback():
    r = summon("play", "summoner_war", "--players", "random,random")
    assert r.returncode == 1
    assert "no game called 'summoner_war'" in r.stderr and "summoner_wars" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_save_file_is_a_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    r = summon("replay", str(bad))
    assert r.returncode == 1 and "not a saved match" in r.stderr and "Traceback" not in r.stderr
    # a file cut short inside a text: said so (Python's words ended "starting at")
    bad.write_text('{"format": "summon-match/1",\n "game": "summ')
    r = summon("replay", str(bad))
    assert f"{bad}:2:10: not a saved match (JSON: Unterminated string starting here; is the file cut short?)" \
        in r.stderr, r.stderr


def test_check_passes_on_the_shipped_games():
    r = summon("check", *SHIPPED_GAMES)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "ok: " + ", ".join(SHIPPED_GAMES)   # no notes either: each has its evaluation


# `summon eval GAME EXPR` runs `return EXPR`: a tail call, after which Lua keeps no line for
# the code that made it. One line of code can only have failed on line 1.
@pytest.mark.parametrize("code, message", [
    ('error("x", 2)', "eval:1: x"),
    ('string.rep("x", 1e10)', "eval:1: string.rep: result of 10000000000 bytes is too large"),
    ("board.distance('a0', 'a1')", "eval:1: board.distance: no space called 'a0' (did you mean 'a1'?)"),
    ('return ("x"):rep({})', "eval:1: bad argument #2 to 'string.rep' (number expected, got table)"),
    ('local function f() return ("x"):rep({}) end return f()',
     "eval:1: bad argument #2 to 'string.rep' (number expected, got table)"),
    # a message naming a player's zone (hand:1: ...) is no place: it was left with none
    ('cards.to_zone(zones.cards(1, "draw")[1], 1, "hand", 99)',
     "eval:1: cards.to_zone: position 99 is not in hand:1: it takes 1 (the bottom) to 6 (the top)"),
])
def test_eval_of_one_line_names_line_1_after_a_tail_call(code, message):
    r = summon("eval", "summoner_wars", code)
    assert r.returncode == 1 and r.stderr.strip() == "error: " + message, r.stderr


def test_eval_of_several_lines_names_no_line_it_cannot_know():
    r = summon("eval", "summoner_wars", 'local s = 1\nreturn string.rep("x", 1e10)')
    assert r.returncode == 1 and r.stderr.strip() == "error: string.rep: result of 10000000000 bytes is too large"


def test_eval_prints_results_and_fails_with_file_and_line():
    r = summon("eval", "summoner_wars", "board.distance('a1', 'c3'), magic(1) + magic(2)")
    assert r.returncode == 0 and r.stdout.split() == ["4", "5"]
    r = summon("eval", "summoner_wars", "cards.on_board()[1].zone")
    assert r.returncode == 0 and r.stdout.strip() == "board"
    r = summon("eval", "summoner_wars", "local t = nil; return t.x")
    assert r.returncode == 1 and "eval:1: attempt to index a nil value" in r.stderr
    assert "Traceback" not in r.stderr


def test_piped_play_shows_the_final_screen_once():
    """The answer that ends the match shows the screen with its reply; the end of the run
    showed it again."""
    r = summon("play", "summoner_wars", "--players", "human,random", "--seed", "3", stdin="auto 400\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("The match is over: ") == 1, r.stdout[-3000:]


def test_replay_of_a_game_of_rounds_names_the_player_asked():
    """It named state.active, which a game of rounds leaves to its rules: player 1 to play,
    when player 2 was asked."""
    from engine.loader import load_game
    from engine.match import Match, Seat
    from repl.render import render_state
    m = Match(load_game(str(ROOT / "tests" / "games" / "team_up")), 1, [Seat("human")] * 3, quiet=True)
    m.answer_key("Push")
    assert m.pending.player == 2 and m.snapshot().get("active") != 2
    assert render_state(m, None).endswith("player 2 to play")


def test_piped_play_reads_commands_after_the_end(tmp_path):
    """From a modder's trial: piped, the session left at the end and a `save` after it was
    dropped; at a terminal it works."""
    save = tmp_path / "end.json"
    game = str(ROOT / "tests" / "games" / "team_up")
    r = summon("play", game, "--players", "human,human", "--seed", "1", stdin="Push\n" * 4 + f"save {save}\n")
    assert r.returncode == 0, r.stderr
    assert "Game over" in r.stdout and save.is_file(), r.stdout[-500:]
    assert json.loads(save.read_text())["answers"][:4] == ["Push"] * 4


def test_an_answer_after_the_end_says_what_can_still_be_typed():
    """A person typing an option after the end was offered quit, save, undo and load only,
    though log, card and lua work too (a review of piped play after the end)."""
    from engine.loader import load_game
    from engine.match import Match, Seat
    from repl.session import Session
    s = Session(Match(load_game(str(ROOT / "tests" / "games" / "team_up")), 1, [Seat("human")] * 2))
    for _ in range(4):
        s.handle("Push")
    assert s.match.pending is None
    said = s.handle("Push")
    assert said.startswith("the match is over; type quit, save FILE, undo, load FILE, or log, card, lua"), said
    assert not s.handle("log").startswith("error")


def test_piped_play_stops_reading_at_an_answer_after_the_end(tmp_path):
    """A review: input that answers on and on (`yes 2 | summon play ...`) was read for
    ever after the end, each line told the match was over. An answer after the end ends
    the reading, and says so; the commands before it ran."""
    import subprocess
    game = str(ROOT / "tests" / "games" / "team_up")
    save = tmp_path / "end.json"
    r = summon("play", game, "--players", "human,human", "--seed", "1",
               stdin="Push\n" * 4 + f"save {save}\n" + "Push\n" * 3 + f"save {tmp_path / 'later.json'}\n")
    assert r.returncode == 0, r.stderr
    assert save.is_file() and not (tmp_path / "later.json").exists()
    assert r.stdout.count("is no command, so the rest of the input is not read") == 1, r.stdout[-800:]
    endless = subprocess.run(f"yes Push | {sys.executable} -m repl play {game} --players human,human --seed 1",
                             shell=True, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert endless.returncode == 0 and "Game over" in endless.stdout, endless.stderr[-500:]
    assert endless.stdout.count("the match is over") <= 1, endless.stdout[-800:]
