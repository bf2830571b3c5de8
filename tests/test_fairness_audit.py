"""summon check's fairness audit (engine/fairness.py): what a seat reads that its view does
not explain, found by giving worlds dealt again from its view the game's own answers."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, copy_game
from engine import fairness, loader
from engine.check import _random_seats, check
from engine.match import EngineError, Match, Seat, public_label

EXAMPLES = ROOT / "docs" / "examples"

DRAW = '''  zones.draw(p, "deck", "hand", 1)
  if state.turn'''


def duel(tmp_path: Path) -> Path:
    """A copy of the docs' duel example (which checks clean); returns its rules file."""
    rules = copy_game(tmp_path, "duel", EXAMPLES).rules / "duel.lua"
    assert check(str(rules.parent)) == []
    return rules


def after_draw(rules: Path, lua: str) -> Path:
    """Plants Lua in the duel's draw phase, after the draw, where `hand` is the drawer's hand."""
    return changed(rules, DRAW, '  zones.draw(p, "deck", "hand", 1)\n  local hand = zones.cards(p, "hand")\n'
                   + lua + "  if state.turn")


def changed(rules: Path, old: str, new: str) -> Path:
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    return rules.parent


def line_of(rules: Path, needle: str) -> int:
    return next(i for i, line in enumerate(rules.read_text().splitlines(), 1) if needle in line)


def the_problem(game: Path):
    found = check(str(game))
    assert len(found) == 1, found
    return found[0]


def test_a_line_that_names_a_drawn_card_is_found_at_the_line_that_says_it(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, '''  if #hand > 0 then say("Player " .. p .. " draws " .. hand[#hand].name) end
''')
    p = the_problem(game)
    assert (p.path.endswith("duel.lua"), p.line) == (True, line_of(rules, '" draws "'))
    assert p.col == rules.read_text().splitlines()[p.line - 1].index('"Player "') + 1
    assert p.message.startswith("player ") and ' reads "Player ' in p.message and " draws " in p.message
    assert "say(text, p)" in p.message and "a random game summon check played" in p.message
    assert p.message.endswith("where the rules mean every seat to know it, end the line with the comment "
                              "`-- check: public`")
    # the same line said to the drawer alone is the rules' to say
    changed(rules, 'say("Player " .. p .. " draws " .. hand[#hand].name)', 'say("You draw " .. hand[#hand].name, p)')
    assert check(str(game)) == []


def test_a_setup_line_that_names_a_card_its_reader_does_not_see_is_found(tmp_path):
    # before the first question there is no world to compare with: a card named that the
    # reader sees none of then is the leak (the trial's set-aside card, named at the deal)
    rules = duel(tmp_path)
    deal = '    zones.draw(p, "deck", "hand", 3)\n'
    game = changed(rules, deal, deal + '    say("Player " .. p .. " holds " .. zones.cards(p, "hand")[1].name)\n')
    p = the_problem(game)
    assert p.line == line_of(rules, '" holds "') and p.message.endswith("in the setup of a random game summon "
                                                                       "check played); where the rules mean every "
                                                                       "seat to know it, end the line with the "
                                                                       "comment `-- check: public`")
    assert re.match(r'player \d reads "Player \d holds [\w ]+" in the setup, before the first question, and sees '
                    r'no [\w ]+ then: the line names what player \d cannot see; say it only to the seats', p.message)
    changed(rules, '.. zones.cards(p, "hand")[1].name)', '.. zones.cards(p, "hand")[1].name, p)')
    assert check(str(game)) == []


def test_a_line_the_rules_mean_to_be_public_is_accepted_by_its_comment(tmp_path):
    # a rule that shows every drawn card's kind (not its name) to all: the audit finds the
    # line, and the comment says the rules mean it; another leak is still found
    rules = duel(tmp_path)
    game = after_draw(rules, '''  local kind = #hand > 0 and (cards.has_tag(hand[#hand], "unit") and "a unit" or "gear")
  if kind then say("Player " .. p .. " draws " .. kind) end
''')
    assert the_problem(game).line == line_of(rules, '" draws "')
    changed(rules, '" draws " .. kind) end', '" draws " .. kind) end   -- check: public (the kind drawn is shown)')
    assert check(str(game)) == []
    changed(rules, "  if state.turn", "  if kind then state.vars.last_drawn = hand[#hand].name end\n  if state.turn")
    assert the_problem(game).line == line_of(rules, "state.vars.last_drawn =")


