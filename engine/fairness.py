"""`summon check`'s fairness audit: what a seat reads must follow from what its view shows.

A seat's view hides the cards it cannot see, but a person reads more than the view: the
lines the rules say, the other seats' answers and the questions they answer, its own
options, and whose answer the game waits for. Any of these can name a hidden card ("Player
2 draws Scout") or depend on one (a question asked only when a hand holds a card to answer with).

The audit plays random games (engine/check.py AUDIT_GAMES). At each of their first
decisions it deals, for every seat, worlds that seat's view cannot tell from the game
(Match.audit_world: the cards it cannot see dealt again, the generator where the game's
is, the other seats' secret answers as given) and gives them the game's next answers (the
same card, by id, the same way: _same_answer), comparing what the seat reads in each.
Where its view stays the same and what it reads differs, the difference came from
something it cannot see; so did a difference in what was written into its view
(state.vars, the counters, the players' fields) where the cards it sees are the same
(SEEN). A step that shows it different cards in the two (a reveal, a look, a card
drawn) ends the comparison, as what it reads may name them; and a card
named a moment before it comes into sight (the answer "Play Scout", then a question of
where) is no leak: a difference stands unless the cards it names come into the seat's
sight within a few more decisions (_window). What the random games do not reach goes unseen.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field

from . import loader
from .errors import EngineError, Problem, ScriptError
from .lint import use_place
from .luac import first_line
from .match import public_label

DECISIONS = 30    # decisions of a random game at which every seat's worlds are dealt
WORLDS = 1        # worlds dealt for each seat at each of them
FOLLOW = 4        # decisions each world follows the game for
EXPLAIN = 3       # decisions after a difference in which what it names coming into sight explains it


@dataclass
class Finding:
    """A difference in what `seat` reads between the game and a world, at `decision`."""
    seat: int
    decision: int
    message: str
    search: list[str]   # texts to look for in the scripts, to place the problem
    at_once: bool = False   # a difference in its own question: no later sight explains it
    texts: tuple[str, str] = ("", "")   # what differs, as read in the game and in the world
    writes: str | None = None   # a difference in what the rules wrote into the view: a pattern
    #                             of the script lines that write it, to place the problem
    at: tuple[str, int] | None = None   # ... or the script line that did (file, line), when known
    written: bool = False       # a difference in what was written into the view (_written_difference)


@dataclass
class _World:
    match: object
    seat: int
    steps: int = 0                    # answers it followed
    ok: bool = True                   # whether it follows the next one
    found: Finding | None = None      # a difference waiting to be explained (_window)
    found_at: int = 0                 # ... the step it was found at
    # ... the card names read in the game alone and in the world alone, and how many cards
    # of each name the seat saw then in each
    names: tuple = field(default_factory=lambda: (set(), set()))
    seen: tuple = field(default_factory=lambda: (Counter(), Counter()))


@dataclass
class _Step:
    """One answer of the game, as the audit compares it."""
    question: tuple        # (player, secret, prompt, labels, shapes) asked (_question)
    index: int
    trace: list = field(default_factory=list)   # Match.audit_answer's
    shown: set | None = None                    # ... and the seats it showed something
    wrote: list = field(default_factory=list)   # ... and the counters it changed, where
    said: list = field(default_factory=list)
    views: dict = field(default_factory=dict)
    pending: tuple | None = None   # (player, secret, prompt) asked next, or None at the end


def _question(m) -> tuple:
    """(player, secret, prompt, labels, shapes) of the question waiting."""
    d = m.pending
    return (d.player, d.secret, d.prompt, tuple(m.options()), m.audit_shapes())


def _same_answer(game: tuple, index: int, world: tuple) -> int | None:
    """The world's option that answers as the game's option `index` did: the one of the same
    shape (the same card, by id, to the same place), when the game offered one of that shape
    alone; else the same position. None when the world offers no such answer."""
    shape, shapes = game[4][index], world[4]
    if game[4].count(shape) == 1:
        return shapes.index(shape) if shapes.count(shape) == 1 else None
    return index if index < len(shapes) else None


def _step(m, question: tuple, index: int, seats: list[int], want: int | None = None) -> _Step:
    trace, shown, wrote = m.audit_answer(index, seats, want)
    said = m.said()
    views = dict(zip(seats, m.audit_views(seats)))
    d = m.pending
    return _Step(question, index, trace, shown, wrote, said, views,
                 None if d is None else (d.player, d.secret, d.prompt))


def _answer(p: int, s: _Step, first: bool) -> tuple | None:
    """What seat p reads of a step's question and answer: its own question whole, another
    seat's question and answer unless secret; nothing in a world's first step, which holds
    the question as the game built it."""
    if first:
        return None
    who, secret, prompt, labels, _ = s.question
    if who == p:
        return ("asked", prompt, labels)
    return None if secret else ("answer", who, prompt, public_label(labels[s.index], list(labels)))


def _reading(p: int, s: _Step, first: bool) -> list[tuple]:
    """What seat p reads of a step: the question and the answer (_answer), then the lines said."""
    answer = _answer(p, s, first)
    out: list[tuple] = [] if answer is None else [answer]
    for who, text, others in s.said:
        if who is None:
            out.append(("line", text))
        elif who != p and others:
            out.append(("line", others))
    return out


def _met(s: _Step, p: int) -> list[tuple]:
    """What a step passed through, in order: ("taken", player, prompt, p's view then) for a
    question taken without asking, ("point", None, None, view) where a phase's function
    returned, and ("asked", player, prompt, view) for the question it stopped at."""
    out = [("taken" if pl is not None else "point", pl, prompt, views.get(p)) for pl, prompt, views in s.trace]
    if s.pending is not None:
        out.append(("asked", s.pending[0], s.pending[2], s.views[p]))
    return out


def _asked_sometimes(p: int, game: _Step, world: _Step, n: int) -> Finding | None:
    """A question asked in one of the game and the world where the other passed the same
    sight of p's without asking it (its one option taken, or none asked at all): every
    screen shows who is asked, so being asked tells p what it cannot see."""
    met = (_met(game, p), _met(world, p))
    for i, (a, b) in enumerate(zip(*met)):
        if a[:3] == b[:3] and a[0] != "asked":
            continue   # (the world's views are kept only where the game asked: _follow)
        if a[3] is None or a[3] != b[3] or "asked" not in (a[0], b[0]):
            return None   # (the seat sees a difference, or neither asks here)
        asked, other = (a, b) if a[0] == "asked" else (b, a)
        if other[0] == "point":   # (the other's next question, when a phase returned once more first)
            later = next((x for x in met[asked is a][i + 1:] if x[0] != "point"), None)
            other = later if later is not None and later[1:3] == asked[1:3] else other
        if other[0] == "asked" or (other[0] == "taken" and other[1:3] != asked[1:3]):
            return None
        pl, prompt = asked[1], asked[2]
        where = (f"in the game and not in a world player {p} cannot tell from it" if asked is a else
                 f"in a world player {p} cannot tell from the game and not in the game")
        fix = ("its one option taken without asking: ask it every time (confirm = true in the choose table asks a "
               "question of one option)" if other[0] == "taken" else
               f"no question asked at that point: ask it whatever the cards player {p} cannot see are")
        return Finding(p, n, f'player {pl} is asked "{prompt}" {where} ({fix}); every screen shows who is asked, so '
                             f'being asked tells player {p} what it cannot see', [prompt])
    return None


def _difference(p: int, game: _Step, world: _Step, first: bool, n: int) -> Finding | None:
    """The first difference between what p reads of the game's step and of the world's."""
    mine, theirs = _reading(p, game, first), _reading(p, world, first)
    for a, b in zip(mine, theirs):
        if a == b:
            continue
        if a[0] == "asked" and b[0] == "asked":
            if a[1] != b[1]:
                return Finding(p, n, f'player {p} is asked "{a[1]}" in the game and "{b[1]}" in a world it cannot '
                                     f'tell from it: the question names what it cannot see; build it from what the '
                                     f'seat sees, or show it the card first (cards.reveal(c, {p}))', [a[1]], True)
            return Finding(p, n, f'player {p} is offered {_labels(a[2])} in the game and {_labels(b[2])} in a world '
                                 f'it cannot tell from it: its options name or depend on what it cannot see; offer '
                                 f'what it may choose whatever those cards are (the rules may refuse a choice once '
                                 f'made, and say why), or show it the card first (cards.reveal(c, {p}))',
                           [x for x, y in zip(a[2], b[2]) if x != y][:1] + [a[1]], True)
        if a[0] == "answer" and b[0] == "answer":
            if a[2] != b[2]:
                return Finding(p, n, f'player {p} reads player {a[1]}\'s question "{a[2]}" in the game and "{b[2]}" '
                                     f'in a world it cannot tell from it: the question names what player {p} cannot '
                                     f'see; make the choice secret (secret = true in the choose table: the others '
                                     f'read neither question nor answer) or name no hidden card in it', [a[2]],
                               texts=(a[2], b[2]))
            return Finding(p, n, f'player {p} reads player {a[1]}\'s answer "{a[3]}" in the game and "{b[3]}" in a '
                                 f'world it cannot tell from it (to "{a[2]}"): every seat reads an answer\'s label '
                                 f'unless the choice is secret; make it secret (secret = true in the choose table) '
                                 f'or keep what player {p} cannot see out of its labels', [a[3], a[2]],
                           texts=(a[3], b[3]))
        if a[0] == "line" and b[0] == "line":
            return Finding(p, n, f'player {p} reads "{a[1]}" in the game and "{b[1]}" in a world it cannot tell from '
                                 f'it: the line tells what player {p} cannot see; say it only to the seats that see '
                                 f'it (say(text, p)), or in words that name no hidden card', [a[1]],
                           texts=(a[1], b[1]))
        break
    if mine != theirs:
        one, other = (mine, "the game") if len(mine) > len(theirs) else (theirs, "a world it cannot tell from the game")
        extra = one[min(len(mine), len(theirs))]
        said = extra[-1] if extra[0] in ("line", "answer") else extra[1]
        return Finding(p, n, f'player {p} reads "{said}" in {other} and nothing in its place in the '
                             f'{"world" if other == "the game" else "game"}: whether it is said depends on what '
                             f'player {p} cannot see', [said], texts=(said, "") if one is mine else ("", said))
    if game.pending != world.pending and (game.pending is None) == (world.pending is None):
        (a, sa, pa), (b, sb, pb) = game.pending, world.pending
        if a != b:
            return Finding(p, n, f"player {a} is asked next in the game and player {b} in a world player {p} cannot "
                                 f"tell from it: every screen shows whose answer the game waits for", [pa, pb])
        if sa != sb:
            return Finding(p, n, f'player {a}\'s question "{pa}" is secret in one of the game and a world player {p} '
                                 f'cannot tell from it and not in the other: whether it is secret depends on what '
                                 f'player {p} cannot see', [pa])
    return None


SEEN = ("cards", "zones", "spaces")   # what a view shows of the cards; the rest, rules and engine write
_LUA_WORDS = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
              "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"}


def _cards_seen(view: str) -> dict:
    """What a view (JSON text) shows of the cards (SEEN), without what was written into it."""
    v = json.loads(view)
    return {k: v.get(k) for k in SEEN}


def _written_difference(p: int, game: _Step, world: _Step, n: int) -> Finding | None:
    """A difference in what was written into p's view (state.vars, a counter, a player's
    field, another key of the state, where the game is) where the cards it sees are the
    same in the game and the world: it came from what p cannot see. None when they differ,
    or the game is over in one of them (its end may show anything)."""
    a, b = json.loads(game.views[p]), json.loads(world.views[p])
    if any(a.get(k) != b.get(k) for k in SEEN) or a.get("over") or b.get("over"):
        return None
    if game.pending and world.pending and game.pending[0] != world.pending[0]:   # (before what it comes with)
        (x, _, ask), (y, _, other) = game.pending, world.pending
        return Finding(p, n, f"player {x} is asked next in the game and player {y} in a world player {p} cannot "
                             f"tell from it: every screen shows whose answer the game waits for, so who plays next "
                             f"must not depend on what player {p} cannot see", [ask, other], True)
    fix = (f"keep it where only the seats that see it look (a token on the card, a local of the phase "
           f"until it is revealed)")
    mine, theirs = _entries(a.get("vars")), _entries(b.get("vars"))
    for key in sorted(set(mine) | set(theirs), key=str):
        if mine.get(key) != theirs.get(key):
            x, y = (_shown_value(d.get(key)) for d in (mine, theirs))
            name = key if isinstance(key, str) and re.fullmatch(r"[A-Za-z_]\w*", key) and key not in _LUA_WORDS \
                else None
            shown = str(key) if str(key).isdigit() else json.dumps(key, ensure_ascii=False)   # (JSON names 1 "1")
            where = f"state.vars.{key}" if name else f"state.vars[{shown}]"
            target = r"\bvars\s*(" + (r"\.\s*" + key + r"\b|" if name else "") + r"\[\s*[\"']?" \
                + re.escape(str(key)) + r"[\"']?\s*\])"
            return Finding(p, n, f"player {p} sees {where} = {x} in the game and {y} in a world it cannot tell from "
                                 f"it: every seat's view holds state.vars, so what the rules keep there must not "
                                 f"depend on what player {p} cannot see; {fix}", [],
                           texts=(x, y), writes=target + r"\s*=(?!=)|\btable\.insert\s*\(\s*[\w.]*" + target
                           + (r"|\bvars\s*\[\s*#[^\]]*\]\s*=(?!=)" if str(key).isdigit() else ""))
    mine, theirs = _entries(a.get("counters")), _entries(b.get("counters"))
    for owner in sorted(set(mine) | set(theirs), key=str):
        one, other = _entries(mine.get(owner)), _entries(theirs.get(owner))   # (a seat's counters, or the shared)
        for key in sorted(set(one) | set(other), key=str):
            if one.get(key) != other.get(key):
                whose = "" if owner == "shared" else f" of player {owner}"
                x, y = _shown_value(one.get(key)), _shown_value(other.get(key))
                return Finding(p, n, f'player {p} sees the counter "{key}"{whose} at {x} in the game and {y} in '
                                     f'a world it cannot tell from it: every seat sees the counters, so this one '
                                     f'changed by what player {p} cannot see; change it by what every seat sees, '
                                     f'or show the card first (cards.reveal)', [], texts=(x, y),
                               at=_changed_at(game.wrote, world.wrote, str(owner), str(key)),
                               writes=r"\bcounters\s*\.\s*(add|set|spend)\s*\(.*[\"']" + re.escape(str(key))
                               + r"[\"']")
    players = (_entries(a.get("players")), _entries(b.get("players")))
    for i in sorted(set(players[0]) | set(players[1])):
        one, other = _entries(players[0].get(i)), _entries(players[1].get(i))
        for key in sorted(set(one) | set(other), key=str):
            if one.get(key) != other.get(key):
                x, y = _shown_value(one.get(key)), _shown_value(other.get(key))
                return Finding(p, n, f"player {p} sees state.players[{i}].{key} = {x} in the game and {y} in a world "
                                     f"it cannot tell from it: every seat's view holds the players' fields; {fix}",
                               [], texts=(x, y), writes=r"\.\s*" + re.escape(str(key)) + r"\s*=(?!=)")
    for key in sorted((set(a) | set(b)) - {"vars", "counters", "players"}):
        if a.get(key) != b.get(key):
            x, y = _shown_value(a.get(key)), _shown_value(b.get(key))
            if key in ("active", "phase", "turn", "round"):   # (the engine's: where the game is)
                return Finding(p, n, f"player {p} sees the game's {key} at {x} in the game and at {y} in a world it "
                                     f"cannot tell from it: the game went another way by what player {p} cannot "
                                     f"see; let what the rules do next depend on what every seat sees, or show the "
                                     f"card first (cards.reveal)", [], texts=(x, y))
            return Finding(p, n, f"player {p} sees state.{key} = {x} in the game and {y} in a world it cannot tell "
                                 f"from it: every seat's view holds the state's keys; {fix}", [], texts=(x, y),
                           writes=r"\bstate\s*\.\s*" + re.escape(key) + r"\b.*=(?!=)")
    return None


def _changed_at(game: list, world: list, owner: str, name: str) -> tuple[str, int] | None:
    """The script line of the first change of a counter that the game and the world made
    differently (another line, or another value), from Match.audit_answer's list."""
    ours = [w for w in game if w[:2] == (owner, name)]
    theirs = [w for w in world if w[:2] == (owner, name)]
    for i in range(max(len(ours), len(theirs))):
        x, y = (ours[i] if i < len(ours) else None), (theirs[i] if i < len(theirs) else None)
        if x != y:
            at = (x or y)[3:]
            return at if at[0] is not None else None
    return None


