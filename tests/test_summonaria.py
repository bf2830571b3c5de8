"""Summonaria: seeded random playouts over 2, 3 and 4 players with the game's invariants
after every answer; secret trades; the resource set no seat plays; board marks; sim finishes."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import edit, seed_ranges, seeds_id, summon
from engine.errors import EngineError
from engine.loader import load_game
from engine.match import Ask, Match, RandomBot, Seat, play
from invariants import check_invariants

RESOURCES = {"dragon_teeth", "toadstools", "bloodstones", "fairy_dust"}
GAMES = 100         # per player count: 300 seeded games in all
CHUNK = 10


@pytest.fixture(scope="session")
def smn():
    return load_game("summonaria")


# The game's invariants, worked out in the match's own Lua (cheap enough to run after
# every answer): resource cards by place, the largest hand, units over their tokens,
# two units claiming one square.
INVARIANTS_LUA = """(function()
local out = { places = {}, max_hand = 0, over_tokens = {}, doubled = 0 }
local n = 0
for _, z in ipairs({ "deck", "exhausted" }) do
  out.places[z] = zones.count(z); n = n + zones.count(z)
end
for _, p in ipairs(players.list()) do
  for _, z in ipairs({ "hand", "offer" }) do
    out.places[z] = (out.places[z] or 0) + zones.count(p, z); n = n + zones.count(p, z)
  end
  out.max_hand = math.max(out.max_hand, zones.count(p, "hand"))
  local kinds = {}
  for _, c in ipairs(cards.on_board(function(c) return c.owner == p end)) do
    kinds[c.def] = (kinds[c.def] or 0) + 1
    if board.card_at(c.space) ~= c then out.doubled = out.doubled + 1 end
  end
  for k, v in pairs(kinds) do
    if v > defs[k].copies then out.over_tokens[#out.over_tokens + 1] = p .. ":" .. k end
  end
end
out.total = n
return out
end)()"""


def check_summonaria(game, m: Match, full: bool = True) -> None:
    """The rulebook's invariants: 100 resource cards between deck, hands, offers and the
    exhausted pile; hands within the limit (except while a player is asked to discard
    down to it); one unit a square; no more units of a kind than its tokens. With
    `full`, the engine's own invariants on the whole snapshot too."""
    if full:
        check_invariants(game, m.snapshot())
    (got,) = m.eval(INVARIANTS_LUA)
    assert got["total"] == 100, got["places"]
    discarding = m.pending is not None and "discard down" in (m.pending.prompt or "")
    assert discarding or got["max_hand"] <= 7, f"a hand of {got['max_hand']} cards"
    assert not got["over_tokens"], got["over_tokens"]
    assert got["doubled"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seeds", seed_ranges(GAMES, CHUNK), ids=seeds_id)
def test_random_playouts_keep_the_invariants_and_end(smn, players, seeds):
    for seed in seeds:
        m = Match(smn, seed, [Seat("bot")] * players, quiet=True)
        check_summonaria(smn, m)
        bots = {p: RandomBot(seed, p) for p in range(1, players + 1)}
        play(m, bots, max_decisions=20000,
             on_decision=lambda match, p, key: check_summonaria(smn, match, full=match.decisions % 50 == 0))
        assert m.is_over, f"seed {seed}: no end after {m.decisions} decisions"
        check_summonaria(smn, m)


def test_the_invariant_check_can_fail(smn):
    m = Match(smn, 1, [Seat("bot"), Seat("bot")], quiet=True)
    m.eval("cards.to_zone(zones.cards('deck')[1], 1, 'army')")   # a resource card where none belongs
    with pytest.raises(AssertionError, match="'deck': 93"):
        check_summonaria(smn, m)
    m = Match(smn, 1, [Seat("bot"), Seat("bot")], quiet=True)
    m.eval("for i = 1, 5 do cards.to_zone(zones.cards('deck')[1], 1, 'hand') end")   # a hand of 8
    with pytest.raises(AssertionError, match="a hand of 8 cards"):
        check_summonaria(smn, m)


def test_every_army_is_dealt_to_seats_and_the_resources_never_are(smn):
    m = Match(smn, 3, [Seat("bot")] * 4, quiet=True)
    assert [s.set for s in m.seats] == ["defenders_of_steneval", "nightstalkers_of_vodash",
                                        "stewards_of_destiny", "sylvan_guardians"]
    m5 = Match(smn, 3, [Seat("bot")] * 2, quiet=True)
    assert "resources" not in [s.set for s in m5.seats]


def test_a_seat_cannot_play_the_resource_deck(smn):
    with pytest.raises(EngineError, match="has no card set 'resources'"):
        Match(smn, 1, [Seat("bot", "resources"), Seat("bot")])


def test_an_army_without_a_resource_order_is_refused_with_its_name(game_copy):
    from engine.errors import ScriptError
    g = game_copy("summonaria")
    edit(g.cards / "tribes_of_pain.yaml", "resources: [bloodstones, toadstools, dragon_teeth]",
         "resources: [bloodstones, bloodstones, dragon_teeth]")
    with pytest.raises((EngineError, ScriptError), match="card set 'tribes_of_pain': resources names bloodstones twice"):
        Match(load_game(str(g.rules)), 1, [Seat("bot", "tribes_of_pain"), Seat("bot")])


def test_every_army_has_six_units_and_a_resource_order(smn):
    armies = list(smn.sets.values())
    assert len(armies) == 5 and "resources" not in smn.sets
    assert set(smn.data["options"]["resource_kinds"]) == RESOURCES
    for s in armies:
        assert len(s.card_ids) >= 6, s.id
        assert len(set(s.data["resources"])) == 3 and set(s.data["resources"]) <= RESOURCES
        assert set(s.data["advance_guard"]) <= set(s.card_ids)


TRADE_SETUP = {"clear_board": True, "zones": {"hand": {"1": ["bloodstones", "fairy_dust", "toadstools"],
                                                       "2": ["toadstools", "dragon_teeth"]}},
               "start": {"player": 1, "phase": "summon"}}


def trade_match(smn, handed: str) -> Match:
    m = Match(smn, 5, [Seat("human", "tribes_of_pain"), Seat("human", "sylvan_guardians")], setup=TRADE_SETUP)
    for key in ("Propose a trade to player 2", "Promise your Fairy Dust", "Ask for their Toadstools",
                "Offer 1 Fairy Dust for 1 Toadstools", "Accept the trade", f"Hand over a {handed}"):
        m.answer_key(key)
    return m


def test_a_trade_offer_is_secret_until_the_cards_change_hands(smn):
    honest, liar = trade_match(smn, "Fairy Dust"), trade_match(smn, "Bloodstones")
    assert Ask(honest).secret and Ask(honest).player == 1
    assert json.dumps(honest.view(2), sort_keys=True) == json.dumps(liar.view(2), sort_keys=True)
    assert json.dumps(honest.view(1), sort_keys=True) != json.dumps(liar.view(1), sort_keys=True)
    for m in (honest, liar):
        m.answer_key("Done: hand over the cards put down")
        assert Ask(m).player == 2 and Ask(m).secret
        assert "Hand over a Toadstools" in m.options()
    assert json.dumps(honest.view(1), sort_keys=True) != json.dumps(liar.view(1), sort_keys=True)
    for m in (honest, liar):
        m.answer_key("Hand over a Toadstools")
        m.answer_key("Done: hand over the cards put down")
    def hand1(m):
        return Counter(c["def"] for c in m.snapshot()["cards"] if c["zone"] == "hand:1")
    assert hand1(liar) == Counter(fairy_dust=1, toadstools=2)    # kept the promised card, got a Toadstools
    assert hand1(honest) == Counter(bloodstones=1, toadstools=2)


# Three players: a trade between two of them, the third watching. "move": player 1 (whose
# turn it is) proposes to player 2 in the move step; "trades": at the start of player 1's
# turn player 2 proposes to player 3, and player 1 watches. Then the answers that lead
# on to the third player's next question.
THREE = ["tribes_of_pain", "sylvan_guardians", "stewards_of_destiny"]
THREE_CASES = {
    "move": ({"clear_board": True, "board": {"f5": {"card": "troll", "owner": 1}},
              "zones": {"hand": {"1": ["bloodstones", "fairy_dust"], "2": ["toadstools", "dragon_teeth"],
                                 "3": ["toadstools"]}},
              "start": {"player": 1, "phase": "move"}},
             1, 2, 3, ["Propose a trade to player 2", "Promise your Fairy Dust", "Ask for their Toadstools"],
             ["End the move step"]),
    "trades": ({"clear_board": True,
                "zones": {"hand": {"1": ["toadstools"], "2": ["bloodstones", "fairy_dust"],
                                   "3": ["toadstools", "dragon_teeth"]}},
                "start": {"player": 1, "phase": "trades"}},
               2, 3, 1, ["Propose a trade to player 3", "Promise your Fairy Dust", "Ask for their Toadstools"],
               ["No trade"]),
}


@pytest.mark.parametrize("case", sorted(THREE_CASES))
def test_a_third_player_never_learns_which_cards_a_trade_moved(smn, case):
    setup, proposer, partner, third, propose, on = THREE_CASES[case]

    def play_to_the_offer(handed: str) -> tuple[Match, list[str]]:
        m = Match(smn, 5, [Seat("human", s) for s in THREE], setup=setup)
        m.messages()
        assert Ask(m).player == proposer and propose[0] in m.options()
        for key in propose + ["Offer 1 Fairy Dust for 1 Toadstools", "Accept the trade"]:
            m.answer_key(key)
        assert Ask(m).player == proposer and Ask(m).secret
        m.answer_key(f"Hand over a {handed}")
        return m, m.messages()

    def seen_by(m: Match, p: int) -> str:
        return json.dumps(m.view(p), sort_keys=True)

    (honest, said_h), (liar, said_l) = play_to_the_offer("Fairy Dust"), play_to_the_offer("Bloodstones")
    assert said_h == said_l and any("proposes a trade" in x for x in said_h)
    assert seen_by(honest, third) == seen_by(liar, third) == seen_by(liar, third)
    assert seen_by(honest, partner) == seen_by(liar, partner)
    assert seen_by(honest, proposer) != seen_by(liar, proposer)     # (the views do differ for the one who knows)
    for m in (honest, liar):
        m.answer_key("Done: hand over the cards put down")
        assert Ask(m).player == partner and Ask(m).secret
        m.answer_key("Hand over a Toadstools")
        m.answer_key("Done: hand over the cards put down")
    said_h, said_l = honest.messages(), liar.messages()
    # after the exchange everyone learns whether each side handed over what it promised
    # (kind and count), never which cards it did hand over
    kept = f"Player {proposer} handed over what they promised (kept 1, broken 0)"
    broke = f"Player {proposer} did not hand over what they promised (kept 0, broken 1)"
    assert kept in said_h and broke in said_l
    assert [x for x in said_h if x != kept] == [x for x in said_l if x != broke]
    assert any(f"Trade done: player {proposer} hands over 1 card" in x for x in said_h)
    assert not any("Fairy Dust" in x or "Bloodstones" in x for x in said_h + said_l)   # only the proposal names kinds

    def seen_but_the_record(m: Match, p: int) -> str:
        v = m.view(p)
        assert v["vars"]["word"][proposer - 1] == ({"kept": 1, "broken": 0} if m is honest else {"kept": 0, "broken": 1})
        del v["vars"]["word"]
        return json.dumps(v, sort_keys=True)

    # the cards have changed hands: the partner sees what came, the third nothing but the record
    assert seen_but_the_record(honest, third) == seen_but_the_record(liar, third)
    assert seen_by(honest, partner) != seen_by(liar, partner)
    for m in (honest, liar):     # on to the third player's next question: the same, word for word
        for key in on:
            m.answer_key(key)
        assert Ask(m).player == third
    assert Ask(honest).prompt == Ask(liar).prompt and honest.options() == liar.options()
    assert honest.messages() == liar.messages()


@pytest.mark.slow
def test_sim_of_four_bots_finishes_every_game():
    r = summon("sim", "summonaria", "--players", "random,random,random,random", "--games", "100", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["finished"] == 100 and len(out["results"]) == 100
    assert sum(out["wins"].values()) + out["draws"] == 100


def test_the_board_shows_the_games_marks_from_display_marks(smn):
    from repl.render import render_state
    m = Match(smn, 2, [Seat("human"), Seat("bot")], quiet=True)
    text = render_state(m, 1)
    assert "temple" in text and "d4 Baw1 Barbarian Warchief 3/3" in text
    from repl.session import Session
    assert "d4: Barbarian Warchief (yours), life 3 of 3, on tower" in Session(m, designer=False).handle("card d4")
    m.eval("state.vars.towers.f6 = 'crumbled'; refresh_marks()")
    rows = {line.split()[0]: line for line in render_state(m, 1).splitlines() if line[:3].strip().isdigit()}
    assert "ruin" in rows["6"]
    plain = load_game("summonaria")
    plain.data = {**plain.data, "display": {"badge": "wound"}}
    assert "temple" not in render_state(Match(plain, 2, [Seat("human"), Seat("bot")], quiet=True), 1)
