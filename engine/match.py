"""A match: (game, seed, seats, answers). Every decision is a choice yielded by the Lua coroutine."""
from __future__ import annotations

import hashlib
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .errors import (DefinitionError, Divergence, EditFailed, EngineError, IllegalAnswer, Problem, SaveFileError,
                     ScriptError)
from .files import MB, FileRefused, read_bounded, write_whole
from .loader import GameDef, LuaSource, display, installed_root, list_games, load_game
from .names import did_you_mean, kind_of
from .options import (
    check_options,
    parse_options,  # noqa: F401  (the command line and tests import it from here)
    plain_value_problem,
    shown,
)
from . import yamlio
from .runtime import Runtime
from .yamlio import lone_surrogate

SAVE_FORMAT = "summon-match/1"
EDIT_CHUNK = "lua"     # the chunk name of a designer's change (the console's command)
MAX_SEED = (1 << 63) - 1
MAX_SAVE_BYTES = 16 * MB


class Edit(NamedTuple):
    """A designer's change to a match, made from the console (Match.edit): Lua run on the
    match itself, with `at` decisions made (while decision at + 1 was asked, before its answer)."""

    at: int
    code: str


@dataclass
class Seat:
    """A seat at the table: who plays it (human, bot, ...) and which card set it uses."""

    controller: str = "bot"
    set: str | None = None

    @classmethod
    def parse(cls, text: str) -> "Seat":
        """'human:SET', 'bot', 'mcts:200:SET' (a bot with a budget, then the set)..."""
        kind, _, rest = text.strip().partition(":")
        if kind != "human" and rest:   # a budget (mcts:200; check_seats refuses one on other bots)
            budget, _, set_id = rest.partition(":")
            # (a sign and an exponent too: mcts:-3 and mcts:1e-3s are bad budgets, not sets)
            if re.fullmatch(r"[-+]?[\d.]+(?:[eE][-+]?\d+)?s?", budget):
                return cls(f"{kind}:{budget}", set_id or None)
        return cls(kind or "bot", rest or None)

    def __str__(self) -> str:
        return f"{self.controller}:{self.set}" if self.set else self.controller


@dataclass
class Decision:
    """The question a match is waiting on."""

    player: int
    prompt: str
    count: int
    secret: bool = False    # only the asked player may see the answer (until the rules reveal it)


def check_seed(seed: Any) -> int:
    """The seed if it is a whole number from 0 to 2^63 - 1; raises EngineError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise EngineError(f"a seed is a whole number from 0 to {MAX_SEED} (2^63 - 1), not {shown(seed)}")
    return seed


def check_seats(seats: list[Seat]) -> list[Seat]:
    """The seats if each is played by a human or a bot; raises EngineError otherwise."""
    from .bots import KINDS, parse_kind

    for s in seats:
        if s.controller == "human":
            continue
        if s.controller.partition(":")[0] not in KINDS:
            many = (f"; the seats are listed one a player, so {s.controller} players of bots are "
                    + ",".join(["bot"] * int(s.controller)) if s.controller.isdecimal() and 0 < int(s.controller) <= 8
                    else "")
            raise EngineError(f"unknown seat kind '{s.controller}': use human, {', '.join(KINDS)} or mcts:N "
                              f"(N iterations a decision), optionally with a card set (human:SET, mcts:200:SET){many}")
        parse_kind(s.controller)
    return seats


def seated(game: GameDef, seats: list[Seat]) -> list[Seat]:
    """The seats of a match of the game, checked (as many as it takes, each a human or a bot)
    and each with its card set filled in; raises EngineError."""
    check_seats(seats)   # (first: `--players 6` is a seat of an unknown kind, not one player)
    pl = game.data["players"]
    if not pl["min"] <= len(seats) <= pl["max"]:
        span = f"{pl['min']}" if pl["min"] == pl["max"] else f"{pl['min']} to {pl['max']}"
        raise EngineError(f"{game.id} is for {span} players, not {len(seats)}")
    return assign_sets(game, list(seats))


def assign_sets(game: GameDef, seats: list[Seat]) -> list[Seat]:
    """Fills in each seat's card set: the one it names, or the game's sets in turn (its own,
    from cards/: a deck file one seat names, human:my_deck.yaml, is that seat's alone).

    A game whose seats take no card set (sets: per_seat false) refuses a seat that names one.
    """
    ids = sorted(game.sets)
    own = [sid for sid in ids if sid not in game.outside_sets] or ids
    if not (game.data.get("sets") or {}).get("per_seat"):
        for s in seats:
            if s.set is not None:
                raise EngineError(f"{game.id} gives no seat a card set of its own, so '{s}' cannot name one; "
                                  f"write just '{s.controller}'{_budget_hint(s)}")
        return seats
    out = []
    for i, s in enumerate(seats):
        if s.set is None:
            if not ids:
                raise EngineError(f"{game.id} has no card sets to play")
            s = Seat(s.controller, own[i % len(own)])
        elif s.set in game.pools:
            raise EngineError(f"{game.id}'s card set '{s.set}' is a pool decks draw on (playable: false), "
                              f"not a set to play; sets: {', '.join(ids) or 'none'}")
        elif s.set not in game.sets:
            raise EngineError(f"{game.id} has no card set '{s.set}'{did_you_mean(s.set, ids)}; "
                              f"sets: {', '.join(ids) or 'none'}{_budget_hint(s)}")
        out.append(s)
    return out


def _budget_hint(seat: Seat) -> str:
    """For a bot that takes a budget named with a card set and no budget (mcts:abc): how a
    budget is written, in case one was meant."""
    if seat.controller != "mcts" or seat.set is None:
        return ""
    return (f" ('{seat}' is mcts playing the set '{seat.set}'; a budget is a number: "
            f"mcts:200 for iterations, mcts:2s for seconds)")


def region_owners(got: Any, regions, players: int) -> tuple[dict[str, int], str | None]:
    """What game.yaml's `display: regions: owners` Lua returned, checked: (region -> player for
    the entries that name a region of the board and a player from 1 to `players`, and the
    first thing wrong with the result, or None). An empty Lua table comes back as []."""
    if not isinstance(got, (dict, list)) or (isinstance(got, list) and got):
        what = {str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(type(got), "nothing")
        return {}, f"must return a table region -> player, not {what}"
    owners, wrong = {}, None
    for r, p in (got.items() if isinstance(got, dict) else ()):
        if str(r) not in regions:
            wrong = wrong or f"names no region of the board: '{r}'"
        elif not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= players:
            wrong = wrong or f"gives region '{r}' to {p!r}, not a player from 1 to {players}"
        else:
            owners[str(r)] = p
    return owners, wrong



def public_label(label: str, options: list[str]) -> str:
    """An answer's label as the other seats read it: without the number the engine gives
    equal labels ("Play Ambush #2"), which would tell how many copies the seat held."""
    numbered = re.fullmatch(r"(.*) #\d+", label)
    return numbered.group(1) if numbered and numbered.group(1) in options else label


def state_hash_of(state_json: str) -> str:
    """sha256 of a state's canonical JSON (Match.state_json)."""
    return hashlib.sha256(state_json.encode()).hexdigest()

