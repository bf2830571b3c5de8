"""Summoner Wars card abilities written in card Lua, each checked in a set position.

Dice: faces are forced by index into the `battle` die of game.yaml:
1-3 melee+ranged, 4 ranged+special, 5 melee+special, 6 melee.
"""
from __future__ import annotations

from conftest import answer, card_at, counter, position, tokens, zone

FK_FIRST = ("fallen_kingdom", "polar_dwarves")   # player 1 plays Fallen Kingdom
PD_FIRST = ("polar_dwarves", "fallen_kingdom")   # player 1 plays Polar Dwarves


def start(sw, lua, sets=FK_FIRST):
    m = position(sw, lua, sets=sets)
    m.messages()
    return m


def cards_in(m, zone_name, player):
    """The cards of a zone as plain data, bottom to top."""
    st = m.snapshot()
    ids = st["zones"].get(f"{zone_name}:{player}", [])
    return [st["cards"][i - 1] for i in ids]


def card(m, cid):
    return m.snapshot()["cards"][cid - 1]


def rolled(m, attacker):
    """The number of dice rolled in the last attack by a card of that name."""
    lines = [x for x in m.messages() if x.startswith(attacker) and " rolls " in x]
    assert lines, "no attack by " + attacker
    faces = lines[-1].split(" rolls ")[1].split(" -> ")[0]
    return len(faces.split(", "))


# -- Undead Warrior ---------------------------------------------------------------

WARRIOR = """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "a8")
scenario.create("undead_warrior", 1, "a4")
scenario.create("undead_archer", 1, "c2")
scenario.create("frost_mage", 2, "c5", {damage = 3})
scenario.create("ice_golem", 2, "a5")
scenario.force({1, 1, 1})
scenario.start(1, "attack")
"""


def test_warrior_gains_boost_when_a_unit_is_destroyed_on_your_turn(sw):
    m = start(sw, WARRIOR)
    answer(m, "Attack with Undead Archer at c2", "Do not move")
    assert card_at(m, "c5") is None
    assert tokens(card_at(m, "a4"), "boost") == 1


def test_warrior_boost_adds_strength(sw):
    m = start(sw, WARRIOR + 'scenario.force({1, 1, 1})')
    answer(m, "Attack with Undead Archer at c2", "Do not move")
    m.messages()
    answer(m, "Attack with Undead Warrior at a4")
    assert rolled(m, "Undead Warrior") == 3
    assert tokens(card_at(m, "a5"), "damage") == 3


def test_warrior_strength_bonus_is_at_most_5(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "a5")
scenario.create("undead_warrior", 1, "a4", {boost = 8})
scenario.force({6, 6, 6, 6, 6, 6, 6})
scenario.start(1, "attack")
""")
    answer(m, "Attack with Undead Warrior at a4")
    assert rolled(m, "Undead Warrior") == 7
    assert tokens(card_at(m, "a5"), "damage") == 7


def test_warrior_loses_2_boost_at_the_end_of_your_turn(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "a8")
scenario.create("undead_warrior", 1, "a4", {boost = 3})
scenario.start(1, "magic")
""")
    answer(m, "End magic phase")
    assert m.pending.player == 2          # the other player's turn has begun
    assert tokens(card_at(m, "a4"), "boost") == 1


def test_warrior_gains_nothing_on_the_opponents_turn(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "c1")
scenario.create("undead_warrior", 1, "a4")
scenario.create("hellfire_cultist", 1, "c3")
scenario.force({1, 1, 1})
scenario.start(2, "attack")
""", sets=FK_FIRST)
    answer(m, "Attack with Svara at c1", "Hellfire Cultist at c3")
    assert card_at(m, "c3") is None
    assert tokens(card_at(m, "a4"), "boost") == 0


# -- Undead Archer ----------------------------------------------------------------

def test_archer_may_move_into_the_space_of_a_destroyed_unit(sw):
    m = start(sw, WARRIOR)
    answer(m, "Attack with Undead Archer at c2")
    assert "Move Undead Archer c2 -> c5" in m.options()
    answer(m, "Move Undead Archer c2 -> c5")
    assert card_at(m, "c5")["def"] == "undead_archer"
    assert card_at(m, "c2") is None


def test_archer_may_decline(sw):
    m = start(sw, WARRIOR)
    answer(m, "Attack with Undead Archer at c2", "Do not move")
    assert card_at(m, "c2")["def"] == "undead_archer"
    assert card_at(m, "c5") is None


def test_archer_ignores_units_destroyed_further_than_3_spaces(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "a8")
scenario.create("undead_archer", 1, "a1")
scenario.create("undead_warrior", 1, "e4")
scenario.create("frost_mage", 2, "e5", {damage = 3})
scenario.force({1, 1})
scenario.start(1, "attack")
""")
    answer(m, "Attack with Undead Warrior at e4")
    assert card_at(m, "e5") is None
    assert not any(o.startswith("Move Undead Archer") for o in m.options())
    assert card_at(m, "a1")["def"] == "undead_archer"