def _entries(table) -> dict:
    """A Lua table as JSON gave it (an object, or an array for one keyed 1..n) as a dict."""
    if isinstance(table, list):
        return {i: v for i, v in enumerate(table, 1)}
    return table if isinstance(table, dict) else {}


def _shown_value(value) -> str:
    """A value of a view as the problem quotes it: JSON (nil for none, as Lua says), cut short."""
    text = "nil" if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _labels(labels: tuple) -> str:
    shown = ", ".join(labels[:6]) + (", ..." if len(labels) > 6 else "")
    return f"[{shown}]"


def audit(game, seats, seed: int = 1, most: int = 5, accepted=None) -> list[Finding]:
    """The differences found in a random game of `seats` (Seat list) of `game` from `seed`,
    at most `most` of them, each about another text; accepted(finding): whether the rules
    mean it (it is then left out)."""
    from .match import Match

    try:
        m = Match(game, seed, seats, quiet=False)
        m.keep_checkpoints()
        setup = m.said()
    except EngineError:
        return []   # (said elsewhere)
    every = list(range(1, len(seats) + 1))
    names = sorted({str(c.data["name"]) for c in game.cards.values() if c.data.get("name")})
    choose = random.Random(seed)
    worlds: list[_World] = []
    out: dict[str, Finding] = {}
    judged: dict[str, bool] = {}

    def keep(f: Finding) -> None:
        key = _about(f)
        if key not in judged:
            judged[key] = accepted is None or not accepted(f)
        if judged[key]:
            out.setdefault(key, f)
    for f in _setup_findings(m, setup, names, every) if m.pending is not None else []:
        keep(f)
    for k in range(DECISIONS + FOLLOW + EXPLAIN + 1):
        if m.pending is None or len(out) >= most:
            break
        if k < DECISIONS:
            for p, j in [(p, j) for p in every for j in range(WORLDS)]:
                try:
                    worlds.append(_World(m.audit_world(p, seed * 100003 + 97 * k + 7 * j + p), p))
                except (EngineError, ScriptError):
                    pass   # (a world this game cannot deal: not this check's to say)
        elif not worlds:
            break
        try:
            question = _question(m)
            game_step = _step(m, question, choose.randrange(m.pending.count), every)
        except (ScriptError, EngineError):
            break   # (the game itself fails: said by the checks before)
        n = m.decisions
        for w in worlds:
            found = _follow(w, game_step, n, names)
            if found is not None:
                w.ok = False
                keep(found)
        worlds = [w for w in worlds if w.ok]
    for w in worlds:   # (the game ended with a difference waiting: nothing came into sight)
        if w.found is not None:
            keep(w.found)
    return list(out.values())[:most]


