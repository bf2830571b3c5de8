"""The `summon` command line. It parses arguments and prints; the engine does the rest."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from engine import loader
from engine.errors import DefinitionError, Divergence, EngineError, SaveFileError
from engine.files import FileRefused, resolved, write_whole
from engine.match import (Match, Seat, check_options, check_seats, edits_of, game_of_save, load_match, parse_options,
                          read_save)


def _seats(text: str | None, game, default: str = "bot") -> list[Seat]:
    if text:
        seats = [Seat.parse(s) for s in text.split(",") if s.strip()]
        return [Seat(s.controller, loader.set_of_file(game, Path(s.set))) if _is_file(s.set) else s for s in seats]
    n = game.data["players"].get("default", game.data["players"]["min"])
    return [Seat(default) for _ in range(n)]


def _is_file(set_id: str | None) -> bool:
    """Whether a seat's card set is given as a file (a deck list: human:my_deck.yaml)."""
    return bool(set_id) and set_id.endswith((".yaml", ".yml"))


def _load_for_seats(game_id: str, players: str | None):
    """The game, with the card or deck files the seats name (human:my_deck.yaml) loaded too."""
    files: list[Path] = []
    for spec in (players or "").split(","):
        set_id = Seat.parse(spec).set if spec.strip() else None
        if not _is_file(set_id):
            continue
        try:
            real = resolved(set_id)
        except FileRefused as e:
            raise EngineError(f"{set_id}: {e}") from None
        if real not in [f.resolve() for f in files]:
            files.append(Path(set_id))
    try:
        return loader.load_game(game_id, extra_cards=files)
    except DefinitionError as e:
        found = _deck_of_another_game(game_id, files)
        if found is None:
            raise
        raise EngineError(f"{e}\n{_not_its_game(game_id, found)}: summon play {found[1]} --players {players}") \
            from None


def _deck_of_another_game(game_id: str, files: list[Path]) -> tuple[Path, str] | None:
    """(a deck file, the game it was written for) when the file names cards this game has not
    and one other game has every one of them."""
    from engine.check import deck_cards, games_holding

    for f in files:
        wanted = deck_cards(f)
        if not wanted:
            continue
        fits = games_holding(wanted)
        if len(fits) == 1 and fits[0] != Path(game_id).name:
            return f, fits[0]
    return None


def _not_its_game(game_id: str, found: tuple[Path, str]) -> str:
    return f"{loader.display(found[0])} names cards of {found[1]}, which {Path(game_id).name} has not"


def _describe_game(gid: str) -> list[str]:
    """Lines for `summon list`: a game's name and player count, then its card sets."""
    try:
        g = loader.load_game(gid)
    except EngineError as e:
        return [f"{gid}  (does not load: {str(e).splitlines()[0]})"]
    return [_game_line(g)] + [f"    {_set_line(s)}" for _, s in sorted(g.sets.items())]


def _game_line(g: loader.GameDef) -> str:
    """`id  Name, N players`."""
    pl = g.data["players"]
    count = f"{pl['min']}" if pl["min"] == pl["max"] else f"{pl['min']}-{pl['max']}"
    return f"{g.id}  {g.name}, {count} players"


def _deck_list(s: loader.SetDef) -> list | None:
    """A set's deck list (a deck drawn from other sets' cards), or None for a set of its own cards."""
    deck = s.data.get("deck")
    return deck if isinstance(deck, list) and not s.card_ids else None


def _set_line(s: loader.SetDef, pool: bool = False) -> str:
    """`id  Name (N cards)`, a deck list's size counting copies."""
    deck = _deck_list(s)
    if deck is not None:
        n = sum(e.get("copies", 1) for e in deck)
        return f"{s.id}  {s.name} (a deck of {n} card{'s' if n != 1 else ''})"
    n = len(s.card_ids)
    return f"{s.id}  {s.name} ({n} card{'s' if n != 1 else ''}{'; a pool that decks draw on' if pool else ''})"


