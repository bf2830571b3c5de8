"""The interactive terminal session, built on prompt-toolkit: a prompt with completion,
history and a bottom toolbar. Everything it shows comes from Session."""
from __future__ import annotations

import os
import sys
import textwrap
import threading
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import DummyHistory, FileHistory, InMemoryHistory
from prompt_toolkit.shortcuts import clear, print_formatted_text

from engine.errors import EngineError
from engine.match import Edit, Match

from .render import fitted
from .session import Quit, Session, completions, internal_error
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


def _fit(s: Session) -> None:
    """Screens are laid out for a terminal of Session.COLUMNS x ROWS (120 x 40) or the one
    the session runs in, if smaller: options, wrapped text and what is left out follow it."""
    try:   # (the terminal itself: LINES and COLUMNS in the environment may be stale or inherited)
        size = os.get_terminal_size(sys.stdout.fileno())
        columns, lines = size.columns or Session.COLUMNS, size.lines or Session.ROWS
    except (OSError, ValueError):
        columns, lines = Session.COLUMNS, Session.ROWS
    s.COLUMNS = max(40, min(Session.COLUMNS, columns))
    s.ROWS = max(12, min(Session.ROWS, lines))


def _terminal_columns(s: Session) -> int:
    """The terminal's own width (not capped as the screens' layout is), else the layout's."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns or s.COLUMNS
    except (OSError, ValueError):
        return s.COLUMNS


def _columns() -> int | None:
    """The width of the terminal the prompt runs in (None when it cannot be told)."""
    try:
        from prompt_toolkit.application.current import get_app
        return get_app().output.get_size().columns
    except Exception:
        return None


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
                     kept: list[str] | None = None, kept_edits: list[Edit] | None = None) -> int:
    s = Session(match, designer=designer, colour=True, kept=kept, kept_edits=kept_edits)
    completer = SessionCompleter(s)
    # One prompt for a person alone, its history kept in a file; in hot seat one prompt a
    # seat, each with its own history in memory (Up must not bring back what another player
    # typed: a secret choice), and one without history for the handover and for quitting.
    shared = PromptSession(history=_history(), completer=completer, complete_while_typing=False)
    seat_prompts: dict[int, PromptSession] = {}
    bare = PromptSession(history=DummyHistory())
    running = [shared]          # the prompt being typed at (the watcher ends it)

    def hot() -> bool:
        """Whether several people share the device (checked each time: `load` may change it)."""
        return len(s.humans()) > 1 and not designer

    def prompt_for(p: int | None) -> PromptSession:
        """The prompt for seat p (None: the match is over; in hot seat that has its own too)."""
        if not hot():
            return shared
        key = p or 0
        if key not in seat_prompts:
            seat_prompts[key] = PromptSession(history=InMemoryHistory(), completer=completer,
                                              complete_while_typing=False)
        return seat_prompts[key]

    def show(text: str, as_is: bool = False) -> None:
        if text:   # (as_is: a value to copy as printed, the `lua` console's, is not broken)
            print_formatted_text(ANSI(safe(text) if as_is else fitted(safe(text), _terminal_columns(s))))

    def offer_save() -> bool:
        """Asked on quit: whether to leave (after saving, if a name is given); no, n or
        Enter leave without saving, Ctrl-C goes back to the match."""
        if s.match.pending is None and not s.match.answers:
            return True
        while True:
            try:
                name = bare.prompt("Save before quitting? A file name to save to, Enter (or no) to quit "
                                   "without saving, Ctrl-C to go back to the match: ").strip()
            except KeyboardInterrupt:
                show("back to the match")
                return False
            except EOFError:
                return True
            if name.lower() in ("", "n", "no"):
                return True
            if name.lower() in ("y", "yes"):
                show("the name of the file to save to, then:")
                continue
            said = s.handle(f"save {name}")
            show(said)
            if said.startswith("saved "):
                return True

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
            app = running[0].app
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
    _fit(s)
    if not hot():
        show("\n".join(s.log_lines()))
    s.play_bots(say=lambda lines: show("\n".join(lines)))
    last_viewer = None
    while True:
        _fit(s)
        p = s.to_act()
        if not hot():
            last_viewer = None
        elif p is not None and p != last_viewer and s.is_human(p):
            # hot seat: hide everything (scrollback too) while the device changes hands; only
            # Enter shows player p's screen (quit or Ctrl-D leave without showing it)
            wipe()
            passing[0] = True
            leave = False
            try:
                # (on a narrow screen, broken between words: the terminal breaks a prompt anywhere)
                *head, last = textwrap.wrap(f"Pass to player {p}, then press Enter (or type quit).",
                                            max(20, s.COLUMNS - 1), break_long_words=False)
                while True:
                    if head:
                        show("\n".join(head))
                    try:
                        typed = bare.prompt(last + " ").strip()
                    except KeyboardInterrupt:
                        continue
                    except EOFError:
                        typed = "quit"
                    if typed == "":
                        break
                    if typed.lower() in ("quit", "exit", "q"):
                        if offer_save():
                            leave = True
                            break
                        continue
                    show(f"(player {p}'s screen comes with Enter alone; quit leaves)")
            finally:
                passing[0] = False
            if leave:
                return _done(stop)
            wipe()
            show(s.pass_to(p))
            if s.loaded is not None:   # a `load` that made this hot seat: its report, for this seat
                show(s.loaded(p))
            last_viewer = p
            kept_text[0] = ""          # (a line half typed by the one before is not this player's)
            s.forget_screen()
        s.loaded = None
        while notes:
            show(notes.pop(0))
        if changed.is_set():
            changed.clear()
            try:
                show(s.reload())
            except EngineError as e:   # the match stays, as after a reload typed by hand
                show(f"reload failed; the match goes on under the old rules:\n{e}")
            except Exception as e:     # nothing may end the session and lose the match
                show(internal_error(e, s.match.decisions))
            continue
        if s.needs_screen():
            show(s.screen())
        running[0] = prompt_for(p)
        try:
            seat = s.prompt_seat()
            line = running[0].prompt(f"P{seat}> " if seat else "> ", bottom_toolbar=lambda: safe(s.toolbar(_columns())),
                                     default=kept_text[0], pre_run=look_again)
            if line is RELOAD:   # (the line being typed comes back: kept_text)
                continue
            kept_text[0] = ""
        except KeyboardInterrupt:
            kept_text[0] = ""
            continue          # Ctrl-C cancels the line being typed (one kept over a reload too)
        except EOFError:      # Ctrl-D: offer to save, then leave
            if offer_save():
                return _done(stop)
            continue
        try:
            said = s.handle(line)   # (a lua value is shown as printed; an error is prose, broken between words)
            show(said, as_is=line.split(maxsplit=1)[:1] == ["lua"] and not said.startswith(("script error:", "error:")))
        except Quit:          # quit: the same offer as Ctrl-D
            if offer_save():
                return _done(stop)
        except KeyboardInterrupt:   # Ctrl-C while bots think: they stop between decisions
            show(f"interrupted: the match stays at decision {s.match.decisions} "
                 f"(`bot` or `auto N` lets the bots go on)")
        except EngineError as e:   # the match stays
            show(f"error: {e}")
        except Exception as e:  # nothing typed may crash the session
            show(internal_error(e, s.match.decisions))
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
