"""A copy of a game whose bots judge positions with this checkout's evaluation in one seat and
with the evaluation of an older commit in the others: `summon sim` in that copy measures one
against the other (the seat's wins against the same seat's wins when both sides use the old).

    python bench/eval_ab.py summoner_wars --old 4502eb9 --seat 1 --out /tmp/ab1
    cd /tmp/ab1 && summon sim summoner_wars --players mcts:60,mcts:60 --swap --games 40 --seed 1 --json

--old is a commit of this checkout's repository, or a file holding the other evaluation.
The copy holds rules/GAME and cards/GAME as they are here; its evaluation file runs each of
the two versions in a block of its own and picks by the seat asked about (the bots evaluate
for their own seat only). Put the new evaluation in each seat in turn: the seats hold
different card sets.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAD = "function evaluate(view, seat)"


def block(source: str, name: str, where: str) -> str:
    """One version of the evaluation, its locals kept to a block, its function named `name`."""
    if source.count(HEAD) != 1:
        sys.exit(f"error: {where}: expected one line `{HEAD}`")
    return "do\n" + source.replace(HEAD, f"{name} = function(view, seat)") + "\nend\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--old", required=True,
                    help="the commit whose evaluation the other seats use, or an evaluation file")
    ap.add_argument("--seat", type=int, default=1, help="the seat that uses this checkout's evaluation")
    ap.add_argument("--out", required=True, type=Path, help="a new folder for the copy")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from engine.loader import load_game

    rules, cards = ROOT / "rules" / a.game, ROOT / "cards" / a.game
    game = load_game(str(rules))
    name = (game.data.get("bots") or {}).get("evaluate")
    if not name:
        sys.exit(f"error: {a.game} has no `bots: evaluate:` file")
    if not 1 <= a.seat <= game.data["players"]["max"]:
        sys.exit(f"error: --seat {a.seat}: {a.game} has seats 1 to {game.data['players']['max']}")
    if a.out.exists():
        sys.exit(f"error: {a.out} exists: name a new folder")
    path = f"rules/{a.game}/{name}"
    if Path(a.old).is_file():   # an evaluation kept as a file
        old_text = Path(a.old).read_text()
    else:
        got = subprocess.run(["git", "-C", str(ROOT), "show", f"{a.old}:{path}"], capture_output=True, text=True)
        if got.returncode != 0:
            sys.exit(f"error: {path} at {a.old}: {got.stderr.strip()}")
        old_text = got.stdout
    shutil.copytree(rules, a.out / "rules" / a.game)
    if cards.is_dir():
        shutil.copytree(cards, a.out / "cards" / a.game)
    new = (rules / name).read_text()
    (a.out / path).write_text(
        f"-- Made by bench/eval_ab.py: seat {a.seat} judges with this checkout's evaluation, the "
        f"others with {a.old}'s.\nlocal evaluate_old, evaluate_new\n"
        + block(old_text, "evaluate_old", f"{path} at {a.old}") + block(new, "evaluate_new", path)
        + f"function evaluate(view, seat)\n  if seat == {a.seat} then return evaluate_new(view, seat) end\n"
        f"  return evaluate_old(view, seat)\nend\n")
    print(f"{a.out}: {a.game} with this checkout's evaluation for seat {a.seat}, {a.old}'s for the others")
    return 0


if __name__ == "__main__":
    sys.exit(main())
