"""A play session: the match, its seats and the commands a player can type. No terminal here:
`handle(line)` takes what was typed and returns what to show, so tests and both front ends
(the prompt-toolkit app and the plain pipe mode) share it. It changes the match only by answers
and a designer's console changes, which are kept with them (and by replays of both: undo, redo,
load, reload)."""
from __future__ import annotations

import json
import re
import textwrap
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine.errors import EditFailed, EngineError, IllegalAnswer, SaveFileError, ScriptError
from engine.bots import bots_for
from engine.match import Ask, Edit, Match, Seat, edits_of, public_label, read_save
from engine.names import did_you_mean, nearest

from .render import (Looks, _columns, _num, _whose, _wrap, ctl, legend, printed_card, render_links,
                     space_marks, private_ids, private_zones, render_state)


@dataclass
class Command:
    name: str
    args: str
    help: str
    run: Callable[["Session", str], str]


COMMANDS: dict[str, Command] = {}


def command(name: str, args: str = "", help: str = ""):
    """Registers a REPL command; `help` lists the registry."""
    def wrap(fn):
        COMMANDS[name] = Command(name, args, help, fn)
        return fn
    return wrap


@dataclass
class Entry:
    """One line of the session's log: what happened at a decision, and who may read it."""

    decision: int
    text: str
    seat: int | None = None   # when set, only this seat reads `text`; the others read `veiled`
    veiled: str = ""
    asker: int | None = None  # the seat that answered, which saw `question`
    question: str = ""        # what `text` answers, said to every other seat

    def for_seat(self, viewer: int | None) -> str:
        """The line as a seat reads it (None: a designer, who reads everything); "" for a line
        that is another seat's alone (the rules told it to that seat only)."""
        if self.seat is not None and viewer not in (None, self.seat):
            return self.veiled
        if self.seat is not None and viewer is None and self.asker is None:   # (the rules' line to one seat)
            return f"(to P{self.seat}) {self.text}"
        return self.text + (f' (to "{self.question}")' if self.question and viewer != self.asker else "")


class Quit(Exception):
    """The player asked to leave."""


def internal_error(e: Exception, decisions: int) -> str:
    """What the terminal says of an error that is a bug of ours, not bad input: the match stays."""
    text = str(e)
    text = text if len(text) <= 300 else text[:300] + "..."
    return (f"internal error: {type(e).__name__}: {text} (the match stays at decision {decisions}; "
            f"please report it)")


def whole(text: str) -> int:
    """A typed whole number (text.isdecimal(), any script's digits), at most 10**9, more
    than any count here (Python refuses to read one of over 4300 digits)."""
    return min(int(text), 10 ** 9) if len(text) <= 4000 else 10 ** 9


