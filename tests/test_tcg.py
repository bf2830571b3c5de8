"""The Summoner TCG (rules/summoner_tcg): seeded bot games over 2 to 6 players with the
game's invariants checked after every answer, what each seat may see, deck lists and deck
rules, and `summon sim` finishing every game. Rules and cards are tested by the scenario
files in rules/summoner_tcg/tests and cards/summoner_tcg/tests."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT, copy_game, edit, seed_ranges, seeds_id, summon
from engine.errors import DefinitionError, EngineError
from engine.loader import load_game
from engine.match import Ask, Match, RandomBot, Seat, assign_sets, play
from invariants import check_invariants

GAME = "summoner_tcg"
START = 50


@pytest.fixture(scope="module")
def tcg():
    return load_game(GAME)


def seats_for(n: int) -> list[Seat]:
    decks = ["ember", "tide"]
    return [Seat("bot", decks[i % 2]) for i in range(n)]


# The game's own invariants, worked out in the match's Lua (cheap enough for every
# answer): each player's Stamina against the ledger of costs, damage and income, the
# Planes in play on the Fields (face down ones too: a primed card is in play), and the
# face-down cards (for the views' check).
TCG_LUA = """(function()
local out = { stamina = {}, planes = {}, down = {} }
for _, p in ipairs(players.list()) do
  local led = state.vars.ledger[p]
  local got, want = counters.get(p, "stamina"), %d - led.paid - led.damage + led.income + (led.head_start or 0)
  if got ~= want then
    out.stamina[#out.stamina + 1] = string.format("player %%d: Stamina %%d, but costs, damage and income give %%d (paid %%d, damage %%d, income %%d)",
                                                  p, got, want, led.paid, led.damage, led.income)
  end
  for _, c in ipairs(zones.cards(p, "field")) do
    if cards.has_tag(c, "plane") then
      out.planes[#out.planes + 1] = c.name .. (cards.is_face_down(c) and " (face down)" or "")
    end
  end
end
for _, c in ipairs(state.cards) do
  if c.face_down then out.down[#out.down + 1] = { id = c.id, owner = c.owner, seen_by = c.seen_by or {} } end
end
return out
end)()"""


def check_tcg(game, m: Match, seats: list[int] | None = None, full: bool = True) -> None:
    """Stamina moves only by costs, damage and income; at most one Plane in play (face up or
    down); no view
    of the seats given (all by default) shows another seat's face-down card or hand. With
    `full`, the engine's own invariants on the whole snapshot too."""
    if full:
        check_invariants(game, m.snapshot())
    (got,) = m.eval(TCG_LUA % START)
    assert not got["stamina"], got["stamina"][0]
    assert len(got["planes"]) <= 1, f"{len(got['planes'])} Planes in play: {got['planes']}"
    n = len(m.seats)
    ids_down = got["down"]
    for seat in seats or range(1, n + 1):
        v = m.view(seat)
        ids = {c["id"] for c in v["cards"]}
        for c in ids_down:
            if c["owner"] != seat and seat not in (c.get("seen_by") or []):
                assert c["id"] not in ids, f"seat {seat} sees face-down card {c['id']} by its id"
        for c in v["cards"]:
            if c.get("face_down") and isinstance(c["id"], str):
                assert "def" not in c and "name" not in c and "tokens" not in c, f"seat {seat} sees behind {c}"
        for key, z in v["zones"].items():
            name, _, owner = key.partition(":")
            if name in ("hand", "deck") and owner != str(seat):
                assert "cards" not in z, f"seat {seat} sees the cards of {key}"


# 320 seeded games: 150 of two players, 80 of three, 70 of four (the 300), 10 each
# of five and six (a game of four random bots runs to about 900 answers, of six to about
# 600: players drop out sooner). The game's invariants are checked after every answer, the
# engine's on the whole snapshot after every tenth, and the views for one seat per answer.
CASES = [(2, s) for s in seed_ranges(150, 10)] + [(3, s) for s in seed_ranges(80, 5)] + \
        [(4, s) for s in seed_ranges(70, 5)] + [(5, s) for s in seed_ranges(10, 5)] + \
        [(6, s) for s in seed_ranges(10, 5)]


@pytest.mark.slow
@pytest.mark.parametrize("players,seeds", CASES, ids=[f"{n}p-{seeds_id(s)}" for n, s in CASES])
def test_bot_games_keep_the_invariants_after_every_answer_and_end_with_a_winner(tcg, players, seeds):
    for seed in seeds:
        m = Match(tcg, seed, seats_for(players), quiet=True)
        check_tcg(tcg, m)
        bots = {p: RandomBot(seed, p) for p in range(1, players + 1)}
        play(m, bots, max_decisions=20000,
             on_decision=lambda match, p, key: check_tcg(tcg, match, [match.decisions % players + 1],
                                                         full=match.decisions % 10 == 0))
        assert m.is_over, f"seed {seed}: no end after {m.decisions} decisions"
        check_tcg(tcg, m)
        assert m.winner in range(1, players + 1), f"seed {seed}: ended without a winner"
        out = players_out(m.snapshot())
        assert m.winner not in out and len(out) == players - 1, f"seed {seed}: out {out}, winner {m.winner}"


def players_out(st: dict) -> list[int]:
    """The players out of the game (state.vars.out: a list when it runs from player 1 on)."""
    out = st["vars"]["out"]
    if isinstance(out, list):
        return [i for i, v in enumerate(out, 1) if v]
    return sorted(int(k) for k, v in out.items() if v)


# -- options outside the rulebook, for measuring the first player's lead -------------------

def ledgers(m: Match) -> dict[int, dict]:
    """Each player's Stamina ledger (state.vars.ledger: a list when it runs from player 1 on)."""
    led = m.snapshot()["vars"]["ledger"]
    return dict(enumerate(led, 1)) if isinstance(led, list) else {int(k): v for k, v in led.items()}


def _first_turns(tcg, options: dict, seed: int = 4, players: int = 2):
    """A match with these options, random answers from the start until every player has begun
    a main phase (the invariants checked after each answer): (the match, who went first, each
    player's (Stamina, hand, income so far) as its first main phase begins)."""
    m = Match(tcg, seed, seats_for(players), quiet=True, options=options)
    first = m.active
    at_main = {}
    bots = {p: RandomBot(seed, p) for p in range(1, players + 1)}
    while m.pending is not None:
        v = m.view(None)
        p = v["active"]
        if v["phase"] == "main" and p not in at_main:
            at_main[p] = (v["counters"][str(p)]["stamina"], v["zones"][f"hand:{p}"]["count"],
                          ledgers(m)[p]["income"])
            if len(at_main) == players:
                break
        m.answer(bots[m.pending.player](Ask(m)))
        check_tcg(tcg, m, full=False)
    return m, first, at_main


def test_by_default_every_turn_the_first_too_brings_the_draw_and_income_and_all_start_alike(tcg):
    m, first, at_main = _first_turns(tcg, {})
    assert at_main[first] == (START + 5, 8, 5)                  # the rulebook: the first turn too
    second = 3 - first
    assert at_main[second][1:] == (8, 5)
    assert all("head_start" not in led for led in ledgers(m).values())


def test_opening_turn_gains_0_takes_the_draw_and_income_from_the_games_first_turn_only(tcg):
    m, first, at_main = _first_turns(tcg, {"opening_turn_gains": 0})
    assert at_main[first] == (START, 7, 0)
    said = Match(tcg, 4, seats_for(2), options={"opening_turn_gains": 0}).messages()
    assert f"Player {first} takes the first turn without a draw or income" in said
    assert at_main[3 - first][1:] == (8, 5)            # the second player's first turn as the rulebook says


def test_not_first_stamina_starts_every_player_but_the_first_with_more(tcg):
    for players in (2, 3):
        m, first, at_main = _first_turns(tcg, {"not_first_stamina": 10}, players=players)
        assert {p for p, led in ledgers(m).items() if led.get("head_start") == 10} == set(at_main) - {first}
        assert at_main[first] == (START + 5, 8, 5)
    m = Match(tcg, 4, seats_for(2), quiet=True, options={"not_first_stamina": 10})
    later = 3 - m.active          # at the first question nothing has touched the other player yet
    assert m.view(None)["counters"][str(later)]["stamina"] == START + 10


def test_the_invariant_check_can_fail(tcg):
    """A Stamina change that is no cost, damage or income, and a second Plane in play (face
    down too), are caught."""
    m = Match(tcg, 1, seats_for(2), quiet=True)
    check_tcg(tcg, m)
    m.eval("counters.add(2, 'stamina', 3)")
    with pytest.raises(AssertionError, match="costs, damage and income"):
        check_tcg(tcg, m)
    m = Match(tcg, 1, seats_for(2), quiet=True)
    m.eval("cards.create('deep_mire', 1, 1, 'field'); cards.create('thin_veil', 2, 2, 'field')")
    with pytest.raises(AssertionError, match="2 Planes in play"):
        check_tcg(tcg, m)
    m = Match(tcg, 1, seats_for(2), quiet=True)
    m.eval("cards.create('deep_mire', 1, 1, 'field'); cards.turn_face_down(cards.create('thin_veil', 2, 2, 'field'))")
    with pytest.raises(AssertionError, match=r"2 Planes in play: \['Deep Mire', 'Thin Veil \(face down\)'\]"):
        check_tcg(tcg, m)


# -- what each seat sees -------------------------------------------------------------------

def primed_match(tcg, card: str) -> Match:
    """Player 1 to act in the main phase holding `card` and a Cinder Pup; primes `card`."""
    lua = (f"scenario.empty(1, 'hand'); scenario.add(1, 'hand', {{'{card}', 'cinder_pup'}}); "
           "scenario.start(1, 'main')")
    from engine.loader import LuaSource
    m = Match(tcg, 3, seats_for(2), quiet=True, scenario=LuaSource("scenario", lua))
    name = tcg.cards[card].data["name"]
    m.answer_key(next(o for o in m.options() if o.startswith(f"Prime {name}")))
    return m


def test_a_primed_card_shows_to_its_owner_and_only_as_face_down_to_the_other(tcg):
    m = primed_match(tcg, "stone_sentry")
    mine = m.view(1)
    theirs = m.view(2)
    field_mine, field_theirs = mine["zones"]["field:1"]["cards"], theirs["zones"]["field:1"]["cards"]
    assert len(field_mine) == len(field_theirs) == 1
    my_card = next(c for c in mine["cards"] if c["id"] == field_mine[0])
    their_card = next(c for c in theirs["cards"] if c["id"] == field_theirs[0])
    assert my_card["def"] == "stone_sentry"
    # and what everyone saw it cost (its mark: the Stamina paid, no Plane in play)
    assert their_card == {"id": field_theirs[0], "face_down": True, "owner": 1, "controller": 1, "zone": "field:1",
                          "under": [], "mark": {"paid": 11}}
    assert isinstance(their_card["id"], str)     # a stand-in, not the real id


def test_the_other_seat_cannot_tell_which_card_was_primed(tcg):
    """Priming a Stone Sentry or a Moss Shell (cost 5 and 2: the Stamina differs, so compare
    two cards of equal cost) leaves the other seat the same view and the same messages."""
    a, b = primed_match(tcg, "stone_sentry"), primed_match(tcg, "grove_stag")
    assert json.dumps(a.view(2), sort_keys=True) == json.dumps(b.view(2), sort_keys=True)
    assert a.messages() == b.messages()
    assert json.dumps(a.view(1), sort_keys=True) != json.dumps(b.view(1), sort_keys=True)


def plane_primed(tcg, card: str, players: int = 3) -> Match:
    """Player 1 primes a Plane (`card`) while player 2's Thin Veil is in play: the prime
    destroys it."""
    from engine.loader import LuaSource
    lua = (f"scenario.empty(1, 'hand'); scenario.add(1, 'hand', {{'{card}', 'cinder_pup'}}); "
           "scenario.add(2, 'field', {'thin_veil'}); scenario.start(1, 'main')")
    m = Match(tcg, 3, seats_for(players), quiet=False, scenario=LuaSource("scenario", lua))
    m.answer_key(f"Prime {tcg.cards[card].data['name']} (cost 3)")
    return m


def test_a_plane_primed_destroys_the_plane_in_play_and_the_others_learn_only_that_it_is_a_plane(tcg):
    """Scorched Plain or Deep Mire (both cost 3) primed over player 2's Thin Veil: the others'
    views and the messages are the same either way, and say a Plane came, not which."""
    a, b = plane_primed(tcg, "scorched_plain"), plane_primed(tcg, "deep_mire")
    said = {}
    for m in (a, b):
        check_tcg(tcg, m)
        said[m] = m.messages()
        assert "Player 1's new face-down card is a Plane: it replaces Thin Veil (player 2)" in said[m]
        assert "Thin Veil (player 2) is destroyed" in said[m]
        assert not any("Scorched Plain" in line or "Deep Mire" in line for line in said[m]), said[m]
        assert m.snapshot()["zones"]["graveyard:2"]
        down = [c for c in m.view(2)["cards"] if c.get("zone") == "field:1"]
        assert len(down) == 1 and down[0]["face_down"] and down[0]["mark"] == {"paid": 3, "plane": "thin_veil",
                                                                           "kind": "plane"}
    for seat in (2, 3):
        assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)
    assert said[a] == said[b]
    assert json.dumps(a.view(1), sort_keys=True) != json.dumps(b.view(1), sort_keys=True)


def test_choices_that_name_hidden_cards_are_secret(tcg):
    """The main phase (the hand), the reveal step and Gambit windows (primed cards) are secret."""
    m = primed_match(tcg, "stone_sentry")
    assert m.pending.player == 1 and m.pending.secret          # the main phase, again
    m.answer_key("End turn")
    m.answer_key("End turn")                                    # player 2's turn
    assert m.pending.player == 1 and m.pending.secret and m.options() == ["Pass"]   # its end: a Gambit?
    m.answer_key("Pass")
    assert m.pending.player == 1 and m.pending.secret and "Reveal Stone Sentry" in m.options()


# -- decks ---------------------------------------------------------------------------------

def test_the_card_pool_is_no_seat_s_deck_and_the_two_decks_are(tcg):
    assert sorted(tcg.sets) == ["ember", "tide"]
    assert "core" not in tcg.sets and "dust_mote" in tcg.cards
    with pytest.raises(EngineError, match=r"card set 'core' is a pool decks draw on \(playable: false\)"):
        Match(tcg, 1, [Seat("bot", "core"), Seat("bot", "tide")], quiet=True)


def test_the_set_has_thirty_or_more_cards_of_all_four_types(tcg):
    kinds = {k: 0 for k in ("summon", "gambit", "equipment", "plane")}
    for c in tcg.cards.values():
        for k in kinds:
            kinds[k] += k in (c.data.get("tags") or [])
    assert len(tcg.cards) >= 30 and min(kinds.values()) >= 3, kinds


def test_a_deck_that_breaks_the_deck_rules_is_reported_with_its_line(tmp_path):
    g = copy_game(tmp_path, GAME)
    edit(g.cards / "ember.yaml", "{card: cinder_pup, copies: 3}", "{card: cinder_pup, copies: 4}")
    edit(g.cards / "tide.yaml", "  - {card: ambush, copies: 1}\n", "")
    with pytest.raises(DefinitionError) as e:
        load_game(str(g.rules))
    text = str(e.value)
    assert "ember.yaml:" in text and "Cinder Pup: 4 copies, but a deck may hold at most 3 of any card" in text
    assert "tide.yaml:" in text and "the deck holds 29 cards; the game's deck rules want at least 30" in text


def test_a_deck_naming_a_card_that_does_not_exist_is_reported(tmp_path):
    g = copy_game(tmp_path, GAME)
    edit(g.cards / "ember.yaml", "{card: cinder_pup,", "{card: cinder_pop,")
    with pytest.raises(DefinitionError, match="no card called 'cinder_pop' \\(did you mean 'cinder_pup'\\?\\)"):
        load_game(str(g.rules))


# -- the command line ------------------------------------------------------------------------

@pytest.mark.slow
def test_sim_finishes_every_one_of_200_games():
    r = summon("sim", GAME, "--games", "200", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["finished"] == 200 and out["games"] == 200
    assert all(res["finished"] and res["winner"] is not None for res in out["results"])


def test_sim_names_the_player_who_went_first_as_the_setup_said(tcg):
    """Each result's `opener` is the player the random draw sent first ("Player N goes first"),
    with three players too, where the seat asked first says nothing of who went first."""
    from engine.sim import simulate
    seats = [Seat("random"), Seat("random"), Seat("random")]
    out = simulate(tcg, seats, 8, 11, jobs=1)
    openers = [r["opener"] for r in out["results"]]
    assert len(set(openers)) > 1
    for r in out["results"]:
        said = Match(tcg, r["seed"], [Seat("random", s) for s in r["sets"]]).messages()
        assert f"Player {r['opener']} goes first" in said


def test_sim_with_three_to_six_players_finishes():
    for players in ("random,random,random", "random,random,random,random", ",".join(["random"] * 6)):
        r = summon("sim", GAME, "--games", "5", "--players", players, "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["finished"] == 5


def test_the_screen_lists_each_field_and_hides_a_bots_options_and_face_down_cards():
    """`summon play` with a person and a bot: both Fields are listed, the bot's face-down
    cards only as face-down cards, and the bot's options (which name its hidden cards) are
    never shown."""
    # `auto` plays the person's seat with the `bot` (and so the game's evaluation): a
    # short run, so that the match is still on when it stops at the bot's decision.
    r = summon("play", GAME, "--players", "human,random", "--seed", "2", stdin="auto 10\nquit\n")
    out = r.stdout
    assert "  field: " in out and "face-down card ?" in out
    # auto lets the bot finish its turn: it stops at the person's decision, never the bot's
    assert "P2 (a bot) is to answer" not in out and "P1 (you): " in out
    assert "P2 (a bot): Reveal your primed cards" not in out
    assert "Reveal Brittle Charm" not in out          # one of player 2's primed cards at that point


# -- deck files from anywhere (engine features: deck lists, card files on the command line) --

def deck_file(tmp_path, name: str, change: tuple[str, str] | None = None):
    text = (ROOT / "cards" / GAME / "ember.yaml").read_text().replace("id: ember", f"id: {name}")
    if change:
        assert change[0] in text
        text = text.replace(*change)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def test_a_deck_file_kept_anywhere_plays_from_the_command_line(tmp_path):
    deck = deck_file(tmp_path, "my_deck", ("{card: cinder_pup, copies: 3}", "{card: colossus, copies: 3}"))
    r = summon("sim", GAME, "--games", "3", "--jobs", "2", "--players", f"random:{deck},random:tide", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["seats"] == ["random:my_deck", "random:tide"] and out["finished"] == 3
    r = summon("play", GAME, "--players", f"human:{deck},random", "--seed", "4", stdin="quit\n")
    assert r.returncode == 0, r.stderr
    assert "P1 Player 1 (my_deck)" in r.stdout


def test_a_seat_that_names_no_deck_plays_one_of_the_games_not_anothers_deck_file(tmp_path):
    # the sets in turn were ember, my_deck, tide: seat 2 of human:my_deck.yaml,bot played my_deck too
    deck = deck_file(tmp_path, "my_deck")
    game = load_game(GAME, extra_cards=[deck])
    assert game.outside_sets == ("my_deck",)
    seats = assign_sets(game, [Seat("human", "my_deck"), Seat("random")])
    assert [s.set for s in seats] == ["my_deck", "tide"]
    assert [s.set for s in assign_sets(game, [Seat("random")] * 3)] == ["ember", "tide", "ember"]
    r = summon("play", GAME, "--players", f"human:{deck},random", "--seed", "4", stdin="quit\n")
    assert r.returncode == 0 and "P2 Player 2 (tide)" in r.stdout, r.stdout + r.stderr
    assert "Player 2 (my_deck)" not in r.stdout


def test_a_saved_match_with_a_deck_file_loads_and_replays(tmp_path):
    """The save names the deck file it was played with, so load and replay find the deck."""
    deck = deck_file(tmp_path, "my_deck", ("{card: cinder_pup, copies: 3}", "{card: colossus, copies: 3}"))
    save = tmp_path / "with_deck.json"
    r = summon("play", GAME, "--players", f"human:{deck},random", "--seed", "4", stdin=f"1\nsave {save}\nquit\n")
    assert r.returncode == 0, r.stderr
    assert json.loads(save.read_text())["card_files"] == [str(deck.resolve())]
    r = summon("replay", str(save))
    assert r.returncode == 0, r.stderr
    r = summon("play", "--load", str(save), stdin="quit\n")
    assert r.returncode == 0 and "my_deck" in r.stdout, r.stdout + r.stderr
    deck.unlink()                      # the save keeps the deck's text: it replays without the file
    r = summon("replay", str(save))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


def test_a_deck_file_is_checked_against_the_deck_rules_with_its_lines(tmp_path):
    good = deck_file(tmp_path, "good_deck")
    r = summon("check", "--game", GAME, str(good))
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
    bad = deck_file(tmp_path, "bad_deck", ("{card: cinder_pup, copies: 3}", "{card: cinder_pup, copies: 5}"))
    r = summon("check", "--game", GAME, str(bad))
    assert r.returncode == 1
    assert f"{bad}:7:5: Cinder Pup: 5 copies, but a deck may hold at most 3 of any card" in r.stdout


def test_a_deck_played_with_another_game_says_which_game_it_is_for(tmp_path):
    deck = deck_file(tmp_path, "my_deck")
    r = summon("play", "summoner_wars", "--players", f"human:{deck},bot", stdin="quit\n")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.search(r"my_deck\.yaml:\d+:\d+: no card called 'cinder_pup'", r.stderr), r.stderr
    assert r.stderr.rstrip().endswith(f"my_deck.yaml names cards of {GAME}, which summoner_wars has not: "
                                      f"summon play {GAME} --players human:{deck},bot"), r.stderr
    for command in (["deck", "check"], ["check"]):
        r = summon(*command, "--game", "summoner_wars", str(deck))
        assert r.returncode == 1 and r.stdout.rstrip().endswith(
            f"my_deck.yaml names cards of {GAME}, which summoner_wars has not: "
            f"summon {' '.join(command)} --game {GAME} {deck}"), r.stdout


def test_a_missing_deck_file_or_one_with_a_shipped_id_is_a_clear_error(tmp_path):
    r = summon("play", GAME, "--players", f"human:{tmp_path / 'none.yaml'},random")
    assert r.returncode == 1 and "none.yaml:1:1: no such card or deck file" in r.stderr
    same = deck_file(tmp_path, "ember")
    r = summon("sim", GAME, "--games", "1", "--players", f"bot:{same},random")
    assert r.returncode == 1 and "card set 'ember' is defined twice" in r.stderr


def test_hot_seat_shows_the_next_player_only_face_down_cards_and_secret_choices():
    """Two people at one terminal (piped): after player 1 primes Spark Fox and Feeding Frenzy
    and ends the turn, everything printed for player 2 names neither card."""
    r = summon("play", GAME, "--players", "human,human", "--seed", "3", stdin="1\n2\nEnd turn\n")
    assert r.returncode == 0, r.stderr
    before, _, after = r.stdout.partition("-- player 2 to play --")
    assert "Prime Spark Fox" in before and "Prime Feeding Frenzy" in before     # player 1 saw their own
    assert after and "Spark Fox" not in after and "Feeding Frenzy" not in after
    # what player 2 may know of them: the Stamina paid (their marks), which it saw go
    # (stand-ins numbered so that their order does not follow the order the cards were turned down)
    assert "P1 made a secret choice" in after and re.search(
        r"face-down card \?\d{4} \[paid 5\], face-down card \?\d{4} \[paid 3\]", after), after


def test_list_shows_the_two_decks_with_their_size():
    r = summon("list")
    assert "ember  Ember Pack (a deck of 30 cards)" in r.stdout and "tide  Tide Circle (a deck of 30 cards)" in r.stdout
    assert " core " not in r.stdout


def test_in_a_terminal_a_player_sees_their_hand_and_only_face_down_cards_of_the_bot(play_screen):
    """Through a pseudo-terminal, as a person plays: prime a card, end the turn, and after the
    bot's turn see its Field only as face-down cards and its hand only as a count."""
    import re

    s = play_screen(GAME, "--players", "human,greedy", "--seed", "3")   # (a bot that primes cards)
    first = s.wait(r"End turn[\s\S]*P1>")
    assert "hand: Spark Fox, Sudden Guard" in first and "stamina 55" in first
    s.type("1")                                   # Prime Spark Fox
    s.wait(r"Spark Fox #5 5/\d+\*? \(face down\)")   # its owner sees what lies face down (defense now)
    s.type("End turn")
    back = s.wait(r"Player 2 ends the turn[\s\S]*P1>")   # the bot has played its turn
    start = back.rindex("P2 Player 2")
    p2 = back[start:back.index("| Stamina", start)]          # up to the status line
    p2 = re.sub(r"\r*\n    ", " ", p2)                       # a long field is wrapped, indented
    assert int(re.search(r"hand (\d+)", p2).group(1)) > 0 and "hand:" not in p2   # a count, never names
    field = re.search(r"field: (.*)", p2).group(1).strip()
    # the bot primed cards this turn: each is shown face down only, by a stand-in id, with
    # what everyone saw it cost (its mark)
    assert field != "empty" and all(re.fullmatch(r"face-down card \?\d+ \[paid \d+\]", f.strip())
                                    for f in field.split(",")), field
    assert "Player 2 primes" in back or "P2 made a secret choice" in back


def test_the_toolbar_counts_each_players_own_turns_after_a_player_is_out(tcg):
    # Counted from outside: a turn begins whenever the turn number moves on. Once a player
    # is out the others' turns come round faster than the game's turns / players.
    from repl.session import Session
    checked = 0
    for seed in range(1, 40):
        m = Match(tcg, seed, seats_for(3), quiet=True)
        own = {p: 0 for p in (1, 2, 3)}
        own[m.active] += 1
        turn, bot = m.snapshot()["turn"], RandomBot(seed, 0)
        while m.pending is not None:
            m.answer(bot(Ask(m)))
            st = m.snapshot()
            if st["turn"] != turn:
                turn = st["turn"]
                own[m.active] += 1
                if players_out(st) and not m.is_over and own[m.active] != (turn + 2) // 3:
                    bar = Session(m).toolbar()
                    assert f"P{m.active}'s turn {own[m.active]} |" in bar, (seed, bar, own)
                    checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_a_card_turned_face_down_stays_known_to_every_player(tcg):
    # Everyone saw it face up on the Field, so the others' views go on naming it, and a
    # bot's sample never deals it as another card (before, both forgot it).
    import random
    rng = random.Random(5)
    for seed in range(1, 30):
        m = Match(tcg, seed, seats_for(2), quiet=True)
        while m.pending is not None and m.decisions < 400:
            opts = m.options()
            flips = [i for i, o in enumerate(opts) if o.startswith("Turn ") and o.endswith(" face down")]
            if flips and rng.random() < 0.5:
                p, name = m.pending.player, opts[flips[0]][len("Turn "):-len(" face down")]
                m.answer(flips[0])
                if m.pending is None:
                    break
                other = 3 - p
                mine = [c for c in m.view(p)["cards"] if c["zone"] == f"field:{p}" and c.get("name") == name
                        and c["face_down"]]
                theirs = {c["id"]: c for c in m.view(other)["cards"] if c["zone"] == f"field:{p}"}
                assert mine and all(theirs.get(c["id"], {}).get("def") == c["def"] for c in mine), (seed, name)
                ids = {c["id"]: c["def"] for c in mine}
                for s in range(8):
                    dealt = {c["id"]: c["def"] for c in m.sample(other, s).snapshot()["cards"] if c["id"] in ids}
                    assert dealt == ids, (seed, s)
                return
            m.answer(rng.randrange(m.pending.count))
    pytest.fail("no card was turned face down in 29 random games")


def test_a_gambits_text_says_when_it_may_take_effect(tcg):
    # the rulebook lets any primed Gambit be revealed in an opponent's turn: a card that
    # may not be, or only at one moment, says so in the text a player reads
    gambits = [c for c in tcg.cards.values() if "gambit" in c.data["tags"]]
    assert len(gambits) >= 8
    for c in gambits:
        windows, text = set(c.data["windows"]), c.data["text"]
        if not windows & {"battle", "turn_end"}:
            assert text.startswith("On your own turn only"), c.id
        if "battle" in windows:
            assert "When you are attacked" in text, c.id
        if "turn_end" in windows:
            assert "turn ends" in text, c.id
        if windows & {"main", "reveal"} and windows & {"battle", "turn_end"}:
            assert text.startswith("On your own turn, or"), c.id
