"""Benchmark: what another Lua virtual machine would give the rules, before anyone ports them.

    python bench/vm_speed.py [--decisions 200000] [--rounds 5] [--json]

Runs one rules-like workload in every Lua that lupa ships here (lua54, which the engine
uses, lua55, and LuaJIT 2.1 with its compiler on and off), in two styles: plain tables
and calls, and the engine's (a filter closure made for each call, label text through
varargs). Prints decisions per second, the ratio to lua54, whether every machine
computed the same game, and whether the step budget stops an endless loop there.

The workload is a small board game played by a random policy: each decision builds the
options of one player (moves to empty neighbours, attacks on adjacent enemies, each with
a label made by string.format), picks one with a seeded generator and applies it. It is
written in the Lua that all of them read (no integer division, bit operators or utf8),
with numbers that stay exact as doubles, and compiled with the engine's step counter at
every loop and function, as a card script is (engine/steps.py). So the budget in these
figures is the real one: it counts steps written into the code, not a debug hook, which
is why LuaJIT's compiled loops (which never call hooks) are still bounded by it.

This measures the machine on a small workload, not the engine: the shipped rules use Lua
5.4 (integers, `//`, bit operators, utf8) and do not run elsewhere, and the ratios do not
carry over to them as they are. A scratch port of the engine to LuaJIT (2026-12-05, not
shipped) played Summoner Wars at 0.29x of lua54 with LuaJIT's compiler on and 1.06x with
it off, and about lua54's speed with its trace cache enlarged and every game in one
runtime (README, "Measuring speed").
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
-- closures: each decision makes its filter and its option-adder as the engine's rules do
-- (a closure a call, text passed through varargs), else the same work without them.
return function(seed, decisions, closures)
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
  local opts
  local function add(o, fmt, a, b, c)   -- (no closure, no varargs)
    o.label = string.format(fmt, a, b, c)
    opts[#opts + 1] = o
  end
  for d = 1, decisions do
    local p = d % 2 + 1
    opts = {}
    local mine = cards
    if closures then   -- the engine's way: a filter made for this call, text through varargs
      mine = {}
      local keep = function(c) return c.space and c.controller == p end
      for _, c in ipairs(cards) do
        if keep(c) then mine[#mine + 1] = c end
      end
      add = function(o, ...) o.label = string.format(...) opts[#opts + 1] = o end
    end
    for _, c in ipairs(mine) do
      if c.space and c.controller == p and defs[c.def].unit and stat(c, "move") > 0 then
        for _, s in ipairs(neighbors[c.space]) do
          local o = occupied[s]
          if not o then
            add({ card = c, to = s }, "Move %s at %s to %s", c.def, c.space, s)
          elseif o.controller ~= p then
            add({ card = c, target = o }, "%s at %s attacks %s", c.def, c.space, o.def)
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


STYLES = ("tables", "closures")


def measure(module: str, compiler: bool, decisions: int, rounds: int, seed: int) -> dict:
    """For each style of the workload, the best decisions/s of `rounds` runs in one machine
    and the run's check; and whether the step budget stopped an endless loop there."""
    lupa = importlib.import_module(module)
    lua = lupa.LuaRuntime()
    if not compiler:
        lua.execute("if jit then jit.off() end")
    play = lua.execute(meter(WORKLOAD, calls=True), _counter(lua, 1e15))
    out = {}
    for style in STYLES:
        best, check = None, None
        for _ in range(rounds):
            t = time.perf_counter()
            check = play(seed, decisions, style == "closures")
            took = time.perf_counter() - t
            best = took if best is None else min(best, took)
        out[style] = {"decisions_per_s": decisions / best, "check": check}
    stopped = False
    try:
        lua.execute(meter(ENDLESS, calls=True), _counter(lua, ENDLESS_STEPS))
    except lupa.LuaError as e:
        stopped = "budget spent" in str(e)
    out["endless_loop_stopped"] = stopped
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=200_000, help="decisions a run (default 200000)")
    ap.add_argument("--rounds", type=int, default=5, help="runs a machine and style; the best counts (default 5)")
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
    base = out["lua54"]["tables"]
    for r in out.values():
        for style in STYLES if r is not None else ():
            r[style]["vs_lua54"] = r[style]["decisions_per_s"] / out["lua54"][style]["decisions_per_s"]
            r[style]["same_game"] = r[style]["check"] == base["check"]
    if args.json:
        print(json.dumps({"decisions": args.decisions, "rounds": args.rounds, "seed": args.seed,
                          "machines": out}, indent=2, sort_keys=True))
        return
    print(f"{'machine':24} {'style':9} {'decisions/s':>12} {'x lua54':>8}  same game  endless loop stopped")
    for label, r in out.items():
        if r is None:
            print(f"{label:24} (not in this lupa)")
            continue
        for style in STYLES:
            f = r[style]
            print(f"{label:24} {style:9} {f['decisions_per_s']:>12,.0f} {f['vs_lua54']:>8.2f}  "
                  f"{'yes' if f['same_game'] else 'NO':9}  {'yes' if r['endless_loop_stopped'] else 'NO'}")


if __name__ == "__main__":
    main()
