"""YAML with positions: plain Python data plus a map from each key path to its line and column."""
from __future__ import annotations

import dataclasses
import datetime
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.events import AliasEvent

from .errors import Problem
from .files import MB, FileRefused, read_bounded

Path_ = tuple  # a key path: ("cards", 3, "hooks", "after_move")

# Bounds on a YAML file, so that no file can take more than seconds or much memory to load.
# A game's largest shipped file is under 30 KB; parsing takes about 5 s per MB.
MAX_BYTES = 1 * MB
MAX_DEPTH = 32              # collections inside collections
MAX_ALIAS_VALUES = 100_000  # values that aliases (*name, <<: *name) add when expanded


@dataclass
class Document:
    """A parsed YAML file: its data as plain Python values, and where each value stands."""

    path: str
    data: Any
    text: str
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    _lines: list[str] | None = field(default=None, repr=False, compare=False)
    unread: set = field(default_factory=set)   # values reported already as unreadable (a number past 64 bits)

    @property
    def lines(self) -> list[str]:
        """The file's lines, split once."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def key_problem(self, keys: Path_, message: str) -> Problem:
        """A problem placed at a mapping key itself (an unknown or misspelt key)."""
        line, col = self.key_positions.get(tuple(keys)) or self.where(keys)
        return Problem(self.path, line, col, message)

    def where(self, keys: Path_) -> tuple[int, int]:
        """Line and column (1-based) of the value at a key path, or of its nearest parent."""
        keys = tuple(keys)
        while keys:
            if keys in self.positions:
                return self.positions[keys]
            keys = keys[:-1]
        return (1, 1)

    def problem(self, keys: Path_, message: str) -> Problem:
        line, col = self.where(keys)
        return Problem(self.path, line, col, message)

    def block_start(self, keys: Path_) -> int:
        """The first line of a scalar's text: the line after `|` or `>` for a block scalar."""
        line, col = self.where(keys)
        lines = self.lines
        if 0 < line <= len(lines):
            head = lines[line - 1][col - 1:].lstrip()
            if head[:1] in ("|", ">"):
                return line + 1
        return line


    def joins_lines(self, keys: Path_) -> bool:
        """Whether the text at a key path was written over several lines in a style whose line
        breaks YAML folds into spaces (plain, quoted, or a `>` block): code written so loses its
        lines, and a Lua `--` comment then hides everything after it."""
        line, col = self.where(keys)
        value: Any = self.data
        for k in keys:
            try:
                value = value[k]
            except (KeyError, IndexError, TypeError):
                return False
        if not isinstance(value, str) or not 0 < line <= len(self.lines):
            return False
        rest = self.lines[line - 1][col - 1:].strip()
        if rest[:1] == "|":
            return False
        if rest[:1] == ">":
            return True
        if rest[:1] in ("'", '"'):
            closed = _SINGLE_LINE[rest[0]].match(rest)
            return closed is None
        return len(value.strip()) > len(rest)


_SINGLE_LINE = {'"': re.compile(r'"(?:[^"\\]|\\.)*"'), "'": re.compile(r"'(?:[^']|'')*'")}


