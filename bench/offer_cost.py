"""Benchmark: what the questions cost, and the most that making them cheaper could give.

    python bench/offer_cost.py [GAME] [--games 40] [--seed 7] [--rounds 3] [--json]

Plays the same random games (the engine's seeds from --seed, as `summon sim` and `summon
bench` take them) three ways a round: as they are; with every phase's offer function (the
rules' function that builds a step's question, game.yaml `offer:`) asked twice each time,
the first question thrown away; and with only the bookkeeping that needs (state.vars
copied and put back, since some offers keep their place there). The second less the
third is what the offers cost. Each is done two ways: answered through the host (random
bots, as `summon sim` plays, match start not counted) and by the pure-Lua driver
(Match.rollout, no Python between decisions). The best round of each counts. It prints,
a decision:

- the time as it is, and the offers' share of it;
- the time left if offers cost nothing, and the decisions a second that would give:
  the ceiling of any change that only makes questions cheaper (building them lazily,
  or keeping them up to date between decisions instead of rebuilding them).

All three ways must play the same games: the script checks that they reach the same
decisions and state hashes, and names a seed where they do not (an offer that changes
the state outside state.vars).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bench import default_seats, play_random  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.loader import load_game  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.sim import game_seed  # noqa: E402

# Wraps the rules' offer functions named in `names`, in the match's own Lua runtime, on its
# rules environment. Some offers keep their place in `state.vars` (an offer that walks
# through players or steps until one has something to ask), so a question thrown away
# must not move them on: state.vars is copied before it and put back after it. "copy"
# does only that around the one real call, so that twice - copy is the offers' cost.
WRAP = """
return function(env, names, E, twice)
  local function copy(v)   -- plain data deep; a card of the state stays itself
    if type(v) ~= "table" or (v.id ~= nil and E.state.cards[v.id] == v) then return v end
    local out = {}
    for k, x in next, v do out[k] = copy(x) end
    return out
  end
  local function restore(saved)
    local vars, keys = E.state.vars, {}
    for k in next, vars do keys[#keys + 1] = k end
    for i = 1, #keys do vars[keys[i]] = nil end
    for k, x in next, saved do vars[k] = copy(x) end
  end
  for _, name in ipairs(names) do
    local offer = env[name]
    env[name] = function(...)
      local saved = copy(E.state.vars)
      if twice then offer(...) end
      restore(saved)
      return offer(...)
    end
  end
end
"""

def offer_names(game) -> list[str]:
    """The offer functions the game's flow names, each once, in flow order."""
    out = []
    for ph in game.data["flow"]["phases"]:
        if ph.get("offer") and ph["offer"] not in out:
            out.append(ph["offer"])
    return out


def played(game, seats, games: int, seed: int, way: str, pure_lua: bool) -> tuple[float, list]:
    """Seconds spent playing `games` matches, and each game's (seed, decisions, hash); way:
    "once" (as they are), "copy" or "twice" (see WRAP)."""
    names = offer_names(game)
    seconds, ends = 0.0, []
    for i in range(games):
        s = game_seed(seed, i)
        m = Match(game, s, seats, quiet=True)
        if way != "once":
            rt = m._rt   # (a benchmark reaches into the runtime: the rules' environment)
            rt._lua.execute(WRAP)(rt._E.rules_env, rt._lua.table_from(names), rt._E, way == "twice")
        seconds += play_random(m, s, seats, pure_lua)
        ends.append((s, m.decisions, m.state_hash()))
    return seconds, ends


def measure(game_id: str, games: int, seed: int, rounds: int) -> dict:
    game = load_game(game_id)
    seats = default_seats(game)
    out: dict = {"game": game_id, "games": games, "seed": seed, "rounds": rounds,
                 "offers": offer_names(game)}
    for way, pure_lua in (("host", False), ("pure_lua", True)):
        best: dict[str, float] = {}
        ends: dict[str, list] = {}
        for _ in range(rounds):
            for w in ("once", "copy", "twice"):   # alternated, so a change of load hits each alike
                took, end = played(game, seats, games, seed, w, pure_lua)
                best[w] = min(best.get(w, took), took)
                ends[w] = end
        for w in ("copy", "twice"):
            differ = [a[0] for a, b in zip(ends["once"], ends[w]) if a != b]
            if differ:
                raise EngineError(f"{game_id}: the game of seed {differ[0]} changes when its offers are asked "
                                  f"{'twice' if w == 'twice' else 'with state.vars put back'}: an offer changes "
                                  "the state outside state.vars")
        decisions = sum(e[1] for e in ends["once"])
        per = best["once"] / decisions * 1e6
        offers = max(0.0, best["twice"] - best["copy"]) / decisions * 1e6
        rest = per - offers
        out[way] = {"decisions": decisions, "us_per_decision": round(per, 2),
                    "offers_us": round(offers, 2), "offers_share": round(offers / per, 3),
                    "rest_us": round(rest, 2), "decisions_per_s": round(1e6 / per),
                    "ceiling_decisions_per_s": round(1e6 / rest) if rest > 0 else None}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", default="summoner_wars")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.games < 1 or a.rounds < 1:
        print("error: --games and --rounds must be 1 or more", file=sys.stderr)
        return 2
    try:
        r = measure(a.game, a.games, a.seed, a.rounds)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"{r['game']}: {a.games} games from seed {a.seed}, best of {a.rounds} rounds; "
          f"offers: {', '.join(r['offers'])}")
    for way in ("host", "pure_lua"):
        f = r[way]
        print(f"  {way:8}  {f['us_per_decision']:6.1f} µs a decision ({f['decisions_per_s']}/s), offers "
              f"{f['offers_us']:.1f} µs ({f['offers_share']:.0%}); if offers cost nothing: "
              f"{f['rest_us']:.1f} µs, {f['ceiling_decisions_per_s']}/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
