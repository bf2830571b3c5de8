-- Sandboxed environments for game and card scripts: an allow-list of named safe
-- functions, fresh tables per chunk, and no way back to the host.
local E = ...

local load, setmetatable, getmetatable, rawget, rawset = load, setmetatable, getmetatable, rawget, rawset
local type, pairs, error = type, pairs, error

-- Lock the string metatable so scripts cannot reach or change it.
getmetatable("").__metatable = false

-------------------------------------------------------------------------------
-- String functions run in C, outside the instruction budget: bound their work.
-------------------------------------------------------------------------------
local MAX_STRING = 16 * 1024 * 1024   -- bytes string.rep may build
local MAX_MATCH_WORK = 1e9            -- rough bound on backtracking steps
local s_rep, s_find, s_match, s_gmatch, s_gsub, s_byte =
  string.rep, string.find, string.match, string.gmatch, string.gsub, string.byte

-- Number of repetition items (* + - ?) in a pattern, outside escapes and sets.
local function quantifiers(pat)
  local q, i, n = 0, 1, #pat
  while i <= n do
    local b = s_byte(pat, i)
    if b == 37 then            -- %
      i = i + 2
    elseif b == 91 then        -- [ ... ]
      i = i + 1
      if s_byte(pat, i) == 94 then i = i + 1 end
      if s_byte(pat, i) == 93 then i = i + 1 end
      while i <= n and s_byte(pat, i) ~= 93 do
        if s_byte(pat, i) == 37 then i = i + 1 end
        i = i + 1
      end
      i = i + 1
    else
      if b == 42 or b == 43 or b == 45 or b == 63 then q = q + 1 end
      i = i + 1
    end
  end
  return q
end

