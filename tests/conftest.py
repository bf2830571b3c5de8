"""Shared fixtures and helpers: games load once per session; positions are set up with
scenario Lua; copies of a game to break; `summon` run as a user runs it, through a pipe or
in a pseudo-terminal."""
from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import pexpect
import pyte
import pytest

ROOT = Path(__file__).resolve().parent.parent
# The games this repository ships: each has a golden transcript and a types file, and
# `summon check` passes on it without a note. A game a modder adds to a checkout (with
# `summon new game`, say) is not one of them, so it cannot fail those tests.
SHIPPED_GAMES = ("summonaria", "summoner_tcg", "summoner_wars", "summoners_isle")
sys.path.insert(0, str(ROOT))
# The scans of Lua texts (engine/lualint.py) are kept on disk in a folder of this test run,
# never the user's (the tests and the programs they start share it): each run parses afresh.
os.environ["SUMMON_CACHE"] = tempfile.mkdtemp(prefix="summon-test-cache-")
atexit.register(shutil.rmtree, os.environ["SUMMON_CACHE"], True)

from engine.loader import LuaSource, load_game  # noqa: E402
from engine.match import Match, Seat  # noqa: E402

# How long a test waits for a program before it gives up. Not a speed requirement: every
# wait ends as soon as what it waits for happens; this only stops a hung program.
DEADLINE = 120.0


@pytest.fixture(scope="session")
def sw():
    """The Summoner Wars game definition."""
    return load_game("summoner_wars")


# -- positions ----------------------------------------------------------------------

def position(game, lua: str, *, seed: int = 1, sets=("polar_dwarves", "fallen_kingdom"), quiet=False) -> Match:
    """A match whose position is set by scenario Lua run after the game's setup.

    The Lua sees the rules' functions plus `scenario`: clear_board(), create(card, player,
    space, {tokens}), add(player, zone, {cards}), empty(player, zone), set_counter(player,
    name, value), start(player, phase), force({numbers}) and remove(card).
    """
    return Match(game, seed, [Seat("bot", s) for s in sets], quiet=quiet,
                 scenario=LuaSource("scenario", lua))


def tcg_sentry_position(gambit: str, hand: tuple[str, ...] = (), kinds=("random", "random")) -> Match:
    """Summoner TCG, player 1 (ember) to act in the main phase with a revealed Stone Sentry
    and `hand`, against player 2 (tide) with a Moss Shell and `gambit` primed."""
    from engine.loader import LuaSource, load_game
    adds = "".join(f'scenario.add(1, "hand", {{"{c}"}})\n' for c in hand)
    lua = (f'scenario.empty(1, "hand"); scenario.empty(2, "hand")\n{adds}'
           f'scenario.add(1, "field", {{"stone_sentry"}})\n'
           f'scenario.add(2, "field", {{"{gambit}", "moss_shell"}})\n'
           f'cards.turn_face_down(field_card(2, "{gambit}"))\nscenario.start(1, "main")\n')
    return Match(load_game("summoner_tcg"), 1, [Seat(kinds[0], "ember"), Seat(kinds[1], "tide")], quiet=True,
                 scenario=LuaSource("scenario", lua))


def answer(match: Match, *keys: str) -> None:
    """Answers with each option label in turn."""
    for key in keys:
        match.answer_key(key)


def options_starting(match: Match, prefix: str) -> list[str]:
    """The labels offered now that start with prefix."""
    return [o for o in match.options() if o.startswith(prefix)]


def card_at(match: Match, space: str) -> dict | None:
    """The card on a space, as plain data, or None."""
    st = match.snapshot()
    cid = st["spaces"].get(space)
    return st["cards"][cid - 1] if cid else None


def counter(match: Match, name: str, player: int) -> int:
    return match.snapshot()["counters"][str(player)][name]


def zone(match: Match, name: str, player: int) -> list[str]:
    """Card definition ids in a zone, bottom to top."""
    st = match.snapshot()
    ids = st["zones"].get(f"{name}:{player}", [])
    return [st["cards"][i - 1]["def"] for i in ids]


def tokens(card: dict | None, name: str) -> int:
    return card["tokens"].get(name, 0) if card else 0


def seed_ranges(games: int, chunk: int) -> list[range]:
    """Seeds 1..games in pieces of `chunk`: long random playouts split so that parallel
    workers share them evenly."""
    return [range(first, min(first + chunk, games + 1)) for first in range(1, games + 1, chunk)]


def seeds_id(seeds: range) -> str:
    return f"seeds{seeds.start}-{seeds.stop - 1}"


# -- copies of a game, to change or break ----------------------------------------------