def _plain(node: Any, keys: Path_, positions: dict, problems: list, path: str, int_keys: bool = False,
           kpos: dict | None = None, unread: set | None = None) -> Any:
    if isinstance(node, CommentedMap):
        out = {}
        for k, v in node.items():
            try:
                line, col = node.lc.value(k)
            except (KeyError, TypeError, AttributeError):
                line, col = node.lc.line, node.lc.col
            if isinstance(k, int) and not isinstance(k, bool) and int_keys:
                k = str(k)
            if isinstance(k, str) and lone_surrogate(k):
                problems.append(Problem(path, line + 1, col + 1, f"the key holds {lone_surrogate(k)}, "
                                                                 f"which is not a character"))
                k = k.encode("utf-8", "replace").decode("utf-8")
            if not isinstance(k, str):
                kl, kc = node.lc.key(k) if hasattr(node.lc, "key") else (line, col)
                problems.append(Problem(path, kl + 1, kc + 1, f"keys must be text, not {k!r}"))
                k = str(k)
            positions[keys + (k,)] = (line + 1, col + 1)
            try:
                kl, kc = node.lc.key(k)
                if kpos is not None:
                    kpos[keys + (k,)] = (kl + 1, kc + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            out[k] = _plain(v, keys + (k,), positions, problems, path, int_keys, kpos, unread)
        return out
    if isinstance(node, CommentedSeq):
        out_list = []
        for i, v in enumerate(node):
            try:
                line, col = node.lc.item(i)
            except (KeyError, TypeError, AttributeError):
                line, col = node.lc.line, node.lc.col
            positions[keys + (i,)] = (line + 1, col + 1)
            out_list.append(_plain(v, keys + (i,), positions, problems, path, int_keys, kpos, unread))
        return out_list
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        if not -(2 ** 63) <= node < 2 ** 63:
            line, col = positions.get(keys, (1, 1))
            problems.append(Problem(path, line, col, f"number {node} is out of range (numbers go from -2^63 to "
                                                     f"2^63 - 1)"))
            if unread is not None:     # (its 0 stands in for it: no other problem is said of it)
                unread.add(keys)
            return 0
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        bad = lone_surrogate(node)
        if bad:
            line, col = positions.get(keys, (1, 1))
            problems.append(Problem(path, line, col, f"the text holds {bad}, which is not a character"))
            return node.encode("utf-8", "replace").decode("utf-8")
        return str(node)
    # tags, dates, binary and other YAML types have no place in a game definition
    line, col = positions.get(keys, (1, 1))
    problems.append(Problem(path, line, col, _unsupported(node)))
    return str(node)


def _unsupported(node: Any) -> str:
    """What is wrong with a YAML value of a kind no game file holds, and what to write."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if isinstance(tag, str):
        shown = tag.replace("tag:yaml.org,2002:", "!!")
        return f"the YAML tag {shown} is not read here: write the value without it"
    if isinstance(node, (datetime.date, datetime.datetime)):
        return f"YAML reads {node.isoformat()} as a date, which no game file holds: put it in quotes to keep it text"
    if isinstance(node, (bytes, bytearray)):
        return "YAML reads this as binary data (!!binary), which no game file holds"
    return f"unsupported YAML value of type {type(node).__name__}"


def lone_surrogate(text: str) -> str:
    """Describes the first lone surrogate escape (\\ud800) in a text, or "" when there is none."""
    if text.isascii():
        return ""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"a lone surrogate escape (\\u{ord(text[e.start]):04x})"
    return ""


def load(path: Path, display: str | None = None, *, int_keys: bool = False) -> tuple[Document | None, list[Problem]]:
    """Parses a YAML file. Returns the document (None if it cannot be parsed) and its problems."""
    shown = display or str(path)
    try:
        raw = read_bounded(Path(path), MAX_BYTES)
    except FileRefused as e:
        return None, [Problem(shown, 1, 1, f"cannot read this file: {e}")]
    key = (hashlib.sha256(raw).digest(), int_keys)
    hit = _cache.get(key)
    if hit is None:
        hit = _parse(raw, shown, int_keys)
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = hit
    doc, problems = hit
    if doc is not None and doc.path != shown:   # the same text under another name: only the name differs
        doc = dataclasses.replace(doc, path=shown)
    return doc, [p if p.path == shown else dataclasses.replace(p, path=shown) for p in problems]


# Parsed files by the digest of their bytes: a reload parses again only the files that
# changed, and a copy of a game (a test's, a modder's fork) parses none of what it kept.
# Documents share their values between callers, who must treat them as read-only.
_cache: dict[tuple, tuple[Document | None, list[Problem]]] = {}


class _Refused(Exception):
    """A YAML document refused while it was composed: too deep, or aliases that expand too far."""

    def __init__(self, mark: Any, message: str):
        super().__init__(message)
        self.line, self.col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        self.message = message


class _BoundedComposer(Composer):
    """ruamel's composer with bounds on nesting and on what aliases expand to.

    Aliases share one node, but everything after parsing (plain data, positions, schema
    checks) expands them, so ten aliases of ten aliases of ... would grow without end.
    Each alias is charged the size of the value it names, aliases inside it included.
    """

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self._level = 0
        self._values = 0               # values composed so far, aliases expanded
        self._added = 0                # of which aliases added
        self._sizes: dict[int, int] = {}   # id(anchored node) -> its size, aliases expanded

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Composes one node, refusing it when it nests too deep or its aliases expand too far."""
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            self._charge_alias(event)
            return super().compose_node(parent, index)
        self._level += 1
        if self._level > MAX_DEPTH:
            raise _Refused(event.start_mark, f"the values here are nested more than {MAX_DEPTH} levels deep")
        before = self._values
        node = super().compose_node(parent, index)
        self._level -= 1
        self._values += 1
        if event.anchor is not None:
            self._sizes[id(node)] = self._values - before
        return node

    def _charge_alias(self, event: Any) -> None:
        """Adds the size of the value an alias names; refuses a loop or too large an expansion."""
        node = self.anchors.get(event.anchor)
        if node is None:
            return   # an undefined alias: ruamel says so
        size = self._sizes.get(id(node))
        if size is None:
            raise _Refused(event.start_mark, f"the alias *{event.anchor} is inside the value it names")
        self._values += size
        self._added += size
        if self._added > MAX_ALIAS_VALUES:
            raise _Refused(event.start_mark, f"aliases (*name or <<: *name) would expand this file by more than "
                                             f"{MAX_ALIAS_VALUES:,} values; write the values out or use fewer aliases")


# Constructs the parser reports only where it gives up on them (often lines later): the
# mistake is where they were opened.
_UNCLOSED = {"while parsing a flow sequence": "[ list", "while parsing a flow mapping": "{ mapping",
             "while scanning a quoted scalar": "quoted text"}


_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'')


