"""A match: (game, seed, seats, answers). Every decision is a choice yielded by the Lua coroutine."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .errors import Divergence, EngineError, IllegalAnswer, SaveFileError, ScriptError
from .loader import GameDef, LuaSource, load_game
from .names import did_you_mean
from .runtime import Runtime

SAVE_FORMAT = "summon-match/1"
SEED_MASK = (1 << 63) - 1


@dataclass
class Seat:
    """A seat at the table: who plays it (human, bot, ...) and which card set it uses."""

    controller: str = "bot"
    set: str | None = None

    @classmethod
    def parse(cls, text: str) -> "Seat":
        kind, _, set_id = text.strip().partition(":")
        return cls(kind or "bot", set_id or None)

    def __str__(self) -> str:
        return f"{self.controller}:{self.set}" if self.set else self.controller


@dataclass
class Decision:
    """The question a match is waiting on."""

    player: int
    prompt: str
    count: int
    secret: bool = False    # only the asked player may see the answer (until the rules reveal it)


def parse_options(pairs: list[str] | None) -> dict:
    """Game options from the command line: ["rounds=7", "extra_round=true"] -> {"rounds": 7, ...}."""
    from ruamel.yaml import YAML

    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise EngineError(f"an option is KEY=VALUE, not {pair!r}")
        try:
            out[key.strip()] = YAML(typ="safe").load(value) if value.strip() else ""
        except Exception:
            out[key.strip()] = value
    return out


def check_options(game: GameDef, options: dict) -> dict:
    """Options a match overrides must be among the game's, with a value of the same kind."""
    declared = game.data.get("options") or {}
    for key, value in options.items():
        if key not in declared:
            raise EngineError(f"{game.id} has no option '{key}'{did_you_mean(key, declared)}; "
                              f"options: {', '.join(declared) or 'none'}")
        want = declared[key]
        if want is not None and type(value) is not type(want) and not (
                isinstance(want, float) and isinstance(value, int)):
            raise EngineError(f"option {key} takes a {type(want).__name__} like {want!r}, not {value!r}")
    return dict(options)


def assign_sets(game: GameDef, seats: list[Seat]) -> list[Seat]:
    """Fills in each seat's card set: the one it names, or the game's sets in turn."""
    if not (game.data.get("sets") or {}).get("per_seat"):
        return seats
    ids = sorted(game.sets)
    out = []
    for i, s in enumerate(seats):
        if s.set is None:
            if not ids:
                raise EngineError(f"{game.id} has no card sets to play")
            s = Seat(s.controller, ids[i % len(ids)])
        elif s.set not in game.sets:
            raise EngineError(f"{game.id} has no card set '{s.set}'; sets: {', '.join(ids)}")
        out.append(s)
    return out


