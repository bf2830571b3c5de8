"""The engine's doors for search: random playouts in Lua (Match.rollout) and, later in this
file, forks. Each is checked against the one-answer-at-a-time path it must agree with."""
from __future__ import annotations

import pytest

from conftest import ROOT  # noqa: F401  (puts the checkout on sys.path)
from engine.match import Match, Seat


def new(game, seed=5):
    return Match(game, seed, [Seat("bot"), Seat("bot")], quiet=True)


def test_rollout_logs_every_answer_so_a_replay_reaches_the_same_state(sw):
    m = new(sw)
    made = m.rollout(seed=11, max_decisions=400)
    assert made == m.decisions == len(m.askers)
    again = new(sw)
    assert again.replay(m.answers) is None
    assert again.state_hash() == m.state_hash()
    assert again.askers == m.askers
    assert (again.pending is None) == (m.pending is None)


def test_rollout_is_the_same_for_the_same_seed_and_differs_for_another(sw):
    a, b, c = new(sw), new(sw), new(sw)
    for m, seed in ((a, 3), (b, 3), (c, 4)):
        m.rollout(seed=seed, max_decisions=300)
    assert a.answers == b.answers and a.state_hash() == b.state_hash()
    assert c.answers != a.answers


def test_rollout_stops_after_max_decisions_and_play_goes_on_by_hand(sw):
    m = new(sw)
    assert m.rollout(seed=1, max_decisions=7) == 7 == m.decisions
    m.answer(0)
    assert m.decisions == 8


@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle", "summoner_tcg"])
def test_rollout_plays_to_the_end(game_id):
    from engine.loader import load_game

    game = load_game(game_id)
    m = new(game, seed=2)
    m.rollout(seed=2)
    assert m.is_over and m.error is None


def test_repeated_labels_get_numbered_keys_in_order_and_answers_log_the_key(sw):
    from conftest import position

    m = position(sw, 'local pick = choose{player=1, prompt="Which?", options={"X", "X", "X #2", "X", "Y"}}\n'
                     'say("picked " .. pick.label)')
    assert m.options() == ["X", "X #2", "X #2 #2", "X #3", "Y"]
    m.answer_key("X #3")
    assert m.answers[-1] == "X #3"
    assert "picked X" in m.messages()


def test_a_unique_label_is_its_own_key_without_listing_the_options(sw):
    from conftest import position

    m = position(sw, 'choose{player=1, prompt="Which?", options={"A", "B #2", "B"}}')
    m.answer(2)   # answered by index: the key is worked out without asking for the list
    assert m.answers[-1] == "B"
    m2 = position(sw, 'choose{player=1, prompt="Which?", options={"A", "B #2", "B"}}')
    m2.answer(1)
    assert m2.answers[-1] == "B #2"


# -- forks ---------------------------------------------------------------------------

def fresh_replay(game, m):
    """The match m as a new match built from scratch with its answers (the slow way)."""
    again = Match(game, m.seed, m.seats, quiet=True)
    assert again.replay(m.answers) is None
    return again


@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle"])   # (a TCG game of seed 3 is over by 150)
def test_a_fork_is_the_same_position_and_goes_its_own_way(game_id):
    from engine.loader import load_game

    game = load_game(game_id)
    m = new(game, seed=3).keep_checkpoints()
    m.rollout(seed=3, max_decisions=150)
    before = m.state_hash()
    f = m.fork()
    assert f.state_hash() == before and f.options() == m.options()
    assert f.answers == m.answers and f.decisions == m.decisions
    f.rollout(seed=99, max_decisions=60)
    assert m.state_hash() == before and m.decisions == 150        # the original did not move
    assert f.state_hash() == fresh_replay(game, f).state_hash()   # the fork played true
    m.rollout(seed=7, max_decisions=60)
    assert m.state_hash() == fresh_replay(game, m).state_hash()


@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle", "summoner_tcg"])
def test_a_fork_given_the_same_answers_reaches_the_same_hash(game_id):
    from engine.loader import load_game

    game = load_game(game_id)
    # a seed whose game is still open after 90 random answers (the TCG's are shorter)
    m = new(game, seed={"summoner_tcg": 2}.get(game_id, 8)).keep_checkpoints()
    m.rollout(seed=1, max_decisions=90)
    f = m.fork()
    m.rollout(seed=2, max_decisions=80)
    assert f.replay(m.answers[f.decisions:]) is None
    assert f.state_hash() == m.state_hash()


