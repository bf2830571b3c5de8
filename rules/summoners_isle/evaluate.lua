-- Summoner's Isle: how good a position is for one seat, from -1 (lost) to 1 (won).
--
-- Every player gets a score in energy, the game's only measure of success:
--   energy     what the next energy phase will leave: the track's modifier applied
--              to the energy now (low totals gain, high ones lose), then the income
--              the board promises (Sprites alone in their territory, territories
--              held whole) -- unless that phase is already under way
--   creatures  a creature on the isle stays there for the rounds to come: part of its
--              cost while rounds remain, nothing after the last one
--   threats    creatures still to act next to another player's creature may remove
--              it: the chance of a successful attack times the bounty it earns (and
--              the creature the other player loses)
--   the 36     in the middle of a round a total near the winning energy can win at
--              once with a removal, before the track takes its cut
-- The seat is judged against its strongest opponent, and the gap counts for more
-- as the rounds run out.

local CREATURE_KEEP = 0.8   -- share of a creature's cost it is worth while 2+ rounds remain
local CREATURE_LAST = 0.4   -- ... while one round remains after this one
local INCOME_EARLY = 0.8    -- share of the promised income counted before the actions phase
local THREAT = 0.6          -- weight of the expected gain from attacks still to come
local NEAR_WIN = 0.5        -- per energy above NEAR_FROM in the middle of a round
local NEAR_FROM = 29
local SCALE_START = 7.0     -- energy gap that gives 0.5 in round 1 ...
local SCALE_END = 4.0       -- ... and after the last round

local function opt(name, fallback)
  local v = options and options[name]
  if type(v) == "table" and v.default ~= nil then v = v.default end
  if v == nil then return fallback end
  return v
end

local WIN = tonumber(opt("winning_energy", 36)) or 36
local ROUNDS = tonumber(opt("rounds", 6)) or 6
local EXTRA = opt("extra_round", false) == true
local EXTRA_MIN = tonumber(opt("extra_round_min_players", 3)) or 3

local TRACK = {}            -- energy -> the track's modifier, for 0 .. WIN + 10
do
  local bands = options and options.energy_track or {}
  for e = 0, WIN + 10 do
    local m = 0
    for _, b in ipairs(bands) do
      if e >= b.from and e <= b.to then m = b.change; break end
    end
    TRACK[e] = m
  end
end

local function after_track(e)
  local m = TRACK[e]
  if m == nil then m = 0 end
  local r = e + m
  if r < 0 then r = 0 end
  return r
end

-- P(d6 + a >= d6 + k), indexed by a - k: an attack on a Sprite, which rolls for defence.
local VS_ROLL = {}
for diff = -7, 7 do
  local n = 0
  for x = 1, 6 do
    for y = 1, 6 do
      if x + diff >= y then n = n + 1 end
    end
  end
  VS_ROLL[diff] = n / 36
end

local function vs_fixed(a, d)
  local p = (7 - (d - a)) / 6
  if p < 0 then return 0 elseif p > 1 then return 1 end
  return p
end

-- Creature definitions, read once.
local info = {}
local function info_of(id)
  local i = info[id]
  if i ~= nil then return i end
  local d = defs[id] or {}
  local creature = false
  for _, t in ipairs(d.tags or {}) do
    if t == "creature" then creature = true end
  end
  if not creature then
    info[id] = false
    return false
  end
  i = {
    cost = tonumber(d.cost) or 0,
    actions = tonumber(d.actions) or 0,
    attack = tonumber(d.attack) or 0,
    defence = tonumber(d.defence) or 0,
    rolls = d.defence_die ~= nil,
    per_kin = tonumber(d.defence_per_kin) or 0,
    bounty = tonumber(d.bounty) or 0,
    lone = tonumber(d.uncontested_energy) or 0,
  }
  info[id] = i
  return i
end

