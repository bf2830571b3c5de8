"""Benchmark: how strong the bots are, game by game: who beats whom, how often, how fast.

    python bench/strength.py summoner_wars summoners_isle --games 100
    python bench/strength.py summonaria --pair mcts:60,greedy --games 100 --chunk 10
    python bench/strength.py --read                  # only sum up what was played

Each pairing A,B (default: greedy,random  mcts,random  mcts,greedy) is played as
`summon sim GAME --players A,B --swap --jobs 1` in chunks of --chunk games (seeds SEED,
SEED+CHUNK, ...), each chunk's JSON kept under OUT/GAME/A_vs_B/ (default bench/out/strength),
so a measure of many hours can be stopped and resumed, and several processes may play one
pairing at once (each takes the next chunk nobody is playing, then waits for the others).
A chunk is a multiple of the players, so the chunks are together exactly the games of one
run `--seed SEED --games GAMES`. The report gives, for every pairing played,
the first player's wins with their 95% interval, draws, games cut off, the median length
(turns, or rounds for a game that counts rounds) and each bot's mean time a decision.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.loader import load_game, resolve  # noqa: E402
from engine.stats import wilson  # noqa: E402

import runs  # noqa: E402  (bench/runs.py)

PAIRS = ["greedy,random", "mcts,random", "mcts,greedy"]


def folder(out: Path, game: str, pair: str) -> Path:
    """Where a pairing's chunks go: OUT/GAME/A_vs_B, with ":" (mcts:60, greedy:SET) written
    "-", so that the kept runs can be checked out on any system."""
    return out / game / pair.replace(",", "_vs_").replace(":", "-")


def stamp(game: str) -> dict:
    """What a chunk of GAME is played with, as digests: the game's rules and card sets (not
    their tests or READMEs) and the bots. A chunk whose stamp differs from the tree's was
    played with other rules or bots, and its figures are not this tree's."""
    rules_dir, cards_dir = resolve(game)
    files = sorted(f for d in (rules_dir, cards_dir) if d for f in d.iterdir()
                   if f.is_file() and f.suffix in (".yaml", ".lua", ".json"))
    rules = hashlib.sha256()
    for f in files:
        rules.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    bots = hashlib.sha256((ROOT / "engine" / "bots.py").read_bytes())
    return {"rules": rules.hexdigest()[:16], "bots": bots.hexdigest()[:16]}


def play(game: str, pair: str, games: int, chunk: int, seed: int, out: Path) -> None:
    """Every chunk not yet played; chunks another process is playing are left to it on the
    first pass and waited for on the second, so the sums reported after are whole."""
    where = folder(out, game, pair)
    played_with = stamp(game)
    for wait in (False, True):
        for first in range(0, games, chunk):
            n = min(chunk, games - first)
            runs.play(where / f"{seed + first}.json",
                      [game, "--players", pair, "--swap", "--seed", str(seed + first), "--games", str(n), "--jobs", "1"],
                      f"{game} {pair}: games {first + 1}-{first + n} of {games}", wait=wait,
                      stamp=played_with)


