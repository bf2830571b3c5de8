"""Batch simulation: bot games in parallel processes, with a report that is the same for the same arguments."""
from __future__ import annotations

import json
import time
from typing import Callable

from .backends import Batch, open_backend
from .bots import bots_for
from .errors import EngineError
from .lab import summarise, widest, winners_of
from .loader import GameDef
from .match import MAX_SEED, Match, Seat, check_seed, play, state_hash_of


def game_seed(seed: int, index: int) -> int:
    """The seed of the index-th game of a run."""
    return seed + index


def check_run(games: int, seed: int, jobs: int, max_decisions: int) -> None:
    """Raises EngineError when the numbers of a run make no sense (no games, seeds out of range...)."""
    # (named by the command line's flags, where these numbers come from: summon sim, summon bench)
    for name, value, least in (("--games", games, 1), ("--jobs", jobs, 0), ("--max-decisions", max_decisions, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise EngineError(f"{name} must be a whole number, {least} or more, not {value!r}")
    check_seed(seed)
    last = game_seed(seed, games - 1)
    if last > MAX_SEED:
        raise EngineError(f"{games} games from seed {seed} would need seeds up to {last}, past the largest "
                          f"seed {MAX_SEED} (2^63 - 1)")


# The match this process played last, by id of its game object: the next game of the
# same game is built in its Lua runtime (Match's beside) instead of a new one.
_last_match: dict[int, Match] = {}


def check_bot_seats(seats: list[Seat]) -> None:
    """Raises EngineError when a seat is a human's: games run here have nobody to ask."""
    for i, s in enumerate(seats, 1):
        if s.controller == "human":
            raise EngineError(f"seat {i} is 'human', but simulated games are played by bots only: "
                              "give each seat random, greedy, mcts, mcts:N or bot (summon play seats humans)")


def run_one(game: GameDef, seats: list[Seat], seed: int, max_decisions: int, options: dict | None = None) -> dict:
    """Plays one bot game; returns its result (seed, winner, the player whose turn came first,
    decisions, hash, the bots' time, and for the balance lab its turns and rounds, each
    seat's card set and the cards played)."""
    m = Match(game, seed, seats, quiet=True, options=options, beside=_last_match.get(id(game)))
    _last_match.clear()
    _last_match[id(game)] = m      # the next game is built in this one's Lua runtime
    opener = m.active    # whose turn the first decision is in
    bots = bots_for(m)
    thinking = [0.0] * len(seats)
    answered = [0] * len(seats)

    def timed(seat: int):
        bot = bots[seat]

        def answer(ask):
            start = time.perf_counter()
            try:
                return bot(ask)
            except EngineError as e:   # (in a fork or sample the bot made, not in the game itself)
                raise EngineError(f"{e}\n  in P{seat}'s bot's look-ahead, in a position it imagined (the cards "
                                  f"it cannot see are dealt at random there)") from None
            finally:
                thinking[seat - 1] += time.perf_counter() - start
                answered[seat - 1] += 1
        return answer

    try:
        play(m, {i: timed(i) for i in bots}, max_decisions=max_decisions)
    except EngineError as e:
        phase = _phase_of(m)
        raise EngineError(f"{e}\n  in the game of seed {seed}, at decision {m.decisions + 1}"
                          + (f", in the {phase} phase" if phase else "")) from None
    turns, rounds = m.clock()
    state = m.state_json()   # (read once: its hash, and the cards the game made)
    dealt = sorted({c["def"] for c in json.loads(state)["cards"]})
    return {"seed": seed, "winner": m.winner if m.is_over else None, "winners": m.winners, "opener": opener,
            "finished": m.is_over,
            "decisions": m.decisions, "hash": state_hash_of(state),
            "answered": answered, "thinking": [round(t, 6) for t in thinking],
            "turns": turns, "rounds": rounds, "sets": [s.set for s in m.seats],
            "plays": m.plays(), "dealt": dealt}


def _phase_of(m: Match) -> str | None:
    """The phase a match is in (for an error's message), or None when it cannot be read."""
    try:
        return m.snapshot().get("phase")
    except EngineError:
        return None


def seating(n: int, index: int, swap: bool) -> list[int]:
    """Which entrant (0-based, in the order given) sits in each seat in the index-th game:
    the given order, or with swap each game moves everyone one seat on (two players: the
    seats are swapped every other game)."""
    k = index % n if swap else 0
    return [(j + k) % n for j in range(n)]


def run_seated(game: GameDef, entrants: list[Seat], index: int, seed: int, swap: bool, max_decisions: int,
               options: dict | None) -> dict:
    """Plays the index-th game of a run, with the entrants seated for it (see seating)."""
    order = seating(len(entrants), index, swap)
    r = run_one(game, [entrants[e] for e in order], seed, max_decisions, options)
    r["seating"] = order
    return r


def entrant_names(seats: list[Seat], swap: bool = False) -> list[str]:
    """Names for the entrants of a run: their card sets, or their bots, or both; unique, by
    the seat each starts in when two would be alike ("entrant 1: greedy" when --swap moves
    them from seat to seat, else "seat 1: greedy")."""
    sets = [s.set for s in seats]
    kinds = [s.controller for s in seats]
    if all(sets) and len(set(sets)) == len(sets) and len(set(kinds)) == 1:
        names = list(sets)
    elif len(set(kinds)) == len(kinds) and len(set(sets)) <= 1:
        names = list(kinds)
    else:
        names = [k + (f" ({st})" if st else "") for k, st in zip(kinds, sets)]
    if len(set(names)) < len(names):
        names = [f"{'entrant' if swap else 'seat'} {i + 1}: {n}" for i, n in enumerate(names)]
    return names


PRECISION_BATCH = 40   # games per --precision batch, rounded up to a multiple of the entrants


def check_precision(precision: float | None) -> None:
    """Raises EngineError unless precision is None or a ± between 0 and 0.5 (0.03: 3 points)."""
    if precision is None:
        return
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
        raise EngineError(f"--precision is the ± a win rate's 95% interval may have, more than 0 and less "
                          f"than 0.5 (0.03 for 3 points), not {precision!r}")


def batch_size(entrants: int) -> int:
    """Games a --precision batch plays: a multiple of the entrants, so that every seating is
    played equally often by the end of each batch."""
    return -(-PRECISION_BATCH // entrants) * entrants


def _batches(game: GameDef, entrants: list[Seat], todo: list[tuple[int, int, bool]], workers: int,
             max_decisions: int, options: dict | None, cards: dict | None) -> list[Batch]:
    """The games to do, cut into batches small enough for the workers to share them and the
    progress bar to move (the cut changes nothing in the results)."""
    size = max(1, min(10, -(-len(todo) // (4 * workers))))
    return [Batch(str(game.root), tuple(str(p) for p in game.extra_cards), tuple(entrants),
                  tuple(todo[i:i + size]), max_decisions, dict(options or {}), dict(cards or {}))
            for i in range(0, len(todo), size)]


def simulate(game: GameDef, seats: list[Seat], games: int, seed: int, *, jobs: int = 1,
             max_decisions: int = 20000, options: dict | None = None, swap: bool = False,
             cards: dict | None = None, precision: float | None = None, backend=None,
             progress: Callable[[int, int], None] | None = None) -> dict:
    """Plays `games` bot games; returns the report `summon sim --json` prints.

    seats are the entrants in order; with swap they change seats from game to game
    (see seating), and wins are counted for each entrant wherever it sat. An entrant
    that names a card set takes it along; one that does not plays the set of the seat
    it sits in (so two bots swapping seats also play each other's sets).

    cards: card stat changes (card id -> stat -> value) played instead of the printed ones.
    precision: play in batches with seats swapped until every win rate's 95% interval is
    within ±precision, or `games` are played. backend: where games run (backends.open_backend;
    by default this process or a local pool, by jobs). progress(done, total) is called as
    games finish."""
    from .match import assign_sets, check_seats

    check_run(games, seed, jobs, max_decisions)
    check_precision(precision)
    entrants = check_seats(list(seats))
    check_bot_seats(entrants)
    seated = assign_sets(game, entrants)   # (refuses a set the game does not have)
    swap = swap or precision is not None
    if not swap:
        entrants = seated
    names = entrant_names(entrants, swap)
    own = backend is None
    if own:
        backend = open_backend("local", game, jobs, games)
    start = time.perf_counter()
    results: list[dict] = []
    try:
        step = games if precision is None else batch_size(len(entrants))
        while len(results) < games:
            first = len(results)
            todo = [(i, game_seed(seed, i), swap) for i in range(first, min(games, first + step))]
            for part in backend.run(_batches(game, entrants, todo, backend.workers, max_decisions, options, cards)):
                results += part
                if progress:
                    progress(len(results), games)
            if precision is not None and widest(results, names, len(entrants)) <= precision:
                break
    finally:
        if own:
            backend.close()
    results.sort(key=lambda r: r["seed"])
    out = report(game, entrants, names, results, seed, swap, options, time.perf_counter() - start)
    if precision is not None:
        w = widest(results, names, len(entrants))
        out["precision"] = {"target": precision, "met": w <= precision, "widest": round(w, 4),
                            "batch": batch_size(len(entrants)), "most_games": games}
    if cards:
        out["cards"] = cards
    return out


def report(game: GameDef, entrants: list[Seat], names: list[str], results: list[dict], seed: int, swap: bool,
           options: dict | None, seconds: float) -> dict:
    """The report of a run from its results in game order: the fields `summon sim --json`
    has always had, then the balance lab's summary."""
    wins = {n: 0 for n in names}
    first_player_wins = draws = 0
    thinking = [0.0] * len(entrants)
    answered = [0] * len(entrants)
    for r in results:
        order = r["seating"]
        won = winners_of(r)
        if won is not None:
            for w in won:
                wins[names[order[w - 1]]] += 1
            first_player_wins += r["opener"] in won
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
        "games": len(results),
        "seats": [str(s) for s in entrants],
        "swap": swap,
        "options": options or {},
        "finished": sum(r["finished"] for r in results),
        "wins": wins,
        "first_player_wins": first_player_wins,
        "draws": draws,
        "cut_off": sum(not r["finished"] for r in results),
        "decisions": sum(r["decisions"] for r in results),
        "seconds": round(seconds, 3),
        "bots": bots,
        "results": results,
        "summary": {**summarise(results, names, len(entrants), {c: d.set_id for c, d in game.cards.items()},
                                bool(game.data["players"].get("cooperative"))),
                    "never_dealt": never_dealt(game, results)},
    }


def never_dealt(game: GameDef, results: list[dict]) -> list[str]:
    """The cards that no game of the run made, of the sets the seats played (a set's own
    cards, or its deck list), or of every set when seats play none (per_seat: false): a card
    the rules never deal (one left out of a list an option gives, say), which no bot and no
    balance figure can ever see. Results that do not say what they dealt (made by an
    older version of summon, on a worker of a cluster) count for nothing here."""
    results = [r for r in results if "dealt" in r]
    held: set[str] = set() if (game.data.get("sets") or {}).get("per_seat") else set(game.cards)
    for r in results:
        for set_id in r.get("sets") or []:
            sd = game.sets.get(set_id) if set_id is not None else None
            if sd is not None:
                held.update(sd.card_ids)
                held.update(e["card"] for e in sd.data.get("deck") or [] if isinstance(e, dict) and "card" in e)
    dealt = {card for r in results for card in r.get("dealt") or ()}
    return sorted(c for c in held - dealt if c in game.cards) if results else []
