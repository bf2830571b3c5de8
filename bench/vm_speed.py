"""Benchmark: what another Lua virtual machine would give the rules, before anyone ports them.

    python bench/vm_speed.py [--decisions 200000] [--rounds 5] [--json]

Runs one rules-like workload in every Lua that lupa ships here (lua54, which the engine
uses, lua55, and LuaJIT 2.1 with its compiler on and off) and prints decisions per
second, the ratio to lua54, whether every machine computed the same game, and whether
the step budget stops an endless loop there.

The workload is a small board game played by a random policy: each decision builds the
options of one player (moves to empty neighbours, attacks on adjacent enemies, each with
a label made by string.format), picks one with a seeded generator and applies it. It is
written in the Lua that all of them read (no integer division, bit operators or utf8),
with numbers that stay exact as doubles, and compiled with the engine's step counter at
every loop and function, as a card script is (engine/steps.py). So the budget in these
figures is the real one: it counts steps written into the code, not a debug hook, which
is why LuaJIT's compiled loops (which never call hooks) are still bounded by it.

This measures the machine, not the engine: the shipped rules use Lua 5.4 (integers,
`//`, bit operators, utf8) and do not run elsewhere. Compare the ratios, not the
decisions per second, with `summon bench`.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.steps import meter  # noqa: E402

MACHINES = [("lua54", "lupa.lua54", True), ("lua55", "lupa.lua55", True),
            ("luajit21", "lupa.luajit21", True), ("luajit21, compiler off", "lupa.luajit21", False)]

WORKLOAD = r"""
local W, H = 6, 8
local function name(x, y) return string.char(96 + x) .. y end
local spaces, neighbors = {}, {}
for x = 1, W do
  for y = 1, H do
    spaces[#spaces + 1] = name(x, y)
    local n = {}
    for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
      local nx, ny = x + d[1], y + d[2]
      if nx >= 1 and nx <= W and ny >= 1 and ny <= H then n[#n + 1] = name(nx, ny) end
    end
    neighbors[name(x, y)] = n
  end
end
local defs = {
  grunt = { unit = true, strength = 2, life = 3, move = 1 },
  archer = { unit = true, strength = 1, life = 2, move = 1 },
  wall = { unit = false, strength = 0, life = 9, move = 0 },
  boss = { unit = true, strength = 3, life = 8, move = 1 },
}
local kinds = { "grunt", "archer", "wall", "boss", "grunt", "archer", "grunt", "grunt" }

-- Plays `decisions` decisions from a seed; returns a check of the game it played.
return function(seed, decisions)
  local rnd = seed
  local function random(n)            -- Park-Miller: exact in doubles and in integers
    rnd = (rnd * 16807) % 2147483647
    return rnd % n + 1
  end
  -- stats go through modifiers, as the engine's do (cards.stat): a list of functions
  local modifiers = {
    function(c, k, v) if k == "strength" and c.tokens.boost then return v + c.tokens.boost end return v end,
    function(c, k, v) if k == "life" and c.def == "wall" then return v + 1 end return v end,
    function(c, k, v) if k == "move" and (c.tokens.damage or 0) > 4 then return 0 end return v end,
  }
  local function stat(c, k)
    local v = defs[c.def][k]
    for i = 1, #modifiers do v = modifiers[i](c, k, v) end
    return v
  end
  local cards, occupied = {}, {}
  -- events: every card in play whose kind has a hook for the event hears it
  local hooks = {
    after_move = { archer = function(c, ev) if ev.card.controller ~= c.controller then c.tokens.seen = (c.tokens.seen or 0) + 1 end end },
    after_damage = { boss = function(c, ev) if ev.card == c then c.tokens.boost = 1 end end,
                     grunt = function(c, ev) if ev.card.controller == c.controller then c.tokens.angry = true end end },
  }
  local function emit(name, ev)
    local holders = hooks[name]
    for _, c in ipairs(cards) do
      local fn = c.space and holders[c.def]
      if fn then fn(c, ev) end
    end
    return ev
  end
  local function deal()
    for i = 1, 16 do
      local s = spaces[random(#spaces)]
      if not occupied[s] then
        local c = { id = i, def = kinds[(i - 1) % #kinds + 1], controller = i % 2 + 1, space = s, tokens = {} }
        cards[#cards + 1] = c
        occupied[s] = c
      end
    end
  end
  deal()
  local check, labels = 0, 0
  for d = 1, decisions do
    local p = d % 2 + 1
    local opts = {}
    for _, c in ipairs(cards) do
      if c.space and c.controller == p and defs[c.def].unit and stat(c, "move") > 0 then
        for _, s in ipairs(neighbors[c.space]) do
          local o = occupied[s]
          if not o then
            opts[#opts + 1] = { label = string.format("Move %s at %s to %s", c.def, c.space, s), card = c, to = s }
          elseif o.controller ~= p then
            opts[#opts + 1] = { label = string.format("%s at %s attacks %s", c.def, c.space, o.def), card = c, target = o }
          end
        end
      end
    end
    opts[#opts + 1] = { label = "End phase", done = true }
    local pick = opts[random(#opts)]
    labels = labels + #pick.label
    if pick.to then
      local from = pick.card.space
      occupied[from] = nil
      pick.card.space = pick.to
      occupied[pick.to] = pick.card
      emit("after_move", { card = pick.card, from = from, to = pick.to })
    elseif pick.target then
      local t = pick.target
      t.tokens.damage = (t.tokens.damage or 0) + stat(pick.card, "strength")
      emit("after_damage", { card = t, source = pick.card })
      if t.tokens.damage >= stat(t, "life") then
        occupied[t.space] = nil
        t.space = nil
        check = check + t.id
      end
    end
    if d % 400 == 0 then   -- a new game on the same machine, as a simulation plays them
      cards, occupied = {}, {}
      deal()
    end
  end
  return string.format("%d/%d", check, labels)
end
"""

ENDLESS = "local x = 0 while true do x = x + 1 end"
ENDLESS_STEPS = 1_000_000


def _counter(lua, steps: float):
    """A step counter as compiled chunks take it: stops the run with an error when spent."""
    return lua.eval("function(n) return { n = n, out = function() error('budget spent', 0) end } end")(steps)


def measure(module: str, compiler: bool, decisions: int, rounds: int, seed: int) -> dict:
    """Best decisions/s of `rounds` runs in one machine, the run's check, and whether the
    step budget stopped an endless loop there."""
    lupa = importlib.import_module(module)
    lua = lupa.LuaRuntime()
    if not compiler:
        lua.execute("if jit then jit.off() end")
    play = lua.execute(meter(WORKLOAD, calls=True), _counter(lua, 1e15))
    best, check = None, None
    for _ in range(rounds):
        t = time.perf_counter()
        check = play(seed, decisions)
        took = time.perf_counter() - t
        best = took if best is None else min(best, took)
    stopped = False
    try:
        lua.execute(meter(ENDLESS, calls=True), _counter(lua, ENDLESS_STEPS))
    except lupa.LuaError as e:
        stopped = "budget spent" in str(e)
    return {"decisions_per_s": decisions / best, "check": check, "endless_loop_stopped": stopped}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=200_000, help="decisions a run (default 200000)")
    ap.add_argument("--rounds", type=int, default=5, help="runs a machine; the best counts (default 5)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.decisions < 1 or args.rounds < 1 or not 0 < args.seed < 2147483647:
        ap.error("--decisions and --rounds must be 1 or more, --seed from 1 to 2147483646")
    out = {}
    for label, module, compiler in MACHINES:
        try:
            out[label] = measure(module, compiler, args.decisions, args.rounds, args.seed)
        except ImportError:
            out[label] = None   # lupa was built without it on this platform
    base = out["lua54"]
    for r in out.values():
        if r is not None:
            r["vs_lua54"] = r["decisions_per_s"] / base["decisions_per_s"]
            r["same_game"] = r["check"] == base["check"]
    if args.json:
        print(json.dumps({"decisions": args.decisions, "rounds": args.rounds, "seed": args.seed,
                          "machines": out}, indent=2, sort_keys=True))
        return
    print(f"{'machine':24} {'decisions/s':>12} {'x lua54':>8}  same game  endless loop stopped")
    for label, r in out.items():
        if r is None:
            print(f"{label:24} {'(not in this lupa)':>12}")
            continue
        print(f"{label:24} {r['decisions_per_s']:>12,.0f} {r['vs_lua54']:>8.2f}  "
              f"{'yes' if r['same_game'] else 'NO':9}  {'yes' if r['endless_loop_stopped'] else 'NO'}")


if __name__ == "__main__":
    main()