def summary(where: Path, current: dict | None) -> dict | None:
    """The sums over a pairing's chunks, or None when none was played; `stale` counts the
    chunks not played with CURRENT (the tree's stamp; None: a game this tree does not have)."""
    played = runs.runs(where)
    if not played:
        return None
    stale = sum(1 for _, run in played if current is None or run.get("played_with") != current)
    names: list[str] = [b["entrant"] for b in played[0][1]["bots"]]   # in the order named
    wins = {n: 0 for n in names}
    decisions = {n: 0 for n in names}
    seconds = {n: 0.0 for n in names}
    games = draws = cut_off = 0
    turns: list[int] = []
    rounds: list[int] = []
    for path, run in played:
        if [b["entrant"] for b in run["bots"]] != names:
            sys.exit(f"{path}:1:1: a run of {', '.join(b['entrant'] for b in run['bots'])}, not of {', '.join(names)} like the "
                     f"others in {where}")
        games += run["games"]
        draws += run["draws"]
        cut_off += run["cut_off"]
        for n in names:
            wins[n] += run["wins"][n]
        for b in run["bots"]:
            decisions[b["entrant"]] += b["decisions"]
            seconds[b["entrant"]] += b["seconds"]
        turns += [r["turns"] for r in run["results"] if r.get("turns")]
        rounds += [r["rounds"] for r in run["results"] if r.get("rounds")]
    low, high = wilson(wins[names[0]], games)
    seats = played[0][1].get("seats")
    pair = ",".join(seats) if isinstance(seats, list) else where.name.replace("_vs_", ",")
    return {"pair": pair, "players": names, "chunks": len(played), "stale": stale, "games": games, "wins": wins, "draws": draws, "cut_off": cut_off,
            "rate": wins[names[0]] / games if games else None, "low": low, "high": high,
            "median_turns": statistics.median(turns) if turns else None,
            "median_rounds": statistics.median(rounds) if rounds else None,
            "ms_per_decision": {n: round(1000 * seconds[n] / decisions[n], 1) if decisions[n] else None
                                for n in names}}


def report(out: Path, games: list[str] | None) -> list[dict]:
    rows = []
    for game_dir in sorted(p for p in out.iterdir() if p.is_dir()) if out.is_dir() else []:
        if games and game_dir.name not in games:
            continue
        try:
            current = stamp(game_dir.name)
        except EngineError:
            current = None
        for where in sorted(p for p in game_dir.iterdir() if p.is_dir()):
            s = summary(where, current)
            if s is not None:
                rows.append({"game": game_dir.name, **s})
    return rows


def length(row: dict) -> str:
    """A pairing's median game length as the game counts it: turns, or else rounds."""
    if row["median_turns"] is not None:
        return f"{row['median_turns']:g} turns"
    if row["median_rounds"] is not None:
        return f"{row['median_rounds']:g} rounds"
    return "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games to measure (all four shipped when none is named)")
    ap.add_argument("--pair", action="append", help="players A,B (repeatable; default: " + "  ".join(PAIRS) + ")")
    ap.add_argument("--games", dest="count", type=int, default=100, help="games a pairing plays")
    ap.add_argument("--chunk", type=int, default=10, help="games a chunk (a multiple of the players)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "strength")
    ap.add_argument("--read", action="store_true", help="play nothing: only sum up the chunks in OUT")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.count < 1 or args.chunk < 1:
        sys.exit("--games and --chunk must be 1 or more")
    if not args.read:
        names = args.games or ["summoner_wars", "summoners_isle", "summoner_tcg", "summonaria"]
        for game in names:
            try:
                load_game(game)
            except EngineError as e:
                sys.exit(str(e))
        for pair in args.pair or PAIRS:
            players = len(pair.split(","))
            if args.chunk % players:
                sys.exit(f"--chunk {args.chunk} is not a multiple of the {players} players of {pair}: "
                         "the chunks would not seat them as one run does")
        for game in names:
            for pair in args.pair or PAIRS:
                play(game, pair, args.count, args.chunk, args.seed, args.out)
    rows = report(args.out, args.games)
    if not rows:
        sys.exit(f"no runs in {args.out}")
    for r in rows:
        if r["stale"]:
            print(f"{r['game']} {r['pair']}: {r['stale']} of {r['chunks']} chunks were not played with this tree's "
                  f"rules, cards and bots (or do not say); move them out of {args.out} and play again for this "
                  "tree's figures", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':<16}{'players':<36}{'first won':>12}  95% int.  draws  cut  length      ms a decision")
    for r in rows:
        first = r["players"][0]
        ms = ", ".join(f"{r['ms_per_decision'][n]}" for n in r["players"])
        print(f"{r['game']:<16}{r['pair']:<36}{r['wins'][first]:>6}/{r['games']:<5}"
              f"  {r['low'] * 100:.0f}-{r['high'] * 100:.0f}%  {r['draws']:>5}  {r['cut_off']:>3}"
              f"  {length(r):<10}  {ms}")


if __name__ == "__main__":
    main()
