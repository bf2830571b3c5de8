"""The engine: determinism, saving and replaying, boards, the flow, and errors that name their place."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest

from conftest import ROOT, edit, position
from engine.errors import DefinitionError, EngineError, IllegalAnswer, SaveFileError, ScriptError, UnknownGame
from engine.loader import LuaSource, load_game
from engine.match import Match, RandomBot, Seat, load_match, play, read_save

TINY = str(ROOT / "tests" / "games" / "tiny_graph")


def bot_game(game, seed, upto=None):
    m = Match(game, seed, [Seat("bot"), Seat("bot")], quiet=True)
    play(m, {1: RandomBot(seed, 1), 2: RandomBot(seed, 2)}, max_decisions=upto)
    return m


# -- determinism and the decision log --------------------------------------------

def test_same_seed_gives_same_game_and_hash(sw):
    a, b = bot_game(sw, 42), bot_game(sw, 42)
    assert a.answers == b.answers
    assert a.state_hash() == b.state_hash()


def test_different_seeds_give_different_games(sw):
    hashes = {bot_game(sw, s).state_hash() for s in range(1, 6)}
    assert len(hashes) == 5


def test_saved_log_replays_to_the_same_hash(sw, tmp_path):
    m = bot_game(sw, 7, upto=120)
    path = tmp_path / "m.json"
    m.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "summon-match/1" and data["game"] == "summoner_wars"
    assert len(data["answers"]) == 120
    again = load_match(path, sw, quiet=True)
    assert again.decisions == 120
    assert again.state_hash() == m.state_hash()
    assert again.options() == m.options()


def test_replay_to_n_matches_the_game_at_n(sw, tmp_path):
    full = bot_game(sw, 9, upto=80)
    part = bot_game(sw, 9, upto=30)
    full.save(tmp_path / "f.json")
    at30 = load_match(tmp_path / "f.json", sw, upto=30, quiet=True)
    assert at30.state_hash() == part.state_hash()


def test_a_finished_game_replays_to_its_final_hash(sw, tmp_path):
    m = bot_game(sw, 11)
    assert m.is_over
    m.save(tmp_path / "end.json")
    again = load_match(tmp_path / "end.json", sw, quiet=True)
    assert again.is_over and again.winner == m.winner
    assert again.state_hash() == m.state_hash()


def test_an_answer_not_offered_is_refused_and_changes_nothing(sw):
    m = bot_game(sw, 3, upto=5)
    before = m.state_hash()
    with pytest.raises(IllegalAnswer):
        m.answer(m.pending.count)
    with pytest.raises(IllegalAnswer):
        m.answer_key("Fly to the moon")
    assert m.state_hash() == before and m.decisions == 5


def test_bad_save_files_give_clear_errors(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(SaveFileError, match=r"bad.json:1:2"):
        read_save(p)
    p.write_text(json.dumps({"format": "summon-match/1", "game": "summoner_wars", "seed": "x",
                             "seats": ["bot"], "answers": [1]}))
    with pytest.raises(SaveFileError, match="seed"):
        read_save(p)
    with pytest.raises(SaveFileError, match="no such file"):
        read_save(tmp_path / "missing.json")


def test_forced_rolls_take_the_named_faces(sw):
    # face 6 is a lone melee symbol: a melee unit hits once per die
    m = position(sw, """
        scenario.clear_board()
        scenario.create("svara", 1, "a1"); scenario.create("ret_talus", 2, "f8")
        scenario.create("ice_golem", 1, "c4"); scenario.create("undead_warrior", 2, "c5")
        scenario.start(1, "attack")
        scenario.force({6, 4})
    """)
    m.answer_key("Attack with Ice Golem at c4")  # the only target is taken without asking
    assert any("rolls melee, ranged+special -> 1 hit" in s for s in m.messages())


# -- boards -----------------------------------------------------------------------

def test_grid_distance_lines_and_adjacency(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    assert m.eval('board.distance("a1", "c3")') == [4]
    assert m.eval('board.is_adjacent("a1", "a2"), board.is_adjacent("a1", "b2")') == [True, False]
    assert sorted(m.eval('board.neighbors("a1")')[0]) == ["a2", "b1"]
    assert m.eval('#board.within("c4", 1)') == [4]
    assert m.eval('board.ray("a1", 1, 0, 10)') == [["b1", "c1", "d1", "e1", "f1"]]


def test_graph_board_regions_and_distance():
    g = load_game(TINY)
    m = Match(g, 1, [Seat(), Seat()], quiet=True)
    assert sorted(m.eval('board.neighbors("north_a")')[0]) == ["north_b", "south_a"]
    assert sorted(m.eval('board.neighbors("south_b")')[0]) == ["north_b", "south_a"]  # links go both ways
    assert m.eval('board.distance("north_a", "south_b")') == [2]
    assert m.eval('board.region("south_a")') == ["south"]
    assert sorted(m.eval('board.spaces_in("north")')[0]) == ["north_a", "north_b"]


def grid_with_regions(sw, regions: dict):
    return dataclasses.replace(sw, data={**sw.data, "board": {**sw.data["board"], "regions": regions}})


def test_grid_board_regions_list_their_spaces(sw):
    g = grid_with_regions(sw, {"south": {"spaces": ["a1", "b1"], "bonus": 1}, "north": {"spaces": ["f8"]}})
    m = Match(g, 1, [Seat(), Seat()], quiet=True)
    assert m.eval('board.region("a1"), board.region("f8"), board.region("c3")') == ["south", "north", None]
    assert m.eval('board.spaces_in("south"), board.regions(), board.region_info("south").bonus') == \
        [["a1", "b1"], ["north", "south"], 1]


def test_a_region_for_other_numbers_of_players_is_left_off_the_board(sw):
    # Summoner Wars is for 2 players: a region for 3 leaves a hole in the middle of the grid
    g = grid_with_regions(sw, {"far": {"spaces": ["c4", "c5"], "player_counts": [3]},
                               "near": {"spaces": ["a1"], "player_counts": [2, 3]}})
    m = Match(g, 1, [Seat(), Seat()], quiet=True)
    assert "c4" not in m.board_spaces() and len(m.board_spaces()) == 6 * 8 - 2
    assert m.eval('board.exists("c4"), board.regions(), board.space_at(3, 4)') == [False, ["near"], None]
    assert m.board_regions() == ["near"]     # what the screen's regions line is built from
    assert sorted(m.eval('board.neighbors("c3")')[0]) == ["b3", "c2", "d3"]
    assert m.eval('board.distance("c3", "c6"), #board.within("c3", 1)') == [5, 3]   # steps around the hole
    with pytest.raises(ScriptError, match="board.neighbors: no space called 'c4'"):
        m.eval('board.neighbors("c4")')
    with pytest.raises(ScriptError, match="no space called 'c5'"):
        m.eval('cards.place(cards.create("frost_mage", 1), "c5")')
    # on a graph: the tiny game with an east for 3 players, linked to both ends of the north
    tiny = load_game(TINY)
    board = tiny.data["board"]
    g = dataclasses.replace(tiny, data={**tiny.data, "board": {
        **board, "spaces": {**board["spaces"], "east_a": {"region": "east", "links": ["north_a", "north_b"]}},
        "regions": {**board["regions"], "east": {"player_counts": [3]}}}})
    two, three = (Match(g, 1, [Seat()] * n, quiet=True) for n in (2, 3))
    assert two.board_spaces() == ["north_a", "north_b", "south_a", "south_b"]
    assert three.board_spaces() == ["east_a"] + two.board_spaces()
    assert two.eval('board.neighbors("north_a"), board.regions()') == [["north_b", "south_a"], ["north", "south"]]
    assert three.eval('board.neighbors("north_a"), #board.regions()') == [["east_a", "north_b", "south_a"], 3]
    assert two.board_regions() == ["north", "south"] and Match(load_game("summoner_tcg"), 1, [Seat()] * 2,
                                                               quiet=True).board_regions() == []


def test_a_space_in_two_regions_stops_a_game_built_past_the_loader(sw):
    # the loader refuses such a board; a game built in Python gets the same answer every
    # run (regions are read by name, not in pairs order), and it is an error
    g = grid_with_regions(sw, {"west": {"spaces": ["a1", "a2"]}, "south": {"spaces": ["b1", "a1"]}})
    with pytest.raises(DefinitionError, match=r"game\.yaml:1:1: board: space 'a1' is in two regions, "
                                              r"'south' and 'west'$"):
        Match(g, 1, [Seat(), Seat()], quiet=True)


def test_rounds_flow_and_end_on_a_graph_game():
    g = load_game(TINY)
    for players in (2, 3):
        m = Match(g, 4, [Seat() for _ in range(players)], quiet=True)
        play(m, {i: RandomBot(4, i) for i in range(1, players + 1)})
        assert m.is_over
        st = m.snapshot()
        assert st["round"] == 3
        scores = [st["counters"][str(p)]["score"] for p in range(1, players + 1)]
        top = max(scores)
        # the one highest score wins; a tie for it leaves no winner
        assert m.winner == (scores.index(top) + 1 if scores.count(top) == 1 else None), scores


def test_player_count_is_checked(sw):
    with pytest.raises(EngineError, match="^summoner_wars is for 2 players, not 3$"):
        Match(sw, 1, [Seat(), Seat(), Seat()])
    with pytest.raises(EngineError, match="^tiny_graph is for 2 to 3 players, not 1$"):
        Match(load_game(TINY), 1, [Seat()])


# -- hidden information -----------------------------------------------------------

def test_a_view_hides_the_other_hand_and_every_draw_pile(sw):
    m = Match(sw, 1, [Seat(), Seat()], quiet=True)
    v = m.view(1)
    assert v["zones"]["hand:1"]["cards"] == m.snapshot()["zones"]["hand:1"]
    assert v["zones"]["hand:1"]["count"] == 5
    assert v["zones"]["hand:2"] == {"count": 5}
    assert v["zones"]["draw:1"] == {"count": 25}
    visible = {c["id"] for c in v["cards"]}
    assert not visible & set(m.snapshot()["zones"]["hand:2"])
    assert "rng" not in v


# -- errors -----------------------------------------------------------------------

def test_unknown_game_lists_the_games_found():
    with pytest.raises(UnknownGame, match=r"summoner_wars") as e:
        load_game("sumoner_wars")
    assert "did you mean 'summoner_wars'" in str(e.value)


def test_bad_yaml_names_file_and_line(game_copy):
    rules, cards = game_copy()
    f = cards / "polar_dwarves.yaml"
    lines = f.read_text().splitlines()
    lines[12] = lines[12] + " ]["
    f.write_text("\n".join(lines))
    with pytest.raises(DefinitionError) as e:
        load_game(str(rules))
    assert "polar_dwarves.yaml:13:" in str(e.value)


def test_lua_syntax_error_in_a_card_names_the_yaml_line(game_copy):
    rules, cards = game_copy()
    f = cards / "polar_dwarves.yaml"
    text = f.read_text()
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if "if ev.card ~= self then return end" in line)
    lines[n] = lines[n].replace("then return end", "then return")
    f.write_text("\n".join(lines))
    # a bare `return` must end its block: Lua stops at the statement after it, on the next line,
    # at the word it names (Lua gives no column: the engine finds it on the line)
    col = lines[n + 1].index("local") + 1
    assert col > 1 and lines[n + 1].count("local") == 1
    with pytest.raises(DefinitionError, match=rf"polar_dwarves.yaml:{n + 2}:{col}: Lua: unexpected symbol near 'local'"):
        load_game(str(rules))


ECHO = """      after_play: |
        function(self, ev)
          if ev.card ~= self and ev.player == self.owner then
            score(self.owner, 1)
          end
        end"""


def _new_game_with_echo(tmp_path, hook: str):
    """A game fresh from `summon new game`, its Echo card's hook written as given."""
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    edit(tmp_path / "cards/sprint/starter.yaml", ECHO, hook)
    return tmp_path / "rules/sprint"