def test_forks_of_forks_twelve_deep_keep_their_own_history(sw):
    """A fork reads the picks before its checkpoint from its match's history instead of
    copying them; past eight forks of forks the history is copied (a longer chain). The
    answers' labels are the host's to keep: once taken, Lua holds none of them."""
    m = new(sw, seed=6).keep_checkpoints()
    m.rollout(seed=6, max_decisions=60)
    chain = [m]
    for i in range(12):
        f = chain[-1].fork()
        f.answer(i % f.pending.count)
        chain.append(f)
    for i, x in enumerate(chain):
        x.rollout(seed=100 + i, max_decisions=25)
    hashes = [x.state_hash() for x in chain]
    assert len(set(hashes)) == len(chain)
    for x in chain:
        again = fresh_replay(sw, x)
        assert again.state_hash() == x.state_hash() and again.answers == x.answers
        assert x._rt.answers_from(1) == ([], [])   # the host took every answer: Lua keeps none twice
    # the deepest fork forked again replays its own answers, not its forebears'
    last = chain[-1]
    g = last.fork()
    assert g.state_hash() == last.state_hash()


def test_matches_and_forks_played_in_turns_stay_apart(sw):
    """Answering a match, its forks and a fork's fork one decision each, in turns."""
    m = new(sw, seed=4).keep_checkpoints()
    m.rollout(seed=4, max_decisions=40)
    family = [m, m.fork(), m.fork()]
    family.append(family[1].fork())
    bots = [__import__("random").Random(i) for i in range(len(family))]
    for _ in range(120):
        for match, rng in zip(family, bots):
            if match.pending is not None:
                match.answer(rng.randrange(match.pending.count))
    hashes = [x.state_hash() for x in family]
    assert len(set(hashes)) == len(family)
    for x in family:
        assert x.state_hash() == fresh_replay(sw, x).state_hash()


def test_a_fork_shares_no_state_with_its_match(sw):
    m = new(sw).keep_checkpoints()
    m.eval('tokens.add(cards.get(2), "mark", 1)')   # (a card with a tokens table of its own)
    m.rollout(seed=5, max_decisions=30)
    f = m.fork()
    f.eval("state.vars.scribble = 1; tokens.add(cards.get(1), 'mark', 3); tokens.add(cards.get(2), 'mark', 3)")
    assert "scribble" not in m.snapshot()["vars"]
    assert "mark" not in m.snapshot()["cards"][0]["tokens"]
    assert m.snapshot()["cards"][1]["tokens"] == {"mark": 1}
    assert f.snapshot()["cards"][1]["tokens"] == {"mark": 4}
    assert f.snapshot()["vars"]["scribble"] == 1


def test_the_first_fork_of_a_match_without_checkpoints_works_and_turns_them_on(sw):
    m = new(sw)
    m.rollout(seed=6, max_decisions=100)
    f = m.fork()
    assert f.state_hash() == m.state_hash()
    m.rollout(seed=6, max_decisions=40)
    g = m.fork()
    assert g.state_hash() == m.state_hash()
    assert g.replay(m.answers[g.decisions:]) is None


def test_a_runtime_collects_generationally_until_one_of_its_matches_keeps_checkpoints(sw):
    """A search's runtime (checkpoints, forks) runs Lua's incremental collector; the game is
    the same under either (sandbox.lua, E.collect_for_forks)."""
    plain, searched = new(sw, seed=3), new(sw, seed=3)
    assert plain._rt._E.collector() == "generational"
    searched.keep_checkpoints()
    assert searched._rt._E.collector() == "incremental"
    plain.rollout(seed=3, max_decisions=150)
    searched.rollout(seed=3, max_decisions=150)
    assert plain._rt._E.collector() == "generational"
    assert searched.state_hash() == plain.state_hash()
    forked = new(sw, seed=5)
    forked.rollout(seed=5, max_decisions=20)
    f = forked.fork()
    assert f._rt._E.collector() == "incremental" and forked._rt._E.collector() == "incremental"


def test_a_fork_is_quiet_and_leaves_the_match_s_messages_alone(sw):
    m = Match(sw, 2, [Seat("bot"), Seat("bot")])
    m.rollout(seed=2, max_decisions=20)
    said = m.messages()
    assert said
    f = m.fork()
    f.rollout(seed=3, max_decisions=20)
    assert f.messages() == []
    m.rollout(seed=2, max_decisions=5)
    assert m.messages()
    loud = m.fork(quiet=False)
    loud.rollout(seed=3, max_decisions=5)
    assert loud.messages()


def test_a_scenario_match_forks_with_its_setup(sw):
    from conftest import position

    m = position(sw, 'scenario.start(1, "attack")', quiet=True).keep_checkpoints()
    m.rollout(seed=1, max_decisions=25)
    f = m.fork()
    assert f.state_hash() == m.state_hash() and f.options() == m.options()


