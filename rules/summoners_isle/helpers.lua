-- Summoner's Isle: the rulebook's words as functions (the map in play, creatures,
-- energy, turn order) that the setup and the phases share.

-- The map in play ------------------------------------------------------------------

-- Built on first use from the board, which holds the regions of this number of players
-- only (never stored in the state: it follows from the game definition and the seats).
local map = nil

local function the_map()
  if map then return map end
  map = { territories = {}, locations = {}, is_location = {}, locations_of = {} }
  for _, t in ipairs(board.regions()) do
    if board.region_info(t).bonus then
      map.territories[#map.territories + 1] = t
      map.locations_of[t] = board.spaces_in(t)
      for _, s in ipairs(map.locations_of[t]) do map.is_location[s] = true end
    end
  end
  for _, s in ipairs(board.spaces()) do
    if map.is_location[s] then map.locations[#map.locations + 1] = s end
  end
  return map
end

--- Whether a space is a summoning location of the map in play.
function is_location(s) return the_map().is_location[s] == true end

--- The territories of the map in play, by name.
function territories() return the_map().territories end

--- The summoning locations of a territory.
function locations_in(t) return the_map().locations_of[t] end

--- Every summoning location of the map in play, in board order.
function all_locations() return the_map().locations end

function territory_of(s) return board.region(s) end

function territory_bonus(t) return board.region_info(t).bonus end

function is_vacant(s) return is_location(s) and board.is_empty(s) end

function vacant_locations()
  local out = {}
  for _, s in ipairs(the_map().locations) do
    if board.is_empty(s) then out[#out + 1] = s end
  end
  return out
end

--- Whether any location is vacant (#vacant_locations() > 0, without making the list).
function any_vacant_location()
  for _, s in ipairs(the_map().locations) do
    if board.is_empty(s) then return true end
  end
  return false
end

-- Creatures -------------------------------------------------------------------------

function def_of(c) return cards.def(c) end

--- A creature kind's name, plural ("Sprites").
function kinds(kind) return defs[kind].name .. "s" end

function is_creature(c) return cards.has_tag(c, "creature") end

--- A player's creatures on the isle, of one kind if given, in board order.
function creatures_of(p, kind)
  return cards.on_board(function(c)
    return c.controller == p and (c.def == kind or (kind == nil and is_creature(c)))
  end)
end

--- The first creature of a kind in a player's pool, or nil.
function in_pool(p, kind)
  for _, c in ipairs(zones.cards(p, "pool")) do
    if c.def == kind then return c end
  end
  return nil
end

function pool_count(p, kind)
  local n = 0
  for _, c in ipairs(zones.cards(p, "pool")) do
    if c.def == kind then n = n + 1 end
  end
  return n
end

--- Face-down (inactive) creatures have finished their activation this round.
function is_face_down(c) return tokens.get(c, "inactive") > 0 end

function flip_face_down(c)
  if not is_face_down(c) then tokens.add(c, "inactive", 1) end
end

function flip_face_up(c) tokens.remove(c, "inactive") end

function describe_creature(c)
  return string.format("%s (P%d) at %s", c.name, c.controller, c.space)
end

--- Takes a creature off the isle: it goes back to its owner, usable from next round.
function remove_creature(c)
  tokens.clear(c)
  cards.to_zone(c, c.owner, "removed")
end

--- Puts a creature from a player's pool on a location (for setting up positions).
function put(p, kind, space)
  local c = in_pool(p, kind)
  if not c then error("player " .. p .. " has no " .. kind .. " in their pool") end
  cards.place(c, space)
  return c
end

-- Energy ------------------------------------------------------------------------------

function energy(p) return counters.get(p, "energy") end

function spend(p, n)
  if n > 0 then counters.spend(p, "energy", n) end
end

--- Adds energy (n may be negative). Reaching the winning energy wins at once.
function gain(p, n, why)
  if n == 0 then return end
  local before = energy(p)
  local got = counters.add(p, "energy", n) - before
  say(string.format("Player %d %s %d energy%s (now %d)", p, got >= 0 and "gains" or "loses",
                    math.abs(got), why and (" " .. why) or "", energy(p)))
  if energy(p) >= options.winning_energy then
    win(p, string.format("Player %d reaches %d energy and becomes the Summoner", p, energy(p)))
  end
end

-- Turn order -----------------------------------------------------------------------------

local tracks = {}   -- number of players -> the track's spaces (the board never changes)

--- The spaces of the Turn Order track in use, first to last (one list, kept: read it,
--- do not change it).
function turn_track()
  local n = players.count()
  local out = tracks[n]
  if out then return out end
  out = board.spaces_in(options.turn_order_track)
  if #out < n then
    error("the Turn Order track (region " .. tostring(options.turn_order_track) .. ") has " .. #out ..
          " spaces for " .. n .. " players")
  end
  for i = #out, n + 1, -1 do out[i] = nil end
  tracks[n] = out
  return out
end

--- Players in this round's turn order: the counters on the Turn Order track, first to last.
function turn_order()
  local out = {}
  for _, s in ipairs(turn_track()) do
    local c = board.card_at(s)
    if c then out[#out + 1] = c.controller end
  end
  return out
end

--- Puts each player's Turn Order counter on the track in the order given (a list of
--- players, first to last); the counters are made the first time (at setup).
function set_turn_order(order)
  state.active = order[1]   -- the player first in the round: the engine's active player (a rounds game's rules keep it)
  local track = turn_track()
  for i, p in ipairs(order) do
    local marker = cards.on_board(function(c) return c.def == "turn_counter" and c.controller == p end)[1]
      or cards.create("turn_counter", p)
    if marker.space ~= track[i] then
      local other = board.card_at(track[i])
      if other then cards.swap(marker, other) else cards.place(marker, track[i]) end
    end
  end
end

function order_text(order)
  local parts = {}
  for i, p in ipairs(order) do parts[i] = "P" .. p end
  return table.concat(parts, ", ")
end

--- The number of rounds in this game: six, or seven by agreement with 3+ players.
function last_round()
  local n = options.rounds
  if options.extra_round and players.count() >= options.extra_round_min_players then n = n + 1 end
  return n
end

--- The number on a rolled die of a kind.
function roll(die)
  local face = dice.roll(die, 1)[1]
  return tonumber(face.label), face
end
