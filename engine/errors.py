"""The engine's errors. Each names the file and line of the input at fault where one exists."""
from __future__ import annotations

from dataclasses import dataclass


class EngineError(Exception):
    """Base of every error the engine reports to a user."""


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in an input file, printed as `path:line:col: message`."""

    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class DefinitionError(EngineError):
    """A game, card set or scenario file failed to load or validate."""

    def __init__(self, problems: list[Problem], partial=None):
        self.problems = sorted(set(problems))
        # what loaded of a game whose game.yaml and scripts were read but whose cards or
        # references have problems (loader.load_game): enough for `summon check` to read
        # every script for the names it uses in the same run; never a game to play
        self.partial = partial
        super().__init__("\n".join(str(p) for p in self.problems))


class ScriptError(EngineError):
    """A Lua script failed while a match was running; the match is left at its last decision.
    A message longer than MAX_MESSAGE is cut (a script's error(string.rep(...)) would fill
    the screen for seconds), keeping its last line, which says where the match was."""

    MAX_MESSAGE = 4000

    def __init__(self, message: str = "", *args):
        from .luac import whole_places
        text = whole_places(str(message))
        if len(text) > self.MAX_MESSAGE:    # (cut to at most MAX_MESSAGE in all: cutting again changes nothing)
            last = text.rfind("\n") + 1
            tail = text[last - 1:] if last > len(text) - 300 else ""     # "\n" and the last line
            keep = self.MAX_MESSAGE - len(tail) - 40
            text = text[:keep] + f" [... {len(text) - keep - len(tail):,} more characters]" + tail
        super().__init__(text, *args)


class EditFailed(ScriptError):
    """A designer's console change that fails when a replay makes it again (Match.edit). Its
    message names the change's code, which may name hidden cards: `veiled` says the same
    without it, for a seat's eyes."""

    def __init__(self, message: str, veiled: str):
        super().__init__(message)
        self.veiled = veiled


# Words of the message that stops a script at the processor-time limit (E.watch in
# engine/lua/sandbox.lua). That limit guards against runaway scripts and depends on the
# machine's speed, so nothing that must be the same everywhere (a scenario's expected
# error, a game's result) may rest on it.
TIME_LIMIT_WORDS = "it hit the time limit of"


def is_time_limit(error: Exception | str) -> bool:
    """Whether an error is the processor-time limit stopping a script."""
    return TIME_LIMIT_WORDS in str(error)


class IllegalAnswer(EngineError):
    """An answer that is not among the options offered."""


class Divergence(IllegalAnswer):
    """A logged answer that is no longer offered at its point (replay after a rule change)."""

    def __init__(self, number: int, answer: str, offered: list[str]):
        self.number, self.answer, self.offered = number, answer, offered
        shown = "\n".join(f"  {i}. {o}" for i, o in enumerate(offered, 1))
        super().__init__(
            f"decision {number}: the logged answer {answer!r} is not offered any more; "
            f"offered now:\n{shown}"
        )


class UnknownGame(EngineError):
    """A game id or path that names no game."""


class SaveFileError(EngineError):
    """A saved match that cannot be read."""
