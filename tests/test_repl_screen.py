"""The screen a player reads (issue 19), through a pseudo-terminal where a person would see it,
and through Session where a plain function is enough."""
from __future__ import annotations

import json
import random
import re

import pytest

from engine.match import Match, Seat
from repl.session import Session

GAME = ["summoner_wars", "--players", "human:polar_dwarves,random:fallen_kingdom", "--seed", "4"]
COLUMNS = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s*$", re.M)   # the grid's column line, top and bottom


def boards(text: str) -> int:
    """How many boards a stretch of the screen shows (each has its column line twice)."""
    return len(COLUMNS.findall(text)) // 2


@pytest.fixture
def screen(play_screen):
    s = play_screen(*GAME)
    s.wait(r"P1>")
    return s


@pytest.fixture
def session(sw):
    s = Session(Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    return s


# -- bugs ------------------------------------------------------------------------------

def test_auto_never_stops_in_a_bots_turn(session):
    # auto 1 at a time through three turns of each side: every stop is the person's decision
    seen = set()
    while session.match.decisions < 90 and session.match.pending is not None:
        session.handle("auto 1")
        seen.add(session.to_act())
        assert session.to_act() in (1, None), f"auto stopped at decision {session.match.decisions} for P2"
    assert seen == {1}


def test_a_person_cannot_answer_for_a_bot(sw):
    s = Session(Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    assert s.to_act() == 2                      # the bot plays first; nothing has let it yet
    n = s.match.decisions
    out = s.handle("1")
    assert "P2 is a bot: type bot to let it answer, or auto N" in out
    assert s.match.decisions == n


def test_auto_shows_the_board_once_and_stops_at_the_persons_decision(screen):
    screen.type("auto 12")
    text = screen.wait(r"P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert boards(text) == 1
    assert "(a bot) is to answer" not in text


def test_load_shows_the_board_once(screen, tmp_path):
    save = tmp_path / "m.json"
    screen.type(f"save {save}")
    screen.wait(r"saved \d+ decisions")
    screen.type(f"load {save}")
    text = screen.wait(r"loaded [\s\S]*P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert boards(text) == 1


def test_quit_offers_to_save(screen, tmp_path):
    screen.type("End summon phase")
    screen.wait(r"Move up to 3 units[\s\S]*P1>")
    screen.type("quit")
    save = tmp_path / "quit.json"
    screen.answer_quit(str(save))
    assert json.loads(save.read_text())["answers"][-1] == "End summon phase"


def test_play_without_a_seed_picks_one_and_names_it_at_the_end(play_screen, tmp_path):
    seeds = []
    for _ in range(2):
        s = play_screen("summoner_wars", "--players", "human:polar_dwarves,random:fallen_kingdom")
        s.wait(r"P1>")
        assert "seed" not in s.text.lower()      # fair play: not at the start
        save = tmp_path / f"s{len(seeds)}.json"
        s.type("quit")
        s.wait("Save before quitting")
        s.type(str(save))
        s.wait(r"this match was seed (\d+): `summon play summoner_wars --seed \1`")
        seed = int(re.search(r"this match was seed (\d+)", s.text).group(1))
        assert json.loads(save.read_text())["seed"] == seed
        seeds.append(seed)
    assert seeds[0] != seeds[1]     # 1 in 2^63 to fail by chance
    # 63 bits, too many seeds to try offline for the one that deals the cards in sight
    # (fails by chance 1 in 2^64)
    assert max(seeds) >= 1 << 31, seeds


# -- counters as players count them, and the seat being asked -------------------------------

def test_summoner_wars_counts_each_players_own_turns_and_shows_the_summoners_life(screen):
    # P2 played turn 1 of the match; P1's first turn is the match's second
    assert "P1's turn 1 | life " in screen.text
    assert re.search(r"P1's turn 1 \| life [^|]*Svara 12/12", screen.text)
    screen.type("End summon phase")
    screen.wait(r"Move up to 3 units[\s\S]*P1>")
    screen.type("auto 30")
    text = screen.wait(r"P1 \(you\):[^\n]*\n[\s\S]*P1>")
    assert "P1's turn 2 |" in text


def test_summoners_isle_shows_the_round_energy_and_the_seat_asked(play_screen):
    s = play_screen("summoners_isle", "--players", "random,human,random", "--seed", "3")
    text = s.wait(r"P2 \(you\):[^\n]*\n[\s\S]*P2>")
    status = [line for line in text.splitlines() if "to act" in line][-1]
    assert re.search(r"round 1 of 6 \| energy P1 \d+, P2 \d+, P3 \d+ \(36 to win\) \| phase \w+ \| P2 to act", status)
    assert "turn 0" not in text and "player 1 to play" not in text


def test_a_two_player_isle_shows_no_cape_and_card_does_not_take_one(play_screen):
    """The capes are for 3-4 players (player_counts): the 2-player board leaves them out."""
    s = play_screen("summoners_isle", "--players", "human,random", "--seed", "3")
    text = s.wait(r"P1>")
    assert "heart (bonus 3):" in text and "n_bay (bonus 1):" in text and "cape" not in text
    # the legend's example is a card of this board (as the list under it names it), not another game's
    ex = re.search(r"Legend: ([A-Z][a-z]+)(\d) = ([\w ]+) \(first letters, listed below\) of player \2", text)
    assert ex and f"{ex[1]}{ex[2]} {ex[3]}" in text and "Frm" not in text
    s.type("card n_cape_1")
    s.wait(r"no card called 'n_cape_1' and no such space")
    four = play_screen("summoners_isle", "--players", "human,random,random,random", "--seed", "3")
    assert "n_cape (bonus 2):" in four.wait(r"P1>")


def test_a_graph_boards_regions_are_listed_in_game_yamls_order():
    # the Isle's track, then the heart, the ridges, the bays (they were in the order of their names)
    from engine.loader import load_game
    from repl.render import render_graph
    game = load_game("summoners_isle")
    m = Match(game, 3, [Seat("human"), Seat("random")], quiet=True)
    text = "\n".join(render_graph(m.view(1), game.data["board"], width=40, on_board=m.board_spaces()))
    heads = re.findall(r"^(\S[^:(]*?)(?: \(bonus \d\))?:", text, re.M)
    assert heads == [r for r in game.data["board"]["regions"] if "cape" not in r], text
    assert heads[:3] == ["Turn order", "heart", "n_ridge"]


def test_the_isles_paths_are_shown_by_board_and_card(play_screen):
    """Where to summon needs the map's paths: `board` lists each location's links (on this
    board only: no cape in a 2-player game), `card LOCATION` names one location's."""
    s = play_screen("summoners_isle", "--players", "human,random", "--seed", "2")
    s.wait(r"P1>")
    s.type("board")
    text = s.wait(r"paths \(each location, then those it links to\):[\s\S]*P1>")
    assert "heart_ne - e_ridge_1, heart_nw, heart_se, n_ridge_3" in text
    assert "cape" not in text and "turn_1 -" not in text
    s.type("card heart_ne")
    s.wait(r"heart_ne: nothing there\s+links to e_ridge_1, heart_nw, heart_se, n_ridge_3")


def test_a_listed_zones_legend_says_what_its_signs_mean():
    from engine.loader import load_game
    s = Session(Match(load_game("summoner_tcg"), 5, [Seat("human"), Seat("random")]))
    text = s.screen()
    assert "Legend: a listed card reads Name #N strength/defense (* = not as printed, now)" in text
    assert "[token N] = tokens on it" in text


def test_summonarias_summon_question_says_the_armys_resource_order():
    from engine.loader import load_game
    m = Match(load_game("summonaria"), 3, [Seat("human", "defenders_of_steneval"), Seat("random"), Seat("random")])
    assert m.eval("return summon_offer(1).prompt")[0].endswith(
        "(3 resource cards in hand; costs are Dragon's Teeth-Bloodstones-Fairy Dust)")


def test_the_toolbar_is_the_games_and_built_from_the_seats_view(sw):
    # every shipped game declares one; it runs on the seat's view (no hidden card reaches it)
    from engine.loader import load_game
    for gid in ("summoner_wars", "summoners_isle", "summonaria", "summoner_tcg"):
        game = load_game(gid)
        assert game.data["display"]["toolbar"]
        s = Session(Match(game, 5, [Seat("human"), Seat("random")]))
        s.play_bots()
        bar = s.toolbar()
        assert bar.startswith(game.name + " | ") and f"P{s.to_act()} to act" in bar
        assert "failed" not in bar


def test_summonarias_toolbar_counts_crumbled_towers_held_as_the_goal_does():
    from engine.loader import load_game
    m = Match(load_game("summonaria"), 5, [Seat("human"), Seat("human")], quiet=True)
    s = Session(m)
    assert "towers held P1 1, P2 1" in s.toolbar()            # each advance guard on its own tower
    crumbled = m.eval('local n = 0; for _, t in ipairs(tower_spaces()) do if board.card_at(t) then '
                      'state.vars.towers[t] = "crumbled"; n = n + 1 end end; return n')
    assert crumbled == [2]
    assert "towers held P1 1, P2 1" in Session(m).toolbar()   # crumbled, still held


# -- the board: life left, changed stats, attachments, the legend, a card as it is now ------

def test_the_board_and_card_space_show_life_left_in_players_words(screen):
    found = re.search(r"(\b[a-f][1-8]) Ret2 Ret-Talus (\d+)/12", screen.text)
    assert found, "the list under the board names the enemy summoner with its life left"
    space, life = found.groups()
    assert re.search(rf"Ret2 {life}\b", screen.text)            # and the board shows it on its square
    assert "Legend: " in screen.text and "life left" in screen.text
    screen.type(f"card {space}")
    text = screen.wait(rf"{space}: Ret-Talus \(P2's\), life {life} of 12[\s\S]*P1>")
    assert "strength" in text and "Ret-Talus (fallen_kingdom): unit, summoner" in text
    for internal in ("copies", "active True", "abilities in Lua", "hooks", "kill_magic"):
        assert internal not in text
    screen.type("card a5")                # an empty space
    screen.wait(r"a5: nothing there")
    screen.type("legend")
    screen.wait(r"legend hidden")


def test_card_space_shows_changed_stats_and_attachments(sw):
    from conftest import position
    m = position(sw, 'local h = scenario.create("frost_mage", 1, "c4", {damage = 1}); '
                     'scenario.create("dwarf_gate", 1, "d4")', quiet=True)
    s = Session(m)
    s.keyboard = 1
    out = s.handle("card c4")
    # next to one of its structures the Frost Mage has 1 more strength (its own text)
    assert re.search(r"c4: Frost Mage \(yours\), life 3 of 4, strength \d \(printed 1\)", out)
    assert re.search(r"Frm1 3\*", s.screen())
    out = s.handle("card frost mage")
    assert out.startswith("Frost Mage (polar_dwarves): unit, common") and "at c4: Frost Mage (yours)" in out


@pytest.mark.parametrize("game, players", [("summoner_wars", 2), ("summoners_isle", 2), ("summoners_isle", 4),
                                           ("summonaria", 2), ("summonaria", 4), ("summoner_tcg", 2),
                                           ("summoner_tcg", 4)])
def test_every_screen_of_a_game_fits_120_by_40(game, players):
    # every screen of a random game, as the human at seat 1 sees it, with the prompt and toolbar
    from engine.loader import load_game
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    s = Session(Match(load_game(game), 2, [Seat("human")] + [Seat("random")] * (players - 1)), colour=True)
    s.play_bots()
    rng = random.Random(2)
    worst = (0, 0)
    while s.match.pending is not None and s.match.decisions < 300:
        lines = ansi.sub("", s.screen()).splitlines() + ["P1> ", s.toolbar()]
        worst = max(worst, (len(lines), max(len(line) for line in lines)))
        assert len(lines) <= 40 and max(len(line) for line in lines) <= 120, (
            f"decision {s.match.decisions}: {len(lines)} lines, {max(len(line) for line in lines)} wide:\n"
            + "\n".join(lines))
        s.answer(rng.randrange(len(s.match.options())))    # seat 1 plays at random too (no search)
        s.play_bots()
    assert worst[0] > 10        # the screens were looked at


@pytest.mark.parametrize("game, players", [("summoner_wars", 2), ("summoners_isle", 4), ("summonaria", 2),
                                           ("summonaria", 4), ("summoner_tcg", 2)])
def test_every_line_of_a_game_fits_an_80_column_terminal(game, players):
    # the board (Summonaria's 11 columns of 9 were 108 wide), the legend and long option labels
    from engine.loader import load_game
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    s = Session(Match(load_game(game), 2, [Seat("human")] + [Seat("random")] * (players - 1)), colour=True)
    s.COLUMNS, s.ROWS, s.show_legend = 80, 24, True
    s.play_bots()
    rng = random.Random(2)
    wrapped = 0
    while s.match.pending is not None and s.match.decisions < 300:
        lines = ansi.sub("", s.screen()).splitlines() + [s.toolbar(80)]
        assert max(len(line) for line in lines) <= 80, (
            f"decision {s.match.decisions}:\n" + "\n".join(line for line in lines if len(line) > 80))
        wrapped += sum(1 for line in s.options_text().splitlines() if re.match(r" {5,}\S", line))
        s.answer(rng.randrange(len(s.match.options())))
        s.play_bots()
    if game == "summoner_wars":
        assert wrapped, "no option label was long enough to wrap: the test saw none"


def test_a_board_too_wide_for_the_terminal_narrows_its_squares_and_abbreviations():
    from engine.loader import load_game
    from repl.render import render_state
    m = Match(load_game("summonaria"), 2, [Seat("human"), Seat("bot")], quiet=True)
    wide, narrow = render_state(m, 1, width=120), render_state(m, 1, width=80, show_legend=True)
    assert last_board(wide)["j10"] == "Mum2 4" and "j10 Mum2 Mummy 4/4" in wide
    heads = list(SMN_COLUMNS.finditer(narrow))
    rows = narrow[heads[0].end():heads[1].start()].strip("\n").split("\n")
    assert len(rows) == 11 and max(len(r) for r in rows) <= 80
    cells = {f"{chr(97 + x)}{line[:3].strip()}": line[5 + 6 * x:11 + 6 * x].strip() for line in rows for x in range(11)}
    # squares of 6: two letters of the name, the controller and the life; marks and domains cut to fit
    assert cells["j10"] == "Mu2 4" and cells["a11"] == "templ" and cells["c9"] == "nw" and cells["f6"] == "tower"
    assert "j10 Mu2 Mummy 4/4" in narrow          # the list under the board uses the board's abbreviation
    assert "Legend: Mu2 = Mummy" in narrow
    # a square too narrow for all of it keeps the controller, the life and the signs, and cuts the name
    m.eval('tokens.add(board.card_at("j10"), "blessing")')
    text = render_state(m, 1, width=80)
    heads = list(SMN_COLUMNS.finditer(text))
    row = next(line for line in text[heads[0].end():heads[1].start()].split("\n") if line.startswith(" 10"))
    assert row[5 + 6 * 9:11 + 6 * 9].strip() == "M2 4!" and last_board(render_state(m, 1))["j10"] == "Mum2 4!"
    # a board that fits keeps its squares of 9
    sw = Match(load_game("summoner_wars"), 1, [Seat("human"), Seat("bot")], quiet=True)
    board = [text.split("\n")[:10] for text in (render_state(sw, 1, width=80), render_state(sw, 1, width=120))]
    assert board[0] == board[1] and re.match(r"\s+a {8}b {8}c", board[0][0]), board


def test_at_80_columns_a_long_log_line_breaks_between_words_and_a_cut_mark_is_said_in_full(play_screen):
    """Summonaria's first log lines and its legend, read on an emulated 80-column terminal:
    the line about the end of the game ran past the width and the terminal broke it inside
    a word; the temples' squares read `templ`, which the legend did not name."""
    s = play_screen("summonaria", "--players", "human,bot", "--seed", "1", size=(60, 80))
    s.wait(r"P1>")
    rows = s.rows()
    start = next(i for i, row in enumerate(rows) if row.startswith("[0] If nobody has won after 30 rounds"))
    assert rows[start].endswith("wins,") and rows[start + 1] == "    then most hits left on the board, then most " \
                                                                  "resource cards", "\n".join(rows)
    assert "  marked squares: porta = portal1 or portal2, templ = temple, tower" in rows, "\n".join(rows)
    assert max(len(row) for row in rows) <= 80
    s.type("quit")
    s.answer_quit("")


def test_fitted_breaks_only_plain_lines_wider_than_the_terminal():
    from repl.render import fitted
    assert fitted("short\n  " + "word " * 30, 40).split("\n") == [
        "short", "  " + "word " * 6 + "word", *["      " + "word " * 6 + "word"] * 3, "      word word"]
    coloured = "\x1b[1m" + "x" * 100 + "\x1b[0m"
    assert fitted(coloured, 40) == coloured          # (laid out by the screen already)
    assert fitted("y" * 100, 40) == "y" * 100        # (one word: not broken inside it)
    row = " 11  templ   nw    nw    nw    nw    .     ne    ne    ne    ne  templ   11"
    assert fitted(row, 40) == row                    # (a board's row, columns: laid out already)
    label = "  12. " + "z" * 60 + " end"
    assert fitted(label, 40) == label                # (the number would stand alone on its line)


def test_a_boards_squares_hold_wide_names_by_the_columns_they_take():
    """A card named in wide (CJK) letters took two columns a letter, so its square ran past
    its width and every square after it stood out of its column; a mark likewise."""
    from repl.render import columns, render_board
    view = {"cards": [{"id": 1, "name": "火竜炎王", "controller": 1, "tokens": {}},
                      {"id": 2, "name": "Frost Mage", "controller": 2, "tokens": {"damage": 2}}],
            "spaces": {"a1": 1, "b1": 2}}
    for cell, letters in ((9, 3), (6, 2)):
        lines = render_board(view, 3, 2, badge="damage", marks={"c2": "神殿の門"}, cell=cell, letters=letters)
        rows = lines[1:-1]
        assert {columns(r) for r in rows} == {5 + 3 * cell + 3}, lines
        a1 = next(r for r in rows if r.startswith("  1"))
        assert a1.split()[1] == ("火竜炎1" if cell == 9 else "火竜1") and a1.split()[2] == ("Frm2*2" if cell == 9 else "Fm2*2")


def test_a_line_is_broken_by_the_columns_it_takes_on_the_terminal():
    """A wide (CJK) character takes two columns of a terminal: a line of them is broken so
    that no part is wider than the terminal, and a line that fits in columns is left whole."""
    from repl.render import _wrap, columns, fitted
    city = "城市"                                     # two characters, four columns
    parts = fitted("  " + " ".join([city] * 30), 40).split("\n")
    assert [columns(p) for p in parts] == [36, 40, 40, 40, 15]   # (7 to a line, 5 columns each)
    assert parts[1] == "      " + " ".join([city] * 7)
    assert fitted(" ".join([city] * 7), 40) == " ".join([city] * 7)    # 34 columns: whole
    assert [columns(p) for p in _wrap("Legend: " + " ".join([city] * 12), 30)] == [27, 28, 18]
    assert _wrap("a-b c\td", 80) == ["a-b c d"]       # (a tab reads as a space)


def test_the_screen_fits_a_120_by_40_terminal(play_screen):
    """Read on the emulated terminal, as a person sees it: the whole status, from its
    turn order to the prompt, is on the screen, and no line of it ran past the width
    (a line too long goes on in the next row, whose first column it fills)."""
    s = play_screen("summoners_isle", "--players", "human,random,random,random", "--seed", "2", size=(40, 120))
    text = s.wait(r"P1>")
    start = text.rindex("Turn order:")
    printed = text[start:text.index("P1>", start)].replace("\r", "").rstrip("\n").split("\n")
    rows = s.rows()
    tops = [i for i, row in enumerate(rows) if row.startswith("Turn order:")]
    assert tops, "the status's first line has scrolled off the top:\n" + "\n".join(rows)
    shown = rows[tops[-1]:tops[-1] + len(printed)]
    assert [line.rstrip() for line in printed] == shown, "\n".join(rows)
    assert any(row.startswith("P1>") for row in rows[tops[-1] + len(printed):]), "\n".join(rows)


# -- options name whose card they are about; attacking your own card asks to confirm ------------

def test_targets_name_their_owner_and_life_and_an_attack_on_your_own_card_asks_to_confirm(sw):
    from engine.loader import LuaSource
    m = Match(sw, 1, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")],
              scenario=LuaSource("scenario", 'scenario.create("frost_mage", 1, "c4"); '
                                             'scenario.create("dwarf_gate", 1, "d4"); '
                                             'scenario.create("undead_carrier", 2, "c5", {damage = 1})'))
    s = Session(m)
    for a in ("End summon phase", "End move phase", "End build phase", "Attack with Frost Mage at c4"):
        s.handle(a)
    text = s.options_text()
    assert re.search(r"\d\. Undead Carrier at c5  \(P2's, life 2 of 3\)\n", text)
    own = re.search(r"(\d)\. Gate at d4  \(yours, life 5 of 5\)  !! Frost Mage would attack your own Gate", text)
    assert own
    n = s.match.decisions
    out = s.handle(own.group(1))
    assert out == f"Frost Mage would attack your own Gate: answer {own.group(1)} again to confirm, or choose another option"
    assert s.match.decisions == n
    s.handle(own.group(1))
    assert s.match.decisions == n + 1 and s.match.answers[-1] == "Gate at d4"


def test_a_unit_whose_only_targets_are_your_own_cards_is_marked_before_its_target_is_taken_for_you(sw):
    """Its one target would be taken without asking: the warning comes on the unit, where
    the player can still choose another."""
    from engine.loader import LuaSource
    m = Match(sw, 1, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")],
              scenario=LuaSource("scenario", 'scenario.create("frost_mage", 1, "a4"); '
                                             'scenario.create("dwarf_gate", 1, "a3"); '
                                             'scenario.create("ice_golem", 1, "e4"); '
                                             'scenario.create("undead_carrier", 2, "e5")'))
    s = Session(m)
    for a in ("End summon phase", "End move phase", "End build phase"):
        s.handle(a)
    text = s.options_text()
    mage = re.search(r"(\d)\. Attack with Frost Mage at a4  \(yours, life 4 of 4\)  !! only your own cards in "
                     r"reach\n", text)
    assert mage, text
    assert re.search(r"\d\. Attack with Ice Golem at e4  \(yours, life 5 of 5\)\n", text), text   # an enemy is next to it
    n = s.match.decisions
    assert "answer " + mage.group(1) + " again to confirm" in s.handle(mage.group(1))
    assert s.match.decisions == n


def test_in_the_terminal_a_choice_taken_for_you_is_said_and_options_name_whose_card(play_screen):
    s = play_screen("summoner_wars", "--players", "human:fallen_kingdom,random:polar_dwarves", "--seed", "3")
    s.wait(r"P1>")
    s.type("Summon Hellfire Cultist (cost 0)")
    s.wait(r"where\?[\s\S]*P1>")
    s.type("e3")
    s.wait(r"summons Hellfire Cultist at e3[\s\S]*P1>")
    s.type("Summon Undead Carrier (cost 1)")        # one space is left next to the gate
    s.wait(r"Summon Undead Carrier where\?: d2 \(the only option for player 1, taken without asking\)")
    s.wait(r"Move up to 3 units[\s\S]*P1>")
    s.type("End move phase")
    text = s.wait(r"Attack with up to 3 units[\s\S]*P1>")
    assert re.search(r"Attack with Ret-Talus at d1 +\(yours, life 12 of 12\) +!! only your own cards in reach",
                     text), text


# -- the hand in the screen's order; a hand-off tells what happened ------------------------------

def test_hand_lists_the_cards_as_the_screen_does(screen):
    on_screen = re.search(r"\n  hand: ([^\n]*)\n", screen.text).group(1).strip()
    screen.type("hand")
    text = screen.wait(r"P1:\s+hand: [^\n]*\n[\s\S]*P1>")
    assert re.search(r"P1:\s+hand: ([^\n]*)\n", text).group(1).strip() == on_screen


def test_after_a_hand_off_the_incoming_player_reads_what_the_other_did(play_screen):
    s = play_screen("summoner_wars", "--players", "human,human", "--seed", "4")
    s.wait(r"Pass to player 2, then press Enter")
    s.type("")
    s.wait(r"P2 \(you\)[\s\S]*P2>")
    for phase in ("summon", "move", "build", "attack", "magic"):
        s.type(f"End {phase} phase")
        s.wait(rf"P2: End {phase} phase")
    s.wait(r"Pass to player 1, then press Enter")
    s.type("")
    text = s.wait(r"P1 \(you\)[\s\S]*P1>")
    start = text.index("So far:")
    summary = text[start:COLUMNS.search(text, start).start()]   # up to the board
    for phase in ("summon", "move", "build", "attack"):
        assert f"P2: End {phase} phase" in summary
    assert "P2 made a secret choice" in summary and "magic" not in summary   # the magic phase's, secret
    assert "hand" not in summary.replace("hand 5", "")     # nothing of P2's hand but its size


# -- a decision taken without asking is said ---------------------------------------------------

def test_a_single_option_taken_without_asking_is_announced_but_not_a_secret_one(sw):
    s = Session(Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")]))
    s.play_bots()
    rng = random.Random(3)
    while s.match.decisions < 60 and s.match.pending is not None:
        s.answer(rng.randrange(len(s.match.options())))
        s.play_bots()
    said = [e.text for e in s.log if "taken without asking" in e.text]
    assert said and all(re.fullmatch(r".+: .+ \(the only option for player \d, taken without asking\)", t)
                        for t in said)
    # an empty phase is asked all the same (what the hand holds is secret), so the engine
    # no longer takes it (test_an_empty_phase_is_asked_and_a_lone_persons_is_taken_for_them)
    assert not any(t.startswith("Build structures: End build phase") for t in said)
    quiet = Match(sw, 4, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")], quiet=True)
    assert quiet.messages() == []      # bots' and sims' quiet matches say nothing, as before


def test_the_move_prompt_says_how_many_moves_are_used(session):
    session.handle("End summon phase")
    assert "P1 (you): Move up to 3 units (0 of 3 moved)" in session.options_text()
    unit = next(o for o in session.match.options() if o.startswith("Move "))
    session.handle(unit)
    while not session.match.pending.prompt.startswith("Move up to"):   # where to, then any follow-up
        session.handle("1")
    assert "(1 of 3 moved)" in session.options_text()


# -- the board's regions (display: regions): Summonaria's domains ---------------------------------

SUMMONARIA = ["summonaria", "--players", "human,bot,bot,bot", "--seed", "3"]
SMN_COLUMNS = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\s+i\s+j\s+k\s*$", re.M)


def last_board(text: str) -> dict[str, str]:
    """The squares of the last 11x11 board on the screen: space -> what its cell shows."""
    heads = list(SMN_COLUMNS.finditer(text))
    assert len(heads) >= 2, text[-3000:]
    rows = text[heads[-2].end():heads[-1].start()].strip("\r\n").replace("\r", "").split("\n")
    assert len(rows) == 11, rows
    cells = {}
    for line in rows:
        y = int(line[:5])
        assert line.rstrip().endswith(f"  {y}"), line
        for x in range(11):
            cells[f"{chr(97 + x)}{y}"] = line[5 + 9 * x:14 + 9 * x].strip()
    return cells


def domain_squares(game) -> dict[str, str]:
    """space -> region, from game.yaml's board (the test's own reading, not the renderer's)."""
    return {s: r for r, info in game.data["board"]["regions"].items() for s in info["spaces"]}


def test_regions_show_on_their_empty_squares_with_a_line_of_who_holds_each():
    from engine.loader import load_game
    from repl.render import render_state
    game = load_game("summonaria")
    where = domain_squares(game)
    m = Match(game, 2, [Seat("human"), Seat("bot"), Seat("bot")], quiet=True)
    text = render_state(m, 1)
    cells = last_board(text)
    st = m.view(1)
    marks = st["vars"]["marks"]
    for s, shown in cells.items():
        if s in st["spaces"]:
            assert re.fullmatch(r"[A-Z][a-z]{2}\d \d", shown), (s, shown)        # a unit and its hits left
        elif s in marks:
            assert shown == marks[s], (s, shown)                                  # tower, ruin, temple, portalN
        else:
            assert shown == where.get(s, "."), (s, shown)                         # its domain's name, or . on the cross
    assert cells["f6"] == "tower" and cells["a1"] == "temple" and cells["c9"] == "nw" and cells["f3"] == "."
    # three players: sw, se, ne are held in seat order; nw is no one's
    assert "domains: sw = yours (P1), se = P2's, ne = P3's, nw = neutral; . = in none" in text
    assert "domains: sw = P1's, se = yours (P2), ne = P3's, nw = neutral" in render_state(m, 2)
    assert "domains: sw = P1's, se = P2's, ne = P3's, nw = neutral" in render_state(m, None)
    assert "an empty square of a region shows the region's name" in render_state(m, 1, show_legend=True)
    # with colour, a domain's squares are dimmed in their holder's colour
    assert "\x1b[2m\x1b[31m   sw    \x1b[0m" in render_state(m, 1, colour=True)
    assert "\x1b[2m   nw    \x1b[0m" in render_state(m, 1, colour=True)
    # without display: regions, the board is as before: dots, and no line of holders
    plain = load_game("summonaria")
    plain.data = {**plain.data, "display": {k: v for k, v in plain.data["display"].items() if k != "regions"}}
    bare = render_state(Match(plain, 2, [Seat("human"), Seat("bot"), Seat("bot")], quiet=True), 1)
    assert "domains:" not in bare and set(last_board(bare).values()) & {"sw", "nw"} == set()
    assert last_board(bare)["c9"] == "."


def test_a_flag_token_shows_its_sign_on_the_square_and_in_the_legend():
    """display: flags: Summonaria's blessed unit shows ! after its hits left (Sum1 2!)."""
    from engine.loader import load_game
    from repl.render import render_state
    game = load_game("summonaria")
    assert game.data["display"]["flags"] == {"blessing": "!"}
    m = Match(game, 2, [Seat("human"), Seat("bot")], quiet=True)
    space = sorted(m.view(1)["spaces"])[0]
    before = last_board(render_state(m, 1))[space]
    assert not before.endswith("!")
    m.eval(f'tokens.add(cards.get(state.spaces["{space}"]), "blessing", 1)')
    for seat in (1, 2, None):               # public, as tokens on the board are
        assert last_board(render_state(m, seat))[space] == before + "!"
    assert "! = a blessing token on it" in render_state(m, 1, show_legend=True)
    assert "! = " not in render_state(m, 1)         # the legend only when asked
    others = {s: c for s, c in last_board(render_state(m, 1)).items() if s != space}
    assert not any(c.endswith("!") for c in others.values())
    # a game without flags shows no sign
    game.data = {**game.data, "display": {k: v for k, v in game.data["display"].items() if k != "flags"}}
    plain = Match(game, 2, [Seat("human"), Seat("bot")], quiet=True)
    plain.eval(f'tokens.add(cards.get(state.spaces["{space}"]), "blessing", 1)')
    assert last_board(render_state(plain, 1))[space] == before


def test_a_flag_sign_that_is_not_one_plain_character_is_a_problem_on_its_line(game_copy):
    from conftest import edit
    from engine.check import check
    copy = game_copy("summonaria")
    game_yaml = copy.rules / "game.yaml"
    for sign in ("+", "!!", " "):
        text = game_yaml.read_text()
        game_yaml.write_text(re.sub(r'flags: \{blessing: "[^"]*"\}', f'flags: {{blessing: "{sign}"}}', text))
        found = check(str(copy.rules))
        assert [p.message for p in found] == [f"'{sign}' is not a sign: one character, not a space, +, * or . "
                                              "(the board's own signs)"]
        assert "flags:" in game_yaml.read_text().splitlines()[found[0].line - 1]
    edit(game_yaml, 'flags: {blessing: " "}', 'flags: {blessing: "^"}')
    assert check(str(copy.rules)) == []


def test_region_owners_run_on_the_seats_view_and_a_failing_one_is_said_not_raised():
    from engine.loader import load_game
    from repl.render import render_state
    game = load_game("summonaria")
    regions = dict(game.data["display"]["regions"])
    # sw goes to whoever sees player 2's hand: only player 2 does
    regions["owners"] = ('local n = 0; for _, c in ipairs(view.cards) do '
                         'if c.zone == "hand:2" and c.def then n = n + 1 end end; return {sw = n > 0 and 2 or 1}')
    game.data = {**game.data, "display": {**game.data["display"], "regions": regions}}
    m = Match(game, 2, [Seat("human"), Seat("bot")], quiet=True)
    assert "domains: sw = yours (P1), ne = neutral" in render_state(m, 1)
    assert "domains: sw = yours (P2), ne = neutral" in render_state(m, 2)
    for bad, said in [("return view.nothing.here", "attempt to index a nil value"),
                      ("return 'sw'", "owners must return a table region -> player"),
                      ("return {sw = 9, zz = 1, ne = 2}", None)]:
        regions["owners"] = bad
        game.data = {**game.data, "display": {**game.data["display"], "regions": regions}}
        text = render_state(Match(game, 2, [Seat("human"), Seat("bot")], quiet=True), 1)
        line = next(x for x in text.splitlines() if x.startswith("domains: "))
        if said:
            assert line.startswith("domains: sw, ne, se, nw; . = in none (the game's region owners failed: ")
            assert said in " ".join(text.split()), text
        else:    # what is not a region or a player is left out
            assert line.startswith("domains: ne = P2's, sw = neutral, se = neutral, nw = neutral"), line


def test_check_runs_the_toolbar_from_each_seat(game_copy):
    from conftest import edit
    from engine.check import check
    copy = game_copy("summoner_tcg")
    game_yaml = copy.rules / "game.yaml"
    edit(game_yaml, "view.counters[p].stamina or 0", "view.counter[p].stamina or 0")
    found = check(str(copy.rules))
    assert len(found) == 1 and found[0].message.startswith("display: toolbar fails from seat 1's view: "), found
    assert "attempt to index a nil value (field 'counter')" in found[0].message
    line = game_yaml.read_text().splitlines()[found[0].line - 1]
    assert "view.counter[p].stamina" in line                # placed on the Lua's own line


def test_check_runs_the_region_owners_from_each_seat(game_copy):
    from conftest import edit
    from engine.check import check
    copy = game_copy("summonaria")
    assert check(str(copy.rules)) == []
    game_yaml = copy.rules / "game.yaml"
    edit(game_yaml, "      return held\n", "      return held[view.active].x\n")
    found = check(str(copy.rules))
    assert len(found) == 1 and "display: regions: owners fails from seat 1's view" in found[0].message
    line = game_yaml.read_text().splitlines()[found[0].line - 1]
    assert "return held[view.active].x" in line          # the problem is placed on the Lua's own line
    edit(game_yaml, "      return held[view.active].x\n", "      held.centre = 1; return held\n")
    assert [p.message for p in check(str(copy.rules))] == [
        "display: regions: owners names no region of the board: 'centre'"]
    text = game_yaml.read_text()
    start = text.index("  regions:\n    sw:")
    end = text.index("\nzones:")
    game_yaml.write_text(text[:start] + text[end:])                 # a board without regions
    assert any("display: regions shows the board's regions, but board: declares none" in p.message
               for p in check(str(copy.rules)))


def test_summonaria_in_a_terminal_shows_domains_marks_the_own_hand_and_a_move(play_screen):
    from engine.loader import load_game
    where = domain_squares(load_game("summonaria"))
    s = play_screen(*SUMMONARIA, size=(40, 120))
    # the first question: before anyone acts, every player places their advance guard,
    # from the first player (P3) in turn order, so the person is asked after P3 and P4
    text = s.wait(r"P1 \(you\): Your advance guard: which unit holds the tower\?[\s\S]*P1>")
    assert last_board(text)["b2"] == "Dwa1 3" and last_board(text)["d4"] == "Baw1 3"
    s.type("Keep the Barbarian Warchief on the tower at d4")
    # then the trades step of P3's turn: the person may propose a trade
    text = s.wait(r"P1 \(you\): Player 3's turn begins: propose a trade\? \(you hold 3 resource cards\)\s+"
                  r"1\. Propose a trade to player 2\s+2\. Propose a trade to player 3\s+"
                  r"3\. Propose a trade to player 4\s+4\. No trade\s+P1>")
    screen = text[SMN_COLUMNS.search(text).start():]
    assert max(len(line.rstrip()) for line in screen.replace("\r", "").split("\n")) <= 120
    cells = last_board(text)
    for s_, shown in cells.items():   # each empty, unmarked square shows its domain (or . on the cross)
        if shown in ("sw", "se", "ne", "nw", "."):
            assert shown == where.get(s_, "."), (s_, shown)
    assert sum(v == "sw" for v in cells.values()) > 15 and sum(v == "nw" for v in cells.values()) > 15
    assert [cells[t] for t in ("a1", "k1", "a11", "k11")] == ["temple"] * 4 and cells["f6"] == "tower"
    assert cells["b2"] == "Dwa1 3" and cells["d4"] == "Baw1 3"          # the advance guard on portal and tower
    assert "domains: sw = yours (P1), se = P2's, ne = P3's, nw = P4's; . = in none" in text
    assert re.search(r"d4 Baw1 Barbarian War\.\.\. 3/3 on tower", text)
    # the own hand by name; the others' only as counts
    players = re.findall(r"^(P\d) Player \d \([a-z_]+\): army \d+, hand (\d+),[^\n]*\n(  hand: [^\n]*\n)?",
                         text.replace("\r", ""), re.M)
    assert [p for p, _, _ in players[-4:]] == ["P1", "P2", "P3", "P4"]
    assert players[-4][2] == "  hand: Dragon's Teeth, Bloodstones, Bloodstones\n" and players[-4][1] == "3"
    assert all(hand == "" for _, _, hand in players[-3:])
    s.type("No trade")
    # a bot may propose a trade to the person (who refuses it); the person starts a
    # proposal at the start of player 4's turn, in short questions, and backs out
    for _ in range(6):
        text = s.wait(r"P1 \(you\): (Player 4's turn begins: propose a trade\?|Player \d proposes: )[\s\S]*P1>")
        if "Player 4's turn begins: propose a trade?" in text:
            break
        s.type("Refuse the trade")
    else:
        pytest.fail("the bots went on proposing trades")
    s.type("Propose a trade to player 2")
    s.wait(r"P1 \(you\): A trade with player 2: which resource do you promise\? \(a secret choice\)\s+"
           r"1\. Promise Dragon's Teeth\s+2\. Promise Toadstools\s+3\. Promise Bloodstones\s+"
           r"4\. Promise Fairy Dust\s+5\. No trade\s+P1>")
    s.type("No trade")
    s.wait(r"Summon a unit\?[\s\S]*P1>")
    assert last_board(s.text)["b10"] == "portal4"                       # P4's Wasp Swarm left its portal
    s.type("Summon nothing this turn")
    s.wait(r"Move and engage[\s\S]*P1>")
    s.type("Move or attack with the Dwarven Axeman at b2")
    s.wait(r"1 square of movement left[\s\S]*P1>")
    s.type("Move to c3 (1)")
    text = s.wait(r"Dwarven Axeman moves b2 -> c3[\s\S]*Move and engage[\s\S]*P1>")
    after = last_board(text)
    assert after["c3"] == "Dwa1 3" and after["b2"] == "portal1" and after["c2"] == "sw"
    assert re.search(r"c3 Dwa1 Dwarven Axeman 3/3", text)


def test_a_face_down_card_on_the_board_shows_as_unknown_to_a_seat_that_cannot_see_it():
    """The view of such a card holds only where it is: the screen shows ?? and its
    player (never its name), where it used to stop on the missing name."""
    from engine.loader import load_game
    from repl.render import render_state
    m = Match(load_game("summoner_wars"), 1, [Seat("human"), Seat("bot")], quiet=True)
    card = m.eval("cards.on_board()[1]")[0]
    name, space, owner = card["name"], card["space"], card["controller"]
    m.eval("cards.turn_face_down(cards.on_board()[1])")
    other = render_state(m, 3 - owner, show_legend=True)
    assert f"??{owner}" in other and f"{space} ??{owner} a face-down card" in other
    entry = next(line for line in other.splitlines() if f"{space} ??{owner}" in line)
    assert name not in entry.split(f"{space} ??{owner}")[1].split("  ")[0]
    own = render_state(m, owner)
    assert f"??{owner}" not in own                  # its owner still sees what it is


def test_card_by_its_number_in_a_game_with_no_board_shows_it_and_a_hidden_card_as_face_down(play_screen):
    """Summoner TCG lists the cards on each Field as `Cinder Pup #3` (yours) and `face-down card
    ?4 [paid 13]` (another's): `card #3` and `card ?4` show them; a number not in sight, as the
    other seat's real id would be, shows nothing."""
    s = play_screen("summoner_tcg", "--players", "human,bot", "--seed", "5")
    s.wait(r"P1>")
    assert "`card #N`" in s.text and "`card SPACE`" not in s.text   # the legend of a game with no board
    s.type("1")        # prime the first card of the hand
    text = s.wait(r"field: (\w[\w ]*) #(\d+) [^\n]*\(face down\) \[paid (\d+)\][\s\S]*P1>")
    name, num, paid = re.search(r"field: (\w[\w ]*) #(\d+) [^\n]*\(face down\) \[paid (\d+)\]", text).groups()
    end = re.findall(r"(\d+)\. End turn", text)[-1]
    s.type(f"card #{num}")
    s.wait(rf"P1's field: {name} \(yours\), face down \(the others see a face-down card \[paid {paid}\]\)"
           rf"[\s\S]*{name} \(\w+\): summon[\s\S]*P1>")
    s.type(end)
    text = s.wait(r"P1: Pass \(your only option, taken for you: Player 2's turn ends: reveal a Gambit\?\)"
                  r"[\s\S]*Reveal your primed cards[\s\S]*P1>")
    theirs = re.findall(r"face-down card (\?\d+) \[paid (\d+)\]", text)
    assert theirs, "the bot primed cards on its turn"
    hidden, cost = theirs[-1]
    s.type(f"card {hidden}")
    s.wait(rf"P2's field: a face-down card of P2 \[paid {cost}\]\s*\n[\s\S]*P1>")
    s.type("card #99")
    s.wait(r"no card #99 in sight")


def _tcg_save_with_known_kinds(tmp_path):
    """A saved TCG match (human against random) at player 1's question, where player 2's
    Field holds face-down cards whose marks say whether they are Planes."""
    from engine.loader import load_game
    game = load_game("summoner_tcg")
    for seed in range(1, 60):
        m, pick = Match(game, seed, [Seat("human"), Seat("random")], quiet=True), random.Random(seed)
        while m.pending is not None and m.decisions < 150:
            kinds = [c for c in m.view(1)["cards"] if c.get("face_down") and (c.get("mark") or {}).get("kind")]
            if kinds and m.pending.player == 1 and "name" not in kinds[0]:
                path = tmp_path / "marks.json"
                m.save(path)
                return path, kinds[0]
            m.answer(pick.randrange(m.pending.count))
    raise AssertionError("no seed gives another's face-down card a known kind")


def test_a_face_down_cards_mark_shows_in_the_games_words_on_the_screen_and_in_card(play_screen, tmp_path):
    """The TCG's `display: card_mark` says what the table knows of a face-down card: the
    Stamina paid and whether it is a Plane, not the mark's raw fields (`kind other`)."""
    path, card = _tcg_save_with_known_kinds(tmp_path)
    mark = card["mark"]
    words = f"paid {mark['paid']}, " + ("a Plane" if mark["kind"] == "plane" else "not a Plane")
    s = play_screen("summoner_tcg", "--load", str(path))
    text = s.wait(r"field: face-down card[\s\S]*P1>")
    assert f"face-down card {card['id']} [{words}" in " ".join(text.split()), text
    assert "kind other" not in text and "kind plane" not in text
    s.type(f"card {card['id']}")
    s.wait(rf"P2's field: a face-down card of P2 \[{re.escape(words)}[^\]]*\]\s*\n[\s\S]*P1>")


def test_a_card_mark_that_fails_shows_the_marks_fields_as_they_are(tmp_path):
    from conftest import copy_game, edit
    from engine.loader import load_game
    from repl.render import Looks, render_state
    g = copy_game(tmp_path, "summoner_tcg")
    edit(g.rules / "game.yaml", 'local words = { "paid " .. mark.paid }', 'local words = { "paid " .. mark.nothing.x }')
    m = Match(load_game(str(g.rules)), 3, [Seat("random"), Seat("random")], quiet=True)
    m.rollout(seed=3, max_decisions=12)
    card = next(c for c in m.view(1)["cards"] if c.get("mark"))
    raw = " [" + ", ".join(f"{k} {v}" for k, v in sorted(card["mark"].items())) + "]"
    assert Looks(m, m.view(1), 1).mark(card) == raw
    # the screen says why, as it does for a failing toolbar (a modder's trial: the fallback was silent)
    screen = " ".join(render_state(m, 1, width=200).split())
    assert raw.strip() in screen and "(the game's card_mark failed, so marks show their fields: " in screen
    assert "nothing" in screen.split("card_mark failed")[1]


def test_an_entry_too_long_even_with_its_name_cut_cuts_its_tokens_and_keeps_life_and_mark():
    from engine.loader import load_game
    from repl.render import MIN_NAME, Looks
    m = Match(load_game("summonaria"), 3, [Seat("human"), Seat("bot")], quiet=True)
    view = m.view(1)
    looks = Looks(m, view, 1)
    unit = next(c for c in view["cards"] if c.get("space") and looks.life_left(c))
    left, most = looks.life_left(unit)
    short = {**unit, "name": "Mummy", "tokens": {"blessing": 1}}
    entry = looks.brief(short, "temple", room=29)
    assert len(entry) == 29 and re.fullmatch(rf"Mummy {left}/{most} bl\w*\.\.\. on temple", entry), entry
    long = {**unit, "name": "Barbarian Warchief", "tokens": {"blessing": 1}}
    entry = looks.brief(long, "tower", room=29)
    assert len(entry) <= 29 and re.fullmatch(rf"{'Barbarian'[:MIN_NAME]}\.\.\. {left}/{most} \w+\.\.\. on tower", entry), entry
    assert looks.brief(short, "temple") == f"Mummy {left}/{most} blessing 1 on temple"   # room enough: all of it


def test_an_entry_too_long_with_its_name_cut_drops_a_changed_stats_printed_value_first():
    """A 120-column list cut a changed stat (`defens...`); the printed value, which `card
    SPACE` says, goes before any of what the card is now."""
    from engine.loader import load_game
    from repl.render import Looks
    m = Match(load_game("summonaria"), 3, [Seat("human"), Seat("bot")], quiet=True)
    looks = Looks(m, m.view(1), 1)
    uid = next(c for c in m.view(1)["cards"] if c.get("space") and looks.life_left(c))["id"]
    m.edit(f"cards.get({uid}).base = {{attack = 9}}")
    view = m.view(1)
    looks = Looks(m, view, 1)
    unit = next(c for c in view["cards"] if c["id"] == uid)
    printed = looks.changed(unit)[0][2]
    assert looks.brief(unit, "temple", room=50).endswith(f" attack 9 ({printed}) on temple")
    entry = looks.brief(unit, "temple", room=36)
    assert len(entry) <= 36 and entry.endswith(" attack 9 on temple"), entry


def test_a_long_entry_under_the_board_cuts_the_name_and_keeps_what_the_card_stands_on():
    """The list under the board fits three entries to a 120-column line: a long one loses letters
    of the card's name (the board's abbreviation names it already), never its life or its mark."""
    from engine.loader import load_game
    from repl.render import ENTRY, MIN_NAME, _short, render_state, space_marks
    m = Match(load_game("summonaria"), 3, [Seat("human"), Seat("bot")], quiet=True)
    rng = random.Random(3)
    cut = whole = 0
    for _ in range(60):
        view = m.view(1)
        text = render_state(m, 1)
        marks = space_marks(m, view)
        for c in view["cards"]:
            if not c.get("space") or c["space"] not in marks:
                continue
            start = f"{c['space']:>3} {_short(c)} "
            found = re.search(re.escape(start) + r"(.*?)(?:   |$)", text, re.M)
            assert found, (start, text)
            entry = start + found.group(1)
            assert len(entry) <= ENTRY and entry.endswith(f" on {marks[c['space']]}"), entry
            name = str(c.get("name"))
            if found.group(1).startswith(name + " "):
                whole += 1
            else:
                assert re.match(re.escape(name[:MIN_NAME]) + r".*\.\.\. \d+/\d+", found.group(1)), entry
                assert len(start + name) + len(found.group(1)) - found.group(1).index("...") - 3 > ENTRY, entry
                cut += 1
        if m.pending is None:
            break
        m.answer(rng.randrange(len(m.options())))
    assert cut and whole      # (seed 3: the Barbarian Warchief on a tower is cut, short names are not)


def test_an_empty_phase_is_asked_and_a_lone_persons_is_taken_for_them(sw):
    # Nothing to build: the build phase is asked all the same, since whether it is asked must
    # not tell the other player what the hand holds. With no other person at the table the
    # session takes it for the person; the other seat reads it as any answer.
    from engine.loader import LuaSource
    lua = ('scenario.empty(1, "hand"); scenario.add(1, "hand", {"frost_mage"}); '
           'scenario.start(1, "build")')
    m = Match(sw, 1, [Seat("human", "polar_dwarves"), Seat("random", "fallen_kingdom")],
              scenario=LuaSource("scenario", lua))
    assert m.options() == ["End build phase"] and m.pending.player == 1
    s = Session(m)
    s.play_bots()
    (entry,) = [e for e in s.log if "End build phase" in e.text and e.asker == 1]
    assert entry.for_seat(1) == "P1: End build phase (your only option, taken for you: Build structures)"
    assert entry.for_seat(2) == "P1: End build phase"
    assert s.match.snapshot()["phase"] != "build"


def test_the_legend_offers_card_numbers_only_where_a_list_shows_them():
    """A game with no board whose screen lists no zone with numbers (`display: zones`) was
    told `card #N (a card as listed: #3 ...)`, and no list showed a #3."""
    from conftest import ROOT
    from engine.loader import load_game
    from repl.render import legend
    plain = Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 1, [Seat("human")] * 2, quiet=True)
    said = "\n".join(legend(plain, plain.view(1)))
    assert "`card NAME` shows a card in full" in said and "#N" not in said, said
    tcg = Match(load_game("summoner_tcg"), 1, [Seat("human")] * 2, quiet=True)
    assert "`card #N` (a card as listed: #3" in "\n".join(legend(tcg, tcg.view(1)))


def test_listed_zones_keep_each_fields_place_and_are_listed_once(tmp_path):
    """From a modder's trial: a zone its owner sees, listed under `display: zones`, was
    printed twice for its owner; a shared one was printed under every player; and a card
    without the first field showed its second in the first one's place."""
    import shutil

    from conftest import ROOT, edit
    from engine.loader import load_game
    from repl.render import render_state
    game = tmp_path / "listed"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", game)
    edit(game / "game.yaml", "zones:\n", "zones:\n  market: {scope: shared, visibility: public}\n")
    edit(game / "game.yaml", "stats:\n  value: 0\n", "stats:\n  value: 0\n  rank: 0\n")
    edit(game / "game.yaml", "card_fields:\n", "card_fields:\n  rank: {type: integer}\n")
    (game / "game.yaml").write_text((game / "game.yaml").read_text()
                                    + "display:\n  zones: [hand, market]\n  fields: [rank, value]\n")
    m = Match(load_game(str(game)), 7, [Seat("human"), Seat("human")], quiet=True)
    m.edit("cards.create('high', nil, 'market')")
    screen = render_state(m, 1)
    assert len(re.findall(r"^  hand: ", screen, re.M)) == 1, screen
    assert len(re.findall(r"^  market: ", screen, re.M)) == 1 and re.search(r"^  market: High #\d+ -/3$", screen, re.M), screen
    assert re.search(r"^  hand: Low #\d+ -/1", screen, re.M) and "shared: market 1" in screen, screen


def test_card_says_who_knows_a_face_down_card_and_its_mark_as_lua_writes_it(tmp_path):
    """From a modder's trial: `card` of a revealed face-down piece said "the others see a
    face-down card [piece True]", for the opponent who had been shown it too."""
    from conftest import ROOT
    from engine.loader import load_game
    s = Session(Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 7, [Seat("human"), Seat("human")]))
    cid = s.match.edit("local c = zones.cards(1, 'hand')[1]; cards.turn_face_down(c); cards.to_zone(c, 1, 'table'); "
                       "cards.mark(c, {piece = true}); return c.id")[0][0]
    s.pass_to(1)
    assert s.handle(f"card #{cid}").splitlines()[0].endswith(", face down (the others see a face-down card [piece true])")
    s.match.edit(f"cards.reveal(cards.get({cid}), 2)")
    assert "face down (known to all: it was shown to them [piece true])" in s.handle(f"card #{cid}").splitlines()[0]