def test_archer_does_not_move_on_the_opponents_turn(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "c1")
scenario.create("undead_archer", 1, "a3")
scenario.create("hellfire_cultist", 1, "c3")
scenario.force({1, 1, 1})
scenario.start(2, "attack")
""")
    answer(m, "Attack with Svara at c1", "Hellfire Cultist at c3")
    assert card_at(m, "c3") is None
    assert not any(o.startswith("Move Undead Archer") for o in m.options())
    assert card_at(m, "a3")["def"] == "undead_archer"


# -- Undead Carrier ---------------------------------------------------------------

CARRIER = """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "a8")
scenario.create("undead_carrier", 1, "c4")
scenario.create("frost_mage", 2, "c5", {damage = 3})
scenario.empty(1, "discard")
scenario.add(1, "discard", {"undead_carrier"})
scenario.set_counter(1, "magic", 4)
scenario.force({1, 6})
scenario.start(1, "attack")
"""


def test_carrier_brings_a_carrier_back_onto_the_space(sw):
    m = start(sw, CARRIER)
    answer(m, "Attack with Undead Carrier at c4", "Bring back an Undead Carrier to c5")
    placed = card_at(m, "c5")
    assert placed["def"] == "undead_carrier" and placed["controller"] == 1
    assert "undead_carrier" not in zone(m, "discard", 1)
    assert counter(m, "magic", 1) == 4       # a Carrier's kill earns no magic


def test_carrier_may_decline(sw):
    m = start(sw, CARRIER)
    answer(m, "Attack with Undead Carrier at c4", "Do not bring one back")
    assert card_at(m, "c5") is None
    assert zone(m, "discard", 1) == ["undead_carrier"]


def test_carrier_needs_a_carrier_in_the_discard_pile_and_its_question_gives_none_away(sw):
    with_one = start(sw, CARRIER)
    answer(with_one, "Attack with Undead Carrier at c4")
    m = start(sw, CARRIER.replace('scenario.add(1, "discard", {"undead_carrier"})',
                                  'scenario.add(1, "discard", {"undead_warrior"})'))
    answer(m, "Attack with Undead Carrier at c4")
    assert m.options() == ["Do not bring one back"]
    # asked alike whether a Carrier is in the pile or not, and secretly: the opponent
    # cannot tell (the pile's contents are its owner's alone)
    for match in (with_one, m):
        assert match.pending.player == 1 and match.pending.secret
    assert m.pending.prompt == with_one.pending.prompt
    answer(m, "Do not bring one back")
    assert card_at(m, "c5") is None


def test_a_card_discarded_for_magic_is_a_secret_choice(sw):
    m = start(sw, CARRIER.replace('scenario.start(1, "attack")', 'scenario.start(1, "magic")'))
    assert any(o.startswith("Discard ") for o in m.options()) and m.pending.secret


# -- Jarmund ------------------------------------------------------------------------

def test_jarmund_gains_1_boost_after_attacking_an_enemy_unit(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("svara", 1, "f1")
scenario.create("ret_talus", 2, "f8")
scenario.create("jarmund", 1, "c3")
scenario.create("undead_warrior", 2, "c5")
scenario.force({6, 6, 6})
scenario.start(1, "attack")
""", sets=PD_FIRST)
    answer(m, "Attack with Jarmund at c3")
    assert tokens(card_at(m, "c5"), "damage") == 0
    assert tokens(card_at(m, "c3"), "boost") == 1


