"""Speed and size of a game's matches, measured in one run (`summon bench`).

Every time is wall-clock time from time.perf_counter (the figure on every core needs a wall
clock, and one clock serves all). Comparisons (step budget on and off, host and pure Lua)
alternate their variants game by game, so that a change in the machine's load hits each
alike, and keep each variant's best round of each game.
"""
from __future__ import annotations

import dataclasses
import gc
import math
import multiprocessing
import os
import statistics
import time
from typing import Any, Callable

from .errors import EngineError
from .loader import GameDef, load_game
from .match import Match, RandomBot, Seat, check_seed, play
from .reload import reload_match
from .sim import check_run, game_seed, simulate

CLOCK = "time.perf_counter (wall clock)"
MAX_DECISIONS = 20000        # a game longer than this stops, as in `summon sim`
LIVE_MATCHES = 200           # matches held at once for the memory figure
LIVE_AT = 150                # the decision those matches (and the forked one) are taken to
RELOAD_AT = 300              # the decision the reloaded match is at
SEEDS_TRIED = 50             # games tried to find one that lasts LIVE_AT or RELOAD_AT decisions
SAMPLE_SECONDS = 1.0         # a repeated timing (start, fork) stops after this long...
SAMPLE_MAX = 200             # ...or this many samples
POSITION_STEP = 10           # fork_us_positions: a position every this many decisions up to the forked one
POSITION_FORKS = 25          # forks timed at each of those positions (after COPIER_WARM_UP untimed ones)
COPIER_WARM_UP = 8           # forks of a checkpoint before its compiled copier takes over (flow.lua)
COMPARISON_SHARE = 3         # the comparisons play a third of the games, three ways a round

# The goals of issue 13 (figure -> ("max" or "min", value)).
GOALS: dict[str, tuple[str, float]] = {
    "decisions_per_s_one_process": ("min", 100_000),
    "fork_us": ("max", 50),
    "memory_per_match_mb": ("max", 1.0),
    "budget_cost": ("max", 0.10),
    "reload_ms": ("max", 100),
    "host_vs_lua_ratio": ("max", 1.25),
}

# The figures in the order they are measured and printed.
FIGURES = ["decisions_per_s_one_process", "decisions_per_s_all_cores", "match_start_ms", "fork_us",
           "memory_per_match_mb", "budget_cost", "host_vs_lua_ratio", "reload_ms"]

Progress = Callable[[str, dict], Any]


def default_seats(game: GameDef) -> list[Seat]:
    """Bot seats, as many as the game's default number of players."""
    pl = game.data["players"]
    return [Seat("random") for _ in range(pl.get("default", pl["min"]))]