def _about(f: Finding) -> str:
    """What a finding is about, to report each once: the text it names, or what was written."""
    return f.search[0] if f.search else f.writes or f.message


def _names_in(text: str, names: list[str]) -> list[str]:
    """The card names a text holds as words, the longest first, each found apart from the
    longer ones (`Scout` is not in "Spark Scout attacks")."""
    out = []
    for name in sorted(names, key=lambda x: (-len(x), x)):
        pattern = rf"(?<!\w){re.escape(name)}(?!\w)"
        if re.search(pattern, text):
            out.append(name)
            text = re.sub(pattern, "\x00", text)
    return out


def _setup_findings(m, said: list, names: list[str], every: list[int]) -> list[Finding]:
    """The setup's lines, said before the first question, that name to a seat a card it
    sees none of at that question (no world can be dealt before the setup to compare them
    with: a card named and not shown is the sign of a leak there)."""
    out = []
    for p in every:
        seen = {c.get("name") for c in m.view(p)["cards"]}
        for who, text, others in said:
            read = text if who is None else others if who != p else None
            hidden = [x for x in _names_in(read, names) if x not in seen] if read else []
            if hidden:
                out.append(Finding(p, 0, f'player {p} reads "{read}" in the setup, before the first question, and '
                                         f'sees no {hidden[0]} then: the line names what player {p} cannot see; say '
                                         f'it only to the seats that see it (say(text, p)), show the card first '
                                         f'(cards.reveal), or name no hidden card', [read], texts=(read, "")))
    return out


