"""Benchmark: where a game's Lua spends its time, by source line and by function.

    python bench/profile.py [GAME] [--games 20] [--seed 1] [--top 30]

Plays GAME's matches with random answers drawn in Lua (Match.rollout: the rules alone,
no host between decisions) while a count hook samples the running line every 1,000 Lua
instructions. Prints the lines with the most samples (self), each file's share, and the
functions with the most samples in them or in what they called (inclusive). Samples count
Lua instructions, so the figures are the same on every run and machine; work done inside
C functions (string.format, table.sort, the allocator) is not seen: it falls to the line
that called it only as one instruction. For whole-process figures use callgrind; for the
speed itself, `summon bench`.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bench import default_seats  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.loader import load_game  # noqa: E402
from engine.match import Match  # noqa: E402

MAX_DECISIONS = 5000


def profile(game_id: str, games: int, seed: int) -> tuple[Counter, Counter, int]:
    """(self samples by "file:line", inclusive samples by "file:line" or "file:fnN", decisions)."""
    game = load_game(game_id)
    seats = default_seats(game)
    own, inclusive, decisions = Counter(), Counter(), 0
    for i in range(games):
        m = Match(game, seed + i, seats, quiet=True)
        m._rt.start_profile()   # (each match has its own runtime: a fresh table)
        m.rollout(seed + i, MAX_DECISIONS)
        decisions += m.decisions
        for key, n in m._rt.profile_samples().items():
            (inclusive if key.startswith("~") else own)[key.lstrip("~")] += n
    return own, inclusive, decisions


def source_line(key: str) -> str:
    """The text of file:line (or of the first line of file:fnN), if the file is the game's."""
    path, _, where = key.rpartition(":")
    line = int(where[2:]) if where.startswith("fn") else int(where) if where.isdigit() else 0
    file = ROOT / path
    if line <= 0 or not file.is_file():
        return ""
    lines = file.read_text(encoding="utf-8").splitlines()
    return lines[line - 1].strip()[:90] if line <= len(lines) else ""


def ranked(counts: Counter) -> list[tuple[str, int]]:
    """Most samples first, ties by name (Lua hands the samples over in no set order)."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def report(own: Counter, inclusive: Counter, decisions: int, top: int) -> str:
    total = sum(own.values())
    if total == 0:
        return "no samples (the matches ended before 1,000 Lua instructions)"
    out = [f"{total} samples over {decisions} decisions ({total * 1000 // max(decisions, 1)} Lua instructions a decision, about)",
           "", "self, by line:"]
    for key, n in ranked(own)[:top]:
        out.append(f"{100 * n / total:5.1f}%  {key}  {source_line(key)}")
    files = Counter()
    for key, n in own.items():
        files[key.rpartition(":")[0]] += n
    out += ["", "self, by file:"]
    for path, n in ranked(files):
        out.append(f"{100 * n / total:5.1f}%  {path}")
    out += ["", "inclusive, by function (itself and what it called):"]
    functions = [(k, n) for k, n in ranked(inclusive) if ":fn" in k and not k.startswith("[C]")]
    for key, n in functions[:top]:
        out.append(f"{100 * n / total:5.1f}%  {key}  {source_line(key)}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="summoner_wars")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    if args.games < 1 or args.top < 1:
        sys.exit("error: --games and --top must be 1 or more")
    try:
        own, inclusive, decisions = profile(args.game, args.games, args.seed)
    except EngineError as e:
        sys.exit(f"error: {e}")
    print(report(own, inclusive, decisions, args.top))


if __name__ == "__main__":
    main()