# Written in these styles, YAML folds the hook's lines into one, so the comment hides the rest.
JOINED = {
    "plain": (16, "      after_play:\n        function(self, ev)\n          -- the owner's other plays\n"
                  "          if ev.card ~= self and ev.player == self.owner then score(self.owner, 1) end\n"
                  "        end"),
    "double": (15, '      after_play: "function(self, ev)\n          -- the owner\'s other plays\n'
                   '          if ev.card ~= self and ev.player == self.owner then score(self.owner, 1) end\n'
                   '        end"'),
    "single": (15, "      after_play: 'function(self, ev)\n          -- the owner''s other plays\n"
                   "          if ev.card ~= self and ev.player == self.owner then score(self.owner, 1) end\n"
                   "        end'"),
    "folded": (17, "      after_play: >\n        function(self, ev)\n        -- the owner's other plays\n"
                   "        if ev.card ~= self and ev.player == self.owner then score(self.owner, 1) end\n"
                   "        end"),
}


@pytest.mark.parametrize("style", sorted(JOINED))
def test_lua_whose_lines_yaml_joins_gets_a_hint_to_write_a_block(tmp_path, style):
    line, hook = JOINED[style]
    rules = _new_game_with_echo(tmp_path, hook)
    with pytest.raises(DefinitionError) as e:
        load_game(str(rules))
    said = str(e.value)
    assert re.search(rf"starter.yaml:{line}:1: Lua: 'end' expected[^\n]* near <eof> \(YAML joined this Lua's lines", said)
    assert "write `after_play: |`" in said


