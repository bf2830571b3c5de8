-- Sandboxed environments for game and card scripts: an allow-list of named safe
-- functions, fresh tables per chunk, and no way back to the host.
local E = ...

local load, setmetatable, getmetatable, rawget, rawset = load, setmetatable, getmetatable, rawget, rawset
local type, pairs, error = type, pairs, error

-- The libraries scripts see (libs.lua): every function bounded by the work it does.
local LIBS = E.safe_libs

-------------------------------------------------------------------------------
-- What the step count cannot see. Every check_every steps the budget (flow.lua's
-- settle) calls E.watch, which
--  * asks the host whether Ctrl-C was pressed (a Python function set by E.set_poll:
--    Python's signal handlers cannot run while Lua runs, but they run when Lua
--    calls into Python);
--  * stops a script that has used more than limits.seconds of processor time
--    since the first watch after its budget was refilled: single instructions on
--    huge values (== < and .. on long strings, lists of a hundred thousand values)
--    do work that neither the count nor the charges of libs.lua see.
-- While the heap is far larger than the loaded game needs (only then can single
-- instructions be that slow), the budget calls E.watch every hundred steps, so
-- Ctrl-C and the time limit take effect within a second or so.
-- The time limit depends on the machine, so it is a safety cut, never a rule: the
-- deterministic limits (steps, charged library work, memory) stop every
-- script a game needs long before it. Its message says it is the time limit and how
-- to raise it (limits.seconds in game.yaml, 1 to 600); like every trip it cannot be
-- caught by a script's pcall, and the host never counts it as anything but an error
-- (engine/errors.py is_time_limit: a scenario cannot expect it).
-------------------------------------------------------------------------------
local clock, gc = os.clock, collectgarbage
local poll = nil             -- the host's Ctrl-C check: returns true once after Ctrl-C
local started = 0            -- clock() at the first watch since the budget was refilled

function E.set_poll(fn) poll = fn end

