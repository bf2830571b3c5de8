"""Benchmark: what a searching bot pays, game by game: a fork, a sample (a fork with the
cards the seat cannot see dealt again), an evaluation, and a greedy and an mcts decision.

    python bench/search_speed.py [--games G ...] [--iterations 60] [--seed 4]

Positions come from random-bot games (decisions 20, 40, ... 180 of one seed) of a match
that keeps checkpoints, as a match a bot searches in does. Fork, sample and evaluation
are medians of 60 at each position; a bot's time is its mean time a decision over the
positions. Times are CPU time of this process (time.process_time), so another busy
process on the machine shifts them less than wall-clock times; compare two checkouts by
running this script from each, one after the other, more than once.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bench import advanced, default_seats  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.loader import load_game  # noqa: E402
from engine.match import Ask  # noqa: E402

GAMES = ["summoner_wars", "summoners_isle", "summoner_tcg", "summonaria"]
REPEAT = 60


def _median_us(fn) -> float:
    times = []
    for _ in range(REPEAT):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times) * 1e6


def measure(game_id: str, seed: int, iterations: int) -> dict:
    game = load_game(game_id)
    seats = default_seats(game)
    fork, sample, evaluate, greedy, mcts = [], [], [], [], []
    for at in range(20, 200, 20):
        m = advanced(game, seed, seats, at, checkpoints=True)
        if m.pending is None:
            break
        p = m.pending.player
        seeds = iter(range(10**6))
        fork.append(_median_us(m.fork))
        sample.append(_median_us(lambda: m.sample(p, next(seeds))))
        evaluate.append(_median_us(lambda: m.evaluate(p)))
        for kind, out in (("greedy", greedy), (f"mcts:{iterations}", mcts)):
            bot = make_bot(kind, seed, p)
            t = time.process_time()
            bot(Ask(m))
            out.append(time.process_time() - t)
    return {"positions": len(fork), "fork_us": statistics.median(fork), "sample_us": statistics.median(sample),
            "evaluate_us": statistics.median(evaluate), "greedy_ms": statistics.mean(greedy) * 1e3,
            "mcts_ms": statistics.mean(mcts) * 1e3}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=GAMES)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    print(f"{'game':<16}{'positions':>10}{'fork µs':>10}{'sample µs':>11}{'evaluate µs':>13}"
          f"{'greedy ms':>11}{f'mcts:{args.iterations} ms':>13}")
    for g in args.games:
        r = measure(g, args.seed, args.iterations)
        print(f"{g:<16}{r['positions']:>10}{r['fork_us']:>10.0f}{r['sample_us']:>11.0f}{r['evaluate_us']:>13.0f}"
              f"{r['greedy_ms']:>11.1f}{r['mcts_ms']:>13.1f}")


if __name__ == "__main__":
    main()
