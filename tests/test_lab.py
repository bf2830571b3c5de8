"""The balance lab: Wilson intervals, what a tournament's results say, the report's files,
sweeps (--vary), --precision, progress, plays counted per card, and the Ray backend."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from conftest import ROOT, copy_game, summon
from engine.errors import EngineError
from engine.lab import card_rates, parse_vary, summarise, variations, widest, with_card_stats
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play
from engine.stats import Rate, difference, wilson
from repl import progress

# -- the Wilson interval ------------------------------------------------------------------


@pytest.mark.parametrize("wins, games, low, high", [
    (5, 10, 0.2366, 0.7634),      # the textbook 50% of ten
    (0, 10, 0.0, 0.2775),         # none: the interval still reaches 28%
    (10, 10, 0.7225, 1.0),
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_gives_the_published_intervals(wins, games, low, high):
    lo, hi = wilson(wins, games)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_wilson_knows_nothing_without_trials_and_refuses_impossible_counts():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


# Newcombe (1998), "Interval estimation for the difference between independent proportions",
# Table II, method 10 (the hybrid score interval, no continuity correction)
@pytest.mark.parametrize("s1, n1, s2, n2, low, high", [
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (6, 7, 2, 7, 0.0582, 0.8062),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (0, 10, 0, 20, -0.1611, 0.2775),
    (0, 10, 0, 10, -0.2775, 0.2775),
    (10, 10, 0, 20, 0.6791, 1.0),
    (10, 10, 0, 10, 0.6075, 1.0),
])
def test_difference_gives_the_published_intervals(s1, n1, s2, n2, low, high):
    lo, hi = difference(s1, n1, s2, n2)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)
    # the other way round: the same interval, negated
    lo2, hi2 = difference(s2, n2, s1, n1)
    assert lo2 == pytest.approx(-hi, abs=1e-12) and hi2 == pytest.approx(-lo, abs=1e-12)


def test_difference_knows_nothing_without_trials():
    assert difference(0, 0, 3, 10) == (-1.0, 1.0) and difference(3, 10, 0, 0) == (-1.0, 1.0)


@pytest.mark.parametrize("wins, games, words", [
    (62, 100, "favoured, 95% CI 52-71%"),
    (38, 100, "disfavoured, 95% CI 29-48%"),
    (55, 100, "no evidence of imbalance at this sample size"),
    (0, 0, "no games decided"),
])
def test_a_verdict_says_whether_the_interval_leaves_out_a_fair_share(wins, games, words):
    assert Rate(wins, games).verdict(0.5) == words


@pytest.mark.parametrize("wins, games, fair, words", [
    # 10.18-49.50%: rounded to 4 places and then to points it read "disfavoured, 95% CI 10-50%"
    (4, 16, 1 / 2, "disfavoured, 95% CI 10-49%"),
    (12, 16, 1 / 2, "favoured, 95% CI 51-90%"),
    # the exact upper bound 33.335% holds the fair third: rounded to 4 places it did not
    (3, 22, 1 / 3, "no evidence of imbalance at this sample size"),
    # a bound that rounds onto the fair share gets a decimal: 50.2, not 50
    (60, 100, 1 / 2, "favoured, 95% CI 50.2-69%"),
    (264, 575, 1 / 2, "disfavoured, 95% CI 42-49.9999%"),     # (a hair from the share: as many as it takes)
])
def test_a_verdict_and_its_interval_never_contradict_each_other(wins, games, fair, words):
    from engine.stats import interval_text
    assert Rate(wins, games).verdict(fair) == words
    assert interval_text(*wilson(3, 22), 1 / 3) == "5-33.335"    # (33 would put it below a third)
    assert interval_text(*wilson(4, 16)) == "10-49"


def test_the_table_shows_the_seats_when_they_are_not_the_entrants():
    """With --swap the seats' rates (a seat that wins more) were only in --json."""
    from repl.report import sides
    swapped = [result(i, 1 + (i % 3 == 0), seating=(i % 2, 1 - i % 2)) for i in range(12)]
    summary = summarise(swapped, ["x", "y"], 2)
    names = [n for n, _ in sides(summary)]
    assert names[-3:] == ["seat 1", "seat 2", "first player"] and summary["seats"][0]["wins"] == 8
    fixed = summarise([result(i, 1 + (i % 3 == 0)) for i in range(12)], ["x", "y"], 2)
    assert "seat 1" not in [n for n, _ in sides(fixed)]        # (each entrant always sat in its own seat)
    # swapped, the seats are shown even when their counts happen to equal the entrants'
    even = summarise([result(0, 1), result(1, 1), result(2, 2, seating=(1, 0)), result(3, 1, seating=(1, 0))],
                     ["x", "y"], 2)
    assert [(r["wins"], r["games"]) for r in even["entrants"].values()] == [(3, 4), (1, 4)] == [
        (r["wins"], r["games"]) for r in even["seats"]]
    assert [n for n, _ in sides(even)][-3:] == ["seat 1", "seat 2", "first player"]