def test_fork_refuses_a_finished_match_and_forced_dice(sw):
    from engine.errors import ScriptError
    from engine.match import IllegalAnswer

    done = new(sw)
    done.rollout(seed=1)
    with pytest.raises(IllegalAnswer, match="over"):
        done.fork()
    m = new(sw).keep_checkpoints()
    m.rollout(seed=1, max_decisions=10)
    m.force_random([1, 2, 3])
    with pytest.raises(ScriptError, match="forced"):
        m.fork()
    m.answer(0)   # the match itself is unharmed


@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle", "summoner_tcg", "summonaria", "sealed_bid"])
def test_a_fork_at_every_decision_of_a_game_is_the_same_position(game_id):
    """Checkpoints fall at the top of turns (rounds) and before each phase: a fork taken at
    any decision resumes from the right one (turn and round counters, active player)."""
    from conftest import ROOT
    from engine.loader import load_game

    game = load_game(str(ROOT / "tests" / "games" / game_id) if game_id == "sealed_bid" else game_id)
    m = new(game, seed=12).keep_checkpoints()
    rng = __import__("random").Random(12)
    while m.pending is not None and m.decisions < 400:
        f = m.fork()
        assert f.state_hash() == m.state_hash(), m.decisions
        assert f.options() == m.options() and f.pending == m.pending
        pick = rng.randrange(m.pending.count)
        f.answer(pick)
        m.answer(pick)
        assert f.state_hash() == m.state_hash(), m.decisions


def test_a_shared_zone_in_play_counts_each_of_its_cards_once(tmp_path):
    """The in-play lists (hooks, modifiers, cards.in_play) read a shared zone once, not once per seat."""
    import shutil

    from conftest import edit
    from engine.loader import load_game

    dest = tmp_path / "sealed_bid"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", dest)
    edit(dest / "game.yaml", "zones:\n", "in_play: [pool]\nzones:\n  pool: {scope: shared, visibility: public}\n")
    m = Match(load_game(str(dest)), 1, [Seat("bot"), Seat("bot")], quiet=True)
    m.eval('cards.create("low", 1, "pool")')
    assert m.eval("#cards.in_play()") == [1]


# -- matches built in another's runtime (what `summon sim` does game after game) -----------

@pytest.mark.parametrize("game_id", ["summoner_wars", "summoners_isle", "summoner_tcg", "summonaria"])
def test_a_match_built_beside_another_plays_as_one_built_alone(game_id):
    from engine.loader import load_game

    game = load_game(game_id)
    seats = [Seat("bot") for _ in range(2)]
    first = Match(game, 3, seats, quiet=True)
    first.rollout(seed=3, max_decisions=150)
    before = first.state_hash()
    second = Match(game, 4, seats, quiet=True, beside=first)
    assert second._rt._lua is first._rt._lua          # the runtime was shared, not rebuilt
    second.rollout(seed=9, max_decisions=300)
    alone = Match(game, 4, seats, quiet=True)
    alone.rollout(seed=9, max_decisions=300)
    assert second.answers == alone.answers and second.state_hash() == alone.state_hash()
    # the first match is where it was, and plays on as if the second had never been built
    assert first.state_hash() == before
    first.rollout(seed=5, max_decisions=100)
    assert first.state_hash() == fresh_replay(game, first).state_hash()


def test_a_match_is_built_alone_when_it_cannot_share_the_runtime(sw):
    from conftest import position

    other = new(sw)
    scenario = position(sw, 'say("hello")')
    for m in (Match(sw, 5, [Seat("bot"), Seat("bot")], quiet=True, beside=scenario),
              Match(sw, 5, [Seat("bot"), Seat("bot")], quiet=True, beside=other, options={"movers": 2})):
        assert m._rt._lua is not scenario._rt._lua and m._rt._lua is not other._rt._lua


# -- forks of a position forked again and again (a search's root) --------------------

ODD_VALUES = {
    # every kind of value a state may hold, for the copier compiled from Lua text
    "odd": ('state.odd = { math.mininteger, math.maxinteger, 1/3, 0.1 + 0.2, -0.0, 1e308, 5e-324, 1/0, -1/0, '
            '"quote \\" back \\\\ nul \\0 end\\n\\r\\t\\255", {1, 2, nil, 4}, [10] = "far", [-1] = "negative", '
            '[2.5] = "float key", [true] = "key true", nested = {deeper = {deepest = {1, {2, {3}}}}}, '
            'empty = {} }'),
    # no literal for NaN: the plain copy takes over
    "nan": "state.odd = { 0/0, 1 }",
    # a table met twice stays one table in every copy
    "shared": "local t = { n = 0 }\nstate.odd = { a = t, b = t }",
}


