"""Plain play: numbered options on standard input and output, for pipes and bots-only games."""
from __future__ import annotations

import queue
import sys
import threading
from typing import Callable

from engine.errors import EngineError
from engine.match import Edit, Match

from .session import Quit, Session, internal_error
from .terminal import safe


def play_plain(match: Match, *, designer: bool = False, watch: bool = False, kept: list[str] | None = None,
               out=None, inp=None, kept_edits: list[Edit] | None = None) -> int:
    """watch: load the game again when its files change, while waiting for the next line
    (a pipe has no prompt to interrupt); a line read before the change is answered first.
    kept, kept_edits: answers a load stopped short of, and the console changes of them all (see Session)."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    s = Session(match, designer=designer, kept=kept, kept_edits=kept_edits)

    def say(text: str) -> None:
        if text:
            print(safe(text), file=out, flush=True)

    if not watch:
        return _play(s, say, out, inp.readline)
    with _Watching(s, say, inp, out) as w:
        return _play(s, say, out, w.next_line, w.follow)


class _Watching:
    """The game's folders watched, and standard input read, by threads of their own that
    put what they have in one queue, in the order it came: the main thread alone prints and
    changes the match."""

    def __init__(self, s: Session, say: Callable[[str], None], inp, out):
        from . import watch as watcher

        self.s, self.say, self.watcher, self.out = s, say, watcher, out
        self.events: queue.Queue = queue.Queue()
        self.folders = watcher.game_folders(s.match)
        self.stop = self._start()
        threading.Thread(target=self._read, args=(inp,), name="summon-input", daemon=True).start()

    def _start(self) -> threading.Event:
        stop = self.watcher.start(self.folders, lambda _changes: self.events.put(("change", None)),
                                  lambda text: self.events.put(("note", text)))
        self.say("watching " + ", ".join(str(f) for f in self.folders) + " for changes (each is loaded "
                 "while waiting for the next line)")
        return stop

    def _read(self, inp) -> None:
        for line in iter(inp.readline, ""):
            self.events.put(("line", line))
        self.events.put(("line", ""))

    def next_line(self) -> str:
        """The next line read ("" at the end of input), after loading the changes and saying
        the notes that came before it."""
        while True:
            kind, value = self.events.get()
            if kind == "line":
                return value
            if kind == "note":
                self.say(value)
                continue
            try:                           # (the watcher gives a burst of saves as one change)
                self.say(self.s.reload())
            except EngineError as e:       # the match stays, as after a reload typed by hand
                self.say(f"reload failed; the match goes on under the old rules:\n{e}")
            except Exception as e:         # nothing may end the session and lose the match
                self.say(internal_error(e, self.s.match.decisions))
            if self.s.match.pending is not None:
                print(f"P{self.s.prompt_seat()}> ", end="", file=self.out, flush=True)

    def follow(self) -> None:
        """After `load` of another game's match: watch that game's folders instead."""
        try:
            folders = self.watcher.game_folders(self.s.match)
        except EngineError:
            return
        if folders != self.folders:
            self.stop.set()
            self.folders = folders
            self.stop = self._start()

    def __enter__(self) -> "_Watching":
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()


def _play(s: Session, say, out, next_line: Callable[[], str], after: Callable[[], None] | None = None) -> int:
    say("\n".join(s.log_lines()))
    s.play_bots(say=lambda lines: say("\n".join(lines)))
    failed = False     # (an internal error: the run goes on, and its exit status says so at the end)
    while s.match.pending is not None:
        if s.is_other_human(s.to_act()):
            # no screen to hide in a pipe: say whose turn it is and hand the keyboard over
            say(f"-- player {s.to_act()} to play --")
            say(s.pass_to(s.to_act()))
        if s.needs_screen():
            say(s.screen())
        print(f"P{s.prompt_seat()}> ", end="", file=out, flush=True)
        line = next_line()
        if not line:
            say("\nend of input: leaving the match")
            return 1 if s.stuck or failed else 0   # (a bots' game an error stopped did not end well)
        try:
            say(s.handle(line))
        except Quit:
            return 1 if failed else 0
        except EngineError as e:   # the match stays: what follows (save, quit) is still read
            say(f"error: {e}")
        except Exception as e:     # a bug of ours: said, and the match stays too
            say(internal_error(e, s.match.decisions))
            failed = True
        if after is not None:
            after()
    st = s.match.view(s.viewer())
    say(s.screen() if st.get("over") and s.needs_screen() else "")   # (the last answer's reply may have shown it)
    # (over, a person's commands go on as at a terminal: `save FILE`, `log`, `undo` after the
    # end; but an answer ends the reading: input that answers on and on, `yes 2 |`, would
    # never end it, and a line a person meant for the match is not for after it)
    while any(s.is_human(p) for p in range(1, len(s.seats) + 1)):
        print("> ", end="", file=out, flush=True)
        line = next_line()
        if not line:
            return 1 if failed else 0
        if line.strip() and not s.is_command(line):
            say(f"\nthe match is over: {line.strip()[:40]!r} is no command, so the rest of the input is not read")
            return 1 if failed else 0
        try:
            say(s.handle(line))
        except Quit:
            return 1 if failed else 0
        except EngineError as e:
            say(f"error: {e}")
        except Exception as e:
            say(internal_error(e, s.match.decisions))
            failed = True
        if s.match.pending is not None:   # (undone past the end: play on)
            return _play(s, say, out, next_line, after) or (1 if failed else 0)
    return 1 if failed else 0