def test_a_sweep_of_list_values_and_its_charts_bins():
    """--vary split its values at every comma, so a list option could not be varied; a sweep's
    length histograms each had bins of their own."""
    assert parse_vary(["domains_2=[sw, ne],[se, nw]", "name='a,b',c"]) == [
        ("domains_2", [["sw", "ne"], ["se", "nw"]]), ("name", ["a,b", "c"])]
    assert parse_vary(["motto=don't,won't,it's fine"]) == [("motto", ["don't", "won't", "it's fine"])]
    assert parse_vary(["motto='don''t, stop',go"]) == [("motto", ["don't, stop", "go"])]
    assert parse_vary(['motto="say \\"hi, there\\"",go']) == [("motto", ['say "hi, there"', "go"])]
    assert parse_vary(['motto="a\\\\",go']) == [("motto", ["a\\", "go"])]
    from repl.report import _histograms, label
    runs = [{"variation": {"domains_2": ["sw", "ne"]}, "results": [{"turns": t} for t in (3, 5, 9)],
             "summary": {"length": {"turns": {}}}},
            {"variation": {"domains_2": ["se", "nw"]}, "results": [{"turns": t} for t in (12, 40)],
             "summary": {"length": {"turns": {}}}}]
    a, b = _histograms(runs, "turns")
    assert a["edges"] == b["edges"] and a["edges"][0] == 3 and a["edges"][-1] >= 40
    assert sum(a["counts"]) == 3 and sum(b["counts"]) == 2
    assert label(runs[0]) == "domains_2=[sw, ne]"


# -- what results say -----------------------------------------------------------------------

def result(seed, winner, finished=True, seating=(0, 1), sets=("a", "b"), plays=None, decisions=10, turns=2,
           rounds=0, opener=1):
    return {"seed": seed, "winner": winner, "finished": finished, "seating": list(seating), "sets": list(sets),
            "plays": plays or {}, "decisions": decisions, "turns": turns, "rounds": rounds, "opener": opener}


def test_game_length_is_told_in_turns_or_for_a_game_of_rounds_in_rounds():
    from repl.report import length_unit, table_lines

    by_turns = summarise([result(1, 1, turns=7), result(2, 2, turns=9)], ["x", "y"], 2)
    by_rounds = summarise([result(1, 1, turns=0, rounds=5), result(2, 2, turns=0, rounds=6)], ["x", "y"], 2)
    assert length_unit(by_turns) == "turns" and length_unit(by_rounds) == "rounds"
    assert by_rounds["length"]["rounds"]["median"] == 5.5
    run = {"summary": by_rounds, "games": 2}
    assert "median 5.5 rounds (5-6)" in "\n".join(table_lines([run]))


def test_draws_and_cut_off_games_are_counted_apart_never_as_wins():
    results = [result(1, 1), result(2, 2, seating=(1, 0), sets=("b", "a")), result(3, None),
               result(4, None, finished=False), result(5, 1, seating=(1, 0), sets=("b", "a"))]
    s = summarise(results, ["x", "y"], 2)
    assert (s["decided"], s["draws"], s["cut_off"]) == (3, 1, 1)
    # x won game 1 in seat 1 and game 2 in seat 2; y won game 5 in seat 1
    assert s["entrants"]["x"]["wins"] == 2 and s["entrants"]["y"]["wins"] == 1
    assert s["entrants"]["x"]["games"] == 3
    assert [seat["wins"] for seat in s["seats"]] == [2, 1]
    assert (s["first_player"]["wins"], s["first_player"]["games"]) == (2, 3)   # player 1 moved first in each
    # set a sat in seat 1, then 2, then 2 and won games 1 and 2
    assert s["sets"]["a"] == {**Rate(2, 3).to_json(0.5)}
    assert s["length"]["decisions"]["counts"] and sum(s["length"]["decisions"]["counts"]) == 5


