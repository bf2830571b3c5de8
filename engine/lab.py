"""The balance lab: what a tournament's results say (win rates with intervals, the first
player's advantage, game length, cards played), and the variations a sweep plays (--vary)."""
from __future__ import annotations

import copy
import dataclasses
import itertools
import statistics
from typing import Any

import jsonschema

from .errors import EngineError
from .loader import GameDef, card_schema, stat_spec
from .names import did_you_mean, kind_of
from .options import _option_value, check_options, plain_value_problem, schema_validator, shown
from .stats import Rate

# -- what the results say ----------------------------------------------------------------


def fair_share(seats: int) -> float:
    """The win rate every side would have in a balanced game of this many seats."""
    return 1 / seats


def winners_of(r: dict) -> list[int] | None:
    """Who won a game: its `winners` (one seat, a team, or none: a game nobody won), or, in
    a result that has none, its one `winner`; None for a draw or a game cut off."""
    if not r["finished"]:
        return None
    if "winners" in r:
        return r["winners"]
    return None if r["winner"] is None else [r["winner"]]


def decided(results: list[dict]) -> list[dict]:
    """The games decided, won by a seat or a team or by nobody: draws and games cut off by
    the decision limit are apart."""
    return [r for r in results if winners_of(r) is not None]


def entrant_rates(results: list[dict], names: list[str]) -> dict[str, Rate]:
    """Each entrant's wins out of the games someone won, wherever it sat."""
    won = decided(results)
    wins = {n: 0 for n in names}
    for r in won:
        for w in winners_of(r):
            wins[names[r["seating"][w - 1]]] += 1
    return {n: Rate(wins[n], len(won)) for n in names}


def seat_rates(results: list[dict], seats: int) -> list[Rate]:
    """Each seat's wins out of the games someone won, whoever sat there. A seat is not the
    turn order: a game may draw its first player (all four shipped games do)."""
    won = decided(results)
    return [Rate(sum(s in winners_of(r) for r in won), len(won)) for s in range(1, seats + 1)]


def first_player_rate(results: list[dict]) -> Rate:
    """How often the player who moved first (each result's `opener`: whose turn the first
    decision was in) won, out of the decided games whose opener is known."""
    won = [r for r in decided(results) if r.get("opener") is not None]
    return Rate(sum(r["opener"] in winners_of(r) for r in won), len(won))


def set_rates(results: list[dict]) -> dict[str, Rate]:
    """Each card set's wins out of the decided games it took part in (once per seat that
    played it, so a mirror match counts twice and a set's rate stays comparable)."""
    wins: dict[str, int] = {}
    games: dict[str, int] = {}
    for r in decided(results):
        for seat, set_id in enumerate(r.get("sets") or [], 1):
            if set_id is None:
                continue
            games[set_id] = games.get(set_id, 0) + 1
            wins[set_id] = wins.get(set_id, 0) + (seat in winners_of(r))
    return {s: Rate(wins[s], games[s]) for s in sorted(games)}


def card_rates(results: list[dict], card_sets: dict[str, str] | None = None) -> list[dict]:
    """Per card: times played, decided games in which a side played it, and that side's win
    rate with its interval; most played first. A side that played a card twice in a game
    counts once for the rate. Its `set`: the card sets of the sides that played it (a deck
    drawn from a pool: "ember", not the pool's "core"), else the set defining it
    (card_sets: card id -> set id) when the sides play no set."""
    played: dict[str, int] = {}
    sides: dict[str, int] = {}
    wins: dict[str, int] = {}
    played_by: dict[str, set] = {}
    for r in results:
        for card, per_seat in (r.get("plays") or {}).items():
            played[card] = played.get(card, 0) + sum(per_seat)
            seat_sets = r.get("sets") or []
            played_by.setdefault(card, set()).update(
                seat_sets[i] for i, n in enumerate(per_seat) if n and i < len(seat_sets) and seat_sets[i])
            won = winners_of(r)
            if won is None:
                continue
            for seat, n in enumerate(per_seat, 1):
                if n:
                    sides[card] = sides.get(card, 0) + 1
                    wins[card] = wins.get(card, 0) + (seat in won)
    out = []
    for card in sorted(played, key=lambda c: (-played[c], c)):
        rate = Rate(wins.get(card, 0), sides.get(card, 0))
        by = ", ".join(sorted(played_by.get(card) or ()))
        out.append({"card": card, "set": by or (card_sets or {}).get(card), "played": played[card], **rate.to_json()})
    return out