class Match:
    """A running match: options() and answer() to play, snapshot() and view() to read, restarted() to go back.

    The Lua runtime behind it is private; nothing outside this class touches it.
    """

    def __init__(self, game: GameDef, seed: int, seats: list[Seat], *, quiet: bool = False,
                 scenario: LuaSource | None = None, setup: dict | None = None,
                 options: dict | None = None):
        pl = game.data["players"]
        if not pl["min"] <= len(seats) <= pl["max"]:
            raise EngineError(f"{game.id} is for {pl['min']} to {pl['max']} players, not {len(seats)}")
        self.game = game
        self.seed = int(seed) & SEED_MASK
        self.seats = assign_sets(game, list(seats))
        self.quiet = quiet
        self.scenario = scenario
        self.setup = setup
        self.game_options = check_options(game, options or {})
        self.answers: list[str] = []
        self.askers: list[int] = []     # who gave each answer
        self.error: str | None = None
        self._boot()

    # -- running --------------------------------------------------------------

    def _boot(self) -> None:
        seats = [{"set": s.set, "name": f"Player {i + 1}"} for i, s in enumerate(self.seats)]
        self._rt = Runtime(self.game, self.seed, seats, self.scenario, self.setup, self.game_options)
        self._take(self._rt.start(self.quiet))

    def _take(self, res: tuple) -> None:
        status = res[0]
        if status == "choice":
            self.pending: Decision | None = Decision(res[1], res[2], res[3], bool(res[4]))
        elif status == "over":
            self.pending = None
        else:
            raise ScriptError(res[1] if len(res) > 1 else "the match stopped")

    @property
    def is_over(self) -> bool:
        return self.pending is None

    @property
    def winner(self) -> int | None:
        """The winning seat, or None (no winner yet, or a draw)."""
        return self._rt.winner()

    @property
    def decisions(self) -> int:
        return len(self.answers)

    def options(self) -> list[str]:
        """Labels of the options offered now, in order."""
        return self._rt.option_keys() if self.pending else []

    def index_of(self, label: str) -> int | None:
        """The 0-based index of the offered option with this label, or None when it is not offered."""
        idx = self._rt.key_index(label) if self.pending else None
        return None if idx is None else idx - 1

    def answer(self, index: int) -> None:
        """Answers the pending decision with the option at a 0-based index."""
        if self.pending is None:
            raise IllegalAnswer("the match is over; there is nothing to answer")
        if not (isinstance(index, int) and 0 <= index < self.pending.count):
            raise IllegalAnswer(f"no option {index + 1 if isinstance(index, int) else index!r}: "
                                f"choose 1 to {self.pending.count}")
        asker = self.pending.player
        try:
            res = self._rt.step(index + 1)
            key = self._rt.last_answer()
            self._take(res)
        except ScriptError as e:
            self._recover(str(e))
            raise
        self.answers.append(key)
        self.askers.append(asker)

    def answer_key(self, key: str) -> None:
        """Answers with the option whose label is key."""
        idx = self.index_of(key)
        if idx is None:
            raise IllegalAnswer(f"{key!r} is not offered; offered: {', '.join(self.options())}")
        self.answer(idx)

    def _recover(self, message: str) -> None:
        """After a script error: rebuild the match at its last decision."""
        answers = list(self.answers)
        self.answers, self.askers = [], []
        self._boot()
        self.replay(answers)
        self.error = message

    def replay(self, answers: list[str], *, upto: int | None = None) -> Divergence | None:
        """Gives logged answers in order, stopping at the first that is no longer offered.

        Returns that divergence (its decision number, the answer, what is offered now),
        or None when every answer fitted. A script error raises ScriptError.
        """
        for n, key in enumerate(answers[:upto], self.decisions + 1):
            if self.index_of(key) is None:
                return Divergence(n, key, self.options())
            self.answer_key(key)
        return None

    def restarted(self, answers: list[str] | None = None, *, game: GameDef | None = None
                  ) -> tuple["Match", Divergence | None]:
        """A new match of the same seed, seats, setup and options (and this game or `game`),
        with `answers` replayed up to the first that no longer fits; returns it and that divergence."""
        m = Match(game or self.game, self.seed, self.seats, quiet=self.quiet, scenario=self.scenario,
                  setup=self.setup, options=self.game_options)
        diverged = m.replay(list(answers or []))
        m.messages()
        return m, diverged

    def force_random(self, values: list[int]) -> None:
        """Results the generator gives next, in order, before it draws at random again (tests)."""
        self._rt.force(values)

    def last_chance(self) -> tuple[int, str]:
        """(decision number, what) of the last draw, roll or shuffle: (0, "") when there was none."""
        notes = self._rt.chance_notes()
        return notes[-1] if notes else (0, "")

    def eval(self, code: str, chunkname: str = "eval", *, seat: int | None = None) -> list:
        """Runs Lua in the match's sandbox (an expression or statements); returns its results.

        With a seat, the code sees only a throwaway copy of that seat's view (`view`, `defs`,
        the board's shape): it can neither learn hidden cards nor change the match.
        Raises ScriptError with file:line when the code fails to compile or run.
        """
        from .luac import compile_lua

        ok, bc = compile_lua("return " + code, chunkname)
        if not ok:
            ok, bc = compile_lua(code, chunkname)
        if not ok:
            raise ScriptError(bc)
        ok, res = self._rt.eval(bc, chunkname, seat)
        if not ok:
            raise ScriptError(res)
        return json.loads(res)

    # -- reading --------------------------------------------------------------

    def messages(self) -> list[str]:
        """What happened since the last call (moves, rolls, damage...)."""
        return self._rt.drain_messages()

    def snapshot(self) -> dict:
        """The whole state as plain data (maps are dicts and lists are lists, even when empty)."""
        return typed_state(json.loads(self._rt.state_json()))

    def state_hash(self) -> str:
        """sha256 of the state's canonical JSON."""
        return hashlib.sha256(self._rt.state_json().encode()).hexdigest()

    def view(self, player: int | None) -> dict:
        """The state as one player may see it (None: everything), typed like snapshot().

        Every zone is {"count": n}, plus "cards" (ids, bottom to top) when the player may see them.
        """
        return typed_state(json.loads(self._rt.view_json(player)))

    # -- saving ---------------------------------------------------------------

    def to_json(self) -> dict:
        out = {
            "format": SAVE_FORMAT,
            "game": self.game.id,
            "seed": self.seed,
            "seats": [str(s) for s in self.seats],
            "answers": list(self.answers),
        }
        if self.game_options:
            out["options"] = dict(self.game_options)
        return out

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


