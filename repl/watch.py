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


def start(paths: list[Path], on_change: Callable[[set], None]) -> threading.Event:
    """Calls on_change(changes) from a background thread after each burst of saves
    (an editor writing several files gives one call). Returns an event that stops it."""
    stop = threading.Event()

    def run() -> None:
        for changes in watch(*paths, watch_filter=GameFilesFilter(), debounce=150, step=20,
                             stop_event=stop, raise_interrupt=False):
            on_change(changes)

    threading.Thread(target=run, name="summon-watch", daemon=True).start()
    return stop