@pytest.mark.parametrize("kind", sorted(ODD_VALUES))
def test_forks_of_a_position_forked_many_times_are_all_the_same_position(tmp_path, kind):
    """From its eighth fork on, a checkpoint's state is copied by a copier compiled from it
    (E.copier): every fork, before and after, is the position and plays as the match does."""
    import shutil

    from conftest import edit
    from engine.loader import load_game

    dest = tmp_path / "tiny_graph"
    shutil.copytree(ROOT / "tests" / "games" / "tiny_graph", dest)
    edit(dest / "tiny.lua", "function setup()\n", "function setup()\n" + ODD_VALUES[kind] + "\n")
    # each step bumps a count through state.odd.a (the shared table, when there is one)
    edit(dest / "tiny.lua", "      counters.add(\"steps\", 1)\n",
         "      counters.add(\"steps\", 1)\n      if state.odd.a then state.odd.a.n = state.odd.a.n + 1 end\n")
    edit(dest / "game.yaml", "rounds: 3", "rounds: 40")
    game = load_game(str(dest))
    m = Match(game, 3, [Seat("bot"), Seat("bot")], quiet=True).keep_checkpoints()
    m.rollout(seed=3, max_decisions=9)
    forks = [m.fork() for _ in range(12)]
    m._rt._activate()   # the compiled copier took over, but for NaN, which has no literal
    assert bool(m._rt._E.checkpoint.copier) == (kind != "nan")
    for f in forks:
        assert f.state_hash() == m.state_hash() and f.snapshot()["odd"] == m.snapshot()["odd"]
    forks[9].rollout(seed=1, max_decisions=30)             # one copy moves on: the others do not
    assert forks[10].state_hash() == m.state_hash()
    m.rollout(seed=2, max_decisions=40)
    for f in (forks[2], forks[11]):                          # a plain copy and a compiled one
        assert f.replay(m.answers[f.decisions:]) is None
        assert f.state_hash() == m.state_hash()
    if kind == "shared":
        st = m.snapshot()["odd"]
        assert st["a"] == st["b"] and st["a"]["n"] > 0


# -- repeating phases (`repeat: true`): a checkpoint before each call ----------------------

# What the spend phase does with an answer (and the counts of its starts and ends),
# shared by its two ways of asking below.
SPEND_ANSWER = '''  v.passes = pick.go and 0 or (v.passes or 0) + 1
  if pick.go then
    counters.spend(p, "coins", 1)
    counters.add(p, "points", 1)
  end
  v.spender = 3 - p
  if v.passes >= 2 or counters.get(1, "coins") + counters.get(2, "coins") == 0 then
    v.spender, v.passes = nil, nil
    return false
  end
  return true
end

on("phase_start", function(ev) if ev.phase == "spend" then state.vars.starts = (state.vars.starts or 0) + 1 end end)
on("phase_end", function(ev) if ev.phase == "spend" then state.vars.ends = (state.vars.ends or 0) + 1 end end)
'''

SPEND = '''
-- A repeating phase: players take turns spending a coin for a point or passing; it is
-- over once both have passed in a row. Each call asks one question.
function spend_phase(round)
  local v = state.vars
  local p = v.spender or 1
  local opts = { { label = "Pass" } }
  if counters.get(p, "coins") > 0 then table.insert(opts, 1, { label = "Spend", go = true }) end
  local pick = choose { player = p, prompt = "Spend a coin for a point?", options = opts }
''' + SPEND_ANSWER


def spend_game(tmp_path, body=SPEND):
    """sealed_bid with a third phase that repeats (`repeat: true`)."""
    import shutil

    from conftest import edit
    from engine.loader import load_game

    dest = tmp_path / "spend"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", dest)
    edit(dest / "game.yaml", "    - {id: play, run: play_phase}\n",
         "    - {id: play, run: play_phase}\n    - {id: spend, run: spend_phase, repeat: true}\n")
    edit(dest / "game.yaml", "scripts: [bid.lua]", "scripts: [bid.lua, spend.lua]")
    (dest / "spend.lua").write_text(body)
    return load_game(str(dest))


def _in_spend(m):
    return m.pending is not None and m.pending.prompt.startswith("Spend")


def test_a_repeating_phase_is_called_while_it_returns_true_and_starts_and_ends_once(tmp_path):
    m = new(spend_game(tmp_path), seed=3).keep_checkpoints()
    asked_in_round = []
    while m.pending is not None:
        if _in_spend(m):
            asked_in_round.append(m.eval("state.round")[0])
            m.answer(0 if len(asked_in_round) % 5 else 1)   # spend, and now and then pass
        else:
            m.answer(0)
    rounds = m.eval("state.round")[0]
    assert m.eval("state.vars.starts, state.vars.ends") == [rounds, rounds]
    # the first round's spend phase asked again and again: the function was called again
    assert asked_in_round.count(1) >= 5, asked_in_round


