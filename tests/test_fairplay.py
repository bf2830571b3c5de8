"""Fair play in hot seat: player 2, at the keyboard, tries every way the REPL offers to learn
player 1's hand (undo, redo, auto, lua, seed, log, hand, the scrollback) and none shows it."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import ANSI, Screen
from engine.match import load_match

HOT_SEAT = ["summoner_wars", "--players", "human,human", "--seed", "5"]


def end_turn(s: Screen, player: int) -> str:
    """Answers player's decisions (ending phases where it can) until the keyboard must pass; returns
    the last screen player saw."""
    last = ""
    for _ in range(40):
        handed = rf"Pass to player (?!{player}\b)\d"
        # a new question: its options, then the prompt (the prompt alone may be the echo of the
        # answer just typed, redrawn before the answer is taken: typing on would type ahead)
        text = s.wait(rf"(?m)(^\s+\d+\. .*\n[\s\S]*P{player}>|{handed})")
        if re.search(handed, text):
            return last
        last = text if "hand:" in text else last
        options = re.findall(r"^\s+(\d+)\. (.*)$", text, re.M)
        pick = next((n for n, label in options if label.startswith(("End ", "Done", "Pass"))), "1")
        s.type(pick)
    raise AssertionError(f"player {player}'s turn did not end; screen ends:\n{last[-1500:]}")


def only_player_1_has_seen(save) -> list[str]:
    """Names of the cards in player 1's hand at a saved point that player 2 cannot see anywhere
    and was never told: a card player 1 played was announced, and a unit that stood on the
    board was named in the match's messages (another copy may be in the hand)."""
    m = load_match(save, quiet=False)
    told = "\n".join(m.messages())
    st, seen_by_2 = m.snapshot(), {c["name"] for c in m.view(2)["cards"]}
    played = {match.group(1) for who, key in zip(m.askers, m.answers) if who == 1
              for match in [re.match(r"Play (.+) \(cost \d+\)$", key)] if match}
    names = {st["cards"][i - 1]["name"] for i in st["zones"]["hand:1"]}
    return sorted(n for n in names - seen_by_2 - played
                  if not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", told))


def test_player_2_cannot_see_player_1s_hand_by_any_command(play_screen, tmp_path):
    s = play_screen(*HOT_SEAT)
    s.wait(r"Pass to player 1")
    s.type("")
    end_turn(s, 1)
    handoff = len(s.buf)
    s.type("")                                   # player 2 takes the keyboard
    s.wait(r"P2>")
    save = tmp_path / "at_handoff.json"
    tries = {
        f"save {save}": r"keep it from the other players",
        "undo": r"(cannot undo decision \d+: player 1 made it|nothing of yours to undo)",
        "redo": r"nothing to redo",
        "seed": r"the seed is shown only in designer mode",
        "lua zones.cards(1, 'hand')": r"attempt to index a nil value \(global 'zones'\)",
        "lua state": r"null",
        "lua view.zones['hand:1']": r'"count": \d+',
        "lua rng.int(1, 6)": r"attempt to index a nil value \(global 'rng'\)",
        "log 200": r"P1: End summon phase",
        "hand": r"P2:\s+hand: ",
        "auto 60": r"(Pass to player 1|P1 \(another player\) is to answer)",
    }
    for line, expect in tries.items():
        s.type(line)
        s.wait(expect)
    secret = only_player_1_has_seen(save)
    assert secret, "player 1 holds no card that player 2 cannot see: the test proves nothing"
    shown = ANSI.sub("", s.buf[handoff:])
    longer = {c["name"] for c in load_match(save, quiet=False).snapshot()["cards"]}

    def shows(name: str) -> bool:
        """Whether the screen names the card, not counting a longer name that has it as a word
        (the Gate in a hand is not shown by a Great Gate on the board)."""
        text = shown
        for other in sorted(longer, key=len, reverse=True):
            if other != name and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", other):
                text = text.replace(other, " ")
        return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None
    leaked = [name for name in secret if shows(name)]
    where = {n: [line for line in shown.splitlines() if n in line][:3] for n in leaked}
    assert not leaked, f"player 2 saw {leaked} from player 1's hand: {where}"
    assert "\x1b[3J" in s.buf[handoff:s.buf.find("P2>", handoff)], "the hand-off kept the scrollback"


def test_the_incoming_player_sees_what_happened_since_their_last_turn(play_screen):
    s = play_screen(*HOT_SEAT)
    s.wait(r"Pass to player 1")
    s.type("")
    text = s.wait(r"(?m)^\s+1\. (Summon .*)\n[\s\S]*P1>")
    summoned = re.search(r"(?m)^\s+1\. Summon (.*?) \(", text).group(1)
    s.type("1")                                  # a card played, so that player 1 draws at the end
    end_turn(s, 1)
    s.type("")
    text = s.wait(r"P2>")
    assert re.search(rf"So far:[\s\S]*P1: Summon {summoned}[\s\S]*Player 1 summons {summoned}[\s\S]*"
                     r"P1 made a secret choice[\s\S]*Player 1 draws 1 card", text)   # (the magic phase's)
    assert "End magic phase" not in text.split("So far:")[1]
    end_turn(s, 2)
    s.type("")
    text = s.wait(r"P1>")
    assert re.search(r"Since your last turn:[\s\S]*P2: End summon phase", text)
    assert "P1: End summon phase" not in text.split("Since your last turn:")[1].split("P1>")[0]


TCG_HOT = ["summoner_tcg", "--players", "human,human", "--seed", "3"]


def tcg_hot_at_the_first_handover(play_screen) -> Screen:
    """A hot-seat Summoner TCG where player 1 has ended the first turn: "Pass to player 2" shows."""
    s = play_screen(*TCG_HOT)
    s.wait(r"Pass to player 1")
    s.type("")
    s.wait(r"P1>")
    s.type("End turn")
    s.wait(r"Pass to player 2")
    return s


def test_each_seat_has_its_own_prompt_history(play_screen):
    """Up at a prompt brings back what was typed there before: in hot seat, only what this
    seat typed (player 1's secret choice, typed by label, came back at player 2's prompt)."""
    s = play_screen(*TCG_HOT)
    s.wait(r"Pass to player 1")
    s.type("")
    s.wait(r"P1>")
    s.type("Prime Spark Fox (cost 5)")
    s.wait(r"P1: Prime Spark Fox \(cost 5\) \(secret\)[\s\S]*P1>")
    s.type("End turn")
    s.wait(r"Pass to player 2")
    s.type("I keep Spark Fox for turn 3")     # typed at the handover: refused, and not kept
    s.wait(r"comes with Enter alone; quit leaves\)\s*Pass to player 2")
    s.type("\x1b[A", enter=False)            # Up at the handover brings back nothing
    s.type("")
    s.wait(r"P2 \(you\)[\s\S]*P2>")
    s.type("\x1b[A\x1b[Azz")                 # Up twice at player 2's own prompt, then zz
    text = s.wait(r"is neither an option nor a command")
    assert "'zz' is neither" in text and "Spark Fox" not in text


def test_quit_at_the_handover_leaves_without_showing_the_next_seat(play_screen, tmp_path):
    s = tcg_hot_at_the_first_handover(play_screen)
    s.type("let me see")                     # anything but Enter alone or quit: asked again
    s.wait(r"comes with Enter alone; quit leaves\)\s*Pass to player 2")
    s.type("quit")
    save = tmp_path / "between.json"
    s.answer_quit(str(save))
    after = ANSI.sub("", s.buf[s.buf.index("let me see"):])
    assert "hand:" not in after and "P2 (you)" not in after, after
    assert load_match(save).pending.player == 2


def hot_seat_saved(play_screen, tmp_path) -> Path:
    """A hot-seat Summoner TCG saved at player 2's first prompt (after player 1's turn)."""
    s = tcg_hot_at_the_first_handover(play_screen)
    s.type("")
    s.wait(r"P2>")
    save = tmp_path / "hot.json"
    s.type(f"save {save}")
    s.wait("keep it from the other players")
    return save


def test_loading_a_hot_seat_match_into_a_game_against_a_bot_passes_the_keyboard(play_screen, tmp_path):
    """A save of two people's match, loaded where one person played a bot: player 2's turn
    waits behind "Pass to player 2" (it was answered blind by player 1, with 1's hand shown)."""
    save = hot_seat_saved(play_screen, tmp_path)
    t = play_screen("summoner_tcg", "--players", "human,bot", "--seed", "3")
    t.wait(r"P1>")
    t.type(f"load {save}")
    typed = t.wait(r"Pass to player 2, then press Enter")
    assert "hand:" not in typed[typed.index("loaded"):]   # no seat's screen before the handover
    t.type("")
    # what the load said was wiped with the screen: player 2 is told it
    t.wait(r"loaded \S*hot\.json: summoner_tcg, 1 decision\s[\s\S]*P2 \(you\)[\s\S]*P2>")


def test_a_hot_seat_load_that_stops_says_so_before_the_handover(play_screen, tmp_path):
    """A save whose answer is no longer offered, loaded into hot seat: the replay's stop was
    said only to the next seat, after the handover (quit there, and it was never said); it
    is said at once, naming whose decision, not what was answered."""
    import json
    save = hot_seat_saved(play_screen, tmp_path)
    data = json.loads(save.read_text())
    data["answers"][0] = "Prime Nothing Such"
    save.write_text(json.dumps(data))
    t = play_screen("summoner_tcg", "--players", "human,bot", "--seed", "3")
    t.wait(r"P1>")
    t.type(f"load {save}")
    typed = t.wait(r"Pass to player \d, then press Enter")
    said = typed[typed.index("loaded"):]
    assert "the replay stopped at decision 1" in said and "Nothing Such" not in said, said
    assert "hand:" not in said


def test_the_handover_on_a_narrow_screen_breaks_between_words(play_screen):
    """At 40 columns the terminal broke the handover's prompt where the edge fell ("(or t" /
    "ype quit)")."""
    s = play_screen(*TCG_HOT, size=(20, 40))
    s.wait(r"Pass to player 1[\s\S]*type quit\)\.")
    rows = [r for r in s.rows() if r]
    said = rows[rows.index(next(r for r in rows if r.startswith("Pass to player 1"))):]
    assert " ".join(said).split() == "Pass to player 1, then press Enter (or type quit).".split(), said
    assert all(len(r) <= 40 for r in said) and not any(r.startswith("ype") for r in said), said


def test_a_run_of_one_line_is_summed_up_at_the_handover():
    """From a modder's trial: a reveal of each card of a hand said "Player 2 shows player 1
    a card" once a card, and with five players the handover's summary ran off the screen."""
    from conftest import ROOT
    from engine.loader import load_game
    from engine.match import Match, Seat
    from repl.session import Session
    m = Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 7, [Seat("human"), Seat("human")])
    s = Session(m)
    s.pass_to(1)
    m.answer_key("Bid 1")
    m.edit("for _, c in ipairs(zones.cards(2, 'hand')) do cards.reveal(c, 1) end")
    s._take_messages()
    n = m.eval("return zones.count(2, 'hand')")[0]
    said = s.pass_to(2)   # (player 2 reads the run once; player 1, what it was shown, card by card)
    assert f"Player 2 shows player 1 a card ({n} times)" in said and n > 1, said
    assert said.count("shows player 1") == 1 and "You see" not in said
    said = s.pass_to(1)
    assert "shows player 1" not in said and said.count("You see ") == n, said


def test_a_seats_lua_that_reads_the_rules_tables_is_told_what_it_reads():
    """From a modder's trial: `lua cards.get(83)` in fair play said only that the global
    'cards' is nil."""
    from conftest import ROOT
    from engine.loader import load_game
    from engine.match import Match, Seat
    from repl.session import Session
    s = Session(Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 7, [Seat("human"), Seat("human")]))
    said = s.handle("lua cards.get(3)")
    assert "(global 'cards') (a seat's lua reads its own view, `view`" in said and "--designer" in said, said
    assert "a seat's lua" not in s.handle("lua nothing.x")


def test_a_seats_lua_and_toolbar_know_whose_view_they_read():
    """From a modder's trial: a toolbar could not say "your ...", as nothing told it whose
    view it was (`lua seat` gave null)."""
    from conftest import ROOT
    from engine.loader import load_game
    from engine.match import Match, Seat
    m = Match(load_game(str(ROOT / "tests" / "games" / "sealed_bid")), 7, [Seat("human"), Seat("human")])
    assert [m.eval("return seat", seat=p) for p in (1, 2)] == [[1], [2]]