local function check_pattern(fn, subject, pat)
  if type(subject) == "number" then subject = tostring(subject) end
  if type(subject) ~= "string" or type(pat) ~= "string" then return end
  if #pat > 1000 then error(fn .. ": pattern longer than 1000 characters", 3) end
  local q = quantifiers(pat)
  if q > 0 and (#subject + 1) ^ (q + 1) > MAX_MATCH_WORK then
    error(string.format("%s: a pattern with %d repetitions is too slow on a string of %d characters",
                        fn, q, #subject), 3)
  end
end

string.rep = function(str, n, sep)
  if type(n) == "number" and type(str) == "string" then
    local size = #str * n + (type(sep) == "string" and #sep * math.max(n - 1, 0) or 0)
    if size > MAX_STRING then
      error("string.rep: result of " .. math.floor(size) .. " bytes is too large", 2)
    end
  end
  return s_rep(str, n, sep)
end
string.find = function(str, pat, init, plain)
  if not plain then check_pattern("string.find", str, pat) end
  return s_find(str, pat, init, plain)
end
string.match = function(str, pat, init)
  check_pattern("string.match", str, pat)
  return s_match(str, pat, init)
end
string.gmatch = function(str, pat, init)
  check_pattern("string.gmatch", str, pat)
  return s_gmatch(str, pat, init)
end
string.gsub = function(str, pat, repl, n)
  check_pattern("string.gsub", str, pat)
  return s_gsub(str, pat, repl, n)
end

-------------------------------------------------------------------------------
-- Read-only views of engine data (card definitions, sets, the game's options).
-------------------------------------------------------------------------------
local frozen = setmetatable({}, { __mode = "k" })

--- A read-only view of a table and everything inside it.
function E.freeze(t, what)
  if type(t) ~= "table" or frozen[t] then return t end
  what = what or "engine data"
  local inner = {}
  for k, v in next, t do inner[k] = E.freeze(v, what) end
  local proxy = setmetatable({}, {
    __index = inner,
    __newindex = function(_, k) error("cannot change " .. tostring(k) .. ": " .. what .. " is read-only", 2) end,
    __len = function() return #inner end,
    __pairs = function() return next, inner, nil end,
    __metatable = false,
  })
  frozen[proxy] = true
  return proxy
end

local function copy_lib(lib, without)
  local out = {}
  for k, v in pairs(lib) do
    if not (without and without[k]) then out[k] = v end
  end
  return out
end

-- Tables the engine hands out that scripts must not change.
local protected = setmetatable({}, { __mode = "k" })

local function is_engine_table(t)
  return protected[t] or frozen[t]
end

local function safe_rawset(t, k, v)
  if type(t) == "table" and is_engine_table(t) then error("rawset: this table belongs to the engine", 2) end
  return rawset(t, k, v)
end

local pack, unpack = table.pack, table.unpack

-- A script's pcall: when it catches an error, the event chain and context stack
-- that the error skipped are put back; the game's end is never caught.
local function safe_pcall(f, ...)
  local d, ctx = E.call_depth()
  local res = pack(pcall(f, ...))
  if not res[1] then
    if E.is_game_over(res[2]) then error(res[2], 0) end
    E.restore_call_depth(d, ctx)
  end
  return unpack(res, 1, res.n)
end

-- Lua runs an xpcall message handler at the point of the error; when the error
-- comes from the budget hook, hooks are off there, so a looping handler would
-- never be stopped. Scripts get an xpcall that calls the handler after unwinding.
local function safe_xpcall(f, handler, ...)
  local res = pack(safe_pcall(f, ...))
  if res[1] then return unpack(res, 1, res.n) end
  return false, handler(res[2])
end

local function safe_getmetatable(v)
  if type(v) ~= "table" then return nil end
  return getmetatable(v)
end

local function safe_setmetatable(t, mt)
  if type(t) ~= "table" then error("setmetatable: expected a table", 2) end
  if is_engine_table(t) then error("setmetatable: this table belongs to the engine", 2) end
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc metamethods are not allowed in scripts", 2)
  end
  if type(mt) == "table" and rawget(mt, "__mode") ~= nil then
    -- what a weak table holds depends on when the collector runs: not the same on every run
    error("setmetatable: weak tables (__mode) are not allowed in scripts", 2)
  end
  return setmetatable(t, mt)
end

-- A read-only view of an API table.
local function readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = function(_, k) error("cannot change " .. name .. "." .. tostring(k) .. ": it belongs to the engine", 2) end,
    __pairs = function() return next, t, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

function E.protect(t)
  protected[t] = true
  return t
end

-- A read-only view of a table of declared names where reading an undeclared name
-- is an error (options.NAME, defs[id]), so a typo never reads as nil.
-- fixed: the table no longer changes, so the view reads a copy whose misses raise
-- (a hit then costs no function call).
local function strict(t, name, what, names, fixed)
  local inner = t
  if fixed then
    inner = setmetatable(E.copy(t), {
      __index = function(_, k) E.no_such(name, what, k, names()) end,
    })
  end
  local proxy = setmetatable({}, {
    __index = fixed and inner or function(_, k)
      local v = t[k]
      if v == nil then E.no_such(name, what, k, names()) end
      return v
    end,
    __newindex = function(_, k) error("cannot change " .. name .. "." .. tostring(k) .. ": it belongs to the engine", 2) end,
    __pairs = function() return next, t, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

local function sorted_keys(t)
  return function()
    local out = {}
    for k in next, t do out[#out + 1] = k end
    table.sort(out)
    return out
  end
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
    defs = strict(E.defs, "defs", "card", E.card_names),
    sets = E.sets_view(),
    options = strict(E.game.options, "options", "option", sorted_keys(E.game.options), true),
  }
end

--- A fresh environment of safe functions; libraries and engine tables are read-only views.
function E.new_env()
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = E.ordered_next, pairs = E.ordered_pairs,
    pcall = safe_pcall, select = select, tonumber = tonumber, tostring = E.portable_tostring,
    type = type, xpcall = safe_xpcall, rawequal = rawequal, rawlen = rawlen,
    rawget = rawget, rawset = safe_rawset,
    getmetatable = safe_getmetatable, setmetatable = safe_setmetatable,
    unpack = table.unpack,
    print = function(...)
      local parts = {}
      for i = 1, select("#", ...) do parts[i] = E.portable_tostring((select(i, ...))) end
      E.say(table.concat(parts, "\t"))
    end,
    string = readonly(copy_lib(string, { dump = true }), "string"),
    table = readonly(copy_lib(table), "table"),
    math = readonly(copy_lib(math, { random = true, randomseed = true }), "math"),
    utf8 = readonly(copy_lib(utf8), "utf8"),
  }
  for k, v in pairs(api()) do env[k] = v end
  env._G = env
  return env
end

-- The game's rules share one environment; each card chunk gets its own, which
-- reads through to the rules' globals.
E.rules_env = nil

function E.make_rules_env()
  E.base_env = E.new_env()
  E.rules_env = E.new_env()
  E.rules_env.state = E.state
  return E.rules_env
end

-- A card chunk's environment: its own globals, reading through to the rules'
-- (whose libraries and engine tables are read-only, so a card cannot change them
-- for anyone else).
local function card_env()
  local env = {}
  for k, v in next, E.base_env do env[k] = v end   -- engine API at hand, as in the rules
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
  local ok, res = E.run_guarded(fn)
  if not ok then return false, res end
  if type(res) ~= "function" then
    return false, chunkname .. ": this Lua must be a function (function(...) ... end), not a " .. type(res)
  end
  return true, res
end

--- Runs a chunk the host compiled (summon eval, the REPL's lua command) in
--- `env`, by default a fresh environment that reads the rules' globals; returns
--- true and the results as a JSON list, or false and the error.
function E.eval(bc, chunkname, env)
  local fn, err = load(bc, "@" .. chunkname, "b", env or card_env())
  if not fn then return false, err end
  local res = table.pack(E.run_guarded(fn))
  if not res[1] then return false, res[2] end
  local parts = {}
  for i = 2, res.n do
    local ok, text = pcall(E.to_json, res[i])
    parts[#parts + 1] = ok and text or E.to_json("<cannot show: " .. tostring(text) .. ">")
  end
  return true, "[" .. table.concat(parts, ",") .. "]"
end