def test_a_fork_inside_a_repeating_phase_replays_only_the_current_call(tmp_path):
    """The checkpoint is taken before each call: at a question of the phase's k-th call, the
    checkpoint holds the decisions made so far and k - 1 calls, so a fork replays nothing."""
    m = new(spend_game(tmp_path), seed=3).keep_checkpoints()
    while not _in_spend(m):
        m.answer(0)
    first = m.decisions
    for k in range(1, 6):
        cp = m._rt._E.checkpoint
        if k == 1:   # the checkpoint before the phase
            assert cp.calls is None and cp.decision == first
        else:
            assert (cp.calls, cp.decision) == (k - 1, m.decisions)
        f = m.fork()
        assert f.state_hash() == m.state_hash() and f.options() == m.options()
        f.answer(0)
        m.answer(0)
        assert f.state_hash() == m.state_hash()


def test_forks_at_every_decision_of_a_game_with_a_repeating_phase_play_as_the_match(tmp_path):
    m = new(spend_game(tmp_path), seed=4).keep_checkpoints()
    rng = __import__("random").Random(4)
    while m.pending is not None:
        f = m.fork()
        assert f.state_hash() == m.state_hash() and f.pending == m.pending, m.decisions
        rest = [rng.randrange(m.pending.count)]
        m.answer(rest[0])
        g = m.fork() if m.pending is not None else None
        f.answer(rest[0])
        assert f.state_hash() == m.state_hash(), m.decisions
        if g is not None:   # and a fork of the fork's position agrees after another answer
            assert g.state_hash() == f.state_hash()


def test_a_repeating_phase_that_never_asks_is_stopped_by_the_budget(tmp_path):
    from engine.errors import ScriptError

    body = "function spend_phase(round) state.vars.n = (state.vars.n or 0) + 1 return true end\n"
    game = spend_game(tmp_path, body)
    m = new(game, seed=3)
    with pytest.raises(ScriptError, match="ran too long"):
        while m.pending is not None:
            m.answer(0)


# -- phases with an `offer`: the engine asks, the checkpoint is the question ------------

SPEND_OFFER = '''
-- The spend phase above, split: spend_offer makes the question (counting the calls in
-- state.vars.offers), the engine asks it, spend_phase carries out the answer.
function spend_offer(round)
  local v = state.vars
  v.offers = (v.offers or 0) + 1
  local p = v.spender or 1
  local opts = { { label = "Pass" } }
  if counters.get(p, "coins") > 0 then table.insert(opts, 1, { label = "Spend", go = true }) end
  return { player = p, prompt = "Spend a coin for a point?", options = opts }
end

function spend_phase(round, pick)
  local v = state.vars
  local p = v.spender or 1
''' + SPEND_ANSWER


def offer_game(tmp_path, body=SPEND_OFFER, phase="{id: spend, offer: spend_offer, run: spend_phase, repeat: true}"):
    """spend_game with the question made by an `offer` function."""
    import shutil

    from conftest import edit
    from engine.loader import load_game

    dest = tmp_path / "spend_offer"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", dest)
    edit(dest / "game.yaml", "    - {id: play, run: play_phase}\n", "    - {id: play, run: play_phase}\n    - " + phase + "\n")
    edit(dest / "game.yaml", "scripts: [bid.lua]", "scripts: [bid.lua, spend.lua]")
    (dest / "spend.lua").write_text(body)
    return load_game(str(dest))


def test_a_phase_with_an_offer_plays_as_the_same_phase_written_with_choose(tmp_path):
    """Same seed, same answers: the offer version asks the same questions and ends in the
    same counters as the one that calls choose itself, phase_start and phase_end once a round."""
    a = new(spend_game(tmp_path / "a"), seed=3)
    b = new(offer_game(tmp_path / "b"), seed=3)
    rng = __import__("random").Random(3)
    spends = 0
    while a.pending is not None:
        assert b.pending == a.pending and b.options() == a.options()
        i = rng.randrange(a.pending.count)
        spends += _in_spend(a)
        a.answer(i)
        b.answer(i)
    assert b.pending is None and b.answers == a.answers and spends > 2
    assert b.snapshot()["counters"] == a.snapshot()["counters"]
    rounds = b.eval("state.round")[0]
    assert b.eval("state.vars.starts, state.vars.ends") == [rounds, rounds]