def check_bench(games: int, seed: int, rounds: int) -> None:
    """Raises EngineError when the numbers of a bench run make no sense."""
    for name, value in (("--games", games), ("--rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EngineError(f"{name} must be a whole number, 1 or more, not {value!r}")
    check_seed(seed)
    # the memory figure builds LIVE_MATCHES matches from consecutive seeds
    check_run(max(games, LIVE_MATCHES), seed, 1, MAX_DECISIONS)


def _bots(seed: int, seats: list[Seat]) -> dict:
    return {i + 1: RandomBot(seed, i + 1) for i in range(len(seats))}


def advanced(game: GameDef, seed: int, seats: list[Seat], decisions: int, *,
             checkpoints: bool = False, beside: Match | None = None) -> Match:
    """A match played by random bots (answering through Match.answer) to `decisions` or its end;
    with checkpoints, one that keeps them (as a match that search forks does); beside: built
    in that match's Lua runtime."""
    m = Match(game, seed, seats, quiet=True, beside=beside)
    if checkpoints:
        m.keep_checkpoints()
    return play(m, _bots(seed, seats), max_decisions=decisions)


def _repeat(fn: Callable[[], Any]) -> list[float]:
    """Seconds each call of fn takes, called until SAMPLE_SECONDS have passed or SAMPLE_MAX calls."""
    times: list[float] = []
    deadline = time.perf_counter() + SAMPLE_SECONDS
    while len(times) < SAMPLE_MAX and (len(times) < 3 or time.perf_counter() < deadline):
        t = time.perf_counter()
        made = fn()
        times.append(time.perf_counter() - t)
        del made    # freeing what fn made is not part of its time
    return times


# -- the figures ------------------------------------------------------------------------

def rates(game: GameDef, seats: list[Seat], games: int, seed: int) -> dict:
    """Decisions per second of `summon sim` (random bots) with one process and with every core."""
    cores = os.cpu_count() or 1
    out = {"cores": cores}
    for key, jobs in (("decisions_per_s_one_process", 1), ("decisions_per_s_all_cores", cores)):
        run = simulate(game, seats, games, seed, jobs=jobs, max_decisions=MAX_DECISIONS)
        out[key] = run["decisions"] / max(run["seconds"], 1e-9)
    return out


def start_time(game: GameDef, seats: list[Seat], seed: int) -> dict:
    """Milliseconds to build a match (its setup run up to the first decision): median and best;
    and the median when each is built in the runtime of the one before, as `summon sim` does."""
    seeds = iter(range(seed, seed + SAMPLE_MAX))
    times = _repeat(lambda: Match(game, next(seeds), seats, quiet=True))
    last = [Match(game, seed, seats, quiet=True)]

    def beside() -> None:
        last[0] = Match(game, next(seeds), seats, quiet=True, beside=last[0])

    seeds = iter(range(seed, seed + SAMPLE_MAX))
    again = _repeat(beside)
    return {"match_start_ms": statistics.median(times) * 1000, "match_start_ms_best": min(times) * 1000,
            "match_start_samples": len(times), "match_start_beside_ms": statistics.median(again) * 1000}


def running_at(game: GameDef, seats: list[Seat], seed: int, at: int, *, checkpoints: bool = False) -> Match:
    """A match still running at decision `at` (one can only fork a running match): the first
    of SEEDS_TRIED games from `seed` that lasts past it, else the longest of them taken to
    its last decision (games that all end sooner, such as short card games)."""
    longest: tuple[int, int] | None = None    # (decisions, seed)
    for i in range(SEEDS_TRIED):
        s = game_seed(seed, i)
        m = advanced(game, s, seats, at, checkpoints=checkpoints)
        if m.pending is not None:
            return m
        if longest is None or m.decisions > longest[0]:
            longest = (m.decisions, s)
    assert longest is not None
    if longest[0] < 1:
        raise EngineError(f"{game.id}: no game from seed {seed} asks anything, so none can be forked")
    return advanced(game, longest[1], seats, longest[0] - 1, checkpoints=checkpoints)


def fork_time(game: GameDef, seats: list[Seat], seed: int) -> dict:
    """Microseconds Match.fork() takes at decision LIVE_AT of a match that keeps checkpoints
    (so a fork replays the current turn only), or as late as a running match allows when
    games end sooner (running_at): median and best."""
    m = running_at(game, seats, seed, LIVE_AT, checkpoints=True)
    times = _repeat(m.fork)
    out = {"fork_us": statistics.median(times) * 1e6, "fork_us_best": min(times) * 1e6,
           "fork_at_decision": m.decisions, "fork_samples": len(times), "sample_us": None}
    out.update(fork_positions(game, seats, m.seed, m.decisions))
    if m.pending is not None:   # a bot's sample: a fork with the hidden cards dealt again
        seeds = iter(range(SAMPLE_MAX))
        out["sample_us"] = statistics.median(_repeat(lambda: m.sample(m.pending.player, next(seeds)))) * 1e6
    return out


def fork_positions(game: GameDef, seats: list[Seat], seed: int, last: int) -> dict:
    """The fork time of positions along the game that fork_time forks: every POSITION_STEP
    decisions up to `last`, the median of POSITION_FORKS forks at each (a search's root,
    forked again and again); returns the median of those medians, in µs. One position's
    fork depends on where its question is asked (at a phase's offer no rule runs again;
    inside a card's ability the answers since the step's question are replayed), so the
    figure over positions is what a search pays in a game, beside the one position."""
    m = Match(game, seed, seats, quiet=True).keep_checkpoints()
    bots = _bots(seed, seats)
    medians = []
    for at in range(POSITION_STEP, last + 1, POSITION_STEP):
        play(m, bots, max_decisions=at)
        if m.pending is None:
            break
        for _ in range(COPIER_WARM_UP):
            m.fork()
        times = []
        for _ in range(POSITION_FORKS):
            t = time.perf_counter()
            made = m.fork()
            times.append(time.perf_counter() - t)
            del made
        medians.append(statistics.median(times))
    return {"fork_us_positions": statistics.median(medians) * 1e6 if medians else None,
            "fork_positions": len(medians)}


def _rss_bytes() -> tuple[int, str]:
    """This process's resident memory now, and where the figure comes from."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024, "/proc/self/status VmRSS"
    except OSError:
        pass
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak * (1 if sys.platform == "darwin" else 1024), "resource.getrusage ru_maxrss (peak)"


def _live_matches(root: str, seats: list[Seat], seed: int, beside: bool) -> dict:
    """In a fresh process: resident memory growth from holding LIVE_MATCHES matches at decision
    LIVE_AT, each in a Lua runtime of its own, or (beside) all in the runtime of the first."""
    game = load_game(root)
    first = advanced(game, seed, seats, LIVE_AT)     # one first, so one-off costs are not counted
    gc.collect()
    before, source = _rss_bytes()
    live = [first]
    for i in range(LIVE_MATCHES):
        live.append(advanced(game, game_seed(seed, i), seats, LIVE_AT, beside=live[-1] if beside else None))
    live = live[1:]
    gc.collect()
    after, _ = _rss_bytes()
    per_match = (after - before) / LIVE_MATCHES / 2**20
    if beside:
        return {"memory_per_match_beside_mb": per_match}
    return {"memory_per_match_mb": per_match, "memory_matches": len(live),
            "memory_at_decision": statistics.mean(m.decisions for m in live), "memory_source": source}


def memory(game: GameDef, seats: list[Seat], seed: int) -> dict:
    """Memory per live match, measured in fresh processes so earlier work does not blur it:
    each match with a runtime of its own, and all in one runtime (as `summon sim` builds
    game after game, and as a search holds its forks)."""
    ctx = multiprocessing.get_context("spawn")
    out = {}
    for beside in (False, True):
        with ctx.Pool(1) as pool:
            out.update(pool.apply(_live_matches, (str(game.root), seats, seed, beside)))
    return out


def _without_budget(game: GameDef) -> GameDef:
    """The game with no step budget at all: its Lua compiled without steps (limits: {steps: 0},
    which only a benchmark can set: game.yaml's schema refuses it)."""
    limits = dict(game.data.get("limits") or {}, steps=0)
    return dataclasses.replace(game, data={**game.data, "limits": limits})


def play_random(m: Match, seed: int, seats: list[Seat], pure_lua: bool) -> float:
    """Plays a built match on to its end (or MAX_DECISIONS) with random answers, by RandomBot
    through the host or by Match.rollout inside Lua, both seeded with `seed`; returns the
    seconds it took."""
    t = time.perf_counter()
    if pure_lua:
        m.rollout(seed, MAX_DECISIONS)
    else:
        play(m, _bots(seed, seats), max_decisions=MAX_DECISIONS)
    return time.perf_counter() - t


def comparisons(game: GameDef, seats: list[Seat], games: int, seed: int, rounds: int) -> dict:
    """The step budget's cost and the host against the pure-Lua driver, from one set of rounds.

    Each game is played three ways in a row: host with the budget (the normal case), host
    with no budget, and Match.rollout with it; each round plays every game so. Each game's
    best round counts for each way, so a burst of load on the machine spoils one game's
    time of one way in one round, not a whole way's block of games.
    """
    variants = {"host": (game, False), "no_budget": (_without_budget(game), False), "lua": (game, True)}
    best = {name: [math.inf] * games for name in variants}
    decisions = {name: [0] * games for name in variants}
    for _ in range(rounds):
        for i in range(games):
            s = game_seed(seed, i)
            for name, (g, pure_lua) in variants.items():
                m = Match(g, s, seats, quiet=True)
                took = play_random(m, s, seats, pure_lua)
                if took < best[name][i]:
                    best[name][i], decisions[name][i] = took, m.decisions
    # seconds per decision
    per = {name: max(sum(best[name]), 1e-12) / max(sum(decisions[name]), 1) for name in variants}
    return {
        "budget_cost": 1 - per["no_budget"] / per["host"],
        "budget_on_decisions_per_s": 1 / per["host"],
        "budget_off_decisions_per_s": 1 / per["no_budget"],
        "host_vs_lua_ratio": per["host"] / per["lua"],
        "host_decisions_per_s": 1 / per["host"],
        "lua_decisions_per_s": 1 / per["lua"],
        "comparison_games": games,
    }


def reload_time(game: GameDef, seats: list[Seat], seed: int, rounds: int) -> dict:
    """Milliseconds engine.reload.reload_match (what the REPL's reload and --watch call) takes for
    a match at decision RELOAD_AT, found as running_at finds one."""
    m = running_at(game, seats, seed, RELOAD_AT)
    times = []
    for _ in range(2 * rounds + 1):
        t = time.perf_counter()
        result = reload_match(m)
        times.append(time.perf_counter() - t)
        if result.match is None or result.diverged_at is not None:
            raise EngineError(f"{game.id}: reloading a match at decision {m.decisions} did not replay it: "
                              f"{result.report.splitlines()[0]}")
    return {"reload_ms": statistics.median(times) * 1000, "reload_ms_best": min(times) * 1000,
            "reload_at_decision": m.decisions}


def met(result: dict) -> dict[str, bool | None]:
    """Whether each figure with a goal meets it (None when the figure is not available)."""
    out = {}
    for key, (kind, goal) in GOALS.items():
        v = result.get(key)
        out[key] = None if v is None else (v >= goal if kind == "min" else v <= goal)
    return out


def run(game_id: str, *, games: int = 120, seed: int = 7, rounds: int = 3,
        progress: Progress | None = None) -> dict:
    """Measures every figure for a game; returns them as one dict (`summon bench --json`).
    `progress(figure, figures so far)` is called as each figure is ready."""
    check_bench(games, seed, rounds)
    game = load_game(game_id)
    seats = default_seats(game)
    out: dict[str, Any] = {"game": game.id, "seed": seed, "games": games, "rounds": rounds, "clock": CLOCK}

    def done(part: dict, *figures: str) -> None:
        out.update(part)
        for f in figures:
            if progress:
                progress(f, out)

    done(rates(game, seats, games, seed), "decisions_per_s_one_process", "decisions_per_s_all_cores")
    done(start_time(game, seats, seed), "match_start_ms")
    done(fork_time(game, seats, seed), "fork_us")
    done(memory(game, seats, seed), "memory_per_match_mb")
    done(comparisons(game, seats, max(1, games // COMPARISON_SHARE), seed, rounds),
         "budget_cost", "host_vs_lua_ratio")
    done(reload_time(game, seats, seed, rounds), "reload_ms")
    out["goals"] = {k: {kind: v} for k, (kind, v) in GOALS.items()}
    out["met"] = met(out)
    return out

