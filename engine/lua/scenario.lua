-- Setting up a position directly, for tests and scenario files: runs after the
-- game's own setup and before the first turn.
local E = ...

local S = {}
E.scenario_api = S

local function fail(msg) error(msg, 3) end

--- Takes a card out of the game: it stays in the state, in the engine's zone `_removed`, which no rule or view names.
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

local spec, subject = E.subject_spec, E.subject
local S_EMPTY = spec("scenario.empty", "zone", "", "", 0)
local S_ADD = spec("scenario.add", "zone", "", ", {cards}", 1)
local S_COUNTER = spec("scenario.set_counter", "counter", "", ", v", 1)

--- Removes every card of a zone: scenario.empty(p, zone), or scenario.empty(zone) if shared.
function S.empty(a, b)
  local p, name = subject(S_EMPTY, a, b)
  for _, c in ipairs(p and E.zones.cards(p, name) or E.zones.cards(name)) do S.remove(c) end
end

--- Creates a card on a space (removing any card there): owner and controller p,
--- with tokens {name=count}. Returns the card.
function S.create(def_id, p, space, tokens)
  if not E.defs[def_id] then E.no_such("scenario.create", "card", def_id, E.card_names()) end
  E.check_player(p, "scenario.create")
  if not E.board.exists(space) then E.no_such("scenario.create", "space", space, E.board_order) end
  local there = E.board.card_at(space)
  if there then S.remove(there) end
  local c = E.cards.create(def_id, p)
  E.cards.place(c, space)
  local names = {}
  for k in pairs(tokens or {}) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do E.tokens.add(c, k, tokens[k]) end
  return c
end

--- Before 0.2.0, scenario.place created a card; place means moving one now.
function S.place()
  fail("scenario.place creates no card since 0.2.0: now scenario.create(def, p, space, tokens) " ..
       "(see CHANGELOG.md)")
end

--- Creates cards on top of a zone, in order (the last given ends on top):
--- scenario.add(p, zone, {cards}), or scenario.add(zone, {cards}) for a shared zone.
--- The cards belong to p (player 1 in a shared zone). Returns them.
function S.add(a, b, c)
  local p, name, _, ids = subject(S_ADD, a, b, c)
  if type(ids) ~= "table" then fail("scenario.add: give the cards as a list of ids, got " .. E.show(ids)) end
  local out = {}
  for i, id in ipairs(ids) do
    if p then out[i] = E.cards.create(id, p, p, name) else out[i] = E.cards.create(id, 1, name) end
  end
  return out
end

--- Sets a counter: scenario.set_counter(p, name, v), or scenario.set_counter(name, v) if shared.
function S.set_counter(a, b, c)
  local p, name, _, v = subject(S_COUNTER, a, b, c)
  if p then return E.counters.set(p, name, v) end
  return E.counters.set(name, v)
end

