"""Benchmark: how long games last, from kept runs of `summon sim --json`.

    python bench/lengths.py bench/results/tcg_lengths/fog bench/results/tcg_lengths/before
    python bench/lengths.py DIR --band 10,30 --json
    python bench/lengths.py bench/results/tcg_lengths/tried/* --against bench/results/tcg_lengths/fog

For each folder of runs (every *.json in it, as bench/strength.py and bench/armies.py keep
them) the report gives the games, the median length and its quartiles, how many games
ended within the band (default 10-30, with the 95% Wilson interval of that share),
before it and after it, the games cut off, the wins of each card set, and how many of the
games won the player who went first won, in all and under, within and over the band (read
from each result's `opener`; a run kept before `summon sim` gave it has its matches built
again from their seeds to find out). The length is the game's own count: turns, or rounds
for a game that counts rounds (Summoner's Isle). A game cut off is counted at the length it
reached.

With --against BASE, each folder is compared with BASE on the games of the seeds both
played (a variant against the bots it changes, game for game): the folder's figures count
only those games, and BASE's figures on the same seeds follow them, then the difference
in the share within the band with its 95% interval (Newcombe's, for two independent
samples: the same seeds played by other bots soon make other games). An interval that
takes in 0 means the runs cannot tell the two apart.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import runs  # noqa: E402  (bench/runs.py)
from engine.stats import difference, pct, wilson  # noqa: E402


def band(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW,HIGH (two whole numbers), got {text!r}") from None
    if lo > hi:
        raise argparse.ArgumentTypeError(f"LOW must not be above HIGH, got {text!r}")
    return lo, hi


def length(game: dict) -> int:
    """A game's length as its game counts it: rounds when it counts rounds, else turns."""
    return game["rounds"] if game.get("rounds") else game["turns"]


def games(folder: Path) -> list[dict]:
    """Every game of every run kept in the folder; stops naming a file that is not a run's."""
    found = runs.runs(folder)
    if not found:
        sys.exit(f"{folder}: no runs (*.json) here")
    out = []
    for path, run in found:
        for i, g in enumerate(run["results"]):
            if not isinstance(g, dict) or not isinstance(g.get("turns"), int) or not isinstance(g.get("seed"), int):
                sys.exit(f"{path}:1:1: game {i + 1} of this run has no turns or seed; not a run's JSON? "
                         "delete it to play that run again")
            if "opener" not in g:
                g = {**g, "opener": opener(run, g)}
            out.append({**g, "game": run.get("game")})
    return out


_loaded: dict[str, object] = {}


def opener(run: dict, g: dict) -> int | None:
    """Who took the first turn of a game kept before `summon sim` said so: the match is built
    again from its seed, card sets and options (setup only, no bot plays). None when the game
    is not found here."""
    from engine.errors import EngineError
    from engine.loader import load_game
    from engine.match import Match, Seat

    gid = run.get("game")
    if gid not in _loaded:
        try:
            _loaded[gid] = load_game(gid)
        except (EngineError, TypeError):
            _loaded[gid] = None
    if _loaded[gid] is None:
        return None
    seats = [Seat("random", s) for s in g.get("sets") or [None] * len(run.get("seats") or [])]
    try:
        return Match(_loaded[gid], g["seed"], seats, quiet=True, options=run.get("options") or None).active
    except EngineError:   # (seats or options this checkout's game no longer takes)
        return None


