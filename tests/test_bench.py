"""`summon bench`: every figure is reported, in JSON and in words; bad input is refused in one line.
No assertion here is about speed: the figures depend on the machine."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import summon
from engine import bench
from engine.match import Seat

TINY = ("--games", "2", "--rounds", "1")


def is_positive(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0


def test_json_has_every_figure_with_sane_values():
    r = summon("bench", "summoner_wars", *TINY, "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(bench.FIGURES) <= set(out)
    assert (out["game"], out["games"], out["seed"], out["rounds"]) == ("summoner_wars", 2, 3, 1)
    assert "perf_counter" in out["clock"]
    for key in ("decisions_per_s_one_process", "decisions_per_s_all_cores", "match_start_ms",
                "match_start_ms_best", "memory_per_match_mb", "budget_on_decisions_per_s",
                "budget_off_decisions_per_s", "host_vs_lua_ratio", "host_decisions_per_s",
                "lua_decisions_per_s", "reload_ms", "reload_ms_best", "reload_at_decision",
                "memory_at_decision", "cores", "comparison_games", "match_start_samples",
                "match_start_beside_ms", "memory_per_match_beside_mb", "sample_us"):
        assert is_positive(out[key]), (key, out[key])
    assert out["memory_matches"] == bench.LIVE_MATCHES
    assert 0 < out["memory_at_decision"] <= bench.LIVE_AT
    assert out["memory_source"]
    assert out["memory_per_match_beside_mb"] < out["memory_per_match_mb"]   # no engine, cards or rules each
    assert out["reload_at_decision"] <= bench.RELOAD_AT
    # the share of two timings, each of two games: on a busy machine noise alone can make it
    # any number below 1 (-2.5 was seen), so check that it is the one the rates give
    on, off = out["budget_on_decisions_per_s"], out["budget_off_decisions_per_s"]
    assert isinstance(out["budget_cost"], float) and out["budget_cost"] < 1
    assert out["budget_cost"] == pytest.approx(1 - on / off, rel=1e-6, abs=1e-6)
    assert is_positive(out["fork_us"]) and 0 < out["fork_at_decision"] <= bench.LIVE_AT
    assert set(out["goals"]) == set(out["met"]) == set(bench.GOALS)
    for key, met in out["met"].items():
        assert met is None if out[key] is None else isinstance(met, bool)


def test_text_names_each_figure_with_its_goal():
    r = summon("bench", "summoner_wars", *TINY)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("summoner_wars: 2 games from seed 7")
    for label in ("speed, one process:", "speed, every core:", "match start:", "fork:", "memory per live match:",
                  "step budget cost:", "host / pure Lua:", "hot reload:"):
        assert sum(line.startswith(label) for line in lines) == 1, label
    text = r.stdout
    for goal in ("aim 100,000", "under 50 µs", "under 1 MB", "under 10%", "under 100 ms", "1.25 or less"):
        assert goal in text
    assert "decisions/s" in text and " ms " in text


@pytest.mark.parametrize("args, says", [
    (("summoner_wars", "--games", "0"), "--games must be a whole number, 1 or more, not 0"),
    (("summoner_wars", "--rounds", "0"), "--rounds must be a whole number, 1 or more, not 0"),
    (("summoner_wars", "--seed", "-1"), "seed"),
    (("no_such_game",), "no game called 'no_such_game'"),
])
def test_bad_arguments_are_one_line_errors(args, says):
    r = summon("bench", *args)
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr.startswith("error: ") and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_fork_time_is_measured(sw, monkeypatch):
    monkeypatch.setattr(bench, "SAMPLE_SECONDS", 0.0)
    out = bench.fork_time(sw, [Seat("bot"), Seat("bot")], 7)
    assert is_positive(out["fork_us"]) and is_positive(out["fork_us_best"])
    assert out["fork_samples"] == 3 and 0 < out["fork_at_decision"] <= bench.LIVE_AT
    # and along the same game: a position every POSITION_STEP decisions up to the forked one
    assert is_positive(out["fork_us_positions"])
    assert out["fork_positions"] == out["fork_at_decision"] // bench.POSITION_STEP


def test_fork_positions_are_the_game_s_own_and_stop_where_it_ends(sw, monkeypatch):
    monkeypatch.setattr(bench, "POSITION_FORKS", 1)
    monkeypatch.setattr(bench, "COPIER_WARM_UP", 0)
    seats = [Seat("bot"), Seat("bot")]
    length = bench.advanced(sw, 7, seats, 10**6).decisions
    out = bench.fork_positions(sw, seats, 7, 10**6)
    assert out["fork_positions"] == (length - 1) // bench.POSITION_STEP   # (a finished match has no fork)
    assert is_positive(out["fork_us_positions"])
    none = bench.fork_positions(sw, seats, 7, bench.POSITION_STEP - 1)
    assert none == {"fork_us_positions": None, "fork_positions": 0}


def test_fork_time_takes_a_running_match_when_every_game_ends_sooner(sw, monkeypatch):
    # (a short card game's random matches all end before LIVE_AT: `summon bench summoner_tcg`
    # stopped with "the match is over; there is nothing to fork")
    monkeypatch.setattr(bench, "SAMPLE_SECONDS", 0.0)
    monkeypatch.setattr(bench, "LIVE_AT", 10**6)
    monkeypatch.setattr(bench, "SEEDS_TRIED", 3)
    seats = [Seat("bot"), Seat("bot")]
    lengths = {s: bench.advanced(sw, bench.game_seed(7, i), seats, 10**6).decisions for i, s in enumerate("abc")}
    out = bench.fork_time(sw, seats, 7)
    assert out["fork_at_decision"] == max(lengths.values()) - 1
    assert is_positive(out["fork_us"]) and is_positive(out["sample_us"])


def test_armies_script_leaves_each_set_out_and_sums_every_run(tmp_path):
    """bench/armies.py: one run per set left out (random bots: quick), each set seated in
    all runs but its own; the summary counts every game's winner for the set in its seat."""
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "runs"
    cmd = [sys.executable, str(root / "bench" / "armies.py"), "summonaria", "--players", "4",
           "--bot", "random", "--games", "4", "--seed", "1", "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    runs = {int(p.stem): json.loads(p.read_text()) for p in out.glob("*.json")}
    assert sorted(runs) == [1, 2, 3, 4, 5]
    armies = sorted({s for run in runs.values() for res in run["results"] for s in res["sets"]})
    assert len(armies) == 5
    for seed, run in runs.items():
        seated = {s for res in run["results"] for s in res["sets"]}
        assert seated == set(armies) - {armies[seed - 1]}
    wins = {a: 0 for a in armies}
    for run in runs.values():
        for res in run["results"]:
            if res["winner"] is not None:
                wins[res["sets"][res["winner"] - 1]] += 1
    lines = {ln.split()[0]: ln.split()[1] for ln in r.stdout.splitlines()[1:]}
    assert lines == {a: f"{wins[a]}/16" for a in armies}
    # a second call plays nothing again and reads the same runs
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    assert again.returncode == 0 and again.stdout == r.stdout and "seed" not in again.stderr


def test_armies_script_needs_more_sets_than_seats(tmp_path):
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "bench" / "armies.py"), "summonaria", "--players", "5",
                        "--bot", "random", "--out", str(tmp_path)], capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and "needs more sets than 5 seats" in r.stderr
    assert not any(tmp_path.iterdir())