def _describe_folder(folder: loader.GameFolder, winners: dict[str, Path]) -> list[str]:
    """Lines for `summon list`: a games folder, then each game in it (or what hides it)."""
    lines = [f"{folder.root}  ({folder.origin})"]
    games = loader.list_games(folder.root)
    if not folder.root.is_dir():
        lines.append("  no such folder")
    elif not games:
        lines.append("  no games here (looked for rules/<game>/game.yaml)")
    for gid, rules_dir in games.items():
        if winners[gid] != rules_dir:
            lines.append(f"  {gid}  hidden by the one in {winners[gid].parent.parent}")
            continue
        lines += ["  " + line for line in _describe_game(gid)]
    return lines


def _list_cards(game_id: str, set_id: str | None) -> int:
    """`summon list GAME [SET]`: every card of each of the game's sets (or of one), as
    printed, under its id (what deck files and scenarios name), and each deck's list."""
    import textwrap

    from engine.names import did_you_mean
    from .render import printed_card

    g = loader.load_game(game_id)
    every = {**g.sets, **g.pools}
    if set_id is not None and set_id not in every:
        raise EngineError(f"{g.id} has no card set '{set_id}'{did_you_mean(set_id, every)}; "
                          f"sets: {', '.join(sorted(every))}")
    lines = [_game_line(g)]
    for sid in sorted(every) if set_id is None else [set_id]:
        s = every[sid]
        lines.append(f"  {_set_line(s, pool=sid in g.pools)}")
        deck = _deck_list(s)
        if deck is not None:
            listed = ", ".join(f"{e.get('copies', 1)}\u00a0{e['card']}" for e in deck)   # (no break within one)
            lines += [line.replace("\u00a0", " ") for line in
                      textwrap.wrap(listed, 100, initial_indent="    ", subsequent_indent="    ")]
        for cid in s.card_ids:
            c = g.cards[cid]
            head, *rest = printed_card(g, c, head=f"{cid}  {c.data.get('name')}", copies=True)
            lines.append(f"    {head}")
            for r in rest:
                lines += textwrap.wrap(r.strip(), 96, initial_indent="      ", subsequent_indent="      ")
    print("\n".join(lines))
    return 0


def cmd_list(args) -> int:
    if args.game:
        return _list_cards(args.game, args.set)
    folders = loader.folders()
    winners = loader.list_games()
    blocks = ["\n".join(_describe_folder(f, winners)) for f in folders]
    if blocks:
        print("\n\n".join(blocks))
    if not winners:
        print("no games found: set SUMMON_PATH to folders holding rules/<game>/game.yaml, "
              "or run summon where rules/ is")
        return 1
    return 0


def cmd_check(args) -> int:
    from engine.check import check, notes

    targets = args.paths or list(loader.list_games())
    problems = []
    field_notes = []
    for t in targets:
        found = check(t, args.game)
        problems += found
        if not found:
            for n in notes(t, args.game):
                print(n)
        else:   # (a misspelt field read as nil may be what failed)
            field_notes += notes(t, args.game, fields_only=True)
    if _print_problems(problems):
        for n in field_notes:
            print(n)
        files = [Path(t) for t in targets if Path(t).is_file()]
        found = _deck_of_another_game(args.game, files) if args.game and files else None
        if found:     # (--game named a game without the deck's cards)
            print(f"{_not_its_game(args.game, found)}: summon check --game {found[1]} {found[0]}")
        return 1
    print(f"ok: {', '.join(targets)}")
    return 0


def _print_problems(problems) -> bool:
    """Prints each problem once, in order, and how many; whether there were any."""
    for p in sorted(set(problems)):
        print(p)
    if problems:
        n = len(set(problems))
        print(f"{n} problem{'s' if n != 1 else ''} found")
    return bool(problems)


def cmd_deck(args) -> int:
    from engine.check import deck_summary

    game, lines, problems = deck_summary(args.file, args.game)
    for line in lines:
        print(line)
    if _print_problems(problems):
        found = _deck_of_another_game(game, [Path(args.file)]) if game else None
        if found:     # (--game named a game without its cards)
            print(f"{_not_its_game(game, found)}: summon deck check --game {found[1]} {args.file}")
        return 1
    print(f"ok: a legal {game} deck; play it with --players human:{args.file},bot")
    return 0


