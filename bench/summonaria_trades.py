"""Trades in seeded bot games of Summonaria: how many proposals, how many accepted, and
for each side of an exchange whether it handed over exactly what it promised (kind and
count), partly (some of the promised kind), other cards, or nothing; and how long the
option lists of the questions that offer trades are. The games are those of `summon
sim` with the same seats and seeds (seed, seed + 1, ...), played one after the other.

    PYTHONPATH=. nice -n 10 python bench/summonaria_trades.py \\
        --players greedy,greedy,greedy,greedy --games 8 --seed 10

It reads only the questions and the answers (the prompt of the question to accept
names the promise; the answers "Hand over a ..." name the cards put down), so it
counts the same way before and after a change to the rules' trades.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import bots_for  # noqa: E402
from engine.loader import load_game  # noqa: E402
from engine.match import Ask, Match, Seat  # noqa: E402

PROMISE = re.compile(r"player (\d) promises (\d) (.+) for player (\d)'s (\d) (.+)$")
TRADE_OPTION = ("Propose a trade", "Promise your ", "Ask for their ", "Offer ")


def count(players: str, games: int, seed0: int) -> dict:
    game = load_game("summonaria")
    tot = dict(games=0, decisions=0, proposals=0, accepted=0, refused=0, sides=0, kept=0, partly=0,
               other=0, nothing=0, trade_questions=0, trade_options=0, trade_max=0, questions=0,
               options=0, max_options=0, wins={})
    for g in range(games):
        seed, start = seed0 + g, time.time()
        m = Match(game, seed, [Seat.parse(s) for s in players.split(",")], quiet=True)
        bots = bots_for(m)
        trade = None      # seat -> [promised count, kind, cards put down, done]
        while m.pending is not None:
            ask = Ask(m)
            p, labels = ask.player, ask.options
            i = bots[p](ask)
            label = labels[i]
            tot["questions"] += 1
            tot["options"] += len(labels)
            tot["max_options"] = max(tot["max_options"], len(labels))
            if any(x.startswith(TRADE_OPTION) for x in labels):
                tot["trade_questions"] += 1
                tot["trade_options"] += len(labels)
                tot["trade_max"] = max(tot["trade_max"], len(labels))
            promise = PROMISE.search(ask.prompt) if "proposes:" in ask.prompt else None
            if promise:
                tot["proposals"] += 1
                if label.startswith("Accept"):
                    tot["accepted"] += 1
                    a, an, ak, b, bn, bk = promise.groups()
                    trade = {int(a): [int(an), ak, [], False], int(b): [int(bn), bk, [], False]}
                else:
                    tot["refused"] += 1
            elif trade is not None and label.startswith("Hand over a "):
                trade[p][2].append(label[len("Hand over a "):])
            elif trade is not None and label.startswith("Done: hand over"):
                trade[p][3] = True
                if all(side[3] for side in trade.values()):
                    for n, kind, put, _ in trade.values():
                        right = sum(1 for k in put if k == kind)
                        tot["sides"] += 1
                        if right == n == len(put):
                            tot["kept"] += 1
                        elif not put:
                            tot["nothing"] += 1
                        elif right:
                            tot["partly"] += 1
                        else:
                            tot["other"] += 1
                    trade = None
            m.answer(i)
        tot["games"] += 1
        tot["decisions"] += m.decisions
        w = str(m.winner) if m.is_over and m.winner is not None else "none"
        tot["wins"][w] = tot["wins"].get(w, 0) + 1
        print(f"seed {seed}: winner {w}, {m.decisions} decisions, {time.time() - start:.0f} s",
              file=sys.stderr, flush=True)
    tot["mean_trade_options"] = round(tot["trade_options"] / max(1, tot["trade_questions"]), 1)
    tot["mean_options"] = round(tot["options"] / max(1, tot["questions"]), 1)
    return tot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="greedy,greedy,greedy,greedy")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=10)
    a = ap.parse_args()
    print(json.dumps(count(a.players, a.games, a.seed)))


if __name__ == "__main__":
    main()