def summary(folder: Path, found: list[dict], lo: int, hi: int, seeds: set[int] | None = None) -> dict:
    """The figures of a folder's games (found), over the games of `seeds` only when given."""
    lengths: list[int] = []
    firsts: list[tuple[int, bool]] = []   # (length, whether the player who went first won) of games won
    wins: dict[str, int] = {}
    cut = 0
    unit = "turns"
    for g in found:
        if seeds is None or g["seed"] in seeds:
            lengths.append(length(g))
            if g.get("rounds"):
                unit = "rounds"
            cut += not g.get("finished", True)
            w = g.get("winner")
            if w:
                sets = g.get("sets") or []
                name = sets[w - 1] if w <= len(sets) and sets[w - 1] else f"seat {w}"   # (a game of no sets)
                wins[name] = wins.get(name, 0) + 1
                if g.get("opener"):
                    firsts.append((length(g), w == g["opener"]))
    if not lengths:
        sys.exit(f"{folder}: no games of the seeds asked for")
    within = sum(lo <= n <= hi for n in lengths)
    q1, med, q3 = statistics.quantiles(lengths, n=4, method="inclusive") if len(lengths) > 1 else lengths * 3
    return {
        "folder": str(folder), "games": len(lengths), "unit": unit,
        "median": statistics.median(lengths), "quartiles": [q1, q3],
        "band": [lo, hi], "within": within,
        "within_interval": [round(x, 4) for x in wilson(within, len(lengths))],
        "under": sum(n < lo for n in lengths), "over": sum(n > hi for n in lengths),
        "cut_off": cut, "wins": dict(sorted(wins.items())), "lengths": sorted(lengths),
        # of the games won (and whose first player is known): [won by the player who went first, games],
        # in all and under, within and over the band
        "first_won": {part: [sum(won for n, won in firsts if keep(n)), sum(1 for n, _ in firsts if keep(n))]
                      for part, keep in (("all", lambda n: True), ("under", lambda n: n < lo),
                                         ("within", lambda n: lo <= n <= hi), ("over", lambda n: n > hi))},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0].removeprefix("Benchmark: "))
    ap.add_argument("folders", nargs="+", type=Path, metavar="DIR", help="folders of kept runs")
    ap.add_argument("--band", type=band, default=(10, 30), help="LOW,HIGH: the lengths aimed at (default 10,30)")
    ap.add_argument("--against", type=Path, metavar="BASE",
                    help="compare each folder with BASE on the seeds both played")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    lo, hi = args.band
    for folder in args.folders + ([args.against] if args.against else []):
        if not folder.is_dir():
            sys.exit(f"{folder}: not a folder")
    found = {folder: games(folder) for folder in args.folders + ([args.against] if args.against else [])}
    if args.against:   # (turns of one game against rounds of another would read as a difference)
        of_base = {g["game"] for g in found[args.against]} - {None}   # (None: a run kept before runs named it)
        for folder in args.folders:
            named = {g["game"] for g in found[folder]} - {None}
            if named and of_base and named != of_base:
                sys.exit(f"{folder}: its runs are of {', '.join(sorted(named))}, but {args.against} holds runs "
                         f"of {', '.join(sorted(of_base))}: compare runs of one game")
    rows = []
    for folder in args.folders:
        if args.against is None:
            rows.append(summary(folder, found[folder], lo, hi))
            continue
        shared = {g["seed"] for g in found[args.against]} & {g["seed"] for g in found[folder]}
        if not shared:
            sys.exit(f"{folder}: no seed in common with {args.against}")
        row = summary(folder, found[folder], lo, hi, shared)
        base = row["against"] = summary(args.against, found[args.against], lo, hi, shared)
        low, high = difference(row["within"], row["games"], base["within"], base["games"])
        row["within_difference"] = {"share": round(row["within"] / row["games"] - base["within"] / base["games"], 4),
                                    "interval": [round(low, 4), round(high, 4)]}
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return

    def points(diff: dict) -> str:
        low, high = diff["interval"]
        verdict = ("more than the base" if low > 0 else "fewer than the base" if high < 0
                   else "no clear difference from the base at this many games")
        return (f"{100 * diff['share']:+.0f} points (95% interval {100 * low:+.0f} to {100 * high:+.0f}): "
                f"{verdict}")

    def line(r: dict) -> str:
        q1, q3 = r["quartiles"]
        return (f"{r['games']} games, median {r['median']:g} {r['unit']} (quartiles {q1:g}-{q3:g}); "
                f"{lo}-{hi}: {r['within']} within ({pct(r['within'] / r['games'])}%, "
                f"{pct(r['within_interval'][0])}-{pct(r['within_interval'][1])}%), {r['under']} under, "
                f"{r['over']} over; cut off "
                f"{r['cut_off']}; wins " + ", ".join(f"{k} {v}" for k, v in r["wins"].items())
                + first_line(r["first_won"]))

    def first_line(f: dict) -> str:
        if not f["all"][1]:
            return ""
        return (f"; the player who went first won {f['all'][0]} of {f['all'][1]} ("
                + ", ".join(f"{f[k][0]} of {f[k][1]} {k}" for k in ("under", "within", "over")) + ")")
    for r in rows:
        print(f"{r['folder']}: {line(r)}")
        if "against" in r:
            print(f"  {r['against']['folder']}, the same seeds: {line(r['against'])}")
            print(f"  within {lo}-{hi}: {points(r['within_difference'])}")


if __name__ == "__main__":
    main()