def test_a_fork_at_an_offer_starts_at_the_question_without_making_it_again(tmp_path):
    m = new(offer_game(tmp_path), seed=3).keep_checkpoints()
    while not _in_spend(m):
        m.answer(0)
    for k in range(1, 6):
        m._rt._activate()
        cp = m._rt._E.checkpoint
        assert (cp.calls, cp.decision) == (k - 1, m.decisions)   # the checkpoint is the question
        made = m.eval("state.vars.offers")[0]
        f = m.fork()
        assert f.eval("state.vars.offers")[0] == made             # not made again
        assert f.state_hash() == m.state_hash() and f.options() == m.options()
        f.answer(0)
        m.answer(0)
        assert f.state_hash() == m.state_hash() and f.eval("state.vars.offers")[0] == made + 1


def test_forks_at_every_decision_of_a_game_with_offers_play_as_the_match(tmp_path):
    m = new(offer_game(tmp_path), seed=4).keep_checkpoints()
    rng = __import__("random").Random(4)
    while m.pending is not None:
        forks = [m.fork() for _ in range(10)]   # from the eighth on, copied by a compiled copier
        i = rng.randrange(m.pending.count)
        m.answer(i)
        for f in (forks[0], forks[-1]):
            f.answer(i)
            assert f.state_hash() == m.state_hash(), m.decisions
            if m.pending is not None:
                assert f.options() == m.options()


def test_an_offer_of_nothing_ends_the_phase_without_calling_run(tmp_path):
    body = SPEND_OFFER.replace("  v.offers = (v.offers or 0) + 1\n", "  v.offers = (v.offers or 0) + 1\n  do return nil end\n")
    body = body.replace("  local v = state.vars\n  local p = v.spender or 1\n  v.passes",
                        "  local v = state.vars\n  v.runs = (v.runs or 0) + 1\n  local p = v.spender or 1\n  v.passes")
    m = new(offer_game(tmp_path, body), seed=3)
    while m.pending is not None:
        assert not _in_spend(m)
        m.answer(0)
    rounds = m.eval("state.round")[0]
    assert m.eval("state.vars.offers, state.vars.runs") == [rounds, None]
    assert m.eval("state.vars.starts, state.vars.ends") == [rounds, rounds]


def test_an_offer_that_is_not_plain_data_stops_a_match_that_forks_naming_the_phase_and_the_value(tmp_path):
    """Forks copy an offer with their checkpoint, so a match that keeps checkpoints (as a
    search's does) refuses a function in one; a match that is never forked plays on."""
    from engine.errors import ScriptError

    body = SPEND_OFFER.replace('{ label = "Pass" }', '{ label = "Pass", later = { function() end } }')
    game = offer_game(tmp_path, body)
    m = new(game, seed=3).keep_checkpoints()
    with pytest.raises(ScriptError) as e:
        while m.pending is not None:
            m.answer(0)
    assert ("the offer of phase spend (spend_offer) must be plain data, which forks copy: "
            "offer.options[2].later[1] (a function) is not") in str(e.value)
    assert "Traceback" not in str(e.value) and m.decisions > 0
    plain = new(game, seed=3)
    plain.rollout(seed=1)
    assert plain.is_over and plain.error is None


def test_an_offer_of_no_options_stops_the_match_at_the_offer_s_line(tmp_path):
    from engine.errors import ScriptError

    body = SPEND_OFFER.replace("  return { player = p,", "  do return { player = p, options = {} } end\n  return { player = p,")
    line = body.splitlines().index("function spend_offer(round)") + 1
    m = new(offer_game(tmp_path, body), seed=3)
    with pytest.raises(ScriptError) as e:
        while m.pending is not None:
            m.answer(0)
    from engine import loader

    where = loader.display(tmp_path / "spend_offer" / "spend.lua")
    assert str(e.value).startswith(f"{where}:{line}: the offer of phase spend (spend_offer) offered no options "
                                   f"(return nil when there is nothing to ask: the phase ends)"), str(e.value)


def test_an_offer_that_is_not_a_question_stops_the_match_naming_the_phase(tmp_path):
    from engine.errors import ScriptError

    body = SPEND_OFFER.replace("  return { player = p,", "  do return 7 end\n  return { player = p,")
    m = new(offer_game(tmp_path, body), seed=3)
    with pytest.raises(ScriptError, match=r"the offer of phase spend \(spend_offer\) must return "
                                          r"\{player=, prompt=, options=\} or nil, not number"):
        while m.pending is not None:
            m.answer(0)


def test_a_flow_naming_an_offer_the_scripts_do_not_define_is_refused_at_load(tmp_path):
    from engine.errors import DefinitionError

    game = offer_game(tmp_path, SPEND_OFFER.replace("function spend_offer(", "function spend_ofer("))
    with pytest.raises(DefinitionError) as e:
        new(game)
    line = next(n for n, text in enumerate((game.root / "game.yaml").read_text().splitlines(), 1) if "offer: spend_offer" in text)
    assert [str(p).split("game.yaml:")[1].split(":", 1)[0] for p in e.value.problems] == [str(line)]
    assert "no Lua function called 'spend_offer' in the rules' scripts (did you mean 'spend_ofer'?)" \
        in str(e.value.problems[0])


