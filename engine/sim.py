"""Batch simulation: bot games in parallel processes, with a report that is the same for the same arguments."""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

from .errors import EngineError
from .loader import GameDef, load_game
from .bots import bots_for
from .match import MAX_SEED, Match, Seat, check_seed, play


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
    bots = bots_for(m)
    thinking = [0.0] * len(seats)
    answered = [0] * len(seats)

    def timed(seat: int):
        bot = bots[seat]

        def answer(ask):
            start = time.perf_counter()
            try:
                return bot(ask)
            finally:
                thinking[seat - 1] += time.perf_counter() - start
                answered[seat - 1] += 1
        return answer

    try:
        play(m, {i: timed(i) for i in bots}, max_decisions=max_decisions)
    except EngineError as e:
        raise EngineError(f"{e}\n  in the game of seed {seed}, at decision {m.decisions + 1}") from None
    return {"seed": seed, "winner": m.winner if m.is_over else None, "finished": m.is_over,
            "decisions": m.decisions, "hash": m.state_hash(),
            "answered": answered, "thinking": [round(t, 6) for t in thinking]}


def seating(n: int, index: int, swap: bool) -> list[int]:
    """Which entrant (0-based, in the order given) sits in each seat in the index-th game:
    the given order, or with swap each game moves everyone one seat on (two players: the
    seats are swapped every other game)."""
    k = index % n if swap else 0
    return [(j + k) % n for j in range(n)]


def _run_chunk(args) -> list[dict]:
    game_id, root, extra, entrants, jobs, max_decisions, options = args
    game = load_game(str(root), extra)
    return [_run_seated(game, entrants, i, s, swap, max_decisions, options) for i, s, swap in jobs]


def _run_seated(game: GameDef, entrants: list[Seat], index: int, seed: int, swap: bool, max_decisions: int,
                options: dict | None) -> dict:
    order = seating(len(entrants), index, swap)
    r = run_one(game, [entrants[e] for e in order], seed, max_decisions, options)
    r["seating"] = order
    return r


def entrant_names(seats: list[Seat]) -> list[str]:
    """Names for the entrants of a run: their card sets, or their bots, or both; unique."""
    sets = [s.set for s in seats]
    kinds = [s.controller for s in seats]
    if all(sets) and len(set(sets)) == len(sets) and len(set(kinds)) == 1:
        names = list(sets)
    elif len(set(kinds)) == len(kinds) and len(set(sets)) <= 1:
        names = list(kinds)
    else:
        names = [k + (f" ({st})" if st else "") for k, st in zip(kinds, sets)]
    if len(set(names)) < len(names):
        names = [f"seat {i + 1}: {n}" for i, n in enumerate(names)]
    return names


def simulate(game: GameDef, seats: list[Seat], games: int, seed: int, *, jobs: int = 1,
             max_decisions: int = 20000, options: dict | None = None, swap: bool = False) -> dict:
    """Plays `games` bot games; returns the report `summon sim --json` prints.

    seats are the entrants in order; with swap they change seats from game to game
    (see seating), and wins are counted for each entrant wherever it sat. An entrant
    that names a card set takes it along; one that does not plays the set of the seat
    it sits in (so two bots swapping seats also play each other's sets)."""
    from .match import assign_sets, check_seats

    check_run(games, seed, jobs, max_decisions)
    entrants = check_seats(list(seats))
    seated = assign_sets(game, entrants)   # (refuses a set the game does not have)
    if not swap:
        entrants = seated
    if jobs <= 0:
        jobs = (os.cpu_count() or 1) if games >= 20 else 1
    todo = [(i, game_seed(seed, i), swap) for i in range(games)]
    start = time.perf_counter()
    if jobs <= 1 or games < 2:
        results = [_run_seated(game, entrants, i, s, sw, max_decisions, options) for i, s, sw in todo]
    else:
        chunks = [todo[i::jobs] for i in range(jobs)]
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            parts = list(ex.map(_run_chunk, [(game.id, game.root, game.extra_cards, entrants, c, max_decisions,
                                              options) for c in chunks]))
        by_seed = {r["seed"]: r for part in parts for r in part}
        results = [by_seed[s] for _, s, _ in todo]
    seconds = time.perf_counter() - start
    names = entrant_names(entrants)
    wins = {n: 0 for n in names}
    first_seat_wins = draws = 0
    thinking = [0.0] * len(entrants)
    answered = [0] * len(entrants)
    for r in results:
        order = r["seating"]
        if r["finished"] and r["winner"] is not None:
            wins[names[order[r["winner"] - 1]]] += 1
            first_seat_wins += r["winner"] == 1
        elif r["finished"]:
            draws += 1
        for seat, e in enumerate(order):
            thinking[e] += r["thinking"][seat]
            answered[e] += r["answered"][seat]
    bots = []
    for e, s in enumerate(entrants):
        n, t = answered[e], thinking[e]
        bots.append({"entrant": names[e], "bot": s.controller, "decisions": n, "seconds": round(t, 3),
                     "ms_per_decision": round(1000 * t / n, 3) if n else None})
    return {
        "game": game.id,
        "seed": seed,
        "games": games,
        "seats": [str(s) for s in entrants],
        "swap": swap,
        "options": options or {},
        "finished": sum(r["finished"] for r in results),
        "wins": wins,
        "first_seat_wins": first_seat_wins,
        "draws": draws,
        "decisions": sum(r["decisions"] for r in results),
        "seconds": round(seconds, 3),
        "bots": bots,
        "results": results,
    }
