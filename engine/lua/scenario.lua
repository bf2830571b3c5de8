-- Setting up a position directly, for tests and scenario files: runs after the
-- game's own setup and before the first turn.
local E = ...

local S = {}
E.scenario_api = S

local function fail(msg) error(msg, 3) end

--- Takes a card out of the game (it stays in the state, in no zone).
function S.remove(c)
  c = E.card_arg(c, "scenario.remove")
  local spare = E.state.zones["_removed"]
  if not spare then
    spare = {}
    E.state.zones["_removed"] = spare
  end
  E.cards.to_zone_key(c, "_removed")
end

--- Removes every card from the board.
function S.clear_board()
  for _, c in ipairs(E.cards.on_board()) do S.remove(c) end
end

--- Removes every card of a zone.
function S.empty(name, p)
  for _, c in ipairs(E.zones.cards(name, p)) do S.remove(c) end
end

--- Puts a new card on a space: owner and controller p, with tokens {name=count}.
function S.place(def_id, p, space, tokens)
  if not E.board.is_empty(space) then
    local c = E.board.card_at(space)
    if not c then fail("scenario.place: no space called " .. tostring(space)) end
    S.remove(c)
  end
  local c = E.cards.create(def_id, p)
  E.cards.place(c, space)
  for k, v in pairs(tokens or {}) do E.tokens.add(c, k, v) end
  return c
end

--- Puts new cards on top of a zone, in order (the last given ends on top).
function S.add(name, p, def_ids)
  local out = {}
  for i, id in ipairs(def_ids) do out[i] = E.cards.create(id, p, name, p) end
  return out
end

function S.set_counter(name, p, v) E.counters.set(name, p, v) end

--- The player whose turn comes first, and the phase that turn starts in.
function S.start(p, phase)
  E.state.active = p
  if phase then
    local ok = false
    for _, ph in ipairs(E.game.flow.phases) do if ph.id == phase then ok = true end end
    if not ok then fail("scenario.start: no phase called " .. tostring(phase)) end
  end
  E.start_phase = phase
end

--- Results the generator gives next, in order, before it draws at random again
--- (a die roll takes the face's number; a shuffle takes one number per swap).
function S.force(values)
  for _, v in ipairs(values) do E.forced[#E.forced + 1] = v end
end

--- Applies a scenario file's `setup` (plain data from YAML):
---   clear_board = true, board = {space = {card=, owner=, controller=, tokens={}}},
---   zones = {name = {player = {card ids, top first}}} (a shared zone: name = {ids}),
---   counters = {name = {player = value}} (a shared counter: name = value),
---   start = {player=, phase=}, rolls = {numbers}.
local function card_id(id, where)
  if E.defs[id] then return id end
  local names = {}
  for k in pairs(E.defs) do names[#names + 1] = k end
  table.sort(names)
  error(where .. ": no card called '" .. tostring(id) .. "'" .. E.suggest(id, names), 0)
end

function S.apply(setup)
  if setup.clear_board then S.clear_board() end
  local spaces = {}
  for s in pairs(setup.board or {}) do spaces[#spaces + 1] = s end
  table.sort(spaces)
  for _, s in ipairs(spaces) do
    local spec = setup.board[s]
    if spec == false then
      local c = E.board.card_at(s)
      if c then S.remove(c) end
    else
      local c = S.place(card_id(spec.card, "setup board " .. s), spec.owner or 1, s, spec.tokens)
      if spec.controller then c.controller = spec.controller end
    end
  end
  local znames = {}
  for name in pairs(setup.zones or {}) do znames[#znames + 1] = name end
  table.sort(znames)
  for _, name in ipairs(znames) do
    local spec = setup.zones[name]
    local zd = E.game.zones[name]
    if not zd then fail("setup: no zone called " .. tostring(name) .. E.suggest(name, E.zone_names())) end
    local function fill(p, ids)
      S.empty(name, p)
      for i = #ids, 1, -1 do E.cards.create(card_id(ids[i], "setup zone " .. name), p or 1, name, p) end
    end
    if zd.scope == "player" then
      for p, ids in pairs(spec) do fill(tonumber(p), ids) end
    else
      fill(nil, spec)
    end
  end
  for name, spec in pairs(setup.counters or {}) do
    if type(spec) == "table" then
      for p, v in pairs(spec) do E.counters.set(name, tonumber(p), v) end
    else
      E.counters.set(name, nil, spec)
    end
  end
  if setup.start then S.start(setup.start.player or E.state.active, setup.start.phase) end
  if setup.rolls then S.force(setup.rolls) end
end
