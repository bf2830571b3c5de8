"""The interactive terminal session, built on prompt-toolkit: a prompt with completion,
history and a bottom toolbar. Everything it shows comes from Session."""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.shortcuts import clear, print_formatted_text

from engine.errors import EngineError
from engine.match import Match

from .session import Quit, Session, completions
from .terminal import safe


RELOAD = object()   # what the prompt returns when the watcher interrupts it


class SessionCompleter(Completer):
    """Tab completion of option labels, commands and card names (see session.completions)."""

    def __init__(self, session: Session):
        self.session = session

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        for c in completions(self.session, text):
            yield Completion(c, start_position=-len(text))


def _history():
    path = os.environ.get("SUMMON_HISTORY") or str(Path.home() / ".summon_history")
    try:
        Path(path).touch()
        return FileHistory(path)
    except OSError:
        return InMemoryHistory()


def wipe() -> None:
    """Clears the screen and the terminal's scrollback (ESC [3J), so the next player cannot scroll back."""
    clear()
    sys.stdout.write("\x1b[3J")
    sys.stdout.flush()


def _done(stop: threading.Event | None) -> int:
    if stop is not None:
        stop.set()
    return 0


def play_interactive(match: Match, *, designer: bool = False, watch: bool = False,
                     kept: list[str] | None = None) -> int:
    s = Session(match, designer=designer, colour=True, kept=kept)
    prompt = PromptSession(history=_history(), completer=SessionCompleter(s), complete_while_typing=False)

    def show(text: str) -> None:
        if text:
            print_formatted_text(ANSI(safe(text)))

    def offer_save() -> None:
        if s.match.pending is None and not s.match.answers:
            return
        try:
            name = prompt.prompt("Save before quitting? File name, or Enter to quit without saving: ",
                                 bottom_toolbar=None)
        except (KeyboardInterrupt, EOFError):
            name = ""
        if name.strip():
            show(s.handle(f"save {name.strip()}"))

    humans = [i + 1 for i, seat in enumerate(s.seats) if seat.controller == "human"]
    changed = threading.Event()
    notes: list[str] = []       # what the watcher thread has to say (shown at the next prompt)
    kept_text = [""]
    passing = [False]           # the hot seat's "Pass to player N" is showing
    stop = None
    look_again = None
    if watch:
        from . import watch as watcher

        def wake() -> None:
            """Ends the prompt being typed at (its text is kept) so the loop looks again; not
            the hot seat's "Pass to player N" (only Enter may end that: ending it would show
            N's screen to whoever holds the device): the change waits until it is answered."""
            app = prompt.app
            if app.is_running and app.loop is not None and not passing[0]:
                def interrupt():
                    kept_text[0] = app.current_buffer.text
                    app.exit(result=RELOAD)
                app.loop.call_soon_threadsafe(interrupt)

        def look_again() -> None:
            """Runs as each prompt starts (pre_run): a change or a note that came while no
            prompt was running (wake() had none to end) ends this prompt at once, instead
            of waiting for the next key."""
            if changed.is_set() or notes:
                wake()

        def on_change(changes) -> None:
            changed.set()
            wake()

        def on_problem(text: str) -> None:
            notes.append(text)
            wake()

        folders = watcher.game_folders(match)
        stop = watcher.start(folders, on_change, on_problem)
        show("watching " + ", ".join(str(f) for f in folders) + " for changes")
    hot_seat = len(humans) > 1 and not designer
    if not hot_seat:
        show("\n".join(s.log_lines()))
    s.play_bots(say=lambda lines: show("\n".join(lines)))
    last_viewer = None
    while True:
        p = s.to_act()
        if p is not None and hot_seat and p != last_viewer and s.is_human(p):
            # hot seat: hide everything (scrollback too) while the device changes hands
            wipe()
            passing[0] = True
            try:
                prompt.prompt(f"Pass to player {p}, then press Enter. ", bottom_toolbar=None)
            except (KeyboardInterrupt, EOFError):
                pass
            finally:
                passing[0] = False
            wipe()
            show(s.pass_to(p))
            last_viewer = p
            s.forget_screen()
        while notes:
            show(notes.pop(0))
        if changed.is_set():
            changed.clear()
            try:
                show(s.reload())
            except EngineError as e:   # the match stays, as after a reload typed by hand
                show(f"reload failed; the match goes on under the old rules:\n{e}")
            continue
        if s.needs_screen():
            show(s.screen())
        try:
            line = prompt.prompt(f"P{p}> " if p else "> ", bottom_toolbar=lambda: safe(s.toolbar()), default=kept_text[0],
                                 pre_run=look_again)
            kept_text[0] = ""
            if line is RELOAD:
                continue
        except KeyboardInterrupt:
            continue          # Ctrl-C cancels the line being typed
        except EOFError:      # Ctrl-D: offer to save, then leave
            offer_save()
            return _done(stop)
        try:
            show(s.handle(line))
        except Quit:          # quit: the same offer as Ctrl-D
            offer_save()
            return _done(stop)
        except KeyboardInterrupt:   # Ctrl-C while bots think: they stop between decisions
            show(f"interrupted: the match stays at decision {s.match.decisions} "
                 f"(`bot` or `auto N` lets the bots go on)")
        except EngineError as e:   # the match stays
            show(f"error: {e}")
        except Exception as e:  # nothing typed may crash the session
            show(f"internal error: {type(e).__name__}: {e}")
        if watch:
            try:
                now = watcher.game_folders(s.match)
            except EngineError:    # (the game's folder moved away for a moment: keep what is watched)
                now = folders
            if now != folders:
                # `load` of another game's match: its folders are the ones to watch now
                stop.set()
                folders = now
                stop = watcher.start(folders, on_change, on_problem)
                show("watching " + ", ".join(str(f) for f in folders) + " for changes")
