-- Sandboxed environments for game and card scripts: an allow-list of named safe
-- functions, fresh tables per chunk, and no way back to the host.
local E = ...

local load, setmetatable, getmetatable, rawget, rawset = load, setmetatable, getmetatable, rawget, rawset
local type, pairs, error = type, pairs, error

-- Lock the string metatable so scripts cannot reach or change it.
getmetatable("").__metatable = false

local function copy_lib(lib, without)
  local out = {}
  for k, v in pairs(lib) do
    if not (without and without[k]) then out[k] = v end
  end
  return out
end

-- Tables the engine hands out that scripts must not change.
local protected = setmetatable({}, { __mode = "k" })

local function safe_getmetatable(v)
  if type(v) ~= "table" then return nil end
  return getmetatable(v)
end

local function safe_setmetatable(t, mt)
  if type(t) ~= "table" then error("setmetatable: expected a table", 2) end
  if protected[t] then error("setmetatable: this table belongs to the engine", 2) end
  return setmetatable(t, mt)
end

-- A read-only view of an API table.
local function readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = function(_, k) error("cannot change " .. name .. "." .. tostring(k) .. ": it belongs to the engine", 2) end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

local function api()
  return {
    board = readonly(E.board, "board"),
    cards = readonly(E.cards, "cards"),
    zones = readonly(E.zones, "zones"),
    tokens = readonly(E.tokens, "tokens"),
    counters = readonly(E.counters, "counters"),
    dice = readonly(E.dice, "dice"),
    players = readonly(E.players, "players"),
    rng = readonly({
      int = E.random_int,
      shuffle = E.shuffle,
      pick = function(list) return list[E.random_int(1, #list)] end,
    }, "rng"),
    choose = E.choose,
    emit = E.emit,
    on = E.on,
    stat = E.stat,
    add_modifier = E.add_modifier,
    win = E.win,
    end_game = E.end_game,
    say = E.say,
    describe = E.describe,
    defs = E.defs_view,
    sets = E.sets_view(),
    options = readonly(E.game.options, "options"),
  }
end

--- A fresh environment of safe functions (each chunk gets its own copies).
function E.new_env()
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
    pcall = pcall, select = select, tonumber = tonumber, tostring = tostring,
    type = type, xpcall = xpcall, rawequal = rawequal, rawlen = rawlen,
    rawget = rawget, rawset = rawset,
    getmetatable = safe_getmetatable, setmetatable = safe_setmetatable,
    unpack = table.unpack,
    print = function(...)
      local parts = {}
      for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
      E.say(table.concat(parts, "\t"))
    end,
    string = copy_lib(string, { dump = true }),
    table = copy_lib(table),
    math = copy_lib(math, { random = true, randomseed = true }),
    utf8 = copy_lib(utf8),
  }
  for k, v in pairs(api()) do env[k] = v end
  env._G = env
  return env
end

-- The game's rules share one environment; each card chunk gets its own, which
-- reads through to the rules' globals.
E.rules_env = nil

function E.make_rules_env()
  E.rules_env = E.new_env()
  E.rules_env.state = E.state
  return E.rules_env
end

local function card_env()
  local env = E.new_env()
  env._G = env
  return setmetatable(env, { __index = E.rules_env, __metatable = false })
end

--- Loads a chunk the host compiled from text (compile_lua in runtime.py), with
--- the chunk name of the real file. Scripts never reach this function.
--- kind "rules" runs it in the rules environment; kind "function" expects the
--- chunk to return a function (inline Lua in YAML) and returns it.
--- Returns ok, result-or-message.
function E.load_chunk(src, chunkname, kind)
  local env = kind == "rules" and E.rules_env or card_env()
  if kind == "scenario" then env.scenario = readonly(E.scenario_api, "scenario") end
  local fn, err = load(src, "@" .. chunkname, "b", env)
  if not fn then return false, err end
  if kind == "rules" or kind == "scenario" then
    return true, fn
  end
  local ok, res = pcall(fn)
  if not ok then return false, tostring(res) end
  if type(res) ~= "function" then
    return false, chunkname .. ": this Lua must be a function (function(...) ... end), not a " .. type(res)
  end
  return true, res
end