def test_the_first_player_is_whoever_moved_first_not_seat_1():
    # seat 1 won all three decided games, but moved first only in the second
    results = [result(1, 1, opener=2), result(2, 1, opener=1), result(3, 1, opener=2), result(4, None, opener=1)]
    s = summarise(results, ["x", "y"], 2)
    assert s["seats"][0]["wins"] == 3
    assert (s["first_player"]["wins"], s["first_player"]["games"]) == (1, 3)
    assert s["first_player"]["verdict"] == Rate(1, 3).verdict(0.5)
    from repl.report import table_lines
    row = next(line for line in table_lines([{"summary": s, "games": 4}]) if line.startswith("first player"))
    assert row.split()[2:4] == ["1", "3"]


def test_sims_first_player_is_the_opener_each_game_drew():
    out = json.loads(summon("sim", "summoner_tcg", "--games", "8", "--seed", "3", "--jobs", "1", "--json").stdout)
    won = [g for g in out["results"] if g["finished"] and g["winner"] is not None]
    assert len({g["opener"] for g in won}) > 1      # the rules drew both players first in some game
    assert out["first_player_wins"] == sum(g["winner"] == g["opener"] for g in won)
    assert out["summary"]["first_player"]["wins"] == out["first_player_wins"]
    assert out["first_player_wins"] != sum(g["winner"] == 1 for g in won)   # seat 1's count is another figure
    r = summon("sim", "summoner_tcg", "--games", "8", "--seed", "3", "--jobs", "1")
    assert f"the player who moved first won {out['first_player_wins']} of {len(won)}" in r.stdout


def test_a_card_is_credited_to_the_side_that_played_it():
    results = [result(1, 1, plays={"imp": [2, 0], "ogre": [1, 1]}),
               result(2, 2, plays={"imp": [1, 0]}),
               result(3, None, plays={"imp": [0, 4]})]       # a draw: played, but no rate
    cards = {c["card"]: c for c in card_rates(results, {"imp": "a", "ogre": "b"})}
    assert cards["imp"]["played"] == 7 and cards["imp"]["set"] == "a, b"   # (seat 2, set b, played it in game 3)
    assert (cards["imp"]["wins"], cards["imp"]["games"]) == (1, 2)
    assert (cards["ogre"]["wins"], cards["ogre"]["games"]) == (1, 2)
    assert [c["card"] for c in card_rates(results)] == ["imp", "ogre"]   # most played first


def test_match_counts_the_cards_of_the_events_the_game_names_as_played(sw):
    m = play(Match(sw, 3, [Seat("random"), Seat("random")], quiet=True), {1: RandomBot(3, 1), 2: RandomBot(3, 2)})
    plays = m.plays()
    assert plays and all(len(v) == 2 for v in plays.values())
    for card, per_seat in plays.items():   # a faction's cards are played by the seat that has the faction
        owner = [i for i, s in enumerate(m.seats) if s.set == sw.cards[card].set_id]
        assert [i for i, n in enumerate(per_seat) if n] == owner, card
    assert sum(plays["frost_mage"]) <= sw.cards["frost_mage"].data["copies"] + 1
    tiny = load_game(str(ROOT / "tests" / "games" / "tiny_graph"))   # names no played events: nothing counted
    m = play(Match(tiny, 1, [Seat("random"), Seat("random")], quiet=True),
             {1: RandomBot(1, 1), 2: RandomBot(1, 2)}, max_decisions=200)
    assert m.decisions > 0 and m.plays() == {}
    isle = load_game("summoners_isle")          # a creature placed is a play (after_summon)
    m = play(Match(isle, 1, [Seat("random"), Seat("random")], quiet=True),
             {1: RandomBot(1, 1), 2: RandomBot(1, 2)}, max_decisions=200)
    assert sum(sum(v) for v in m.plays().values()) > 0