def test_an_answer_that_names_a_hidden_card_is_found_unless_the_choice_is_secret(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, '''  if #hand > 0 then
    local c = hand[#hand]
    choose { player = p, prompt = "Keep it?", options = { "Keep " .. c.name, "Keep the " .. c.name .. " too" } }
  end
''')
    p = the_problem(game)
    assert p.line == line_of(rules, '"Keep it?"')
    assert "'s answer \"Keep " in p.message and "secret = true" in p.message
    changed(rules, 'prompt = "Keep it?",', 'prompt = "Keep it?", secret = true,')
    assert check(str(game)) == []


def test_a_question_asked_only_when_a_hidden_card_allows_it_is_found(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, """  if #hand > 0 and cards.has_tag(hand[#hand], "unit") then
    choose { player = p, prompt = "Hold the new unit back?", options = { "Yes", "No" } }
  end
""")
    p = the_problem(game)
    assert p.line == line_of(rules, '"Hold the new unit back?"')
    assert 'is asked "Hold the new unit back?"' in p.message and "(no question asked at that point: " in p.message


def test_a_question_of_one_option_taken_without_asking_only_sometimes_is_found(tmp_path):
    # the example asks "Play a card?" even with only "Pass" to offer (confirm): without it, the
    # other player would see the question only when the hand holds a card the coins can pay for
    rules = duel(tmp_path)
    game = changed(rules, DRAW, """  zones.draw(p, "deck", "hand", 1)
  local hand, opts = zones.cards(p, "hand"), { "Keep it" }
  if #hand > 0 and cards.has_tag(hand[#hand], "unit") then opts[2] = "Discard it" end
  choose { player = p, prompt = "The card drawn:", options = opts }
  if state.turn""")
    p = the_problem(game)
    assert p.line == line_of(rules, '"The card drawn:"')
    assert 'is asked "The card drawn:"' in p.message and "(its one option taken without asking: " in p.message
    assert "confirm = true" in p.message
    changed(rules, 'options = opts }\n  if state.turn', 'options = opts, confirm = true }\n  if state.turn')
    assert check(str(game)) == []


def test_a_hidden_cards_name_kept_in_state_vars_is_found_at_the_line_that_writes_it(tmp_path):
    # state.vars is in every seat's view: the other player reads the drawn card's name there
    rules = duel(tmp_path)
    changed(rules, "function setup()\n", 'function setup()\n  state.vars.last_drawn = ""   -- state.vars.last_drawn = x\n')
    game = after_draw(rules, """  state.vars.draws = (state.vars.draws or 0) + 1
  if #hand > 0 then state.vars.last_drawn = hand[#hand].name end
""")
    p = the_problem(game)
    text = rules.read_text().splitlines()[p.line - 1]
    assert (p.line, p.col) == (line_of(rules, "state.vars.last_drawn ="), text.index("vars.last_drawn") + 1)
    assert p.message.startswith("player ") and " sees state.vars.last_drawn = \"" in p.message
    assert "every seat's view holds state.vars" in p.message and "a token on the card" in p.message
    changed(rules, "state.vars.last_drawn = hand[#hand].name", "state.vars[1] = hand[#hand].name")
    p = the_problem(game)
    assert p.line == line_of(rules, "state.vars[1] =") and " sees state.vars[1] = \"" in p.message
    # how many cards were drawn is for every seat to see (state.vars.draws passed above)
    changed(rules, "  if #hand > 0 then state.vars[1] = hand[#hand].name end\n", "")
    assert check(str(game)) == []