def _comment_ate_bracket(rest: str, context: str) -> str:
    """What to add to "this [ list is not closed" when its line, from the bracket on, holds
    a comment (` #`, outside quotes) with the closing bracket after it: the comment took it."""
    if context == "while scanning a quoted scalar":
        return ""
    plain = _QUOTED.sub(lambda m: " " * len(m.group()), rest)
    m = re.search(r"[ \t]#", plain)
    close = "]" if context == "while parsing a flow sequence" else "}"
    if not m or close not in plain[m.start():]:
        return ""
    start = max(plain.rfind(c, 0, m.start()) for c in ",[{") + 1
    ends = [i for i in (plain.find(c, m.start()) for c in ",]}") if i >= 0]
    item = rest[start:min(ends) if ends else len(rest)].strip()
    shape = "bracket" if close == "]" else "brace"
    return (f": the ' #' in {item!r} starts a comment, which takes the rest of the line, its closing {shape} "
            f"too; put that text in quotes ('{item.replace(chr(39), chr(39) * 2)}')")


def _syntax_problem(e: Exception, text: str, shown: str) -> Problem:
    """A YAML syntax error as a Problem on the line of the mistake, where that can be told:
    an unclosed bracket or quote is where it was opened, and "mapping values are not
    allowed here" after a line with no colon is a key whose colon is missing on that line."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    what = getattr(e, "problem", None) or str(e).splitlines()[0]
    context = getattr(e, "context", None)
    opened = getattr(e, "context_mark", None)
    runs_on = _quote_running_to(text, line, col) if context != "while scanning a quoted scalar" else None
    if runs_on is not None:   # (before an unclosed bracket: the quote ran over its closing bracket)
        return Problem(shown, runs_on[0], runs_on[1], f"YAML syntax: this quoted text runs on to line {line}, "
                                                      f"where YAML gives up ({what}): is its closing quote missing?")
    if context in _UNCLOSED and opened is not None and opened.line + 1 < line:
        lines = text.splitlines()
        hashed = _comment_ate_bracket(lines[opened.line][opened.column:] if opened.line < len(lines) else "",
                                      context)
        return Problem(shown, opened.line + 1, opened.column + 1,
                       f"YAML syntax: this {_UNCLOSED[context]} is not closed ({what} on line {line})" + hashed)
    if what == "mapping values are not allowed here":
        lines = text.splitlines()
        prev = line - 1
        while prev >= 1 and (not lines[prev - 1].strip() or lines[prev - 1].lstrip().startswith("#")):
            prev -= 1
        body = lines[prev - 1] if prev >= 1 else ""
        if prev >= 1 and ":" not in body:
            return Problem(shown, prev, len(body) - len(body.lstrip()) + 1,
                           f"YAML syntax: is a ':' missing after the key on this line? (the next one, line "
                           f"{line}, cannot start a mapping inside its value)")
        here = lines[line - 1] if line <= len(lines) else ""
        if prev >= 1 and len(here) - len(here.lstrip()) > len(body) - len(body.lstrip()):
            return Problem(shown, line, len(here) - len(here.lstrip()) + 1,
                           f"YAML syntax: this line is indented under line {prev} ({body.strip()!r}), whose key "
                           f"already has a value: indent it as far as that line, or fix the value")
    msg = f"YAML syntax: {what}" + (f" ({context})" if context and context != what else "")
    return Problem(shown, line, col, msg)


# A line inside a quoted text that reads as YAML (a key and its colon, a list's dash, a
# bracket): the quote has swallowed the file's own lines.
_SWALLOWED = re.compile(r"\n[ \t]*(?:- |[\w.-]+:(?:[ \t]|$)|[{}\[\]])", re.M)


def _quote_running_to(text: str, line: int, col: int) -> tuple[int, int] | None:
    """(line, column) where a quoted text opens that spans lines and ends just before the
    mistake at line:col, or None. An unclosed quote closed by the next quote in the file
    reads as one long text, and the parser fails right after it, lines below the mistake
    (what follows the quote that was meant to open a text)."""
    try:
        for token in YAML(typ="rt").scan(text):
            if (type(token).__name__ == "ScalarToken" and token.style in ("'", '"')
                    and token.start_mark.line + 1 < line == token.end_mark.line + 1
                    and 0 <= col - 1 - token.end_mark.column <= 1
                    and _SWALLOWED.search(text, token.start_mark.index, token.end_mark.index)):
                return token.start_mark.line + 1, token.start_mark.column + 1
    except Exception:   # the scanner's own error comes after what it read
        return None
    return None


def _parse(raw: bytes, shown: str, int_keys: bool) -> tuple[Document | None, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        return None, [Problem(shown, line, 1, "file is not valid UTF-8 text")]
    yaml = YAML(typ="rt")
    yaml.Composer = _BoundedComposer
    try:
        node = yaml.load(text)
    except _Refused as e:
        return None, [Problem(shown, e.line, e.col, e.message)]
    except RecursionError:  # a bound above should come first; never let it through as a traceback
        return None, [Problem(shown, 1, 1, "the values in this file are nested too deeply")]
    except Exception as e:  # ruamel raises many classes; all are bad input, none may escape
        return None, [_syntax_problem(e, text, shown)]
    positions: dict = {}
    problems: list[Problem] = []
    kpos: dict = {}
    unread: set = set()
    data = _plain(node, (), positions, problems, shown, int_keys, kpos, unread)
    return Document(shown, data, text, positions, kpos, unread=unread), problems
