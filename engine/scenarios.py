"""Scenario tests in YAML: set up a position, give answers, check expectations (`summon test`)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import regex

from . import ENGINE_DIR, loader, yamlio
from .errors import DefinitionError, EngineError, IllegalAnswer, Problem, ScriptError, is_time_limit
from .loader import LuaSource
from .luac import at_line
from .match import Match, Seat
from .names import did_you_mean


@dataclass
class Failure:
    where: str        # path:line of the failed step or expectation
    step: int         # 1-based step number (0: setup)
    message: str      # expected against actual


@dataclass
class Result:
    file: str
    name: str
    line: int
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads((ENGINE_DIR / "schemas" / "scenario.schema.json").read_text())


def find_files(paths: list[str] | None = None) -> list[Path]:
    """Scenario files: those given (files, folders, or the id of a game found, for its rules'
    and cards' tests/ folders), or those in the tests/ folders of every game found."""
    games = loader.list_games()
    if not paths:
        return [f for rules_dir in games.values() for f in game_tests(rules_dir)]
    out: list[Path] = []
    for text, p in zip(paths, map(Path, paths)):
        if p.is_dir() and (p / "game.yaml").is_file():   # a game's folder, as a game's id: its tests
            out += game_tests(p)
        elif text in games and "/" not in text and text not in (".", ".."):   # a game's id, as summon check reads it
            out += game_tests(games[text])
        elif p.is_dir():
            out += [f for f in loader.yaml_files(p, deep=True) if not other_kind(f)]
        elif not p.exists() and p.suffix == "" and len(p.parts) == 1:   # a name: no file and no game
            raise EngineError(f"no file or folder '{p}', and " + loader.unknown_game_message(str(p), games))
        else:
            out.append(p)   # (a file, or a path that is not there: run_file says so)
    return out


def other_kind(path: Path) -> bool:
    """Whether a YAML file met in a folder is plainly no scenario file: a game.yaml, or a card
    set or deck (a map with cards or a deck and no scenarios). Anything else is run, so a
    scenario file with a mistake is reported, not passed over."""
    if path.name == "game.yaml":
        return True
    doc, _ = yamlio.load(path, loader.display(path))
    data = doc.data if doc is not None else None
    return isinstance(data, dict) and "scenarios" not in data and ("cards" in data or "deck" in data)


def own_game(path: Path, game: str) -> str | None:
    """The folder of the game a scenario file names, when the file is one of that game's own
    tests (rules/ID/tests or cards/ID/tests): so a game's tests run from anywhere, and test
    that game even where another game of the same id is found first (a copy in the current
    folder's rules/, say). None when the file is no game's own test: the id is looked up."""
    parent = path.resolve().parent
    if parent.name != "tests" or parent.parent.name != game:
        return None
    for rules in (parent.parent, parent.parent.parent.parent / "rules" / game):
        if (rules / "game.yaml").is_file():
            return str(rules)
    return None


def test_folders(rules_dir: Path) -> list[Path]:
    """Where a game's scenario files are: rules/ID/tests, and cards/ID/tests when it has cards."""
    cards_dir = loader.cards_beside(rules_dir)
    return [rules_dir / "tests"] + ([cards_dir / "tests"] if cards_dir is not None else [])


def game_tests(rules_dir: Path) -> list[Path]:
    """The scenario files in a game's rules/ID/tests and cards/ID/tests folders (a card set
    or deck kept there for the tests is no scenario file: see other_kind)."""
    out = [f for folder in test_folders(rules_dir) for f in loader.yaml_files(folder)]
    return [f for f in out if not other_kind(f)]


def load_file(path: Path) -> tuple[yamlio.Document | None, list[Problem]]:
    doc, problems = yamlio.load(path, loader.display(path), int_keys=True)
    if doc is None:
        return None, problems
    problems += loader.validate(doc, schema())
    if not problems:
        problems += _pattern_problems(doc)
    return (None if problems else doc), problems


# Patterns: an answer or an offered option written /like this/, and every `said` and
# `not_said` entry, are regular expressions (Python's syntax, run by the regex package,
# which can stop one that takes too long: nested repeats can take years on a short text).
PATTERN_SECONDS = 2.0
_SLASHED = ("offered", "not_offered", "offered_exactly")   # lists whose /entries/ are patterns
_PLAIN = ("said", "not_said")                                # lists whose every entry is one


def _slashed(text) -> str | None:
    """The pattern of a /slashed/ answer or option, or None for plain text."""
    if isinstance(text, str) and len(text) > 1 and text.startswith("/") and text.endswith("/"):
        return text[1:-1]
    return None


_HASH_CUT = re.compile(r"[ \t]+(#\d+)(?=\s|$)")   # (a comment right after a plain text that is a label's number: ` #2`)


def yaml_quoted(text: str) -> str:
    """Text as a single-quoted YAML scalar (nothing is an escape there but '' for ')."""
    return "'" + text.replace("'", "''") + "'"


def _pattern_problems(doc: yamlio.Document) -> list[Problem]:
    """Every pattern of a scenario file that is not a valid regular expression, at its line;
    and an answer or option written without quotes and cut by a comment (`answer: Attack
    #2` reads as "Attack": YAML starts a comment at ` #`, and labels the engine numbers are
    `Attack #2`)."""
    out = []

    def check(keys: tuple, pattern: str) -> None:
        try:
            _compiled(pattern)
        except regex.error as e:
            out.append(doc.problem(keys, f"not a valid pattern: {e} (in {pattern!r})"))

    def cut(keys: tuple, text) -> None:
        if not isinstance(text, str) or not text:
            return
        line, col = doc.where(keys)
        # the value as written, from its first line on: after an anchor or tag (&a, !t), its
        # words, which a plain value folded over lines parts with a line break and indent
        raw = "\n".join(doc.lines[line - 1:line + 20])[col - 1:] if 0 < line <= len(doc.lines) else ""
        words = r"(?:[&!]\S*[ \t]+)*" + r"\s+".join(map(re.escape, text.split()))
        written = re.match(words, raw) if text.split() else None
        if written:
            m = _HASH_CUT.match(raw[written.end():])
            if m:
                out.append(doc.problem(keys, f"this reads as {text!r}: YAML takes ' {m.group(1)}' and what follows for "
                                             f"a comment; put the text in quotes ({yaml_quoted(text + ' ' + m.group(1))})"))

    for i, sc in enumerate(doc.data.get("scenarios") or []):
        for n, step in enumerate(sc.get("steps") or []):
            keys = ("scenarios", i, "steps", n)
            cut(keys + ("answer",), step.get("answer"))
            if _slashed(step.get("answer")) is not None:
                check(keys + ("answer",), _slashed(step["answer"]))
            expect = step.get("expect") or {}
            for name in _SLASHED + _PLAIN:
                for j, pat in enumerate(expect.get(name) or []):
                    cut(keys + ("expect", name, j), pat)
                    pattern = pat if name in _PLAIN else _slashed(pat)
                    if isinstance(pattern, str):
                        check(keys + ("expect", name, j), pattern)
    return out


MAX_REPEAT = 100_000   # the most copies of one piece a pattern's counted repeats ({n}) may ask for
_COUNT = regex.compile(r"\s*\{(\d*)(?:,(\d*))?\}")   # (space before it too: verbose patterns allow it)


def _count_at(pattern: str, i: int) -> int:
    """The count of a counted repeat ({n}, {n,m}: its largest) starting at i, else 1."""
    m = _COUNT.match(pattern, i)
    if m is None or not (m.group(1) or m.group(2)):
        return 1
    text = m.group(2) or m.group(1)
    return int(text) if len(text) <= 7 else 10 ** 7


def largest_repeat(pattern: str) -> int:
    """How many copies of one piece a pattern's counted repeats ask for at most: a piece's
    own count times the counts of the groups around it (groups one after the other do not
    multiply). The regex package builds the copies out when it compiles."""
    inside = [1]      # for each group open here, the most copies of a piece within it so far
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "(":
            inside.append(1)
            i += 1
            continue
        if ch == ")":
            i += 1
            if len(inside) > 1:    # (the group's count multiplies all within it)
                group = inside.pop()
                inside[-1] = max(inside[-1], group * _count_at(pattern, i))
            continue
        if ch == "\\":
            i += 2
        elif ch == "[":            # a class is one piece ([]...] holds a ])
            i = pattern.find("]", i + 2 if pattern[i + 1:i + 2] == "]" else i + 1) + 1 or len(pattern)
        else:
            i += 1
        if ch != "{":
            inside[-1] = max(inside[-1], _count_at(pattern, i))
    while len(inside) > 1:         # (a group never closed: the pattern is refused anyway)
        group = inside.pop()
        inside[-1] = max(inside[-1], group)
    return inside[0]


@lru_cache(maxsize=512)
def _compiled(pattern: str):
    """The compiled pattern; regex.error for one that is not valid, or whose counted repeats
    would build a huge program (the regex package builds (?:(?:P{1000}){1000}){1000} out, all
    10^9 of it, and uses up the memory before a match could time out)."""
    if largest_repeat(pattern) > MAX_REPEAT:
        raise regex.error(f"its counted repeats ({{n}}) ask for over {MAX_REPEAT:,} copies; write it with "
                          f"fewer or smaller ones")
    return regex.compile(pattern)


def _search(pattern: str, text: str, keys: tuple) -> bool:
    """Whether the pattern matches somewhere in text; a match that runs past PATTERN_SECONDS
    fails the step at keys instead of running on."""
    try:
        return _compiled(pattern).search(text, timeout=PATTERN_SECONDS) is not None
    except TimeoutError:
        raise _Fail(keys, f"the pattern {pattern!r} took more than {PATTERN_SECONDS:g} s to match {text!r}: "
                          f"a repeat inside a repeat, such as (a*)*, can take that long; write it without one") from None


def die_faces(game) -> dict[str, list[str]]:
    """Each declared die's faces by name, in order ("melee+ranged": the symbols joined by +)."""
    return {die: ["+".join(f) for f in spec["faces"]] for die, spec in (game.data.get("dice") or {}).items()}


def roll_numbers(game, rolls: list) -> list[int]:
    """Forced rolls as the generator's numbers: a number is a face's number (or any draw);
    "die:face" (or a face name only one die has) is that face's number on its die.

    Raises ValueError naming the faces a die has when it has no such face."""
    faces = die_faces(game)
    out = []
    for r in rolls:
        if isinstance(r, int):
            out.append(r)
            continue
        die, sep, face = str(r).rpartition(":")
        if sep:
            if die not in faces:
                raise ValueError(f"roll {r!r}: no die called {die!r}" + did_you_mean(die, list(faces))
                                 + (f"; dice: {', '.join(faces)}" if faces else "; the game declares no dice"))
            dice = [die]
        else:
            dice = [d for d, fs in faces.items() if face in fs]
            if len(dice) > 1:
                raise ValueError(f"roll {r!r}: dice {', '.join(dice)} all have a face {face!r}: say which, "
                                 f"as {dice[0]}:{face}")
            if not dice:
                every = "; ".join(f"{d}: {', '.join(dict.fromkeys(fs))}" for d, fs in faces.items())
                raise ValueError(f"roll {r!r}: no die has a face called {face!r}"
                                 + (f" (faces are {every})" if every else "; the game declares no dice"))
        fs = faces[dice[0]]
        if face not in fs:
            raise ValueError(f"roll {r!r}: die {dice[0]} has no face {face!r}" + did_you_mean(face, fs)
                             + f"; its faces are {', '.join(dict.fromkeys(fs))}")
        out.append(fs.index(face) + 1)
    return out


class _Fail(Exception):
    def __init__(self, keys: tuple, message: str):
        self.keys, self.message = keys, message


def _pick(match: Match, answer: str, keys: tuple) -> int:
    options = match.options()
    if not options:
        raise _Fail(keys, f"cannot answer {answer!r}: nothing is being asked (the match is over)")
    pattern = _slashed(answer)
    if pattern is not None:
        hits = [i for i, o in enumerate(options) if _search(pattern, o, keys)]
        if len(hits) != 1:
            raise _Fail(keys, f"pattern {answer} matches {len(hits)} options, not 1; offered: {options}")
        return hits[0]
    if answer not in options:
        raise _Fail(keys, f"{answer!r} is not offered; offered: {options}")
    return options.index(answer)


def _matches(pattern: str, option: str, keys: tuple) -> bool:
    rx = _slashed(pattern)
    return pattern == option if rx is None else _search(rx, option, keys)


_SPECIAL = re.compile(r"([()\[\]{}.?*+|^$\\])")


def _as_written(pattern: str, texts: list[str]) -> str | None:
    """The first text holding the pattern's own characters, when the pattern (a regular
    expression) does not match it: its ( ) . ? + * [ ] were meant literally ("scores 2 (now 2)")."""
    if not _SPECIAL.search(pattern):
        return None
    for t in texts:
        if pattern in t:
            try:
                if not _compiled(pattern).search(t, timeout=PATTERN_SECONDS):
                    return t
            except TimeoutError:   # (a repeat inside a repeat: its own step says so)
                return None
    return None


def _literally(pattern: str, text: str) -> str:
    escaped = _SPECIAL.sub(r"\\\1", pattern)
    return (f" ({pattern!r} is a regular expression, which does not match its own text in {text!r}: "
            f"write \\ before each ( ) [ ] {{ }} . ? * + | ^ $ meant as itself: '{escaped}' in single "
            f"quotes or none)")


def _stat(match: Match, card_id: int, name: str):
    """A card's stat as it is now (after every modifier), or the error reading it gave."""
    try:
        return match.eval(f"stat({card_id}, {json.dumps(name)})", "scenario")[0]
    except EngineError as e:
        return f"(error: {str(e).splitlines()[0]})"


def _check_card(match: Match, got: dict, card_id: int, want: dict, where: str, k: tuple) -> list[tuple[tuple, str]]:
    """What a card spec of an expectation ({card, owner, controller, tokens, stats}) finds wrong."""
    out = []
    for f in ("card", "owner", "controller"):
        have = got.get("def" if f == "card" else f)
        if f != "card" and have is None:
            have = 0   # (a card nobody owns or controls)
        if f in want and want[f] != have:
            def said(v):
                return "0 (nobody)" if v == 0 and f != "card" else v
            out.append((k + (f,), f"{where}: expected {f} {said(want[f])}, got {said(have)}"))
    toks = got["tokens"]
    for t, n in (want.get("tokens") or {}).items():
        if toks.get(t, 0) != n:
            out.append((k + ("tokens", t), f"{where}: expected {n} {t}, got {toks.get(t, 0)}"))
    for name, n in (want.get("stats") or {}).items():
        now = _stat(match, card_id, name)
        if now != n:
            out.append((k + ("stats", name), f"{where}: expected {name} {n} (after modifiers), got {now}"))
    return out


_WORD = regex.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = regex.compile(r"\"((?:[^\"\\\n]|\\.){2,})\"|'((?:[^'\\\n]|\\.){2,})'")


def game_words(game) -> tuple[str, frozenset[str]]:
    """A game's own text (game.yaml, its scripts, its cards' data and Lua, its evaluation)
    and the quoted texts in it: a token the game can put on a card is named in it, or made
    from one of those pieces (`def .. "_bonus"`)."""
    if game.words is None:
        texts = [s.source for s in game.scripts]
        texts += [s.source for c in game.cards.values() for s in c.lua]
        texts += [json.dumps(c.data) for c in game.cards.values()]
        if game.evaluator is not None:
            texts.append(game.evaluator.source)
        try:
            texts.append((game.root / "game.yaml").read_text(encoding="utf-8", errors="replace"))
        except OSError:
            texts.append(json.dumps(game.data, default=str))
        text = "\n".join(texts)
        pieces = frozenset(a or b for a, b in _QUOTED.findall(text))
        game.words = (text, pieces)
    return game.words


def _named_in(name: str, text: str, pieces: frozenset[str]) -> bool:
    """Whether a token name is in the game's text, or could be made from a quoted piece of it."""
    return name in text or any(len(p) >= 3 and p in name for p in pieces)


def scenario_words(scenario: dict) -> frozenset[str]:
    """The words of a scenario but for its expectations: a token its setup, rolls or answers
    name is one the scenario may expect."""
    def without_expect(v):
        if isinstance(v, dict):
            return {k: without_expect(x) for k, x in v.items() if k != "expect"}
        if isinstance(v, list):
            return [without_expect(x) for x in v]
        return v
    return frozenset(_WORD.findall(json.dumps(without_expect(scenario), default=str)))


def unknown_names(game, spaces: list[str], expect: dict, keys: tuple,
                  own_words: frozenset[str] = frozenset(), players: int | None = None) -> list[tuple[tuple, str]]:
    """What an expectation names that the game has not, as (key path, message): a space not on
    the board, a card id no card has, a token nothing in the game or the scenario names, a
    stat, phase or zone the game has not, a player the match has not (players: how many it
    has). Such an expectation could only pass, or fail for the wrong reason (`board: {z99:
    null}` holds on any board, and so does `tokens: {damgae: 0}`). own_words: the
    scenario's (scenario_words)."""
    out = []
    on_board = set(spaces)
    stats = game.data.get("stats") or {}
    zones = game.data.get("zones") or {}

    def player(n, k, what="", nobody=""):
        if players is not None and isinstance(n, int) and not isinstance(n, bool) and not 1 <= n <= players:
            out.append((k, f"{what}there is no player {n} (players are 1 to {players}{nobody})"))

    def card(cid, k):
        if isinstance(cid, str) and cid not in game.cards:
            out.append((k, f"no card called '{cid}'{did_you_mean(cid, game.cards)}"))

    def spec(want, k):
        card(want.get("card"), k + ("card",))
        for f in ("owner", "controller"):
            if want.get(f) != 0:   # (0: nobody's)
                player(want.get(f), k + (f,), nobody="; 0 is nobody")
        for name in want.get("stats") or {}:
            if name not in stats:
                out.append((k + ("stats", name), f"no stat called '{name}'{did_you_mean(name, stats)}"))
        tokens = want.get("tokens")
        if not isinstance(tokens, dict):
            return
        for t in tokens:
            if isinstance(t, str) and t not in own_words:
                text, pieces = game_words(game)
                if not _named_in(t, text, pieces):
                    words = sorted(set(_WORD.findall(text)))   # (sorted: ties go the same way every run)
                    out.append((k + ("tokens", t), f"nothing in the game's scripts, cards or game.yaml, nor in "
                                                   f"this scenario, names a token '{t}', so the game never "
                                                   f"puts one on a card{did_you_mean(t, words)}"))

    phases = [p.get("id") for p in (game.data.get("flow") or {}).get("phases") or [] if isinstance(p, dict)]
    phase = expect.get("phase")
    if isinstance(phase, str) and phase not in phases:
        out.append((keys + ("phase",), f"no phase called '{phase}'{did_you_mean(phase, phases)}"))
    for f in ("active", "to_act", "winner"):
        player(expect.get(f), keys + (f,))
    for i, p in enumerate(expect.get("winners") or []):
        player(p, keys + ("winners", i))
    declared = game.data.get("counters") or {}
    for name, want in (expect.get("counters") or {}).items():
        if name not in declared:
            out.append((keys + ("counters", name), f"no counter called '{name}'{did_you_mean(name, declared)}"))
        for p in want if isinstance(want, dict) else ():
            player(int(p) if isinstance(p, str) and p.isdigit() else p, keys + ("counters", name, p),
                   f"{name} of player {p}: ")
    for space, want in (expect.get("board") or {}).items():
        k = keys + ("board", space)
        if str(space) not in on_board:
            out.append((k, f"{space} is no space of the board" + did_you_mean(str(space), spaces)))
        elif isinstance(want, str):
            card(want, k)
        elif isinstance(want, dict):
            spec(want, k)
    for f in ("sees", "not_sees"):
        for who, ids in (expect.get(f) or {}).items():
            n = int(who) if isinstance(who, str) and who.lstrip("-").isdigit() else who
            if not isinstance(n, int) or isinstance(n, bool):
                out.append((keys + (f, who), f"{f}: {who!r} is no player (give a player's number: {{2: [card]}})"))
                continue
            if players is None and n < 1:
                out.append((keys + (f, who), f"{f}: there is no player {n}"))
            player(n, keys + (f, who))
            for i, c in enumerate(ids or []):
                card(c, keys + (f, who, i))
    for zkey, want in (expect.get("zones") or {}).items():
        k = keys + ("zones", zkey)
        zone, _, who = str(zkey).partition(":")
        if zone not in zones:
            out.append((k, f"no zone called '{zone}'{did_you_mean(zone, zones)}"))
        elif who.isdigit():
            player(int(who), k)
        if isinstance(want, list):
            for i, c in enumerate(want):
                card(c, k + (i,))
            continue
        if want.get("top") is not None:
            card(want["top"], k + ("top",))
        for f in ("contains", "not_contains", "cards"):
            for i, c in enumerate(want.get(f) or []):
                if isinstance(c, dict):
                    spec(c, k + (f, i))
                else:
                    card(c, k + (f, i))
    return out


def _check(match: Match, expect: dict, keys: tuple, said: list[str],
           lua_at: tuple[str, str] = ("", "expect.lua")) -> list[tuple[tuple, str]]:
    """Every expectation that does not hold, as (key path, 'expected X, got Y'). lua_at: the
    `lua` expectation's text, moved down to its line of the file, and the file's name."""
    st = match.snapshot()
    cards = st["cards"]
    out = []

    def card_on(space):
        cid = st["spaces"].get(space)
        return cards[cid - 1] if cid else None

    for space, want in (expect.get("board") or {}).items():
        k = keys + ("board", space)
        got = card_on(space)
        if want is None:
            if got:
                out.append((k, f"{space}: expected empty, got {got['def']}"))
            continue
        want = {"card": want} if isinstance(want, str) else want
        if not got:
            out.append((k, f"{space}: expected {want.get('card', 'a card')}, got an empty space"))
            continue
        out += _check_card(match, got, st["spaces"][space], want, space, k)
    for zkey, want in (expect.get("zones") or {}).items():
        k = keys + ("zones", zkey)
        ids = st["zones"].get(zkey)
        if ids is None:
            out.append((k, f"no zone {zkey!r}; zones: {', '.join(sorted(st['zones']))}"))
            continue
        got = [cards[i - 1]["def"] for i in reversed(ids or [])]   # top first
        if isinstance(want, list):
            if got != want:
                out.append((k, f"{zkey}: expected {want} (top first), got {got}"))
            continue
        if "count" in want and len(got) != want["count"]:
            out.append((k, f"{zkey}: expected {want['count']} cards, got {len(got)}"))
        if "top" in want and (got[0] if got else None) != want["top"]:
            out.append((k, f"{zkey}: expected {want['top']} on top, got {got[0] if got else None}"))
        for c in want.get("contains") or []:
            if c not in got:
                out.append((k, f"{zkey}: expected it to hold {c}, got {got}"))
        for c in want.get("not_contains") or []:
            if c in got:
                out.append((k, f"{zkey}: expected no {c}, got {got}"))
        if "cards" in want:
            specs = want["cards"]
            if len(specs) != len(got):
                out.append((k + ("cards",), f"{zkey}: expected {len(specs)} cards, got {len(got)}: {got}"))
            else:
                for i, (spec, cid) in enumerate(zip(specs, reversed(ids))):
                    spec = {"card": spec} if isinstance(spec, str) else spec
                    out += _check_card(match, cards[cid - 1], cid, spec, f"{zkey} card {i + 1} (from the top)",
                                       k + ("cards", i))
    for name, want in (expect.get("counters") or {}).items():
        k = keys + ("counters", name)
        if isinstance(want, dict):
            for p, v in want.items():
                if str(p) not in {str(i) for i in range(1, len(st["players"]) + 1)}:
                    out.append((k + (p,), f"{name} of player {p}: there is no player {p} "
                                          f"(players are 1 to {len(st['players'])})"))
                    continue
                got = (st["counters"].get(str(p)) or {}).get(name)
                if got != v:
                    out.append((k + (p,), f"{name} of player {p}: expected {v}, got {got}"))
        else:
            got = (st["counters"].get("shared") or {}).get(name)
            if got is None and any(name in (v or {}) for p, v in st["counters"].items() if p != "shared"):
                out.append((k, f"{name} is a counter of each player: write {name}: {{1: {want}}}"))
            elif got != want:
                out.append((k, f"{name}: expected {want}, got {got}"))
    simple = {"phase": st.get("phase"), "active": st.get("active"), "turn": st.get("turn"),
              "round": st.get("round"), "winner": st.get("winner"), "over": bool(st.get("over")),
              "to_act": match.pending.player if match.pending else None}
    for f, got in simple.items():
        if f in expect and expect[f] != got:
            out.append((keys + (f,), f"{f}: expected {expect[f]!r}, got {got!r}"))
    if "winners" in expect:
        got = match.winners
        want = expect["winners"]
        if (sorted(want) if isinstance(want, list) else want) != got:
            out.append((keys + ("winners",), f"winners: expected {want!r}, got {got!r}"))
    options = match.options()
    for i, pat in enumerate(expect.get("offered") or []):
        if not any(_matches(pat, o, keys + ("offered", i)) for o in options):
            out.append((keys + ("offered", i), f"expected {pat!r} to be offered; offered: {options}"))
    for i, pat in enumerate(expect.get("not_offered") or []):
        hits = [o for o in options if _matches(pat, o, keys + ("not_offered", i))]
        if hits:
            out.append((keys + ("not_offered", i), f"expected {pat!r} not to be offered, but {hits} is"))
        elif _slashed(pat) is not None and _as_written(_slashed(pat), options):   # (a check that cannot fail)
            out.append((keys + ("not_offered", i), "this check passes whatever is offered"
                        + _literally(_slashed(pat), _as_written(_slashed(pat), options))))
    if "offered_count" in expect and len(options) != expect["offered_count"]:
        out.append((keys + ("offered_count",), f"expected {expect['offered_count']} options, got {len(options)}: "
                                               f"{options}"))
    if "offered_exactly" in expect:
        pats = expect["offered_exactly"]
        at = keys + ("offered_exactly",)
        unmatched = [o for o in options if not any(_matches(p, o, at) for p in pats)]
        missing = [p for p in pats if not any(_matches(p, o, at) for o in options)]
        if unmatched or missing or len(pats) != len(options):
            why = "; ".join(x for x in (f"not expected: {unmatched}" if unmatched else "",
                                        f"not offered: {missing}" if missing else "") if x)
            out.append((keys + ("offered_exactly",), f"expected exactly {pats} to be offered, got {options}"
                                                     + (f" ({why})" if why else "")))
    shown = "\n      ".join(said[-8:]) or "(nothing)"
    for i, pat in enumerate(expect.get("said") or []):
        if not any(_search(pat, s, keys + ("said", i)) for s in said):
            text = _as_written(pat, said)
            out.append((keys + ("said", i), f"expected a message matching {pat!r}" + (_literally(pat, text) if text
                        else f"; said:\n      {shown}")))
    for i, pat in enumerate(expect.get("not_said") or []):
        hits = [s for s in said if _search(pat, s, keys + ("not_said", i))]
        if hits:
            out.append((keys + ("not_said", i), f"expected no message matching {pat!r}; said: {hits[0]!r}"))
        elif _as_written(pat, said):   # (a check that cannot fail)
            out.append((keys + ("not_said", i), "this check passes whatever is said"
                        + _literally(pat, _as_written(pat, said))))
    for f, want_seen in (("sees", True), ("not_sees", False)):
        for who, ids in (expect.get(f) or {}).items():
            seat = int(who)
            faces = {c.get("def") for c in match.view(seat)["cards"] if c.get("def")}
            for i, cid in enumerate(ids or []):
                if (cid in faces) != want_seen:
                    out.append((keys + (f, who, i), f"expected player {seat} {'to' if want_seen else 'not to'} "
                                                     f"see a {cid}'s face, but {'none is' if want_seen else 'one is'} "
                                                     f"in their view"))
    if "lua" in expect:
        code, chunkname = lua_at
        before = match.state_hash()
        try:
            res = match.eval(code, chunkname)
        except EngineError as e:
            out.append((keys + ("lua",), f"the lua expectation failed to run: {str(e).splitlines()[0]}"))
        else:
            got = res[0] if res else None
            if match.state_hash() != before:
                out.append((keys + ("lua",), "the lua expectation changed the match: an expectation may only "
                                             "read (set up a position in `setup: lua:`)"))
            elif got is not True:
                out.append((keys + ("lua",), f"expected `{expect['lua'].strip()}` to be true, got {got!r}"))
    return out


def setup_lua(doc: yamlio.Document, index: int) -> LuaSource | None:
    """A scenario's `setup: lua:`, marked with the line of the file it starts on."""
    lua = (doc.data["scenarios"][index].get("setup") or {}).get("lua")
    if lua is None:
        return None
    return LuaSource(doc.path, at_line(lua, doc.block_start(("scenarios", index, "setup", "lua"))))


class SetupProblem(EngineError):
    """A scenario whose setup cannot be built, with the keys (within the scenario) to blame."""

    def __init__(self, keys: tuple, message: str, cause: EngineError | None = None):
        super().__init__(message)
        self.keys, self.cause = keys, cause    # cause: the error building the match gave


def build_match(game, doc: yamlio.Document, index: int) -> Match:
    """The match a scenario starts from, its setup done (raises SetupProblem)."""
    sc = doc.data["scenarios"][index]
    setup = dict(sc.get("setup") or {})
    setup.pop("lua", None)
    if sc.get("seats") and "players" in sc and len(sc["seats"]) != sc["players"]:
        raise SetupProblem(("players",), f"players: {sc['players']}, but {len(sc['seats'])} seats are named; "
                                         f"give one or the other")
    seats = [Seat("bot", s) for s in sc.get("seats") or []] or \
        [Seat("bot") for _ in range(sc.get("players", game.data["players"]["min"]))]
    if "rolls" in setup:
        try:
            setup["rolls"] = roll_numbers(game, setup["rolls"])
        except ValueError as e:
            raise SetupProblem(("setup", "rolls"), str(e)) from None
    try:
        return Match(game, sc.get("seed", 1), seats, setup=setup, scenario=setup_lua(doc, index),
                     options=sc.get("options"))
    except (DefinitionError, EngineError) as e:
        keys = ("options",) if "option" in str(e).split(":")[0] and "options" in sc else _setup_keys(setup, str(e))
        raise SetupProblem(keys, f"setup failed: {e}", e) from None


_SETUP_SAID = re.compile(r"^setup (board|zones?|counters|start)(?: (\S+?))?(?::| is )")


def _setup_keys(setup: dict, message: str) -> tuple:
    """The keys of the setup entry an error of the engine's setup names ("setup board c4: ...",
    "setup start: no phase called ..."), as far as the scenario has them; else ("setup",)."""
    m = _SETUP_SAID.match(message)
    if not m:
        return ("setup",)
    key = "zones" if m.group(1) == "zone" else m.group(1)
    keys = ("setup", key)
    entry = setup.get(key)
    sub = m.group(2)
    if key == "start" and isinstance(entry, dict):
        sub = "phase" if "no phase" in message else "player" if "no player" in message else None
    if sub is not None and isinstance(entry, dict) and sub in entry:
        keys += (sub,)
    return keys


_TAKEN = re.compile(r"^(.*) \(the only option for player (\d+), taken without asking\)$")


def _taken_without_asking(said: list[str]) -> str:
    """What a failure should add when questions with a single option were answered without
    asking since the last answer before the failing step (the engine takes them): the step's
    expectations or answer were likely written for such a question."""
    taken = [m for m in (_TAKEN.match(x) for x in said) if m]
    if not taken:
        return ""
    shown = "; ".join(f"{m.group(1)!r} for player {m.group(2)}" for m in taken[:3])
    more = f" and {len(taken) - 3} more" if len(taken) > 3 else ""
    return (f" (a question with one option is answered without asking, and since the last answer "
            f"{'these were' if len(taken) > 1 else 'this was'}: {shown}{more})")


def run_scenario(game, doc: yamlio.Document, index: int) -> Result:
    sc = doc.data["scenarios"][index]
    base = ("scenarios", index)
    res = Result(doc.path, sc["name"], doc.where(base)[0])

    def fail(keys: tuple, step: int, message: str) -> Result:
        line, _ = doc.where(keys)
        res.failures.append(Failure(f"{doc.path}:{line}", step, message))
        return res

    try:
        match = build_match(game, doc, index)
    except SetupProblem as e:
        return fail(base + e.keys, 0, str(e))
    except (DefinitionError, EngineError) as e:
        key = "options" if "option" in str(e).split(":")[0] and "options" in sc else "setup"
        return fail(base + (key,), 0, f"setup failed: {e}")
    said = list(match.messages())
    heard = [(0, x) for x in said]   # (step, message): for what was answered without asking
    answered = 0                       # the last step that gave an answer (0: the setup)
    # the last rolls given (key path, how many, step), to tell a roll nothing drew: first
    # those the setup left waiting (its rolls:, or scenario.force in its lua:)
    waiting = match.forced_left()
    setup_keys = ("setup", "rolls") if "rolls" in (sc.get("setup") or {}) else ("setup",)
    forced = (base + setup_keys, waiting, 0) if waiting else None
    for n, step in enumerate(sc["steps"], 1):
        keys = base + ("steps", n - 1)
        window = answered   # (a failure here names what was taken without asking since the answer before)
        try:
            if "rolls" in step:
                left = match.forced_left()
                if left:    # they would be drawn before these
                    raise _Fail(keys + ("rolls",), f"{left} forced result{'s' if left != 1 else ''} of "
                                                   f"{'the setup' if forced[2] == 0 else f'step {forced[2]}'} "
                                                   f"not drawn yet: {'they' if left != 1 else 'it'} would come "
                                                   f"before these (give fewer there)")
                try:
                    match.force_random(roll_numbers(game, step["rolls"]))
                except ValueError as e:
                    raise _Fail(keys + ("rolls",), str(e))
                forced = (keys + ("rolls",), len(step["rolls"]), n)
            if "answer" in step:
                asked = match.pending.player if match.pending is not None else None
                if "player" in step and asked is not None and asked != step["player"]:
                    whose = (f"there is no player {step['player']} (players are 1 to {len(match.seats)})"
                             if not 1 <= step["player"] <= len(match.seats) else
                             f"{step['answer']!r} is player {step['player']}'s answer, but player {asked} is asked "
                             f"({match.pending.prompt!r}; offered: {match.options()})")
                    raise _Fail(keys + ("player",), whose + _taken_without_asking([x for k, x in heard if k >= window]))
                try:
                    idx = _pick(match, step["answer"], keys + ("answer",))
                except _Fail as f:
                    raise _Fail(f.keys, f.message + _taken_without_asking([x for k, x in heard if k >= window])) from None
                try:
                    match.answer(idx)
                except (ScriptError, IllegalAnswer) as e:
                    if "error" in step and is_time_limit(e):
                        raise _Fail(keys + ("error",), "the time limit stopped the script, and it depends on "
                                                       f"the machine: a scenario cannot expect it ({str(e).splitlines()[0]})")
                    if "error" not in step:
                        raise _Fail(keys + ("answer",), f"answering {step['answer']!r} failed: {e}")
                    if step["error"] not in str(e):
                        raise _Fail(keys + ("error",), f"expected an error with {step['error']!r}, got: {e}")
                else:
                    if "error" in step:
                        raise _Fail(keys + ("error",), f"expected an error with {step['error']!r}, but the answer worked")
                new = match.messages()
                said += new
                heard += [(n, x) for x in new]
                answered = n
            if "expect" in step:
                named = unknown_names(game, match.board_spaces(), step["expect"], keys + ("expect",),
                                      scenario_words(doc.data["scenarios"][index]), len(match.seats))
                at = keys + ("expect", "lua")
                lua_at = ("\n" * (doc.block_start(at) - 1) + step["expect"]["lua"], doc.path) \
                    if "lua" in step["expect"] else ("", doc.path)
                for k, msg in named or _check(match, step["expect"], keys + ("expect",), said, lua_at):
                    fail(k, n, msg + ("" if named else _taken_without_asking([x for j, x in heard if j >= window])))
                said = []
                if res.failures:
                    return res
        except _Fail as f:
            return fail(f.keys, n, f.message)
        except EngineError as e:
            return fail(keys, n, f"{type(e).__name__}: {e}")
    if forced and match.forced_left() == forced[1]:   # none drawn: what they were for went otherwise
        which = "the forced result (rolls:) was never" if forced[1] == 1 else \
            f"none of the {forced[1]} forced results (rolls:) was"
        return fail(forced[0], forced[2], f"{which} drawn by the end of the scenario")
    return res


def run_file(path: Path) -> tuple[list[Result], list[Problem]]:
    """Runs every scenario of a file; a malformed file gives problems instead."""
    doc, problems = load_file(path)
    if doc is None:
        return [], problems
    try:
        game = loader.load_game(own_game(path, doc.data["game"]) or doc.data["game"])
    except (DefinitionError, EngineError) as e:
        return [], [doc.problem(("game",), str(e).splitlines()[0])]
    results = [run_scenario(game, doc, i) for i in range(len(doc.data["scenarios"]))]
    # every scenario stopped alike before its first step, and a match of the game with no
    # scenario cannot start either: the game is at fault, which is said once, where it stops
    stops = {r.failures[0].message for r in results if r.failures and r.failures[0].step == 0}
    if len(results) > 1 and len(stops) == 1 and all(r.failures and r.failures[0].step == 0 for r in results):
        from .check import cannot_start, plain_match
        try:
            plain_match(game)
        except EngineError as e:
            return [], [doc.problem(("game",), str(cannot_start(game, str(e))))]
    return results, []


def report(results: list[Result], problems: list[Problem], verbose: bool = False) -> tuple[str, bool]:
    """pytest-style text and whether everything passed."""
    lines = []
    for r in results:
        if verbose or not r.passed:
            lines.append(f"{r.file}::{r.name} {'PASSED' if r.passed else 'FAILED'}")
    for r in results:
        for f in r.failures:
            lines.append(f"\n___ {r.name} ___\n{f.where}: step {f.step}: {f.message}")
    for p in problems:
        lines.append(f"ERROR {p}")
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    summary = f"{passed} passed, {failed} failed"
    if problems:
        summary += f", {len(problems)} error{'s' if len(problems) != 1 else ''}"
    lines.append(summary)
    return "\n".join(lines), failed == 0 and not problems