def test_statements_where_a_function_belongs_get_a_hint(tmp_path):
    rules = _new_game_with_echo(tmp_path, "      after_play: |\n        local n = 1\n        score(self.owner, n)")
    with pytest.raises(DefinitionError) as e:
        load_game(str(rules))
    col = (tmp_path / "cards/sprint/starter.yaml").read_text().splitlines()[15].index("local") + 1
    assert f"starter.yaml:16:{col}: Lua: unexpected symbol near 'local'" in str(e.value) and col > 1
    assert "(this Lua must be a function, written function(self, ...) ... end" in str(e.value)


def test_a_function_after_a_comment_gets_no_hint_that_it_should_be_one(tmp_path):
    rules = _new_game_with_echo(tmp_path, "      after_play: |\n        -- the owner's plays\n"
                                          "        function(self, ev)\n          score(self.owner, 1)\n        end\n        end")
    with pytest.raises(DefinitionError) as e:
        load_game(str(rules))
    assert "starter.yaml:" in str(e.value) and "must be a function" not in str(e.value)


def test_the_same_lua_as_a_block_loads_and_a_one_line_error_gets_no_hint(tmp_path):
    block = ("      after_play: |\n        function(self, ev)\n          -- the owner's other plays\n"
             "          if ev.card ~= self and ev.player == self.owner then score(self.owner, 1) end\n"
             "        end")
    load_game(str(_new_game_with_echo(tmp_path / "a", block)))
    one_line = '      after_play: "function(self, ev) if then end end"'
    with pytest.raises(DefinitionError) as e:
        load_game(str(_new_game_with_echo(tmp_path / "b", one_line)))
    col = one_line.index("then") + 1
    assert f"starter.yaml:15:{col}: Lua: unexpected symbol near 'then'" in str(e.value)
    assert "joined" not in str(e.value)


