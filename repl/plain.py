"""Plain play: numbered options on standard input and output (bots, pipes, simple terminals)."""
from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import EngineError, IllegalAnswer, ScriptError
from engine.match import Match, RandomBot, Seat

from .render import render_state


def parse_answer(text: str, options: list[str]) -> int:
    """The 0-based option a typed answer names: a number, a label, or a unique start of a label."""
    t = text.strip()
    if t.isdigit():
        n = int(t)
        if 1 <= n <= len(options):
            return n - 1
        raise IllegalAnswer(f"no option {n}: choose 1 to {len(options)}")
    low = t.lower()
    exact = [i for i, o in enumerate(options) if o.lower() == low]
    if exact:
        return exact[0]
    starts = [i for i, o in enumerate(options) if o.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise IllegalAnswer(f"'{t}' could be {len(starts)} options; type more of it or a number")
    raise IllegalAnswer(f"'{t}' is not an option; type a number from 1 to {len(options)}")


def play_plain(match: Match, seats: list[Seat], *, seed: int = 1, out=None, inp=None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    bots = {i + 1: RandomBot(match.seed, i + 1) for i, s in enumerate(seats) if s.controller == "bot"}
    humans = [i + 1 for i, s in enumerate(seats) if s.controller == "human"]

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    for m in match.messages():
        say(m)
    while match.pending is not None:
        d = match.pending
        p = d.player
        if p in bots:
            idx = bots[p](match)
            label = match.options()[idx]
            match.answer(idx)
            say(f"P{p} (bot): {label}")
            for m in match.messages():
                say(f"  {m}")
            continue
        say()
        say(render_state(match, p))
        opts = match.options()
        say(f"P{p}: {d.prompt}")
        for i, o in enumerate(opts, 1):
            say(f"  {i}. {o}")
        while True:
            print(f"P{p}> ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                say("\nend of input: leaving the match")
                return 0
            line = line.strip()
            if not line:
                continue
            if line in ("quit", "q"):
                return 0
            if line.startswith("save "):
                try:
                    match.save(Path(line[5:].strip()))
                    say(f"saved to {line[5:].strip()}")
                except OSError as e:
                    say(f"cannot save: {e}")
                continue
            try:
                idx = parse_answer(line, opts)
                match.answer(idx)
            except IllegalAnswer as e:
                say(str(e))
                continue
            except ScriptError as e:
                say(f"script error: {e}\n(the match stays at its last decision)")
                break
            for m in match.messages():
                say(f"  {m}")
            break
    st = match.snapshot()
    say(render_state(match, None))
    say(st.get("result") or "the match is over")
    return 0
