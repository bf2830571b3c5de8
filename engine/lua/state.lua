-- A new match's state, card definitions, and views of the state for the host.
local E = ...

E.sets = {}

--- Builds the empty state of a match: zones, counters, the board and the generator.
function E.new_state(seed, seats)
  local g = E.game
  local st = {
    game = g.id, seed = seed, players = {}, cards = {}, zones = {}, spaces = {},
    counters = { shared = {} }, turn = 0, round = 0, active = 1, over = false, vars = {},
  }
  for i, s in ipairs(seats) do
    st.players[i] = { seat = i, set = s.set, name = s.name or ("Player " .. i) }
    st.counters[i] = {}
  end
  E.in_play_keys = {}
  for _, name in ipairs(g.in_play) do
    E.in_play_keys[name] = true
    for i = 1, #seats do E.in_play_keys[name .. ":" .. i] = true end
  end
  for name, z in pairs(g.zones) do
    if z.scope == "player" then
      for i = 1, #seats do st.zones[name .. ":" .. i] = {} end
    else
      st.zones[name] = {}
    end
  end
  for name, c in pairs(g.counters) do
    if c.scope == "player" then
      for i = 1, #seats do st.counters[i][name] = c.start end
    else
      st.counters.shared[name] = c.start
    end
  end
  E.state = st
  E.rng_seed(seed)
  if g.board.type ~= "none" then
    E.build_board(g.board)
    E.board_order = E.board.spaces()
  else
    E.board_order = {}
  end
  if g.limits then
    for k, v in pairs(g.limits) do E.limits[k] = v end
  end
  return st
end

--- Adds a card definition; its Lua functions are compiled later by install_lua.
function E.add_def(d)
  d.tagset = {}
  for _, t in ipairs(d.tags or {}) do d.tagset[t] = true end
  d.hooks, d.modifiers, d.abilities = {}, {}, {}
  d.copies = d.copies or 1
  E.defs[d.id] = d
end

--- Compiles one inline function of a card and stores it at def[table][name].
function E.install_lua(card_id, tbl, name, src, chunkname)
  local ok, res = E.load_chunk(src, chunkname, "function")
  if not ok then return res end
  E.defs[card_id][tbl][name] = res
  E.with_fn[tbl][name] = true
  return nil
end

--- Makes card sets read-only once everything is loaded. (Card definitions stay
--- plain tables: the rules read them on every decision, and a proxy per lookup
--- cost a fifth of the speed. Scripts reach them only through the defs view.)
function E.freeze_definitions()
  for id, st in next, E.sets do E.sets[id] = E.freeze(st) end
end

-- A read-only view of the definitions for scripts.
E.defs_view = setmetatable({}, {
  __index = function(_, k) return E.defs[k] end,
  __newindex = function() error("card definitions cannot be changed by scripts", 2) end,
  __pairs = function() return next, E.defs, nil end,
  __metatable = false,
})
E.protect(E.defs_view)

function E.sets_view()
  return E.protect(setmetatable({}, {
    __index = function(_, k) return E.sets[k] end,
    __newindex = function() error("card sets cannot be changed by scripts", 2) end,
    __metatable = false,
  }))
end

function E.snapshot_json()
  return E.to_json(E.state)
end

--- What player p may see (p nil: everything), as a table that shares the
--- state's own subtables: encode it, never hand it to a script. Every zone is
--- {count=n}, with cards={ids, bottom to top} when p may see them.
local function view_table(p)
  local st = E.state
  local v = E.copy(st)
  v.rng = nil
  v.seed = nil
  v.zones, v.cards = {}, {}
  local visible = {}
  for key, ids in pairs(st.zones) do
    local name, owner = key:match("^([^:]+):?(%d*)$")
    owner = tonumber(owner)
    local z = E.game.zones[name]
    local shown = p == nil or (z ~= nil and (z.visibility == "public" or (z.visibility == "owner" and owner == p)))
    if z == nil and p ~= nil then
      -- cards out of the game (scenario setups): nobody sees them
    elseif shown then
      v.zones[key] = { count = #ids, cards = E.copy(ids) }
      for _, id in ipairs(ids) do visible[id] = true end
    else
      v.zones[key] = { count = #ids }
    end
  end
  for id, c in pairs(st.cards) do
    if c.zone == "board" or c.zone == "under" or visible[id] then v.cards[#v.cards + 1] = c end
  end
  table.sort(v.cards, function(a, b) return a.id < b.id end)
  return v
end

function E.view(p)
  return E.to_json(view_table(p))
end

--- A deep copy of plain data (functions dropped), for code that must not reach the original.
local function plain_copy(t, depth)
  if depth > 32 then error("data nested too deeply to copy", 0) end
  local out = {}
  for k, v in next, t do
    local tv = type(v)
    if tv == "table" then out[k] = plain_copy(v, depth + 1)
    elseif tv ~= "function" then out[k] = v end
  end
  return out
end

-- Board functions that read only the board's shape, never what stands on it.
local SHAPE_ONLY = { card_at = false, is_empty = false, line_of_sight = false, paths = false, reach = false }

--- Runs console code (compiled by the host) on a throwaway copy of what player p
--- may see: `view` (that copy), `defs` (card definitions as data), the board's
--- shape, and the safe libraries. No engine function that reads hidden state or
--- draws a random number is there, and nothing it does reaches the match.
function E.eval_view(bc, chunkname, p)
  local env = E.new_env()
  local keep = { string = true, table = true, math = true, utf8 = true, sets = true }
  for k, v in next, env do
    if type(v) == "table" and not keep[k] then env[k] = nil end
  end
  for _, k in ipairs({ "choose", "emit", "on", "stat", "add_modifier", "win", "end_game", "say", "describe", "print" }) do
    env[k] = nil
  end
  local board = {}
  for k, fn in next, E.board do
    if SHAPE_ONLY[k] == nil and type(fn) == "function" then board[k] = fn end
  end
  env.board = board
  env.view = plain_copy(view_table(p), 0)
  env.defs = plain_copy(E.defs, 0)
  env._G = env
  return E.eval(bc, chunkname, env)
end