def questions_start_at_their_checkpoints(game, seeds, players, kind_of, max_decisions, fork_every=10):
    """Plays random games of `game` (one a seed, `players` bot seats) that keep checkpoints.
    At each question kind_of(match) names (a kind, or None for the others) the latest
    checkpoint must be the question itself (a fork there replays nothing), and every
    fork_every-th question of a kind is forked: the fork must be the same position (its
    hash, its options). Returns the questions named: (kind, seed, turn) -> how many."""
    from collections import Counter

    asked, seen = Counter(), Counter()
    for seed in seeds:
        m = Match(game, seed, [Seat("bot")] * players, quiet=True).keep_checkpoints()
        rng = __import__("random").Random(seed)
        while m.pending is not None and m.decisions < max_decisions:
            m._rt._activate()
            kind = kind_of(m)
            if kind is not None:
                assert m.decisions == m._rt._E.checkpoint.decision, (kind, m.pending.prompt, m.decisions)
                asked[kind, seed, m._rt._E.state.turn] += 1
                seen[kind] += 1
                if seen[kind] % fork_every == 1:
                    f = m.fork()
                    assert f.state_hash() == m.state_hash() and f.options() == m.options(), (kind, m.decisions)
            m.answer(rng.randrange(m.pending.count))
    return asked


def most_in_a_turn(asked) -> dict:
    """Of questions_start_at_their_checkpoints' counts: the most of each kind in one turn."""
    return {kind: max(n for (k, *_), n in asked.items() if k == kind) for kind, *_ in asked}


def totals(asked) -> dict:
    return {kind: sum(n for (k, *_), n in asked.items() if k == kind) for kind, *_ in asked}


def test_summoner_wars_steps_and_their_second_questions_are_offers_so_a_fork_replays_nothing_there(sw):
    """Summoner Wars's five repeating phases make their questions with `offer`: at a step
    ("End move phase" among the options) and at its second question (where to summon, build
    or move; which card to attack) the latest checkpoint is the question itself; and a fork
    there is the same position without making the offer again (its hash, its options)."""
    import re

    second = re.compile(r"^(Summon|Build) .+ where\?$|^Move .+ from \w+ to\? \(up to|^.+ at \w+ attacks which card\?$")

    def kind_of(m):
        if any(o.startswith("End ") and o.endswith(" phase") for o in m.options()):
            return "step"
        return "second" if second.match(m.pending.prompt) else None

    asked = totals(questions_start_at_their_checkpoints(sw, (3, 4), 2, kind_of, 300, fork_every=25))
    assert asked["step"] > 100 and asked["second"] > 30, asked


def test_summoners_isle_steps_are_offers_so_a_fork_replays_nothing_at_their_questions():
    """Summoner's Isle's summoning and actions phases make their questions with `offer`
    (next_in_kind_order): at "Summon a ...?", "Place the ... on which vacant location?"
    (state.vars.placing) and "Activate which ...?" the latest checkpoint is the question
    itself, and a fork there is the same position."""
    from engine.loader import load_game

    def kind_of(m):
        prompt = m.pending.prompt
        return ("summon" if prompt.startswith("Summon a ") else "place" if prompt.startswith("Place the ") else
                "activate" if prompt.startswith("Activate which ") else None)

    asked = totals(questions_start_at_their_checkpoints(load_game("summoners_isle"), (2, 3), 2, kind_of, 300))
    assert min(asked.get("summon", 0), asked.get("place", 0), asked.get("activate", 0)) >= 5, asked


@pytest.mark.parametrize("players", [2, 3])
def test_summoner_tcg_reveals_and_attacks_are_offers_so_a_fork_replays_nothing_there(players):
    """The Summoner TCG's reveal step and main phase make their questions with `offer`, and
    a battle's declarations are calls of the main phase (start_battle, declare_offer,
    declare_step): at "reveal which?", "which Summon attacks?" and "... attacks what?" (the
    attacker kept in state.vars.attacker) the latest checkpoint is the question itself, a
    fork there is the same position, and each is asked more than once in some turn."""
    from engine.loader import load_game

    def kind_of(m):
        prompt = m.pending.prompt
        return ("reveal" if prompt == "Reveal your primed cards" else
                "attacker" if prompt == "Battle: which Summon attacks?" else
                "target" if prompt.endswith(" attacks what?") else None)

    most = most_in_a_turn(questions_start_at_their_checkpoints(load_game("summoner_tcg"), range(3, 9), players,
                                                               kind_of, 400))
    assert most["reveal"] >= 2 and most["attacker"] >= 2 and most["target"] >= 2, most