class GameCopy(NamedTuple):
    rules: Path    # rules/<game>, the folder load_game and check take
    cards: Path    # cards/<game>


def copy_game(dest: Path, game: str = "summoner_wars", root: Path = ROOT) -> GameCopy:
    """Copies a shipped game's rules and cards (not their scenario tests) under dest; root:
    where its rules/ and cards/ are (ROOT / "docs/examples" for the docs' example games)."""
    out = GameCopy(dest / "rules" / game, dest / "cards" / game)
    for src, to in ((root / "rules" / game, out.rules), (root / "cards" / game, out.cards)):
        shutil.copytree(src, to, ignore=shutil.ignore_patterns("tests"))
    return out


@pytest.fixture
def game_copy(tmp_path):
    """game_copy(game="summoner_wars") -> GameCopy: a fresh copy of a shipped game in tmp_path."""
    made = []

    def make(game: str = "summoner_wars") -> GameCopy:
        made.append(game)
        return copy_game(tmp_path / f"copy{len(made)}", game)
    return make


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replaces text in a file; the text must be there."""
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, count))


# -- the command line -----------------------------------------------------------------

def summon(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`summon ARGS` (as `python -m repl`) with this checkout's code; output as text."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "repl", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=DEADLINE)


def words(text: str) -> str:
    """A pattern of the text whose spaces also match a line break and indent: the terminal
    session breaks prose wider than the terminal between words."""
    return r"\s+".join(map(re.escape, text.split(" ")))


ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[=>]")


class Screen:
    """A running `summon play ARGS` in a pseudo-terminal. What it writes is kept as text
    (`buf`) and played on a terminal emulator (pyte) of the same size, which answers the
    program's cursor position requests as a real terminal would; `rows()` is what a
    person would see on the screen now."""

    def __init__(self, history: Path, *args: str, size: tuple[int, int] = (60, 140)):
        env = dict(os.environ, SUMMON_HISTORY=str(history), TERM="xterm", PYTHONPATH=str(ROOT))
        self.p = pexpect.spawn(sys.executable, ["-m", "repl", "play", *args], cwd=str(ROOT), env=env,
                               dimensions=size, encoding="utf-8", timeout=DEADLINE)
        self.text = ""   # what the last wait matched in
        self.buf = ""    # everything the program wrote
        self.mark = 0    # where the text waits look in starts
        self.term = pyte.Screen(size[1], size[0])
        self.term.write_process_input = self.p.send   # its answers to status requests
        self.stream = pyte.Stream(self.term)

    def _take(self, chunk: str) -> None:
        self.buf += chunk
        self.stream.feed(chunk)

    def rows(self) -> list[str]:
        """The screen's rows as the terminal shows them now, without trailing spaces."""
        return [row.rstrip() for row in self.term.display]

    def wait(self, pattern: str) -> str:
        """Waits until the screen shows a pattern since the last input (colours stripped);
        returns that text. Fails if it has not shown up within DEADLINE seconds."""
        rx = re.compile(pattern)
        give_up = time.monotonic() + DEADLINE
        while True:
            clean = ANSI.sub("", self.buf[self.mark:])
            if rx.search(clean):
                self.text = clean
                return clean
            left = give_up - time.monotonic()
            if left <= 0:
                start = f"it begins:\n{clean[:1500]}\n...\n" if len(clean) > 3500 else ""
                pytest.fail(f"the screen never showed {pattern!r} since the last input; {start}it ends:\n{clean[-2000:]}")
            try:
                chunk = self.p.read_nonblocking(100000, timeout=left)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                pytest.fail(f"the program ended without showing {pattern!r}; it ends:\n{clean[-2000:]}")
            self._take(chunk)

    def type(self, text: str, enter: bool = True) -> None:
        self.mark = len(self.buf)
        self.p.send(text + ("\r" if enter else ""))

    def answer_quit(self, answer: str) -> None:
        """At the question quit and Ctrl-D ask, answers it (a file to save to, or "" to leave
        without saving) and waits for the program to end."""
        self.wait("Save before quitting")
        self.type(answer)
        self.p.expect(pexpect.EOF)


@pytest.fixture
def play_screen(tmp_path):
    """play_screen(*args, size=(rows, columns)) -> Screen: `summon play ARGS` in a pseudo-terminal, ended after the test."""
    screens: list[Screen] = []

    def spawn(*args: str, size: tuple[int, int] = (60, 140)) -> Screen:
        screens.append(Screen(tmp_path / "history", *args, size=size))
        return screens[-1]
    yield spawn
    for s in screens:
        s.p.terminate(force=True)