def test_a_summoner_tcg_gambit_counts_as_played_from_the_hand_and_primed():
    from conftest import tcg_sentry_position
    m = tcg_sentry_position("fog_wall", hand=("quick_strike",))
    for label in ("Play Quick Strike (cost 4)", "Battle", "Attack with Stone Sentry 10/10 (P1)",
                  "Player 2 (Stamina 45)", "Reveal Fog Wall"):
        m.answer_key(label)
    assert m.plays() == {"quick_strike": [1, 0], "fog_wall": [0, 1]}


def test_played_must_name_events_the_game_has(tmp_path):
    import shutil
    game = tmp_path / "rules" / "summoner_wars"
    shutil.copytree(ROOT / "rules" / "summoner_wars", game)
    shutil.copytree(ROOT / "cards" / "summoner_wars", tmp_path / "cards" / "summoner_wars")
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("played: [after_summon,", "played: [after_sumon,"))
    r = summon("check", str(game))
    assert r.returncode == 1
    assert "no event called 'after_sumon' (did you mean 'after_summon'?)" in r.stdout


# -- sweeps ---------------------------------------------------------------------------------

def test_vary_values_are_read_like_options_and_checked_against_the_game(sw):
    vary = parse_vary(["movers=2,3", "card.frost_mage.cost=1,2"])
    assert vary == [("movers", [2, 3]), ("card.frost_mage.cost", [1, 2])]
    plans = variations(sw, {}, vary)
    assert [p.to_json() for p in plans] == [
        {"movers": 2, "card.frost_mage.cost": 1}, {"movers": 2, "card.frost_mage.cost": 2},
        {"movers": 3, "card.frost_mage.cost": 1}, {"movers": 3, "card.frost_mage.cost": 2}]
    assert plans[1].options == {"movers": 2} and plans[1].cards == {"frost_mage": {"cost": 2}}


def test_an_option_set_with_option_is_played_in_every_run_but_is_no_part_of_the_variation(sw):
    plans = variations(sw, {"movers": 2}, parse_vary(["card.frost_mage.cost=1,2", "attackers=3,1"]))
    assert [p.options for p in plans] == [{"movers": 2, "attackers": 3}, {"movers": 2, "attackers": 1}] * 2
    assert plans[1].to_json() == {"attackers": 1, "card.frost_mage.cost": 1}
    assert plans[1].label() == "attackers=1, card.frost_mage.cost=1"


def test_a_card_no_seat_plays_is_named_before_a_sweep_that_would_not_change_it():
    r = summon("sim", "summoner_wars", "--games", "2", "--jobs", "1", "--vary", "card.ilsevane.life=1,30",
               "--vary", "card.frost_mage.cost=1,2")
    assert r.returncode == 0, r.stderr
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "'ilsevane'" in warnings[0] and "veiled_court" in warnings[0], r.stderr
    r = summon("sim", "summoner_wars", "--games", "2", "--jobs", "1", "--players",
               "random:veiled_court,random", "--vary", "card.ilsevane.life=1,30")
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


def test_a_card_stat_change_reaches_the_match_and_leaves_the_game_as_it_was(sw):
    changed = with_card_stats(sw, {"frost_mage": {"cost": 3}})
    assert Match(changed, 1, [Seat("random"), Seat("random")], quiet=True).eval("defs.frost_mage.cost") == [3]
    assert Match(sw, 1, [Seat("random"), Seat("random")], quiet=True).eval("defs.frost_mage.cost") == [1]
    assert sw.cards["frost_mage"].data["cost"] == 1


def test_a_stat_the_game_declares_can_be_varied_on_a_card_that_does_not_print_it(sw):
    assert "move" in sw.data["stats"] and "move" not in sw.cards["frost_mage"].data
    plans = variations(sw, {}, parse_vary(["card.frost_mage.move=0,3"]))
    assert [p.cards for p in plans] == [{"frost_mage": {"move": 0}}, {"frost_mage": {"move": 3}}]
    changed = with_card_stats(sw, plans[1].cards)
    assert Match(changed, 1, [Seat("random"), Seat("random")], quiet=True).eval("defs.frost_mage.move") == [3]
    # its kind is the game's default's
    with pytest.raises(EngineError, match=r"card.frost_mage.move takes a whole number like 2, not 'far'"):
        variations(sw, {}, parse_vary(["card.frost_mage.move=far"]))