--- The player whose turn comes first, and the phase that turn starts in.
local function phase_ids()
  local ids = {}
  for _, ph in ipairs(E.game.flow.phases) do ids[#ids + 1] = ph.id end
  return ids
end

local function phase_known(phase)
  for _, id in ipairs(phase_ids()) do
    if id == phase then return true end
  end
  return false
end

function S.start(p, phase)
  E.check_player(p, "scenario.start")
  E.state.active = p
  if phase and not phase_known(phase) then
    fail("scenario.start: no phase called " .. tostring(phase) .. E.suggest(phase, phase_ids()))
  end
  E.start_phase = phase
end

--- Results the generator gives next, in order, before it draws at random again
--- (a die roll takes the face's number; a shuffle takes one number per swap).
function S.force(values)
  if type(values) ~= "table" then fail("scenario.force: give the results as a list of numbers, got " .. E.show(values)) end
  for i, v in ipairs(values) do
    if math.type(v) ~= "integer" then
      fail("scenario.force: result " .. i .. " must be a whole number (a die's face, a draw of rng.int), got " ..
           E.show(v))
    end
  end
  for _, v in ipairs(values) do E.forced[#E.forced + 1] = v end
  -- from the host (a test), not from the scenario's own setup, which a fork runs again
  if coroutine.running() ~= E.match_co then E.forced_since = true end
end

--- Applies a scenario file's `setup` (plain data from YAML):
---   clear_board = true, board = {space = {card=, owner=, controller=, tokens={}}},
---   zones = {name = {player = {card ids, top first}}} (a shared zone: name = {ids}),
---   counters = {name = {player = value}} (a shared counter: name = value),
---   start = {player=, phase=, turn=, round=}, rolls = {numbers}.
local function card_id(id, where)
  if E.defs[id] then return id end
  local names = {}
  for k in pairs(E.plain_defs or E.defs) do names[#names + 1] = k end
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
    if not E.board.exists(s) then
      error("setup board " .. tostring(s) .. ": no space called " .. E.show(s) .. E.suggest(s, E.board_order), 0)
    end
    if spec == false then
      local c = E.board.card_at(s)
      if c then S.remove(c) end
    else
      for _, who in ipairs({ "owner", "controller" }) do
        local p = spec[who]
        if p ~= nil and (math.type(p) ~= "integer" or E.state.players[p] == nil) then
          error(string.format("setup board %s: %s %s is no player (players are 1 to %d)", s, who, E.show(p),
                              #E.state.players), 0)
        end
      end
      local c = S.create(card_id(spec.card, "setup board " .. s), spec.owner or 1, s, spec.tokens)
      if spec.controller then c.controller = spec.controller end
    end
  end
  local znames = {}
  for name in pairs(setup.zones or {}) do znames[#znames + 1] = name end
  table.sort(znames)
  for _, name in ipairs(znames) do
    local spec = setup.zones[name]
    local zd = E.game.zones[name]
    if not zd then error("setup zones: no zone called " .. tostring(name) .. E.suggest(name, E.zone_names()), 0) end
    local function fill(p, ids)
      for _, c in ipairs(p and E.zones.cards(p, name) or E.zones.cards(name)) do S.remove(c) end
      for i = #ids, 1, -1 do
        local id = card_id(ids[i], "setup zone " .. name)
        if p then E.cards.create(id, p, p, name) else E.cards.create(id, 1, name) end
      end
    end
    -- (a list of cards, or nothing; {1 = {...}} is player 1's, as Python's {1: [...]} gives)
    if zd.scope == "player" and ((spec[1] ~= nil and type(spec[1]) ~= "table") or next(spec) == nil) then
      error("setup zone " .. name .. " is a zone of each player: give {1: [cards], 2: [cards]}", 0)
    end
    if zd.scope == "player" then
      -- players in seat order: cards get their ids in the order they are made
      local seats = {}
      local keys = {}
      for p in pairs(spec) do keys[#keys + 1] = tostring(p) end
      table.sort(keys)   -- (so that the first mistake named is the same in every run)
      for _, p in ipairs(keys) do
        local n = tonumber(p)
        if n == nil or E.state.players[n] == nil then
          error("setup zone " .. name .. ": no player " .. E.show(n or p) .. " (players are 1 to " ..
                #E.state.players .. ")", 0)
        end
        seats[#seats + 1] = n
      end
      table.sort(seats)
      for _, p in ipairs(seats) do fill(p, spec[p] or spec[tostring(p)]) end
    else
      fill(nil, spec)
    end
  end
  -- in name order, so that the first mistake said is the same in every run
  local cnames = {}
  for name in pairs(setup.counters or {}) do cnames[#cnames + 1] = name end
  table.sort(cnames)
  for _, name in ipairs(cnames) do
    local spec = setup.counters[name]
    local cd = (E.game.counters or {})[name]
    if cd == nil then
      local names = {}
      for k in pairs(E.game.counters or {}) do names[#names + 1] = k end
      table.sort(names)
      error("setup counters: no counter called " .. tostring(name) .. E.suggest(name, names), 0)
    end
    local function num(v)   -- 3 for 3.0, as game.yaml wrote it
      return math.type(v) == "float" and v == math.floor(v) and string.format("%d", v) or E.show(v)
    end
    local function checked(v)   -- (counters.set keeps a value within its bounds without a word)
      if cd.min and v < cd.min or cd.max and v > cd.max then
        error(string.format("setup counters %s: %s is outside its bounds (%s to %s)", name, num(v),
                            cd.min and num(cd.min) or "any", cd.max and num(cd.max) or "any"), 0)
      end
      return v
    end
    if type(spec) == "table" and cd.scope ~= "player" then
      error("setup counters " .. name .. " is one shared counter: give one number", 0)
    elseif type(spec) == "table" then
      local keys = {}
      for p in pairs(spec) do keys[#keys + 1] = tostring(p) end
      table.sort(keys)
      for _, p in ipairs(keys) do
        local v = spec[p]
        if v == nil then v = spec[tonumber(p)] end
        local n = tonumber(p)
        if n == nil or n < 1 or n > #E.state.players or n ~= math.floor(n) then
          error(string.format("setup counters %s: no player %s (players are 1 to %d)", name, tostring(p),
                              #E.state.players), 0)
        end
        E.counters.set(n, name, checked(v))
      end
    elseif cd.scope == "player" then
      error("setup counters " .. name .. " is a counter of each player: give {1: " .. num(spec) .. "}", 0)
    else
      E.counters.set(name, checked(spec))
    end
  end
  if setup.start then
    local p = setup.start.player
    if p ~= nil and (math.type(p) ~= "integer" or E.state.players[p] == nil) then
      error(string.format("setup start: no player %s (players are 1 to %d)", E.show(p), #E.state.players), 0)
    end
    local phase = setup.start.phase
    if phase ~= nil and not phase_known(phase) then
      error("setup start: no phase called " .. E.show(phase) .. E.suggest(phase, phase_ids()), 0)
    end
    S.start(setup.start.player or E.state.active, phase)
    -- the flow counts a turn (round) as it begins: the first one played is this number
    if setup.start.turn then E.state.turn = setup.start.turn - 1 end
    if setup.start.round then E.state.round = setup.start.round - 1 end
  end
  if setup.rolls then S.force(setup.rolls) end
end

-------------------------------------------------------------------------------
-- A scenario's listeners and rules modifiers that keep tables of the match
-------------------------------------------------------------------------------
local getupvalue, getinfo = E.debug.getupvalue, E.debug.getinfo

local function sorted_keys(t)
  local keys = {}
  for k in next, t do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)   -- (numbers before texts; other keys by their kind's name)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return false
  end)
  return keys
end

-- Each table of the match's state -> where it is (state.vars.x, state.cards[3]), walked in
-- key order so that a table reached two ways is named the same way in every run.
local function state_tables()
  local found = {}
  local function walk(t, path, depth)
    if found[t] or depth > 12 then return end
    found[t] = path
    for _, k in ipairs(sorted_keys(t)) do
      local v = rawget(t, k)
      if type(v) == "table" and getmetatable(v) == nil then
        walk(v, type(k) == "string" and path .. "." .. k or path .. "[" .. tostring(k) .. "]", depth + 1)
      end
    end
  end
  walk(E.state, "state", 0)
  return found
end

-- The first table of the state that v holds (v itself, a table inside it, as a value or a
-- key, or what a function of the same script keeps in its own locals), with the way there
-- from v ("" for v itself); nil if none. Functions of other files (the rules', the
-- engine's) and a function's environment (_ENV: the setup's globals) are not gone into.
local function state_in(v, src, tables, seen, depth)
  if seen[v] or depth > 6 then return nil end
  if type(v) == "table" then
    if tables[v] then return tables[v], "" end
    if getmetatable(v) ~= nil then return nil end   -- (a read-only view: the engine's, not the match's)
    seen[v] = true
    for _, k in ipairs(sorted_keys(v)) do
      local at, way = state_in(k, src, tables, seen, depth + 1)
      if at then return at, ", as a key" .. way end
      at, way = state_in(rawget(v, k), src, tables, seen, depth + 1)
      if at then
        local tk = type(k)
        return at, (tk == "string" and "." .. k or tk == "number" and "[" .. k .. "]" or "[a " .. tk .. "]") .. way
      end
    end
  elseif type(v) == "function" then
    if getinfo(v, "S").source ~= src then return nil end
    seen[v] = true
    for i = 1, 255 do
      local up, x = getupvalue(v, i)
      if up == nil then break end
      if up ~= "_ENV" then
        local at, way = state_in(x, src, tables, seen, depth + 1)
        if at then return at, ", whose local " .. up .. way end
      end
    end
  end
  return nil
end

--- After a scenario's setup has run, and when it first asks a question: fails when a
--- listener or rules modifier it added keeps a table of the match's state (a card, a
--- player, state.vars) in a local of the setup, or in a table or function such a local
--- holds. Listeners belong to the runtime and a copy of the match (a bot's look-ahead) has
--- tables of its own, so such a function would read or change this match's card while the
--- copy plays. Said where the function is defined.
function E.check_setup_functions()
  if E.setup_added[1] == nil then return end
  local tables = state_tables()
  for _, f in ipairs(E.setup_added) do
    local src = getinfo(f[1], "S").source
    for i = 1, 255 do
      local up, v = getupvalue(f[1], i)
      if up == nil then break end
      local at, way = nil, nil
      if up ~= "_ENV" then at, way = state_in(v, src, tables, {}, 0) end
      if at then
        local id = string.match(at, "^state%.cards%[(%d+)%]$")
        local card = id and E.state.cards[tonumber(id)]
        local what = card and "a card of the match, " .. E.describe(card) or "a table of the match's state, " .. at
        error(E.defined_at(f[1]) .. "the " .. f[2] .. " that the scenario's setup added keeps " .. what ..
              ", in its local `" .. up .. "`" .. (way ~= "" and " (at " .. up .. way .. ")" or "") ..
              ": a copy of the match (a bot's look-ahead) has cards and state of its own, and the function " ..
              "would use this match's tables there; keep a card's id (`local id = c.id`) and find the card as " ..
              "the function runs, with cards.get(id), and read the state as it runs (`state.vars`)", 0)
      end
    end
  end
end
