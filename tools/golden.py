"""Golden playthroughs: a transcript of one seeded bot game per shipped game.

    python tools/golden.py           # show what differs from the stored transcripts
    python tools/golden.py --write   # regenerate them (after a change of behaviour on purpose)

tests/test_golden.py diffs each game against tests/golden/<game>.txt, so any change of
behaviour shows up in review.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import loader  # noqa: E402
from engine.match import Ask, Match, RandomBot, Seat  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
SEED = 1
MAX_DECISIONS = 400


def state_line(st: dict) -> str:
    """turn, round, phase, the player whose turn it is, every counter, cards on the board."""
    counters = []
    for owner, values in sorted((st.get("counters") or {}).items()):
        for name, v in sorted((values or {}).items()):
            counters.append(f"{owner}.{name}={v}")
    board = len(st.get("spaces") or {})
    return (f"turn {st.get('turn')} round {st.get('round')} phase {st.get('phase')} active {st.get('active')}"
            f" | {' '.join(counters)} | {board} on board")


def transcript(game_id: str, seed: int = SEED, max_decisions: int = MAX_DECISIONS) -> str:
    game = loader.load_game(game_id)
    n = game.data["players"].get("default", game.data["players"]["min"])
    m = Match(game, seed, [Seat("bot") for _ in range(n)], quiet=True)
    bots = {i: RandomBot(seed, i) for i in range(1, n + 1)}
    lines = [f"# {game_id}, seed {seed}, seats {', '.join(str(s) for s in m.seats)}",
             f"start: {state_line(m.snapshot())}"]
    while m.pending is not None and m.decisions < max_decisions:
        who, count = m.pending.player, m.pending.count
        idx = bots[who](Ask(m))
        m.answer(idx)
        lines.append(f"{m.decisions}. P{who} ({count} options): {m.answers[-1]} -> {state_line(m.snapshot())}")
    st = m.snapshot()
    lines.append(f"end: {'over, ' + str(st.get('result')) if st.get('over') else 'stopped'}; hash {m.state_hash()}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("games", nargs="*")
    args = ap.parse_args()
    changed = 0
    for gid in args.games or sorted(loader.list_games(ROOT)):
        new = transcript(gid)
        path = GOLDEN / f"{gid}.txt"
        old = path.read_text() if path.exists() else ""
        if args.write:
            path.write_text(new)
            print(f"wrote {path.relative_to(ROOT)}")
        elif old != new:
            changed += 1
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       f"stored {gid}", f"now {gid}", n=1))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