def cmd_new(args) -> int:
    from .scaffold import new_game, new_set

    if args.new_command == "game":
        written = new_game(args.id, Path(args.dir))
        rules = loader.display(written[0].parent.parent.parent / "rules" / args.id)
        follow = (f"summon check {args.id}\n  summon test {args.id}\n  summon sim {args.id} --games 20\n"
                  f"  summon play {args.id} --players human,bot")
        if Path(args.dir).resolve() != Path.cwd().resolve():
            follow = f"(from {args.dir}, or with SUMMON_PATH={args.dir})\n  " + follow
    else:
        written = new_set(args.game, args.id)
        rules = None
        follow = f"summon check {args.game}\n  summon test {_from_here(written[1])}"
    for path in written:
        print(f"wrote {_from_here(path)}")
    if rules:
        print(f"a small working game to change from: {rules}/README.md says what it is")
    print(f"next:\n  {follow}")
    return 0


def _from_here(path: Path) -> Path:
    """A file as the user can open it from the current folder: relative to it when inside it,
    else whole (loader.display may name it from its games folder, which is not where one is)."""
    path, here = path.resolve(), Path.cwd().resolve()
    return path.relative_to(here) if path.is_relative_to(here) else path


def cmd_schema(args) -> int:
    from engine.check import card_schema_text

    text = card_schema_text(args.game)
    if args.write:
        rules_dir, _ = loader.resolve(args.game)
        target = rules_dir / "cards.schema.json"
        try:
            write_whole(target, text)
        except OSError as e:
            raise EngineError(f"cannot write {loader.display(target)}: {e.strerror or e}") from None
        print(f"wrote {loader.display(target)}")
    else:
        print(text, end="")
    return 0


def cmd_docs(args) -> int:
    from engine import docs

    files = docs.generated(only_documented=args.check)
    if args.check:
        stale = docs.stale(files)
        for path in stale:
            print(f"{loader.display(path)} is stale: run `summon docs`")
        return 1 if stale else 0
    for path in docs.write(files):
        print(f"wrote {loader.display(path)}")
    return 0


def cmd_sim(args) -> int:
    from engine.backends import open_backend
    from engine.lab import cards_out_of_play, parse_vary, variations
    from engine.match import assign_sets
    from engine.sim import check_bot_seats, check_precision, check_run, simulate
    from repl import report
    from repl.progress import ProgressBar

    game = _load_for_seats(args.game, args.players)
    seats = check_seats(_seats(args.players, game, "random"))
    check_bot_seats(seats)
    options = check_options(game, parse_options(args.option))
    check_run(args.games, args.seed, args.jobs, args.max_decisions)
    check_precision(args.precision)
    seated = assign_sets(game, seats)
    vary = parse_vary(args.vary)
    plans = variations(game, options, vary)
    for card_id in cards_out_of_play(game, seated, vary):
        sets = ", ".join(dict.fromkeys(s.set for s in seated))
        print(f"warning: --vary: no seat plays '{card_id}' (it is in the set {game.cards[card_id].set_id}; "
              f"the seats play {sets}), so its change reaches no game", file=sys.stderr)
    if (args.swap or args.precision is not None) and len(seats) > 1 and args.games % len(seats):
        even = args.games - args.games % len(seats)
        flag = "--swap" if args.swap else "--precision"
        print(f"warning: {flag}: {args.games} games do not go evenly round {len(seats)} seats, so some entrants "
              f"sit in some seats once more than in others{' if every game is played' if args.precision else ''}; "
              f"{even or len(seats)} or {even + len(seats)} games would not", file=sys.stderr)
    if args.report:
        report.check_charts_available()
        report.make_folder(Path(args.report))
    runs = []
    backend = open_backend(args.backend, game, args.jobs, args.games, args.address)
    try:
        for k, plan in enumerate(plans):
            bar = ProgressBar(quiet=args.quiet, label=f"{plan.label()} ({k + 1}/{len(plans)})" if vary else "",
                              at_most=args.precision is not None)
            try:
                out = simulate(game, seats, args.games, args.seed, jobs=args.jobs, max_decisions=args.max_decisions,
                               options=plan.options, swap=args.swap, cards=plan.cards, precision=args.precision,
                               backend=backend, progress=bar)
            finally:
                bar.close()
            if vary:
                out["variation"] = plan.to_json()
            runs.append(out)
    finally:
        backend.close()
    files = report.write_report(Path(args.report), runs) if args.report else []
    if args.json:
        if vary:
            print(json.dumps({"game": game.id, "seed": args.seed, "vary": dict(vary), "runs": runs}, sort_keys=True))
        else:
            print(json.dumps(runs[0], sort_keys=True))
        return 0
    if not vary:
        _print_run(runs[0])
    else:
        first = runs[0]
        swapped = ", seats swapped from game to game" if first["swap"] else ""
        print(f"{first['game']}: {_count(len(runs), 'run')} from seed {first['seed']}{swapped}, "
              f"the same seeds in each")
    print()
    for line in report.table_lines(runs):
        print(line)
    if files:
        print(f"\nreport: {', '.join(str(f) for f in files)}")
    return 0


