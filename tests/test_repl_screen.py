"""The screen a player reads (issue 19), through a pseudo-terminal where a person would see it,
and through Session where a plain function is enough."""
from __future__ import annotations

import json
import re

import pexpect
import pytest

from engine.match import Match, Seat
from repl.session import Session

GAME = ["summoner_wars", "--players", "human:polar_dwarves,random:fallen_kingdom", "--seed", "4"]
COLUMNS = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s*$", re.M)   # the grid's column line, top and bottom


def boards(text: str) -> int:
    """How many boards a stretch of the screen shows (each has its column line twice)."""
    return len(COLUMNS.findall(text)) // 2


@pytest.fixture
def screen(play_screen):
    s = play_screen(*GAME)
    s.wait(r"P1>")
    return s


@pytest.fixture
def session(sw):
    s = Session(Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    return s


# -- bugs ------------------------------------------------------------------------------

def test_auto_never_stops_in_a_bots_turn(session):
    # auto 1 at a time through three turns of each side: every stop is the person's decision
    seen = set()
    while session.match.decisions < 90 and session.match.pending is not None:
        session.handle("auto 1")
        seen.add(session.to_act())
        assert session.to_act() in (1, None), f"auto stopped at decision {session.match.decisions} for P2"
    assert seen == {1}


def test_a_person_cannot_answer_for_a_bot(sw):
    s = Session(Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    assert s.to_act() == 2                      # the bot plays first; nothing has let it yet
    n = s.match.decisions
    out = s.handle("1")
    assert "P2 is a bot: type bot to let it answer, or auto N" in out
    assert s.match.decisions == n


def test_auto_shows_the_board_once_and_stops_at_the_persons_decision(screen):
    screen.type("auto 12")
    text = screen.wait(r"P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert boards(text) == 1
    assert "(a bot) is to answer" not in text


def test_load_shows_the_board_once(screen, tmp_path):
    save = tmp_path / "m.json"
    screen.type(f"save {save}")
    screen.wait(r"saved \d+ decisions")
    screen.type(f"load {save}")
    text = screen.wait(r"loaded [\s\S]*P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert boards(text) == 1


def test_quit_offers_to_save(screen, tmp_path):
    screen.type("End summon phase")
    screen.wait(r"Move up to 3 units[\s\S]*P1>")
    screen.type("quit")
    screen.wait("Save before quitting")
    save = tmp_path / "quit.json"
    screen.type(str(save))
    screen.p.expect(pexpect.EOF)
    assert json.loads(save.read_text())["answers"][-1] == "End summon phase"


def test_play_without_a_seed_picks_one_and_names_it_at_the_end(play_screen, tmp_path):
    seeds = []
    for _ in range(2):
        s = play_screen("summoner_wars", "--players", "human:polar_dwarves,random:fallen_kingdom")
        s.wait(r"P1>")
        assert "seed" not in s.text.lower()      # fair play: not at the start
        save = tmp_path / f"s{len(seeds)}.json"
        s.type("quit")
        s.wait("Save before quitting")
        s.type(str(save))
        s.wait(r"this match was seed (\d+): `summon play summoner_wars --seed \1`")
        seed = int(re.search(r"this match was seed (\d+)", s.text).group(1))
        assert json.loads(save.read_text())["seed"] == seed
        seeds.append(seed)
    assert seeds[0] != seeds[1]     # 1 in 2^31 to fail by chance


# -- counters as players count them, and the seat being asked -------------------------------

def test_summoner_wars_counts_each_players_own_turns_and_shows_the_summoners_life(screen):
    # P2 played turn 1 of the match; P1's first turn is the match's second
    assert "P1's turn 1 | life " in screen.text
    assert re.search(r"P1's turn 1 \| life [^|]*Svara 12/12", screen.text)
    screen.type("End summon phase")
    screen.wait(r"Move up to 3 units[\s\S]*P1>")
    screen.type("auto 30")
    text = screen.wait(r"P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert "P1's turn 2 |" in text


def test_summoners_isle_shows_the_round_energy_and_the_seat_asked(play_screen):
    s = play_screen("summoners_isle", "--players", "random,human,random", "--seed", "3")
    text = s.wait(r"P2 \(you\):[^\n]*\n[\s\S]*P2>")
    status = [line for line in text.splitlines() if "to act" in line][-1]
    assert re.search(r"round 1 of 6 \| energy P1 \d+, P2 \d+, P3 \d+ \(36 wins\) \| phase \w+ \| P2 to act", status)
    assert "turn 0" not in text and "player 1 to play" not in text


def test_the_toolbar_is_the_games_and_built_from_the_seats_view(sw):
    # every shipped game declares one; it runs on the seat's view (no hidden card reaches it)
    from engine.loader import load_game
    for gid in ("summoner_wars", "summoners_isle", "summonaria", "summoner_tcg"):
        game = load_game(gid)
        assert game.data["display"]["toolbar"]
        s = Session(Match(game, 5, [Seat("human"), Seat("random")]))
        s.play_bots()
        bar = s.toolbar()
        assert bar.startswith(game.name + " | ") and f"P{s.to_act()} to act" in bar
        assert "failed" not in bar
