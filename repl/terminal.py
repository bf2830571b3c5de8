"""Text bound for the terminal. Names, messages and labels come from game files and scripts,
so they may hold escape sequences that retitle the window, write the clipboard or move the
cursor; only our own colour codes may reach the terminal."""
from __future__ import annotations

import re

# Colour (SGR) sequences, which the screen itself uses, are kept; every other escape
# sequence and control character except newline and tab is dropped.
_SGR = r"\x1b\[[0-9;]*m"
_OTHER_ESCAPE = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|.?)"
_CONTROL = r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]"
_PATTERN = re.compile(f"({_SGR})|{_OTHER_ESCAPE}|{_CONTROL}", re.S)


def safe(text: str) -> str:
    """The text with control characters and escape sequences removed, colour codes kept."""
    return _PATTERN.sub(lambda m: m.group(1) or "", text)
