"""Text views of a match: the board, the players' counters and zones. Game-agnostic: what a game
wants shown beyond that comes from its game.yaml (`display:`)."""
from __future__ import annotations

import json
import re

from prompt_toolkit.utils import get_cwidth

from engine.errors import EngineError
from engine.match import Match, region_owners


COLOURS = {1: "\x1b[31m", 2: "\x1b[34m", 3: "\x1b[32m", 4: "\x1b[33m"}
RESET = "\x1b[0m"


def paint(text: str, player: int | None, colour: bool) -> str:
    """Text in its player's colour (red, blue, green, yellow) when colour is on."""
    if not colour or player not in COLOURS:
        return text
    return f"{COLOURS[player]}{text}{RESET}"


def _abbrev(name: str, letters: int = 3) -> str:
    words = [w for w in name.replace("-", " ").split() if w]
    if len(words) == 1:
        return words[0][:letters]
    return (words[0][:letters - 1] + words[1][:1]).title()[:letters]


def ctl(c: dict) -> int:
    """Who controls a card: its player, or 0 for a card nobody controls (nobody owns it)."""
    return c.get("controller") or 0


def _short(c: dict, letters: int = 3) -> str:
    """A card's abbreviated name (its first `letters` letters) and controller (Frm2; 0 for
    nobody); ?? for a face-down card the seat cannot see (its view holds only where it is)."""
    return f"{_abbrev(c['name'], letters) if 'name' in c else '??'}{ctl(c)}"


def _name(c: dict) -> str:
    return c.get("name") or "a face-down card"


def _tokens(c: dict) -> dict:
    return c.get("tokens") or {}


def _display(match: Match) -> dict:
    return match.game.data.get("display") or {}


