"""The balance lab's report: the table `summon sim` prints at the end, and with --report DIR
report.json, report.md and PNG charts. Runs are `summon sim` outputs (one, or one per value
of a sweep, each with its `variation`); everything here reads their `summary`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from engine.errors import EngineError
from engine.lab import spread, value_text
from engine.stats import interval_text, pct, wilson

REPORT_EXTRA = "pip install -e '.[report]'"
CHARTS = ("win_rates.png", "length.png", "cards.png")


# -- rows: what both the terminal and report.md show -------------------------------------

def label(run: dict) -> str:
    """A run's variation in the designer's words ("rounds=7, card.imp.cost=3"), or "as printed"."""
    v = run.get("variation") or {}
    return ", ".join(f"{k}={value_text(x)}" for k, x in v.items()) or "as printed"


def sides(summary: dict) -> list[tuple[str, dict]]:
    """(name, rate) of every side whose win rate the report gives: the entrants, the card sets
    (unless they are the entrants under the same names), the seats (unless each is the
    entrant that always sat there) and the player who moved first."""
    rows = [(name, r) for name, r in summary["entrants"].items()]
    if set(summary["sets"]) != set(summary["entrants"]):
        rows += [(f"set {name}", r) for name, r in summary["sets"].items()]
    seats = summary.get("seats") or []
    apart = summary.get("seated_apart")   # (a report written before it was kept: the counts tell)
    if apart or apart is None and [(r["wins"], r["games"]) for r in seats] != [
            (r["wins"], r["games"]) for r in summary["entrants"].values()]:
        rows += [(f"seat {i}", r) for i, r in enumerate(seats, 1)]
    rows.append(("first player", summary["first_player"]))
    return rows


def side_names(runs: list[dict]) -> list[str]:
    """Every side some run gives a win rate for, in the order the runs first name them (a
    sweep's run may lack a set row, when no game of it was decided)."""
    names: list[str] = []
    for r in runs:
        names += [n for n, _ in sides(r["summary"]) if n not in names]
    return names


def length_unit(summary: dict) -> str:
    """How the game counts its course: "turns", or "rounds" for a game whose flow has rounds only."""
    turns = summary["length"]["turns"]
    return "turns" if turns["max"] or not summary["length"].get("rounds", {}).get("max") else "rounds"


def fair_of(summary: dict) -> float:
    """The fair share, exact (report.json rounds it: 1/3 is 0.333333 there) when a decided
    game has one winner; else as the summary says (teams: more wins a game to share)."""
    if summary.get("winners_per_game", 1) != 1 or not summary.get("seats"):
        return summary["fair_share"]
    return 1 / len(summary["seats"])


def interval(r: dict, fair: float | None = None) -> str:
    """A rate's 95% interval in points ("58-66"), from its wins and games (not from the
    rounded bounds of report.json, which rounded twice would be a point off)."""
    return interval_text(*wilson(r["wins"], r["games"]), fair)


def cell(r: dict, fair: float | None = None) -> str:
    """A win rate and its interval, as "62% (58-66)"; "-" with no decided game."""
    if r["rate"] is None:
        return "-"
    return f"{pct(r['rate'])}% ({interval(r, fair)})"


def _table(header: list[str], rows: list[list[str]], left: tuple[int, ...] = (0,)) -> list[str]:
    """Columns padded to their widest cell: those in `left` aligned left, the others right."""
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    cells = [f"{{:{'<' if i in left else '>'}{w}}}" for i, w in enumerate(widths)]
    fmt = "  ".join(cells)
    return [fmt.format(*header).rstrip(), fmt.format(*["-" * w for w in widths])] + \
        [fmt.format(*row).rstrip() for row in rows]


def table_lines(runs: list[dict]) -> list[str]:
    """The win-rate table: one row a side, one column a run (with a verdict column for one run),
    then draws, games cut off and game length."""
    names = side_names(runs)
    by_run = [dict(sides(r["summary"])) for r in runs]
    if len(runs) == 1:
        header = ["side", "wins", "of", "win rate (95% CI)", "verdict"]
        fair = fair_of(runs[0]["summary"])
        rows = [[n, str(by_run[0][n]["wins"]), str(by_run[0][n]["games"]), cell(by_run[0][n], fair),
                 by_run[0][n]["verdict"]] for n in names]
    else:
        header = ["side"] + [label(r) for r in runs]
        rows = [[n] + [cell(b[n], fair_of(r["summary"])) if n in b else "-" for b, r in zip(by_run, runs)]
                for n in names]
    lines = _table(header, rows, (0, 4) if len(runs) == 1 else (0,))
    s = [r["summary"] for r in runs]
    lines.append("")
    lines.append("draws: " + ", ".join(str(x["draws"]) for x in s)
                 + "; cut off by the decision limit: " + ", ".join(str(x["cut_off"]) for x in s)
                 + f" (of {', '.join(str(r['games']) for r in runs)} games; neither counts as a win)")
    if any(x.get("won_by_nobody") for x in s):
        lines.append("won by nobody (end_game({})): " + ", ".join(str(x.get("won_by_nobody", 0)) for x in s)
                     + " (a loss for every seat)")
    for r in runs:
        team = r["summary"].get("team")
        if team:   # a cooperative game: how often its seats won together
            head = f"{label(r)}: " if len(runs) > 1 else ""
            lines.append(f"{head}the team won {team['wins']} of {team['games']} decided games: {cell(team)}")
    for r in runs:
        ln = r["summary"]["length"]
        head = f"{label(r)}: " if len(runs) > 1 else ""
        unit = length_unit(r["summary"])
        if ln["decisions"]["median"] is not None:
            lines.append(f"{head}game length: median {ln['decisions']['median']:g} decisions "
                         f"({ln['decisions']['min']}-{ln['decisions']['max']}), median "
                         f"{ln[unit]['median']:g} {unit} ({ln[unit]['min']}-{ln[unit]['max']})")
        never = r["summary"].get("never_dealt") or []
        if never:
            shown = ", ".join(never[:12]) + (f" and {len(never) - 12} more" if len(never) > 12 else "")
            lines.append(f"{head}cards in none of these games (the rules never made one): {shown}")
    if len(runs) > 1:
        for r in runs:
            words = [f"{n} {b['verdict']}" for n, b in sides(r["summary"]) if not b["verdict"].startswith("no ")]
            lines.append(f"{label(r)}: {'; '.join(words) if words else 'no evidence of imbalance at this sample size'}")
    for r in runs:
        p = r.get("precision")
        if p:
            lines.append(precision_line(r))
    return lines


def precision_line(run: dict) -> str:
    """Why a --precision run stopped, in words."""
    p = run["precision"]
    head = f"{label(run)}: " if run.get("variation") else ""
    pts = f"±{100 * p['target']:g} point" + ("" if 100 * p["target"] == 1 else "s")
    if p["met"]:
        return (f"{head}stopped after {run['games']} games: every win rate of the entrants, sets, seats and first "
                f"player is within {pts} (the cards' are not waited for)")
    return (f"{head}stopped at --games {run['games']}: the widest win rate is ±{100 * p['widest']:.1f} points, "
            f"not yet within {pts}")


# -- files ---------------------------------------------------------------------------------

def check_charts_available() -> None:
    """Raises EngineError saying how to install matplotlib when it is missing (before any game is played)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise EngineError(f"--report draws its charts with matplotlib, which is not installed: {REPORT_EXTRA}") \
            from None


def make_folder(folder: Path) -> None:
    """Makes the report's folder if missing, or raises EngineError saying why it cannot be
    written (checked before any game is played, and again when writing)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise EngineError(f"--report {folder}: cannot make the folder ({e.strerror or e})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise EngineError(f"--report {folder}: the folder is not writable")


def write_report(folder: Path, runs: list[dict]) -> list[Path]:
    """Writes report.json, report.md and the charts into folder (made if missing); returns the files."""
    folder = Path(folder)
    make_folder(folder)
    data = report_json(runs)
    files = [folder / "report.json", folder / "report.md"] + [folder / c for c in CHARTS]
    try:
        files[0].write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        files[1].write_text("\n".join(report_md(runs)) + "\n", encoding="utf-8")
        draw_charts(folder, runs)
    except OSError as e:
        raise EngineError(f"--report {folder}: cannot write ({e.strerror or e})") from None
    return files


def fixed_options(run: dict) -> dict:
    """The options a run was played with that a sweep did not vary (those of --option)."""
    varied = run.get("variation") or {}
    return {k: v for k, v in run["options"].items() if k not in varied}


def games_text(runs: list[dict]) -> str:
    """"200 games", "200 games a run", or with --precision's runs of their own lengths
    "games a run: 200 (max_turns=14), 120 (max_turns=40)"."""
    counts = [r["games"] for r in runs]
    if len(set(counts)) > 1:
        return "games a run: " + ", ".join(f"{r['games']} ({label(r)})" for r in runs)
    return f"{counts[0]} games" + (" a run" if len(runs) > 1 else "")


def report_json(runs: list[dict]) -> dict:
    """What report.json holds: the run's arguments, and each run's summary (no per-game results)."""
    first = runs[0]
    return {
        "game": first["game"], "seed": first["seed"], "seats": first["seats"], "swap": first["swap"],
        "options": fixed_options(first),
        "runs": [{"variation": r.get("variation") or {}, "label": label(r), "games": r["games"],
                  "finished": r["finished"], "decisions": r["decisions"], "summary": r["summary"],
                  **({"precision": r["precision"]} if "precision" in r else {})} for r in runs],
        "charts": list(CHARTS),
    }


def report_md(runs: list[dict]) -> list[str]:
    """report.md: the table, each side's verdict, the cards, and the charts."""
    first = runs[0]
    lines = [f"# Balance report: {first['game']}", "",
             f"{games_text(runs)}, from seed {first['seed']}; seats {', '.join(first['seats'])}"
             f"{', swapped from game to game' if first['swap'] else ''}"
             + (f"; options {json.dumps(fixed_options(first), sort_keys=True)}" if fixed_options(first) else "")
             + ".",
             "Win rates count the games someone won; draws and games cut off by the decision limit are apart.",
             f"Fair share: {pct(first['summary']['fair_share'])}%. Intervals are 95% Wilson score intervals.", "",
             "## Win rates", "", "```"] + table_lines(runs) + ["```", ""]
    for r in runs:
        if len(runs) > 1:
            lines += [f"### {label(r)}", ""]
        lines += ["| side | wins | of | win rate | 95% CI | verdict |", "|---|---:|---:|---:|---|---|"]
        for name, s in sides(r["summary"]):
            rate = "-" if s["rate"] is None else f"{pct(s['rate'])}%"
            lines.append(f"| {name} | {s['wins']} | {s['games']} | {rate} | {interval(s, fair_of(r['summary']))}% "
                         f"| {s['verdict']} |")
        lines.append("")
    cards = first["summary"]["cards"]
    if cards:
        lines += [f"## Cards{' (' + label(first) + ')' if len(runs) > 1 else ''}", "",
                  "Times played, and the win rate of the side that played it (in decided games).", "",
                  "| card | set | played | games | win rate | 95% CI |", "|---|---|---:|---:|---:|---|"]
        for c in cards:
            rate = "-" if c["rate"] is None else f"{pct(c['rate'])}%"
            lines.append(f"| {c['card']} | {c['set'] or ''} | {c['played']} | {c['games']} | {rate} "
                         f"| {interval(c)}% |")
        lines.append("")
    else:
        lines += ["## Cards", "", "No per-card figures: the game names no events under `balance: played` in "
                                  "its game.yaml.", ""]
    lines += ["## Charts", ""] + [f"![{c[:-4].replace('_', ' ')}]({c})" for c in CHARTS]
    return lines


def draw_charts(folder: Path, runs: list[dict]) -> None:
    """win_rates.png (each side's win rate and interval, per run), length.png (histograms of
    decisions and turns, or rounds), cards.png (the most played cards' win rates)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _win_rates_chart(plt, folder / "win_rates.png", runs)
    _length_chart(plt, folder / "length.png", runs)
    _cards_chart(plt, folder / "cards.png", runs[0])


def _win_rates_chart(plt, path: Path, runs: list[dict]) -> None:
    names = side_names(runs)
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * len(names) * len(runs)))
    height = 0.8 / len(runs)
    for k, r in enumerate(runs):
        rates = dict(sides(r["summary"]))
        shown = [i for i, n in enumerate(names) if n in rates]   # a side the run has no rate for: no bar
        ys = [i + k * height for i in shown]
        vals = [rates[names[i]]["rate"] or 0.0 for i in shown]
        err = [[v - rates[names[i]]["low"] for v, i in zip(vals, shown)],
               [rates[names[i]]["high"] - v for v, i in zip(vals, shown)]]
        ax.barh(ys, vals, height=height * 0.9, xerr=err, capsize=3, label=label(r))
    ax.axvline(runs[0]["summary"]["fair_share"], color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_yticks([i + height * (len(runs) - 1) / 2 for i in range(len(names))], names)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of decided games, with 95% interval")
    counts = sorted({r["games"] for r in runs})
    games = f"{counts[0]}-{counts[-1]} games" if len(counts) > 1 else f"{counts[0]} games"
    ax.set_title(f"{runs[0]['game']}: {games}{' a run' if len(runs) > 1 else ''}")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _histograms(runs: list[dict], key: str) -> list[dict]:
    """Each run's histogram of a length (decisions, turns, rounds), in bins shared by every
    run, so that the bars of a sweep's values compare (each run's own bins differ)."""
    values = [[g[key] for g in r.get("results") or () if isinstance(g.get(key), int)] for r in runs]
    if len(runs) == 1 or not all(values):
        return [r["summary"]["length"][key] for r in runs]
    span = (min(min(v) for v in values), max(max(v) for v in values))
    return [spread(v, span=span) for v in values]


def _length_chart(plt, path: Path, runs: list[dict]) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for ax, key in zip(axes, ("decisions", length_unit(runs[0]["summary"]))):
        for r, h in zip(runs, _histograms(runs, key)):
            if h["counts"]:
                ax.stairs(h["counts"], h["edges"], label=label(r), fill=len(runs) == 1)
        ax.set_xlabel(f"{key} a game")
        ax.set_ylabel("games")
        if len(runs) > 1:
            ax.legend(fontsize="small")
    fig.suptitle(f"{runs[0]['game']}: game length")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _cards_chart(plt, path: Path, run: dict, most: int = 30) -> None:
    cards = run["summary"]["cards"][:most]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.3 * max(1, len(cards))))
    if cards:
        sets = sorted({c["set"] or "" for c in cards})
        colours = {s: f"C{i}" for i, s in enumerate(sets)}
        for i, c in enumerate(cards):
            v = c["rate"] if c["rate"] is not None else 0.0
            ax.errorbar(v, i, xerr=[[v - c["low"]], [c["high"] - v]], fmt="o", capsize=3, color=colours[c["set"] or ""])
        ax.set_yticks(range(len(cards)), [f"{c['card']} ({c['played']})" for c in cards])
        for s in sets:
            ax.plot([], [], "o", color=colours[s], label=s or "no set")
        ax.legend(loc="lower right", fontsize="small")
        ax.axvline(run["summary"]["fair_share"], color="black", linestyle="--", linewidth=1)
    else:
        ax.text(0.5, 0.5, "no plays counted (game.yaml: balance: played)", ha="center", va="center")
        ax.set_yticks([])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the side that played the card, with 95% interval")
    ax.set_title(f"{run['game']}: cards (times played)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
