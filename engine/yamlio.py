"""YAML with positions: plain Python data plus a map from each key path to its line and column."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from .errors import Problem

Path_ = tuple  # a key path: ("cards", 3, "hooks", "after_move")


@dataclass
class Document:
    """A parsed YAML file: its data as plain Python values, and where each value stands."""

    path: str
    data: Any
    text: str
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)

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
        lines = self.text.splitlines()
        if 0 < line <= len(lines):
            head = lines[line - 1][col - 1:].lstrip()
            if head[:1] in ("|", ">"):
                return line + 1
        return line


def _plain(node: Any, keys: Path_, positions: dict, problems: list, path: str, int_keys: bool = False,
           kpos: dict | None = None) -> Any:
    if isinstance(node, CommentedMap):
        out = {}
        for k, v in node.items():
            try:
                line, col = node.lc.value(k)
            except (KeyError, TypeError, AttributeError):
                line, col = node.lc.line, node.lc.col
            if isinstance(k, int) and not isinstance(k, bool) and int_keys:
                k = str(k)
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
            out[k] = _plain(v, keys + (k,), positions, problems, path, int_keys, kpos)
        return out
    if isinstance(node, CommentedSeq):
        out_list = []
        for i, v in enumerate(node):
            try:
                line, col = node.lc.item(i)
            except (KeyError, TypeError, AttributeError):
                line, col = node.lc.line, node.lc.col
            positions[keys + (i,)] = (line + 1, col + 1)
            out_list.append(_plain(v, keys + (i,), positions, problems, path, int_keys, kpos))
        return out_list
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        if not -(2 ** 63) <= node < 2 ** 63:
            line, col = positions.get(keys, (1, 1))
            problems.append(Problem(path, line, col, f"number {node} is too large (the limit is 2^63 - 1)"))
            return 0
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    # dates, binary and other YAML types have no place in a game definition
    line, col = positions.get(keys, (1, 1))
    problems.append(Problem(path, line, col, f"unsupported YAML value of type {type(node).__name__}"))
    return str(node)


def load(path: Path, display: str | None = None, *, int_keys: bool = False) -> tuple[Document | None, list[Problem]]:
    """Parses a YAML file. Returns the document (None if it cannot be parsed) and its problems."""
    shown = display or str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        return None, [Problem(shown, 1, 1, f"cannot read file: {e.strerror or e}")]
    key = (shown, raw, int_keys)
    hit = _cache.get(key)
    if hit is None:
        hit = _parse(raw, shown, int_keys)
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = hit
    return hit[0], list(hit[1])


# Parsed files by (name, bytes): a reload parses again only the files that changed.
# Documents are shared between callers, who must treat them as read-only.
_cache: dict[tuple, tuple[Document | None, list[Problem]]] = {}


def _parse(raw: bytes, shown: str, int_keys: bool) -> tuple[Document | None, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        return None, [Problem(shown, line, 1, "file is not valid UTF-8 text")]
    yaml = YAML(typ="rt")
    try:
        node = yaml.load(text)
    except Exception as e:  # ruamel raises many classes; all are bad input, none may escape
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = getattr(e, "problem", None) or str(e).splitlines()[0]
        context = getattr(e, "context", None)
        msg = f"YAML syntax: {what}" + (f" ({context})" if context and context != what else "")
        return None, [Problem(shown, line, col, msg)]
    positions: dict = {}
    problems: list[Problem] = []
    kpos: dict = {}
    data = _plain(node, (), positions, problems, shown, int_keys, kpos)
    return Document(shown, data, text, positions, kpos), problems