class Match:
    """A running match: options() and answer() to play, snapshot() and view() to read, restarted() to go back.

    The Lua runtime behind it is private; nothing outside this class touches it.
    beside: a match of the same game and game options whose Lua runtime this one is built
    in, saving the engine, cards and rules a load (what `summon sim` does game after game);
    ignored when the two cannot share (another game, a scenario).
    """
    _audit = False   # a world of audit_world(), which the fairness audit answers as it was built

    def __init__(self, game: GameDef, seed: int, seats: list[Seat], *, quiet: bool = False,
                 scenario: LuaSource | None = None, setup: dict | None = None,
                 options: dict | None = None, beside: "Match | None" = None):
        self.game = game
        self.seed = check_seed(seed)
        self.seats = seated(game, seats)
        self.quiet = quiet
        self.scenario = scenario
        self.setup = setup
        self.game_options = check_options(game, options or {})
        self.answers: list[str] = []
        self.askers: list[int] = []     # who gave each answer
        self.edits: list[Edit] = []     # the designer's changes, in the order made (Match.edit)
        self.error: str | None = None
        self.sampled_for: int | None = None   # a sample (Match.sample): the seat whose view it was made from
        self._redeals: list[tuple[int, int]] = []   # a sample's (seat, seed) redeals, in order
        self._before = 0                      # decisions made before `answers` begins (a sample's past is hidden)
        self._boot(beside)

    # -- running --------------------------------------------------------------

    def _boot(self, beside: "Match | None" = None) -> None:
        seats = [{"set": s.set, "name": f"Player {i + 1}"} for i, s in enumerate(self.seats)]
        if beside is not None and self._can_share(beside):
            self._rt = beside._runtime_for(self.seed, seats)
            self._take(self._rt.start(self.quiet))
            return
        try:
            self._rt = Runtime(self.game, self.seed, seats, self.scenario, self.setup, self.game_options)
        except MemoryError:   # lupa's LuaMemoryError is one: the definitions alone pass the cap
            limit = (self.game.data.get("limits") or {}).get("memory_mb", 256)
            raise EngineError(f"{self.game.id}: its cards and scripts need more than the {limit} MB a match "
                              f"may use (limits: memory_mb in game.yaml)") from None
        self._take(self._rt.start(self.quiet))

    def _runtime_for(self, seed: int, seats: list[dict]) -> Runtime:
        """A new match's runtime in this match's Lua runtime (see beside)."""
        return self._rt.new_match(seed, seats)

    def _can_share(self, other: "Match") -> bool:
        """Whether this match may be built in other's Lua runtime: the same game object and
        game options, as many seats, and no scenario on either side."""
        return (other.game is self.game and other.game_options == self.game_options
                and len(other.seats) == len(self.seats)
                and all(x is None for x in (self.scenario, self.setup, other.scenario, other.setup)))

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
        """The winning seat, or None (no winner yet, a draw, or a team of several or none)."""
        return self._rt.winner()

    @property
    def winners(self) -> list[int] | None:
        """The winning seats once the match is over: the one winner, or the team the rules
        named (end_game({1, 3}); an empty list: nobody won); None for a draw or while it goes on."""
        return self._rt.winners() if self.pending is None else None

    @property
    def decisions(self) -> int:
        return self._before + len(self.answers)

    def options(self) -> list[str]:
        """Labels of the options offered now, in order."""
        self._not_anothers_question()
        return self._rt.option_keys() if self.pending else []

    def option_warnings(self) -> list[str]:
        """Each offered option's warning (`warn` in its table; "" for none): an answer a
        player should confirm, such as attacking their own card."""
        self._not_anothers_question()
        return self._rt.option_warnings() if self.pending else []

    def index_of(self, label: str) -> int | None:
        """The 0-based index of the offered option with this label, or None when it is not offered."""
        self._not_anothers_question()
        idx = self._rt.key_index(label) if self.pending else None
        return None if idx is None else idx - 1

    def answer(self, index: int) -> None:
        """Answers the pending decision with the option at a 0-based index."""
        if self.pending is None:
            raise IllegalAnswer("the match is over; there is nothing to answer")
        self._not_anothers_question()
        self._answer(index, None)

    def audit_answer(self, index: int, seats: list[int], want: int | None = None
                     ) -> tuple[list[tuple[int | None, str | None, dict]], list[tuple], list[tuple]]:
        """For summon check's fairness audit (engine/fairness.py): answer(), even to a question
        a world of audit_world() holds as it was built, noting what else a screen shows
        (Runtime.audit_answer): its trace (the questions taken without asking and the returns
        of phase functions, with `seats`' views then), what it showed whom (a card revealed,
        players.learned's words), and the counters it changed, where (Runtime.audit_answer).
        want: the views at that place of the trace alone (from 1)."""
        if self.pending is None:
            raise IllegalAnswer("the match is over; there is nothing to answer")
        if not self._audit:
            self._not_anothers_question()
        return self._answer(index, (seats, want))

    def _answer(self, index: int, audit: tuple | None):
        if not (isinstance(index, int) and 0 <= index < self.pending.count):
            raise IllegalAnswer(f"no option {index + 1 if isinstance(index, int) else index!r}: "
                                f"choose 1 to {self.pending.count}")
        asker = self.pending.player
        met = None
        try:
            if audit is None:
                key, res = self._rt.answer(index + 1)
            else:
                key, res, *met = self._rt.audit_answer(index + 1, *audit)
            self._take(res)
        except ScriptError as e:
            self._recover(str(e))
            raise
        self.answers.append(key)
        self.askers.append(asker)
        return met

    def fork(self, *, quiet: bool = True) -> "Match":
        """An independent copy of this match at the same decision, to play on separately.

        The copy lives in the same Lua runtime (no new runtime to build) and shares no
        mutable state with this match: the state is copied from the latest checkpoint (the
        top of this turn) and the answers given since are replayed in Lua. The first fork
        of a match turns checkpoints on for it, so that fork replays from the start; build
        the match with keep_checkpoints() first to make every fork cheap. quiet: the copy
        says nothing (what search wants).
        """
        return self._fork(quiet, None)

    def _fork(self, quiet: bool, redeal: tuple[int, int] | None, honest: bool = False) -> "Match":
        """fork(), then this match's redeals and `redeal` (seat, seed) on the copy, in order
        (the first inside the fork, which shares its work among forks of one position)."""
        if self.pending is None:
            raise IllegalAnswer("the match is over; there is nothing to fork")
        if self._redeals and self.answers:
            raise EngineError("a sample can be forked or sampled only before it is played on")
        deals = self._redeals + ([redeal] if redeal is not None else [])
        self._rt.keep_checkpoints()   # (before the fork: this match is active then)
        rt, res = self._rt.fork(quiet=quiet, redeal=deals[0] if deals else None, honest=honest)
        m = object.__new__(Match)
        m.game, m.seed, m.seats, m.quiet = self.game, self.seed, list(self.seats), quiet
        m.scenario, m.setup, m.game_options = self.scenario, self.setup, dict(self.game_options)
        m.answers, m.askers, m.error = list(self.answers), list(self.askers), None
        m.edits = list(self.edits)
        m.sampled_for, m._before, m._redeals = self.sampled_for, self._before, list(self._redeals)
        m._rt = rt
        m._take(res)
        for seat, seed in deals[1:]:   # a sample's fork: the match's, dealt again the same way
            m._redeal(seat, seed)
        if redeal is None:   # (a sample hides it once it knows its seat)
            m._hide_anothers_question()
        return m

    def sample(self, seat: int, seed: int) -> "Match":
        """One world that `seat`'s view allows, to search in: a fork in which every card
        the seat cannot see (others' hands, deck orders, face-down cards) is dealt again
        at random and the generator is reseeded, both from `seed`. The same view and seed
        give the same world, whatever the hidden cards really are. The sample keeps no
        history (its past answers include other seats' secret ones) and cannot be saved.
        A sample not yet played on may itself be forked or sampled (a world another
        seat's view allows, tests of fairness). A sample for a seat that is not the one
        asked holds the asked seat's question as it was built, from its real cards, which
        the sample has dealt again: view it, evaluate it or sample it again, but its
        question's options, prompt and count are not shown and it cannot be answered, nor
        can that of any sample or fork made from it (bots sample the seat asked, from the
        match)."""
        m = self._sampled(seat, seed, True)
        m._hide_anothers_question()
        return m

    def audit_world(self, seat: int, seed: int) -> "Match":
        """For summon check's fairness audit (engine/fairness.py): a sample for `seat` that
        says what happens, as the match does, and whose generator is where the match's is:
        answered as the match is answered (audit_answer, which answers another seat's
        question as it was built, with the cards dealt again), it differs from the match only
        where the cards dealt again make it differ. The other seats' secret answers are kept
        as given (a sample draws them again): the rules may say them, as a sealed bid's."""
        if self.sampled_for is not None:
            raise EngineError("an audit world is dealt from a match, not from a sample or a fork of one")
        m = self._sampled(seat, seed, False, honest=True)
        m._audit = True   # (it alone may answer and list another seat's question as built)
        m._set_generator(self._rt.rng_words())
        m.said()   # (what the copy said again on its way here)
        return m

    def audit_shapes(self) -> list[str]:
        """For summon check's fairness audit: each offered option's fields but its label, a
        card by its id, to find in a world the answer that plays the same card the same way."""
        if not self._audit:
            self._not_anothers_question()
        return self._rt.option_shapes() if self.pending else []

    def audit_views(self, seats: list[int]) -> list[str]:
        """Each of `seats`' views as JSON text, for summon check's fairness audit to compare."""
        return self._rt.views_json(seats)

    def _set_generator(self, words: list[int]) -> None:
        self._rt.set_rng_words(words)

    def _sampled(self, seat: int, seed: int, quiet: bool, honest: bool = False) -> "Match":
        self._check_seat(seat)
        check_seed(seed)
        m = self._fork(quiet, (seat, seed), honest)
        m._redeals.append((seat, seed))
        m.sampled_for, m._before = seat, self.decisions
        m.answers, m.askers = [], []
        return m

    def _hide_anothers_question(self) -> None:
        """In a sample for a seat that is not the one asked: the question's prompt and count
        as that seat may know them (its options name the asked seat's real cards)."""
        if self._anothers_question():
            p = self.pending
            self.pending = Decision(p.player, f"(player {p.player}'s question)", 0, p.secret)

    def _anothers_question(self) -> bool:
        """Whether the question waiting was built from cards this sample dealt again: a seat
        other than the one asked was sampled on the way here, and nothing answered since."""
        p = self.pending
        return (p is not None and not self.answers and self.sampled_for is not None
                and any(seat != p.player for seat, _ in self._redeals))

    def _not_anothers_question(self) -> None:
        """Refuses to show or answer a question built from real cards a sample dealt again
        (a sample for a seat that is not the one asked, not yet played on)."""
        if self._anothers_question():
            p = self.pending
            raise EngineError(f"this sample is a world a seat other than player {p.player} may imagine; the question "
                              f"is player {p.player}'s, built from their real cards, some of which it dealt again: "
                              f"sample seat {p.player} from the match to see or answer it")

    def _check_seat(self, seat) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(1, len(self.seats) + 1):
            raise EngineError(f"no seat {seat!r}: seats are 1 to {len(self.seats)}")

    def _redeal(self, seat: int, seed: int) -> None:
        self._rt.redeal(seat, seed)

    def evaluate(self, seat: int, *, last_use: bool = False) -> float:
        """How good the position is for `seat`, judged from its view by the game's
        evaluate(view, seat) (or the generic one): -1 lost, 0 even, 1 won.
        A finished match is 1 for its winners, -1 for the others and 0 for a draw.
        last_use: a sample that is dropped right after (a bot's) skips copying the view."""
        self._check_seat(seat)
        if self.pending is None:
            won = self.winners
            return 0.0 if won is None else (1.0 if seat in won else -1.0)
        return self._rt.evaluate(seat, last_use and self.sampled_for is not None)

    def keep_checkpoints(self) -> "Match":
        """Copies the state at the top of every turn from now on, so that fork() replays at
        most the current turn (costs a state copy per turn). Returns the match."""
        self._rt.keep_checkpoints()
        return self

    def rollout(self, seed: int, max_decisions: int = 20000) -> int:
        """Plays on with uniformly random answers drawn in Lua (no host between decisions)
        from a generator seeded with `seed`, until the end or `max_decisions` more decisions.
        Returns the number of decisions made; answers are logged as if given one by one."""
        if self.pending is None:
            return 0
        self._not_anothers_question()
        first = self.decisions + 1
        try:
            made, res = self._rt.rollout(check_seed(seed), max(0, int(max_decisions)))
            keys, who = self._rt.answers_from(first)
            self._take(res)
        except ScriptError as e:
            keys, who = self._rt.answers_from(first)
            self.answers += keys
            self.askers += who
            self._recover(str(e))
            raise
        self.answers += keys
        self.askers += who
        return made

    def answer_key(self, key: str) -> None:
        """Answers with the option whose label is key."""
        idx = self.index_of(key)
        if idx is None:
            raise IllegalAnswer(f"{key!r} is not offered; offered: {', '.join(self.options())}")
        self.answer(idx)

    def _recover(self, message: str) -> None:
        """After a script error: rebuild the match at its last decision."""
        if self.sampled_for is not None:   # a sample has no history to rebuild it from
            self.error = message
            return
        self._rebuild()
        self.error = message

    def _rebuild(self) -> None:
        """The match built again from its start with its answers and changes (its last decision)."""
        answers, edits = list(self.answers), list(self.edits)
        self.answers, self.askers, self.edits = [], [], []
        self._boot()
        self.replay(answers, edits=edits)
        self.messages()   # (said before, when the match got there)

    def replay(self, answers: list[str], *, upto: int | None = None,
               edits: list[Edit] | tuple = ()) -> Divergence | None:
        """Gives logged answers in order, stopping at the first that is no longer offered.
        edits: the designer's changes (Match.edit) to make again, each once the replay has
        reached its decision and before that decision's answer (those at a decision the
        replay does not reach are left out).

        Returns that divergence (its decision number, the answer, what is offered now),
        or None when every answer fitted. A script error, or a change that fails now,
        raises ScriptError.
        """
        for n, key in enumerate(answers[:upto], self.decisions + 1):
            self._edit_again(edits)
            if self.index_of(key) is None:
                return Divergence(n, key, self.options())
            self.answer_key(key)
        self._edit_again(edits)
        return None

    def _edit_again(self, edits: list[Edit] | tuple) -> None:
        """Makes again, in order, the changes among edits made at this decision that the
        match has not made yet (a replay given in parts reaches a decision twice)."""
        made = sum(1 for e in self.edits if e.at == self.decisions)
        for e in [e for e in edits if e.at == self.decisions][made:]:
            ok, res, bc, line = self._run_edit(e.code)
            if not ok:
                raise EditFailed(f"the console change made at decision {e.at + 1}, `{EDIT_CHUNK} {_one_line(e.code)}`, "
                                 f"fails now: {res}",
                                 f"a designer's console change made at decision {e.at + 1} fails now (what it is and "
                                 f"why it fails are for a designer's eyes: it may name a card a seat cannot see)")
            self._keep_edit(e, bc, line)

    def _run_edit(self, code: str) -> tuple[bool, str, bytes | None, int | None]:
        """Compiles and runs a change's code on the match: (ok, the results' JSON or the error,
        the bytecode and the line errors are placed at, for _keep_edit)."""
        try:
            bc, line = self._compiled(code, EDIT_CHUNK)
        except ScriptError as e:
            return False, str(e), None, None
        ok, res = self._rt.eval(bc, EDIT_CHUNK, None, line)
        return ok, res, bc, line

    def _keep_edit(self, e: Edit, bc: bytes, line: int | None) -> None:
        """Keeps a change just made, here and where forks of the match make it again."""
        self._rt.record_edit(bc, EDIT_CHUNK, line)
        self.edits.append(e)

    def restarted(self, answers: list[str] | None = None, *, game: GameDef | None = None,
                  edits: list[Edit] | None = None) -> tuple["Match", Divergence | None]:
        """A new match of the same seed, seats, setup and options (and this game or `game`),
        with `answers` replayed up to the first that no longer fits, and the designer's
        changes (`edits`, by default this match's) made again where they were made, up to
        there; returns it and that divergence."""
        m = Match(game or self.game, self.seed, self.seats, quiet=self.quiet, scenario=self.scenario,
                  setup=self.setup, options=self.game_options)
        diverged = m.replay(list(answers or []), edits=self.edits if edits is None else edits)
        m.messages()
        return m, diverged

    def force_random(self, values: list[int]) -> None:
        """Results the generator gives next, in order, before it draws at random again (tests)."""
        self._rt.force(values)

    def forced_left(self) -> int:
        """How many results force_random gave that no draw has taken yet."""
        return self._rt.forced_left()

    def last_chance(self, seat: int | None = None) -> tuple[int, str]:
        """(decision number, what) of the last draw, roll or shuffle, or of a card coming into
        a seat's sight (a card handed over from another's hand): (0, "") when there was none.
        seat: only what concerns that seat (chance, and cards it has seen), not cards others saw.
        A sample tells only what concerns the seat it was made for (what others were told
        alone, players.learned's words, is theirs), and a sample of a sample, the first."""
        if seat is not None:
            self._check_seat(seat)
        if self._redeals:   # (a sample of a sample: the first seat's view bounds what either may know)
            mine = self._redeals[0][0]
            if seat not in (None, mine):
                raise EngineError(f"this sample is a world player {mine} may imagine: it tells what concerns "
                                  f"player {mine}, not player {seat}; ask the match")
            seat = mine
        for n, kind, seats, told in reversed(self._rt.chance_notes()):
            if seat is None or seats is None or seat in seats:
                return n, told.get(seat, kind)
        return 0, ""

    def eval(self, code: str, chunkname: str = "eval", *, seat: int | None = None) -> list:
        """Runs Lua in the match's sandbox (an expression or statements); returns its results.

        With a seat, the code sees only a throwaway copy of that seat's view (`view`, `defs`,
        the board's shape): it can neither learn hidden cards nor change the match.
        Raises ScriptError with file:line when the code fails to compile or run.
        """
        bc, line = self._compiled(code, chunkname)
        ok, res = self._rt.eval(bc, chunkname, seat, line)
        if not ok:
            raise ScriptError(res)
        return json.loads(res)

    def mark_words(self, seat: int) -> dict[str, str]:
        """What game.yaml's `display: card_mark` Lua says of each face-down card's mark in
        `seat`'s view (run on a copy of that view only), by the mark as JSON with sorted keys
        ("" to show none); {} for a game without it. Raises ScriptError when the Lua fails
        and EngineError when it gives no text."""
        code = (self.game.data.get("display") or {}).get("card_mark")
        if not isinstance(code, str) or not code.strip():
            return {}
        from .luac import compile_lua

        body = "return " + code if compile_lua("return " + code, "card_mark")[0] else code
        lua = ("local function words(mark) " + body + "\nend\nlocal out = {}\n"   # (its lines keep their numbers)
               "for _, c in ipairs(view.cards) do\n"
               "  if c.mark ~= nil then out[#out + 1] = { mark = c.mark, words = words(c.mark) } end\n"
               "end\nreturn out")
        res = self.eval(lua, f"{self.game.id}/game.yaml display.card_mark", seat=seat)
        out = {}
        for pair in (res[0] if res and isinstance(res[0], list) else []):
            words = pair.get("words")
            if isinstance(words, bool) or not isinstance(words, (str, int, float, type(None))):
                raise EngineError(f"display: card_mark gives {kind_of(words)} for the mark {json.dumps(pair.get('mark'))}, "
                                  f"not text (or nil to show none)")
            out[json.dumps(pair.get("mark"), sort_keys=True)] = "" if words is None else str(words)
        return out

    def edit(self, code: str) -> tuple[list, bool]:
        """A designer's change to the match: runs Lua on the match itself, as eval() with no
        seat. When the state changed, the change is kept with the answers (`edits`, an Edit
        at this decision): a replay of them (restarted, a saved match loaded, a reload) and
        every fork (a search's look-ahead) make it again there, before the decision's answer.
        Returns the code's results and whether the state changed. Code that fails leaves the
        match as it was (rebuilt, when it had changed something before failing) and raises
        ScriptError."""
        if self.sampled_for is not None:
            raise EngineError(f"a sample of a match (Match.sample) cannot be changed: it is one guess at what "
                              f"seat {self.sampled_for} cannot see")
        before = self.state_hash()
        kept_before = self.card_kept()
        ok, res, bc, line = self._run_edit(code)
        try:
            changed = self.state_hash() != before
        except EngineError as e:   # (a state no save could hold: taken back)
            self._rebuild()
            raise ScriptError(res if not ok else f"{EDIT_CHUNK}: {e} (the change is taken back)") from None
        if not ok:
            if changed:
                self._rebuild()
            raise ScriptError(res)
        if changed:
            broken = state_problem(json.loads(self.state_json()), self.game, len(self.seats))
            if broken:   # (the engine would fail on it later, at a line of its own)
                self._rebuild()
                raise ScriptError(f"{EDIT_CHUNK}: {broken}; the engine relies on that (the change is taken back)")
            kept = self.card_kept()
            if kept and kept_before is None:   # (every view would refuse the match from now on)
                self._rebuild()
                raise ScriptError(f"{EDIT_CHUNK}: {kept[0]} holds card {kept[1]} itself, which every seat's view "
                                  f"would show; keep its id (the change is taken back)")
            self._keep_edit(Edit(self.decisions, code), bc, line)
        return json.loads(res), changed

    @staticmethod
    def _compiled(code: str, chunkname: str) -> tuple[bytes, int | None]:
        """Code compiled as an expression if it is one, else as statements, and the line an
        error naming no place is placed at (1 for code of one line, else None)."""
        from .luac import compile_lua

        ok, bc = compile_lua("return " + code, chunkname)
        if not ok:
            ok, bc = compile_lua(code, chunkname)
        if not ok:
            raise ScriptError(bc)
        return bc, 1 if "\n" not in code and "\r" not in code else None

    # -- reading --------------------------------------------------------------

    def rules_globals(self) -> dict[str, str]:
        """The rules' globals that hold data in this match's runtime, as name -> a short form
        of the value (see Runtime.rules_globals): a runtime shared with another match shows
        what that match left in them (summon check)."""
        return self._rt.rules_globals()

    def plays(self) -> dict[str, list[int]]:
        """Times each card definition was played, per seat (list index 0 is seat 1): the cards
        of the events game.yaml names under `balance: played`, since the match began (a fork
        or sample counts from its checkpoint). Empty when the game names none."""
        out: dict[str, list[int]] = {}
        for def_id, seat, n in self._rt.plays():
            if 1 <= seat <= len(self.seats):
                out.setdefault(def_id, [0] * len(self.seats))[seat - 1] += n
        return out

    def stats_seen(self, seat: int | None, card_id: int) -> dict[str, float] | None:
        """A card's stats now, after the modifiers a seat may know of (None: everything); None
        when the seat does not see the card's face. For screens: a stat whose modifier fails is left out."""
        return self._rt.stats_seen(seat, card_id)

    def stat_failures(self, seat: int | None) -> list[str]:
        """What would fail on a seat's screen (None: a designer's): for each card of its view
        and each stat whose modifiers fail, the error (which names where the script is)."""
        out = []
        for c in self.view(seat)["cards"]:
            for stat, error in sorted(self._rt.stat_failures(seat, c["id"]).items()):
                out.append(f"the {stat} of {c.get('name') or c.get('def') or 'a card'} (card {c['id']}): {error}")
        return out

    def messages(self) -> list[str]:
        """What happened since the last call (moves, rolls, damage...), as a designer reads it:
        a line for one player (say(text, p), a card shown to them) as "(to player P) text",
        after what the others read of it, if anything ("Player 1 shows player 2 a card")."""
        out = []
        for p, text, others in self.said():
            if p is not None and others:
                out.append(others)
            out.append(text if p is None else f"(to player {p}) {text}")
        return out

    def card_kept(self) -> tuple[str, int] | None:
        """Where the state keeps a card itself outside state.cards ("state.vars.duel.a", and
        the card's id), which a view refuses (it would show the card to every seat), or None."""
        return self._rt.card_kept()

    def said(self) -> list[tuple[int | None, str, str]]:
        """What happened since the last call, as (None, text, "") for every seat, and (player,
        text, others) for a line that player alone reads, the others reading `others` instead
        ("" for nothing: a screen shows another seat nothing of it)."""
        return self._rt.drain_messages()

    def modifier_that_writes(self) -> tuple[str, str, str, str | None, str | None] | None:
        """For `summon check`: the first modifier in play that changes the state when run
        (Runtime.modifier_that_writes). The match is not to be played on after one is found."""
        return self._rt.modifier_that_writes()

    def script_shapes(self) -> dict[str, dict]:
        """What each kind of script can name (Runtime.script_shapes), for `summon check`."""
        return self._rt.script_shapes()

    @property
    def active(self) -> int:
        """The player whose turn it is (state.active), without reading the whole state."""
        return self._rt.active()

    def clock(self) -> tuple[int, int]:
        """The turn and round numbers (as in snapshot(), without reading the whole state)."""
        return self._rt.clock()

    def snapshot(self) -> dict:
        """The whole state as plain data (maps are dicts and lists are lists, even when empty)."""
        return typed_state(json.loads(self._rt.state_json()))

    def state_hash(self) -> str:
        """sha256 of the state's canonical JSON."""
        return state_hash_of(self.state_json())

    def state_json(self) -> str:
        """The whole state as canonical JSON text (what state_hash hashes)."""
        return self._rt.state_json()

    def board_spaces(self) -> list[str]:
        """The spaces on this match's board (its regions for another number of players left out)."""
        return self._rt.board_spaces()

    def board_neighbors(self) -> dict[str, list[str]]:
        """Each space on this match's board and its neighbours there, as the rules see them."""
        return self._rt.board_neighbors()

    def board_regions(self) -> list[str]:
        """The regions on this match's board (those for another number of players left out)."""
        return self._rt.board_regions()

    def board_spaces_in(self, region: str) -> list[str]:
        """The spaces of one of board_regions() on this match's board, in board order."""
        return self._rt.board_spaces_in(region)

    def view(self, player: int | None) -> dict:
        """The state as one player may see it (None: everything), typed like snapshot().

        Every zone is {"count": n}, plus "cards" (ids, bottom to top) when the player may see them.
        """
        if player is not None:
            self._check_seat(player)
        return typed_state(json.loads(self._rt.view_json(player)))

    # -- saving ---------------------------------------------------------------

    def to_json(self) -> dict:
        if self.sampled_for is not None:
            raise EngineError("a sample of a match (Match.sample) cannot be saved: it is one guess at what "
                              f"seat {self.sampled_for} cannot see")
        out = {
            "format": SAVE_FORMAT,
            "game": self.game.id,
            "seed": self.seed,
            "seats": [str(s) for s in self.seats],
            "answers": list(self.answers),
        }
        if self.edits:
            out["edits"] = _saved_edits(self.edits)
        if self.game_options:
            out["options"] = dict(self.game_options)
        if _played_from_its_own_folder(self.game):
            out["rules"] = str(self.game.root)
        if self.game.extra_cards:   # card or deck files from outside the game's folder
            out["card_files"] = [str(p) for p in self.game.extra_cards]
            texts = {str(p): _text_of(p) for p in self.game.extra_cards}
            out["card_file_texts"] = {f: t for f, t in texts.items() if t is not None}
        return out

    def save(self, path: Path, answers: list[str] | None = None, edits: list[Edit] | None = None) -> None:
        """Writes the match to a file as JSON; the match itself is never changed. answers:
        the answers to write instead of the match's own, when they go on from them (a replay
        stopped by a rule change keeps the rest: loaded, they stop at the same place, or come
        back under rules they fit); edits: likewise the designer's changes.

        Raises EngineError when the match holds a value JSON cannot (before the file is
        touched), and OSError when the file cannot be written (the file is then as it was).
        """
        data = self.to_json()
        if answers is not None:
            if answers[: len(self.answers)] != self.answers:
                raise EngineError("the answers to save do not go on from the match's own")
            data["answers"] = list(answers)
        if edits is not None:
            if list(edits[: len(self.edits)]) != self.edits:
                raise EngineError("the console changes to save do not go on from the match's own")
            data.pop("edits", None)
            if edits:
                data["edits"] = _saved_edits(edits)
        try:
            text = json.dumps(data, indent=1, allow_nan=False) + "\n"
        except (TypeError, ValueError) as e:
            raise EngineError(f"cannot save this match: {e}") from None
        write_whole(Path(path), text)


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