def _shown(s: _Step, p: int) -> tuple:
    """What a step showed seat p: (card id, name) of each card revealed to it, (0, words) told."""
    return tuple((card, what) for card, what, seats in s.shown if seats is None or p in seats)


def _follow(w: _World, game_step: _Step, n: int, names: list[str]) -> Finding | None:
    """Gives the world the game's answer and compares what its seat reads; marks the world
    done (w.ok False) when it can tell no more. Returns a difference that stands."""
    p, first = w.seat, w.steps == 0
    w.ok = False
    if w.match.pending is None:
        return None   # (over in the world, not in the game: its seat sees that)
    try:
        question, index = game_step.question, game_step.index
        if not first:   # (a world's first question is the game's, as built)
            question = _question(w.match)
            index = _same_answer(game_step.question, index, question)
            if index is None:
                return None   # (the world offers no such answer: it can tell no more)
        mine = _step(w.match, question, index, [p], len(game_step.trace) + 1)
    except (ScriptError, EngineError):
        return None   # (the answer means another thing in this world: it can tell no more)
    w.steps += 1
    if w.found is not None:
        return _window(w, game_step, mine)
    if _shown(game_step, p) != _shown(mine, p):
        return None   # (it was shown different cards: what it reads, and who is asked, may follow)
    if _answer(p, game_step, first) == _answer(p, mine, first):
        # (the same answer as p reads it: what happened next, p sees happen in both)
        found = _asked_sometimes(p, game_step, mine, n)
        if found is not None:
            return found
    if mine.views[p] != game_step.views[p]:
        found = _written_difference(p, game_step, mine, n)
        if found is not None:
            found.written = True
        else:
            return None   # (the seat sees different cards: what it reads may differ)
    else:
        found = _difference(p, game_step, mine, first, n)
    if found is not None and found.at_once:
        return found
    if found is not None:   # (stands unless the cards it names come into sight: _window)
        w.found, w.found_at = found, w.steps
        w.names = tuple({x for x in names if x in mine_text} - {x for x in names if x in other_text}
                        for mine_text, other_text in (found.texts, found.texts[::-1]))
        w.seen = (_in_sight(game_step, p), _in_sight(mine, p))
    w.ok = found is not None or w.steps < FOLLOW
    return None