def _print_run(out: dict) -> None:
    """The lines `summon sim` has always printed for a run: wins, draws, the first player's wins, speed, bots."""
    swapped = ", seats swapped from game to game" if out["swap"] else ""
    print(f"{out['game']}: {out['finished']}/{out['games']} games finished, seed {out['seed']}{swapped}")
    for k, v in out["wins"].items():
        print(f"  {k}: {v} wins")
    if out["draws"]:
        print(f"  draws: {out['draws']}")
    decided = out["finished"] - out["draws"]
    if decided:
        print(f"  the player who moved first won {out['first_player_wins']} of {decided}")
    rate = out["decisions"] / out["seconds"] if out["seconds"] else 0
    print(f"  {out['decisions']} decisions in {out['seconds']:.2f} s ({rate:,.0f} per second)")
    for b in out["bots"]:
        if b["bot"] != "random" and b["decisions"]:
            print(f"  {b['entrant']}: {b['bot']} took {b['ms_per_decision']:,.1f} ms a decision "
                  f"({b['decisions']} decisions)")


def _precision(text: str) -> float:
    """--precision's value: a number (the range is checked with the other arguments)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number such as 0.03, not {text!r}") from None


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _bench_value(key: str, out: dict) -> str:
    """A figure of `summon bench` in words, with what it was measured on."""
    v = out[key]
    if key == "decisions_per_s_one_process":
        return (f"{v:,.0f} decisions/s ({_count(out['games'], 'game')} from seed {out['seed']}, "
                f"as `summon sim --jobs 1`)")
    if key == "decisions_per_s_all_cores":
        return f"{v:,.0f} decisions/s ({out['cores']} processes)"
    if key == "match_start_ms":
        return (f"{v:.2f} ms median (best {out['match_start_ms_best']:.2f} ms of {out['match_start_samples']}); "
                f"{out['match_start_beside_ms']:.2f} ms in a used runtime, as in `summon sim`")
    if key == "fork_us":
        if v is None:
            return "not available (Match has no fork yet)"
        sample = "" if out.get("sample_us") is None else f"; a bot's sample {out['sample_us']:,.1f} µs"
        along = ("" if out.get("fork_us_positions") is None else
                 f"; {out['fork_us_positions']:,.1f} µs at the median of {out['fork_positions']} positions "
                 f"of that game")
        return (f"{v:,.1f} µs median at decision {out['fork_at_decision']} "
                f"(best {out['fork_us_best']:,.1f} µs of {out['fork_samples']}){sample}{along}")
    if key == "memory_per_match_mb":
        return (f"{v:.3f} MB ({out['memory_matches']} live matches at decision {out['memory_at_decision']:.0f} "
                f"on average; growth of {out['memory_source']} / {out['memory_matches']}); "
                f"{out['memory_per_match_beside_mb']:.3f} MB each when they share one runtime")
    if key == "budget_cost":
        return (f"{v:.1%} of the time (with the step budget {out['budget_on_decisions_per_s']:,.0f} decisions/s, "
                f"without {out['budget_off_decisions_per_s']:,.0f}; each game's best of {out['rounds']})")
    if key == "host_vs_lua_ratio":
        return (f"{v:.2f} times the time per decision (host {out['host_decisions_per_s']:,.0f} decisions/s, "
                f"pure Lua {out['lua_decisions_per_s']:,.0f}; {_count(out['comparison_games'], 'game')}, "
                f"each game's best of {out['rounds']})")
    if key == "reload_ms":
        from engine.bench import RELOAD_AT, SEEDS_TRIED

        short = f", the longest of {SEEDS_TRIED} games" if out["reload_at_decision"] < RELOAD_AT else ""
        return (f"{v:.0f} ms median at decision {out['reload_at_decision']}{short} "
                f"(best {out['reload_ms_best']:.0f} ms)")
    raise KeyError(key)


BENCH_LABELS = {
    "decisions_per_s_one_process": "speed, one process",
    "decisions_per_s_all_cores": "speed, every core",
    "match_start_ms": "match start",
    "fork_us": "fork",
    "memory_per_match_mb": "memory per live match",
    "budget_cost": "step budget cost",
    "host_vs_lua_ratio": "host / pure Lua",
    "reload_ms": "hot reload",
}


def _bench_goal(key: str, out: dict) -> str:
    from engine import bench

    if key not in bench.GOALS:
        return ""
    goal = bench.GOALS[key][1]
    words = {"decisions_per_s_one_process": f"aim {goal:,.0f}", "fork_us": f"goal under {goal:g} µs",
             "memory_per_match_mb": f"goal under {goal:g} MB", "budget_cost": f"goal under {goal:.0%}",
             "reload_ms": f"goal under {goal:g} ms", "host_vs_lua_ratio": f"goal {goal:g} or less"}[key]
    met = out["met"][key] if "met" in out else bench.met(out)[key]
    verdict = "" if met is None else ": met" if met else ": not met"
    return f"  [{words}{verdict}]"


def cmd_bench(args) -> int:
    from engine import bench

    def show(key: str, out: dict) -> None:
        if key == bench.FIGURES[0]:
            print(f"{out['game']}: {_count(out['games'], 'game')} from seed {out['seed']}, comparisons best of "
                  f"{_count(out['rounds'], 'round')}; times by {out['clock']}")
        print(f"{BENCH_LABELS[key] + ':':<24}{_bench_value(key, out)}{_bench_goal(key, out)}", flush=True)

    out = bench.run(args.game, games=args.games, seed=args.seed, rounds=args.rounds,
                    progress=None if args.json else show)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


def cmd_play(args) -> int:
    if args.load:
        from engine.reload import load_with_report

        data = read_save(Path(args.load))
        try:
            game = game_of_save(data) if args.game is None else loader.load_game(args.game)
        except EngineError as e:   # (the save's game: the save is named; --game's: it names itself)
            raise _naming_save(args.load, e) if args.game is None else e from None
        if game.id != data["game"]:   # (a folder of the same game, a copy being changed, is fine)
            raise EngineError(f"{args.load} is a match of {data['game']}, not {game.id}: leave the game out "
                              f"(summon play --load {args.load}) to play it with its own game")
        try:
            result = load_with_report(Path(args.load), game)
        except EngineError as e:
            raise _naming_save(args.load, e) from None
        match = result.match
        humans = [i + 1 for i, s in enumerate(match.seats) if s.controller == "human"]
        # whose eyes read what stopped the replay: a designer's or a bot game's see everything;
        # in hot seat nobody's yet (the keyboard has not been passed)
        viewer = None if args.designer or not humans else humans[0] if len(humans) == 1 else 0
        if result.diverged_at is not None and not _is_interactive(match):
            # nobody at a terminal to go on by hand: bots or a pipe would play on from the wrong place
            line = (_divergence_line(result.diverged_at, result.kept[0], match.options())
                    if result.shows(viewer) else result.for_seat(viewer).splitlines()[0].rstrip("."))
            print(f"error: {args.load}: {line}; the match stops there (load it at a terminal with a "
                  f"human seat to go on by hand)", file=sys.stderr)
            return 1
        if result.report:
            print(result.for_seat(viewer))
        kept = result.kept if result.diverged_at is not None else None
        kept_edits = edits_of(data) if kept is not None else None
    else:
        if args.game is None:
            raise EngineError("name a game to play (summon list shows them), or give --load FILE")
        game = _load_for_seats(args.game, args.players)
        seats = check_seats(_seats(args.players, game))
        seed = random_seed() if args.seed is None else args.seed
        match = Match(game, seed, seats, options=parse_options(args.option))
        kept = kept_edits = None
        if args.seed is None and args.designer:
            print(f"seed {seed} (picked at random)")
    if _is_interactive(match):
        from repl.app import play_interactive

        status = play_interactive(match, designer=args.designer, watch=args.watch, kept=kept,
                                  kept_edits=kept_edits)
    else:
        from repl.plain import play_plain

        status = play_plain(match, designer=args.designer, watch=args.watch, kept=kept, kept_edits=kept_edits)
    if not args.load and args.seed is None:
        # said at the end, not the start: with the seed, every hidden card can be worked out
        print(f"this match was seed {seed}: `summon play {args.game} --seed {seed}` with the same "
              f"players deals it again")
    return status


def random_seed() -> int:
    """A seed from the operating system's entropy (for a match the player did not seed), of
    63 bits: with fewer, a player could try every seed offline until one deals the cards
    they see, and then know every card they cannot."""
    from engine.match import MAX_SEED

    return int.from_bytes(os.urandom(8), "big") & MAX_SEED


def _divergence_line(number: int, answer: str, offered: list[str]) -> str:
    """One line on a saved answer that no longer fits: which decision, what was saved, what is offered."""
    shown = ", ".join(repr(o) for o in offered[:5]) + (f" and {len(offered) - 5} more" if len(offered) > 5 else "")
    return (f"decision {number}: the saved answer {answer!r} is not offered under the current rules "
            f"(offered: {shown or 'nothing, the match is over'})")


def _naming_save(path: str, error: EngineError) -> EngineError:
    """An error from loading a save, naming the save file when it does not already."""
    if isinstance(error, (DefinitionError, SaveFileError)) or str(error).startswith(path):
        return error
    if isinstance(error, Divergence):
        return EngineError(f"{path}: {_divergence_line(error.number, error.answer, error.offered)}")
    return EngineError(f"{path}: {error}")


def _is_interactive(match: Match) -> bool:
    """Whether a person plays at a terminal: a human seat, with standard input and output a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty() and any(s.controller == "human" for s in match.seats)