def test_jarmund_gains_boost_for_destroying_his_own_sides_unit_the_enemy_had_taken(sw):
    # a destroyed card goes back to its owner: whether it was an enemy is judged when attacked
    m = start(sw, """
scenario.clear_board()
scenario.create("svara", 1, "f1")
scenario.create("ilsevane", 2, "a8")
scenario.create("jarmund", 1, "c3")
scenario.create("frost_mage", 1, "c5", {damage = 2})
take_control(board.card_at("c5"), 2)
scenario.force({1, 1, 1})
scenario.start(1, "attack")
""", sets=("polar_dwarves", "veiled_court"))
    assert card_at(m, "c5")["controller"] == 2
    answer(m, "Attack with Jarmund at c3")
    assert card_at(m, "c5") is None and [c["name"] for c in cards_in(m, "discard", 1)] == ["Frost Mage"]
    assert tokens(card_at(m, "c3"), "boost") == 1


def test_jarmund_gains_nothing_for_attacking_a_structure(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("svara", 1, "f1")
scenario.create("ret_talus", 2, "f8")
scenario.create("jarmund", 1, "c3")
scenario.create("kingdom_gate", 2, "c5")
scenario.force({6, 6, 6})
scenario.start(1, "attack")
""", sets=PD_FIRST)
    answer(m, "Attack with Jarmund at c3")
    assert tokens(card_at(m, "c3"), "boost") == 0


JARMUND_BUILD = """
scenario.clear_board()
scenario.create("svara", 1, "f1")
scenario.create("ret_talus", 2, "f8")
scenario.create("jarmund", 1, "a1", {boost = 2})
scenario.create("dwarf_gate", 1, "d4")
scenario.create("undead_warrior", 2, "d5")
scenario.create("undead_carrier", 2, "e4")
scenario.create("frost_mage", 1, "c4")
scenario.create("undead_archer", 2, "b6")
scenario.empty(1, "hand")
scenario.start(1, "build")
"""


def test_jarmund_spends_boost_to_damage_enemies_next_to_structures(sw):
    m = start(sw, JARMUND_BUILD, sets=PD_FIRST)
    answer(m, "End build phase", "Spend 1 boost: 1 damage to 2 enemy units next to your structures")
    assert tokens(card_at(m, "d5"), "damage") == 1
    assert tokens(card_at(m, "e4"), "damage") == 1
    assert tokens(card_at(m, "c4"), "damage") == 0       # friendly
    assert tokens(card_at(m, "b6"), "damage") == 0       # not next to a structure
    assert tokens(card_at(m, "a1"), "boost") == 1


def test_jarmund_may_keep_his_boost(sw):
    m = start(sw, JARMUND_BUILD, sets=PD_FIRST)
    answer(m, "End build phase", "Keep the boost")
    assert tokens(card_at(m, "d5"), "damage") == 0
    assert tokens(card_at(m, "a1"), "boost") == 2


# -- Glacial Shift --------------------------------------------------------------------

def test_glacial_shift_forces_up_to_3_structures_1_or_2_spaces(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("svara", 1, "c1")
scenario.create("ret_talus", 2, "f8")
scenario.create("dwarf_gate", 1, "c3")
scenario.create("dwarf_gate", 1, "a2")
scenario.create("dwarf_gate", 1, "e5")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"glacial_shift"})
scenario.start(1, "build")
""", sets=PD_FIRST)
    answer(m, "Play Glacial Shift (cost 0)")
    opts = m.options()
    assert "Force Gate c3 -> c5" in opts and "Force Gate c3 -> c4" in opts
    assert not any("e5 ->" in o for o in opts)           # 5 spaces from Svara
    answer(m, "Force Gate c3 -> c5", "Force Gate a2 -> a4")   # nothing is left to force
    assert card_at(m, "c5")["def"] == "dwarf_gate"
    assert card_at(m, "a4")["def"] == "dwarf_gate"
    assert card_at(m, "c3") is None and card_at(m, "a2") is None
    assert "glacial_shift" in zone(m, "discard", 1)