def state_problem(st: Any, game: GameDef, seats: int) -> str | None:
    """The first way a match's state (as JSON) breaks what the engine keeps true of it (a
    designer's change may: state.zones = nil, a card given another id), or None."""
    def is_map(v: Any) -> bool:   # (an empty Lua table is written as a list)
        return isinstance(v, dict) or v == []

    def lua(v: Any) -> str:
        return "nil" if v is None else shown(v)

    def is_player(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= seats

    def held(where: str, id_: Any, place: str, field: str) -> str | None:
        if not (isinstance(id_, int) and not isinstance(id_, bool) and 1 <= id_ <= len(cards)):
            return f"{where} holds {lua(id_)}, but state.cards has no card {lua(id_)}"
        if cards[id_ - 1].get(field) != place:
            return f"{where} holds card {id_}, whose {field} is {lua(cards[id_ - 1].get(field))}"
        return None

    if not isinstance(st, dict):
        return "the state must be a table"
    for key, ok, what in (("players", lambda v: isinstance(v, list), "a list of the players"),
                          ("cards", lambda v: isinstance(v, list), "a list of the cards"),
                          ("zones", is_map, "a table of zone -> card ids"),
                          ("spaces", is_map, "a table of space -> card id"),
                          ("counters", is_map, "a table of counters"),
                          ("vars", lambda v: isinstance(v, (dict, list)), "a table")):   # (a list, state.vars[p])
        if not ok(st.get(key)):
            return f"state.{key} must be {what}, not {lua(st.get(key))}"
    if len(st["players"]) != seats:
        return f"state.players must list the match's {seats} players, not {len(st['players'])}"
    mixed = st.get("mixed")   # (the places each seat lost track of a card between: E.mix_places)
    if mixed is not None and not (isinstance(mixed, list) and all(
            isinstance(r, list) and len(r) == 3 and is_player(r[0])
            and all(isinstance(x, str) or isinstance(x, int) and not isinstance(x, bool) for x in r[1:])
            for r in mixed)):
        return f"state.mixed must be a list of {{player, place, place}}, not {lua(mixed)}"
    winners = st.get("winners")
    if winners is not None and not (winners == [] or isinstance(winners, list) and all(map(is_player, winners))):
        return f"state.winners must be a list of players from 1 to {seats}, not {lua(winners)}"
    cards = st["cards"]
    for i, c in enumerate(cards, 1):
        if not isinstance(c, dict) or c.get("id") != i:
            return (f"state.cards[{i}] must be the card whose id is {i}" if isinstance(c, dict)
                    else f"state.cards[{i}] must be a card, not {lua(c)}")
        if not isinstance(c.get("def"), str) or c["def"] not in game.cards:
            return f"state.cards[{i}].def is {lua(c.get('def'))}, which is no card of {game.id}"
        for who in ("owner", "controller"):
            if who in c and not is_player(c[who]):
                return f"state.cards[{i}].{who} must be a player from 1 to {seats}, not {lua(c[who])}"
        if not isinstance(c.get("under"), list) or not all(
                isinstance(u, int) and not isinstance(u, bool) and 1 <= u <= len(cards) for u in c["under"]):
            return f"state.cards[{i}].under must be a list of the ids of the cards under it, not {lua(c.get('under'))}"
        for field in ("seen_by", "seen_open"):
            if field in c and not (isinstance(c[field], list) and all(map(is_player, c[field]))):
                return f"state.cards[{i}].{field} must be a list of players from 1 to {seats}, not {lua(c[field])}"
        if "down_ref" in c and not (isinstance(c["down_ref"], int) and not isinstance(c["down_ref"], bool)):
            return f"state.cards[{i}].down_ref must be a whole number (its stand-in's), not {lua(c['down_ref'])}"
        if "first_owner" in c and not (is_player(c["first_owner"]) or c["first_owner"] == 0):
            return (f"state.cards[{i}].first_owner must be a player from 1 to {seats}, or 0 for nobody, "
                    f"not {lua(c['first_owner'])}")
    zones = st["zones"] or {}
    for key, ids in zones.items():
        if not isinstance(ids, list):
            return f"state.zones[{shown(key)}] must be a list of card ids, not {lua(ids)}"
        for id_ in ids:
            wrong = held(f"state.zones[{shown(key)}]", id_, key, "zone")
            if wrong:
                return wrong
    for space, id_ in (st["spaces"] or {}).items():
        wrong = held(f"state.spaces[{shown(space)}]", id_, space, "space")
        if wrong:
            return wrong
    for c in cards:
        zone = c.get("zone")
        if isinstance(zone, str) and zone not in ("board", "under") and c["id"] not in (zones.get(zone) or ()):
            return f"state.cards[{c['id']}].zone is {shown(zone)}, but state.zones[{shown(zone)}] does not hold it"
    # each card under another is listed once, under its host; no card is under itself, or
    # under a card under it (the engine walks hosts and what lies under, and would not end)
    listed: dict[int, int] = {}
    for c in cards:
        for u in c["under"]:
            if u in listed:
                return (f"state.cards[{c['id']}].under lists card {u}, which is already listed under card "
                        f"{listed[u]}" if listed[u] != c["id"] else
                        f"state.cards[{c['id']}].under lists card {u} twice")
            listed[u] = c["id"]
            wrong = held(f"state.cards[{c['id']}].under", u, "under", "zone")
            if wrong:
                return wrong
            if cards[u - 1].get("host") != c["id"]:
                return (f"state.cards[{c['id']}].under lists card {u}, whose host is "
                        f"{lua(cards[u - 1].get('host'))}")
    for c in cards:
        seen, h = {c["id"]}, c
        while h.get("zone") == "under" and isinstance(h.get("host"), int) and 1 <= h["host"] <= len(cards):
            if h["host"] in seen:
                return f"state.cards[{c['id']}] lies under itself (through its hosts: a loop)"
            seen.add(h["host"])
            h = cards[h["host"] - 1]
    return None


def read_save(path: Path) -> dict:
    """Reads and checks a saved match file; raises SaveFileError naming the file (and line)."""
    text = _save_text(path)
    try:
        data = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as e:
        # (Python's words end "... starting at", the place being given apart: here, the line's)
        said = e.msg[:-3] + " here" if e.msg.endswith(" at") else e.msg
        cut = "; is the file cut short?" if e.pos >= len(text.rstrip()) - 1 or "Unterminated" in e.msg else ""
        raise SaveFileError(f"{path}:{e.lineno}:{e.colno}: not a saved match (JSON: {said}{cut})") from None
    except RecursionError:
        line, col = _too_deep(text)
        raise SaveFileError(f"{path}:{line}:{col}: not a saved match (its JSON is nested too deeply)") from None
    except ValueError as e:   # NaN or Infinity, or a number of thousands of digits
        long_number = re.search(r"\d{1000,}", text)
        if long_number is None:
            raise SaveFileError(f"{path}: not a saved match ({e})") from None
        line, col = _line_col(text, long_number.start())
        raise SaveFileError(f"{path}:{line}:{col}: not a saved match (a number of "
                            f"{long_number.end() - long_number.start()} digits)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"{path}:1:1: not a saved match (expected format {SAVE_FORMAT!r})")
    problems = _save_problems(data)
    if problems:
        line, col = _key_at(text, problems[0][0])
        raise SaveFileError(f"{path}:{line}:{col}: " + "; ".join(p for _, p in problems))
    return data


def _key_at(text: str, key: str) -> tuple[int, int]:
    """Line and column of a top-level key of a saved match's JSON text (1, 1 when it is not
    there): the first `"key":` with the object's own depth of brackets before it."""
    depth = 0
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:|"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        token = m.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        elif depth == 1 and m.group(1) == key:
            return _line_col(text, m.start())
    return 1, 1


def _save_text(path: Path) -> str:
    """A save file's text, read with bounds; raises SaveFileError."""
    try:
        raw = read_bounded(Path(path), MAX_SAVE_BYTES)
    except FileRefused as e:
        raise SaveFileError(f"{path}: {e}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise SaveFileError(f"{path}:{line}: not a saved match (not UTF-8 text)") from None


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save may hold")


def _too_deep(text: str, limit: int = 500) -> tuple[int, int]:
    """Line and column where a JSON text's brackets first nest `limit` deep (1, 1 if they never do)."""
    depth = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth >= limit:
                return _line_col(text, m.start())
        elif token in "]}":
            depth -= 1
    return 1, 1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """Line and column (1-based) of an offset in a text."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _save_problems(data: dict) -> list[tuple[str, str]]:
    """What is wrong with the fields of a saved match: (the key, what, in a few words)."""
    problems = []
    if not isinstance(data.get("game"), str) or lone_surrogate(data["game"]):
        problems.append(("game", "'game' must be a game id"))
    try:
        check_seed(data.get("seed"))
    except EngineError as e:
        problems.append(("seed", f"'seed': {e}"))
    seats = data.get("seats")
    if not (isinstance(seats, list) and all(isinstance(s, str) and s.strip() and not lone_surrogate(s)
                                            for s in seats)):   # ("" would be read as a bot's seat)
        problems.append(("seats", "'seats' must be a list like [\"human:set\", \"bot\"]"))
    else:
        try:
            check_seats([Seat.parse(s) for s in seats])
        except EngineError as e:
            problems.append(("seats", f"'seats': {e}"))
    answers = data.get("answers")
    if not (isinstance(answers, list) and all(isinstance(a, str) for a in answers)):
        problems.append(("answers", "'answers' must be a list of option labels"))
    else:
        bad = next(((n, lone_surrogate(a)) for n, a in enumerate(answers, 1) if lone_surrogate(a)), None)
        if bad:
            problems.append(("answers", f"answer {bad[0]} holds {bad[1]}, which is not a character"))
    problem = _edits_problem(data.get("edits", []), answers)
    if problem:
        problems.append(("edits", problem))
    files = data.get("card_files", [])
    if not (isinstance(files, list) and all(isinstance(f, str) and "\0" not in f and not lone_surrogate(f)
                                            and 0 < len(Path(f).name) <= 250 and Path(f).name != ".."
                                            for f in files)):   # (a file's or a folder's name: not "/")
        problems.append(("card_files", "'card_files' must be a list of paths to card or deck files"))
    texts = data.get("card_file_texts", {})
    if not (isinstance(texts, dict) and all(isinstance(t, str) and not lone_surrogate(t) for t in texts.values())):
        problems.append(("card_file_texts", "'card_file_texts' must map each card or deck file to its text"))
    if "rules" in data and not (isinstance(data["rules"], str) and 0 < len(data["rules"]) <= 4096
                                and "\0" not in data["rules"] and not lone_surrogate(data["rules"])):
        problems.append(("rules", "'rules' must be the path of the folder the game was played from"))
    options = data.get("options", {})
    if not isinstance(options, dict):
        problems.append(("options", "'options' must be a mapping of game options"))
    else:
        problem = plain_value_problem(options)
        if problem:
            problems.append(("options", f"'options': {problem}"))
    return problems


def _edits_problem(edits: Any, answers: Any) -> str | None:
    """What is wrong with a save's console changes (Match.edit), or None."""
    shape = "'edits' must be a list of the console's changes, each {\"at\": decisions made, \"lua\": its code}"
    if not isinstance(edits, list):
        return shape
    for n, e in enumerate(edits, 1):
        wrong = _edit_shape_problem(e)
        if wrong:
            return f"{shape}: change {n} {wrong}"
        if n > 1 and e["at"] < edits[n - 2]["at"]:
            return f"'edits' must be in the order they were made: change {n} comes before change {n - 1}"
        if isinstance(answers, list) and e["at"] > len(answers):
            return (f"'edits': change {n} was made at decision {e['at'] + 1}, after the "
                    f"{len(answers)} answers the save holds")
    return None


def _edit_shape_problem(e: Any) -> str | None:
    """What one of a save's console changes lacks, said after "change N", or None."""
    if not isinstance(e, dict):
        return f"is {kind_of(e)}, not a map"
    missing = [k for k in ("at", "lua") if k not in e]
    if missing:
        return f"has no {' and no '.join(repr(k) for k in missing)}"
    others = sorted(str(k) for k in e if k not in ("at", "lua"))
    if others:
        return f"has {', '.join(repr(k) for k in others)}, which is not 'at' or 'lua'"
    if not (type(e["at"]) is int and e["at"] >= 0):
        return f"has 'at': {json.dumps(e['at'])}, not a count of decisions (0 or more)"
    if not (isinstance(e["lua"], str) and e["lua"].strip() and not lone_surrogate(e["lua"])):
        return "has 'lua' that is no code (a text of Lua)"
    return None


def _saved_edits(edits: list[Edit]) -> list[dict]:
    """Console changes as a save holds them (edits_of reads them back)."""
    return [{"at": e.at, "lua": e.code} for e in edits]


def edits_of(data: dict) -> list[Edit]:
    """A checked save's console changes (read_save)."""
    return [Edit(e["at"], e["lua"]) for e in data.get("edits", [])]


def _one_line(code: str, width: int = 60) -> str:
    """Code shown on one line, cut to `width` characters."""
    text = " ".join(code.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _played_from_its_own_folder(game: GameDef) -> bool:
    """Whether a game was loaded from another folder than the installed game of its id (a
    copy, a game of one's own, whether found by its path, in the current folder or through
    SUMMON_PATH, none of which a later load need see the same way): a save names that
    folder, so that loading it plays the same rules."""
    try:
        root = installed_root()
        found = list_games(root).get(game.id) if root is not None else None
        return found is None or Path(found).resolve() != Path(game.root).resolve()
    except (OSError, RuntimeError, EngineError):
        return False


def _saved_folder(data: dict) -> str | None:
    """The folder a save says its game was played from, while it still holds a game of that id."""
    where = data.get("rules")
    if not isinstance(where, str):
        return None
    try:
        doc, _ = yamlio.load(Path(where) / "game.yaml")
    except (OSError, ValueError, RuntimeError, EngineError):   # (a name too long, a loop of links...)
        return None
    return where if doc is not None and isinstance(doc.data, dict) and doc.data.get("id") == data["game"] else None


def game_of_save(data: dict) -> GameDef:
    """The game a checked save was played with, with the card or deck files it names.

    A save keeps the text of each such file (a custom deck, say): when the file is gone or
    has changed since, the match is replayed with the saved text, so it plays as it was.
    """
    texts = data.get("card_file_texts") or {}
    files, saved = [], {}
    own = _own_cards(_saved_folder(data) or data["game"])
    for f in data.get("card_files", []):
        path = Path(f)
        if _resolved_in(path, own):
            continue   # (a file of the game's own, which an older save listed: read with the game)
        if f in texts and _text_of(path) != texts[f]:
            path = Path(tempfile.mkdtemp(prefix="summon-saved-")) / path.name
            path.write_text(texts[f], encoding="utf-8")
            saved[display(path)] = saved[str(path)] = f
        files.append(path)
    try:   # (a game played from a folder of its own, while that folder holds it)
        return load_game(_saved_folder(data) or data["game"], extra_cards=files or None)
    except DefinitionError as e:   # name the file the player knows, not the scratch copy
        raise DefinitionError([Problem(saved[p.path], p.line, p.col, f"(in the text the save holds) {p.message}")
                               if p.path in saved else p for p in e.problems]) from None


def _own_cards(game: str) -> set[Path]:
    """The card files a game reads as its own (its cards folder's, not a subfolder's: a deck
    kept in one is an outside file), resolved; none when they cannot be told."""
    from .loader import resolve, yaml_files
    try:
        cards = resolve(game)[1]
        return set() if cards is None else {f.resolve() for f in yaml_files(cards)}
    except (EngineError, OSError, RuntimeError, ValueError):
        return set()


def _resolved_in(path: Path, own: set[Path]) -> bool:
    """Whether a path leads to one of the files in own."""
    if not own:
        return False
    try:
        return path.resolve() in own
    except (OSError, RuntimeError, ValueError):
        return False


def _text_of(path: Path) -> str | None:
    """A card or deck file's text, or None when it cannot be read."""
    try:
        return read_bounded(path, 8 * MB).decode("utf-8")
    except (OSError, FileRefused, UnicodeDecodeError):
        return None


def saved_match(path: Path, data: dict, game: GameDef, *, quiet: bool = False) -> Match:
    """A checked save's match at its start, under `game`: an option the game does not
    take is refused at the save's line of options (read_save cannot tell: it knows no game)."""
    try:
        check_options(game, data.get("options") or {})
    except EngineError as e:
        line, col = _key_at(_save_text(path), "options")
        raise SaveFileError(f"{path}:{line}:{col}: {e}") from None
    seats = [Seat.parse(s) for s in data["seats"]]
    try:
        seated(game, seats)
    except EngineError as e:   # (as many seats as the game takes, each with a set it has)
        line, col = _key_at(_save_text(path), "seats")
        raise SaveFileError(f"{path}:{line}:{col}: {e}") from None
    return Match(game, data["seed"], seats, quiet=quiet, options=data.get("options"))


def load_match(path: Path, game: GameDef | None = None, *, upto: int | None = None,
               quiet: bool = False) -> Match:
    """Loads a saved match and replays its answers (the first `upto` of them if given)."""
    data = read_save(path)
    game = game or game_of_save(data)
    m = saved_match(path, data, game, quiet=quiet)
    diverged = m.replay(data["answers"], upto=upto, edits=edits_of(data))
    if diverged is not None:
        raise diverged
    return m


class Ask:
    """A pending decision as its player sees it: all a controller (person or bot) is given."""

    def __init__(self, match: Match):
        d = match.pending
        if d is None:
            raise IllegalAnswer("the match is over; there is nothing to answer")
        match._not_anothers_question()
        self.player, self.prompt, self.secret = d.player, d.prompt, d.secret
        self.count = d.count                 # how many options there are
        self.decision = match.decisions + 1  # its number in the match (the first is 1)
        self._options: list[str] | None = None
        self._match = match

    @property
    def options(self) -> list[str]:
        """The options' labels, in order (read from the match when first asked for)."""
        if self._options is None:
            self._options = self._match.options()
        return self._options

    def view(self) -> dict:
        """What the asked player may see now (computed when asked for)."""
        return self._match.view(self.player)

    def sample(self, seed: int) -> Match:
        """One world the asked player's view allows, to search in (Match.sample)."""
        return self._match.sample(self.player, seed)


Controller = Callable[[Ask], int]


_M64 = (1 << 64) - 1


def mix64(x: int) -> int:
    """SplitMix64's finaliser: a 64-bit number whose every bit depends on every bit of x."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def bot_key(name: str, seed: int, seat: int) -> int:
    """A bot's own 64-bit number, from its kind, the match's seed and its seat."""
    return int.from_bytes(hashlib.blake2b(f"{name}:{seed}:{seat}".encode(), digest_size=8).digest(), "big")


class RandomBot:
    """Picks uniformly among the options. What it picks depends on the match's seed, its
    seat and the decision's number only, never on what it was asked before: so a match
    loaded from a save, or played again after undo, gets the same answers from it."""

    def __init__(self, seed: int, seat: int):
        self.key = bot_key("bot", seed, seat)

    def __call__(self, ask: Ask) -> int:
        # (a 64-bit number modulo a count of options: the bias is below 2^-50)
        return mix64(self.key ^ ask.decision) % ask.count


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
