"""Hot reload: load a game's definitions again and replay a match's answers under them."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import yamlio
from .check import old_calls, script_problems
from .errors import DefinitionError, EditFailed, EngineError
from .loader import display, load_game
from .luac import first_line
from .match import Edit, Match, Seat, edits_of, game_of_save, read_save, saved_match
from .options import check_options, shown


@dataclass
class ReloadResult:
    match: Match | None          # the match under the new rules, or None when the reload failed
    report: str                  # what to tell the designer
    diverged_at: int | None = None
    kept: list[str] = field(default_factory=list)   # answers after a divergence, kept for a later reload
    asker: int | None = None     # whose answer the replay stopped at (None: not known)
    veiled: str = ""             # the report without that decision's answer and options
    now: int | None = None       # whose decision it is there under the new rules (its options are listed)
    own: str = ""                # for the asker when `now` is another seat: their answer, not its options
    designers: bool = False      # the report is for a designer's eyes only (`veiled` for a seat's)

    def shows(self, viewer: int | None) -> bool:
        """Whether a seat's eyes may read the report in full (None: a designer's, who sees
        everything; 0: nobody's seat, as in hot seat before the keyboard is passed). A stop at
        another seat's answer, or at an answer whose seat is not known, is not for them: the
        answer and what is offered now can name that seat's hidden cards (a hand, a card it
        played face down), and nor are the options now offered there to another seat."""
        return viewer is None or (not self.designers and (self.diverged_at is None or (
            self.asker is not None and self.asker == viewer and self.now in (None, viewer))))

    def for_seat(self, viewer: int | None) -> str:
        """The report for a seat's eyes: in full, or naming only whose decision stopped the replay
        (with the asker's own answer for the asker, where another seat is asked there now)."""
        if self.shows(viewer):
            return self.report
        return self.own if self.own and viewer is not None and viewer == self.asker else self.veiled


def _changed_cards(old, new) -> list[str]:
    """What a reload changed, per card: `Frost Mage: cost 1 -> 0` (cards that only moved
    within their file are left out)."""
    a, b = old.fingerprint(), new.fingerprint()
    out = []
    for cid in sorted(set(a) | set(b)):
        if a.get(cid) == b.get(cid):
            continue
        if cid not in a or cid not in b:
            card = new.cards.get(cid) or old.cards.get(cid)
            out.append(f"{card.data.get('name', cid)} {'added' if cid not in a else 'removed'}")
            continue
        was, now = old.cards[cid], new.cards[cid]
        changes = [f"{k} {_short(was.data.get(k))} -> {_short(now.data.get(k))}"
                   for k in sorted(set(was.data) | set(now.data), key=str) if was.data.get(k) != now.data.get(k)]
        s1, s2 = was.scripts(), now.scripts()
        for where in sorted(set(s1) | set(s2)):
            if s1.get(where) != s2.get(where):
                verb = "added" if where not in s1 else "removed" if where not in s2 else "changed"
                changes.append(f"its {where} script {verb}")
        out.append(f"{now.data.get('name', cid)}: {', '.join(changes)}")
    return out


def _sources(game) -> set[tuple[str, str]]:
    out = {(s.chunkname, s.source) for s in game.scripts}
    out |= {(s.chunkname, s.source) for c in game.cards.values() for s in c.lua}
    return out | ({(game.evaluator.chunkname, game.evaluator.source)} if game.evaluator else set())


def _new_scripts(old, new):
    """Which scripts a reload checks statically: those new or changed since the old rules,
    or all of them when game.yaml or a rules script changed (what every script may see)."""
    if _changed_rules(old, new):
        return None
    seen = _sources(old)
    return lambda src: (src.chunkname, src.source) not in seen


def _changed_rules(old, new) -> list[str]:
    """The game's own files a reload changed: game.yaml and rule scripts, by name."""
    out = ["game.yaml"] if old.data != new.data else []
    s1 = {s.chunkname: first_line(s.source)[1] for s in old.scripts}
    s2 = {s.chunkname: first_line(s.source)[1] for s in new.scripts}
    return out + [Path(name).name for name in sorted(set(s1) | set(s2)) if s1.get(name) != s2.get(name)]


def _option_place(game, key: str) -> str:
    """game.yaml:LINE of the option's entry under `options:` (of `options:` itself when the
    entry is gone; the file alone when it does not load)."""
    path = Path(game.root) / "game.yaml"
    doc, _ = yamlio.load(path, display(path))
    if doc is None:
        return str(path)
    line, _col = doc.key_positions.get(("options", key)) or doc.where(("options",))
    return f"{doc.path}:{line}"


def _short(value, width: int = 40) -> str:
    """A field's value as a designer wrote it, cut to `width` characters; 'none' when absent."""
    if value is None:
        return "none"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True) if isinstance(value, (dict, list)) else str(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def _offered_text(offered: list[str]) -> str:
    return "\n".join(f"  {i}. {o}" for i, o in enumerate(offered, 1)) or "  (nothing: the match is over)"


def reload_match(match: Match, answers: list[str] | None = None, viewer: int | None = None,
                 edits: list[Edit] | None = None) -> ReloadResult:
    """Reloads the match's game from disk and replays `answers` (default: the match's own),
    making the designer's changes (`edits`, default the match's own) again where they were made.

    A game that no longer loads, a script error during the replay, or a stat whose
    modifiers fail on a card of `viewer`'s screen (None: a designer's) leaves the old match
    untouched. An answer that is no longer offered stops the replay there.
    """
    started = time.perf_counter()
    answers = list(match.answers if answers is None else answers)
    old_game = match.game
    failed = "reload failed; the match goes on under the old rules"
    try:
        game = load_game(str(old_game.root), old_game.extra_cards)
    except DefinitionError as e:
        return ReloadResult(None, f"{failed}:\n{e}")
    except EngineError as e:
        return ReloadResult(None, f"{failed}: {e}")
    for key, value in (match.game_options or {}).items():
        try:
            check_options(game, {key: value})
        except EngineError as e:
            return ReloadResult(None, f"{failed}:\n{_option_place(game, key)}: {e}: this match was set up with "
                                      f"{key}={shown(value)} (by --option, and a save keeps it), which only a "
                                      f"new match can change")
    before = match.state_hash()
    try:
        m, diverged = match.restarted(answers, game=game, edits=edits)
        # (a state the new rules leave that cannot be encoded stops here, not in the session)
        after = m.state_hash()
        shapes = m.script_shapes()
        # a modifier that fails now would fail when the card is next used, and the screen
        # would show the printed value as if nothing were wrong
        broken = m.stat_failures(viewer)
    except EditFailed as e:
        return ReloadResult(None, f"{failed}:\n{e}", veiled=f"{failed}: {e.veiled}", designers=True)
    except (DefinitionError, EngineError) as e:
        return ReloadResult(None, f"{failed}:\n{e}")
    static = old_calls(game) or script_problems(game, shapes, _new_scripts(old_game, game))
    if static:   # what `summon check` finds would fail later in the match: refuse it now
        return ReloadResult(None, f"{failed}:\n" + "\n".join(str(p) for p in sorted(set(static))))
    if broken:
        return ReloadResult(None, f"{failed}:\n" + "\n".join(broken))
    took = f" in {(time.perf_counter() - started) * 1000:.0f} ms"
    changed = _changed_cards(old_game, game)
    what = f"{len(changed)} card{'s' if len(changed) != 1 else ''} changed ({'; '.join(changed)})" if changed \
        else "no card changed"
    rules = _changed_rules(old_game, game)
    what += f"; {', '.join(rules)} changed" if rules else ""
    if diverged is None:
        state = "the state differs from before" if after != before else "the state is as before"
        replayed = f"{len(answers)} decision{'s' if len(answers) != 1 else ''}"
        if m.edits:
            replayed += f" and {len(m.edits)} console change{'s' if len(m.edits) != 1 else ''}"
        return ReloadResult(m, f"reloaded{took}: {what}; replayed {replayed}; {state}")
    n = diverged.number
    head = f"reloaded{took}: {what}; the replay stopped at decision {n}"
    tail = (f"Continue from here by hand; the {len(answers) - n + 1} later answers are kept, and come back "
            f"if a reload makes them fit again before anyone answers here.")
    # whose answer it was: the old match's asker (the new rules may ask another seat there,
    # or none); not known for an answer the match no longer had (one a reload kept)
    asker = match.askers[n - 1] if n - 1 < len(match.askers) and match.decisions == len(match.askers) else None
    return _stopped(m, diverged, answers[n - 1:], asker, head, "the answer", "is not offered any more", tail)


def _stopped(m: Match, diverged, kept: list[str], asker: int | None, head: str, which: str, why: str,
             tail: str) -> ReloadResult:
    """The result of a replay that stopped at `diverged`, with its report in full (the answer
    and what is offered now) and veiled for every seat but `asker`, whose answer it was
    (None: not known, so veiled for every seat)."""
    now = m.pending.player if m.pending is not None else None
    full = (f"{head}: {which} {diverged.answer!r} {why}. Offered now"
            f"{f' to player {now}' if now is not None and now != asker else ''}:\n"
            f"{_offered_text(diverged.offered)}\n{tail}")
    if asker is None:
        whose = (f": {which} {why} (what it was and what is offered now are shown to a designer only: it may "
                 f"have been another seat's)")
    elif now not in (None, asker):   # (the new rules ask another seat there: its options are its own)
        whose = (f", one of player {asker}'s: {which} {why} (what it was is for player {asker}'s eyes; the "
                 f"decision there is player {now}'s now, and what it offers them, for theirs)")
    else:
        whose = (f", one of player {asker}'s: {which} {why} (what it was and what is offered now are for "
                 f"player {asker}'s eyes)")
    own = (f"{head}, one of yours: {which} {diverged.answer!r} {why}; the decision there is player {now}'s now."
           f"\n{tail}" if asker is not None and now not in (None, asker) else "")
    return ReloadResult(m, full, diverged.number, kept, asker, f"{head}{whose}.\n{tail}", now, own)


def load_with_report(path: Path, game=None) -> ReloadResult:
    """Loads a saved match even if the rules changed since: it stops at the first divergence."""
    data = read_save(path)
    game = game or game_of_save(data)
    m = saved_match(path, data, game)
    diverged = m.replay(data["answers"], edits=edits_of(data))
    m.messages()
    if diverged is None:
        return ReloadResult(m, "")
    n = diverged.number
    # (a save holds no askers: whose answer it was under the old rules is not known)
    return _stopped(m, diverged, data["answers"][n - 1:], None, f"the replay stopped at decision {n}",
                    "the saved answer", "is not offered under the current rules", "Continue from here by hand.")