def _describe_final(match: Match) -> str:
    st = match.snapshot()
    clock = f"round {st['round']}" if st.get("round") and not st.get("turn") else f"turn {st.get('turn')}"
    lines = [f"{match.game.name}: decision {match.decisions}, {clock}"]   # (a game of rounds has no turns)
    if st.get("over"):
        lines.append(f"result: {st.get('result')}")
    return "\n".join(lines)


def cmd_replay(args) -> int:
    from repl.render import render_state

    if args.to is not None and args.to < 0:
        raise EngineError(f"--to is a number of answers to replay, 0 or more, not {args.to}")
    try:
        match = load_match(Path(args.file), upto=args.to, quiet=True)
    except EngineError as e:
        raise _naming_save(args.file, e) from None
    if args.to is not None and match.decisions < args.to:
        print(f"note: --to {args.to}, but {args.file} holds {_count(match.decisions, 'answer')}: "
              f"this is the match after the last of them", file=sys.stderr)
    if args.json:
        print(json.dumps({"game": match.game.id, "seed": match.seed, "decisions": match.decisions,
                          "hash": match.state_hash(), "state": match.snapshot()}, sort_keys=True))
    else:
        print(render_state(match, None))
        print(_describe_final(match))
        print(f"hash {match.state_hash()}")
    return 0