class Looks:
    """What the screen shows of the cards a seat sees on the board: each card's stats now
    (after the modifiers the seat may know of), its life left where the game declares
    `display: life`, what is attached to it, and whether a stat differs from its print."""

    def __init__(self, match: Match, view: dict, player: int | None):
        self.match, self.view, self.player = match, view, player
        self.cards = {c["id"]: c for c in view["cards"]}
        self.life = _display(match).get("life") or {}
        self.flags = sorted((_display(match).get("flags") or {}).items())
        self._stats: dict[int, dict] = {}
        self._words: dict[str, str] | None = None
        self.mark_problem = ""   # why `display: card_mark` gave no words, once it was run

    def mark(self, c: dict) -> str:
        """What everyone knows of a face-down card (its mark) as ' [paid 11]': in the game's
        words (`display: card_mark`, run on the seat's view), else its fields as they are."""
        if self._words is None:
            try:
                self._words = self.match.mark_words(self.player or self.view.get("active") or 1)
            except EngineError as e:   # (the rules' mistake, which summon check names: the raw mark shows)
                self._words = {}
                self.mark_problem = str(e).splitlines()[0] if str(e) else type(e).__name__
        return _mark_text(c, self._words)

    def printed(self, c: dict) -> dict:
        d = self.match.game.cards.get(c.get("def"))
        return d.data if d is not None else {}

    def stats(self, c: dict) -> dict:
        """The card's stats now (after the modifiers the seat knows of); {} for a face it does not see."""
        if c["id"] not in self._stats:
            try:
                self._stats[c["id"]] = self.match.stats_seen(self.player, c["id"]) or {}
            except Exception:   # a failing modifier is the rules' to report, not the screen's
                self._stats[c["id"]] = {}
        return self._stats[c["id"]]

    def changed(self, c: dict) -> list[tuple[str, object, object]]:
        """(stat, now, printed) of each stat that differs from the card's print."""
        printed = self.printed(c)
        out = []
        for k, v in self.stats(c).items():
            p = printed.get(k)
            if isinstance(p, (int, float)) and not isinstance(p, bool) and p != v:
                out.append((k, _num(v), p))
        return out

    def life_left(self, c: dict) -> tuple[int, int] | None:
        """(left, most) when the game declares `display: life` and the card has that stat."""
        stat = self.life.get("stat")
        if not stat:
            return None
        most = self.stats(c).get(stat, self.printed(c).get(stat))
        if not isinstance(most, (int, float)) or isinstance(most, bool):
            return None
        taken = _tokens(c).get(self.life.get("less"), 0) if self.life.get("less") else 0
        return _num(most - taken), _num(most)

    def attached(self, c: dict) -> list[str]:
        return [self.cards[i]["name"] if "name" in self.cards.get(i, {}) else "a face-down card"
                for i in c.get("under") or []]

    def cell(self, c: dict, badge: str | None, letters: int = 3) -> str:
        """A card on a board square: abbreviated name and controller, then life left (or the
        badge's count), the sign of each flag token it has (`display: flags`), + when cards
        are attached, * when a stat is changed."""
        text = _short(c, letters)
        life = self.life_left(c)
        if life is not None:
            text += f" {life[0]}"
        elif badge and _tokens(c).get(badge):
            text += f"*{_tokens(c)[badge]}"
        text += "".join(sign for token, sign in self.flags if _tokens(c).get(token))
        if c.get("under"):
            text += "+"
        if self.changed(c):
            text += "*"
        return text

    def brief(self, c: dict, mark: str | None = None, room: int | None = None) -> str:
        """A short entry for the list under the board: name, life left, changed stats, attachments,
        tokens. Longer than room, the name is cut first ("Barbarian War... 3/3 on tower"): the
        board's abbreviation already names the card, and what follows is what changes in play;
        then a changed stat's printed value goes (`attack 9`, not `attack 9 (3)`), then the end
        of what follows the life left."""
        name = _name(c)
        life = self.life_left(c)
        first = f" {life[0]}/{life[1]}" if life is not None else ""
        changed = [(k, now, printed) for k, now, printed in self.changed(c) if k != self.life.get("stat")]
        rest = [f"{k} {v}" for k, v in sorted(_tokens(c).items()) if k != self.life.get("less")]
        rest += ["+" + n for n in self.attached(c)]
        middle = "".join(f" {k} {now} ({printed})" for k, now, printed in changed) + "".join(" " + p for p in rest)
        last = f" on {mark}" if mark else ""
        over = len(name) + len(first) + len(middle) + len(last) - (room if room is not None else 10 ** 9)
        if over > 0 and len(name) > MIN_NAME:   # the letters of the name that fit, at least MIN_NAME
            name = name[:max(MIN_NAME, len(name) - over - 3)].rstrip() + "..."
            over = len(name) + len(first) + len(middle) + len(last) - room
        if over > 0 and changed:   # then the printed values go (`card SPACE` says them): the values now stay
            middle = "".join(f" {k} {now}" for k, now, _ in changed) + "".join(" " + p for p in rest)
            over = len(name) + len(first) + len(middle) + len(last) - room
        if over > 0 and middle:   # then what lies between the life left and the mark
            middle = middle[:max(1, len(middle) - over - 3)].rstrip() + "..."
        return name + first + middle + last

    def describe(self, c: dict, viewer: int | None, mark: str | None = None) -> str:
        """One line on a card in play, in players' words: whose, life left, changed stats, attachments, tokens."""
        whose = _whose(c, viewer)
        # (in a player's hidden hand, a card nobody controls is theirs to hold: "P1's hand:
        # Watchman (nobody's)" said nothing; on a table all see, whose it is is said)
        zone = re.fullmatch(r"(.+):\d+", str(c.get("zone") or ""))
        held = zone is not None and ((self.match.game.data.get("zones") or {}).get(zone.group(1)) or {}).get(
            "visibility") != "public"
        parts = [_name(c) if held and not ctl(c) else f"{_name(c)} ({whose})"]
        life = self.life_left(c)
        if life is not None:
            parts.append(f"life {life[0]} of {life[1]}")
        for k, now, printed in self.changed(c):
            if k != self.life.get("stat"):
                parts.append(f"{k} {now} (printed {printed})")
        shown = {t: n for t, n in sorted(_tokens(c).items()) if t != self.life.get("less")}
        if shown:
            parts.append(", ".join(f"{k} {v}" for k, v in shown.items()))
        if c.get("under"):
            parts.append("with " + ", ".join(self.attached(c)))
        if mark:
            parts.append(f"on {mark}")
        return ", ".join(parts)


def _num(v):
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _whose(c: dict, viewer: int | None) -> str:
    """Whose a card is, as the viewer says it: yours, or Player N's."""
    if viewer is not None and ctl(c) == viewer:
        return "yours"
    return f"P{ctl(c)}'s" if ctl(c) else "nobody's"


def space_marks(match: Match, view: dict) -> dict:
    """The game's marks on spaces (display: marks names a key of the state's vars), as text."""
    key = _display(match).get("marks")
    marks = (view.get("vars") or {}).get(key) if key else None
    return {str(s): str(t) for s, t in marks.items()} if isinstance(marks, dict) else {}


