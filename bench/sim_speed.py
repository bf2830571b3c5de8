"""Benchmark: decisions per second of bot games, in one process and on every core.

    python bench/sim_speed.py [GAME] [--games N] [--seed S] [--budget [--rounds R]]

Prints one line per configuration. Figures vary with the machine's load; run it on
an idle machine and compare runs, never assert on them in tests.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.loader import load_game  # noqa: E402
from engine.match import Seat  # noqa: E402
from engine.sim import simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="summoner_wars")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", action="store_true", help="also measure the instruction-budget hook's cost")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the --budget comparison (best of)")
    args = ap.parse_args()
    game = load_game(args.game)
    n = game.data["players"].get("default", game.data["players"]["min"])
    seats = [Seat("bot") for _ in range(n)]
    for jobs in sorted({1, os.cpu_count() or 1}):
        out = simulate(game, seats, args.games, args.seed, jobs=jobs)
        rate = out["decisions"] / out["seconds"]
        print(f"{args.game}: {args.games} games, jobs {jobs}: {out['decisions']} decisions "
              f"in {out['seconds']:.2f} s = {rate:,.0f} decisions/s ({out['finished']} finished)")
    if args.budget:
        # The instruction-budget hook's cost: the same games with no hook at all (hook_every 0
        # sets none). A count hook makes Lua check every instruction, not only those it fires
        # on, so a hook that merely fires rarely would hide most of the cost. Rounds alternate
        # between the two, so that a change in the machine's load hits both alike.
        import dataclasses

        variants = {}
        for label, every in (("budget hook on", None), ("budget hook off", 0)):
            limits = dict(game.data.get("limits") or {}, **({} if every is None else {"hook_every": every}))
            variants[label] = dataclasses.replace(game, data={**game.data, "limits": limits})
        rates = dict.fromkeys(variants, 0.0)
        for _ in range(args.rounds):
            for label, variant in variants.items():
                out = simulate(variant, seats, args.games, args.seed, jobs=1)
                rates[label] = max(rates[label], out["decisions"] / out["seconds"])
        for label, best in rates.items():
            print(f"{label}: {best:,.0f} decisions/s (best of {args.rounds}, jobs 1)")
        cost = 1 - rates["budget hook on"] / rates["budget hook off"]
        print(f"budget hook cost: {cost:.1%}")


if __name__ == "__main__":
    main()
