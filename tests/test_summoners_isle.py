"""Summoner's Isle: every rule of the rulebook in a set position, the two maps, and random
playouts with the game's invariants checked after every answer.

Positions are set with scenario Lua after the game's setup: `put(player, kind, space)` (a
rules helper) moves a creature from that player's pool to a location, so pools stay whole.
Dice are forced with face numbers of the `d6` die, which are the numbers rolled; an attack
rolls the attacker's die first, then, against a Sprite, the defender's.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from conftest import answer, options_starting, position, seed_ranges, seeds_id, summon
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, play
from invariants import check_invariants

GAME_ID = "summoners_isle"
POOL = {"wyrm": 1, "troll": 3, "sprite": 9}
CORE = ("heart", "n_ridge", "e_ridge", "s_ridge", "w_ridge", "n_bay", "e_bay", "s_bay", "w_bay")
CAPES = ("n_cape", "e_cape", "s_cape", "w_cape")


@pytest.fixture(scope="module")
def si():
    return load_game(GAME_ID)


def game_with(**opts):
    """A fresh copy of the game with some options changed (as a designer would in game.yaml)."""
    g = load_game(GAME_ID)
    g.data["options"].update(opts)
    return g


def start(game, body: str = "", *, players: int = 2, energy=None, order=None, phase=None,
          active: int = 1, dice=(), round: int | None = None, seed: int = 1) -> Match:
    """A match on the isle: energy per player (a list), the turn order (a list of players,
    first to last), `body` (scenario Lua, e.g. put(1, "troll", "heart_ne")), forced dice,
    the round (the round the match starts in) and the phase it starts in."""
    lua = []
    for p, e in enumerate(energy or [], 1):
        lua.append(f'scenario.set_counter({p}, "energy", {e})')
    if order:
        lua.append("set_turn_order({" + ", ".join(map(str, order)) + "})")
    lua.append(body)
    if round is not None:
        lua.append(f"state.round = {round - 1}")
    if dice:
        lua.append("scenario.force({" + ", ".join(str(d) for d in dice) + "})")
    if phase:
        lua.append(f'scenario.start({active}, "{phase}")')
    m = position(game, "\n".join(lua), seed=seed, sets=(None,) * players, quiet=False)
    m.messages()
    return m


def energy_of(m, p) -> int:
    return m.snapshot()["counters"][str(p)]["energy"]


def order_of(m) -> list[int]:
    """Players by their place on the Turn Order track (the counters on turn_1, turn_2, ...)."""
    st = m.snapshot()
    out = []
    for i in range(1, len(st["players"]) + 1):
        c = st["cards"][st["spaces"][f"turn_{i}"] - 1]
        assert c["def"] == "turn_counter"
        out.append(c["controller"])
    return out


def at(m, space):
    """(kind, controller, face_down) of the creature on a location, or None."""
    st = m.snapshot()
    cid = st["spaces"].get(space) if isinstance(st["spaces"], dict) else None
    if not cid:
        return None
    c = st["cards"][cid - 1]
    return c["def"], c["controller"], bool((c.get("tokens") or {}).get("inactive"))


def zone_kinds(m, name, p) -> Counter:
    st = m.snapshot()
    return Counter(st["cards"][i - 1]["def"] for i in st["zones"].get(f"{name}:{p}", []))


def asked(m):
    """(player, prompt) of the pending decision."""
    return (m.pending.player, m.pending.prompt) if m.pending else None


def finish_round(m):
    """Answers 'Done ...', 'End ...' or 'Decline ...' until the next round starts (or the game ends)."""
    r = m.snapshot()["round"]
    for _ in range(200):
        if m.is_over or m.snapshot()["round"] != r:
            return
        opt = next(o for o in m.options() if o.startswith(("Done", "End", "Decline")))
        m.answer_key(opt)
    raise AssertionError("the round did not end")


# -- setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_gives_5_energy_a_pool_of_1_wyrm_3_trolls_9_sprites_and_a_turn_order(si, n):
    m = Match(si, 7, [Seat() for _ in range(n)], quiet=True)
    st = m.snapshot()
    assert st["round"] == 1 and st["phase"] == "summoning"
    assert set(st["spaces"]) == {f"turn_{i}" for i in range(1, n + 1)}     # only the Turn Order counters
    for p in range(1, n + 1):
        assert st["counters"][str(p)]["energy"] == 5
        assert zone_kinds(m, "pool", p) == Counter(POOL)
        assert zone_kinds(m, "removed", p) == Counter()
    assert sorted(order_of(m)) == list(range(1, n + 1))


def test_first_turn_order_is_random_or_by_seat_as_the_option_says(si):
    orders = {tuple(order_of(Match(si, seed, [Seat()] * 3, quiet=True))) for seed in range(1, 40)}
    assert len(orders) >= 4 and all(sorted(o) == [1, 2, 3] for o in orders)
    g = game_with(initial_turn_order="seats")
    assert order_of(Match(g, 5, [Seat()] * 4, quiet=True)) == [1, 2, 3, 4]


# -- the maps -------------------------------------------------------------------------------

@pytest.mark.parametrize("n,count", [(2, 24), (3, 40), (4, 40)])
def test_each_player_count_plays_on_its_own_map(si, n, count):
    m = start(si, players=n, energy=[5] * n, order=list(range(1, n + 1)))
    answer(m, "Summon a Wyrm (5 energy)")
    where = m.options()
    assert len(where) == count
    capes = [s for s in where if "_cape_" in s]
    assert capes == [] if n == 2 else len(capes) == 16


def test_moves_never_leave_the_map_in_play(si):
    # n_ridge_2 and n_bay_2 have paths to the north cape, which the 2-player isle leaves out
    m = start(si, 'put(1, "troll", "n_ridge_2"); put(1, "sprite", "n_bay_2")', energy=[0, 0],
              order=[1, 2], phase="actions")
    answer(m, "Activate the Troll at n_ridge_2")
    moves = options_starting(m, "Move")
    assert moves and not [o for o in moves if "cape" in o], moves


def test_maps_are_the_same_under_a_quarter_turn_and_bonuses_are_1_to_3(si):
    board = si.data["board"]
    track = si.data["options"]["turn_order_track"]
    regions = {r: info for r, info in board["regions"].items() if r != track}
    spaces = {s: sp for s, sp in board["spaces"].items() if sp["region"] != track}
    assert sorted(s for s, sp in board["spaces"].items() if sp["region"] == track) == [f"turn_{i}" for i in range(1, 5)]
    turn = {"n": "e", "e": "s", "s": "w", "w": "n", "ne": "se", "se": "sw", "sw": "nw", "nw": "ne"}

    def rot(name):
        head, _, rest = name.partition("_")
        if head == "heart":
            return "heart_" + turn[rest] if rest else "heart"
        return turn[head] + "_" + rest if head in turn else name

    links = {frozenset((a, b)) for a, sp in spaces.items() for b in sp.get("links", [])}
    for a, sp in spaces.items():
        for b in sp.get("links", []):
            assert a in spaces[b].get("links", []), f"{a} -> {b} is listed on one end only"
    assert {frozenset(map(rot, pair)) for pair in links} == links
    for s, sp in spaces.items():
        assert spaces[rot(s)]["region"] == rot(sp["region"])
    for r, info in regions.items():
        assert 1 <= info["bonus"] <= 3
        assert regions[rot(r)] == info
    assert set(CORE) | set(CAPES) == set(regions)
    for n in (2, 3, 4):
        in_map = locations(board, n)
        assert len(in_map) == (24 if n == 2 else 40)
        seen, todo = set(), [next(iter(in_map))]
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.add(s)
                todo += [b for b in spaces[s]["links"] if b in in_map]
        assert seen == in_map, f"the map for {n} players is not connected"


# -- summoning ------------------------------------------------------------------------------------

def test_summoning_goes_wyrms_then_trolls_then_sprites_each_in_turn_order(si):
    m = start(si, energy=[20, 20, 20], order=[2, 3, 1], players=3)
    seen = []
    while m.snapshot()["round"] == 1:
        p, prompt = asked(m)
        seen.append((p, prompt.split()[2]))
        done = options_starting(m, "Done summoning")
        m.answer_key(done[0])
    assert seen == [(2, "Wyrm"), (3, "Wyrm"), (1, "Wyrm"),
                    (2, "Troll"), (3, "Troll"), (1, "Troll"),
                    (2, "Sprite"), (3, "Sprite"), (1, "Sprite")]


def test_summoning_pays_5_3_1_and_places_face_up_on_a_vacant_location(si):
    m = start(si, energy=[9, 0], order=[1, 2])
    answer(m, "Summon a Wyrm (5 energy)", "heart_ne")
    assert energy_of(m, 1) == 4 and at(m, "heart_ne") == ("wyrm", 1, False)
    # no second Wyrm in the pool: straight on to the Trolls
    answer(m, "Summon a Troll (3 energy)")
    assert "heart_ne" not in m.options()          # an occupied location is not vacant
    answer(m, "heart_se")
    assert energy_of(m, 1) == 1 and at(m, "heart_se") == ("troll", 1, False)
    # 1 energy cannot pay for a Troll: on to the Sprites
    assert options_starting(m, "Summon") == ["Summon a Sprite (1 energy)"]
    answer(m, "Summon a Sprite (1 energy)", "n_bay_1")
    assert energy_of(m, 1) == 0 and at(m, "n_bay_1") == ("sprite", 1, False)
    assert m.snapshot()["phase"] == "actions"
    assert zone_kinds(m, "pool", 1) == Counter(troll=2, sprite=8)


def test_several_trolls_and_sprites_in_one_step_anywhere_until_the_pool_runs_out(si):
    m = start(si, energy=[30, 0], order=[1, 2])
    answer(m, "Done summoning Wyrms")
    for s in ("heart_ne", "s_bay_2", "w_ridge_1"):
        answer(m, "Summon a Troll (3 energy)", s)
    assert options_starting(m, "Summon") == ["Summon a Sprite (1 energy)"]  # no Troll left in the pool
    for s in ("n_ridge_1", "e_bay_2"):
        answer(m, "Summon a Sprite (1 energy)", s)
    answer(m, "Done summoning Sprites")
    assert energy_of(m, 1) == 30 - 9 - 2
    assert zone_kinds(m, "pool", 1) == Counter(wyrm=1, sprite=7)


def test_no_summoning_without_a_vacant_location(si):
    # 9 Sprites and 3 Trolls each fill the 24 locations of the 2-player isle
    where = (["heart_ne", "heart_nw", "heart_se", "heart_sw"] +
             [f"{d}_ridge_{k}" for d in "nesw" for k in (1, 2, 3)] + [f"{d}_bay_{k}" for d in "nesw" for k in (1, 2)])
    fill = "\n".join(f'put({1 + i % 2}, "{"sprite" if i < 18 else "troll"}", "{s}")' for i, s in enumerate(where))
    m = start(si, fill, energy=[20, 20], order=[1, 2])
    assert m.snapshot()["phase"] == "actions"
    assert set(m.snapshot()["spaces"]) == set(where) | {"turn_1", "turn_2"}
    assert energy_of(m, 1) == 20 and energy_of(m, 2) == 20


# -- actions --------------------------------------------------------------------------------------

FAR = """
put(1, "wyrm", "n_ridge_2"); put(1, "troll", "e_ridge_2"); put(1, "sprite", "s_ridge_2")
put(2, "wyrm", "w_ridge_2"); put(2, "troll", "n_bay_2"); put(2, "sprite", "e_bay_2"); put(2, "sprite", "s_bay_1")
"""


def test_actions_go_wyrms_then_trolls_then_sprites_each_in_turn_order(si):
    m = start(si, FAR, energy=[0, 0], order=[2, 1], phase="actions")
    seen = []
    while m.snapshot()["phase"] == "actions":
        p, prompt = asked(m)
        seen.append((p, prompt.split()[-1]))
        m.answer_key(options_starting(m, "Done with")[0])
    assert seen == [(2, "Wyrm?"), (1, "Wyrm?"), (2, "Troll?"), (1, "Troll?"), (2, "Sprite?"), (1, "Sprite?")]


def test_a_wyrm_takes_2_actions_a_troll_3_a_sprite_1_then_turns_face_down(si):
    m = start(si, FAR, energy=[0, 0], order=[1, 2], phase="actions")
    answer(m, "Activate the Wyrm at n_ridge_2", "Move to n_ridge_1")
    assert asked(m)[1] == "Wyrm at n_ridge_1: 1 action left"
    answer(m, "Move to heart_nw")
    assert at(m, "heart_nw") == ("wyrm", 1, True)       # no actions left: its activation is over
    assert asked(m) == (2, "Activate which Wyrm?")
    answer(m, "Done with Wyrm actions")
    answer(m, "Activate the Troll at e_ridge_2", "Move to e_ridge_1", "Move to e_ridge_3")
    assert asked(m)[1] == "Troll at e_ridge_3: 1 action left"
    answer(m, "Move to heart_se")
    assert at(m, "heart_se") == ("troll", 1, True)
    answer(m, "Done with Troll actions")                 # player 2's Troll
    answer(m, "Done with Sprite actions")                # player 1's Sprites
    answer(m, "Activate the Sprite at e_bay_2", "Move to e_bay_1")
    assert at(m, "e_bay_1") == ("sprite", 2, True)
    assert m.options() == ["Activate the Sprite at s_bay_1", "Done with Sprite actions"]


def test_a_troll_is_finished_and_turned_face_down_before_the_next(si):
    m = start(si, 'put(1, "troll", "n_ridge_2"); put(1, "troll", "s_ridge_2")', energy=[0, 0],
              order=[1, 2], phase="actions")
    assert set(m.options()) == {"Activate the Troll at n_ridge_2", "Activate the Troll at s_ridge_2",
                                "Done with Troll actions"}
    answer(m, "Activate the Troll at n_ridge_2", "Move to n_ridge_1", "End this Troll's activation")
    assert at(m, "n_ridge_1") == ("troll", 1, True)
    assert set(m.options()) == {"Activate the Troll at s_ridge_2", "Done with Troll actions"}


def test_moves_go_through_own_creatures_at_one_action_per_location_never_through_others(si):
    m = start(si, """
        put(1, "troll", "heart_nw"); put(1, "sprite", "heart_ne"); put(1, "sprite", "heart_se")
        put(2, "sprite", "heart_sw")""", energy=[0, 0], order=[1, 2], phase="actions")
    answer(m, "Activate the Troll at heart_nw")
    assert set(options_starting(m, "Move")) == {
        "Move to n_ridge_1", "Move to w_ridge_3",
        "Move to e_ridge_1 through heart_ne (2 actions)", "Move to n_ridge_3 through heart_ne (2 actions)",
        "Move to e_ridge_3 through heart_ne, heart_se (3 actions)",
        "Move to s_ridge_1 through heart_ne, heart_se (3 actions)",
    }   # nothing through the other player's Sprite at heart_sw, and never onto an occupied location
    answer(m, "Move to e_ridge_1 through heart_ne (2 actions)")
    assert asked(m)[1] == "Troll at e_ridge_1: 1 action left"
    # one action left: not enough to go through heart_ne again
    assert set(options_starting(m, "Move")) == {"Move to e_ridge_2", "Move to e_ridge_3", "Move to n_bay_2"}


def test_a_sprite_cannot_move_through_a_friend_with_its_single_action(si):
    # n_bay_2's other paths lead to the Troll and to the other player's Sprite (the cape is off the map)
    m = start(si, 'put(1, "sprite", "n_bay_2"); put(1, "troll", "n_bay_1"); put(2, "sprite", "e_ridge_1")',
              energy=[0, 0], order=[1, 2], phase="actions")
    answer(m, "Done with Troll actions", "Activate the Sprite at n_bay_2")
    assert m.options() == ["Attack Sprite (P2) at e_ridge_1", "End this Sprite's activation"]


def test_the_wyrm_trades_places_with_adjacent_friends_for_1_energy_each_without_an_action(si):
    m = start(si, """
        put(1, "wyrm", "heart_nw"); put(1, "troll", "heart_ne"); put(1, "sprite", "n_ridge_1")
        put(2, "sprite", "w_ridge_3")""", energy=[2, 0], order=[1, 2], phase="actions")
    answer(m, "Activate the Wyrm at heart_nw")
    assert set(options_starting(m, "Trade")) == {"Trade places with the Troll at heart_ne (1 energy)",
                                                 "Trade places with the Sprite at n_ridge_1 (1 energy)"}
    answer(m, "Trade places with the Troll at heart_ne (1 energy)")
    assert at(m, "heart_ne") == ("wyrm", 1, False) and at(m, "heart_nw") == ("troll", 1, False)
    assert energy_of(m, 1) == 1 and asked(m)[1] == "Wyrm at heart_ne: 2 actions left"
    answer(m, "Trade places with the Troll at heart_nw (1 energy)")     # again, any number of times
    assert at(m, "heart_nw") == ("wyrm", 1, False) and energy_of(m, 1) == 0
    assert options_starting(m, "Trade") == []                           # no energy left to pay
    answer(m, "End this Wyrm's activation")
    answer(m, "Activate the Troll at heart_ne")
    assert options_starting(m, "Trade") == []                           # only the Wyrm trades


def test_an_attack_that_reaches_the_defence_removes_the_defender_and_moves_in(si):
    m = start(si, 'put(1, "troll", "heart_nw"); put(2, "troll", "heart_ne"); put(1, "sprite", "n_ridge_1")',
              energy=[4, 4], order=[1, 2], phase="actions", dice=[5])
    answer(m, "Activate the Troll at heart_nw")
    assert options_starting(m, "Attack") == ["Attack Troll (P2) at heart_ne"]  # not its own Sprite
    answer(m, "Attack Troll (P2) at heart_ne")                          # 5 + 2 = 7 against 7
    assert at(m, "heart_ne") == ("troll", 1, False) and at(m, "heart_nw") is None
    assert energy_of(m, 1) == 4 + 2
    assert zone_kinds(m, "removed", 2) == Counter(troll=1)
    assert asked(m)[1] == "Troll at heart_ne: 2 actions left"


def test_an_attack_below_the_defence_fails_and_both_stay(si):
    m = start(si, 'put(1, "troll", "heart_nw"); put(2, "troll", "heart_ne")', energy=[4, 4],
              order=[1, 2], phase="actions", dice=[4])
    answer(m, "Activate the Troll at heart_nw", "Attack Troll (P2) at heart_ne")   # 4 + 2 = 6 < 7
    assert at(m, "heart_nw") == ("troll", 1, False) and at(m, "heart_ne") == ("troll", 2, False)
    assert energy_of(m, 1) == 4 and asked(m)[1] == "Troll at heart_nw: 2 actions left"


@pytest.mark.parametrize("attacker,defender,roll,removed,bounty", [
    ("wyrm", "wyrm", 4, True, 3), ("wyrm", "wyrm", 3, False, 0),
    ("wyrm", "troll", 3, True, 2), ("troll", "wyrm", 6, True, 3), ("troll", "wyrm", 5, False, 0),
    ("sprite", "troll", 6, True, 2), ("sprite", "troll", 5, False, 0),
])
def test_attack_bonus_defence_and_energy_for_removals(si, attacker, defender, roll, removed, bounty):
    # player 2's Sprite far away keeps the round from ending before the test looks
    m = start(si, f'put(1, "{attacker}", "heart_nw"); put(2, "{defender}", "heart_ne"); put(2, "sprite", "s_bay_1")',
              energy=[10, 10], order=[1, 2], phase="actions", dice=[roll])
    while not m.options()[0].startswith("Activate the " + attacker.title()):
        m.answer_key(options_starting(m, "Done with")[0])
    answer(m, f"Activate the {attacker.title()} at heart_nw", f"Attack {defender.title()} (P2) at heart_ne")
    assert (at(m, "heart_ne")[1] == 1) == removed
    assert energy_of(m, 1) == 10 + bounty


def test_a_face_down_creature_can_still_be_attacked(si):
    m = start(si, 'put(1, "troll", "heart_nw"); local c = put(2, "troll", "heart_ne"); tokens.add(c, "inactive", 1)',
              energy=[0, 0], order=[1, 2], phase="actions", dice=[6])
    answer(m, "Activate the Troll at heart_nw", "Attack Troll (P2) at heart_ne")
    assert at(m, "heart_ne") == ("troll", 1, False)


def test_sprite_defence_is_rolled_plus_1_for_each_other_own_sprite_in_its_territory(si):
    # the rulebook's example: 4 + 2 = 6 against 4 + 3 = 7 fails; the Troll tries again
    m = start(si, """
        put(1, "troll", "n_ridge_3")
        put(2, "sprite", "heart_ne"); put(2, "sprite", "heart_nw"); put(2, "sprite", "heart_se")
        put(2, "sprite", "heart_sw")""", energy=[0, 0], order=[1, 2], phase="actions", dice=[4, 4, 6, 1])
    answer(m, "Activate the Troll at n_ridge_3", "Attack Sprite (P2) at heart_ne")
    msgs = m.messages()
    assert any("rolls 4 + 2 = 6 against defence roll 4 + 3 for 3 other Sprites in heart = 7" in x for x in msgs)
    assert at(m, "heart_ne") == ("sprite", 2, False) and asked(m)[1] == "Troll at n_ridge_3: 2 actions left"
    answer(m, "Attack Sprite (P2) at heart_ne")        # 6 + 2 = 8 against 1 + 3 = 4
    assert at(m, "heart_ne") == ("troll", 1, False) and energy_of(m, 1) == 1


def test_sprites_of_other_players_or_in_other_territories_do_not_help_a_sprite(si):
    m = start(si, """
        put(1, "troll", "n_ridge_3"); put(1, "sprite", "n_ridge_2")
        put(2, "sprite", "n_ridge_1"); put(2, "sprite", "heart_nw"); put(2, "sprite", "w_bay_2")""",
              energy=[0, 0], order=[1, 2], phase="actions", dice=[3, 5])
    answer(m, "Activate the Troll at n_ridge_3", "Attack Sprite (P2) at n_ridge_1")   # 3 + 2 = 5 vs 5 + 0
    assert any("defence roll 5 + 0 for 0 other Sprites in n_ridge = 5" in x for x in m.messages())
    assert at(m, "n_ridge_1") == ("troll", 1, False)


def test_removed_creatures_return_to_their_pool_when_the_next_round_starts(si):
    m = start(si, 'put(1, "wyrm", "heart_nw"); put(2, "troll", "heart_ne"); put(1, "sprite", "s_bay_1")',
              energy=[0, 0], order=[1, 2], phase="actions", dice=[6])
    answer(m, "Activate the Wyrm at heart_nw", "Attack Troll (P2) at heart_ne", "End this Wyrm's activation")
    assert zone_kinds(m, "removed", 2) == Counter(troll=1)
    assert zone_kinds(m, "pool", 2)["troll"] == 2
    finish_round(m)
    assert m.snapshot()["round"] == 2
    assert zone_kinds(m, "removed", 2) == Counter()
    assert zone_kinds(m, "pool", 2) == Counter(POOL)


def test_reaching_36_energy_wins_at_once(si):
    m = start(si, 'put(1, "wyrm", "heart_nw"); put(2, "troll", "heart_ne"); put(2, "wyrm", "s_bay_1")',
              energy=[34, 35], order=[1, 2], phase="actions", dice=[6])
    answer(m, "Activate the Wyrm at heart_nw", "Attack Troll (P2) at heart_ne")
    assert m.is_over and m.winner == 1
    assert "becomes the Summoner" in m.snapshot()["result"] and energy_of(m, 1) == 36


# -- energy and reset ----------------------------------------------------------------------------

@pytest.mark.parametrize("before,after", [
    (0, 5), (5, 10), (9, 14), (10, 13), (18, 21), (19, 19), (21, 21), (23, 23),
    (24, 21), (29, 26), (30, 25), (35, 30),
])
def test_the_energy_track_modifier(si, before, after):
    m = start(si, energy=[before, 20], order=[1, 2], phase="energy")
    assert m.snapshot()["round"] == 2
    assert energy_of(m, 1) == after


def test_sprites_earn_1_each_in_territories_with_no_other_players_creatures(si):
    m = start(si, """
        put(1, "sprite", "n_ridge_1"); put(1, "sprite", "n_ridge_2"); put(1, "wyrm", "n_bay_1")
        put(1, "sprite", "heart_ne"); put(2, "troll", "heart_sw")
        put(2, "sprite", "e_bay_1")""", energy=[19, 20], order=[1, 2], phase="energy")
    assert energy_of(m, 1) == 21        # two in n_ridge; the heart is contested; a Wyrm earns nothing
    assert energy_of(m, 2) == 21


def test_dominating_a_territory_may_earn_its_bonus(si):
    m = start(si, """
        put(1, "wyrm", "heart_ne"); put(1, "troll", "heart_nw"); put(1, "troll", "heart_se")
        put(1, "troll", "heart_sw"); put(1, "sprite", "n_bay_1"); put(1, "sprite", "n_bay_2")
        put(2, "sprite", "e_ridge_1"); put(2, "sprite", "e_ridge_2"); put(1, "sprite", "e_ridge_3")""",
              energy=[19, 20], order=[1, 2], phase="energy")
    assert energy_of(m, 1) == 19 + 2      # the Sprites in n_bay; the one in e_ridge is contested
    assert m.pending.player == 1
    assert set(m.options()) == {"Take 3 energy for dominating heart", "Decline the bonus for heart"}
    answer(m, "Take 3 energy for dominating heart")
    assert set(m.options()) == {"Take 1 energy for dominating n_bay", "Decline the bonus for n_bay"}
    answer(m, "Decline the bonus for n_bay")
    assert energy_of(m, 1) == 24 and m.snapshot()["round"] == 2    # nobody holds all of e_ridge
    g = game_with(domination_optional=False)
    m = start(g, 'put(1, "sprite", "n_bay_1"); put(1, "sprite", "n_bay_2")', energy=[19, 20], order=[1, 2],
              phase="energy")
    assert energy_of(m, 1) == 19 + 2 + 1


def test_reset_turns_every_creature_face_up(si):
    m = start(si, """
        local a = put(1, "troll", "heart_ne"); tokens.add(a, "inactive", 1)
        local b = put(2, "sprite", "s_bay_1"); tokens.add(b, "inactive", 1)""",
              energy=[20, 20], order=[1, 2], phase="energy")
    assert at(m, "heart_ne") == ("troll", 1, False) and at(m, "s_bay_1") == ("sprite", 2, False)


def test_turn_order_goes_by_lowest_energy_ties_to_the_player_further_back(si):
    m = start(si, energy=[20, 21, 20, 19], order=[1, 2, 3, 4], players=4, phase="energy")
    assert order_of(m) == [4, 3, 1, 2]
    # the rulebook's example: tied for first, the player who was fourth goes before the one who was second
    m = start(si, energy=[22, 20, 23, 20], order=[3, 2, 1, 4], players=4, phase="energy")
    assert order_of(m) == [4, 2, 1, 3]


def test_the_first_to_reach_36_in_the_energy_phase_wins(si):
    # both would pass 36 through Sprites and domination; player 2 is first in turn order
    m = start(si, """
        for _, s in ipairs({"heart_ne", "heart_nw", "heart_se", "heart_sw", "n_ridge_1", "n_ridge_2",
                            "n_ridge_3", "n_bay_1", "n_bay_2"}) do put(1, "sprite", s) end
        for _, s in ipairs({"s_ridge_1", "s_ridge_2", "s_ridge_3", "s_bay_1", "s_bay_2", "w_ridge_1",
                            "w_ridge_2", "w_ridge_3", "w_bay_1"}) do put(2, "sprite", s) end""",
              energy=[23, 23], order=[2, 1], phase="energy")
    assert energy_of(m, 1) == 32 and energy_of(m, 2) == 32 and m.pending.player == 2
    answer(m, "Take 1 energy for dominating s_bay", "Take 2 energy for dominating s_ridge")
    assert not m.is_over
    answer(m, "Take 2 energy for dominating w_ridge")
    assert m.is_over and m.winner == 2 and energy_of(m, 2) == 37


# -- the end of the game ------------------------------------------------------------------------------

def test_after_round_6_the_most_energy_wins_without_summoner_status(si):
    m = start(si, energy=[22, 20], order=[1, 2], phase="energy", round=6)
    assert m.is_over and m.winner == 1 and m.snapshot()["round"] == 6
    assert "Summoner" not in m.snapshot()["result"]
    m = start(si, energy=[22, 20], order=[1, 2], phase="energy", round=5)
    assert not m.is_over and m.snapshot()["round"] == 6


def test_a_final_tie_goes_to_the_player_later_in_the_final_rounds_order(si):
    # the rulebook's example: tied, the player who went third beats the one who went second
    m = start(si, energy=[22, 22, 10], order=[3, 1, 2], players=3, phase="energy", round=6)
    assert m.is_over and m.winner == 2
    m = start(si, energy=[22, 22, 10], order=[3, 2, 1], players=3, phase="energy", round=6)
    assert m.is_over and m.winner == 1


def sixth_round_energy_phase(n: int) -> Match:
    """A match of n players with the seventh round on, in the energy phase of round 6."""
    return start(game_with(extra_round=True), energy=[20] * n, order=list(range(1, n + 1)), players=n,
                 phase="energy", round=6)


def test_the_optional_seventh_round_is_not_played_by_two():
    assert sixth_round_energy_phase(2).is_over


@pytest.mark.parametrize("n", [3, 4])
def test_the_optional_seventh_round_is_for_three_or_four_players(n):
    m = sixth_round_energy_phase(n)
    assert not m.is_over and m.snapshot()["round"] == 7
    finish_round(m)
    assert m.is_over and m.snapshot()["round"] == 7


# -- random playouts ------------------------------------------------------------------------------------

ISLE_INVARIANTS = """
local n, allowed, pool = %d, {%s}, {%s}
local bad, held, located, track, owners = {}, {}, 0, 0, {}
for p = 1, n do held[p] = {} end
local function fail(msg) bad[#bad + 1] = msg end
for id, c in pairs(state.cards) do
  if c.def == "turn_counter" then
    located = located + 1
    if not (c.space and c.space:match("^turn_%%d$") and state.spaces[c.space] == id) then
      fail("turn counter " .. id .. " is off the track")
    elseif tonumber(c.space:sub(6)) > n then fail("turn counter on " .. c.space)
    elseif owners[c.owner] then fail("player " .. c.owner .. " has two Turn Order counters")
    else owners[c.owner] = true; track = track + 1 end
  else
    if c.space then
      located = located + 1
      if state.spaces[c.space] ~= id or c.zone ~= "board" then fail("creature " .. id .. " and " .. c.space .. " disagree") end
      if not allowed[c.space] then fail(c.space .. " is not on the " .. n .. "-player map") end
    else
      if c.zone ~= "pool:" .. c.owner and c.zone ~= "removed:" .. c.owner then fail("creature " .. id .. " is in " .. c.zone) end
      if next(c.tokens) ~= nil then fail("creature " .. id .. " is face down off the isle") end
    end
    held[c.owner][c.def] = (held[c.owner][c.def] or 0) + 1
  end
end
local spaces = 0
for _ in pairs(state.spaces) do spaces = spaces + 1 end
if spaces ~= located then fail("two creatures on one location") end
if track ~= n then fail("the Turn Order track holds " .. track .. " counters") end
for p = 1, n do
  if state.counters[p].energy < 0 then fail("player " .. p .. " has negative energy") end
  for def, count in pairs(pool) do
    if held[p][def] ~= count then fail("player " .. p .. " has " .. tostring(held[p][def]) .. " " .. def) end
  end
end
table.sort(bad)
return bad
"""


def locations(board: dict, n: int) -> set[str]:
    """The summoning locations of the map for n players, read from game.yaml: the spaces of the
    territories (regions with a bonus) whose player_counts, if any, lists n."""
    regions = board["regions"]
    return {s for s, sp in board["spaces"].items()
            if "bonus" in regions[sp["region"]] and n in regions[sp["region"]].get("player_counts", [n])}


def isle_invariants(game, n: int) -> str:
    """Lua that returns the isle's broken invariants (run in the match's sandbox, cheaper than a snapshot)."""
    allowed = sorted(locations(game.data["board"], n))
    return ISLE_INVARIANTS % (n, ", ".join(f"{s} = true" for s in allowed),
                              ", ".join(f"{d} = {c}" for d, c in POOL.items()))


def check_isle(m: Match, code: str) -> None:
    """The isle's invariants: energy never negative, one creature per location and only on
    the map in play, every creature in its owner's pool, on the isle or removed (so pools are
    whole), face-down marks only on the isle, and one Turn Order counter per player on the
    first places of the track."""
    broken = m.eval(code)[0]
    assert broken == [], f"decision {m.decisions}: {broken}"


def playout(game, seed: int, n: int):
    """A bot game with the isle's invariants after every answer, and the engine's generic
    ones (on the host's snapshot) after every answer in one game of five, else at each new phase."""
    m = Match(game, seed, [Seat() for _ in range(n)], quiet=True)
    every = seed % 5 == 0
    seen = {"phase": None}
    code = isle_invariants(game, n)

    def check(match, p=None, key=None):
        check_isle(match, code)
        phase = match.eval("state.round, state.phase")
        if every or phase != seen["phase"] or match.is_over:
            seen["phase"] = phase
            check_invariants(game, match.snapshot())

    check(m)
    play(m, {i: RandomBot(seed, i) for i in range(1, n + 1)}, max_decisions=5000, on_decision=check)
    return m


def last_round(game, n):
    o = game.data["options"]
    return o["rounds"] + (1 if o["extra_round"] and n >= o["extra_round_min_players"] else 0)


# 200 games: 70 with two players, 65 with three, 65 with four, in pieces of 10; then a few
# with the seventh round.
PLAYOUTS = [(n, seeds) for n, games in ((2, 70), (3, 65), (4, 65)) for seeds in seed_ranges(games, 10)]


@pytest.mark.slow
@pytest.mark.parametrize("n,seeds", PLAYOUTS, ids=[f"{n}players-{seeds_id(s)}" for n, s in PLAYOUTS])
def test_random_playouts_keep_the_invariants_and_end_with_a_winner(si, n, seeds):
    goal = si.data["options"]["winning_energy"]
    for seed in seeds:
        m = playout(si, seed, n)
        assert m.is_over, f"seed {seed}: no end after {m.decisions} decisions"
        st = m.snapshot()
        assert m.winner in range(1, n + 1), f"seed {seed}: no winner"
        energies = {p: st["counters"][str(p)]["energy"] for p in range(1, n + 1)}
        if energies[m.winner] >= goal:
            assert st["round"] <= last_round(si, n)
        else:
            assert st["round"] == last_round(si, n)
            assert energies[m.winner] == max(energies.values())
            tied = [p for p in st["vars"]["played_order"] if energies[p] == energies[m.winner]]
            assert m.winner == tied[-1], f"seed {seed}: the tie went to {m.winner}, not {tied[-1]}"


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_with_the_seventh_round(n):
    g = game_with(extra_round=True)
    for seed in range(1, 6):
        m = playout(g, seed, n)
        assert m.is_over and m.winner in range(1, n + 1)
        assert m.snapshot()["round"] == (6 if n == 2 else 7)


# -- the command line -----------------------------------------------------------------------------------------

def test_play_and_sim_from_the_command_line():
    r = summon("play", GAME_ID, "--players", "random,random,random", "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert "wins" in r.stdout.splitlines()[-1] and "heart (bonus 3): ne " in r.stdout
    r = summon("sim", GAME_ID, "--players", "random,random,random,random", "--games", "8", "--json", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["finished"] == 8 and sum(out["wins"].values()) == 8 and out["draws"] == 0


def test_a_human_sees_the_isle_and_the_turn_order_track_from_the_first_decision(tmp_path):
    save = tmp_path / "isle.json"
    r = summon("play", GAME_ID, "--players", "human,random", "--seed", "2",
               stdin=f"Summon a Wyrm\nheart_ne\nsave {save}\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "Turn order: turn_1 Tuo1" in r.stdout            # the track, a line per region
    assert "heart (bonus 3): ne Wyr1" in r.stdout
    assert json.loads(save.read_text())["answers"][:2] == ["Summon a Wyrm (5 energy)", "heart_ne"]


def test_the_first_of_the_turn_order_is_the_active_player_and_the_sims_opener():
    """The rules keep state.active on the player first on the Turn Order track (the engine's
    convention for a game that counts rounds), so `summon sim` names who went first."""
    from engine.sim import simulate
    game = load_game("summoners_isle")
    out = simulate(game, [Seat("random"), Seat("random"), Seat("random")], 6, 3, jobs=1)
    assert len({r["opener"] for r in out["results"]}) > 1
    for r in out["results"]:
        m = Match(game, r["seed"], [Seat("random")] * 3)
        said = [s for s in m.messages() if s.startswith("Turn order: ")]
        assert said and said[0].split(": ")[1].split(", ")[0] == f"P{r['opener']}"
        assert m.active == r["opener"]


@pytest.mark.parametrize("option, said", [
    ("turn_order_track=heart", r"setup\.lua:\d+: options\.turn_order_track: region heart holds summoning "
                               r"locations \(heart_\w+\), where creatures would meet the counters"),
    # (the option's schema marks the die, x-ref: refused before any script runs)
    ("attack_die=d8", r"option attack_die: no die called 'd8'"),
    ("winning_energy=5", r"setup\.lua:\d+: options\.winning_energy is 5, which every player has already at "
                         r"the start \(5\)"),
])
def test_options_that_cannot_make_a_game_are_refused_before_it_starts(option, said):
    # (they played: counters on the isle were attacked and a player never acted again; the
    # first attack stopped on the unknown die; a game already won went on)
    r = summon("play", GAME_ID, "--players", "bot,bot", "--seed", "1", "--option", option)
    assert r.returncode == 1, r.stdout[-500:]
    assert re.search(r"^error: (rules/summoners_isle/)?" + said, r.stdout + r.stderr, re.M), r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "Round 1" not in r.stdout


def test_the_lowest_winning_energy_above_the_start_still_plays():
    r = summon("play", GAME_ID, "--players", "bot,bot", "--seed", "1", "--option", "winning_energy=6")
    assert r.returncode == 0 and "reaches 6 energy and becomes the Summoner" in r.stdout