def _in_sight(s: _Step, p: int) -> Counter:
    """How many cards of each name seat p sees after a step, or was shown by it."""
    cards = json.loads(s.views[p]).get("cards") or []
    return Counter([c["name"] for c in cards if isinstance(c.get("name"), str)] +
                   [what for card, what in _shown(s, p) if card])


def _window(w: _World, game_step: _Step, mine: _Step) -> Finding | None:
    """A world whose seat read a difference, a decision later: the difference is explained
    when the cards it named come into the seat's sight, in the game and in the world (the
    answer "Play Scout", then a question of where); with no card named, when anything the
    seat sees differs. It stands EXPLAIN decisions on."""
    p = w.seat
    named_game, named_world = w.names
    if not named_game and not named_world:
        sight = _cards_seen if w.found.written else (lambda v: v)   # (what was written differs still)
        if _shown(game_step, p) != _shown(mine, p) or sight(mine.views[p]) != sight(game_step.views[p]):
            return None
    else:
        now = (_in_sight(game_step, p), _in_sight(mine, p))
        came = [not named or any(now[i][x] > w.seen[i][x] for x in named)
                for i, named in enumerate((named_game, named_world))]
        if all(came):
            return None
    if w.steps - w.found_at >= EXPLAIN:
        return w.found
    w.ok = True
    return None


