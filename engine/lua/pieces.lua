-- Cards and pieces, zones, tokens, counters and dice.
local E = ...

local C, Z, T, K, D, P = {}, {}, {}, {}, {}, {}
E.cards, E.zones, E.tokens, E.counters, E.dice, E.players = C, Z, T, K, D, P

local function fail(msg) error(msg, 3) end

-------------------------------------------------------------------------------
-- Players
-------------------------------------------------------------------------------
function P.count() return #E.state.players end

function P.list()
  local out = {}
  for i = 1, #E.state.players do out[i] = i end
  return out
end

--- The player after p in seat order.
function P.next(p) return p % #E.state.players + 1 end

function P.info(p) return E.state.players[p] end

--- Players in seat order starting from p.
local from_cache = {}
function P.from(p)
  local out = from_cache[p]
  if not out then
    out = {}
    local n = #E.state.players
    for i = 0, n - 1 do out[#out + 1] = (p - 1 + i) % n + 1 end
    from_cache[p] = out
  end
  return E.copy_list(out)
end

-------------------------------------------------------------------------------
-- Zones: ordered lists of card ids; the top of a zone is its last element.
-------------------------------------------------------------------------------
function E.zone_names()
  local out = {}
  for name in pairs(E.game.zones) do out[#out + 1] = name end
  table.sort(out)
  return out
end

local function zone_key(name, p)
  local zd = E.game.zones[name]
  if not zd then fail("no zone called " .. tostring(name)) end
  if zd.scope == "player" then
    if type(p) ~= "number" or E.state.players[p] == nil then
      fail("zone " .. name .. " belongs to a player: give a player number, not " .. tostring(p))
    end
    return name .. ":" .. p
  end
  return name
end
E.zone_key = zone_key

local function zone_list(name, p)
  return E.state.zones[zone_key(name, p)]
end

function Z.ids(name, p) return E.copy(zone_list(name, p)) end

--- Cards of a zone, bottom to top.
function Z.cards(name, p)
  local out, cards = {}, E.state.cards
  for i, id in ipairs(zone_list(name, p)) do out[i] = cards[id] end
  return out
end

function Z.count(name, p) return #zone_list(name, p) end

function Z.top(name, p)
  local l = zone_list(name, p)
  return l[#l] and E.state.cards[l[#l]] or nil
end

function Z.shuffle(name, p)
  E.shuffle(zone_list(name, p))
  E.note("shuffle", { zone = zone_key(name, p) })
end

--- Moves up to n cards from the top of one zone to the top of another.
--- Returns the cards moved (fewer when the source runs out).
function Z.draw(from, to, p, n, to_player)
  local moved = {}
  E.note("draw", { zone = from })
  for _ = 1, n or 1 do
    local c = Z.top(from, p)
    if not c then break end
    C.to_zone(c, to, to_player or p)
    moved[#moved + 1] = c
  end
  return moved
end

-------------------------------------------------------------------------------
-- Cards
-------------------------------------------------------------------------------
-- Bumped by every change of which cards are in play (or of their board order),
-- so the lists of cards in play can be cached between changes.
E.version = 0

local function touch(key)
  if key == "board" or E.in_play_keys[key] then E.version = E.version + 1 end
end

local function card_arg(c, fn)
  if type(c) == "number" then c = E.state.cards[c] end
  if type(c) ~= "table" or E.state.cards[c.id] ~= c then
    fail(fn .. ": expected a card, got " .. tostring(c))
  end
  return c
end
E.card_arg = card_arg

function C.get(id) return E.state.cards[id] end

--- The definition of a card (its YAML, with Lua functions), read-only.
function C.def(c)
  local d = type(c) == "table" and E.defs[c.def]
  if d then return d end
  return E.defs[card_arg(c, "cards.def").def]
end

function C.has_tag(c, tag)
  local d = E.defs[c.def]
  return d.tagset[tag] == true
end

--- Creates a new card instance from a definition, placed on top of a zone.
function C.create(def_id, owner, zone_name, zone_player)
  local d = E.defs[def_id]
  if not d then fail("cards.create: no card called " .. tostring(def_id)) end
  local cards = E.state.cards
  local c = { id = #cards + 1, def = def_id, name = d.name, owner = owner,
              controller = owner, tokens = {}, under = {} }
  cards[c.id] = c
  if zone_name then
    c.zone = zone_key(zone_name, zone_player or owner)
    touch(c.zone)
    local l = E.state.zones[c.zone]
    l[#l + 1] = c.id
  end
  return c
end

local function remove_from_list(l, id)
  for i = #l, 1, -1 do
    if l[i] == id then table.remove(l, i); return true end
  end
  return false
end

--- Takes a card out of wherever it is (zone, board space or under a host).
local function lift(c)
  touch(c.zone)
  if c.space then
    E.state.spaces[c.space] = nil
    c.space = nil
  elseif c.host then
    remove_from_list(E.state.cards[c.host].under, c.id)
    c.host = nil
  elseif c.zone then
    remove_from_list(E.state.zones[c.zone], c.id)
  end
  c.zone = nil
end

--- Moves a card to a zone. where: "top" (default), "bottom" or a 1-based index.
function C.to_zone(c, name, p, where)
  c = card_arg(c, "cards.to_zone")
  local key = zone_key(name, p == nil and c.owner or p)
  lift(c)
  local l = E.state.zones[key]
  if where == "bottom" then table.insert(l, 1, c.id)
  elseif type(where) == "number" then table.insert(l, math.max(1, math.min(where, #l + 1)), c.id)
  else l[#l + 1] = c.id end
  c.zone = key
  touch(key)
  return c
end

--- Moves a card to a zone by its key ("hand:1"), creating unknown keys (engine use).
function C.to_zone_key(c, key)
  lift(c)
  local l = E.state.zones[key]
  if not l then
    l = {}
    E.state.zones[key] = l
  end
  l[#l + 1] = c.id
  c.zone = key
  touch(key)
end

--- Puts a card on an empty board space (from anywhere, or from another space).
function C.place(c, s)
  c = card_arg(c, "cards.place")
  if not E.board.exists(s) then fail("cards.place: no space called " .. tostring(s)) end
  local occupant = E.state.spaces[s]
  if occupant and occupant ~= c.id then
    fail("cards.place: " .. s .. " is taken by " .. E.state.cards[occupant].name)
  end
  lift(c)
  c.zone = "board"
  c.space = s
  E.state.spaces[s] = c.id
  E.version = E.version + 1
  return c
end

--- Two cards on the board exchange spaces.
function C.swap(a, b)
  a, b = card_arg(a, "cards.swap"), card_arg(b, "cards.swap")
  local sa, sb = a.space, b.space
  if not (sa and sb) then fail("cards.swap: both cards must be on the board") end
  a.space, b.space = sb, sa
  E.version = E.version + 1
  E.state.spaces[sa], E.state.spaces[sb] = b.id, a.id
end

--- Puts a card under a host card; it travels with the host.
function C.attach(c, host)
  c, host = card_arg(c, "cards.attach"), card_arg(host, "cards.attach")
  lift(c)
  c.zone = "under"
  c.host = host.id
  host.under[#host.under + 1] = c.id
end

function C.attached(host)
  host = card_arg(host, "cards.attached")
  local out = {}
  for i, id in ipairs(host.under) do out[i] = E.state.cards[id] end
  return out
end

local cache_version, board_cache, play_cache = -1, nil, nil
local fn_cache = { hooks = {}, modifiers = {}, abilities = {} }

local function refresh()
  if cache_version == E.version then return end
  cache_version = E.version
  local out, spaces, cards = {}, E.state.spaces, E.state.cards
  for _, s in ipairs(E.board_order) do
    local id = spaces[s]
    if id then out[#out + 1] = cards[id] end
  end
  board_cache = out
  local all = E.copy(out)
  for _, name in ipairs(E.game.in_play) do
    for p = 1, #E.state.players do
      for _, id in ipairs(E.state.zones[name .. ":" .. p] or E.state.zones[name] or {}) do
        all[#all + 1] = cards[id]
      end
    end
  end
  play_cache = all
  -- one pass files every card in play under each of its hooks, modifiers and abilities
  fn_cache = { hooks = {}, modifiers = {}, abilities = {} }
  local defs = E.defs
  for _, c in ipairs(all) do
    local d = defs[c.def]
    for kind, cache in next, fn_cache do
      for name in next, d[kind] do
        local l = cache[name]
        if l == nil then
          l = {}
          cache[name] = l
        end
        l[#l + 1] = c
      end
    end
  end
end

local function filtered(list, filter)
  if not filter then return E.copy_list(list) end
  local out = {}
  for i = 1, #list do
    local c = list[i]
    if filter(c) then out[#out + 1] = c end
  end
  return out
end

--- Cards on the board, in board order, optionally filtered.
function C.on_board(filter)
  refresh()
  return filtered(board_cache, filter)
end

--- Cards in play: on the board, then in the zones the game declares in play.
function C.in_play(filter)
  refresh()
  return filtered(play_cache, filter)
end

--- Cards in play whose definition has a function in def[tbl][name] (cached; do not change).
local NONE = setmetatable({}, { __newindex = function() error("read-only", 2) end })
E.with_fn = { hooks = {}, modifiers = {}, abilities = {} }

function E.in_play_with(tbl, name)
  if not E.with_fn[tbl][name] then return NONE end
  refresh()
  return fn_cache[tbl][name] or NONE
end

function C.is_on_board(c) return c.space ~= nil end

--- Cards in play whose definition has a hook, modifier or ability of this name:
--- kind is "hooks", "modifiers" or "abilities".
function C.in_play_with(kind, name)
  if E.with_fn[kind] == nil then fail("cards.in_play_with: kind must be hooks, modifiers or abilities") end
  return E.copy(E.in_play_with(kind, name))
end

-------------------------------------------------------------------------------
-- Tokens: named counts on a card.
-------------------------------------------------------------------------------
function T.get(c, name)
  c = card_arg(c, "tokens.get")
  return c.tokens[name] or 0
end

function T.add(c, name, n)
  c = card_arg(c, "tokens.add")
  n = n or 1
  if math.type(n) ~= "integer" then fail("tokens.add: count must be an integer, got " .. tostring(n)) end
  local v = (c.tokens[name] or 0) + n
  if v <= 0 then c.tokens[name] = nil else c.tokens[name] = v end
  return v
end

--- Removes up to n tokens; returns how many were removed.
function T.remove(c, name, n)
  c = card_arg(c, "tokens.remove")
  local have = c.tokens[name] or 0
  local take = math.min(have, n or have)
  if have - take <= 0 then c.tokens[name] = nil else c.tokens[name] = have - take end
  return take
end

function T.clear(c)
  c = card_arg(c, "tokens.clear")
  c.tokens = {}
end

-------------------------------------------------------------------------------
-- Counters: bounded numbers, per player or shared, declared in YAML.
-------------------------------------------------------------------------------
local function counter_slot(name, p, fn)
  local cd = E.game.counters[name]
  if not cd then fail(fn .. ": no counter called " .. tostring(name)) end
  if cd.scope == "player" then
    local t = E.state.counters[p]
    if not t then fail(fn .. ": counter " .. name .. " needs a player, got " .. tostring(p)) end
    return t, cd
  end
  return E.state.counters.shared, cd
end

function K.get(name, p)
  local t = counter_slot(name, p, "counters.get")
  return t[name]
end

local function clamp(v, cd)
  if cd.min and v < cd.min then v = cd.min end
  if cd.max and v > cd.max then v = cd.max end
  return v
end

--- Adds n (may be negative), kept within the counter's bounds; returns the change made.
function K.add(name, p, n)
  local t, cd = counter_slot(name, p, "counters.add")
  local old = t[name]
  t[name] = clamp(old + n, cd)
  return t[name] - old
end

function K.set(name, p, v)
  local t, cd = counter_slot(name, p, "counters.set")
  t[name] = clamp(v, cd)
end

function K.can_spend(name, p, n)
  local t, cd = counter_slot(name, p, "counters.can_spend")
  return t[name] - n >= (cd.min or -math.huge)
end

--- Spends n, or fails if the counter would go below its minimum.
function K.spend(name, p, n)
  local t, cd = counter_slot(name, p, "counters.spend")
  if t[name] - n < (cd.min or -math.huge) then
    fail("counters.spend: player " .. tostring(p) .. " has " .. t[name] .. " " .. name .. ", needs " .. n)
  end
  t[name] = t[name] - n
end

function K.bounds(name)
  local cd = E.game.counters[name]
  return cd.min, cd.max
end

-------------------------------------------------------------------------------
-- Dice: named dice whose faces list symbols.
-------------------------------------------------------------------------------
--- Rolls n dice of a kind; returns a list of faces, each {index=, symbols={...}, label=}.
function D.roll(name, n)
  local dd = E.game.dice[name]
  if not dd then fail("dice.roll: no die called " .. tostring(name)) end
  local out = {}
  for i = 1, n do
    local k = E.random_int(1, #dd.faces)
    local f = dd.faces[k]
    local sym = {}
    for _, s in ipairs(f) do sym[s] = (sym[s] or 0) + 1 end
    out[i] = { index = k, symbols = sym, label = table.concat(f, "+") }
  end
  E.note("roll", { die = name, faces = out })
  return out
end

--- How many times a symbol shows among rolled faces.
function D.count(faces, symbol)
  local n = 0
  for _, f in ipairs(faces) do n = n + (f.symbols[symbol] or 0) end
  return n
end

function D.labels(faces)
  local out = {}
  for i, f in ipairs(faces) do out[i] = f.label end
  return table.concat(out, ", ")
end