def test_typo_in_a_hook_name_is_a_load_error_with_a_suggestion(game_copy):
    rules, cards = game_copy()
    edit(cards / "polar_dwarves.yaml", "after_move: |", "after_mvoe: |")
    with pytest.raises(DefinitionError, match=r"polar_dwarves.yaml:\d+:\d+: no event hook called 'after_mvoe' \(did you mean 'after_move'\?\)"):
        load_game(str(rules))


def test_unknown_card_key_suggests_the_right_one(game_copy):
    rules, cards = game_copy()
    edit(cards / "fallen_kingdom.yaml", "    strength: 2\n", "    strenght: 2\n")
    with pytest.raises(DefinitionError, match=r"fallen_kingdom.yaml:\d+:\d+: unknown key 'strenght' \(did you mean 'strength'\?\)"):
        load_game(str(rules))


def test_runtime_lua_error_names_the_file_and_leaves_the_match_at_its_last_decision(game_copy, tmp_path):
    rules, cards = game_copy()
    edit(cards / "polar_dwarves.yaml", "if ev.card ~= self then return end",
         "if ev.card ~= self then return end\n          local x = nil + 1")
    g = load_game(str(rules))
    m = Match(g, 1, [Seat("bot", "polar_dwarves"), Seat("bot", "fallen_kingdom")],
              scenario=LuaSource("scenario", """
        scenario.clear_board()
        scenario.create("svara", 1, "c1"); scenario.create("ret_talus", 2, "c8")
        scenario.start(1, "move")"""))
    m.answer_key("Move Svara at c1")
    before, options, n = m.state_hash(), m.options(), m.decisions
    with pytest.raises(ScriptError) as e:
        m.answer_key("c3")
    msg = str(e.value)
    assert "polar_dwarves.yaml:" in msg and "arithmetic" in msg
    assert "hook after_move of Svara" in msg
    assert "phase move" in msg
    assert m.state_hash() == before and m.options() == options and m.decisions == n
    m.save(tmp_path / "stuck.json")
    assert read_save(tmp_path / "stuck.json")["answers"] == m.answers


