"""Batch simulation: bot games in parallel processes, with a report that is the same for the same arguments."""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

from .errors import EngineError
from .loader import GameDef, load_game
from .match import MAX_SEED, Match, RandomBot, Seat, check_seed, play


def game_seed(seed: int, index: int) -> int:
    """The seed of the index-th game of a run."""
    return seed + index


def check_run(games: int, seed: int, jobs: int, max_decisions: int) -> None:
    """Raises EngineError when the numbers of a run make no sense (no games, seeds out of range...)."""
    for name, value, least in (("games", games, 1), ("jobs", jobs, 0), ("max decisions", max_decisions, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise EngineError(f"{name} must be a whole number, {least} or more, not {value!r}")
    check_seed(seed)
    last = game_seed(seed, games - 1)
    if last > MAX_SEED:
        raise EngineError(f"{games} games from seed {seed} would need seeds up to {last}, past the largest "
                          f"seed {MAX_SEED} (2^63 - 1)")


def run_one(game: GameDef, seats: list[Seat], seed: int, max_decisions: int, options: dict | None = None) -> dict:
    m = Match(game, seed, seats, quiet=True, options=options)
    bots = {i + 1: RandomBot(seed, i + 1) for i in range(len(seats))}
    play(m, bots, max_decisions=max_decisions)
    return {"seed": seed, "winner": m.winner if m.is_over else None, "finished": m.is_over,
            "decisions": m.decisions, "hash": m.state_hash()}


def _run_chunk(args) -> list[dict]:
    game_id, root, extra, seats, seeds, max_decisions, options = args
    game = load_game(str(root), extra)
    return [run_one(game, seats, s, max_decisions, options) for s in seeds]


def simulate(game: GameDef, seats: list[Seat], games: int, seed: int, *, jobs: int = 1,
             max_decisions: int = 20000, options: dict | None = None) -> dict:
    """Plays `games` bot games; returns the report `summon sim --json` prints."""
    from .match import assign_sets, check_seats

    check_run(games, seed, jobs, max_decisions)
    seats = assign_sets(game, check_seats(list(seats)))
    if jobs <= 0:
        jobs = (os.cpu_count() or 1) if games >= 20 else 1
    seeds = [game_seed(seed, i) for i in range(games)]
    start = time.perf_counter()
    if jobs <= 1 or games < 2:
        results = [run_one(game, seats, s, max_decisions, options) for s in seeds]
    else:
        chunks = [seeds[i::jobs] for i in range(jobs)]
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            parts = list(ex.map(_run_chunk, [(game.id, game.root, game.extra_cards, seats, c, max_decisions, options)
                                             for c in chunks]))
        by_seed = {r["seed"]: r for part in parts for r in part}
        results = [by_seed[s] for s in seeds]
    seconds = time.perf_counter() - start
    names = [s.set or f"seat {i + 1}" for i, s in enumerate(seats)]
    if len(set(names)) < len(names):
        names = [f"seat {i + 1}" + (f" ({s.set})" if s.set else "") for i, s in enumerate(seats)]
    wins = {n: 0 for n in names}
    draws = 0
    for r in results:
        if r["finished"] and r["winner"] is not None:
            wins[names[r["winner"] - 1]] += 1
        elif r["finished"]:
            draws += 1
    return {
        "game": game.id,
        "seed": seed,
        "games": games,
        "seats": [str(s) for s in seats],
        "options": options or {},
        "finished": sum(r["finished"] for r in results),
        "wins": wins,
        "draws": draws,
        "decisions": sum(r["decisions"] for r in results),
        "seconds": round(seconds, 3),
        "results": results,
    }