def test_a_sweep_of_two_values_gives_two_result_sets_with_the_same_seeds(tmp_path):
    r = summon("sim", "summoner_wars", "--games", "4", "--seed", "9", "--jobs", "2", "--json",
               "--vary", "card.frost_mage.cost=1,4", "--report", str(tmp_path))   # changes reach the workers
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    report = json.loads((tmp_path / "report.json").read_text())
    assert [run["label"] for run in report["runs"]] == ["card.frost_mage.cost=1", "card.frost_mage.cost=4"]
    assert [run["summary"] for run in report["runs"]] == [run["summary"] for run in out["runs"]]
    assert out["vary"] == {"card.frost_mage.cost": [1, 4]}
    runs = out["runs"]
    assert [run["variation"] for run in runs] == [{"card.frost_mage.cost": 1}, {"card.frost_mage.cost": 4}]
    assert [g["seed"] for g in runs[0]["results"]] == [g["seed"] for g in runs[1]["results"]] == [9, 10, 11, 12]
    assert runs[0]["cards"] == {"frost_mage": {"cost": 1}} and runs[1]["cards"] == {"frost_mage": {"cost": 4}}
    assert [g["hash"] for g in runs[0]["results"]] != [g["hash"] for g in runs[1]["results"]]
    # the printed cost is the first run: the same games as a run without --vary
    plain = json.loads(summon("sim", "summoner_wars", "--games", "4", "--seed", "9", "--jobs", "1",
                              "--json").stdout)
    assert [g["hash"] for g in runs[0]["results"]] == [g["hash"] for g in plain["results"]]


# -- --precision ----------------------------------------------------------------------------

def test_precision_stops_at_the_first_batch_whose_intervals_are_narrow_enough():
    r = summon("sim", "summoner_wars", "--games", "400", "--seed", "1", "--jobs", "2", "--json",
               "--players", "random:polar_dwarves,random:fallen_kingdom", "--precision", "0.1")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    p = out["precision"]
    assert out["swap"] is True and p["batch"] == 40 and out["games"] % 40 == 0
    names = list(out["wins"])
    assert p["met"] and widest(out["results"], names, 2) <= 0.1
    if out["games"] > 40:   # one batch fewer was not enough
        assert widest(out["results"][:-40], names, 2) > 0.1


def test_precision_says_when_the_games_ran_out_first():
    r = summon("sim", "summoner_wars", "--games", "6", "--seed", "1", "--jobs", "1", "--precision", "0.01")
    assert r.returncode == 0, r.stderr
    assert "stopped at --games 6: the widest win rate is ±" in r.stdout and "not yet within ±1 point" in r.stdout and "±1 points" not in r.stdout


# -- the report -------------------------------------------------------------------------------

