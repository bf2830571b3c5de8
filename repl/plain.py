"""Plain play: numbered options on standard input and output, for pipes and bots-only games."""
from __future__ import annotations

import sys
import threading

from engine.errors import EngineError
from engine.match import Match

from .session import Quit, Session
from .terminal import safe


def play_plain(match: Match, *, designer: bool = False, watch: bool = False, out=None, inp=None) -> int:
    """watch: reload the game when its files change, before the next line is read (a pipe
    has no prompt to interrupt)."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    s = Session(match, designer=designer)

    def say(text: str) -> None:
        if text:
            print(safe(text), file=out, flush=True)

    changed, stop = threading.Event(), None
    if watch:
        from . import watch as watcher

        folders = watcher.game_folders(match)
        stop = watcher.start(folders, lambda _changes: changed.set(), say)
        say("watching " + ", ".join(str(f) for f in folders) + " for changes (each is loaded before the "
            "next line is read)")
    try:
        return _play(s, say, changed, out, inp)
    finally:
        if stop is not None:
            stop.set()


def _play(s: Session, say, changed: threading.Event, out, inp) -> int:
    say("\n".join(s.log_lines()))
    s.play_bots(say=lambda lines: say("\n".join(lines)))
    while s.match.pending is not None:
        if s.is_other_human(s.to_act()):
            # no screen to hide in a pipe: say whose turn it is and hand the keyboard over
            say(f"-- player {s.to_act()} to play --")
            say(s.pass_to(s.to_act()))
        if s.needs_screen():
            say(s.screen())
        print(f"P{s.to_act()}> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            say("\nend of input: leaving the match")
            return 1 if s.stuck else 0   # (a bots' game an error stopped did not end well)
        if changed.is_set():
            changed.clear()
            try:
                say(s.reload())
            except EngineError as e:   # the match stays, as after a reload typed by hand
                say(f"reload failed; the match goes on under the old rules:\n{e}")
        try:
            say(s.handle(line))
        except Quit:
            return 0
        except EngineError as e:   # the match stays: what follows (save, quit) is still read
            say(f"error: {e}")
    st = s.match.view(s.viewer())
    say(s.screen() if st.get("over") else "")
    return 0