def region_spaces(board: dict) -> dict[str, str]:
    """Each space of the board's regions -> its region (a grid's regions list their spaces,
    a graph's spaces name their region)."""
    out: dict[str, str] = {}
    for r, info in (board.get("regions") or {}).items():
        for s in (info or {}).get("spaces") or []:
            out[str(s)] = str(r)
    for s, sp in (board.get("spaces") or {}).items():
        if isinstance(sp, dict) and sp.get("region") is not None:
            out[str(s)] = str(sp["region"])
    return out


class Regions:
    """The board's regions as the screen shows them (game.yaml `display: regions`): each
    region's name on its empty squares, and a line naming who holds each, from the game's
    `owners` Lua run on a copy of the seat's view (so it shows nothing the seat may not know)."""

    def __init__(self, match: Match, player: int | None, view: dict):
        conf = _display(match).get("regions")
        self.on = bool(conf)
        conf = conf if isinstance(conf, dict) else {}
        board = match.game.data["board"]
        self.title = str(conf.get("title") or "regions")
        self.unowned = str(conf.get("unowned") or "no one's")
        here = set(match.board_regions()) if self.on else set()   # (player_counts may leave some out)
        self.names = [str(r) for r in (board.get("regions") or {}) if str(r) in here]   # in game.yaml's order
        self.of_space = region_spaces(board) if self.on else {}
        self._squares = match.board_spaces()
        self.player = player
        self.owners: dict[str, int] = {}
        self.problem = None
        code = conf.get("owners")
        if self.on and code:
            seat = player or view.get("active") or 1
            try:
                res = match.eval(code, chunkname=f"{match.game.id}/game.yaml display.regions.owners", seat=seat)
            except EngineError as e:     # the rules' mistake, said on the screen, never a traceback
                self.problem = str(e).splitlines()[0] if str(e) else type(e).__name__
                res = []
            if self.problem is None:     # what is not a region or a player is left out
                self.owners, wrong = region_owners(res[0] if res else None, self.names,
                                                   len(view.get("players") or []))
                if not self.owners and wrong:
                    self.problem = f"owners {wrong}"

    def square(self, space: str, colour: bool, cell: int = None) -> tuple[str, int] | None:
        """(the text an empty square of a region shows, its printed width), or None outside the regions."""
        r = self.of_space.get(space)
        if r is None:
            return None
        cell = cell or CELL
        tag = _centred(_cut(r, cell - 1), cell)
        return tint(tag, self.owners.get(r), colour), cell

    def whose(self, r: str) -> str:
        p = self.owners.get(r)
        if p is None:
            return self.unowned
        return f"yours (P{p})" if p == self.player else f"P{p}'s"

    def line(self, colour: bool, width: int) -> list[str]:
        """`TITLE: north = yours (P1), south = P2's, east = UNOWNED; . = in none`: the regions, and who holds each."""
        if not self.on or not self.names:
            return []
        order = sorted(self.names, key=lambda r: (self.owners.get(r, len(self.names) + 99), self.names.index(r)))
        plain = [f"{r} = {self.whose(r)}" for r in order]
        end = "; . = in none" if any(s not in self.of_space for s in self._squares) else ""
        if self.problem:    # who holds what is unknown: say so rather than call every region unowned
            return _wrap(f"{self.title}: " + ", ".join(self.names) + end +
                         f" (the game's region owners failed: {self.problem})", width)
        text = f"{self.title}: " + ", ".join(plain) + end
        lines = _wrap(text, width)
        if colour and len(lines) == 1:    # each region in its holder's colour
            shown = (paint(t, self.owners.get(r), colour) for r, t in zip(order, plain))
            lines = [f"{self.title}: " + ", ".join(shown) + end]
        return lines


def printed_card(game, c, *, head: str | None = None, copies: bool = False) -> list[str]:
    """A card definition (loader.CardDef) in players' words: name and card set (or `head`),
    kinds, printed numbers (and with `copies`, how many its set holds), text."""
    d = c.data
    out = [(head or f"{d.get('name')} ({c.set_id})") + (f": {', '.join(d['tags'])}" if d.get("tags") else "")]
    stats = list((game.data.get("stats") or {}).keys())
    fields = game.data.get("card_fields") or {}
    nums = [f"{k} {d[k]}" for k in stats if k in d and not isinstance(d[k], (bool, dict, list))]
    # a field with a few named values (melee or ranged, a phase) reads as words; yes/no flags
    # and internal fields are the rules' business, and the text says what they do
    words = [f"{k.replace('_', ' ')} {d[k]}" for k, f in fields.items() if k in d and k not in stats and "enum" in f
             and isinstance(d[k], str)]
    if copies and "copies" in d:
        words.append(f"copies {d['copies']}")
    if nums or words:
        out.append("  " + ", ".join(nums + words))
    for k, f in fields.items():   # a list of numbers (Summonaria's cost in three resources), with what they are
        v = d.get(k)
        if isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            said = f.get("description") if isinstance(f, dict) else None
            out.append(f"  {k.replace('_', ' ')} " + "/".join(str(x) for x in v) + (f" ({said})" if said else ""))
    if d.get("text"):
        out.append(f"  {d['text']}")
    return out