def test_game_options_are_checked_saved_and_replayed(tmp_path):
    from engine import loader
    from engine.match import parse_options

    g = loader.load_game("summoners_isle")
    opts = parse_options(["extra_round=true", "rounds=5"])
    assert opts == {"extra_round": True, "rounds": 5}
    m = Match(g, 3, [Seat(), Seat(), Seat()], quiet=True, options=opts)
    assert m.eval("options.rounds, options.extra_round") == [5, True]
    play(m, {i: RandomBot(3, i) for i in (1, 2, 3)})
    assert m.snapshot()["round"] == 6          # 5 rounds and the extra one
    m.save(tmp_path / "o.json")
    assert json.loads((tmp_path / "o.json").read_text())["options"] == opts
    again = load_match(tmp_path / "o.json", quiet=True)
    assert again.state_hash() == m.state_hash()
    with pytest.raises(EngineError, match="no option 'round'"):
        Match(g, 1, [Seat(), Seat()], options={"round": 3})
    with pytest.raises(EngineError, match="takes a whole number"):
        Match(g, 1, [Seat(), Seat()], options={"rounds": "many"})


# -- the engine knows no game --------------------------------------------------------

# Concepts of the shipped games (and their names): none may appear anywhere under engine/,
# code, comments or schema text alike. Games say them in rules/ and cards/.
GAME_WORDS = (r"summoners?|summonaria|tcg|wars|isle|bless\w*|wyrms?|stamina|towers?|magic|gates?|energy|"
              r"factions?|temples?|domains?|portals?|gambits?|prim(ed|ing)|polar|dwarves|kingdom|court")


def test_nothing_under_engine_names_a_games_concept():
    import re

    words = re.compile(rf"\b({GAME_WORDS})\b", re.IGNORECASE)
    found = []
    for path in sorted((ROOT / "engine").rglob("*")):
        if path.suffix in (".py", ".lua", ".json") and "__pycache__" not in path.parts:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in words.finditer(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)}")
    assert found == []


def test_a_syntax_error_in_a_rules_file_is_placed_at_its_column(tmp_path):
    """Lua names the token it stopped at but gives no column: the engine finds it, where the
    token stands more than once on the line by where a Lua parser stops reading."""
    from repl import scaffold
    scaffold.new_game("sprint", tmp_path)
    rules = tmp_path / "rules/sprint/rules.lua"
    lines = rules.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.strip().startswith("local n = "))
    lines[n] = lines[n].replace("local n = ", "local n = = ")
    rules.write_text("\n".join(lines) + "\n")
    col = lines[n].index("= =") + 3       # (the second '=')
    with pytest.raises(DefinitionError, match=rf"rules.lua:{n + 1}:{col}: Lua: unexpected symbol near '='"):
        load_game(str(tmp_path / "rules/sprint"))