# -- Ice Ram -------------------------------------------------------------------------

ICE_RAM = """
scenario.clear_board()
scenario.create("svara", 1, "a1")
scenario.create("ret_talus", 2, "f8")
scenario.create("ice_golem", 1, "c3")
scenario.create("undead_warrior", 2, "c5")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"ice_ram"})
scenario.start(1, "summon")
"""


def test_ice_ram_damages_and_forces_after_a_structure_moves(sw):
    m = start(sw, ICE_RAM, sets=PD_FIRST)
    answer(m, "Play Ice Ram (cost 0)", "End summon phase")
    assert zone(m, "active", 1) == ["ice_ram"]
    answer(m, "Move Ice Golem at c3", "c4")
    assert tokens(card_at(m, "c5"), "damage") == 1
    answer(m, "Force Undead Warrior c5 -> c6")
    assert card_at(m, "c6")["def"] == "undead_warrior"
    assert card_at(m, "c5") is None


def test_ice_ram_force_is_optional(sw):
    m = start(sw, ICE_RAM, sets=PD_FIRST)
    answer(m, "Play Ice Ram (cost 0)", "End summon phase", "Move Ice Golem at c3", "c4", "Do not force")
    assert tokens(card_at(m, "c5"), "damage") == 1


def test_ice_ram_also_works_after_a_structure_is_forced(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("svara", 1, "a1")
scenario.create("ret_talus", 2, "f8")
scenario.create("dwarf_gate", 1, "c2")
scenario.create("undead_warrior", 2, "d3")
scenario.create("undead_archer", 2, "f3")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"ice_ram"})
scenario.start(1, "summon")
""", sets=PD_FIRST)
    answer(m, "Play Ice Ram (cost 0)", "End summon phase", "Move Svara at a1", "b1")
    answer(m, "Force Gate c2 -> c3")
    assert card_at(m, "c3")["def"] == "dwarf_gate"
    assert tokens(card_at(m, "d3"), "damage") == 1       # the only unit next to the gate
    answer(m, "Force Undead Warrior d3 -> e3")
    assert card_at(m, "e3")["def"] == "undead_warrior"


def test_ice_ram_does_nothing_when_not_in_play(sw):
    m = start(sw, ICE_RAM, sets=PD_FIRST)
    answer(m, "End summon phase", "Move Ice Golem at c3", "c4")
    assert tokens(card_at(m, "c5"), "damage") == 0


# -- Ret-Talus -----------------------------------------------------------------------

RET_TALUS = """
scenario.clear_board()
scenario.create("ret_talus", 1, "c1")
scenario.create("svara", 2, "f8")
scenario.empty(1, "discard")
scenario.add(1, "discard", {"hellfire_cultist", "undead_warrior", "undead_archer", "undead_warrior"})
scenario.empty(1, "hand")
scenario.start(1, "summon")
"""
RT_ACTION = "Use Ret-Talus at c1: take 2 damage to bring back an Undead unit"


def test_ret_talus_brings_back_an_undead_unit(sw):
    m = start(sw, RET_TALUS)
    answer(m, RT_ACTION)
    opts = m.options()
    assert "Bring back Undead Warrior" in opts and "Bring back Undead Archer" in opts
    assert not any("Hellfire" in o for o in opts)        # not Undead
    answer(m, "Bring back Undead Warrior", "c2")
    assert card_at(m, "c2")["def"] == "undead_warrior"
    assert card_at(m, "c2")["controller"] == 1
    assert tokens(card_at(m, "c1"), "damage") == 2
    assert zone(m, "discard", 1).count("undead_warrior") == 1
    assert RT_ACTION not in m.options()                 # once a turn


def test_ret_talus_needs_an_undead_unit_in_the_discard_pile(sw):
    m = start(sw, RET_TALUS.replace('{"hellfire_cultist", "undead_warrior", "undead_archer", "undead_warrior"}',
                                    '{"hellfire_cultist", "purge"}'))
    assert m.options() == ["End summon phase"]           # no raising: nothing else to do
    m.answer_key("End summon phase")
    assert "Move Ret-Talus at c1" in m.options()
    assert RT_ACTION not in m.options()


def test_ret_talus_will_not_destroy_himself(sw):
    m = start(sw, RET_TALUS.replace('scenario.create("ret_talus", 1, "c1")',
                                    'scenario.create("ret_talus", 1, "c1", {damage = 10})'))
    assert RT_ACTION not in m.options()


# -- Dragos --------------------------------------------------------------------------

DRAGOS = """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "c4")
scenario.create("dragos", 1, "c3")
scenario.create("undead_carrier", 1, "a3")
scenario.create("undead_warrior", 1, "e2")
scenario.force({5, 5, 5, 5})
scenario.set_counter(1, "magic", 0)
scenario.start(1, "attack")
"""


def test_dragos_sacrifice_makes_specials_hit(sw):
    m = start(sw, DRAGOS)
    answer(m, "Attack with Dragos at c3")
    opts = m.options()
    assert "Destroy Undead Carrier at a3" in opts
    assert not any("Warrior" in o for o in opts)         # 3 spaces away
    assert not any("Ret-Talus" in o for o in opts)       # never the summoner
    answer(m, "Destroy Undead Carrier at a3")
    assert card_at(m, "a3") is None
    assert "undead_carrier" in zone(m, "discard", 1)
    assert tokens(card_at(m, "c4"), "damage") == 8       # 4 melee + 4 specials
    assert counter(m, "magic", 1) == 0


def test_dragos_without_sacrifice_ignores_specials(sw):
    m = start(sw, DRAGOS)
    answer(m, "Attack with Dragos at c3", "Do not destroy a unit")
    assert card_at(m, "a3")["def"] == "undead_carrier"
    assert tokens(card_at(m, "c4"), "damage") == 4


# -- Purge ---------------------------------------------------------------------------

PURGE = """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "f8")
scenario.create("undead_carrier", 1, "c3")
scenario.create("undead_warrior", 1, "d3")
scenario.create("frost_mage", 2, "c4", {damage = 2})
scenario.create("ice_golem", 2, "d4")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"purge"})
scenario.set_counter(1, "magic", 0)
scenario.start(1, "move")
"""


def test_purge_damages_then_destroys_the_picked_units(sw):
    m = start(sw, PURGE)
    answer(m, "Play Purge (cost 0)")
    assert not any("Ret-Talus" in o for o in m.options())
    answer(m, "Pick Undead Carrier at c3", "Done picking")
    opts = m.options()
    assert "Frost Mage at c4" in opts and "Undead Warrior at d3" in opts and "No damage" in opts
    answer(m, "Frost Mage at c4")
    assert card_at(m, "c4") is None                      # 2 + 2 damage
    assert card_at(m, "c3") is None                      # the Carrier is destroyed
    assert counter(m, "magic", 1) == 1                   # for the enemy, not the Carrier
    assert tokens(card_at(m, "d3"), "boost") == 2        # two units died on our turn
    assert "purge" in zone(m, "discard", 1)


def test_purge_damage_is_optional(sw):
    m = start(sw, PURGE)
    # once both are picked, "Done picking" is the only option left and is taken by itself
    answer(m, "Play Purge (cost 0)", "Pick Undead Carrier at c3", "Pick Undead Warrior at d3",
           "No damage", "Ice Golem at d4")
    assert tokens(card_at(m, "c4"), "damage") == 2
    assert tokens(card_at(m, "d4"), "damage") == 2
    assert card_at(m, "c3") is None and card_at(m, "d3") is None


def test_purges_picks_count_as_gone_for_the_bots_until_it_is_over(sw):
    m = start(sw, PURGE)
    answer(m, "Play Purge (cost 0)")
    before = m.evaluate(1)
    answer(m, "Pick Undead Warrior at d3")
    doomed = [c["id"] for c in m.view(1)["cards"] if c.get("space") == "d3"]
    assert m.view(2)["vars"]["doomed"] == doomed     # a public pick: every seat sees it
    # a picked unit is valued as lost already, so a pick with nothing to gain looks worse
    assert m.evaluate(1) < before
    fork = m.fork()
    answer(fork, "Done picking")
    assert m.evaluate(1) == fork.evaluate(1)          # the same position, before the damage is dealt
    answer(m, "Done picking", "No damage")
    assert card_at(m, "d3") is None and "doomed" not in m.view(1)["vars"]


# -- Blood Summon --------------------------------------------------------------------

BLOOD = """
scenario.clear_board()
scenario.create("ret_talus", 1, "a1")
scenario.create("svara", 2, "f8")
scenario.create("undead_carrier", 1, "c4")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"blood_summon", "undead_warrior", "hellfire_cultist", "dragos"})
scenario.set_counter(1, "magic", 2)
scenario.start(1, "summon")
"""


def test_blood_summon_summons_next_to_a_unit_that_bleeds(sw):
    m = start(sw, BLOOD)
    answer(m, "Play Blood Summon (cost 0)")
    opts = m.options()
    assert "Summon Undead Warrior (cost 2)" in opts and "Summon Hellfire Cultist (cost 0)" in opts
    assert not any("Dragos" in o for o in opts)
    answer(m, "Summon Undead Warrior (cost 2)", "Next to Undead Carrier at c4", "c5")
    assert card_at(m, "c5")["def"] == "undead_warrior"
    assert tokens(card_at(m, "c4"), "damage") == 2
    assert counter(m, "magic", 1) == 0
    answer(m, "Summon Hellfire Cultist (cost 0)", "Next to Ret-Talus at a1", "b1")
    assert card_at(m, "b1")["def"] == "hellfire_cultist"
    assert tokens(card_at(m, "a1"), "damage") == 2
    # no cheap unit left in hand, but asked all the same (the hand is secret)
    assert m.options() == ["Stop summoning"]
    answer(m, "Stop summoning")
    assert "blood_summon" in zone(m, "discard", 1)
    assert zone(m, "hand", 1) == ["dragos"]


def test_blood_summon_can_stop(sw):
    m = start(sw, BLOOD)
    answer(m, "Play Blood Summon (cost 0)", "Stop summoning")
    assert tokens(card_at(m, "c4"), "damage") == 0
    assert sorted(zone(m, "hand", 1)) == ["dragos", "hellfire_cultist", "undead_warrior"]


# -- Ice Smith -----------------------------------------------------------------------

SMITH = """
scenario.clear_board()
scenario.create("svara", 1, "a1")
scenario.create("ret_talus", 2, "c5")
scenario.create("ice_smith", 1, "c2", {boost = %d})
scenario.create("ice_golem", 1, "c4")
scenario.create("frost_mage", 1, "f1")
scenario.empty(1, "hand")
scenario.start(1, "move")
"""


def test_ice_smith_gains_boost_after_moving(sw):
    m = start(sw, SMITH % 0, sets=PD_FIRST)
    answer(m, "Move Ice Smith at c2", "b2")
    assert tokens(card_at(m, "b2"), "boost") == 1


def test_ice_smith_goes_under_a_common_whose_specials_then_hit_twice(sw):
    m = start(sw, SMITH % 1 + "scenario.force({5, 5})", sets=PD_FIRST)
    answer(m, "Move Ice Smith at c2", "b2")
    opts = m.options()
    assert "Ice Smith gains 1 boost" in opts
    assert "Spend 1 boost: go under Ice Golem at c4" in opts
    assert not any("Frost Mage" in o for o in opts)      # 4 spaces away
    answer(m, "Spend 1 boost: go under Ice Golem at c4")
    assert card_at(m, "b2") is None
    golem = card_at(m, "c4")
    assert [card(m, i)["def"] for i in golem["under"]] == ["ice_smith"]
    assert not card(m, golem["under"][0])["tokens"]     # its boost is gone
    answer(m, "End move phase", "End build phase", "Attack with Ice Golem at c4")
    assert tokens(card_at(m, "c5"), "damage") == 6       # 2 melee + 2 specials x 2


def test_ice_smith_boost_choice_keeps_it_on_the_board(sw):
    m = start(sw, SMITH % 1, sets=PD_FIRST)
    answer(m, "Move Ice Smith at c2", "b2", "Ice Smith gains 1 boost")
    assert tokens(card_at(m, "b2"), "boost") == 2


# -- Sacrificial Pyre ----------------------------------------------------------------

def test_sacrificial_pyre_counts_deaths_and_heals_when_it_leaves(sw):
    m = start(sw, """