def test_report_writes_json_markdown_and_charts(tmp_path):
    folder = tmp_path / "lab"
    r = summon("sim", "summoner_wars", "--games", "6", "--seed", "2", "--jobs", "1", "--swap",
               "--players", "random:polar_dwarves,random:fallen_kingdom", "--report", str(folder))
    assert r.returncode == 0, r.stderr
    data = json.loads((folder / "report.json").read_text())
    run = data["runs"][0]
    assert data["game"] == "summoner_wars" and run["games"] == 6
    s = run["summary"]
    assert set(s["entrants"]) == {"polar_dwarves", "fallen_kingdom"}
    assert sum(e["wins"] for e in s["entrants"].values()) + s["draws"] + s["cut_off"] == 6
    for side in list(s["entrants"].values()) + [s["first_player"]]:
        assert 0 <= side["low"] <= (side["rate"] or 0) <= side["high"] <= 1 and side["verdict"]
    assert s["cards"] and {"card", "set", "played", "wins", "games", "low", "high"} <= set(s["cards"][0])
    assert len(s["length"]["turns"]["counts"]) == len(s["length"]["turns"]["edges"]) - 1
    for chart in data["charts"]:
        assert (folder / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (folder / "report.md").read_text()
    assert "| polar_dwarves |" in md and "(win_rates.png)" in md
    # the terminal shows the same table
    for name, side in s["entrants"].items():
        assert any(line.startswith(name) and side["verdict"] in line for line in r.stdout.splitlines())


def _run(label_value, games, sides):
    """A sweep's run as summon sim gives it, with a summary of `sides` (name -> (wins, games))."""
    s = summarise([result(1, 1)], ["x", "y"], 2)
    s["entrants"] = {n: Rate(*wg).to_json(0.5) for n, wg in sides.items() if not n.startswith("set ")}
    s["sets"] = {n[4:]: Rate(*wg).to_json(0.5) for n, wg in sides.items() if n.startswith("set ")}
    return {"game": "g", "seed": 1, "seats": ["random", "random"], "swap": True, "games": games, "finished": games,
            "decisions": 10 * games, "options": {"fixed": 1, "turns": label_value}, "variation": {"turns": label_value},
            "summary": s}


def test_a_sweep_whose_later_run_lacks_a_side_is_reported_with_a_dash(tmp_path):
    from repl.report import report_md, table_lines, write_report

    first = _run(14, 200, {"x": (5, 9), "y": (4, 9), "set a": (5, 9), "set b": (4, 9)})
    later = _run(40, 120, {"x": (0, 0), "y": (0, 0)})       # nothing decided: no set rows
    for runs in ([first, later], [later, first]):
        lines = table_lines(runs)
        assert any(line.split()[:2] == ["set", "a"] and "-" in line.split() for line in lines), lines
        files = write_report(tmp_path / str(runs[0]["variation"]["turns"]), runs)
        assert all(f.exists() for f in files)
    md = "\n".join(report_md([first, later]))
    assert "games a run: 200 (turns=14), 120 (turns=40), from seed 1" in md
    assert 'options {"fixed": 1}' in md and "turns=14, " not in md
    data = json.loads((tmp_path / "14" / "report.json").read_text())
    assert data["options"] == {"fixed": 1} and [r["games"] for r in data["runs"]] == [200, 120]


def test_a_report_folder_that_cannot_be_made_is_refused_before_any_game(tmp_path, monkeypatch):
    from engine import sim
    from repl.cli import main

    def no_games(*args, **kw):
        raise AssertionError("a game was played")
    monkeypatch.setattr(sim, "simulate", no_games)
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["sim", "summoner_wars", "--games", "2", "--report", str(blocker / "r")]) == 1


def test_sweep_of_entrants_alike_names_them_by_seat_or_with_swap_by_entrant():
    from engine.sim import entrant_names

    same = [Seat("greedy"), Seat("greedy")]
    assert entrant_names(same) == ["seat 1: greedy", "seat 2: greedy"]
    assert entrant_names(same, swap=True) == ["entrant 1: greedy", "entrant 2: greedy"]
    assert entrant_names([Seat("greedy"), Seat("random")], swap=True) == ["greedy", "random"]


def test_sim_json_keeps_its_fields_and_adds_the_summary():
    out = json.loads(summon("sim", "summoner_wars", "--games", "3", "--seed", "4", "--jobs", "1", "--json").stdout)
    for k in ("game", "seed", "games", "seats", "swap", "options", "finished", "wins", "first_player_wins", "draws",
              "decisions", "seconds", "bots", "results", "summary", "cut_off"):
        assert k in out
    for g in out["results"]:
        assert {"seed", "winner", "finished", "decisions", "hash", "answered", "thinking", "seating", "turns",
                "plays", "sets"} <= set(g)


def test_sim_names_the_cards_no_game_made(tmp_path):
    """A creature added to Summoner's Isle's cards but left out of creature_order is never
    dealt: the run said nothing of it (no figure can show a card that is never made)."""
    g = copy_game(tmp_path, "summoners_isle")
    with (g.cards / "creatures.yaml").open("a") as f:
        f.write("\n  - {id: golem, name: Golem, tags: [creature], copies: 2, cost: 4, actions: 1, attack: 3, "
                "defence: 9, bounty: 2, text: Slow.}\n")
    r = summon("sim", str(g.rules), "--games", "4", "--jobs", "1")
    assert r.returncode == 0 and "cards in none of these games (the rules never made one): golem" in r.stdout, \
        r.stdout + r.stderr
    out = json.loads(summon("sim", str(g.rules), "--games", "4", "--jobs", "1", "--json").stdout)
    assert out["summary"]["never_dealt"] == ["golem"] and all("golem" not in x["dealt"] for x in out["results"])
    shipped = json.loads(summon("sim", "summoners_isle", "--games", "4", "--jobs", "1", "--json").stdout)
    assert shipped["summary"]["never_dealt"] == [] and "wyrm" in shipped["results"][0]["dealt"]