-- The map for a number of players: territories (name, bonus, locations) and the
-- territory of each location. Built once per player count.
local maps = {}
local function map_for(n)
  local m = maps[n]
  if m then return m end
  m = { territories = {}, territory = {} }
  for _, t in ipairs(board.regions()) do   -- (the board holds the regions of n players only)
    local r = board.region_info(t)
    if r.bonus then
      local spaces = board.spaces_in(t)
      m.territories[#m.territories + 1] = { name = t, bonus = tonumber(r.bonus) or 0, spaces = spaces }
      for _, s in ipairs(spaces) do m.territory[s] = t end
    end
  end
  maps[n] = m
  return m
end

function evaluate(view, seat)
  if view.over then
    if view.winner == seat then return 1 end
    if view.winner == nil then return 0 end
    return -1
  end
  local players = view.players
  local n = #players
  local map = map_for(n)
  local last = ROUNDS
  if EXTRA and n >= EXTRA_MIN then last = last + 1 end
  local round = view.round or 1
  if round < 1 then round = 1 end
  local phase = view.phase
  local energy_phase = phase == "energy"
  local after_this = last - round          -- rounds still to come after this one
  local keep = 0
  if after_this >= 2 then keep = CREATURE_KEEP elseif after_this == 1 then keep = CREATURE_LAST end
  if energy_phase then
    -- the creatures have done what they will do this round
    if after_this >= 1 then keep = CREATURE_KEEP * 0.5 + keep * 0.5 else keep = 0 end
  end

  -- who holds each location, and per territory: how many creatures of each player
  local at = {}               -- space -> card
  local terr_players = {}     -- territory -> {player -> count}
  local sprites_in = {}       -- territory -> {player -> Sprites}
  local score = {}
  for _, p in ipairs(players) do score[p.seat] = 0.0 end
  local cards = view.cards
  for _, c in ipairs(cards) do
    if c.zone == "board" and c.space then
      local i = info_of(c.def)
      local t = i and map.territory[c.space]
      if t then
        at[c.space] = c
        local p = c.controller
        local tp = terr_players[t]
        if not tp then tp = {}; terr_players[t] = tp end
        tp[p] = (tp[p] or 0) + 1
        if i.rolls then
          local sp = sprites_in[t]
          if not sp then sp = {}; sprites_in[t] = sp end
          sp[p] = (sp[p] or 0) + 1
        end
        if score[p] then score[p] = score[p] + keep * i.cost end
      end
    end
  end

  -- income the board promises: lone Sprites and whole territories
  local income = {}
  for _, p in ipairs(players) do income[p.seat] = 0 end
  if not energy_phase then
    for _, terr in ipairs(map.territories) do
      local tp = terr_players[terr.name]
      if tp then
        local only, count = nil, 0
        for _, p in ipairs(players) do
          if tp[p.seat] then only = p.seat; count = count + 1 end
        end
        if count == 1 then
          local sp = sprites_in[terr.name]
          if sp and sp[only] then income[only] = income[only] + sp[only] end
          if tp[only] == #terr.spaces then income[only] = income[only] + terr.bonus end
        end
      end
    end
  end

  -- attacks still to come: each creature yet to act takes its best chance
  local threat = {}
  for _, p in ipairs(players) do threat[p.seat] = 0 end
  if phase == "summoning" or phase == "actions" then
    for _, c in ipairs(cards) do
      local s = c.space
      if c.zone == "board" and s and at[s] == c and not ((c.tokens or {}).inactive) then
        local i = info_of(c.def)
        local best = 0
        for _, o in ipairs(board.neighbors(s)) do
          local e = at[o]
          if e and e.controller ~= c.controller then
            local j = info_of(e.def)
            local p
            if j.rolls then
              local kin = (sprites_in[map.territory[o]] or {})[e.controller] or 1
              local diff = i.attack - (kin - 1) * j.per_kin
              if diff < -7 then diff = -7 elseif diff > 7 then diff = 7 end
              p = VS_ROLL[diff]
            else
              p = vs_fixed(i.attack, j.defence)
            end
            local gain = p * (j.bounty + keep * j.cost)
            if gain > best then best = gain end
          end
        end
        if best > 0 then
          -- more actions, more tries (at most two counted)
          local tries = i.actions >= 2 and 1.5 or 1
          local p = c.controller
          if threat[p] then threat[p] = threat[p] + THREAT * tries * best end
        end
      end
    end
  end

  local counters = view.counters or {}
  local early = phase == "summoning" and INCOME_EARLY or 1
  for _, pl in ipairs(players) do
    local p = pl.seat
    local e = (counters[p] or {}).energy or 0
    local v
    if energy_phase then
      v = e
    else
      v = after_track(e) + early * income[p]
      if e > NEAR_FROM then v = v + NEAR_WIN * (e - NEAR_FROM) end
      if e >= WIN then v = v + 10 end
    end
    score[p] = score[p] + v + threat[p]
  end

  local mine, best = score[seat] or 0, -math.huge
  for _, pl in ipairs(players) do
    if pl.seat ~= seat and score[pl.seat] > best then best = score[pl.seat] end
  end
  if best == -math.huge then return 0 end
  local progress = (round - 1) / last
  if energy_phase then progress = round / last end
  if progress > 1 then progress = 1 end
  local scale = SCALE_START + (SCALE_END - SCALE_START) * progress
  local x = (mine - best) / scale
  return x / (1 + math.abs(x))
end
