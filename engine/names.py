"""Name suggestions for messages ("did you mean ...?"), by the same rule as the engine's Lua `E.suggest`."""
from __future__ import annotations

from typing import Iterable


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance between two strings."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def nearest(name: object, candidates: Iterable[object]) -> str | None:
    """The candidate closest to name, if it is close enough to be a likely typo (else None).

    Close enough: at most max(2, len(name) // 3) edits, and fewer than the longer of the two
    has letters (two letters of two others, `a1` for `g9`, are no typo); the first of equally
    close ones wins.
    """
    if not isinstance(name, str):
        return None
    best, best_d = None, None
    for c in candidates:
        d = edit_distance(name, str(c))
        if best_d is None or d < best_d:
            best, best_d = str(c), d
    if best is not None and best_d <= max(2, len(name) // 3) and best_d < max(len(name), len(best)):
        return best
    return None


def did_you_mean(name: object, candidates: Iterable[object]) -> str:
    """" (did you mean 'x'?)" for the nearest candidate, or "" when none is close."""
    near = nearest(name, candidates)
    return f" (did you mean '{near}'?)" if near is not None else ""


def kind_of(value: object) -> str:
    """What kind of value this is, in a modder's words: "a whole number", "text", "a map"..."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return type(value).__name__
