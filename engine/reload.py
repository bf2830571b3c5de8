"""Hot reload: load a game's definitions again and replay a match's answers under them."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DefinitionError, EngineError, ScriptError
from .loader import load_game
from .match import Match, Seat, game_of_save, read_save


@dataclass
class ReloadResult:
    match: Match | None          # the match under the new rules, or None when the reload failed
    report: str                  # what to tell the designer
    diverged_at: int | None = None
    kept: list[str] = field(default_factory=list)   # answers after a divergence, kept for a later reload


def _changed_cards(old, new) -> list[str]:
    a, b = old.fingerprint(), new.fingerprint()
    names = []
    for cid in sorted(set(a) | set(b)):
        if a.get(cid) != b.get(cid):
            card = new.cards.get(cid) or old.cards.get(cid)
            verb = "added" if cid not in a else "removed" if cid not in b else "changed"
            names.append(f"{card.data.get('name', cid)} {verb}")
    return names


def _offered_text(offered: list[str]) -> str:
    return "\n".join(f"  {i}. {o}" for i, o in enumerate(offered, 1)) or "  (nothing: the match is over)"


def reload_match(match: Match, answers: list[str] | None = None) -> ReloadResult:
    """Reloads the match's game from disk and replays `answers` (default: the match's own).

    A game that no longer loads, or a script error during the replay, leaves the old
    match untouched. An answer that is no longer offered stops the replay there.
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
    before = match.state_hash()
    try:
        m, diverged = match.restarted(answers, game=game)
    except ScriptError as e:
        return ReloadResult(None, f"{failed}:\n{e}")
    except (DefinitionError, EngineError) as e:
        return ReloadResult(None, f"{failed}:\n{e}")
    took = f" in {(time.perf_counter() - started) * 1000:.0f} ms"
    changed = _changed_cards(old_game, game)
    what = f"{len(changed)} card{'s' if len(changed) != 1 else ''} changed ({', '.join(changed)})" if changed \
        else "no card changed (rules or scripts may have)"
    if diverged is None:
        state = "the state differs from before" if m.state_hash() != before else "the state is as before"
        return ReloadResult(m, f"reloaded{took}: {what}; replayed {len(answers)} decisions; {state}")
    n = diverged.number
    report = (f"reloaded{took}: {what}; the replay stopped at decision {n}: the answer "
              f"{diverged.answer!r} is not offered any more. Offered now:\n{_offered_text(diverged.offered)}\n"
              f"Continue from here by hand; the {len(answers) - n + 1} later answers are kept "
              f"and come back if a reload makes them fit again.")
    return ReloadResult(m, report, n, answers[n - 1:])


def load_with_report(path: Path, game=None) -> ReloadResult:
    """Loads a saved match even if the rules changed since: it stops at the first divergence."""
    data = read_save(path)
    game = game or game_of_save(data)
    m = Match(game, data["seed"], [Seat.parse(s) for s in data["seats"]], options=data.get("options"))
    diverged = m.replay(data["answers"])
    m.messages()
    if diverged is None:
        return ReloadResult(m, "")
    n = diverged.number
    return ReloadResult(m, f"decision {n}: the saved answer {diverged.answer!r} is not offered under the "
                           f"current rules; offered now:\n{_offered_text(diverged.offered)}\n"
                           f"Continue from here by hand.", n, data["answers"][n - 1:])