@pytest.mark.parametrize("write, said", [
    ("state.secret = hand[#hand].name", r"sees state\.secret = \"[\w ]+\" in the game"),
    ("state.players[p].last = hand[#hand].name", r"sees state\.players\[\d\]\.last = \"[\w ]+\" in the game"),
    ("table.insert(state.vars.names, hand[#hand].name)", r"sees state\.vars\.names = \[.*\] in the game"),
    ("state.vars[#state.vars + 1] = hand[#hand].name", r"sees state\.vars\[\d+\] = \"[\w ]+\" in the game"),
])
def test_a_hidden_name_written_anywhere_in_the_view_is_found_at_its_write(tmp_path, write, said):
    # (the setup's first, constant write of the key is not the place: the draw's is)
    rules = duel(tmp_path)
    changed(rules, "function setup()\n", "function setup()\n  state.vars.names = {}\n")
    game = after_draw(rules, f"  if #hand > 0 then {write} end\n")
    p = the_problem(game)
    assert re.search(said, p.message) and p.line == line_of(rules, write), p


def test_a_key_written_at_two_lines_is_placed_at_the_one_whose_text_it_holds(tmp_path):
    # (a modder's trial: `-- check: public` on the innocent first write accepted the leak)
    rules = duel(tmp_path)
    changed(rules, "function setup()\n", 'function setup()\n  state.vars.news = string.format("Player %d sets up", 1)'
                                         '   -- check: public\n  state.vars.log = state.vars.log or {}\n')
    game = after_draw(rules, '  if #hand > 0 then state.vars.news = "Player " .. p .. " drew " .. hand[#hand].name end\n')
    assert the_problem(game).line == line_of(rules, '" drew "')
    # (a first value, `x = x or {}`, is no place either)
    changed(rules, '  if #hand > 0 then state.vars.news = "Player " .. p .. " drew " .. hand[#hand].name end\n',
            "  if #hand > 0 then table.insert(state.vars.log, hand[#hand].name) end\n")
    assert the_problem(game).line == line_of(rules, "table.insert(state.vars.log")


def test_who_plays_next_by_a_hidden_card_is_found(tmp_path):
    # (a modder's trial: a player holding a unit plays again; the game's turn went its own way)
    rules = duel(tmp_path)
    yaml = rules.parent / "game.yaml"
    yaml.write_text(yaml.read_text().replace("  setup: setup\n", "  setup: setup\n  next_player: next_player\n", 1))
    changed(rules, "function setup()\n", """function next_player(p)
  local hand = zones.cards(p, "hand")
  if #hand > 0 and cards.has_tag(hand[#hand], "unit") and state.turn % 3 == 0 then return p end
  return players.next(p)
end

function setup()
""")
    found = check(str(rules.parent))
    assert any(re.match(r"player \d is asked next in the game and player \d in a world player \d cannot tell", p.message)
               for p in found), found


def test_a_line_is_placed_where_the_world_said_it_when_that_fits_better(tmp_path):
    # the game said the plain line, a world the telling one: both are the telling line's doing
    rules = duel(tmp_path)
    game = after_draw(rules, """  if #hand > 0 and cards.has_tag(hand[#hand], "unit") then
    say("Player " .. p .. " draws a unit, and the rules make it say so")
  else
    say("Player " .. p .. " draws a card")
  end
""")
    assert the_problem(game).line == line_of(rules, "draws a unit")
    changed(rules, 'make it say so")', 'make it say so")   --check:public')
    assert check(str(game)) == []


def test_a_counter_changed_by_a_hidden_card_is_found_at_a_line_that_changes_it(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, """  if #hand > 0 and cards.has_tag(hand[#hand], "unit") then
    counters.add(p, "coins", 1)
  end
""")
    p = the_problem(game)
    assert re.search(r'sees the counter "coins" of player \d at \d+ in the game and \d+ in a world', p.message)
    # at the line that made the change, not the first that changes coins (the turn's income)
    assert (p.path.endswith("duel.lua"), p.line, p.col) == (True, line_of(rules, 'counters.add(p, "coins", 1)'), 5)