def test_armies_script_names_a_bad_run_file_and_an_unknown_game(tmp_path):
    root = Path(__file__).resolve().parent.parent
    script = str(root / "bench" / "armies.py")
    (tmp_path / "10.json").write_text("{oops")
    r = subprocess.run([sys.executable, script, "summonaria", "--read", str(tmp_path)],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and f"{tmp_path / '10.json'}:1:2: not a run's JSON" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, script, "nosuchgame", "--out", str(tmp_path / "x")],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and "no game called 'nosuchgame'" in r.stderr and "Traceback" not in r.stderr


def test_strength_script_chunks_are_one_run_and_resume(tmp_path):
    """bench/strength.py: chunks of a pairing are exactly the games of one `summon sim` run
    (same seeds, same seating, same end states), their sums are that run's, and a second call
    plays nothing again."""
    root = Path(__file__).resolve().parent.parent
    pair = "random:polar_dwarves,random:fallen_kingdom"
    cmd = [sys.executable, str(root / "bench" / "strength.py"), "summoner_wars", "--pair", pair,
           "--games", "6", "--chunk", "2", "--seed", "5", "--out", str(tmp_path), "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    chunks = sorted(int(p.stem) for p in (tmp_path / "summoner_wars").glob("*/*.json"))
    assert chunks == [5, 7, 9]
    whole = summon("sim", "summoner_wars", "--players", pair, "--swap", "--seed", "5", "--games", "6",
                   "--jobs", "1", "--json")
    assert whole.returncode == 0, whole.stderr
    whole = json.loads(whole.stdout)
    # the folder's name has no ":" (a path Windows can check out), and the pair is read back whole
    where = tmp_path / "summoner_wars" / "random-polar_dwarves_vs_random-fallen_kingdom"
    played = [res for s in chunks for res in json.loads((where / f"{s}.json").read_text())["results"]]
    assert [(g["seed"], g["seating"], g["hash"]) for g in played] == \
        [(g["seed"], g["seating"], g["hash"]) for g in whole["results"]]
    [row] = json.loads(r.stdout)
    assert (row["game"], row["pair"], row["games"]) == ("summoner_wars", pair, 6)
    assert row["wins"] == whole["wins"] and row["draws"] == whole["draws"]
    assert row["rate"] == whole["wins"]["polar_dwarves"] / 6
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    assert again.returncode == 0 and again.stdout == r.stdout and again.stderr == ""


def test_strength_script_refuses_uneven_chunks_and_names_a_bad_file(tmp_path):
    root = Path(__file__).resolve().parent.parent
    script = str(root / "bench" / "strength.py")
    r = subprocess.run([sys.executable, script, "summoner_wars", "--pair", "random,greedy", "--chunk", "3",
                        "--out", str(tmp_path)], capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and "--chunk 3 is not a multiple of the 2 players" in r.stderr
    assert not any(tmp_path.iterdir())
    bad = tmp_path / "summoner_wars" / "mcts_vs_random" / "1.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"results": 3')
    r = subprocess.run([sys.executable, script, "--read", "--out", str(tmp_path)],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and f"{bad}:1:14: not a run's JSON" in r.stderr and "Traceback" not in r.stderr


def test_strength_script_gives_length_in_the_game_own_count(tmp_path):
    """Summoner Wars counts turns, Summoner's Isle rounds: the table gives each its own."""
    root = Path(__file__).resolve().parent.parent
    base = [sys.executable, str(root / "bench" / "strength.py"), "--pair", "greedy,random", "--games", "2",
            "--chunk", "2", "--out", str(tmp_path)]
    for game in ("summoner_wars", "summoners_isle"):
        r = subprocess.run(base[:2] + [game] + base[2:], capture_output=True, text=True, cwd=root)
        assert r.returncode == 0, r.stderr
    r = subprocess.run(base + ["--read"], capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    rows = {ln.split()[0]: ln for ln in r.stdout.splitlines()[1:]}
    assert set(rows) == {"summoner_wars", "summoners_isle"}
    assert " turns " in rows["summoner_wars"] and " rounds " in rows["summoners_isle"]
    run = json.loads((tmp_path / "summoners_isle" / "greedy_vs_random" / "1.json").read_text())
    rounds = sorted(g["rounds"] for g in run["results"])
    assert f" {(rounds[0] + rounds[1]) / 2:g} rounds " in rows["summoners_isle"]


def test_strength_script_two_processes_share_the_chunks(tmp_path):
    """Two processes on the same pairing at once play every chunk exactly once between them
    (a chunk being played is locked), and the sums are those of one process alone."""
    root = Path(__file__).resolve().parent.parent
    cmd = [sys.executable, str(root / "bench" / "strength.py"), "summoner_wars", "--pair", "random,random",
           "--games", "8", "--chunk", "2", "--seed", "3", "--json"]
    procs = [subprocess.Popen(cmd + ["--out", str(tmp_path / "two")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=root) for _ in range(2)]
    outs = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    labels = [ln for _, err in outs for ln in err.splitlines() if ln.startswith("summoner_wars random,random: games")]
    assert sorted(labels) == sorted(f"summoner_wars random,random: games {g}-{g + 1} of 8" for g in (1, 3, 5, 7))
    folder = tmp_path / "two" / "summoner_wars" / "random_vs_random"
    assert sorted(p.name for p in folder.iterdir()) == ["3.json", "5.json", "7.json", "9.json"]
    alone = subprocess.run(cmd + ["--out", str(tmp_path / "one")], capture_output=True, text=True, cwd=root)
    assert alone.returncode == 0, alone.stderr
    def sums(text):                       # all but the times, which are the machine's
        return [{k: v for k, v in row.items() if k != "ms_per_decision"} for row in json.loads(text)]
    assert sums(alone.stdout) == sums(outs[0][0]) == sums(outs[1][0])


def test_strength_script_names_chunks_played_with_other_rules(tmp_path):
    """Each chunk keeps digests of the rules, cards and bots it was played with; --read says
    how many of a pairing's chunks are not this tree's, and is quiet when all are."""
    root = Path(__file__).resolve().parent.parent
    script = str(root / "bench" / "strength.py")
    r = subprocess.run([sys.executable, script, "summoner_tcg", "--pair", "random,random", "--games", "4",
                        "--chunk", "2", "--out", str(tmp_path), "--json"], capture_output=True, text=True, cwd=root)
    assert r.returncode == 0 and "chunks were not played" not in r.stderr, r.stderr
    [row] = json.loads(r.stdout)
    assert (row["chunks"], row["stale"]) == (2, 0)
    chunk = tmp_path / "summoner_tcg" / "random_vs_random" / "3.json"
    run = json.loads(chunk.read_text())
    assert set(run["played_with"]) == {"rules", "bots"}
    run["played_with"]["rules"] = "0" * 16          # as if played before a card changed
    chunk.write_text(json.dumps(run))
    r = subprocess.run([sys.executable, script, "--read", "--out", str(tmp_path)], capture_output=True, text=True,
                       cwd=root)
    assert r.returncode == 0, r.stderr
    assert "summoner_tcg random,random: 1 of 2 chunks were not played with this tree's rules" in r.stderr


def test_profile_script_samples_the_rules_the_same_every_run():
    """bench/profile.py: samples count Lua instructions, so two runs print the same; the
    files' shares add up to the whole and the game's own rules are among the lines."""
    root = Path(__file__).resolve().parent.parent
    cmd = [sys.executable, str(root / "bench" / "profile.py"), "summoner_wars", "--games", "1", "--top", "50"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, cwd=root) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    text = runs[0].stdout
    assert int(text.split()[0]) > 0 and "samples over" in text.splitlines()[0]
    files = text.split("self, by file:\n")[1].split("\n\n")[0].splitlines()
    assert abs(sum(float(ln.split("%")[0]) for ln in files) - 100) < 0.1 * len(files)
    assert any("rules/summoner_wars/phases.lua" in ln for ln in files)
    inclusive = text.split("inclusive, by function")[1]
    assert "phases.lua:fn" in inclusive and "function attack_phase(p, pick)" in inclusive


def test_profile_script_names_a_bad_game_in_one_line():
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "bench" / "profile.py"), "nosuchgame"],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "no game called 'nosuchgame'" in r.stderr


def test_lengths_script_counts_each_game_in_its_band_and_names_a_bad_file(tmp_path):
    """bench/lengths.py: every game of every run in a folder counted once, at its own length
    (rounds for a game that counts rounds), within, under or over the band."""
    root = Path(__file__).resolve().parent.parent
    script = [sys.executable, str(root / "bench" / "lengths.py")]
    lengths = {}
    for game in ("summoner_wars", "summoners_isle"):
        folder = tmp_path / game
        folder.mkdir()
        for seed in (1, 4):
            r = summon("sim", game, "--players", "random,random", "--games", "3", "--seed", str(seed),
                       "--jobs", "1", "--json")
            assert r.returncode == 0, r.stderr
            (folder / f"{seed}.json").write_text(r.stdout)
        played = [g for seed in (1, 4) for g in json.loads((folder / f"{seed}.json").read_text())["results"]]
        lengths[game] = sorted(g["rounds"] if game == "summoners_isle" else g["turns"] for g in played)
    lo, hi = lengths["summoner_wars"][0] + 1, lengths["summoner_wars"][-1] - 1   # the shortest and longest miss it
    r = subprocess.run(script + [str(tmp_path / "summoner_wars"), str(tmp_path / "summoners_isle"),
                                 "--band", f"{lo},{hi}", "--json"], capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    wars, isle = json.loads(r.stdout)
    assert wars["lengths"] == lengths["summoner_wars"] and wars["unit"] == "turns" and wars["games"] == 6
    assert (wars["within"], wars["under"], wars["over"]) == (
        sum(lo <= n <= hi for n in lengths["summoner_wars"]),
        sum(n < lo for n in lengths["summoner_wars"]), sum(n > hi for n in lengths["summoner_wars"]))
    assert wars["under"] >= 1 and wars["over"] >= 1 and sum(wars["wins"].values()) <= 6
    from engine.stats import wilson
    assert wars["within_interval"] == [round(x, 4) for x in wilson(wars["within"], 6)]
    assert isle["lengths"] == lengths["summoners_isle"] and isle["unit"] == "rounds"
    # a game of no card sets counts its wins by seat (they were all under null)
    assert set(isle["wins"]) <= {"seat 1", "seat 2"} and sum(isle["wins"].values()) >= 1
    other = subprocess.run(script + [str(tmp_path / "summoner_wars"), "--against", str(tmp_path / "summoners_isle")],
                           capture_output=True, text=True, cwd=root)
    assert other.returncode != 0 and "runs are of summoner_wars, but" in other.stderr and "Traceback" not in other.stderr
    text = subprocess.run(script + [str(tmp_path / "summoner_wars")], capture_output=True, text=True, cwd=root)
    assert text.returncode == 0 and " 6 games, median " in text.stdout and "10-30: " in text.stdout
    assert "within (" in text.stdout and "%, " in text.stdout
    bad = tmp_path / "summoner_wars" / "7.json"
    bad.write_text('{"results": [')
    r = subprocess.run(script + [str(bad.parent)], capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and f"{bad}:1:" in r.stderr and "Traceback" not in r.stderr
    bad.write_text(json.dumps({"results": [{"seed": 1}], "wins": {}, "bots": [], "games": 1}))
    r = subprocess.run(script + [str(bad.parent)], capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and f"{bad}:1:1: game 1 of this run has no turns" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run(script + [str(bad.parent), "--band", "30,10"], capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and "LOW must not be above HIGH" in r.stderr
    bad.unlink()


def test_lengths_against_a_base_counts_the_seeds_both_played(tmp_path):
    """bench/lengths.py --against: a folder and the base, each over the games of the seeds
    both hold (runs of seeds 1 and 4, and of 4 and 7: games 4-6 are shared)."""
    root = Path(__file__).resolve().parent.parent
    script = [sys.executable, str(root / "bench" / "lengths.py")]
    played = {}
    for name, seeds, bots in (("base", (1, 4), "random,random"), ("variant", (4, 7), "greedy,random")):
        folder = tmp_path / name
        folder.mkdir()
        for seed in seeds:
            r = summon("sim", "summoner_wars", "--players", bots, "--games", "3", "--seed", str(seed),
                       "--jobs", "1", "--json", "--max-decisions", "400")
            assert r.returncode == 0, r.stderr
            (folder / f"{seed}.json").write_text(r.stdout)
            for g in json.loads(r.stdout)["results"]:
                played[name, g["seed"]] = g["turns"]
    r = subprocess.run(script + [str(tmp_path / "variant"), "--against", str(tmp_path / "base"), "--json"],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    [row] = json.loads(r.stdout)
    assert row["games"] == 3 and row["lengths"] == sorted(played["variant", s] for s in (4, 5, 6))
    assert row["against"]["games"] == 3
    assert row["against"]["lengths"] == sorted(played["base", s] for s in (4, 5, 6))
    from engine.stats import difference
    share = row["within"] / 3 - row["against"]["within"] / 3
    assert row["within_difference"] == {"share": round(share, 4), "interval": [
        round(x, 4) for x in difference(row["within"], 3, row["against"]["within"], 3)]}
    text = subprocess.run(script + [str(tmp_path / "variant"), "--against", str(tmp_path / "base")],
                          capture_output=True, text=True, cwd=root)
    assert text.returncode == 0 and "base, the same seeds: 3 games" in text.stdout
    assert "10-30: " in text.stdout and " points (95% interval " in text.stdout
    assert "no clear difference from the base at this many games" in text.stdout   # 3 games tell nothing
    (tmp_path / "variant" / "4.json").unlink()
    r = subprocess.run(script + [str(tmp_path / "variant"), "--against", str(tmp_path / "base")],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode != 0 and "no seed in common with" in r.stderr and "Traceback" not in r.stderr


def test_vm_speed_script_plays_the_same_game_in_every_lua_and_bounds_an_endless_loop_in_each():
    """bench/vm_speed.py: the rules-like workload, compiled with the engine's steps, computes
    the same game in every Lua machine lupa ships (LuaJIT's compiler on and off too), and
    the steps stop an endless loop in each, with no debug hook."""
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "bench" / "vm_speed.py"), "--decisions", "3000",
                        "--rounds", "1", "--json"], capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr
    machines = json.loads(r.stdout)["machines"]
    ran = {k: v for k, v in machines.items() if v is not None}
    assert "lua54" in ran and len(ran) >= 2
    runs = [v[style] for v in ran.values() for style in ("tables", "closures")]
    checks = {f["check"] for f in runs}
    assert len(checks) == 1 and checks != {"0/0"}   # both styles play the same game too
    for f in runs:
        assert f["same_game"] and is_positive(f["decisions_per_s"])
    assert all(v["endless_loop_stopped"] for v in ran.values())
    assert ran["lua54"]["tables"]["vs_lua54"] == ran["lua54"]["closures"]["vs_lua54"] == 1


def test_vm_speed_script_refuses_a_bad_count_in_one_line():
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "bench" / "vm_speed.py"), "--decisions", "0"],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 2 and "--decisions and --rounds must be 1 or more" in r.stderr
    assert "Traceback" not in r.stderr


def offer_cost(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, str(root / "bench" / "offer_cost.py"), *args],
                          capture_output=True, text=True, cwd=cwd or root)


def test_offer_cost_script_plays_the_same_games_three_ways_and_splits_a_decision():
    """bench/offer_cost.py: Summoner's Isle's offers keep their place in state.vars, so asking
    them twice plays the same games only because state.vars is put back; the figures add up."""
    r = offer_cost("summoners_isle", "--games", "2", "--rounds", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["offers"] == ["summoning_offer", "actions_offer"]
    for way in ("host", "pure_lua"):
        f = out[way]
        assert f["decisions"] > 20 and is_positive(f["us_per_decision"])
        # (offers_us is timed apart from us_per_decision: on a busy machine it can come out
        # the larger, so only its sign is a fact to test)
        assert f["offers_us"] >= 0
        assert f["rest_us"] == pytest.approx(f["us_per_decision"] - f["offers_us"], abs=0.02)
        if f["rest_us"] > 0:
            assert f["ceiling_decisions_per_s"] >= f["decisions_per_s"] * 0.999
        else:   # (the same busy machine: offers timed as the whole decision leave no ceiling to give)
            assert f["ceiling_decisions_per_s"] is None


def test_offer_cost_script_names_the_seed_of_an_offer_that_changes_the_state(game_copy):
    """An offer that changes the state outside state.vars plays another game when asked
    twice: the script says which seed, in one line, and gives no figures."""
    g = game_copy("summoners_isle")
    with open(g.rules / "phases.lua", "a") as f:
        f.write("\nlocal asked_offer = actions_offer\n"
                "function actions_offer(...)\n"
                "  state.counters.shared.asked = (state.counters.shared.asked or 0) + 1\n"
                "  return asked_offer(...)\nend\n")
    r = offer_cost("summoners_isle", "--games", "1", "--rounds", "1", cwd=g.rules.parent.parent)
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "summoners_isle: the game of seed" in r.stderr and "changes when its offers are asked twice" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_offer_cost_script_refuses_a_bad_count_in_one_line():
    r = offer_cost("--games", "0")
    assert r.returncode == 2 and "--games and --rounds must be 1 or more" in r.stderr
    assert "Traceback" not in r.stderr


def test_lengths_counts_the_wins_of_the_player_who_went_first_and_finds_them_in_older_runs(tmp_path):
    """bench/lengths.py: of the games won, those the player who went first won, in all and by
    band, from each result's `opener`; a run kept without it (before `summon sim` gave it) has
    its matches built again from their seeds and card sets, to the same count."""
    root = Path(__file__).resolve().parent.parent
    script = [sys.executable, str(root / "bench" / "lengths.py")]
    new, old = tmp_path / "new", tmp_path / "old"
    new.mkdir(), old.mkdir()
    results = []
    for seed in (1, 9):
        r = summon("sim", "summoner_tcg", "--players", "random,random", "--games", "4", "--seed", str(seed),
                   "--swap", "--jobs", "1", "--json")
        assert r.returncode == 0, r.stderr
        (new / f"{seed}.json").write_text(r.stdout)
        run = json.loads(r.stdout)
        results += [dict(g) for g in run["results"]]
        for g in run["results"]:
            del g["opener"]
        (old / f"{seed}.json").write_text(json.dumps(run))
    won = [g for g in results if g["winner"]]
    firsts = [g["opener"] == g["winner"] for g in won]
    assert 0 < sum(firsts) < len(won) or len(won) < 4   # (eight random games: some of each, as a rule)
    lo, hi = 10, 30
    outs = []
    for folder in (new, old):
        r = subprocess.run(script + [str(folder), "--json"], capture_output=True, text=True, cwd=root)
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout)[0]["first_won"])
    assert outs[0] == outs[1]
    assert outs[0]["all"] == [sum(firsts), len(won)]
    under = [g["opener"] == g["winner"] for g in won if g["turns"] < lo]
    assert outs[0]["under"] == [sum(under), len(under)]
    assert sum(outs[0][k][1] for k in ("under", "within", "over")) == len(won)
    text = subprocess.run(script + [str(new)], capture_output=True, text=True, cwd=root)
    assert f"the player who went first won {sum(firsts)} of {len(won)} (" in text.stdout


def test_eval_ab_script_builds_a_copy_judging_each_seat_with_its_version(tmp_path, sw):
    """bench/eval_ab.py: a copy of the game whose evaluation is the checkout's for one seat and
    another's (a commit's, or a file's) for the others; with the shipped file as the other,
    every position is valued as the game itself values it, seat by seat."""
    from engine.loader import load_game
    from engine.match import Match, RandomBot, play

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "ab"
    other = tmp_path / "evaluate_before.lua"   # (a file, so the test needs no git history)
    other.write_text((root / "rules" / "summoner_wars" / "evaluate.lua").read_text())
    cmd = [sys.executable, str(root / "bench" / "eval_ab.py"), "summoner_wars", "--old", str(other),
           "--seat", "2", "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = (out / "rules" / "summoner_wars" / "evaluate.lua").read_text()
    assert text.count("= function(view, seat)") == 2 and "if seat == 2 then return evaluate_new" in text
    copy = load_game(str(out / "rules" / "summoner_wars"))
    a, b = (Match(g, 3, [Seat("random"), Seat("random")], quiet=True) for g in (copy, sw))
    for m in (a, b):
        play(m, {1: RandomBot(3, 1), 2: RandomBot(3, 2)}, max_decisions=60)
    assert (a.evaluate(1), a.evaluate(2)) == (b.evaluate(1), b.evaluate(2))
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)   # the folder exists now
    assert again.returncode == 1 and again.stderr.strip().endswith("exists: name a new folder")
    bad = subprocess.run(cmd[:4] + ["no-such-commit", "--out", str(tmp_path / "x")], capture_output=True, text=True)
    assert bad.returncode == 1 and "no-such-commit" in bad.stderr and "Traceback" not in bad.stderr
    seat = subprocess.run(cmd[:6] + ["3", "--out", str(tmp_path / "y")], capture_output=True, text=True)
    assert seat.returncode == 1 and "--seat 3: summoner_wars has seats 1 to 2" in seat.stderr
    assert not (tmp_path / "y").exists()


def test_a_burst_of_load_spoils_one_game_of_one_round_not_the_comparison(monkeypatch):
    # every game is timed at 1 s each way, but for a burst (100 s) in game 1 of round 1 and
    # in game 2 of round 2, both with the budget: each game's best round is 1 s every way,
    # so the budget costs nothing. (Timing each way's block of games, every round of the
    # host with the budget held a burst, and the cost came out at 98%.)
    from engine.loader import load_game
    real, calls = bench.play_random, []
    seeds = [bench.game_seed(7, i) for i in range(2)]

    def timed(m, seed, seats, pure_lua):
        real(m, seed, seats, pure_lua)          # (played, so the decisions are the real ones)
        way = "lua" if pure_lua else "no_budget" if (m.game.data.get("limits") or {}).get("steps") == 0 else "host"
        game = seeds.index(seed)
        rnd = calls.count((way, game))
        calls.append((way, game))
        return 100.0 if way == "host" and (rnd, game) in ((0, 0), (1, 1)) else 1.0
    monkeypatch.setattr(bench, "play_random", timed)
    game = load_game("summoner_wars")
    out = bench.comparisons(game, bench.default_seats(game), 2, 7, 2)
    assert len(calls) == 12
    assert out["budget_cost"] == pytest.approx(0, abs=1e-9)
    assert out["budget_on_decisions_per_s"] == pytest.approx(out["budget_off_decisions_per_s"])


def test_a_sims_error_in_a_bots_look_ahead_is_said_as_such(sw, monkeypatch):
    """A script failing in a position a bot imagined (its sample deals the cards it cannot
    see at random) was blamed on the game itself, at its decision."""
    from engine import sim
    from engine.errors import EngineError, ScriptError
    from engine.match import Seat

    def failing(match, **kw):
        def bot(ask):
            raise ScriptError("rules/x.lua:3: attempt to call a nil value (field 'achieved')")
        return {1: bot, 2: bot}
    monkeypatch.setattr(sim, "bots_for", failing)
    with pytest.raises(EngineError) as e:
        sim.run_one(sw, [Seat("greedy"), Seat("greedy")], 6, 100)
    assert re.search(r"field 'achieved'\)\n  in P\d's bot's look-ahead, in a position it imagined \(.*\)\n"
                     r"  in the game of seed 6, at decision \d+", str(e.value)), str(e.value)