def parse_answer(text: str, options: list[str]) -> int:
    """The 0-based option a typed answer names: its number, its label, or a unique start of a label."""
    t = text.strip()
    if t.isdecimal():
        n = whole(t)
        if 1 <= n <= len(options):
            return n - 1
        shown = t if len(t) <= 12 else t[:12] + "..."
        raise IllegalAnswer(f"no option {shown}: choose 1 to {len(options)}")
    low = t.lower()
    exact = [i for i, o in enumerate(options) if o.lower() == low]
    if exact:
        return exact[0]
    starts = [i for i, o in enumerate(options) if o.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise IllegalAnswer(f"'{t}' could be {len(starts)} options; type more of it or its number")
    raise IllegalAnswer(f"'{t}' is neither an option nor a command; type a number from 1 to "
                        f"{len(options)}, or help")


def _runs(lines: list[str]) -> list[str]:
    """The lines with each run of one line said once, with how many times: "Player 4 sees a
    card (6 times)" for the six reveals of a hand."""
    out: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        count += 1
        if i + 1 == len(lines) or lines[i + 1] != line:
            out.append(line if count == 1 else f"{line} ({count} times)")
            count = 0
    return out


class Session:
    def __init__(self, match: Match, *, designer: bool = False, colour: bool = False,
                 kept: list[str] | None = None, kept_edits: list[Edit] | None = None):
        """kept: the answers after the match's own that a load stopped short of (a save of
        a match whose later answers no longer fit): a reload that makes them fit brings them back;
        kept_edits: the designer's changes of that whole history (Match.edit), the match's own first."""
        self.match = match
        self.designer = designer
        self.colour = colour
        self.log: list[Entry] = []
        self.redo_stack: list[str | Edit] = []   # answers and console changes undo took back
        self.redo_owner: int | None = None   # the seat whose answer is next to redo
        # what the last `load` said, for a seat (the player a hot seat's handover shows it
        # to, after the screen was wiped); None once shown
        self.loaded: Callable[[int | None], str] | None = None
        # the full log from before a reload (or a load) stopped short of it
        self.kept_log: list[str] = list(match.answers) + list(kept) if kept else []
        self.kept_edits: list[Edit] = list(kept_edits if kept_edits is not None else match.edits) if kept else []
        self.moved_edits = 0   # console changes the running undo or redo took back or made again
        self.kept_entries: list[Entry] = []   # the log's lines of those kept answers (a reload's)
        self.bots = bots_for(match, humans_too=True)
        humans = self.humans()
        # the human seat at the keyboard: whose eyes every screen is for (in hot seat the
        # front end hands the keyboard over with pass_to before another human answers)
        self.keyboard: int | None = humans[0] if humans else None
        self._shown: tuple | None = None   # what the last screen() showed (see needs_screen)
        self.show_legend = True            # the `legend` command toggles it
        self.stuck: str | None = None       # why the bots stopped playing last time, if an error stopped them
        self._confirming: tuple | None = None   # (decision, option) a warned answer waits to be confirmed at
        self._take_messages()

    # -- state --------------------------------------------------------------

    @property
    def match(self) -> Match:
        return self._match

    @match.setter
    def match(self, m: Match) -> None:
        self._match = m

    @property
    def seats(self) -> list[Seat]:
        return self.match.seats

    def is_human(self, player: int) -> bool:
        return self.seats[player - 1].controller == "human"

    def to_act(self) -> int | None:
        return self.match.pending.player if self.match.pending else None

    def humans(self) -> list[int]:
        return [i + 1 for i, s in enumerate(self.seats) if s.controller == "human"]

    def viewer(self) -> int | None:
        """Whose eyes the screen is for: the seat at the keyboard (designers and bot-only games see everything)."""
        return None if self.designer else self.keyboard

    def prompt_seat(self) -> int | None:
        """The seat a prompt is labelled with: the one to act, unless the keyboard is another
        seat's (a bot's question waiting on `bot` after a loaded match stopped at it)."""
        p = self.to_act()
        if p is None or self.viewer() is None:
            return p
        return self.keyboard

    def is_other_human(self, player: int | None) -> bool:
        """Whether a decision of this seat belongs to a person other than the one at the keyboard (fair play)."""
        return not self.designer and player is not None and self.is_human(player) and player != self.keyboard

    def pass_to(self, player: int) -> str:
        """Hands the keyboard to a human seat; returns what happened since that seat last answered,
        and the cards that came into its own private zones since its last screen (a card
        another player handed it, which the log cannot name to everyone, or one its own last
        answer brought in before the screen was hidden)."""
        self.keyboard = player
        mine = [i + 1 for i, a in enumerate(self.match.askers) if a == player]
        since = mine[-1] if mine else 0
        # (the setup's lines, decision 0, the seat's own alone: a secret role said to it there)
        lines = _runs([line for e in self.log if e.decision >= since and (e.decision > 0 or e.seat == player)
                       if (line := e.for_seat(player))])
        try:
            lines += self._new_in_hand(player)
        except EngineError as e:   # (a view the rules left unable to be made: the screen says why)
            lines.append(f"cannot show what is new in your hand: {e}")
        if not lines:
            return ""
        head = "Since your last turn:" if mine else "So far:"
        return head + "\n" + "\n".join(f"  {line}" for line in lines[-40:])

    def _new_in_hand(self, player: int) -> list[str]:
        """"new in your hand: X" for the cards in the seat's own private zones (a hand) that
        were not there at its last screen (hot seat's screens remember what they showed: a
        card its last answer brought in was never on one); the first time, nothing.
        Remembers what is there now."""
        view = self.match.view(player)
        names = {c["id"]: c.get("name") for c in view["cards"]}
        now = {(zone, i) for zone, listed in private_ids(self.match, view, player) for i in listed}
        if not hasattr(self, "_held"):   # (match -> seat -> what it held: a match undo dropped goes with it)
            self._held = weakref.WeakKeyDictionary()
        held = self._held.setdefault(self.match, {})
        before = held.get(player)
        held[player] = now
        if before is None:
            return []
        out = []
        for zone in sorted({z for z, _ in now}):
            new = sorted(names.get(i) or "a face-down card" for z, i in now - before if z == zone)
            if new:
                out.append(f"new in your {zone}: {', '.join(new)}")
        return out

    def log_lines(self, n: int | None = None) -> list[str]:
        """The last n log lines as the viewer reads them."""
        entries = self.log if n is None else self.log[-n:] if n > 0 else []
        return [f"[{e.decision}] {line}" for e in entries if (line := e.for_seat(self.viewer()))]

    def _take_messages(self) -> list[str]:
        """Takes what the match said into the log; returns it as the viewer reads it."""
        new = [Entry(self.match.decisions, text, seat, others) for seat, text, others in self.match.said()]
        self.log += new
        return [line for e in new if (line := e.for_seat(self.viewer()))]

    def game_status(self) -> str:
        """What the game's `display: toolbar` Lua says from the viewer's view (turns as players
        count them, life, scores); without one, the turn, round and counters."""
        key = (id(self.match), self.match.decisions, self.viewer())
        if getattr(self, "_status", (None, ""))[0] == key:
            return self._status[1]
        code = (self.match.game.data.get("display") or {}).get("toolbar")
        st = self.match.view(self.viewer())
        if code:
            # a designer (no seat) reads the toolbar of the seat to act: it shows what a seat may know
            seat = self.viewer() or self.to_act() or st.get("active") or 1
            try:
                res = self.match.eval(code, chunkname=f"{self.match.game.id}/game.yaml display.toolbar", seat=seat)
                text = " ".join(str(r) for r in res)
            except EngineError as e:
                text = f"(the game's toolbar failed: {str(e).splitlines()[0]})"
        else:
            # (a game that counts rounds may count no turns: its turn stays 0)
            parts = [f"turn {st.get('turn')}"] if st.get("turn") or not st.get("round") else []
            if st.get("round"):
                parts.append(f"round {st['round']}")
            counters = st.get("counters") or {}
            for owner in sorted(k for k in counters if k != "shared"):
                vals = " ".join(f"{k} {v}" for k, v in sorted((counters[owner] or {}).items()))
                if vals:
                    parts.append(f"P{owner}: {vals}")
            text = " | ".join(parts)
        self._status = (key, text)
        return text

    def status_line(self) -> str:
        """The game's status, the phase and the seat being asked (not only the player whose turn it is)."""
        st = self.match.view(self.viewer())
        parts = [self.game_status()]
        if st.get("phase") and self.match.pending is not None:
            parts.append(f"phase {st['phase']}")
        p = self.to_act()
        parts.append(f"P{p} to act" if p else f"over: {st.get('result') or 'no result'}")
        return " | ".join(parts)

    def toolbar(self, width: int | None = None) -> str:
        """The game's name and status_line; in a terminal narrower than that (width), the
        status fitted to it (fitted_status)."""
        try:
            full = f"{self.match.game.name} | {self.status_line()}"
            if width is None or len(full) <= width:
                return full
            return self.fitted_status(width)
        except EngineError:   # (the screen says what)
            return f"{self.match.game.name} | the match cannot be shown"

    def fitted_status(self, width: int) -> str:
        """status_line in at most width characters: if it is longer, the seat to act and the
        phase come first and the game's own status is cut short, so that who is to act is
        never what is lost."""
        full = self.status_line()
        if len(full) <= width:
            return full
        st = self.match.view(self.viewer())
        p = self.to_act()
        first = [f"P{p} to act" if p else f"over: {st.get('result') or 'no result'}"]
        if st.get("phase") and self.match.pending is not None:
            first.append(f"phase {st['phase']}")
        head = " | ".join(first)
        room = width - len(head) - 3
        rest = self.game_status()
        if room < 8:
            return head[:width]
        return f"{head} | {rest if len(rest) <= room else rest[:room - 3] + '...'}"

    def _screen_key(self) -> tuple:
        return (id(self.match), self.match.decisions, self.to_act(), self.viewer())

    def needs_screen(self) -> bool:
        """Whether the match moved on (or changed hands) since the screen was last shown."""
        return self._shown != self._screen_key()

    def forget_screen(self) -> None:
        """The terminal was wiped: the next needs_screen() is true."""
        self._shown = None

    ROWS = 40   # the terminal a screen must fit, with the prompt and the toolbar
    COLUMNS = 120

    def screen(self) -> str:
        """The board and the players as the viewer may see them, then the question; on a
        terminal of ROWS lines, the legend makes way for the options, and options past the
        last line are counted instead (`options` lists them all). A match that cannot be
        shown (a script left its state unreadable) says why instead, and stays."""
        try:
            return self._screen()
        except EngineError as e:
            self._shown = self._screen_key()
            return (f"cannot show the match: {e}\n(the match stays at decision {self.match.decisions}: "
                    "fix the script and `reload`, or `undo`, or `save FILE`)")

    def _screen(self) -> str:
        room = self.ROWS - 2
        status = self.fitted_status(self.COLUMNS)
        board = render_state(self.match, self.viewer(), colour=self.colour, status=status,
                             show_legend=self.show_legend, width=self.COLUMNS).split("\n")
        question = self.options_text().split("\n")
        if self.show_legend and len(board) + len(question) > room:
            board = render_state(self.match, self.viewer(), colour=self.colour, status=status,
                                 width=self.COLUMNS).split("\n")
        keep = max(3, room - len(board) - 1)
        if len(board) + len(question) > room and len(question) > keep + 1:   # (a line for a line: no)
            question = question[:keep] + [f"  ... and {len(question) - keep} more lines of options: "
                                          f"type options to list them all"]
        self._shown = self._screen_key()
        if self.viewer() is not None and len(self.humans()) > 1:   # (hot seat: what this seat has seen)
            self._new_in_hand(self.viewer())
        return "\n".join(board + question)

    def options_text(self) -> str:
        d = self.match.pending
        if d is None:
            st = self.match.view(self.viewer())
            result = st.get("result")   # (a script that set state.over itself gave none)
            return f"The match is over: {result}" if result else "The match is over (the rules named no result)"
        if self.is_other_human(d.player):
            return f"P{d.player} (another player) is to answer: pass them the keyboard"
        if not self.designer and self.keyboard is not None and d.player != self.keyboard:
            # a bot's options can name its hidden cards (a hand, face-down cards): fair play hides them
            return (f"P{d.player} (a bot) is to answer" + (" a secret choice" if d.secret else "") +
                    ": type bot to let it, or auto N")
        opts = self.option_texts()
        who = "you" if self.is_human(d.player) else "a bot"
        lines = _wrap(f"P{d.player} ({who}): {d.prompt}" + (" (a secret choice)" if d.secret else ""), self.COLUMNS)
        entries = [f"  {i}. {o}" for i, o in enumerate(opts, 1)]
        if len(entries) > 6 and max(map(len, entries)) <= self.COLUMNS:   # many options: side by side
            lines += _columns([(e, len(e)) for e in entries], self.COLUMNS)
        else:     # one a line; a label wider than the terminal goes on under its own text, not under the number
            for e in entries:
                lines += textwrap.wrap(e, self.COLUMNS, subsequent_indent=" " * (e.index(".") + 2),
                                       break_long_words=False) or [e]
        return "\n".join(lines)

    def option_texts(self) -> list[str]:
        """The offered options as the screen shows them: each label, then whose card it is
        about and its life (from the viewer's view), and the rules' warning, if any."""
        opts = self.match.options()
        warns = self.match.option_warnings()
        view = self.match.view(self.viewer())
        looks = Looks(self.match, view, self.viewer())
        cards = {c["id"]: c for c in view["cards"]}
        out = []
        for i, label in enumerate(opts):
            text = label
            c = self._card_named_in(label, view, cards)
            if c is not None:
                life = looks.life_left(c)
                whose = _whose(c, self.viewer())
                text += f"  ({whose}" + (f", life {life[0]} of {life[1]}" if life else "") + ")"
            if i < len(warns) and warns[i]:
                text += f"  !! {warns[i]}"
            out.append(text)
        return out

    def _card_named_in(self, label: str, view: dict, cards: dict) -> dict | None:
        """The card a label is about: the last board space it names whose card it also names."""
        for space in reversed(re.findall(r"[A-Za-z0-9_]+", label)):
            i = view["spaces"].get(space)
            c = cards.get(i) if i is not None else None
            if c is not None and "name" in c and c["name"] in label:
                return c
        return None

    # -- answering ------------------------------------------------------------

    def only_option(self, match: Match | None = None) -> bool:
        """Whether the person to answer has one option and nobody to hide that from: a question
        of one option (the rules ask it even when nothing else can be done, `confirm`, so that
        being asked tells the others nothing: the engine takes any other one-option question
        itself), with no other person at the table (in hot seat the keyboard would pass for
        it, and not passing would tell). Such a decision is taken for the person, as a card
        game's client passes when nothing else can be done; the others' log reads it as any
        answer. match: another match of the session's seats (undo's, before it is taken)."""
        m = match or self.match
        pend = m.pending
        return (pend is not None and self.is_human(pend.player) and len(self.humans()) == 1
                and len(m.options()) == 1)

    def answer(self, index: int, forced: bool = False, redoing: bool = False) -> list[str]:
        """Answers the pending decision; returns the messages of what happened. forced: the
        person's only option taken for them (only_option); redoing: an answer `redo` gives
        again (the others undone stay to redo)."""
        options = self.match.options()
        label = options[index]
        who, secret = self.match.pending.player, self.match.pending.secret
        prompt = self.match.pending.prompt
        # equal labels are numbered by the engine (`Play Ambush #2`): the number would tell the
        # others how many the seat had to choose from (copies in a hand), so they read it without
        plain = public_label(label, options)
        self.match.answer(index)
        if not redoing:
            self.redo_stack.clear()
        tag = f"P{who}" if self.is_human(who) else f"P{who} (bot)"
        # (a secret answer's line is its seat's alone: with its question, which may have held
        # what only that seat was shown, such as a card it peeked at)
        said = f"{tag}: {label}" + (f" (your only option, taken for you: {prompt})" if forced else
                                    f' (secret) (to "{prompt}")' if secret and prompt else
                                    " (secret)" if secret else "")
        # a person sees the question they answer; the others (and a designer, for a bot) are told it
        told = "" if secret or forced or (self.is_human(who) and len(self.humans()) == 1) else prompt
        # the others read an answer taken for the person as one the person gave
        veiled = (f"{tag} made a secret choice" if secret else
                  f"{tag}: {plain}" + (f' (to "{told}")' if told and plain != label else ""))
        entry = Entry(self.match.decisions, said, who if secret or forced or plain != label else None, veiled, who,
                      told)
        self.log.append(entry)
        return [entry.for_seat(self.viewer())] + [f"  {m}" for m in self._take_messages()]

    def play_bots(self, limit: int | None = None, say: Callable[[list[str]], Any] | None = None) -> list[str]:
        """Lets bots answer while it is a bot's turn (or `limit` decisions of any seat, stopping
        in fair play at a decision of another person); without a limit, a person's only option
        is taken for them (only_option) and the bots go on. With `say`, each answer's lines go to
        it as soon as they are made (a game of bots only is shown as it goes, not at its end)
        instead of into the list returned."""
        out: list[str] = []
        n = 0
        self.stuck = None
        while self.match.pending is not None:
            p = self.match.pending.player
            forced = limit is None and self.is_human(p)   # (so a person's only option: see only_option)
            if forced and not self.only_option():
                break
            if limit is not None and (n >= limit or self.is_other_human(p)):
                break
            stays = (f"(the match stays at decision {self.match.decisions}: fix the script and `reload`, "
                     "or `save FILE`, `undo`, `bot` to let the bot try again)")
            try:
                lines = self.answer(0, forced=True) if forced else self.answer(self._bot_pick(p))
            except _LookAheadFailed as e:   # in a position the bot imagined, not in the match
                self.stuck = str(e.error)
                lines = [self._look_ahead_failed(p, e.error), stays]
            except EngineError as e:   # a script failed in the match itself: the match stays
                self.stuck = str(e)
                who = f"P{p}'s only option" if forced else f"P{p}'s bot"
                lines = [f"{'script ' if isinstance(e, ScriptError) else ''}error while {who} was played: "
                         f"{self.error_text(e)}", stays]
            if say is not None:
                say(lines)
            else:
                out += lines
            if self.stuck is not None:
                break
            n += 1
        return out

    def error_text(self, e: EngineError) -> str:
        """A script's error as the person at the keyboard may read it: in full, unless it names
        a card their seat cannot see (by its number, `(card 9)`, or by a line of its definition,
        `cards/x.yaml:16`, when no card of that definition is in their sight); then only that a
        script failed. A designer (or bots alone) reads every error in full."""
        text = str(e)
        viewer = self.viewer()
        if viewer is None or not self._names_hidden_card(text, viewer):
            return text
        return ("a script failed, and what it says names a card you cannot see, so it is shown to a designer "
                "only (play the same seats and seed with --designer, or `summon sim`, to read it)")

    def _names_hidden_card(self, text: str, viewer: int) -> bool:
        """Whether an error's text names a card whose face the viewer does not see (true
        when the seat's view cannot be made: nothing can then be told safe)."""
        try:
            view = self.match.view(viewer)
        except EngineError:
            return True
        seen = [c for c in view["cards"] if "name" in c and isinstance(c.get("id"), int)]
        ids = {c["id"] for c in seen}
        if any(int(n) not in ids for n in re.findall(r"\(card (\d+)\)", text)):
            return True
        defs_seen = {c.get("def") for c in seen}
        for path, line in re.findall(r"(\S+\.ya?ml):(\d+)", text):
            here = [d for d in self.match.game.cards.values()
                    if (path.endswith(d.path) or d.path.endswith(path)) and d.line <= int(line)]
            if here and max(here, key=lambda d: d.line).id not in defs_seen:
                return True
        return False

    def _bot_pick(self, p: int) -> int:
        """Seat p's bot's answer; a script that fails as the bot looks ahead (in a fork or a
        sample of the match, or its evaluation) as _LookAheadFailed."""
        try:
            return self.bots[p](Ask(self.match))
        except EngineError as e:
            raise _LookAheadFailed(e) from None

    def _look_ahead_failed(self, p: int, e: EngineError) -> str:
        """What a person is told of a script that failed in seat p's bot's look-ahead. Its
        text may name a card of a world the bot imagined, its own hidden cards among them: in
        full for a designer (or bots alone) or the seat whose bot it is, and only that it failed
        for another seat at the keyboard."""
        kind = "script error" if isinstance(e, ScriptError) else "error"
        if self.viewer() in (None, p):   # (a seat's own bot imagines with what that seat sees)
            return (f"{kind} in P{p}'s bot's look-ahead, in a position it imagined (the cards it cannot see are "
                    f"dealt at random there: the card named may be elsewhere in the match): {e}")
        return (f"P{p}'s bot stopped: a script failed in a position its look-ahead imagined; what failed may "
                f"name cards you cannot see, so it is shown to a designer only (play the same seats and seed "
                f"with --designer, or `summon sim`, to read it)")

    def handle(self, line: str) -> str:
        """What the player typed: a command, or an answer (number, label, start of a label)."""
        text = line.strip()
        if not text:
            return ""
        name, _, rest = text.partition(" ")
        cmd = COMMANDS.get(name.lower())
        if cmd is not None and not self._is_option(text):
            try:
                return cmd.run(self, rest.strip())
            except Quit:
                raise
            except ScriptError as e:
                return f"script error: {self.error_text(e)}\n(the match stays at its last decision)"
            except EngineError as e:
                return f"error: {e}"
        if self.match.pending is None:
            return "the match is over; type quit, save FILE, undo, load FILE, or log, card, lua to look back (help lists all)"
        p = self.match.pending.player
        if not self.designer and not self.is_human(p):
            return f"P{p} is a bot: type bot to let it answer, or auto N (nobody answers for a bot)"
        try:
            idx = parse_answer(text, self.match.options())
        except IllegalAnswer as e:
            return str(e)
        warns = self.match.option_warnings()
        if idx < len(warns) and warns[idx] and self._confirming != (self.match.decisions, idx):
            self._confirming = (self.match.decisions, idx)
            return f"{warns[idx]}: answer {idx + 1} again to confirm, or choose another option"
        self._confirming = None
        try:
            out = self.answer(idx)
        except ScriptError as e:
            return f"script error: {self.error_text(e)}\n(the match stays at its last decision)"
        out += self.play_bots()
        return "\n".join(out)

    def is_command(self, line: str) -> bool:
        """Whether a line is one of the commands (not an answer to the question asked)."""
        text = line.strip()
        return COMMANDS.get(text.partition(" ")[0].lower()) is not None and not self._is_option(text)

    def _is_option(self, text: str) -> bool:
        return self.match.pending is not None and text.lower() in (o.lower() for o in self.match.options())

    # -- going back and forth -------------------------------------------------

    def rebuild(self, answers: list[str]) -> Match:
        """A fresh match of the same seed and seats with these answers (all of which were given before)."""
        return self.match.restarted(answers)[0]

    def reload(self) -> str:
        """Reloads the game from disk and replays the match; keeps the old match if that fails.
        After a divergence the later answers are kept, and a later reload that makes them
        fit again (the old rules restored) replays them too."""
        from engine.reload import reload_match

        own = len(self.match.answers)
        answers = self.kept_answers() or list(self.match.answers)
        edits = self.kept_edits if len(answers) > own else list(self.match.edits)
        kept_entries = self.kept_entries if len(answers) > own else []
        result = reload_match(self.match, answers, self.viewer(), edits)
        if result.match is None:
            return result.for_seat(self.viewer())
        self.match = result.match
        if result.diverged_at or len(answers) > own:
            # what undo took back went on from answers that no longer all happened, or
            # kept answers were replayed in its place
            self.redo_stack = []
        self.kept_log = answers if result.diverged_at else []
        self.kept_edits = edits if result.diverged_at else []
        dropped = [e for e in self.log if e.decision > self.match.decisions]
        self.trim_log()
        # kept answers the replay gave again come back to the log with what it said of them
        self.log += [e for e in kept_entries if own < e.decision <= self.match.decisions]
        self.kept_entries = (dropped + [e for e in kept_entries if e.decision > self.match.decisions]
                             if result.diverged_at else [])
        self._take_messages()
        return result.for_seat(self.viewer()) + "\n" + self.screen()

    def kept_answers(self) -> list[str]:
        """The answers a reload stopped short of, after the match's own, while they still go
        on from them (until someone answers at the decision where the replay stopped);
        [] when there are none."""
        answers = self.match.answers
        if len(self.kept_log) > len(answers) and self.kept_log[: len(answers)] == answers:
            return list(self.kept_log)
        return []

    def trim_log(self) -> None:
        """Drops the log's lines of decisions the match no longer has (taken back by undo, or
        by a reload or load that stopped short of them)."""
        self.log = [e for e in self.log if e.decision <= self.match.decisions]

    def undo_floor(self) -> tuple[int, str]:
        """The earliest decision undo may go back to, and why: in fair play, the last draw, roll
        or shuffle, the last card that came into the sight of the person at the keyboard, or the
        last answer a bot gave. A bot answers from what its seat sees, its hand and its face-down
        cards included, so what came of its answer told the person something: taking their own
        answer back past it would let them ask again knowing it (attack, see that no Gambit
        answers, undo, attack elsewhere)."""
        if self.designer:
            return (0, "")
        floor, why = self.match.last_chance(self.keyboard)
        askers = self.match.askers
        for i in range(len(askers) - 1, floor - 1, -1):
            if askers[i] != self.keyboard and not self.is_human(askers[i]):
                return i + 1, f"bot's answer (player {askers[i]})"
        return floor, why


# -- commands -------------------------------------------------------------------

@command("help", "[COMMAND]", help="list the commands, or say what one does")
def _help(s: Session, arg: str) -> str:
    import textwrap

    name = arg.strip().lower()
    if name and name not in COMMANDS:
        return f"no command '{arg.strip()}'{did_you_mean(name, COMMANDS)}; `help` lists them"
    chosen = [COMMANDS[name]] if name else list(COMMANDS.values())
    width = max(len(f"{c.name} {c.args}".strip()) for c in chosen)
    lines = [] if name else ["Answer with an option's number or label (Tab completes). Commands:"]
    for c in chosen:   # a long help goes on under its own column, within the screen's width
        lines += textwrap.wrap(c.help, s.COLUMNS, initial_indent=f"  {f'{c.name} {c.args}'.strip():<{width}}  ",
                               subsequent_indent=" " * (width + 4), break_long_words=False)
    return "\n".join(lines)


@command("options", help="show the question and its options again")
def _options(s: Session, arg: str) -> str:
    return s.options_text()


@command("board", help="show the board (when the game has one, with its paths on a map of locations), "
                        "the players and their cards in play")
def _board(s: Session, arg: str) -> str:
    board = s.match.game.data.get("board") or {}
    if board.get("type") != "graph":
        return s.screen()
    return s.screen() + "\n" + "\n".join(render_links(s.match.board_neighbors(), s.COLUMNS))


class _LookAheadFailed(Exception):
    """A script failed as a bot looked ahead (Session._bot_pick)."""

    def __init__(self, error: EngineError):
        super().__init__(str(error))
        self.error = error


@command("hand", help="the cards in your hand and other private zones")
def _hand(s: Session, arg: str) -> str:
    def of(p: int, view: dict) -> str:
        lines = [f"{name}: {', '.join(names) or 'empty'}" for name, names in private_zones(s.match, view, p, every=True)]
        return f"P{p}:\n  " + ("\n  ".join(lines) or "(no private zones)")
    if s.viewer() is None:   # a designer, or bots alone: every seat's
        view = s.match.view(None)
        return "\n".join(of(p, view) for p in range(1, len(s.match.seats) + 1))
    p = s.viewer()
    return of(p, s.match.view(p))


@command("card", "SPACE|#N|NAME", help="a card as it is now (on a space, or #N as a list shows it: stats, life, "
                                          "tokens, attachments, whose) or as printed")
def _card(s: Session, arg: str) -> str:
    if not arg:
        return ("usage: card SPACE, card #N or card NAME (a board space such as d5, a card as a list shows it "
                "such as #3 or ?3, or a card's name)")
    viewer = s.viewer()
    view = s.match.view(viewer)
    looks = Looks(s.match, view, viewer)
    here = _cards_at(s, view, arg)     # (a space first: a board's spaces may be numbers)
    if here is not None:
        shown = "\n".join(_card_now(s, looks, c, viewer) for c in here) or f"{arg.strip()}: nothing there"
        board = s.match.game.data.get("board") or {}
        if board.get("type") == "graph":   # a location: where its paths go
            links = sorted(s.match.board_neighbors().get(arg.strip().lower(), []))
            shown += f"\n  links to {', '.join(links) or 'nothing'}"
        return shown
    listed = _card_listed(view, arg)
    if listed is not None:
        return _card_now(s, looks, listed, viewer) if listed else f"no card {arg.strip()} in sight"
    cards = s.match.game.cards
    key = arg.lower()
    hits = [c for c in cards.values() if c.id == key or str(c.data.get("name", "")).lower() == key]
    if not hits:
        hits = [c for c in cards.values() if key in str(c.data.get("name", "")).lower() or key in c.id]
    if not hits:
        region = next((r for r in s.match.board_regions() if r.lower() == key.strip()), None)
        if region is not None:   # (a region names its spaces, which `card` shows one by one)
            return (f"{region} is a region of the board: {', '.join(s.match.board_spaces_in(region))} "
                    f"(card SPACE shows one)")
        by_lower = {str(c.data.get("name")).lower(): str(c.data.get("name")) for c in cards.values()}
        near = nearest(key, by_lower)
        return (f"no card called '{arg}' and no such space" +
                (f" (did you mean '{by_lower[near]}'?)" if near else ""))
    out = []
    seen_names: set[str] = set()
    for c in hits:
        name = str(c.data.get("name"))
        if name in seen_names:
            continue
        seen_names.add(name)
        out += printed_card(s.match.game, c)
        mine = [v for v in view["cards"] if v.get("def") == c.id and v.get("space")]
        for v in mine:
            out.append(f"  at {v['space']}: " + looks.describe(v, viewer))
        if len(seen_names) >= 6:
            break
    return "\n".join(out)


def _card_listed(view: dict, arg: str) -> dict | None:
    """The card of the viewer's view that a list names #N (or N; ?N for a face-down card the
    viewer cannot see): the card, {} when no such card is in sight, None when arg is no such name."""
    m = re.fullmatch(r"\s*(#?\d+|\?\d+)\s*", arg)
    if m is None:
        return None
    key = m.group(1)
    want: int | str = key if key.startswith("?") else whole(key.lstrip("#"))
    return next((c for c in view["cards"] if c["id"] == want), {})


def _place(c: dict) -> str:
    """Where a card of a view is: its space, or its zone as 'P1's field'."""
    if c.get("space"):
        return c["space"]
    zone, _, owner = str(c.get("zone", "")).partition(":")
    return f"P{owner}'s {zone}" if owner else zone


def _cards_at(s: Session, view: dict, arg: str) -> list[dict] | None:
    """The card the viewer sees on a board space named by arg (None: arg is no space)."""
    key = arg.strip().lower()
    if key not in s.match.board_spaces():    # (a region this match leaves out has no spaces on its board)
        return None
    cards = {c["id"]: c for c in view["cards"]}
    i = view["spaces"].get(key)
    return [cards[i]] if i in cards else []


def _face_down_text(s: Session, looks: Looks, c: dict) -> str:
    """", face down (...)": who besides its owner knows the card (shown it, or who saw it
    turned over), and what the rest see."""
    others = [p for p in range(1, len(s.match.seats) + 1) if p != c.get("owner")]
    knowing = [p for p in others if p in (c.get("seen_by") or [])]
    if others and knowing == others:
        return ", face down (known to all: it was shown to them" + looks.mark(c) + ")"
    who = f"known to {', '.join(f'P{p}' for p in knowing)}; " if knowing else ""
    return f", face down ({who}the others see a face-down card" + looks.mark(c) + ")"


def _card_now(s: Session, looks: Looks, c: dict, viewer: int | None) -> str:
    """A card on a space or in a zone as it is now, then its printed card."""
    place = _place(c)
    if "name" not in c:
        return f"{place}: a face-down card of {f'P{ctl(c)}' if ctl(c) else 'nobody'}" + looks.mark(c)
    owner = "" if c.get("owner") in (None, c.get("controller")) else f", owned by P{c['owner']}"
    mark = space_marks(s.match, looks.view).get(c["space"]) if c.get("space") else None
    lines = [f"{place}: " + looks.describe(c, viewer, mark) + owner
             + (_face_down_text(s, looks, c) if c.get("face_down") else "")]
    stats = looks.stats(c)
    if stats:
        lines.append("  now: " + ", ".join(f"{k} {_num(v)}" for k, v in stats.items()))
    d = s.match.game.cards.get(c.get("def"))
    if d is not None:
        lines += printed_card(s.match.game, d)
    return "\n".join(lines)


@command("legend", help="show or hide what the board's abbreviations and signs mean")
def _legend(s: Session, arg: str) -> str:
    s.show_legend = not s.show_legend
    return "\n".join(legend(s.match, s.match.view(s.viewer()), s.COLUMNS)) if s.show_legend else "legend hidden (legend shows it)"


@command("log", "[N]", help="the last N things that happened (default 20)")
def _log(s: Session, arg: str) -> str:
    if arg and not arg.isdecimal():
        return "usage: log [N] (the last N things that happened; N a whole number, 20 if left out)"
    n = whole(arg) if arg else 20
    return "\n".join(s.log_lines(n)) or "nothing yet"


def _undo_once(s: Session) -> int | str:
    """Takes back the person's last decision (a designer's: their last console change since
    the last answer, if any): 1, or why it cannot be."""
    answers, edits = list(s.match.answers), list(s.match.edits)
    if s.designer and edits and edits[-1].at == len(answers):
        s.match = s.match.restarted(answers, edits=edits[:-1])[0]
        s.redo_stack = s.redo_stack + [edits[-1]]
        s.kept_log, s.kept_entries, s.kept_edits = [], [], []
        s.moved_edits += 1
        return 1
    if not answers:
        return "nothing to undo"
    floor, why = s.undo_floor()
    askers = s.match.askers
    # go back to the previous decision a person made (with --designer, bots' answers are taken
    # back with it; in fair play undo_floor stops at them), and on past one where their only
    # option was taken for them (it would be taken again)
    target, m = len(answers), None
    while m is None or s.only_option(m):
        target -= 1
        while target >= 0 and not s.is_human(askers[target]):
            target -= 1
        if target < 0:
            return "nothing of yours to undo: only bots have answered so far" + (
                " (and your only options, taken for you)" if m is not None else "")
        if s.is_other_human(askers[target]):
            return (f"cannot undo decision {target + 1}: player {askers[target]} made it "
                    f"(in fair play you undo only your own decisions)")
        if target < floor:
            return (f"cannot undo past decision {floor}: a {why} happened after it "
                    f"(play with --designer to undo anything)")
        m = s.rebuild(answers[:target])
    # (the stack's end is the next to redo: what this undo took back comes before what
    # earlier undos took back; each console change after the answer it was made after)
    undone: list[str | Edit] = []
    for n in range(target, len(answers)):
        undone += [answers[n]] + [e for e in edits if e.at == n + 1]
    s.moved_edits += len(undone) - (len(answers) - target)
    s.redo_stack = s.redo_stack + undone[::-1]
    s.redo_owner = askers[target]   # (whose answer the stack's end is: only they may have it again)
    s.match = m
    # (the answers a reload kept went on from a decision undone now)
    s.kept_log, s.kept_entries, s.kept_edits = [], [], []
    s.trim_log()
    return 1


def _counted(s: Session, arg: str, usage: str, once: Callable[[Session], int | str],
             said: Callable[[int], str]) -> str:
    """`undo [N]` or `redo [N]`: `once` N times (1 when N is left out), each giving a count
    or why it cannot go on; what was done, and why it stopped short of N."""
    if arg and (not arg.isdecimal() or whole(arg) == 0):
        return usage
    n = whole(arg) if arg else 1
    done = total = s.moved_edits = 0
    while done < n:
        got = once(s)
        if isinstance(got, str):
            if done == 0:
                return got
            return f"{said(total)} ({done} of the {n} asked; then {got})\n" + s.screen()
        done, total = done + 1, total + got
    return said(total) + "\n" + s.screen()


@command("undo", "[N]", help="take back your last decision, or your last N (fair play: not past a draw, roll or "
                             "reveal; --designer: a console change counts as one)")
def _undo(s: Session, arg: str) -> str:
    return _counted(s, arg, "usage: undo [N] (your last decision, or your last N; N a whole number, 1 or more)",
                    _undo_once, lambda _: f"undone to decision {s.match.decisions}{_edits_moved(s, 'taken back')}")


def _edits_moved(s: Session, how: str) -> str:
    """What the running undo or redo did to console changes, for its message."""
    n = s.moved_edits
    return f" ({n} console change{'s' if n != 1 else ''} {how})" if n else ""


def _redo_once(s: Session) -> int | str:
    """Gives again the person's next answer that undo took back (and the bots' answers
    after it, up to the person's next real choice): how many answers, or why it cannot be."""
    if not s.redo_stack:
        return "nothing to redo"
    top = s.redo_stack[-1]
    if isinstance(top, Edit):   # a console change undo took back: made again where it was made, one a step
        if top.at != s.match.decisions:
            return "nothing to redo here (the console change undo took back was made at another decision)"
        _redo_edit(s)
        return 0
    owner = s.redo_owner   # (a designer redoes anyone's answer: undo took back anyone's)
    if (s.match.pending is None or (not s.designer and s.match.pending.player != owner)
            or s.redo_stack[-1] not in s.match.options()):
        # (a reload changed what is asked there; the answer is named only to whoever gave it)
        if s.viewer() not in (None, owner):
            return f"nothing to redo here (what undo took back was player {owner}'s, and it is not asked now)"
        offered = s.match.pending and (s.designer or s.match.pending.player == owner)
        return (f"nothing to redo here: the answer undo took back, {s.redo_stack[-1]!r}, is not "
                f"{'offered now' if offered else 'asked of you now'} "
                f"(a reload changed what is asked); it is kept, and redo gives it again where it fits")
    redone = 0
    while s.redo_stack and s.match.pending is not None:
        options = s.match.options()
        if s.redo_stack[-1] not in options:
            break
        forced = s.is_human(s.match.pending.player) and s.only_option()
        s.answer(options.index(s.redo_stack.pop()), forced=forced, redoing=True)   # (in the log as before)
        redone += 1
        _edits_again(s)
        if s.match.pending and s.is_human(s.match.pending.player) and not s.only_option():
            break
    return redone


def _edits_again(s: Session) -> None:
    """Makes again the console changes at the redo stack's end that were made at this decision."""
    while s.redo_stack and isinstance(s.redo_stack[-1], Edit) and s.redo_stack[-1].at == s.match.decisions:
        _redo_edit(s)


def _redo_edit(s: Session) -> None:
    """Makes again the console change at the redo stack's end; one that fails now stays there."""
    s.match.edit(s.redo_stack[-1].code)
    s.redo_stack.pop()
    s.moved_edits += 1


@command("redo", "[N]", help="give again an answer that undo took back, or the next N")
def _redo(s: Session, arg: str) -> str:
    return _counted(s, arg, "usage: redo [N] (your next answer undo took back, or the next N; N a whole number, "
                            "1 or more)", _redo_once,
                    lambda n: f"redone {n} decision{'s' if n != 1 else ''}{_edits_moved(s, 'made again')}" if n
                    else f"made again {s.moved_edits} console change{'s' if s.moved_edits != 1 else ''}")


@command("save", "FILE", help="save the match (game, seed, seats, answers) as JSON")
def _save(s: Session, arg: str) -> str:
    if not arg:
        return "usage: save FILE"
    kept = s.kept_answers()
    try:
        s.match.save(Path(arg).expanduser(), kept or None, s.kept_edits if kept else None)
    except OSError as e:
        return f"cannot save to {arg}: {e.strerror or e}"
    n = s.match.decisions
    out = f"saved {n} decision{'s' if n != 1 else ''} to {arg}"
    if kept:
        k = len(kept) - n
        out += (f", and the {k} later answer{'s' if k != 1 else ''} the reload kept (loaded, the match "
                f"stops at decision {n + 1} again, or goes on under rules they fit)")
    if not s.designer and len(s.humans()) > 1:
        out += ("\n(the file holds the seed and every answer, so every hidden card can be worked out "
                "from it: keep it from the other players)")
    return out


@command("load", "FILE", help="continue a saved match")
def _load(s: Session, arg: str) -> str:
    if not arg:
        return "usage: load FILE"
    from engine.reload import load_with_report

    try:
        data = read_save(Path(arg).expanduser())
        result = load_with_report(Path(arg).expanduser())
    except (SaveFileError, EngineError) as e:   # (the message names the file where it is about it)
        if isinstance(e, EditFailed) and s.viewer() is not None:
            return f"cannot load {arg}: {e.veiled}"
        return f"cannot load: {e}" if str(e).startswith(str(Path(arg).expanduser())) else f"cannot load {arg}: {e}"
    m = result.match
    s.kept_log = list(m.answers) + result.kept if result.diverged_at else []
    s.kept_edits = edits_of(data) if result.diverged_at else []
    s.kept_entries = []
    s.match = m
    s.redo_stack = []
    s.bots = bots_for(m, humans_too=True)
    if s.keyboard not in s.humans():   # (a save of other seats)
        s.keyboard = s.humans()[0] if s.humans() else None
    s.log = []   # (the loaded match's decisions are not this session's)
    s._take_messages()
    def said(seat: int | None) -> str:
        note = f"\n{result.for_seat(seat)}" if result.report else ""
        return f"loaded {arg}: {data['game']}, {m.decisions} decision{'s' if m.decisions != 1 else ''}{note}"
    s.loaded = said
    if len(s.humans()) > 1 and not s.designer:   # hot seat: no seat's screen before the handover
        return said(0)   # (what nobody's seat may read: whose decision a replay stopped at, not its answer)
    return said(s.viewer()) + "\n" + s.screen()


@command("seed", help="the match's seed (designer mode only)")
def _seed(s: Session, arg: str) -> str:
    if not s.designer:
        return "the seed is shown only in designer mode (with it, every hidden card can be worked out)"
    return f"seed {s.match.seed}"


@command("bot", help="let a bot answer this decision once")
def _bot(s: Session, arg: str) -> str:
    if s.match.pending is None:
        return "the match is over"
    if s.is_other_human(s.match.pending.player):
        return "this decision is another player's"
    p = s.match.pending.player
    try:
        out = s.answer(s._bot_pick(p))
    except _LookAheadFailed as e:   # (said as play_bots says it: a seat reads no card of it)
        s.stuck = str(e.error)
        return s._look_ahead_failed(p, e.error) + f"\n(the match stays at decision {s.match.decisions})"
    out += s.play_bots()
    return "\n".join(out)


@command("auto", "N", help="bots play the next N decisions, for every seat, then the bots' turns on to a person's")
def _auto(s: Session, arg: str) -> str:
    if not arg.isdecimal() or whole(arg) == 0:
        return "usage: auto N (a number of decisions, 1 or more)"
    out = s.play_bots(limit=whole(arg))
    if s.stuck is None:   # (an error stopped them: it is said once)
        out += s.play_bots()   # a bot's turn is never left half played for a person to answer
    return "\n".join(out + [s.screen()])


@command("lua", "CODE", help="evaluate Lua on your view of the match (`view`, `seat`, `defs`, `board`, `stat`); --designer: on the match itself (`state`, no `view`)")
def _lua(s: Session, arg: str) -> str:
    if not arg:
        return "usage: lua CODE, e.g. lua board.distance('a1', 'c3')"
    if not s.designer:
        # fair play: a throwaway copy of this seat's view; nothing reaches the match
        try:
            results = s.match.eval(arg, chunkname="lua", seat=s.viewer() or s.to_act())
        except ScriptError as e:
            rules = re.search(r"\(global '(state|cards|zones|counters|tokens|players|dice|rng|choose|say|emit)'\)", str(e))
            if rules is None:
                raise
            raise ScriptError(f"{e} (a seat's lua reads its own view, `view`, with `defs`, `options`, `board` and "
                              f"`stat`; `{rules.group(1)}` is the rules', for a designer: summon play --designer)") from None
        return _show_results(results)
    results, changed = s.match.edit(arg)
    text = _show_results(results)
    notes = []   # (prose after the value, broken between words: the value itself is shown as printed)
    if re.search(r"(?<![\w.])view(?!\w)", arg) and all(r is None for r in results):
        notes.append("(a designer's lua has no `view`, as nothing is hidden from a designer: `state` holds it all)")
    if changed:
        if s.kept_answers():   # (the later history a reload kept goes on from it, with this change)
            s.kept_edits = list(s.match.edits) + [e for e in s.kept_edits if e.at > s.match.decisions]
        s.redo_stack = []   # (what undo took back went on from the match as it was)
        notes.append(f"(a change to the match outside its answers, kept with them at decision "
                     f"{s.match.decisions + 1}: replays (undo, reload, a saved file) and the bots' look-ahead make "
                     f"it again there; undo takes it back)")
    return "\n".join([text] + [part for note in notes for part in _wrap(note, s.COLUMNS)])


def _show_results(results: list) -> str:
    text = "\n".join(r if isinstance(r, str) else json.dumps(r, indent=2, sort_keys=True) for r in results)
    return text or "(no result)"


@command("reload", help="load the game's rules and cards again and replay the match under them")
def _reload(s: Session, arg: str) -> str:
    return s.reload()


@command("quit", help="leave the session")
def _quit(s: Session, arg: str) -> str:
    raise Quit()


def completions(session: Session, text: str) -> list[str]:
    """What Tab offers for the text typed so far: commands, option labels, card names."""
    low = text.lower()
    if low.startswith("card "):
        part = low[5:]
        names = sorted({str(c.data.get("name")) for c in session.match.game.cards.values()})
        return ["card " + n for n in names if n.lower().startswith(part)]
    mine = not session.is_other_human(session.to_act())   # never complete another person's options
    out = [o for o in session.match.options() if mine and o.lower().startswith(low)]
    out += [c for c in COMMANDS if c.startswith(low)]
    return out
