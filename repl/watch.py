"""Watching a game's folders for saved files (watchfiles), for `summon play --watch`."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from watchfiles import DefaultFilter, watch

from engine import loader


class GameFilesFilter(DefaultFilter):
    """YAML and Lua files only, skipping what DefaultFilter skips (.git, caches, editor temp files)."""

    def __call__(self, change, path: str) -> bool:
        return path.endswith((".yaml", ".yml", ".lua")) and super().__call__(change, path)


def game_folders(match) -> list[Path]:
    rules, cards = loader.resolve(str(match.game.root))
    return [p for p in (rules, cards) if p is not None and p.is_dir()]


# How often (ms) the system's watcher wakes the thread when nothing changed: its first
# wake-up says that it is in place (see start).
TICK_MS = 200
# How long start waits at most for the watcher to be in place (seconds).
READY_WITHIN = 10.0


def start(paths: list[Path], on_change: Callable[[set], None],
          on_problem: Callable[[str], None] = lambda text: None) -> threading.Event:
    """Calls on_change(changes) from a background thread after each burst of saves
    (an editor writing several files gives one call: a burst ends after 100 ms without a
    save, or half a second after it began; with 20 ms, a busy machine that paused the
    writer split one burst into two reloads). Returns an event that stops it.

    Returns once the watcher is in place (it has reported in, with changes or with
    none), so that a file saved right after is seen: "watching" is then true. (The
    watcher is built in the thread; on a busy machine that took long enough for a save
    made just after the screen said "watching" to be missed.)

    When the system's file watcher fails (the limit of inotify watchers or instances
    reached, a folder gone), watching goes on by polling the folders, and on_problem(text)
    says so; if polling fails too, on_problem says that watching has stopped. Never an
    exception out of the thread (it would print a traceback over the screen)."""
    stop, ready = threading.Event(), threading.Event()

    def run() -> None:
        polling = False
        try:
            while not stop.is_set():
                try:
                    for changes in watch(*paths, watch_filter=GameFilesFilter(), debounce=500, step=100,
                                         rust_timeout=TICK_MS, yield_on_timeout=True, stop_event=stop,
                                         raise_interrupt=False, force_polling=polling or None):
                        ready.set()
                        if changes:
                            on_change(changes)
                    return
                except Exception as e:   # noqa: BLE001 (what the watcher raises is the system's)
                    why = str(e).splitlines()[0] if str(e) else type(e).__name__
                    if polling:
                        on_problem(f"watching for changes stopped: {why}; `reload` still reloads by hand")
                        return
                    polling = True
                    on_problem(f"the system's file watcher failed ({why}); watching by polling the folders "
                               f"instead (a save shows a little later)")
        finally:
            ready.set()

    threading.Thread(target=run, name="summon-watch", daemon=True).start()
    ready.wait(READY_WITHIN)
    return stop