def placed(game, finding: Finding, file_lines: dict[str, list[str]]) -> Problem:
    """A finding as a problem of `summon check`, at the script line whose text literals make
    up most of the text it names (or of what the world read there, when that fits a line
    better: the line that said it may be the world's), else at game.yaml."""
    where = (loader.display(game.root / "game.yaml"), 1, 1)
    if finding.at is not None:
        where = _line_at(game, finding.at, file_lines) or where
    elif finding.writes is not None:
        where = _first_write(game, finding.writes, file_lines, [t for t in finding.texts if t]) or where
    best = 0
    for text in finding.search:
        best, where = _best_line(game, text, file_lines, best, where)
        if best:
            break
    world = finding.texts[1]
    if finding.search and world and world not in finding.search:
        best, where = _best_line(game, world, file_lines, best, where)
    if not finding.decision:
        return Problem(*where, finding.message + " (in the setup of a random game summon check played)")
    return Problem(*where, finding.message + f" (at decision {finding.decision} of a random game summon check "
                                             f"played, and a world dealing again what player {finding.seat} cannot "
                                             f"see, given the same answers)")


def _literal_score(line: str, text: str):
    """How much of a text a script line's text literals make up, and the first literal that counts."""
    score, first_at = 0, None
    for lit in _LITERAL.finditer(line):
        body = lit.group(1) if lit.group(1) is not None else lit.group(2)
        got = sum(len(piece) for piece in _FORMAT.split(body) if len(piece.strip()) >= 3 and piece in text)
        if got and first_at is None:
            first_at = lit
        score += got
    return score, first_at