def tint(text: str, player: int | None, colour: bool) -> str:
    """Text dimmed (and in its player's colour, if any) when colour is on: a square's shading."""
    if not colour:
        return text
    return f"\x1b[2m{COLOURS.get(player, '')}{text}{RESET}"


CELL = 9     # a board square's width
NARROW = 6   # the narrowest square: two letters, the controller, a space and a one-digit life, then a gap
ENTRY = 38   # the longest entry in the list of cards under the board
MIN_NAME = 8   # the fewest letters of a card's name an entry keeps before cutting what follows it


def grid_fit(columns: int, height: int, width: int) -> tuple[int, int]:
    """(a square's width, the letters of a card's abbreviation) for a grid of `columns` x
    `height` on a screen `width` characters wide: CELL and 3 where the board fits, else
    squares as wide as fit (NARROW at least; a board that cannot fit wraps) with
    two-letter abbreviations once a square is too narrow for three and a life."""
    margins = 5 + 2 + len(str(height))     # the row's number on each side
    if margins + columns * CELL <= width:
        return CELL, 3
    cell = max(NARROW, min(CELL, (width - margins) // max(1, columns)))
    return cell, 3 if cell >= 8 else 2


def render_board(view: dict, width: int, height: int, colour: bool = False, badge: str | None = None,
                 marks: dict | None = None, looks: Looks | None = None,
                 regions: Regions | None = None, on_board: list[str] | None = None,
                 cell: int = CELL, letters: int = 3) -> list[str]:
    """A grid board, top row first; a card shows as its abbreviated name and controller, then
    its life left (or `badge` tokens), + for attached cards and * for a changed stat; an
    empty space shows its mark, if the game gives it one, else its region's name when the
    game shows regions, else a dot. A square not `on_board` (its region is not in this
    match) is blank. Squares are `cell` characters wide (what a square shows is cut to leave
    a gap) and cards go by their first `letters` letters (grid_fit picks both)."""
    marks = marks or {}
    absent = set() if on_board is None else {f"{chr(97 + x)}{y}" for x in range(width)
                                             for y in range(1, height + 1)} - set(on_board)
    cards = {c["id"]: c for c in view["cards"]}
    at = {s: cards[i] for s, i in view["spaces"].items() if i in cards}
    cols = [chr(97 + x) for x in range(width)]
    lines = ["     " + "".join(f"{c:^{cell}}" for c in cols)]
    for y in range(height, 0, -1):
        row = []
        for x in cols:
            c = at.get(f"{x}{y}")
            if f"{x}{y}" in absent:
                row.append(" " * cell)
            elif c is None:
                mark = marks.get(f"{x}{y}")
                shade = regions.square(f"{x}{y}", colour, cell) if regions is not None and not mark else None
                if mark:
                    row.append(_centred(_cut(mark, cell - 1), cell))
                elif shade is not None:
                    row.append(shade[0])
                else:
                    row.append(f"{'.':^{cell}}")
            else:
                if looks is not None:
                    text = looks.cell(c, badge, letters)
                else:
                    n = _tokens(c).get(badge, 0) if badge else 0
                    text = _short(c, letters) + (f"*{n}" if n else "")
                if columns(text) >= cell:   # (a wide (CJK) letter takes two columns)
                    text = _narrowed(c, text, letters, cell - 1)
                row.append(paint(_centred(text, cell), ctl(c), colour))
        lines.append(f"{y:>3}  " + "".join(row) + f"  {y}")
    lines.append(lines[0])
    return lines


def _narrowed(c: dict, text: str, letters: int, room: int) -> str:
    """A square's text in `room` columns: the name's letters go first (down to one), as
    the controller, the life and the signs after them are what a square is read for."""
    rest = text[len(_short(c, letters)):]
    keep = room - columns(rest) - len(str(ctl(c)))   # columns of the name that fit beside them
    name = _cut(_abbrev(c["name"], letters), keep) if keep >= 1 and "name" in c else ""
    if name:
        return name + str(ctl(c)) + rest
    return _cut(text, room)


def _cut(text: str, room: int) -> str:
    """The start of the text that takes at most `room` columns of a terminal."""
    used = 0
    for i, ch in enumerate(text):
        used += get_cwidth(ch)
        if used > room:
            return text[:i]
    return text


def _centred(text: str, cell: int) -> str:
    """The text in the middle of `cell` columns (as format's ^: the odd space on the right)."""
    pad = max(0, cell - columns(text))
    return " " * (pad // 2) + text + " " * (pad - pad // 2)


def render_graph(view: dict, board: dict, colour: bool = False, width: int = 120,
                 on_board: list[str] | None = None) -> list[str]:
    """A graph board, compact: a line per region (its facts, then each space's short name
    and what stands there), two regions side by side where they fit; only the spaces
    `on_board` (a region not in this match is not shown)."""
    cards = {c["id"]: c for c in view["cards"]}
    at = {s: cards[i] for s, i in view["spaces"].items() if i in cards}
    by_region: dict[str, list[str]] = {}
    shown = None if on_board is None else set(on_board)
    for s, sp in sorted((board.get("spaces") or {}).items()):
        if shown is not None and s not in shown:
            continue
        by_region.setdefault(sp.get("region") or "(no region)", []).append(s)
    regions = board.get("regions") or {}
    entries: list[tuple[str, int]] = []     # (text with colour, printed width)
    order = [r for r in regions if r in by_region] + sorted(r for r in by_region if r not in regions)
    for region in order:     # in game.yaml's order (a designer's: the Isle's track, heart, ridges, bays)
        spaces = by_region[region]
        info = regions.get(region) or {}
        facts = ", ".join(f"{k} {v}" for k, v in info.items() if isinstance(v, (int, str)) and not isinstance(v, bool))
        head = f"{region}" + (f" ({facts})" if facts else "") + ":"
        text, plain = head, head
        for s in spaces:
            short = s[len(region) + 1:] if s.startswith(region + "_") else s
            c = at.get(s)
            what = _short(c) if c else "."
            text += f" {short} " + (paint(what, ctl(c), colour) if c else what)
            plain += f" {short} {what}"
        entries.append((text, len(plain)))
    return _columns(entries, width)


def render_links(neighbors: dict[str, list[str]], width: int = 120) -> list[str]:
    """The paths of a graph board (Match.board_neighbors): each location and the locations it
    links to (spaces with no link, such as a track's, are left out)."""
    entries = []
    for s, links in sorted(neighbors.items()):
        if links:
            text = f"{s} - {', '.join(sorted(links))}"
            entries.append((text, len(text)))
    return ["paths (each location, then those it links to):"] + _columns(entries, width)


def _columns(entries: list[tuple[str, int]], width: int, gap: int = 3) -> list[str]:
    """Entries (text, printed width) in as many columns as fit the width (each column as wide
    as its widest entry), top to bottom then across, like `ls`."""
    if not entries:
        return []
    n = len(entries)
    for ncol in range(min(n, width // 4), 0, -1):
        rows = -(-n // ncol)
        cols = [entries[k * rows:(k + 1) * rows] for k in range(-(-n // rows))]
        widths = [max(w for _, w in col) for col in cols]
        if sum(widths) + gap * (len(cols) - 1) <= width or len(cols) == 1:
            break
    lines = []
    for r in range(rows):
        row = ""
        for k, col in enumerate(cols):
            if r >= len(col):
                break
            text, w = col[r]
            last = k == len(cols) - 1 or r >= len(cols[k + 1])
            row += text + ("" if last else " " * (widths[k] + gap - w))
        lines.append(row)
    return lines


def _shown(match: Match, name: str) -> bool:
    """Whether the screen lists a zone (game.yaml `shown: false` leaves bookkeeping off it)."""
    return ((match.game.data.get("zones") or {}).get(name) or {}).get("shown", True) is not False


def private_ids(match: Match, view: dict, player: int) -> list[tuple[str, list]]:
    """The player's own zones that only they may see: (zone name, the ids its view lists)."""
    zones = match.game.data.get("zones") or {}
    return [(name, view["zones"].get(f"{name}:{player}", {}).get("cards", []))
            for name, z in zones.items()
            if z.get("scope", "player") == "player" and z.get("visibility") == "owner" and _shown(match, name)]


def private_zones(match: Match, view: dict, player: int, every: bool = False) -> list[tuple[str, list[str]]]:
    """The player's own zones that only they may see (a hand, say): (zone name, card names
    bottom to top); every: those `shown: false` keeps off the screen too (`hand` asks for them)."""
    zones = match.game.data.get("zones") or {}
    cards = {c["id"]: c for c in view["cards"]}
    out = []
    for name, z in zones.items():
        if z.get("scope", "player") == "player" and z.get("visibility") == "owner" and (every or _shown(match, name)):
            ids = view["zones"].get(f"{name}:{player}", {}).get("cards", [])
            # (a face-down card whose face the zone's player does not know: as any list shows it)
            out.append((name, [cards[i].get("name") or f"face-down card {i}" for i in ids if i in cards]))
    return out


def _listed_card(c: dict, match: Match, fields: list[str], looks: Looks | None = None) -> str:
    """A card in a listed zone: name, #id, its fields (stats now, * when changed) and tokens;
    a face-down card as such."""
    if "name" not in c:
        return f"face-down card {c['id']}" + (looks.mark(c) if looks is not None else _mark_text(c))
    data = match.game.cards[c["def"]].data if c.get("def") in match.game.cards else {}
    now = looks.stats(c) if looks is not None else {}
    vals = []
    for f in fields:
        if f in now:
            vals.append(f"{_num(now[f])}" + ("*" if data.get(f) != now[f] else ""))
        elif f in data:
            vals.append(str(data[f]))
        else:
            vals.append("-")   # (a field the card has not: its place kept, so the others read as the legend says)
    while vals and vals[-1] == "-":
        vals.pop()
    text = f"{c['name']} #{c['id']}" + (f" {'/'.join(vals)}" if vals else "")
    toks = ", ".join(f"{k} {v}" for k, v in sorted((c.get("tokens") or {}).items()))
    if toks:
        text += f" [{toks}]"
    if c.get("under") and looks is not None:
        text += " with " + ", ".join(looks.attached(c))
    if c.get("face_down"):
        text += " (face down)" + (looks.mark(c) if looks is not None else _mark_text(c))
    return text


def _mark_text(c: dict, words: dict[str, str] | None = None) -> str:
    """What everyone knows of a face-down card (its mark, cards.mark), as ' [paid 11]': the
    game's words for it where `words` (Match.mark_words) has them, else its fields."""
    mark = c.get("mark")
    if mark is None or mark == {} or mark == []:
        return ""
    said = (words or {}).get(json.dumps(mark, sort_keys=True))
    if said is not None:
        return f" [{said}]" if said else ""

    def said(v) -> str:   # (as the rules wrote it: true, not Python's True)
        return ("true" if v else "false") if isinstance(v, bool) else v if isinstance(v, str) else json.dumps(v)
    if isinstance(mark, dict):
        return " [" + ", ".join(f"{k} {said(v)}" for k, v in sorted(mark.items())) + "]"
    return f" [{said(mark)}]"


def _shared(match: Match, name: str) -> bool:
    return ((match.game.data.get("zones") or {}).get(name) or {}).get("scope", "player") == "shared"


def listed_zones(match: Match, view: dict, player: int | None, looks: Looks | None = None) -> list[tuple[str, list[str]]]:
    """The zones game.yaml's `display: zones` lists, of one player (None: the shared ones,
    listed once), as the view shows them."""
    display = _display(match)
    fields = display.get("fields") or []
    cards = {c["id"]: c for c in view["cards"]}
    out = []
    for name in display.get("zones") or []:
        if _shared(match, name) != (player is None) or not _shown(match, name):
            continue
        z = view["zones"].get(name if player is None else f"{name}:{player}")
        if z is None or "cards" not in z:
            continue
        out.append((name, [_listed_card(cards[i], match, fields, looks) for i in z["cards"] if i in cards]))
    return out


def columns(text: str) -> int:
    """How many columns of a terminal the text takes: a wide (CJK) character takes two."""
    return get_cwidth(text)


def broken(line: str, width: int, rest: str) -> list[str]:
    """The line broken between words into parts of at most `width` columns, each part after
    the first starting with `rest`; the line's own indent and the spaces between words are
    kept, and a word wider than the room stays whole on a part of its own."""
    body = line.lstrip(" ")
    part, used, worded, gap = line[:len(line) - len(body)], len(line) - len(body), False, ""
    parts = []
    for token in re.findall(r"\S+|\s+", body):
        if token[0].isspace():
            gap = " " * len(token)    # (a tab or a line break read as a space, as textwrap does)
            continue
        size = columns(token)
        if worded and used + len(gap) + size > width:
            parts.append(part)
            part, used = rest + token, columns(rest) + size
        else:
            part, used = part + gap + token, used + len(gap) + size
        worded, gap = True, ""
    return parts + [part]


def _wrap(text: str, width: int) -> list[str]:
    """A long line broken between words to the width, the rest indented."""
    return broken(text, width, "    ")


def fitted(text: str, width: int) -> str:
    """Text whose lines of prose wider than the terminal (a log line of the rules, an
    error) are broken between words, each rest under the line's own indent and four more.
    Lines laid out already are left to the terminal: those with colour codes, and those
    with a run of spaces inside them (a board's row, columns of options), as is a line
    that breaks no better (a word nearly as wide as the terminal)."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        if columns(line) <= width or "\x1b" in line or "  " in body.rstrip(" "):
            out.append(line)
            continue
        parts = broken(line.rstrip(" "), width, " " * min(len(line) - len(body) + 4, width // 2))
        out += parts if columns(parts[0]) >= width // 2 else [line]
    return "\n".join(out)


def legend(match: Match, view: dict, width: int = 120) -> list[str]:
    """What the screen's abbreviations and signs mean, for this game."""
    display = _display(match)
    board = match.game.data["board"]
    out = []
    if board["type"] in ("grid", "graph"):
        life = display.get("life") or {}
        sign = (f"then its life left ({life['stat']}" + (f" less {life['less']}" if life.get("less") else "") + ")"
                if life.get("stat") else f"then *N, its {display['badge']} tokens" if display.get("badge") else "")
        # the example is a card on this board (the shortest name), else a made-up one
        shown = sorted((c for c in view["cards"] if c.get("space") and "name" in c),
                       key=lambda c: (len(c["name"]), ctl(c), c["space"]))
        letters = grid_fit(board["width"], board["height"], width)[1] if board["type"] == "grid" else 3
        ab, name, p = ((_abbrev(shown[0]["name"], letters), shown[0]["name"], ctl(shown[0])) if shown
                       else ("Abc"[:letters], "A Big Card", 2))
        out += _wrap(f"Legend: {ab}{p} = {name} (first letters, listed below) of "
                     + (f"player {p}" if p else "nobody (0: a card nobody controls)")
                     + (f", {sign}" if sign else ""), width)
        out.append("  + = cards attached to it (+Name below); * = a stat not as printed (now, printed); . = empty")
        flags = sorted((display.get("flags") or {}).items())
        if flags:
            out.append("  " + "; ".join(f"{sign} = a {token} token on it" for token, sign in flags))
        marks = sorted(set(space_marks(match, view).values()))
        if marks:   # (a mark the square cuts short is said in full: templ = temple)
            cell = grid_fit(board["width"], board["height"], width)[0] if board["type"] == "grid" else 0
            cut: dict[str, list[str]] = {}
            for m in marks:
                cut.setdefault(m[:cell - 1] if 0 < cell - 1 < len(m) else m, []).append(m)
            out += _wrap("  marked squares: " + ", ".join(
                short if full == [short] else f"{short} = {' or '.join(full)}" for short, full in cut.items()), width)
        if display.get("regions") and board["type"] == "grid" and board.get("regions"):
            title = (display["regions"].get("title") if isinstance(display["regions"], dict) else None) or "regions"
            out.append(f"  an empty square of a region shows the region's name ({title}: the line under the board)")
    if display.get("zones"):   # the zones listed under each player (a Field)
        fields = display.get("fields") or []
        out += _wrap("Legend: a listed card reads Name #N" + (f" {'/'.join(fields)}" if fields else "")
                     + (" (* = not as printed, now)" if fields else "")
                     + "; [token N] = tokens on it; face-down card ?N = one whose face you do not see, "
                     + "[...] after it = what everyone knows of it", width)
    if board["type"] in ("grid", "graph"):
        out.append("  `card SPACE` or `card NAME` shows a card in full; `legend` hides this")
    elif not display.get("zones"):   # (no list numbers its cards: by name alone)
        out.append("  `card NAME` shows a card in full; `legend` hides this")
    else:
        out.append("  `card #N` (a card as listed: #3, or ?3 face down) or `card NAME` shows a card in full; "
                   "`legend` hides this")
    return [part for line in out for part in _wrap(line, width)]   # (a long sign line too)


def known_text(view: dict, key: str) -> str:
    """The cards the view shows in a zone whose cards it does not list (one of a hidden
    deck that the seat was shown, say), as " (you know: Calm Seas)"; "" when none."""
    z = view["zones"].get(key)
    if z is None or "cards" in z:
        return ""
    names = sorted(c["name"] for c in view["cards"] if c.get("zone") == key and c.get("name"))
    return f" (you know: {', '.join(names)})" if names else ""


def shared_zones(match: Match, view: dict) -> str:
    """The zones that belong to no player (a shared deck, a common discard pile), as the
    view shows them: their size, and the cards of a public one by name ("" when the game
    has none). A hidden zone's cards are not listed even to a designer, who sees them."""
    by_id = {c["id"]: c for c in view["cards"]}
    specs = match.game.data.get("zones") or {}
    parts = []
    for key, z in sorted(view["zones"].items()):
        if ":" in key or not _shown(match, key):
            continue
        text = f"{key} {z['count']}{known_text(view, key)}"
        # (a zone `display: zones` lists has a line of its own: its count alone here)
        public = (specs.get(key) or {}).get("visibility") == "public" and key not in (_display(match).get("zones") or ())
        seen = [by_id[i]["name"] for i in (z.get("cards") or () if public else ())
                if i in by_id and by_id[i].get("name")]
        if seen:
            counts: dict[str, int] = {}
            for name in seen:
                counts[name] = counts.get(name, 0) + 1
            text += " (" + ", ".join(f"{n} {k}" if k > 1 else n for n, k in sorted(counts.items())) + ")"
        parts.append(text)
    return "shared: " + ", ".join(parts) if parts else ""


def render_state(match: Match, player: int | None, colour: bool = False, status: str | None = None,
                 show_legend: bool = False, width: int = 120) -> str:
    """The board, the cards on it, and each player's counters and zone sizes, as `player` sees them."""
    view = match.view(player)
    board = match.game.data["board"]
    badge = _display(match).get("badge")
    looks = Looks(match, view, player)
    lines = []
    marks = space_marks(match, view)
    regions = Regions(match, player, view)
    cell, letters = grid_fit(board["width"], board["height"], width) if board["type"] == "grid" else (CELL, 3)
    if board["type"] == "grid":
        lines += render_board(view, board["width"], board["height"], colour, badge, marks, looks, regions,
                              match.board_spaces(), cell, letters)
    elif board["type"] == "graph":
        lines += render_graph(view, board, colour, width, match.board_spaces())
    lines += regions.line(colour, width)
    on_board = sorted((c for c in view["cards"] if c.get("space")), key=lambda c: (ctl(c), c["space"]))
    entries = []
    for c in on_board:
        text = f"{c['space']:>3} {_short(c, letters)} "
        text += looks.brief(c, marks.get(c["space"]), room=ENTRY - len(text))
        if len(text) > ENTRY:    # three to a line on a 120-column terminal; `card SPACE` has the rest
            text = text[:ENTRY - 3] + "..."
        entries.append((paint(text, ctl(c), colour), len(text)))
    lines += _columns(entries, width)
    if show_legend:
        lines += legend(match, view, width)
    for i, pl in enumerate(view["players"], 1):
        parts = [f"{k} {v}" for k, v in sorted(view["counters"].get(str(i), {}).items())]
        for key, z in sorted(view["zones"].items()):
            name, _, owner = key.partition(":")
            if owner == str(i) and _shown(match, name):
                parts.append(f"{name} {z['count']}{known_text(view, key)}")
        label = f"P{i} {pl['name']}" + (f" ({pl['set']})" if pl.get("set") else "")
        lines.append(paint(f"{label}: " + ", ".join(parts), i, colour))
        listed = listed_zones(match, view, i, looks)
        for name, cards in listed:
            lines += [paint(t, i, colour) for t in _wrap(f"  {name}: " + (", ".join(cards) or "empty"), width)]
        if player is None or player == i:   # (a seat's own; every seat's for a designer, who sees all)
            for name, names in private_zones(match, view, i):
                if name not in {n for n, _ in listed}:   # (listed above already, with ids and fields)
                    lines += _wrap(f"  {name}: " + (", ".join(names) or "empty"), width)
    lines += [t for t in _wrap(shared_zones(match, view), width) if t]
    for name, cards in listed_zones(match, view, None, looks):
        lines += _wrap(f"  {name}: " + (", ".join(cards) or "empty"), width)
    if looks.mark_problem:   # (as the toolbar says its own error: the raw marks above are no mistake of the screen)
        lines += _wrap(f"(the game's card_mark failed, so marks show their fields: {looks.mark_problem})", width)
    if status is None:
        st = view
        status = ", ".join(([f"turn {st.get('turn')}"] if st.get("turn") or not st.get("round") else [])
                           + ([f"round {st['round']}"] if st.get("round") else []))
        asked = match.pending.player if match.pending is not None else st.get("active")   # (a rounds game's active is the rules')
        status += f", phase {st.get('phase')}, player {asked} to play" if not st.get("over") else ""
    lines.append(status)
    return "\n".join(lines)
