"""Benchmark: hot reload, from a card file being saved to the new state rendered, for a
Summoner Wars match 300 decisions in. Uses the same watcher and session as `summon play --watch`.

    python bench/reload_speed.py [--decisions 300] [--edits 5]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.loader import load_game  # noqa: E402
from engine.match import Match, RandomBot, Seat, play  # noqa: E402
from repl import watch  # noqa: E402
from repl.session import Session  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--edits", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    rules = tmp / "rules" / "summoner_wars"
    shutil.copytree(ROOT / "rules" / "summoner_wars", rules, ignore=shutil.ignore_patterns("tests"))
    shutil.copytree(ROOT / "cards" / "summoner_wars", tmp / "cards" / "summoner_wars",
                    ignore=shutil.ignore_patterns("tests"))
    card = tmp / "cards" / "summoner_wars" / "polar_dwarves.yaml"
    game = load_game(str(rules))
    for seed in range(1, 500):   # a seed whose game lasts long enough
        m = Match(game, seed, [Seat("human"), Seat("human")], quiet=True)
        play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=args.decisions)
        if m.decisions >= args.decisions and not m.is_over:
            break
    session = Session(m)
    done = threading.Event()
    timings: list[tuple[float, float]] = []
    saved_at = [0.0]

    def on_change(changes) -> None:
        noticed = time.perf_counter()
        text = session.reload()
        assert "reloaded" in text, text
        timings.append((noticed - saved_at[0], time.perf_counter() - saved_at[0]))
        done.set()

    stop = watch.start(watch.game_folders(m), on_change)
    time.sleep(0.5)
    original = card.read_text()
    for i in range(args.edits):
        done.clear()
        saved_at[0] = time.perf_counter()
        card.write_text(original.replace("    life: 12\n", f"    life: {13 + i}\n", 1))
        if not done.wait(5):
            print("no reload seen")
            break
        time.sleep(0.3)
    stop.set()
    shutil.rmtree(tmp, ignore_errors=True)
    seen = [a * 1000 for a, _ in timings]
    total = [b * 1000 for _, b in timings]
    print(f"match {m.decisions} decisions in (seed {seed}); {len(timings)} edits")
    print(f"save -> watcher notices: median {statistics.median(seen):.0f} ms (max {max(seen):.0f})")
    print(f"save -> new state on screen: median {statistics.median(total):.0f} ms (max {max(total):.0f})")


if __name__ == "__main__":
    main()
