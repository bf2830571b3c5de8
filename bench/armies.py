"""Benchmark: win rates of a game's card sets when there are more sets than seats.

    python bench/armies.py summonaria --players 4 --bot mcts:60 --games 8 --seed 10
    python bench/armies.py summonaria --read out/          # sum up runs already played

Plays one `summon sim` run per card set left out (seeds SEED, SEED+1, ... in the sets'
alphabetical order), each with the other sets in the seats, `--swap` and `--jobs 1`, so
every set plays as many games as every other and sits in every seat equally often.
Each run's JSON goes to OUT/<seed>.json (a run whose file is there is not played again,
so an interrupted measure resumes); then the wins of every set over all runs are summed
with their 95% Wilson intervals. Run it again with another --seed for more games.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.loader import load_game  # noqa: E402
from engine.stats import wilson  # noqa: E402

import runs  # noqa: E402  (bench/runs.py)


def play(game: str, sets: list[str], players: int, bot: str, games: int, seed: int, out: Path) -> None:
    if players >= len(sets):
        sys.exit(f"{game} has {len(sets)} card sets to play: leaving one out needs more sets than {players} seats")
    out.mkdir(parents=True, exist_ok=True)
    for k, left_out in enumerate(sets):
        seated = [s for s in sets if s != left_out][:players]
        runs.play(out / f"{seed + k}.json",
                  [game, "--players", ",".join(f"{bot}:{s}" for s in seated), "--swap", "--seed", str(seed + k),
                   "--games", str(games), "--jobs", "1"],
                  f"seed {seed + k}: without {left_out}")


def summary(out: Path) -> list[dict]:
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    for _, run in runs.runs(out):
        for r in run["results"]:
            for s in r["sets"]:
                played[s] = played.get(s, 0) + 1
                wins.setdefault(s, 0)
            if r.get("finished") and r.get("winner") is not None:
                wins[r["sets"][r["winner"] - 1]] += 1
    rows = []
    for s in sorted(played, key=lambda s: (-wins[s] / played[s], s)):
        low, high = wilson(wins[s], played[s])
        rows.append({"set": s, "wins": wins[s], "games": played[s], "rate": wins[s] / played[s],
                     "low": low, "high": high})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="mcts:60")
    ap.add_argument("--games", type=int, default=8, help="games a run (a multiple of --players)")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--out", type=Path, default=None, help="where each run's JSON goes (default bench/out/GAME)")
    ap.add_argument("--read", type=Path, default=None, help="only sum up the runs in this folder")
    args = ap.parse_args()
    out = args.read or args.out or ROOT / "bench" / "out" / args.game
    if args.read is None:
        try:
            game = load_game(args.game)
        except EngineError as e:
            sys.exit(str(e))
        sets = sorted(sid for sid, s in game.sets.items() if s.data.get("playable", True))
        play(args.game, sets, args.players, args.bot, args.games, args.seed, out)
    rows = summary(out)
    if not rows:
        sys.exit(f"no runs in {out}")
    print(f"{'set':<28}{'won':>8}{'rate':>8}  95% interval")
    for r in rows:
        print(f"{r['set']:<28}{r['wins']:>4}/{r['games']:<3}{r['rate'] * 100:>7.1f}%  "
              f"{r['low'] * 100:.0f}-{r['high'] * 100:.0f}%")


if __name__ == "__main__":
    main()