--- Notes the heap the loaded game needs: the budget watches more often once the
--- heap grows well past it (four times, plus 4 MB).
--- Called once the match is built: what loading left behind is collected (it would
--- otherwise set the high-water mark of the process's memory), and the heap as it is
--- now sets when the budget starts looking often (E.roomy_kb).
function E.mark_heap()
  gc("collect")
  E.roomy_kb = gc("count") * 4 + 4096
end
E.mark_heap()

-- Most of what a match allocates dies young (option lists, labels, event tables):
-- the generational collector keeps up with it for a little less work than the
-- incremental one (measured by instruction counts over the same games). A minor
-- collection once the heap has grown 5% (Lua's default is 20%) keeps a match's peak
-- heap about 100 KB lower for the same instruction count (a two-player board game,
-- 20 random games under callgrind: 2.49 and 2.48 billion instructions), and the peak
-- is what the process keeps (bench: memory per live match).
local function generational() gc("generational", 5, 100) end
generational()

-- A runtime that forks (a search, which keeps checkpoints) works otherwise: it copies a
-- position's state (a hundred tables and more) again and again, and each copy lives as
-- long as the search plays on from it, long enough to outlive a minor collection or two,
-- and so to be freed only by a major one. There the incremental collector does less
-- (`summon bench`'s fork of the two-player board game: median 64 -> 43 µs, mean 75 -> 62;
-- `bench/search_speed.py`: an mcts:60 decision 4-12% faster in each shipped game), while
-- plain play, which stays generational, would be 8% slower with it and keep more memory.
local collects_for_forks = false

--- Switches this runtime's collector to the incremental one, once: called when one of
--- its matches keeps checkpoints or is forked. Collection never changes a game (scripts
--- can have no finalizers or weak tables), only the time and memory it takes.
function E.collect_for_forks()
  if collects_for_forks then return end
  collects_for_forks = true
  gc("incremental")
end

--- The collector's mode now, "generational" or "incremental" (Lua's own answer; for tests:
--- in a generational runtime, asking costs a full collection).
function E.collector()
  local mode = gc("incremental")
  if mode == "generational" then generational() end
  return mode
end

--- Called by the budget; returns a message to stop the script with, or nil. The
--- message comes in two parts: the budget puts where the script was between them.
function E.watch(fresh)
  local now = clock()
  if fresh then started = now end
  if poll and poll() then return "stopped: Ctrl-C interrupted the script", "" end
  local limit = E.limits.seconds
  if now - started > limit then
    return string.format("script ran too long: it hit the time limit of %g s of processor time before the " ..
                         "next decision", limit),
           " (work on huge strings or long lists of values?); the time limit guards against runaway scripts " ..
           "and depends on the machine's speed: raise it with limits: {seconds: N} in game.yaml"
  end
  return nil
end

-------------------------------------------------------------------------------
-- Read-only views of engine data (card definitions, sets, the game's options).
-------------------------------------------------------------------------------
-- frozen[view] = the table behind it. The metamethods of every view are shared (one
-- closure per kind of data for the error message), so a view costs its own table, a
-- metatable of four fields and, when it holds tables, a copy holding their views, not
-- four closures: definitions are hundreds of small tables. The metatable has no
-- __metatable field (a fifth field doubles its size): the scripts' getmetatable hides it.
local frozen = setmetatable({}, { __mode = "k" })
local empty_views = {}   -- what -> the one view of every empty table of unchanging data

--- A __pairs for a view of t: an iterator that yields t's keys and values but
--- never t itself (`next, t` would hand a script the table behind the view).
local function pairs_of(t)
  local function iterate(_, k) return next(t, k) end
  return function() return iterate, nil, nil end
end

--- The table behind a read-only view (a game option's list, say), or nil for any other
--- table: for the engine to read, never to hand to a script.
function E.behind_view(t) return frozen[t] end

local function frozen_next(view, k) return next(frozen[view], k) end
local function frozen_pairs(view) return frozen_next, view, nil end
local function frozen_len(view) return #frozen[view] end
local refusals = {}   -- what -> its __newindex

local function is_leaf(t)
  for _, v in next, t do
    if type(v) == "table" then return false end
  end
  return true
end

--- A read-only view of a table and everything inside it. shared: the tables are the
--- engine's and never change (card definitions), so a table with no table inside is
--- read through as it is instead of copied.
function E.freeze(t, what, shared)
  if type(t) ~= "table" or frozen[t] then return t end
  what = what or "engine data"
  local empty = shared and next(t) == nil   -- (a card's hooks, modifiers and abilities, mostly)
  if empty and empty_views[what] then return empty_views[what] end
  local inner = empty and {} or t
  if not shared or not is_leaf(t) then
    inner = {}
    for k, v in next, t do inner[k] = E.freeze(v, what, shared) end
  end
  local refuse = refusals[what]
  if refuse == nil then
    refuse = function(_, k) error("cannot change " .. tostring(k) .. ": " .. what .. " is read-only", 2) end
    refusals[what] = refuse
  end
  local proxy = setmetatable({}, {
    __index = inner,
    __newindex = refuse,
    __len = frozen_len,
    __pairs = frozen_pairs,
  })
  frozen[proxy] = inner
  if empty then empty_views[what] = proxy end
  return proxy
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

-- Lua runs an xpcall message handler at the point of the error, before the stack
-- unwinds; a handler that loops there, on an error of the budget, would run inside
-- the budget's own call. Scripts get an xpcall that calls the handler after unwinding.
local function safe_xpcall(f, handler, ...)
  local res = pack(safe_pcall(f, ...))
  if res[1] then return unpack(res, 1, res.n) end
  return false, handler(res[2])
end

-- A script's metatable is read when setmetatable is called, as Lua itself does for __gc:
-- the table set is the engine's copy of the script's (its fields then), so no field added
-- later counts. Otherwise a script could give a metatable __mode after setmetatable, and
-- what a weak table holds depends on when the collector runs, which is not the same on
-- every run. getmetatable gives back the script's own table. (The copy of a metatable
-- whose __index is itself reads through to it, so methods added later are found.)
local given = setmetatable({}, { __mode = "k" })   -- the engine's copy -> the script's table

local function safe_getmetatable(v)
  if type(v) ~= "table" then return nil end
  if frozen[v] then return false end   -- (as a __metatable field would: see frozen)
  local mt = getmetatable(v)
  return given[mt] or mt
end

-- The tables of the state the engine itself reads, from the host too (views, hashes, the
-- clock): a script's metatable there would run its code where no budget is.
local function engine_part_of_state(t)
  local st = E.state
  if st == nil then return false end
  if t == st or t == st.cards or t == st.zones or t == st.spaces or t == st.counters or t == st.players then
    return true
  end
  local id = rawget(t, "id")
  return id ~= nil and st.cards ~= nil and rawget(st.cards, id) == t
end

local function safe_setmetatable(t, mt)
  if type(t) ~= "table" then error("setmetatable: expected a table", 2) end
  if is_engine_table(t) then error("setmetatable: this table belongs to the engine", 2) end
  if engine_part_of_state(t) then
    error("setmetatable: this table is the engine's part of the state (state, its cards, zones, spaces, "
          .. "counters and players); a script's own tables, in state.vars say, may have one", 2)
  end
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc metamethods are not allowed in scripts", 2)
  end
  if type(mt) == "table" and rawget(mt, "__mode") ~= nil then
    -- what a weak table holds depends on when the collector runs: not the same on every run
    error("setmetatable: weak tables (__mode) are not allowed in scripts", 2)
  end
  if type(mt) ~= "table" then return setmetatable(t, mt) end
  local own = {}
  for k, v in next, mt do own[k] = v end
  given[own] = mt
  E.script_mts[own] = true   -- (copies of the state copy such objects)
  return setmetatable(t, own)
end

-- A read-only view of an API table.
local function readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = function(_, k) error("cannot change " .. name .. "." .. tostring(k) .. ": it belongs to the engine", 2) end,
    __pairs = pairs_of(t),
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
E.protect(E.EMPTY)   -- (core.lua: shared by every card, so no rawset into it either)

-- A read-only view of a table of declared names where reading an undeclared name
-- is an error (options.NAME, defs[id]), so a typo never reads as nil.
-- fixed: the table no longer changes, so the view reads a read-only copy whose
-- misses raise (a hit then costs no function call).
-- Otherwise `guard` maps each value read (definitions are frozen only once all are
-- loaded: until then a card's chunk must not get hold of the table itself), and
-- listed(), when given, returns the table whose keys pairs() walks (t makes its
-- values when first read: E.freeze_definitions).
local function strict(t, name, what, names, fixed, guard, listed, unseen)
  local inner = t
  if fixed then
    inner = {}
    for k, v in next, t do inner[k] = E.freeze(v, "a game option") end
    local shown = inner
    setmetatable(inner, { __index = function(_, k)
      if unseen and type(k) ~= "string" then return nil end
      E.no_such(name, what, k, names())
    end })
    t = shown
  end
  guard = guard or function(v) return v end
  local function iterate(_, k)
    k = next(listed and listed() or t, k)
    if k == nil then return nil end
    return k, guard(t[k])
  end
  local proxy = setmetatable({}, {
    __index = fixed and inner or function(_, k)
      local v = t[k]
      if v == nil then
        if unseen and type(k) ~= "string" then return nil end
        E.no_such(name, what, k, names())
      end
      return guard(v)
    end,
    __newindex = function(_, k) error("cannot change " .. name .. "." .. tostring(k) .. ": it belongs to the engine", 2) end,
    __pairs = function() return iterate, nil, nil end,
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

--- The card definitions and the game's options as scripts read them: read-only, and a
--- card or an option the game has not is an error naming it. unseen: as a seat's view
--- reads them (evaluations, a seat's console), where a card whose face the seat cannot see
--- has no def: defs[nil] is nil there.
function E.defs_view(unseen)
  return strict(E.defs, "defs", "card", E.card_names, false, function(d)
    if type(d) ~= "table" or frozen[d] then return d end
    return E.freeze(d, "a card definition")
  end, function() return E.plain_defs or E.defs end, unseen)
end

function E.options_view(unseen)
  return strict(E.game.options, "options", "option", sorted_keys(E.game.options), true, nil, nil, unseen)
end

-- The libraries, shared by every environment (read-only, so no script changes them for another).
local STRING = readonly(LIBS.string, "string")
local TABLE = readonly(LIBS.table, "table")
local UTF8 = readonly(LIBS.utf8, "utf8")
local MATH = readonly(LIBS.math, "math")

-- Messages go to the host: long ones are cut (the rest would only fill the screen).
-- A table or function is named as tostring names it in scripts (no address).
local MAX_MESSAGE = 4000
local function say(text, p)
  E.not_in_modifier("say")   -- (a modifier runs whenever a stat is read: its message would depend on who looked)
  text = E.text_at(text, 2)
  if p ~= nil and (math.type(p) ~= "integer" or E.state.players[p] == nil) then
    error("say: the player to tell must be one of the match's, 1 to " .. #E.state.players .. ", not " .. E.show(p) ..
          " (say(text) tells every seat)", 2)
  end
  if #text > MAX_MESSAGE then text = string.sub(text, 1, MAX_MESSAGE) .. " [...]" end
  return E.say(text, p)
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
      int = function(lo, hi)
        if math.type(lo) ~= "integer" or math.type(hi) ~= "integer" then
          error("rng.int: lo and hi must be whole numbers (rng.int(1, 6)), got " .. E.show(lo) .. " and " ..
                E.show(hi), 2)
        end
        if lo > hi then
          error(string.format("rng.int: nothing lies from %d to %d: the lowest comes first (rng.int(%d, %d))",
                              lo, hi, hi, lo), 2)
        end
        return E.random_int(lo, hi)
      end,
      shuffle = function(list)
        if type(list) ~= "table" then error("rng.shuffle: needs a list, got " .. E.show(list), 2) end
        return E.shuffle(list)
      end,
      pick = function(list)
        if type(list) ~= "table" or #list == 0 then
          error("rng.pick: needs a list of at least one value, got " ..
                (type(list) == "table" and "an empty list" or E.show(list)), 2)
        end
        return list[E.random_int(1, #list)]
      end,
    }, "rng"),
    choose = E.choose,
    emit = E.emit,
    defer = E.defer,
    on = E.on,
    stat = E.stat,
    add_modifier = E.add_modifier,
    win = E.win,
    end_game = E.end_game,
    say = say,
    describe = function(c) return E.describe(E.card_arg(c, "describe")) end,
    defs = E.defs_view(),
    sets = E.sets_view(),
    options = E.options_view(),
  }
end

--- A fresh environment of safe functions; libraries and engine tables are read-only views.
function E.new_env()
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = E.ordered_next, pairs = E.ordered_pairs,
    pcall = safe_pcall, select = E.safe_select, tostring = E.portable_tostring,
    type = type, xpcall = safe_xpcall, rawequal = rawequal, rawlen = rawlen,
    rawget = rawget, rawset = safe_rawset,
    getmetatable = safe_getmetatable, setmetatable = safe_setmetatable,
    unpack = LIBS.table.unpack, tonumber = LIBS.tonumber,
    print = function(...)
      local parts = {}
      for i = 1, select("#", ...) do parts[i] = E.text_at((select(i, ...)), 2) end
      say(LIBS.table.concat(parts, "\t"))
    end,
    string = STRING, table = TABLE, math = MATH, utf8 = UTF8,
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
  -- What every card chunk reads through to: the engine API as it was before the rules
  -- ran (a rules global of the same name does not hide it), then the rules' globals.
  local base = setmetatable(E.new_env(), { __index = E.rules_env, __metatable = false })
  E.base_env = base
  -- one metatable for every card's environment: pairs(_ENV) in a card lists its own
  -- globals and the API, as if each had its own copy
  E.card_env_mt = {
    __index = base,
    __pairs = function(env)
      local all = {}
      for k, v in next, base do all[k] = v end
      for k, v in next, env do all[k] = v end
      return next, all, nil
    end,
    __metatable = false,
  }
  return E.rules_env
end

-- Scripts reach the running match's state as the global `state`.
E.match_part(function() end, function(m)
  if E.rules_env then E.rules_env.state = m.state end
end)

-- A card chunk's environment: its own globals, reading through to the rules'
-- (whose libraries and engine tables are read-only, so a card cannot change them
-- for anyone else).
-- (One table shared by all cards holds the API: a copy in each card's environment
-- cost about 4 KB a chunk.)
local function card_env()
  local env = {}
  env._G = env
  return setmetatable(env, E.card_env_mt)
end

-- The environment a chunk of this kind runs in (E.load_chunk; E.script_shapes reads
-- the same for `summon check`).
local function chunk_env(kind)
  local env = kind == "rules" and E.rules_env or card_env()
  if kind == "scenario" then env.scenario = readonly(E.scenario_api, "scenario") end
  return env
end

--- Loads a chunk the host compiled from text (compile_lua in runtime.py), with
--- the chunk name of the real file. Scripts never reach this function.
--- kind "rules" runs it in the rules environment; kind "function" expects the
--- chunk to return a function (inline Lua in YAML) and returns it.
--- Returns ok, result-or-message.
function E.load_chunk(src, chunkname, kind)
  local env = chunk_env(kind)
  local fn, err = E.load_compiled(src, chunkname, env)
  if not fn then return false, err end
  if kind == "rules" or kind == "scenario" then
    return true, fn
  end
  local ok, res = E.run_guarded(fn)
  if not ok then return false, res end
  if type(res) ~= "function" then   -- (no place: the host names the value's line)
    return false, "this Lua must be a function (function(...) ... end), not "
                  .. (res == nil and "nothing" or "a " .. type(res))
  end
  return true, res
end

-- fn, whose errors that name no place get `place`: after a tail call (`return f(x)`, and
-- `summon eval EXPR` runs `return EXPR`) Lua keeps no line for the code that made it, but
-- code of one line can only have failed on that line. (When the budget or Ctrl-C stops
-- the script, the next instruction here fails with that message instead.)
local function placed(fn, place)
  local find = string.find
  return function()
    local res = pack(xpcall(fn, E.place_error))
    if res[1] then return unpack(res, 2, res.n) end
    local err = res[2]
    if type(err) == "string" and err ~= "not enough memory" then
      -- (from a tail call into the engine, no line of the script's is left: this is its one line)
      local blamed = find(err, "^engine/lua/") and E.blamed_on(err, place)
      if blamed then
        err = blamed
      elseif not E.has_place(err) then
        err = place .. err
      end
    end
    error(err, 0)
  end
end

-- v for a designer's console: the engine's read-only views in it (options, card
-- definitions, a region's definition) as plain tables of what they hold, read through the
-- engine's own pairs (the encoder reads tables raw, so a view showed as []). Other tables
-- are copied as they are, read raw, never through a script's metamethods. Past `SHOWN`
-- tables, v is given back as it is.
local SHOWN = 100000

local function unviewed(v)
  local copies, count = {}, 0
  local function copy(t)
    if type(t) ~= "table" then return t end
    if copies[t] then return copies[t] end
    count = count + 1
    if count > SHOWN then error(copies, 0) end
    local out = {}
    copies[t] = out
    local listed = is_engine_table(t) and E.is_listable(t)
    for k, x in (listed and pairs or function(u) return next, u end)(t) do out[copy(k)] = copy(x) end
    return out
  end
  local ok, res = pcall(copy, v)
  return ok and res or v
end

--- Runs a chunk the host compiled (summon eval, the REPL's lua command) in
--- `env`, by default a fresh environment that reads the rules' globals; returns
--- true and the results as a JSON list, or false and the error. `line`: the line
--- to name in an error that names none (the host gives 1 for code of one line).
function E.eval(bc, chunkname, env, line)
  local fn, err = E.load_compiled(bc, chunkname, env or card_env())
  if not fn then return false, err end
  if line then fn = placed(fn, chunkname .. ":" .. line .. ": ") end
  local res = table.pack(E.run_guarded(fn))
  if not res[1] then return false, res[2] end
  for i = 2, res.n do res[i] = unviewed(res[i]) end
  return true, E.to_json_list(res, 2, res.n)
end

--- Keeps a designer's change to the match, code the host has just run on it with
--- E.eval (no env) and that changed its state: forks of the match make it again where
--- it was made, with the decision it was made at asked and before its answer (E.fork).
local edit_serial = 0   -- (tells apart changes made to a match and to its fork at one position)
function E.record_edit(bc, chunkname, line)
  local edits = E.edits
  edit_serial = edit_serial + 1
  edits[#edits + 1] = { at = E.decisions, bc = bc, chunkname = chunkname, line = line, serial = edit_serial }
end

--- A kept change's code (E.record_edit) as a function to run, with globals of its own
--- each time, as the console gave it: a global it sets is not there when a fork runs it.
function E.edit_fn(e)
  local fn, err = E.load_compiled(e.bc, e.chunkname, card_env())
  if not fn then error(err, 0) end
  return e.line and placed(fn, e.chunkname .. ":" .. e.line .. ": ") or fn
end

-------------------------------------------------------------------------------
-- What each kind of script can name, for `summon check` (engine/lualint.py), read
-- from the environments the chunks really get, so that it never goes stale.
-------------------------------------------------------------------------------

local function add_keys(out, t)
  -- (the engine's views list their keys through __pairs; any other table is read as it is,
  -- never through a script's __pairs, which would run outside any budget here)
  for k in (is_engine_table(t) and pairs or function(x) return next, x end)(t) do
    if type(k) == "string" then out[k] = true end
  end
end

--- The names a script in env sees (env's own and those of the tables it reads
--- through to, in order), the fields of each engine table among them, and the tables
--- whose contents pairs() cannot list (views that read one key at a time).
local function shape(env, ...)
  local out = { globals = {}, fields = {}, unlisted = {} }
  local layers = { env, ... }
  for _, t in ipairs(layers) do add_keys(out.globals, t) end
  for name in next, out.globals do
    local v
    for _, t in ipairs(layers) do
      v = rawget(t, name)
      if v ~= nil then break end
    end
    if type(v) == "table" and is_engine_table(v) then
      if E.is_listable(v) then
        out.fields[name] = {}
        add_keys(out.fields[name], v)
      else
        out.unlisted[name] = true
      end
    end
  end
  return out
end

--- For each kind of script ("rules", "card", "scenario", "evaluation"), what it can
--- name (see shape). Only once the rules have run: their globals are then in place.
function E.script_shapes()
  return {
    rules = shape(E.rules_env),
    card = shape(chunk_env("function"), E.base_env, E.rules_env),
    scenario = shape(chunk_env("scenario"), E.base_env, E.rules_env),
    evaluation = shape(E.evaluation_env()),
  }
end