def spread(values: list[int], bins: int = 20, span: tuple[int, int] | None = None) -> dict:
    """Least, median, mean and most of some counts, and a histogram of them (edges, counts);
    span: the least and most the bins cover (the same bins for every run of a sweep)."""
    if not values:
        return {"min": None, "median": None, "mean": None, "max": None, "edges": [], "counts": []}
    lo, hi = span or (min(values), max(values))
    width = max(1, -(-(hi - lo + 1) // bins))
    edges = list(range(lo, hi + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[(v - lo) // width] += 1
    return {"min": min(values), "median": statistics.median(values), "mean": round(statistics.fmean(values), 2),
            "max": max(values), "edges": edges, "counts": counts}


TEAM_VERDICT = "one team: no side to favour"


def summarise(results: list[dict], names: list[str], seats: int, card_sets: dict[str, str] | None = None,
              cooperative: bool = False) -> dict:
    """What a tournament's results say, as report.json holds it: win rates per entrant, per
    card set and per seat with 95% Wilson intervals and a verdict against a fair share,
    the first player's (whoever moved first, in whichever seat), draws and games cut off, game length, and per-card figures.
    A cooperative game's (game.yaml `players: cooperative`) has how often the team won
    (`team`), and no side's verdict: its seats win or lose together."""
    won = decided(results)
    # (a seat's fair share is the wins a decided game hands out, spread evenly: one in a game
    # of one winner, two in a game of teams of two, none in a game nobody won)
    per_game = sum(len(winners_of(r)) for r in won) / len(won) if won else 1.0
    fair = fair_share(seats) * per_game
    by_seat = seat_rates(results, seats)
    out = {
        "fair_share": round(fair, 6),
        "winners_per_game": round(per_game, 6),
        "decided": len(won),
        "draws": sum(r["finished"] and winners_of(r) is None for r in results),
        "won_by_nobody": sum(winners_of(r) == [] for r in results),
        "cut_off": sum(not r["finished"] for r in results),
        "entrants": {n: rate.to_json(fair) for n, rate in entrant_rates(results, names).items()},
        "sets": {s: rate.to_json(fair) for s, rate in set_rates(results).items()},
        "seats": [rate.to_json(fair) for rate in by_seat],
        # whether an entrant ever sat in a seat not its own (--swap): then the seats are no entrants
        "seated_apart": any(r.get("seating") not in (None, list(range(len(r["seating"])))) for r in results),
        "first_player": first_player_rate(results).to_json(fair),
        "length": {"decisions": spread([r["decisions"] for r in results]),
                   "turns": spread([r["turns"] for r in results if "turns" in r]),
                   "rounds": spread([r["rounds"] for r in results if "rounds" in r])},
        "cards": card_rates(results, card_sets),
    }
    if cooperative:   # (the seats win or lose together: how often they won, and no side's verdict)
        won = decided(results)
        out["team"] = Rate(sum(bool(winners_of(r)) for r in won), len(won)).to_json()
        for rate in [*out["entrants"].values(), *out["sets"].values(), *out["seats"], out["first_player"]]:
            if "verdict" in rate:
                rate["verdict"] = TEAM_VERDICT
    return out


def widest(results: list[dict], names: list[str], seats: int) -> float:
    """The largest ± (half the 95% interval) among the win rates of entrants, card sets,
    seats and the first player: what --precision waits on. 0.5 when no game is decided yet."""
    rates = list(entrant_rates(results, names).values()) + list(set_rates(results).values()) \
        + seat_rates(results, seats) + [first_player_rate(results)]
    return max((r.half_width for r in rates), default=0.5)


# -- sweeps: --vary KEY=V1,V2,... ----------------------------------------------------------

CARD_PREFIX = "card."


@dataclasses.dataclass(frozen=True)
class Variation:
    """One value of each varied key: the game options to play with (those set by --option
    too), and card stats (card id -> stat -> value). `varied` names the options that vary."""

    options: dict
    cards: dict
    varied: tuple = ()

    def label(self) -> str:
        """KEY=VALUE, ... of the varied keys, as a designer wrote them."""
        return ", ".join(f"{k}={value_text(v)}" for k, v in self.to_json().items())

    def to_json(self) -> dict:
        """The varied keys and their values here (an option set by --option is the same in every run)."""
        out = {k: self.options[k] for k in self.varied}
        out.update({f"card.{c}.{s}": v for c, stats in self.cards.items() for s, v in stats.items()})
        return out


def value_text(value: Any) -> str:
    """A value as it would be written on the command line: true, 3, [sw, ne], {a: 1}."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {value_text(x)}" for k, x in value.items()) + "}"
    return "null" if value is None else str(value)


def _top_level(text: str) -> list[str]:
    """text split at its commas outside brackets, braces and quotes: "[sw, ne],[se, nw]" is two
    values, as YAML flow lists (a list option's values). A quote opens only at a value's
    start (don't, it's); '' inside single quotes and \\" inside double quotes are quote
    marks, as in YAML."""
    parts, depth, quote, start, before, i = [], 0, "", 0, ",", 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == quote == "'" and text[i + 1:i + 2] == "'":
                i += 1   # ('' within single quotes)
            elif ch == "\\" and quote == '"':
                i += 1   # (an escape within double quotes: \" or \\)
            elif ch == quote:
                quote = ""
        elif ch in "'\"" and before in ",[{:":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        if not ch.isspace():
            before = ch
        i += 1
    return parts + [text[start:]]


def parse_vary(pairs: list[str] | None) -> list[tuple[str, list]]:
    """--vary KEY=V1,V2,... (each repeatable) -> [(key, [values])]; values read as YAML like
    --option (a list in brackets is one value: --vary "domains_2=[sw, ne],[se, nw]")."""
    out: list[tuple[str, list]] = []
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key or not text.strip():
            raise EngineError(f"--vary takes KEY=V1,V2,... (KEY: a game option, or card.CARD_ID.STAT), "
                              f"not {pair!r}")
        if key in (k for k, _ in out):
            raise EngineError(f"--vary {key} is given twice: list all its values in one --vary")
        values = []
        for part in _top_level(text):
            if not part.strip():
                raise EngineError(f"--vary {key}: an empty value in {text!r}")
            value = _option_value(key, part.strip())
            problem = plain_value_problem(value)
            if problem:
                raise EngineError(f"--vary {key}: {problem}")
            if value in values:
                raise EngineError(f"--vary {key}: the value {shown(value)} is given twice")
            values.append(value)
        out.append((key, values))
    return out


def variations(game: GameDef, base_options: dict, vary: list[tuple[str, list]]) -> list[Variation]:
    """Every combination of the varied values (the first key changing slowest), each checked
    against the game: options by their declared kinds and bounds, card stats by the card's
    own fields. Raises EngineError naming the first key or value that does not fit."""
    for key, values in vary:
        if key.startswith(CARD_PREFIX):
            card_id, stat = card_key(game, key)
            for v in values:
                check_card_value(game, card_id, stat, v)
        else:
            if key in base_options:
                raise EngineError(f"option {key} is both set (--option) and varied (--vary): give one")
            for v in values:
                check_options(game, {key: v})
    out = []
    for combo in itertools.product(*[values for _, values in vary]):
        options, cards = dict(base_options), {}
        for (key, _), value in zip(vary, combo):
            if key.startswith(CARD_PREFIX):
                card_id, stat = card_key(game, key)
                cards.setdefault(card_id, {})[stat] = value
            else:
                options[key] = value
        out.append(Variation(options, cards, tuple(k for k, _ in vary if not k.startswith(CARD_PREFIX))))
    return out


def cards_out_of_play(game: GameDef, seats: list, vary: list[tuple[str, list]]) -> list[str]:
    """The varied cards (card.ID.STAT keys) that no seat's card set holds or lists in its deck,
    for a game whose seats each play a set (seats as assign_sets filled them in): varying
    them changes no game, unless a rule brings such a card in from elsewhere."""
    if not (game.data.get("sets") or {}).get("per_seat"):
        return []
    held: set[str] = set()
    for s in seats:
        sd = game.sets.get(s.set)
        if sd:
            held.update(sd.card_ids)
            held.update(e["card"] for e in sd.data.get("deck") or [] if isinstance(e, dict) and "card" in e)
    out = []
    for key, _ in vary:
        if key.startswith(CARD_PREFIX):
            card_id, _ = card_key(game, key)
            if card_id not in held and card_id not in out:
                out.append(card_id)
    return out


def card_key(game: GameDef, key: str) -> tuple[str, str]:
    """card.ID.STAT -> (ID, STAT), when the game has that card and STAT is a number of it: a
    stat the game declares (printed on the card or not: unprinted, it starts at the game's
    default), or another number the card prints (its copies, say)."""
    parts = key.split(".")
    if len(parts) != 3 or not all(parts):
        raise EngineError(f"--vary {key}: a card stat is card.CARD_ID.STAT{_example(game)}")
    _, card_id, stat = parts
    if card_id not in game.cards:
        raise EngineError(f"--vary {key}: {game.id} has no card '{card_id}'{did_you_mean(card_id, game.cards)}")
    stats, others = card_numbers(game, card_id)
    if stat not in stats and stat not in others:
        listed = f"its stats: {', '.join(stats) or 'none'}"
        if others:
            listed += f"; other numbers it prints: {', '.join(others)}"
        raise EngineError(f"--vary {key}: card '{card_id}' has no stat '{stat}'"
                          f"{did_you_mean(stat, stats + others)}; {listed}")
    return card_id, stat


def card_numbers(game: GameDef, card_id: str) -> tuple[list[str], list[str]]:
    """The numbers --vary can change on a card: the stats the game declares (in their order;
    one the card prints as something other than a number is left out), and the other
    numbers the card prints (copies, a number of the game's card_fields)."""
    data = game.cards[card_id].data
    declared = list(game.data.get("stats") or {})
    stats = [s for s in declared if s not in data or _is_stat_value(data[s])]
    others = [k for k, v in data.items()
              if _is_stat_value(v) and k not in declared and k not in ("id", "name", "text")]
    return stats, others


def card_value(game: GameDef, card_id: str, stat: str) -> Any:
    """A card's number as the match starts: printed, or the game's default for the stat."""
    data = game.cards[card_id].data
    if stat in data:
        return data[stat]
    return stat_spec((game.data.get("stats") or {})[stat])["default"]


def _example(game: GameDef) -> str:
    """", e.g. card.ID.STAT" for the game's first card that has a number, or ""."""
    for card_id, c in game.cards.items():
        for stat, value in c.data.items():
            if _is_stat_value(value) and not isinstance(value, bool) and stat != "copies":
                return f", e.g. card.{card_id}.{stat}"
    return ""


def _is_stat_value(value: Any) -> bool:
    return isinstance(value, (int, float, bool))


def check_card_value(game: GameDef, card_id: str, stat: str, value: Any) -> None:
    """A new value for a card's stat must be of the kind it has, and fit the card schema
    `summon check` holds the card files to (the game's card_fields and the core keys, copies)."""
    old = card_value(game, card_id, stat)
    if type(value) is not type(old) and not (isinstance(old, float) and type(value) is int):
        raise EngineError(f"--vary card.{card_id}.{stat} takes {kind_of(old)} like {shown(old)}, not {shown(value)}")
    whole = card_schema(game.data)
    if stat in whole["$defs"]["card"]["properties"]:
        # the card with the new value, in a card file, checked by the whole schema: the field's
        # references resolve as in the card files (to its own $defs, or the card schema's), and
        # what one key asks of another (card_schema) sees the card's other keys
        doc = {"id": "vary", "name": "vary", "cards": [{**game.cards[card_id].data, stat: value}]}
        try:
            err = jsonschema.exceptions.best_match(schema_validator(whole).iter_errors(doc))
        except Exception as e:   # (summon check names a schema that cannot be used; here, say it)
            raise EngineError(f"--vary card.{card_id}.{stat}: the field's schema cannot be used: {e}"[:300]) from None
        if err is not None:
            raise EngineError(f"--vary card.{card_id}.{stat}={shown(value)}: {err.message}")


def with_card_stats(game: GameDef, cards: dict) -> GameDef:
    """The game with some cards' stats changed (card id -> stat -> value), the rest shared.

    The game passed in is left as it was; no file is touched."""
    if not cards:
        return game
    defs = dict(game.cards)
    for card_id, stats in cards.items():
        old = defs[card_id]
        defs[card_id] = dataclasses.replace(old, data={**copy.deepcopy(old.data), **stats})
    return dataclasses.replace(game, cards=defs)
