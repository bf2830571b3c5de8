"""Results of more than one winner: a team's win (end_game({1, 3})), a game nobody won
(end_game({})), and a cooperative game (game.yaml `players: cooperative`), whose bots
play as one team and whose balance report says how often the team won."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT, summon
from engine.bots import MctsBot, bots_for
from engine.errors import ScriptError
from engine.lab import summarise
from engine.loader import load_game
from engine.match import Match, Seat, play

TEAM_UP = str(ROOT / "tests" / "games" / "team_up")


@pytest.fixture(scope="module")
def team_up():
    return load_game(TEAM_UP)


def ended(game, ending: str, seats: int = 3) -> Match:
    """A match of Team Up that its rules end at the first answer, as the option `ending` says."""
    m = Match(game, 1, [Seat("human")] * seats, quiet=False, options={"ending": ending})
    m.messages()
    m.answer_key("Push")
    return m


def test_a_team_wins_together_and_the_others_lose(team_up):
    m = ended(team_up, "pair")   # end_game({3, 1})
    assert m.is_over and m.winners == [1, 3] and m.winner is None
    assert [m.evaluate(s) for s in (1, 2, 3)] == [1.0, -1.0, 1.0]
    assert m.messages()[-1] == "Game over: players 1 and 3 win"
    assert m.view(2)["winners"] == [1, 3]


@pytest.mark.parametrize("ending, winners, said", [
    ("nobody", [], "nobody wins"),                  # end_game({})
    ("everyone", [1, 2, 3], "everyone wins"),       # end_game(players.list())
    ("two", [2], "player 2 wins"),                  # end_game({2})
    ("plain_two", [2], "player 2 wins"),            # end_game(2)
    ("option", [1, 3], "players 1 and 3 win"),      # end_game(options.team): a read-only list was refused
    ("draw", None, "draw"),                         # end_game(nil)
])
def test_every_kind_of_result_says_who_won(team_up, ending, winners, said):
    m = ended(team_up, ending)
    assert m.is_over and m.winners == winners and m.messages()[-1] == f"Game over: {said}"
    assert m.winner == (winners[0] if winners and len(winners) == 1 else None)
    assert m.evaluate(1) == (0.0 if winners is None else 1.0 if 1 in winners else -1.0)


@pytest.mark.parametrize("ending, said", [
    ("twice", "end_game: player 1 is named twice among the winners"),
    ("stranger", "end_game: each winner must be a player from 1 to 3, not 7"),
    ("keyed", "end_game: the winners must be a list of players, {1, 3} say"),
    ("text", "end_game: the winner must be a player from 1 to 3, a list of players, or nil for a draw"),
    ("card", "end_game: the winners must be a list of players, {1, 3} say, not a table"),   # (the option picked)
])
def test_a_bad_team_is_an_error_at_the_line_that_named_it(team_up, ending, said):
    lines = (ROOT / "tests" / "games" / "team_up" / "team.lua").read_text().splitlines()
    at = next(n for n, line in enumerate(lines, 1) if f'options.ending == "{ending}"' in line or "end_game(ENDINGS[" in line)
    m = Match(team_up, 1, [Seat("human")] * 3, quiet=True, options={"ending": ending})
    with pytest.raises(ScriptError) as e:
        m.answer_key("Push")
    assert f"team.lua:{at}: {said}" in str(e.value), str(e.value)


def test_a_cooperative_games_search_bots_play_as_one_team(team_up):
    """Each seat's search took the others for opponents, who would answer what is worst
    for it: in Team Up, where only all pushing wins, it saw no way to win by pushing."""
    from engine.match import Ask

    def root(team: bool) -> dict:
        m = Match(team_up, 1, [Seat("mcts:60"), Seat("mcts:60")], quiet=True).keep_checkpoints()
        bot = MctsBot(1, 1, 60, allies=frozenset({2}) if team else frozenset(), minimax=1.0)   # (by each chooser's best)
        bot.decide(Ask(m))
        return {label: (child.visits, child.best) for label, child in bot.last_root.children.items()}
    alone, together = root(False), root(True)
    assert alone["Push"][1] == 0.0 and together["Push"][1] == 1.0, (alone, together)
    assert together["Push"][0] > 5 * together["Rest"][0], together
    won = []
    for seed in range(1, 4):
        m = Match(team_up, seed, [Seat("mcts:60"), Seat("mcts:60")], quiet=True)
        bots = bots_for(m)
        assert [b.allies for b in bots.values()] == [frozenset({2}), frozenset({1})]
        play(m, bots)
        won.append(m.winners)
    assert won == [[1, 2]] * 3


def test_sim_counts_a_win_for_each_winner_and_a_cooperative_games_team(tmp_path):
    r = summon("sim", TEAM_UP, "--games", "6", "--players", "mcts:40,random", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    winners = [g["winners"] for g in out["results"]]
    assert all(w in ([], [1, 2]) for w in winners) and [1, 2] in winners and [] in winners, winners
    won = sum(w == [1, 2] for w in winners)
    s = out["summary"]
    assert s["team"]["wins"] == won and s["team"]["games"] == 6 and s["won_by_nobody"] == 6 - won
    assert [x["wins"] for x in s["seats"]] == [won, won] and s["draws"] == 0
    assert {x["verdict"] for x in s["seats"]} == {"one team: no side to favour"}
    text = summon("sim", TEAM_UP, "--games", "6", "--players", "mcts:40,random").stdout
    assert f"the team won {won} of 6 decided games" in text and f"won by nobody (end_game({{}})): {6 - won}" in text


def test_a_team_result_in_a_game_of_sides_counts_a_win_for_each_of_its_seats():
    """Two against two: each seat of the winning team has won that game."""
    results = [{"finished": True, "winner": None, "winners": [1, 3], "opener": 1, "seating": [0, 1, 2, 3],
                "decisions": 9},
               {"finished": True, "winner": 4, "winners": [4], "opener": 2, "seating": [0, 1, 2, 3], "decisions": 9},
               {"finished": True, "winner": None, "opener": 2, "seating": [0, 1, 2, 3], "decisions": 9}]
    s = summarise(results, ["a", "b", "c", "d"], 4)
    assert [x["wins"] for x in s["seats"]] == [1, 0, 1, 1] and s["decided"] == 2 and s["draws"] == 1
    assert s["first_player"]["wins"] == 1 and "team" not in s


def test_a_fair_game_of_two_teams_is_fair_for_every_seat():
    """Each winner counted against a fair share of one win a game in four put every seat of a
    fair two-against-two game at "favoured": a game of teams of two hands out two wins."""
    results = [{"finished": True, "winner": None, "winners": [1, 3] if k % 2 else [2, 4], "opener": 1 + k % 4,
                "seating": [0, 1, 2, 3], "decisions": 9} for k in range(40)]
    s = summarise(results, ["a", "b", "c", "d"], 4)
    assert s["fair_share"] == 0.5 and s["winners_per_game"] == 2
    assert [x["rate"] for x in s["seats"]] == [0.5] * 4
    assert {x["verdict"] for x in s["seats"]} == {"no evidence of imbalance at this sample size"}


@pytest.mark.parametrize("call, said", [
    ("win({1, 3}, 'x')", "win: the winner must be a player from 1 to 3, not table (a team wins with "
                         "end_game({1, 3}))"),
    ("win(1, 5)", "win: the reason must be text, not a number"),
    ("win(9)", "win: the winner must be a player from 1 to 3, not 9"),
])
def test_win_says_its_own_mistakes_at_the_line_that_made_them(team_up, tmp_path, call, said):
    """win({1, 3}) named a table by its address, and win(1, 5) was said as end_game's error
    inside the engine's own file."""
    import shutil
    game = tmp_path / "team_up"
    shutil.copytree(TEAM_UP, game)
    team = game / "team.lua"
    team.write_text(team.read_text().replace('if options.ending == "draw" then end_game(nil) end',
                                             f'if options.ending == "draw" then {call} end'))
    at = next(n for n, line in enumerate(team.read_text().splitlines(), 1) if call in line)
    m = Match(load_game(str(game)), 1, [Seat("human")] * 3, quiet=True, options={"ending": "draw"})
    with pytest.raises(ScriptError) as e:
        m.answer_key("Push")
    assert f"team.lua:{at}: {said}" in str(e.value), str(e.value)
    assert "0x" not in str(e.value) and "engine/lua" not in str(e.value)