def cmd_eval(args) -> int:
    game = _load_for_seats(args.game, args.players)
    seats = _seats(args.players, game)
    match = Match(game, args.seed, seats, quiet=True, options=parse_options(args.option))
    try:
        results = match.eval(args.code)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for r in results:
        print(r if isinstance(r, str) else json.dumps(r, indent=2, sort_keys=True))
    return 0


def cmd_test(args) -> int:
    from engine import scenarios

    files = scenarios.find_files(args.paths)
    if not files:
        if args.paths:
            print(f"no scenario files found in {', '.join(args.paths)}")
        else:
            print("no scenario files found in the tests/ folders of the games found (summon list shows them)")
        return 1
    results, problems = [], []
    for f in files:
        r, p = scenarios.run_file(f)
        results += r
        problems += p
    text, ok = scenarios.report(results, problems, verbose=args.verbose)
    print(text)
    return 0 if ok else 1


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="summon", description="A rules engine for summoner games.")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="games and card sets found; with a game, its cards")
    p.add_argument("game", nargs="?", help="a game: list each card of its sets, as printed, under its id")
    p.add_argument("set", nargs="?", help="only this card set (or pool, or deck)")
    p.set_defaults(fn=cmd_list)

    p = sub.add_parser("check", help="validate games; path:line:col messages")
    p.add_argument("paths", nargs="*", help="game ids or folders, or card and deck files (default: every game)")
    p.add_argument("--game", help="the game that card or deck files outside its cards/ folder are for")
    p.set_defaults(fn=cmd_check)

    p = sub.add_parser("deck", help="custom decks: `summon deck check FILE` checks one against its game's rules")
    deck_sub = p.add_subparsers(dest="deck_command", required=True)
    p = deck_sub.add_parser("check", help="summarise a deck file and list what breaks the game's deck rules")
    p.add_argument("file", help="a deck file (a card set with a `deck:` list)")
    p.add_argument("--game", help="the game it is for (default: the game whose cards/ folder holds it, "
                                  "else the one game that has all its cards)")
    p.set_defaults(fn=cmd_deck)

    p = sub.add_parser("new", help="write a skeleton: `summon new game ID` or `summon new set GAME ID`")
    new_sub = p.add_subparsers(dest="new_command", required=True)
    p = new_sub.add_parser("game", help="a small working game in rules/ID and cards/ID, to change from")
    p.add_argument("id", help="the game's id (lowercase letters, digits and _)")
    p.add_argument("--dir", default=".", help="the games folder to write it in (default: the current folder)")
    p.set_defaults(fn=cmd_new)
    p = new_sub.add_parser("set", help="a card set with one card (or the game's own shape: "
                                      "rules/GAME/templates/set.yaml) and its scenario test, in cards/GAME/")
    p.add_argument("game", help="a game id or a path to a folder with a game.yaml")
    p.add_argument("id", help="the set's id (lowercase letters, digits and _)")
    p.set_defaults(fn=cmd_new)

    p = sub.add_parser("test", help="run scenario tests written in YAML")
    p.add_argument("paths", nargs="*", help="files, folders or game ids (a game's rules and cards tests/ folders; "
                                                    "default: those of every game found)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every scenario")
    p.set_defaults(fn=cmd_test)

    p = sub.add_parser("schema", help="the JSON Schema of a game's card files, for editors")
    p.add_argument("game")
    p.add_argument("--write", action="store_true", help="write it to rules/<game>/cards.schema.json")
    p.set_defaults(fn=cmd_schema)

    p = sub.add_parser("docs", help="write docs/api.md and types/games/*.lua from the Lua annotations")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated file is stale (games without a types file yet are left out)")
    p.set_defaults(fn=cmd_docs)

    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game", nargs="?")
    p.add_argument("--seed", type=int, default=None,
                   help="the match's seed (default: a random one, named when the session ends)")
    p.add_argument("--players", help="seats, e.g. human:polar_dwarves,bot:fallen_kingdom, or a deck file: "
                                     "human:my_deck.yaml; bots: bot (the strongest that answers in about a "
                                     "second), random, greedy, mcts or mcts:N")
    p.add_argument("--load", help="a saved match to continue")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="set one of the game's options (game.yaml `options:`), e.g. extra_round=true")
    p.add_argument("--designer", action="store_true",
                   help="designer mode: see every hand, undo anything, change the match from the lua console")
    p.add_argument("--watch", action="store_true",
                   help="reload the rules and cards when their files change, and replay the match")
    p.set_defaults(fn=cmd_play)

    p = sub.add_parser("sim", help="bot games for balance and speed")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed; game i has seed + i (default 1)")
    p.add_argument("--players", help="seats and their bots: random (the default), greedy, mcts, mcts:N "
                                     "(N iterations a decision), mcts:Ns (N seconds, not reproducible) or bot; "
                                     "e.g. mcts:polar_dwarves,greedy:fallen_kingdom")
    p.add_argument("--swap", action="store_true",
                   help="move the players one seat on from game to game (two players: swap seats every other "
                        "game); wins are counted per player wherever it sat")
    p.add_argument("--jobs", type=int, default=0,
                   help="processes to run games in (default 0: every core, for 20 games or more)")
    p.add_argument("--max-decisions", type=int, default=20000,
                   help="stop a game that runs longer (default 20000; counted as cut off)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="set one of the game's options (game.yaml `options:`), e.g. extra_round=true")
    p.add_argument("--json", action="store_true", help="one JSON object (with --vary: one run per variation)")
    p.add_argument("--backend", default="local", metavar="{local,ray}",
                   help="where games run: local (processes on this machine, the default) or ray (a Ray "
                        "cluster; pip install -e '.[cluster]')")
    p.add_argument("--address", help="with --backend ray: the running Ray cluster to join (e.g. 10.0.0.5:6379); "
                                     "without it a local Ray instance is started")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a "
                                                        "terminal)")
    p.add_argument("--report", metavar="DIR", help="write report.json, report.md and PNG charts into DIR "
                                                   "(needs matplotlib: pip install -e '.[report]')")
    p.add_argument("--vary", action="append", metavar="KEY=V1,V2,...",
                   help="play the tournament once per value, with the same seeds: a game option (movers=2,3) "
                        "or a card stat (card.frost_mage.cost=1,2); repeat for every combination")
    p.add_argument("--precision", type=_precision, metavar="P",
                   help="play in batches, seats swapped, until every win rate's 95%% interval is within ±P "
                        "(0.03: 3 points) or --games are played")
    p.set_defaults(fn=cmd_sim)

    p = sub.add_parser("bench", help="speed, fork cost, memory per match, host against pure Lua")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=120, help="games for the speed figures (default 120)")
    p.add_argument("--seed", type=int, default=7, help="seed of the first game (default 7)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of each comparison, best counts (default 3)")
    p.add_argument("--json", action="store_true", help="one JSON object with every figure")
    p.set_defaults(fn=cmd_bench)

    p = sub.add_parser("eval", help="run Lua in a game's sandbox at the first decision and print the result")
    p.add_argument("game")
    p.add_argument("code")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="set one of the game's options (game.yaml `options:`), e.g. extra_round=true")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", help="seats, e.g. bot:polar_dwarves,bot:fallen_kingdom")
    p.set_defaults(fn=cmd_eval)

    p = sub.add_parser("replay", help="replay a saved match and show its final state")
    p.add_argument("file")
    p.add_argument("--to", type=int, help="stop after this many answers")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=cmd_replay)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug of ours: say so in one line rather than a traceback
        if os.environ.get("SUMMON_DEBUG"):
            raise
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}" if tb else ""
        print(f"internal error: {type(e).__name__}: {e}{where} (set SUMMON_DEBUG=1 for the traceback; "
              f"please report it)", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
