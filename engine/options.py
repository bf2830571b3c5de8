"""Game options: what game.yaml declares (a default, and bounds for a number), and the
values a match may set them to (from --option or a saved match)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jsonschema
import referencing
from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor

from .errors import EngineError
from .names import did_you_mean, kind_of
from .yamlio import lone_surrogate

if TYPE_CHECKING:
    from .loader import GameDef

MAX_INT = (1 << 63) - 1
MAX_VALUE_DEPTH = 32         # lists and maps inside each other, in option values


@dataclass(frozen=True)
class OptionSpec:
    """A game option: its default, the least and greatest number it may be set to, and
    the JSON Schema a value of it must fit (a list's entries, text's choices)."""

    default: Any
    min: int | float | None = None
    max: int | float | None = None
    schema: dict | None = None   # a JSON Schema the value must fit (game.yaml `schema:`)

    def admits(self, value: Any) -> bool:
        """Whether a value of the option's kind lies within its bounds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def range_text(self) -> str:
        """The bounds in words: "from 1 to 10", "at least 1" or "at most 10"."""
        if self.min is not None and self.max is not None:
            return f"from {self.min} to {self.max}"
        return f"at least {self.min}" if self.min is not None else f"at most {self.max}"


def plain_value_problem(value: Any, depth: int = 0) -> str | None:
    """What keeps a value from being plain data a match can hold and save (JSON with 64-bit
    whole numbers, finite numbers and valid text), or None when it is plain."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if -(1 << 63) <= value <= MAX_INT else \
            f"{shown(value)} is beyond the whole numbers a match can hold (-2^63 to 2^63 - 1)"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} is not a number a match can hold"
    if isinstance(value, str):
        bad = lone_surrogate(value)
        return f"the text holds {bad}, which is not a character" if bad else None
    if depth >= MAX_VALUE_DEPTH:
        return f"lists and maps are nested more than {MAX_VALUE_DEPTH} levels deep"
    if isinstance(value, list):
        return next(filter(None, (plain_value_problem(v, depth + 1) for v in value)), None)
    if isinstance(value, dict):
        for k, v in value.items():
            problem = ("a key must be text, not " + shown(k)) if not isinstance(k, str) else \
                plain_value_problem(k, depth + 1) or plain_value_problem(v, depth + 1)
            if problem:
                return problem
        return None
    return f"{shown(value)} ({type(value).__name__}) is not a value a match can hold: use a number, text, " \
           f"true/false, a list or a map"


def shown(value: Any) -> str:
    """A value as a message quotes it, cut short when it is long; true and false as YAML spells them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"   # (as YAML spells it: ~ or nothing)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 40:
        return f"a number of {value.bit_length()} bits"   # str() of a huge number is slow, or refused
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _OptionConstructor(SafeConstructor):
    """YAML's safe constructor, but a date or time stays the text it was written as."""


_OptionConstructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)


def parse_options(pairs: list[str] | None) -> dict:
    """Game options from the command line: ["rounds=7", "extra_round=true"] -> {"rounds": 7, ...}.

    A value is read as YAML (numbers, true/false, lists, maps); a date stays text, and a
    value that is not plain data (too large a number, not finite, binary) is refused.
    """
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise EngineError(f"an option is KEY=VALUE, not {pair!r}")
        out[key] = _option_value(key, value)
        problem = plain_value_problem(key) or plain_value_problem(out[key])
        if problem:
            raise EngineError(f"option {key}: {problem}")
    return out


def _option_value(key: str, text: str) -> Any:
    """An option's value as YAML reads it; text that YAML cannot read stays text."""
    if not text.strip():
        return ""
    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _OptionConstructor
    try:
        return yaml.load(text)
    except RecursionError:
        raise EngineError(f"option {key}: its value is nested too deeply") from None
    except Exception:   # not YAML: take the text as it is
        return text


# A schema's $ref resolves within the schema only: jsonschema would otherwise fetch a URL
# (with no time limit) at every load of the game.
_LOCAL_ONLY = referencing.Registry()


def schema_validator(schema: Any) -> jsonschema.Draft202012Validator:
    """A JSON Schema (2020-12) validator that fetches nothing."""
    return jsonschema.Draft202012Validator(schema, registry=_LOCAL_ONLY)