_MAPS = ("zones", "spaces", "counters", "vars")


def typed_state(st: dict) -> dict:
    """A decoded state with its maps as dicts even when empty (Lua has one kind of empty table)."""
    for key in _MAPS:
        if st.get(key) == []:
            st[key] = {}
    for owner, values in list(st["counters"].items()):
        if values == []:
            st["counters"][owner] = {}
    for c in st["cards"]:
        if c.get("tokens") == []:
            c["tokens"] = {}
    return st


def read_save(path: Path) -> dict:
    """Reads and checks a saved match file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SaveFileError(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise SaveFileError(f"{path}:{e.lineno}:{e.colno}: not a saved match (JSON: {e.msg})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"{path}:1:1: not a saved match (expected format {SAVE_FORMAT!r})")
    problems = []
    if not isinstance(data.get("game"), str):
        problems.append("'game' must be a game id")
    if not isinstance(data.get("seed"), int) or isinstance(data.get("seed"), bool):
        problems.append("'seed' must be an integer")
    if not (isinstance(data.get("seats"), list) and all(isinstance(s, str) for s in data["seats"])):
        problems.append("'seats' must be a list like [\"human:set\", \"bot\"]")
    if not (isinstance(data.get("answers"), list) and all(isinstance(a, str) for a in data["answers"])):
        problems.append("'answers' must be a list of option labels")
    if not isinstance(data.get("options", {}), dict):
        problems.append("'options' must be a mapping of game options")
    if problems:
        raise SaveFileError(f"{path}:1:1: " + "; ".join(problems))
    return data


def load_match(path: Path, game: GameDef | None = None, *, upto: int | None = None,
               quiet: bool = False) -> Match:
    """Loads a saved match and replays its answers (the first `upto` of them if given)."""
    data = read_save(path)
    game = game or load_game(data["game"])
    m = Match(game, data["seed"], [Seat.parse(s) for s in data["seats"]], quiet=quiet,
              options=data.get("options"))
    diverged = m.replay(data["answers"], upto=upto)
    if diverged is not None:
        raise diverged
    return m


class Ask:
    """A pending decision as its player sees it: all a controller (person or bot) is given."""

    def __init__(self, match: Match):
        d = match.pending
        if d is None:
            raise IllegalAnswer("the match is over; there is nothing to answer")
        self.player, self.prompt, self.secret = d.player, d.prompt, d.secret
        self.options: list[str] = match.options()
        self._view = lambda: match.view(d.player)

    def view(self) -> dict:
        """What the asked player may see now (computed when asked for)."""
        return self._view()


Controller = Callable[[Ask], int]


class RandomBot:
    """Picks uniformly among the options, from its own seeded generator."""

    def __init__(self, seed: int, seat: int):
        import random

        self.rng = random.Random(f"bot:{seed}:{seat}")

    def __call__(self, ask: Ask) -> int:
        return self.rng.randrange(len(ask.options))


class Scripted:
    """Answers from a list of option labels (or 0-based indexes), in order."""

    def __init__(self, answers: list[str | int]):
        self.answers = list(answers)
        self.pos = 0

    def __call__(self, ask: Ask) -> int:
        if self.pos >= len(self.answers):
            raise IllegalAnswer("the script of answers ran out")
        a = self.answers[self.pos]
        self.pos += 1
        if isinstance(a, int):
            return a
        if a not in ask.options:
            raise IllegalAnswer(f"scripted answer {a!r} is not offered; offered: {', '.join(ask.options)}")
        return ask.options.index(a)


def play(match: Match, controllers: dict[int, Controller], *, max_decisions: int | None = None,
         on_decision: Callable[[Match, int, str], Any] | None = None) -> Match:
    """Runs a match to its end (or max_decisions), asking each seat's controller."""
    while match.pending is not None:
        if max_decisions is not None and match.decisions >= max_decisions:
            break
        p = match.pending.player
        match.answer(controllers[p](Ask(match)))
        if on_decision:
            on_decision(match, p, match.answers[-1])
    return match