def test_results_that_do_not_say_what_they_dealt_name_no_card():
    """A result from an older summon (a cluster's worker) has no `dealt`: it counted as a
    game that made no card, so every card of its sets was named as never made."""
    from engine.sim import never_dealt
    game = load_game("summoners_isle")
    old = {"sets": [None, None], "winner": 1}
    assert never_dealt(game, [old]) == []
    some = sorted(game.cards)[1:]
    assert never_dealt(game, [old, {"sets": [None, None], "dealt": some}]) == sorted(game.cards)[:1]


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needles", [
    (["--vary", "moovers=2,3"], ["no option 'moovers'", "did you mean 'movers'"]),
    (["--vary", "movers"], ["--vary takes KEY=V1,V2"]),
    (["--vary", "movers=2,,3"], ["empty value"]),
    (["--vary", "movers=2,99"], ["option movers must be from 0 to 30, not 99"]),
    (["--vary", "movers=2", "--vary", "movers=3"], ["given twice"]),
    (["--vary", "card.frost_mag.cost=1,2"], ["no card 'frost_mag'", "did you mean 'frost_mage'"]),
    (["--vary", "card.frost_mage.cots=1,2"], ["card 'frost_mage' has no stat 'cots'", "did you mean 'cost'",
                                              "its stats: strength, life, cost, move, kill_magic; "
                                              "other numbers it prints: copies"]),
    (["--vary", "card.frost_mage.cost=cheap"], ["takes a whole number like 1, not 'cheap'"]),
    (["--vary", "card.frost_mage.cost=-1"], ["card.frost_mage.cost=-1", "minimum"]),
    (["--vary", "card.frost_mage.copies=2,-1"], ["card.frost_mage.copies=-1", "less than the minimum of 0"]),
    (["--vary", "card.frost_mage=1"], ["card.CARD_ID.STAT"]),
    (["--precision", "0"], ["--precision is the ±"]),
    (["--precision", "0.7"], ["--precision is the ±"]),
    (["--backend", "spark"], ["unknown backend 'spark'"]),
    (["--backend", "ray", "--address", "127.0.0.1:1"], ["cannot reach the Ray cluster at 127.0.0.1:1"]),
    (["--address", "127.0.0.1:6379"], ["--address joins a Ray cluster"]),
])
def test_bad_lab_arguments_are_refused_in_one_line(args, needles):
    r = summon("sim", "summoner_wars", "--games", "2", "--jobs", "1", *args)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    for n in needles:
        assert n in r.stderr, r.stderr


def test_a_message_writes_true_and_false_as_a_designer_does():
    from engine.options import shown
    assert (shown(True), shown(False), shown(1), shown("x")) == ("true", "false", "1", "'x'")


def test_precision_that_is_not_a_number_is_refused_by_the_parser():
    r = summon("sim", "summoner_wars", "--games", "2", "--precision", "tight")
    assert r.returncode == 2 and "a number such as 0.03, not 'tight'" in r.stderr


def test_without_ray_or_matplotlib_the_error_says_what_to_install():
    code = ("import sys; sys.modules[{mod!r}] = None\n"
            "from repl.cli import main\n"
            "sys.exit(main(['sim', 'summoner_wars', '--games', '2', '--jobs', '1', {args}]))")
    for mod, args, extra in (("ray", "'--backend', 'ray'", "pip install -e '.[cluster]'"),
                             ("matplotlib", "'--report', '/nonexistent/r'", "pip install -e '.[report]'")):
        r = subprocess.run([sys.executable, "-c", code.format(mod=mod, args=args)], capture_output=True, text=True,
                           cwd=ROOT, timeout=120)
        assert r.returncode == 1 and extra in r.stderr and "Traceback" not in r.stderr, r.stderr


# -- progress ---------------------------------------------------------------------------------