def test_teams_declared_for_a_count_of_seats_make_teammates_allies(tmp_path):
    """A game of two against two: each search bot took its teammate for an opponent. Teams
    in game.yaml, [[1, 3], [2, 4]], apply to a match of four seats; other counts have none."""
    import shutil
    game = tmp_path / "team_up"
    shutil.copytree(TEAM_UP, game)
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("cooperative: true}", "teams: [[1, 3], [2, 4]]}"))
    g = load_game(str(game))
    four = bots_for(Match(g, 1, [Seat("mcts")] * 4, quiet=True))
    assert [b.allies for b in four.values()] == [frozenset({3}), frozenset({4}), frozenset({1}), frozenset({2})]
    three = bots_for(Match(g, 1, [Seat("mcts")] * 3, quiet=True))
    assert [b.allies for b in three.values()] == [frozenset()] * 3
    yaml.write_text(yaml.read_text().replace("teams: [[1, 3], [2, 4]]", "teams: [[1, 3], [3, 5]]"))
    r = summon("check", str(game))
    assert r.returncode == 1
    assert "players: teams name seat 3 twice (a seat is on one team)" in r.stdout
    assert "players: teams name seat 5, but players are at most 4" in r.stdout, r.stdout


@pytest.mark.parametrize("ending, reason, said", [
    ("two", "highest score", "player 2 wins (highest score)"),
    ("pair", "highest score", "players 1 and 3 win (highest score)"),
    ("two", "Player 2 scores most", "Player 2 scores most"),          # (it names the winner)
    ("pair", "players 1 and 3 hold the hill", "players 1 and 3 hold the hill"),
    ("pair", "player 1 holds the hill", "players 1 and 3 win (player 1 holds the hill)"),
    ("nobody", "the time ran out", "the time ran out"),
    ("two", "Player 1 holds 2 cards fewer", "player 2 wins (Player 1 holds 2 cards fewer)"),   # (a 2 that names no player)
    # (a review: "player" names one, however many numbers follow)
    ("two", "Player 1 and 2 others were wiped out", "player 2 wins (Player 1 and 2 others were wiped out)"),
])
def test_a_reason_that_names_no_winner_follows_who_won(tmp_path, ending, reason, said):
    """From a modder's trial: win(p, reason) and end_game(list, reason) ended with the
    reason alone, "Game over: highest score", and never said who won."""
    import shutil
    game = tmp_path / "team_up"
    shutil.copytree(ROOT / "tests" / "games" / "team_up", game)
    lua = game / "team.lua"
    lua.write_text(lua.read_text().replace("end_game(ENDINGS[options.ending])",
                                           f"end_game(ENDINGS[options.ending], {json.dumps(reason)})"))
    m = Match(load_game(str(game)), 1, [Seat("human")] * 3, quiet=False, options={"ending": ending})
    m.messages()
    m.answer_key("Push")
    assert m.messages()[-1] == f"Game over: {said}"