scenario.clear_board()
scenario.create("ret_talus", 1, "c1", {damage = 3})
scenario.create("undead_carrier", 1, "e1", {damage = 1})
scenario.create("svara", 2, "f8")
scenario.create("undead_archer", 1, "c2")
scenario.create("frost_mage", 2, "c5", {damage = 3})
scenario.create("ice_golem", 2, "e2", {damage = 4})
scenario.empty(1, "hand")
scenario.empty(2, "hand")
scenario.empty(1, "draw")
scenario.empty(2, "draw")
scenario.empty(1, "discard")
scenario.add(1, "hand", {"sacrificial_pyre"})
scenario.set_counter(1, "magic", 1)
scenario.force({1, 1, 1, 1, 1})
scenario.start(1, "summon")
""")
    answer(m, "Play Sacrificial Pyre (cost 1)")
    assert zone(m, "active", 1) == ["sacrificial_pyre"]
    assert counter(m, "magic", 1) == 0
    answer(m, "End summon phase", "End move phase", "End build phase")
    answer(m, "Attack with Undead Archer at c2", "Frost Mage at c5", "Do not move")
    answer(m, "Attack with Undead Carrier at e1", "Do not move")
    assert card_at(m, "c5") is None and card_at(m, "e2") is None
    pyre = cards_in(m, "active", 1)[0]
    assert pyre["tokens"].get("boost") == 2
    answer(m, "End attack phase", "End magic phase")
    # the opponent's turn: the Pyre stays active all through it
    assert m.pending.player == 2
    while m.pending.player == 2:
        assert zone(m, "active", 1) == ["sacrificial_pyre"]
        m.answer_key(next(o for o in m.options() if o.startswith("End ")))
    # the start of our next turn: it leaves, taking 2 damage off "a target": any damaged card
    assert m.pending.player == 1 and m.pending.prompt == "Sacrificial Pyre: remove 2 damage from which card?"
    assert zone(m, "active", 1) == ["sacrificial_pyre"]
    opts = m.options()
    assert opts == ["Ret-Talus at c1", "Undead Carrier at e1", "Svara at f8"]   # an enemy's too
    assert all(tokens(card_at(m, s), "damage") > 0 for s in ("c1", "e1", "f8"))
    assert tokens(card_at(m, "c2"), "damage") == 0   # the Archer, undamaged, is not offered
    answer(m, "Ret-Talus at c1")
    assert tokens(card_at(m, "c1"), "damage") == 1
    assert tokens(card_at(m, "e1"), "damage") == 1
    assert zone(m, "active", 1) == []
    assert "sacrificial_pyre" in zone(m, "discard", 1)


# -- Hellforged Weapon ---------------------------------------------------------------

WEAPON = """
scenario.clear_board()
scenario.create("ret_talus", 1, "f1")
scenario.create("svara", 2, "c4")
scenario.create("undead_carrier", 1, "c3", {damage = %d})
scenario.empty(1, "hand")
scenario.add(1, "hand", {"hellforged_weapon"})
scenario.force({5, 5, 1, 6})
scenario.start(1, "build")
"""


def test_hellforged_weapon_adds_strength_and_burns_on_specials(sw):
    m = start(sw, WEAPON % 0)
    answer(m, "Play Hellforged Weapon (cost 0)", "End build phase")
    carrier = card_at(m, "c3")
    assert [card(m, i)["def"] for i in carrier["under"]] == ["hellforged_weapon"]
    assert "hellforged_weapon" not in zone(m, "discard", 1)
    m.messages()
    answer(m, "Attack with Undead Carrier at c3")
    assert rolled(m, "Undead Carrier") == 4
    assert tokens(card_at(m, "c4"), "damage") == 4
    assert tokens(card_at(m, "c3"), "damage") == 2       # two specials rolled


def test_hellforged_weapon_is_discarded_with_its_host(sw):
    m = start(sw, WEAPON % 1)
    answer(m, "Play Hellforged Weapon (cost 0)", "End build phase", "Attack with Undead Carrier at c3")
    assert card_at(m, "c3") is None
    assert {"undead_carrier", "hellforged_weapon"} <= set(zone(m, "discard", 1))


# -- Elut-Bal ------------------------------------------------------------------------

ELUT_BAL = """
scenario.clear_board()
scenario.create("ret_talus", 1, "a1")
scenario.create("svara", 2, "f8")
scenario.create("kingdom_gate", 1, "f2")
scenario.create("undead_carrier", 1, "c4")
scenario.create("undead_archer", 1, "c2")
scenario.empty(1, "hand")
scenario.add(1, "hand", {"elut_bal"})
scenario.set_counter(1, "magic", 6)
scenario.start(1, "summon")
"""


def test_elut_bal_takes_the_place_of_a_destroyed_unit(sw):
    m = start(sw, ELUT_BAL)
    answer(m, "Summon Elut-Bal (cost 6)")
    opts = m.options()
    assert "Destroy Undead Carrier at c4" in opts and "Destroy Undead Archer at c2" in opts
    assert not any("Ret-Talus" in o for o in opts)
    answer(m, "Destroy Undead Carrier at c4")
    assert card_at(m, "c4")["def"] == "elut_bal"
    assert card_at(m, "c2")["def"] == "undead_archer"    # the Archer was not offered the space
    assert "undead_carrier" in zone(m, "discard", 1)
    assert counter(m, "magic", 1) == 0
    assert "Summon Elut-Bal (cost 6)" not in m.options()


def test_elut_bal_needs_a_unit_to_destroy(sw):
    m = start(sw, ELUT_BAL.replace('scenario.create("undead_carrier", 1, "c4")', "")
              .replace('scenario.create("undead_archer", 1, "c2")', ""))
    assert "Summon Elut-Bal (cost 6)" not in m.options()


def test_other_units_still_summon_next_to_gates(sw):
    m = start(sw, ELUT_BAL.replace('{"elut_bal"}', '{"undead_warrior"}'))
    answer(m, "Summon Undead Warrior (cost 2)", "f3")
    assert card_at(m, "f3")["def"] == "undead_warrior"


def test_a_unit_whose_life_came_from_where_it_stood_is_destroyed_when_it_moves_away(tmp_path):
    """A modder's card with more life next to its summoner, damaged past its own life: it
    stayed at 0 life left once moved, forced or swapped away (the rules looked again only
    when a card was destroyed or changed sides). The README: destroyed at once."""
    from conftest import copy_game, edit, summon
    g = copy_game(tmp_path, "summoner_wars")
    edit(g.cards / "polar_dwarves.yaml", "    modifiers:\n      strength: |\n        function(self, card, value)\n"
         "          if card ~= self or not self.space then return value end\n          local near = adjacent_cards",
         "    modifiers:\n      life: |\n        function(self, card, value)\n"
         "          if card ~= self or not self.space then return value end\n"
         "          local s = summoner_of(self.controller)\n"
         "          if s and s.space and board.distance(s.space, self.space) == 1 then return value + 2 end\n"
         "          return value\n        end\n"
         "      strength: |\n        function(self, card, value)\n"
         "          if card ~= self or not self.space then return value end\n          local near = adjacent_cards")
    (g.cards / "tests").mkdir()
    (g.cards / "tests" / "life.yaml").write_text("""\
game: summoner_wars
scenarios:
  - name: life given by standing next to the summoner goes with the move away
    seats: [polar_dwarves, fallen_kingdom]
    setup:
      clear_board: true
      board:
        a1: {card: svara, owner: 1}
        b1: {card: frost_mage, owner: 1, tokens: {damage: 5}}
        f8: {card: ret_talus, owner: 2}
      start: {player: 1, phase: move}
    steps:
      - expect:
          board: {b1: {card: frost_mage, stats: {life: 6}}}
      - answer: Move Frost Mage at b1
      - answer: c1
        expect:
          board: {b1: null, c1: null}
          said: ['Frost Mage at c1 is destroyed']
""")
    r = summon("test", str(g.cards / "tests" / "life.yaml"))
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout, r.stdout + r.stderr