class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_shows_games_speed_and_time_left_on_a_terminal_only(monkeypatch):
    assert progress.line(30, 120, 10.0) == "[######..................] 30/120 games  3.0 games/s  0:30 left"
    assert progress.line(30, 120, 10.0, at_most=True) == \
        "[######..................] 30/120 games at most  3.0 games/s  0:30 left at most"
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "REDRAW", 0.0)
    term = FakeTerminal()
    bar = progress.ProgressBar(stream=term)
    bar(5, 10)
    assert "5/10 games" in term.getvalue()
    bar.close()
    assert term.getvalue().endswith("\r")
    for quiet, stream in ((True, FakeTerminal()), (False, io.StringIO())):
        bar = progress.ProgressBar(quiet=quiet, stream=stream)
        bar(5, 10)
        assert stream.getvalue() == ""


def test_sim_into_a_pipe_draws_no_bar():
    r = summon("sim", "summoner_wars", "--games", "2", "--jobs", "1")
    assert r.returncode == 0 and r.stderr == ""


# -- the Ray backend ----------------------------------------------------------------------------

def _same_games(out: dict) -> dict:
    """A run's output without what may differ from machine to machine (times)."""
    out = dict(out)
    out.pop("seconds"), out.pop("bots")
    out["results"] = [{k: v for k, v in r.items() if k != "thinking"} for r in out["results"]]
    return out


def test_ray_and_local_give_the_same_results_for_20_games():
    pytest.importorskip("ray")
    args = ("sim", "summoner_wars", "--games", "20", "--seed", "11", "--json", "--swap",
            "--players", "random:polar_dwarves,random:fallen_kingdom")
    ray_run = summon(*args, "--backend", "ray", "--jobs", "2")
    assert ray_run.returncode == 0, ray_run.stderr
    local = summon(*args, "--jobs", "1")
    assert local.returncode == 0, local.stderr
    a, b = json.loads(ray_run.stdout), json.loads(local.stdout)
    assert [r["seed"] for r in a["results"]] == list(range(11, 31))
    assert _same_games(a) == _same_games(b)


def test_a_long_run_at_a_terminal_shows_the_bar_on_stderr():
    import os

    import pexpect

    from conftest import DEADLINE
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    p = pexpect.spawn(sys.executable, ["-m", "repl", "sim", "summoner_wars", "--games", "400", "--jobs", "1"],
                      cwd=str(ROOT), env=env, encoding="utf-8", timeout=DEADLINE)
    try:
        p.expect(r"\] (\d+)/400 games +[\d.]+ games/s +\d+:\d\d left")
        assert 0 < int(p.match.group(1)) < 400
    finally:   # the bar is what this test is about: no need to wait for the rest

        p.close(force=True)


def test_a_varied_card_value_is_checked_by_its_field_as_the_card_files_are(tmp_path):
    # a field that refers into the card schema was refused by --vary, checked alone, though
    # summon check and the card files took it; a field's own $defs are its own
    import shutil

    from engine.lab import check_card_value
    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", game)
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + (
        "card_fields:\n  rank: {$ref: '#/$defs/card/properties/copies'}\n"
        "  level: {$defs: {n: {type: integer, maximum: 5}}, $ref: '#/$defs/n'}\n"))
    cards = game / "cards" / "pieces.yaml"
    cards.write_text(cards.read_text().replace("name: Pawn", "name: Pawn\n    rank: 1\n    level: 1", 1))
    g = load_game(str(game))
    check_card_value(g, "pawn", "rank", 2)
    check_card_value(g, "pawn", "level", 5)
    with pytest.raises(EngineError, match=r"card.pawn.rank=-1: -1 is less than the minimum of 0"):
        check_card_value(g, "pawn", "rank", -1)
    with pytest.raises(EngineError, match=r"card.pawn.level=7: 7 is greater than the maximum of 5"):
        check_card_value(g, "pawn", "level", 7)


def test_swapped_seats_that_do_not_go_evenly_round_are_warned_of():
    r = summon("sim", "summoners_isle", "--players", "random,random,random", "--swap", "--games", "4",
               "--jobs", "1", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "warning: --swap: 4 games do not go evenly round 3 seats" in r.stderr and "3 or 6 games would not" in r.stderr
    even = summon("sim", "summoners_isle", "--players", "random,random,random", "--swap", "--games", "3",
                  "--jobs", "1", "--quiet")
    assert even.returncode == 0 and "warning" not in even.stderr, even.stderr
