"""A progress bar for long runs, drawn on stderr: games done, games a second, time left."""
from __future__ import annotations

import sys
import time
from typing import TextIO

DELAY = 2.0          # seconds before the bar appears: short runs never show one
REDRAW = 0.1         # seconds between redraws at most
WIDTH = 24           # characters of the bar itself


def wanted(quiet: bool, stream: TextIO | None = None) -> bool:
    """Whether to draw a bar: not with --quiet, and only on a terminal (never into a pipe or a file)."""
    stream = stream or sys.stderr
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


def line(done: int, total: int, seconds: float, label: str = "", at_most: bool = False) -> str:
    """The bar as text: `label [#####.....] 120/1000 games  35.2 games/s  0:25 left`; with
    at_most (a run that may stop sooner, --precision) `... 120/1000 games at most ... 0:25 left at most`."""
    filled = WIDTH * done // total if total else WIDTH
    speed = done / seconds if seconds > 0 else 0.0
    most = " at most" if at_most else ""
    left = f"{_clock((total - done) / speed)} left{most}" if speed > 0 and done < total else ""
    head = f"{label} " if label else ""
    return (f"{head}[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} games{most}  "
            f"{speed:.1f} games/s  {left}")


def _clock(seconds: float) -> str:
    """Seconds as m:ss (or h:mm:ss)."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressBar:
    """Call it with (done, total) as games finish; it draws itself once the run has taken
    DELAY seconds, and close() clears it. A bar that is not wanted draws nothing."""

    def __init__(self, *, quiet: bool = False, stream: TextIO | None = None, label: str = "",
                 at_most: bool = False):
        self.stream = stream or sys.stderr
        self.on = wanted(quiet, self.stream)
        self.label = label
        self.at_most = at_most   # the run may stop before the total (see line)
        self.start = time.monotonic()
        self.last = 0.0
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self.start < DELAY or (now - self.last < REDRAW and done < total):
            return
        self.last = now
        text = line(done, total, now - self.start, self.label, self.at_most)
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        """Clears the bar's line, if one was drawn."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