def test_a_name_kept_in_state_vars_a_moment_before_the_card_is_shown_is_no_leak(tmp_path):
    # the newest card's name is written as the player is asked, and the card is shown after the answer
    rules = duel(tmp_path)
    ask = '  local pick = choose { player = p, prompt = "Play a card?", options = opts, confirm = true }\n'
    game = changed(rules, ask, """  local hand = zones.cards(p, "hand")
  if #hand > 0 then state.vars.shown_next = hand[#hand].name end
""" + ask)
    assert "state.vars.shown_next = " in the_problem(game).message
    changed(rules, ask, ask + """  for _, c in ipairs(zones.cards(p, "hand")) do
    if c.name == state.vars.shown_next then cards.reveal(c) end
  end
""")
    assert check(str(game)) == []


TWO_STEPS = '''  local pick = choose { player = p, prompt = "Play a card?", options = opts, confirm = true }
  if pick.card and pick.to then
    local where = choose { player = p, prompt = "Bring " .. pick.card.name .. " in?",
                           options = { "Yes, at " .. pick.to, "No" } }
    if where.label == "No" then return end
  end'''


def test_a_card_named_just_before_it_comes_into_sight_is_no_leak(tmp_path):
    # the prompt of the second question names the unit while it is still in the hand; it is
    # on the board after the answer, unless the player says no: then the name told too much
    rules = duel(tmp_path)
    ask = '  local pick = choose { player = p, prompt = "Play a card?", options = opts, confirm = true }'
    game = changed(rules, ask, TWO_STEPS.replace('{ "Yes, at " .. pick.to, "No" }', '{ "Yes, at " .. pick.to }, confirm = true'))
    assert check(str(game)) == []
    changed(rules, '{ "Yes, at " .. pick.to }, confirm = true', '{ "Yes, at " .. pick.to, "No" }')
    found = {p.line: p for p in check(str(game))}   # (the answer "Summon Scout at a1" told it as well)
    assert set(found) <= {line_of(rules, '"Bring "'), line_of(rules, '"Summon "')}
    p = found[line_of(rules, '"Bring "')]
    assert "'s question \"Bring " in p.message


def test_the_audit_is_the_same_in_every_run_and_reads_no_game_when_the_view_explains_all(tmp_path):
    game = loader.load_game("summoner_wars")
    assert fairness.audit(game, _random_seats(game)) == []
    rules = duel(tmp_path)
    changed(rules, DRAW, """  zones.draw(p, "deck", "hand", 1)
  local deck = zones.cards(p, "deck")
  if #deck > 0 then say(#deck .. " cards left; the next is " .. deck[#deck].name) end
  if state.turn""")
    leaky = loader.load_game(str(rules.parent))
    first = fairness.audit(leaky, _random_seats(leaky))
    again = fairness.audit(leaky, _random_seats(leaky))
    assert first and first == again


def test_an_audit_world_draws_what_the_game_draws_and_answers_another_seats_question():
    game = loader.load_game("summoner_wars")
    m = Match(game, 3, [Seat("random"), Seat("random")], quiet=True)
    m.keep_checkpoints()
    m.rollout(seed=3, max_decisions=20)
    asked = m.pending.player
    other = 2 if asked == 1 else 1
    world = m.audit_world(other, 11)
    plain = m.sample(other, 11)
    assert world.view(other) == m.view(other) == plain.view(other)
    rolls = [x.eval("return rng.int(1, 1000000)")[0] for x in (m, world, plain)]
    assert rolls[0] == rolls[1] != rolls[2]
    with pytest.raises(Exception):
        plain.answer(0)            # a sample for another seat refuses the question built from real cards
    world.audit_answer(0, [other])  # the audit answers it as it was built
    assert world.decisions == m.decisions + 1