@pytest.mark.parametrize("players", [2, 4])
def test_summonaria_steps_are_offers_so_a_fork_replays_nothing_at_their_questions(players):
    """Summonaria's trades, summon and move steps are repeating phases that make their
    questions with `offer`, one question a call (a unit's movement keeps its unit and
    squares left in state.vars.turn.active): at each such question the latest checkpoint
    is the question itself, a fork there is the same position, and each step still asks
    again within one turn (which it would not if it did not repeat)."""
    from engine.loader import load_game

    def kind_of(m):
        prompt = m.pending.prompt
        return ("trade" if "propose a trade?" in prompt else "summon" if prompt.startswith("Summon a unit?")
                else "engage" if prompt == "Move and engage" else "movement" if "of movement left" in prompt else None)

    most = most_in_a_turn(questions_start_at_their_checkpoints(load_game("summonaria"), (6,), players, kind_of, 600))
    # With two players only one other player is asked about trades at a turn's start.
    assert most == {"trade": most["trade"] if players == 2 else max(2, most["trade"]),
                    "summon": max(2, most["summon"]), "engage": max(2, most["engage"]),
                    "movement": max(2, most["movement"])}, most


def test_forced_results_left_are_the_matchs_own_in_a_shared_runtime(sw):
    """forced_left read whichever match its shared runtime ran last (a fork's, or a match's
    built beside it), not its own."""
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    m.rollout(seed=1, max_decisions=20)
    f = m.fork()
    f.force_random([1, 2, 3])
    m.options()                       # (the runtime now runs m)
    assert (f.forced_left(), m.forced_left()) == (3, 0)
    a = Match(sw, 2, [Seat("random"), Seat("random")], quiet=True)
    a.force_random([4, 4])
    Match(sw, 3, [Seat("random"), Seat("random")], quiet=True, beside=a)
    assert a.forced_left() == 2


def test_the_scenario_library_is_loaded_only_where_a_match_needs_it(sw):
    """engine/lua/scenario.lua is loaded by the first match of a runtime that needs it (a
    scenario, forced dice), not by every match: each runtime holds its own copy; so are
    engine/lua/checking.lua, by summon check, engine/lua/sampling.lua, by a bot's
    first sample, and engine/lua/forking.lua, by the first fork."""
    from conftest import position

    plain = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    beside = Match(sw, 2, [Seat("random"), Seat("random")], quiet=True, beside=plain)
    assert beside._rt._lua is plain._rt._lua   # (one runtime)
    plain.rollout(seed=1, max_decisions=10)
    assert plain._rt._E.fork is None and plain._rt._E.copier is None   # (engine/lua/forking.lua: at the first fork)
    assert plain._rt._E.card_kept is None   # (engine/lua/checking.lua: at the host's first view, below)
    f = plain.fork()
    assert plain._rt._E.fork is not None and plain._rt._E.copier is not None
    assert plain._rt._E.scenario_api is None
    f.force_random([2, 2])            # (loaded here, for the fork and the match alike)
    assert f.forced_left() == 2 and plain._rt._E.scenario_api is not None
    beside.force_random([5])
    assert (beside.forced_left(), plain.forced_left(), f.forced_left()) == (1, 0, 2)
    set_up = position(sw, 'scenario.start(1, "attack")', quiet=True)
    assert set_up._rt._E.scenario_api is not None and set_up.snapshot()["phase"] == "attack"
    # (and summon check's own part, engine/lua/checking.lua)
    assert plain._rt._E.check_sets is None and plain._rt.check_sets() == [] and plain._rt._E.check_sets is not None
    # (and a bot's samples' part, engine/lua/sampling.lua, for every match of the runtime)
    third = Match(sw, 4, [Seat("random"), Seat("random")], quiet=True, beside=plain)
    third.rollout(seed=2, max_decisions=10)
    assert plain._rt._E.redeal is None
    world = third.sample(third.active, 7)
    assert plain._rt._E.redeal is not None
    again = world.sample(1, 8)
    assert world.view(third.active) == third.view(third.active) and again.view(1)["phase"]
    assert plain._rt._E.card_kept is not None   # (the views above loaded it)


@pytest.mark.parametrize("call", ["view", "evaluate", "sample"])
def test_a_seat_that_is_not_in_the_match_is_refused(sw, call):
    """view(3) of a two-seat match gave the public view, evaluate(3) failed in the game's
    evaluate.lua: both are refused as sample(3, seed) was."""
    from engine.errors import EngineError
    m = Match(sw, 1, [Seat("random"), Seat("random")], quiet=True)
    with pytest.raises(EngineError, match=r"^no seat 3: seats are 1 to 2$"):
        getattr(m, call)(*((3, 1) if call == "sample" else (3,)))