def same_key(value: Any) -> str:
    """A text that two values share when JSON Schema counts them equal (uniqueItems): 2
    and 2.0 alike, 0 and false not."""
    def plain(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return v
    return json.dumps(plain(value), sort_keys=True, default=repr)


def repeated(values: list) -> tuple[Any, bool]:
    """(a value the list holds twice, True), found in one pass; (None, False) when none is."""
    seen = set()
    for v in values:
        key = same_key(v)
        if key in seen:
            return v, True
        seen.add(key)
    return None, False


# the keywords by which a schema says what kinds of value it takes (else the default's kind is asked)
KIND_KEYWORDS = frozenset({"type", "enum", "const", "anyOf", "oneOf"})


def check_options(game: GameDef, options: dict) -> dict:
    """Options a match overrides must be among the game's, with a value of the same kind
    within the option's range; returns them."""
    declared = game.options
    for key, value in options.items():
        if key not in declared:
            raise EngineError(f"{game.id} has no option '{key}'{did_you_mean(str(key), declared)}; "
                              f"options: {', '.join(declared) or 'none'}")
        problem = plain_value_problem(value)
        if problem:
            raise EngineError(f"option {key}: {problem}")
        spec = declared[key]
        want = spec.default
        kinds_said = spec.schema is not None and KIND_KEYWORDS & set(spec.schema)
        if want is not None and not kinds_said and type(value) is not type(want) and not (
                isinstance(want, float) and isinstance(value, int) and not isinstance(value, bool)):
            like = "" if isinstance(want, bool) else f" like {shown(want)}"   # (true or false like true: said once)
            raise EngineError(f"option {key} takes {kind_of(want)}{like}, not {shown(value)}")
        if not spec.admits(value):
            raise EngineError(f"option {key} must be {spec.range_text()}, not {shown(value)}")
        problem = schema_problem(spec.schema, value) if spec.schema else None
        if problem:
            raise EngineError(f"option {key}{problem}")
        problem = _name_problem(game, spec.schema, value) if spec.schema else None
        if problem:
            raise EngineError(f"option {key}{problem}")
    return dict(options)


class _Places:
    """Where ref_problems places a problem, for a value given with no file: its keys."""

    @staticmethod
    def problem(keys: tuple, message: str) -> tuple[tuple, str]:
        return keys, message


def _name_problem(game: GameDef, schema: dict, value: Any) -> str | None:
    """A name in the value that its schema marks `x-ref: KIND` and the game lacks (a card
    id, a zone...), as schema_problem says a misfit; checked in game.yaml for the default,
    here for a value given (--option, a saved match)."""
    from .lint import _marks, ref_problems
    from .loader import known_names

    if not _marks(schema):
        return None
    found = ref_problems(_Places(), value, schema, known_names(game.data, game.cards))
    if not found:
        return None
    keys, message = found[0]
    return "".join(f"[{p + 1}]" if isinstance(p, int) else f".{p}" for p in keys) + f": {message}"


def schema_problem(schema: dict, value: Any) -> str | None:
    """What keeps a value from fitting an option's schema, as the rest of a sentence
    starting "option NAME": its place within the value, then what is wrong; or None."""
    misfit = schema_misfit(schema, value)
    if misfit is None:
        return None
    # (counted from 1, as the rules read the value: options.deck[1] is the first card)
    where = "".join(f"[{p + 1}]" if isinstance(p, int) else f".{p}" for p in misfit[0])
    return f"{where}: {misfit[1]}"


def schema_misfit(schema: dict, value: Any) -> tuple[tuple, str] | None:
    """(the path within the value, what is wrong there) for a value that does not fit a
    JSON Schema, or None when it fits."""
    try:
        err = jsonschema.exceptions.best_match(schema_validator(schema).iter_errors(value))
    except Exception as e:   # (summon check says what is wrong with a schema; here, say it and go on)
        return (), f"its schema cannot be used ({str(e).splitlines()[0][:120]})"
    if err is None:
        return None
    if err.validator == "enum":
        text = f"{shown(err.instance)} is not one of: {', '.join(shown(c) for c in err.validator_value)}"
        if isinstance(err.instance, str):
            text += did_you_mean(err.instance, [str(c) for c in err.validator_value])
    elif err.validator == "required":
        missing = [k for k in err.validator_value if not (isinstance(err.instance, dict) and k in err.instance)]
        text = f"lacks the key {', '.join(repr(k) for k in missing)}"
    elif err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list((err.schema.get("properties") or {}).keys())
        extra = [k for k in err.instance if k not in allowed]
        text = f"has an unknown key {', '.join(repr(k) for k in extra)}" + \
            (f" (keys: {', '.join(allowed)})" if allowed else "")
    elif err.validator == "uniqueItems" and isinstance(err.instance, list) and repeated(err.instance)[1]:
        text = f"names {shown(repeated(err.instance)[0])} more than once"
    elif err.validator in ("minItems", "maxItems") and isinstance(err.instance, list):
        least = "at least" if err.validator == "minItems" else "at most"
        text = f"has {len(err.instance)} entr{'y' if len(err.instance) == 1 else 'ies'}: it takes " \
               f"{least} {err.validator_value}"
    else:
        text = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    return tuple(err.absolute_path), text