def _best_line(game, text: str, file_lines: dict[str, list[str]], best: int, where: tuple) -> tuple[int, tuple]:
    """(score, place) of the script line whose literals make up more of the text than `best`."""
    for src in _scripts(game):
        start, code = first_line(src.source)
        for i, line in enumerate(code.splitlines(), 1):
            score, first_at = _literal_score(line, text)
            if score > best:
                best = score
                where = (src.chunkname, *use_place(src, start, code, file_lines.get(src.chunkname), i,
                                                   first_at.start() + 1, first_at.group(0)))
    return best, where


def _line_at(game, at: tuple[str, int], file_lines: dict[str, list[str]]) -> tuple | None:
    """(file, line, column) of a script's line, as Lua numbered it in its chunk."""
    for src in _scripts(game):
        if src.chunkname == at[0]:
            start, code = first_line(src.source)
            lines = code.splitlines()
            if 0 < at[1] <= len(lines):
                text = lines[at[1] - 1].strip() or " "
                return (src.chunkname, *use_place(src, start, code, file_lines.get(src.chunkname), at[1],
                                                  lines[at[1] - 1].index(text[0]) + 1, text))
    return None


_CONSTANT = re.compile(r"""\s*(nil|true|false|-?\d+(\.\d+)?|"[^"]*"|'[^']*'|\{\s*\})\s*;?\s*(end\b.*)?$""")


def _first_write(game, pattern: str, file_lines: dict[str, list[str]], texts: list[str]) -> tuple | None:
    """(file, line, column) of the script line that matches a Finding's `writes` (its
    comments left out) whose text literals make up most of the values written (`texts`);
    among equals, the first that writes what can differ (not a constant, not `x = x or
    {}`), else the first."""
    found = []
    for src in _scripts(game):
        start, code = first_line(src.source)
        for i, line in enumerate(code.splitlines(), 1):
            hit = re.search(pattern, re.sub(r"--.*", "", line))
            if hit:
                at = (src.chunkname, *use_place(src, start, code, file_lines.get(src.chunkname), i,
                                                hit.start() + 1, hit.group(0)))
                rest = line[hit.end():]
                plain = _CONSTANT.match(rest) or _SELF_INIT.match(rest)
                found.append((-max([_literal_score(line, t)[0] for t in texts] or [0]), bool(plain), len(found), at))
    return min(found)[3] if found else None


_SELF_INIT = re.compile(r"\s*[\w.\[\]\"']+\s+or\s+(\{\s*\}|0|\"\"|'')\s*;?\s*$")   # (x = x or {}: a first value)


_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
_FORMAT = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")


def _scripts(game) -> list:
    return list(game.scripts) + [src for c in game.cards.values() for src in c.lua]