def test_only_an_audit_world_answers_or_lists_another_seats_question_as_built():
    # the audit's calls are public: a plain sample must not lend them to learn the asked
    # seat's real options (their count, their cards by id) or to answer them
    game = loader.load_game("summoner_wars")
    m = Match(game, 3, [Seat("random"), Seat("random")], quiet=True)
    m.rollout(seed=3, max_decisions=20)
    other = 2 if m.pending.player == 1 else 1
    plain = m.sample(other, 11)
    with pytest.raises(EngineError, match="question is player"):
        plain.audit_answer(0, [other])
    with pytest.raises(EngineError, match="question is player"):
        plain.audit_shapes()
    assert plain.decisions == m.decisions
    with pytest.raises(EngineError, match="not from a sample"):
        plain.audit_world(m.pending.player, 5)
    world = m.audit_world(other, 11)
    assert len(world.audit_shapes()) == m.pending.count
    with pytest.raises(EngineError, match="question is player"):
        world.fork().audit_answer(0, [other])   # a fork of a world is no world of the audit


def test_public_label_drops_the_number_only_of_labels_the_engine_numbered():
    assert public_label("Play Ambush #2", ["Play Ambush", "Play Ambush #2"]) == "Play Ambush"
    assert public_label("Take #2", ["Take #1", "Take #2"]) == "Take #2"


def test_a_phase_that_returns_once_more_in_one_world_before_the_same_question_is_no_leak(tmp_path):
    # the move phase repeats: its first calls mark each new unit of the hand, silently, so how
    # many calls come before "Move a unit?" depends on the hand; the question is asked in both
    rules = duel(tmp_path)
    changed(rules, "function move_phase(p)\n", """function move_phase(p)
  for _, c in ipairs(zones.cards(p, "hand")) do
    if cards.has_tag(c, "unit") and tokens.get(c, "noted") == 0 then tokens.add(c, "noted", 1) return true end
  end
""")
    game, yaml = rules.parent, rules.parent / "game.yaml"
    yaml.write_text(yaml.read_text().replace("{id: move, run: move_phase}",
                                             "{id: move, run: move_phase, repeat: true}"))
    assert check(str(game)) == []


def test_a_leak_is_found_though_the_seat_is_told_something_else_on_the_way(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, '''  if #hand > 0 then say("Player " .. p .. " draws " .. hand[#hand].name) end
  players.learned(3 - p, "that the bank is empty")
''')
    assert [p.line for p in check(str(game))] == [line_of(rules, '" draws "')]


def test_every_leak_is_said_each_at_its_line(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, '''  if #hand > 0 then say("Player " .. p .. " draws " .. hand[#hand].name) end
  if #hand > 1 then say("Player " .. p .. "'s oldest card is " .. hand[1].name) end
''')
    assert sorted(p.line for p in check(str(game))) == [line_of(rules, '" draws "'), line_of(rules, "oldest")]


def test_a_world_that_ends_before_the_game_or_an_option_that_loops_when_compared_stops_nothing(tmp_path):
    rules = duel(tmp_path)
    game = after_draw(rules, '''  if #hand > 0 and hand[#hand].name == "Sword" and state.turn > 6 then end_game(nil, "a sword drawn late") end
''')
    assert check(str(game)) == []
    # an option's table whose __eq never returns: the audit compares options by their fields
    changed(rules, '  local pick = choose { player = p, prompt = "Move a unit?", options = opts }',
            '''  opts[1].card = setmetatable({ id = 1 }, { __eq = function() while true do end end })
  local pick = choose { player = p, prompt = "Move a unit?", options = opts }
  if pick.card and not pick.to then return end''')
    done = subprocess.run([sys.executable, "-m", "repl", "check", str(game)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert "Traceback" not in done.stderr and done.stdout.startswith("ok: "), done.stdout + done.stderr


def test_a_secret_answer_the_rules_announce_later_is_no_leak():
    # the auction's sealed bids, said once all are in: the audit's worlds keep the others'
    # secret answers as given (its second game has three players, where a bid comes between)
    assert check(str(EXAMPLES / "rules" / "auction")) == []


def test_a_name_inside_a_longer_name_is_not_read_as_said():
    names = ["Scout", "Spark Scout", "Sword"]
    assert fairness._names_in("Spark Scout attacks", names) == ["Spark Scout"]
    assert fairness._names_in("Spark Scout attacks a Scout (Swords drawn)", names) == ["Spark Scout", "Scout"]
