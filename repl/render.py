"""Text views of a match: the board, the players' counters and zones. Game-agnostic: what a game
wants shown beyond that comes from its game.yaml (`display:`)."""
from __future__ import annotations

from engine.match import Match


COLOURS = {1: "\x1b[31m", 2: "\x1b[34m", 3: "\x1b[32m", 4: "\x1b[33m"}
RESET = "\x1b[0m"


def paint(text: str, player: int | None, colour: bool) -> str:
    """Text in its player's colour (red, blue, green, yellow) when colour is on."""
    if not colour or player not in COLOURS:
        return text
    return f"{COLOURS[player]}{text}{RESET}"


def _abbrev(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) == 1:
        return words[0][:3]
    return (words[0][:2] + words[1][:1]).title()[:3]


def _card_line(c: dict, marks: dict | None = None) -> str:
    toks = ", ".join(f"{k} {v}" for k, v in sorted(c["tokens"].items()))
    mark = (marks or {}).get(c["space"])
    return (f"{c['space']:>4} {c['name']} (P{c['controller']})" + (f" [{toks}]" if toks else "")
            + (f" on {mark}" if mark else ""))


def space_marks(match: Match, view: dict) -> dict:
    """The game's marks on spaces (display: marks names a key of the state's vars), as text."""
    key = (match.game.data.get("display") or {}).get("marks")
    marks = (view.get("vars") or {}).get(key) if key else None
    return {str(s): str(t) for s, t in marks.items()} if isinstance(marks, dict) else {}


def render_board(view: dict, width: int, height: int, colour: bool = False, badge: str | None = None,
                 marks: dict | None = None) -> list[str]:
    """A grid board, top row first; a card shows as its abbreviated name, controller and `badge`
    tokens; an empty space shows its mark, if the game gives it one."""
    marks = marks or {}
    cards = {c["id"]: c for c in view["cards"]}
    at = {s: cards[i] for s, i in view["spaces"].items() if i in cards}
    cols = [chr(97 + x) for x in range(width)]
    lines = ["     " + "".join(f"{c:^7}" for c in cols)]
    for y in range(height, 0, -1):
        row = []
        for x in cols:
            c = at.get(f"{x}{y}")
            if c is None:
                mark = marks.get(f"{x}{y}")
                row.append(f"{mark[:6]:^7}" if mark else "   .   ")
            else:
                n = c["tokens"].get(badge, 0) if badge else 0
                cell = f"{_abbrev(c['name'])}{c['controller']}" + (f"*{n}" if n else "")
                row.append(paint(f"{cell:^7}", c["controller"], colour))
        lines.append(f"{y:>3}  " + "".join(row) + f"  {y}")
    lines.append(lines[0])
    return lines


def render_graph(view: dict, board: dict, colour: bool = False) -> list[str]:
    cards = {c["id"]: c for c in view["cards"]}
    at = {s: cards[i] for s, i in view["spaces"].items() if i in cards}
    by_region: dict[str, list[str]] = {}
    for s, sp in sorted((board.get("spaces") or {}).items()):
        by_region.setdefault(sp.get("region") or "(no region)", []).append(s)
    regions = board.get("regions") or {}
    lines = []
    for region, spaces in sorted(by_region.items()):
        info = regions.get(region) or {}
        facts = ", ".join(f"{k} {v}" for k, v in info.items() if isinstance(v, (int, str)) and not isinstance(v, bool))
        lines.append(f"{region}:" + (f" ({facts})" if facts else ""))
        for s in spaces:
            c = at.get(s)
            who = paint(f"{c['name']} (P{c['controller']})", c["controller"], colour) if c else "empty"
            links = ", ".join(board["spaces"][s].get("links") or [])
            lines.append(f"  {s}: {who}   -> {links}")
    return lines


def private_zones(match: Match, view: dict, player: int) -> list[tuple[str, list[str]]]:
    """The player's own zones that only they may see (a hand, say): (zone name, card names bottom to top)."""
    zones = match.game.data.get("zones") or {}
    cards = {c["id"]: c for c in view["cards"]}
    out = []
    for name, z in zones.items():
        if z.get("scope", "player") == "player" and z.get("visibility") == "owner":
            ids = view["zones"].get(f"{name}:{player}", {}).get("cards", [])
            out.append((name, [cards[i]["name"] for i in ids if i in cards]))
    return out


def _listed_card(c: dict, match: Match, fields: list[str]) -> str:
    """A card in a listed zone: name, #id, printed fields and tokens; a face-down card as such."""
    if "name" not in c:
        return f"face-down card {c['id']}"
    data = match.game.cards[c["def"]].data if c.get("def") in match.game.cards else {}
    vals = [str(data[f]) for f in fields if f in data]
    text = f"{c['name']} #{c['id']}" + (f" {'/'.join(vals)}" if vals else "")
    toks = ", ".join(f"{k} {v}" for k, v in sorted((c.get("tokens") or {}).items()))
    if toks:
        text += f" [{toks}]"
    if c.get("face_down"):
        text += " (face down)"
    return text


def listed_zones(match: Match, view: dict, player: int) -> list[tuple[str, list[str]]]:
    """The zones game.yaml's `display: zones` lists, of one player, as the view shows them."""
    display = match.game.data.get("display") or {}
    fields = display.get("fields") or []
    cards = {c["id"]: c for c in view["cards"]}
    out = []
    for name in display.get("zones") or []:
        z = view["zones"].get(f"{name}:{player}") or view["zones"].get(name)
        if z is None or "cards" not in z:
            continue
        out.append((name, [_listed_card(cards[i], match, fields) for i in z["cards"] if i in cards]))
    return out


def render_state(match: Match, player: int | None, colour: bool = False, status: str | None = None) -> str:
    """The board, the cards on it, and each player's counters and zone sizes, as `player` sees them."""
    view = match.view(player)
    board = match.game.data["board"]
    badge = (match.game.data.get("display") or {}).get("badge")
    lines = []
    marks = space_marks(match, view)
    if board["type"] == "grid":
        lines += render_board(view, board["width"], board["height"], colour, badge, marks)
    elif board["type"] == "graph":
        lines += render_graph(view, board, colour)
    on_board = sorted((c for c in view["cards"] if c.get("space")), key=lambda c: (c["controller"], c["space"]))
    for c in on_board:
        lines.append(paint(_card_line(c, marks), c["controller"], colour))
    for i, pl in enumerate(view["players"], 1):
        parts = [f"{k} {v}" for k, v in sorted(view["counters"].get(str(i), {}).items())]
        for key, z in sorted(view["zones"].items()):
            name, _, owner = key.partition(":")
            if owner == str(i):
                parts.append(f"{name} {z['count']}")
        label = f"P{i} {pl['name']}" + (f" ({pl['set']})" if pl.get("set") else "")
        lines.append(paint(f"{label}: " + ", ".join(parts), i, colour))
        for name, listed in listed_zones(match, view, i):
            lines.append(paint(f"  {name}: " + (", ".join(listed) or "empty"), i, colour))
        if player == i:
            for name, names in private_zones(match, view, i):
                lines.append(f"  {name}: " + (", ".join(names) or "empty"))
    if status is None:
        st = view
        status = f"turn {st.get('turn')}" + (f", round {st['round']}" if st.get("round") else "")
        status += f", phase {st.get('phase')}, player {st.get('active')} to play" if not st.get("over") else ""
    lines.append(status)
    return "\n".join(lines)
