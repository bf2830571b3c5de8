-- Summonaria: how good a position is for a seat, from what that seat may see.
--
-- Each player gets a score in "unit points":
--   goal     towers held (the player's own domain tower most), and a large step as
--            the Spell of Focusing comes within reach: the own tower plus one fewer
--            other than needed, all that is needed, a claim standing since the end
--            of the player's turn (a win at their next turn unless they are driven off);
--            another player on the own tower (focus disrupted, the goal blocked) costs;
--   units    each unit on the board by what it can do (expected hits of its exploding
--            d10s, hits left, move, range, flying, charge, guard, regeneration, a
--            blessing), a little more for standing on a standing tower; a unit being
--            summoned counts nearly as much, or nothing when its portal is taken;
--   position a unit near a tower its side does not hold, enemy units near the own tower;
--   hand     resource cards, a little each (the others' hands are only a count).
-- The seat's score minus its strongest opponent's, squashed to -1..1 by x/(K+|x|).

local SCALE = 12           -- a lead of SCALE points is worth 0.5

local TOWER = 3            -- a tower held
local HOME = 4             -- the own domain tower held
local HOME_TAKEN = 3       -- another player stands on the own tower
local NEAR_GOAL = 5        -- the own tower and all but one of the others needed
local AT_GOAL = 14         -- the own tower and all the others needed
local CLAIMED = 10         -- ... and claimed at the end of the player's turn
local CARD = 0.5           -- a resource card in hand
local SUMMONING = 0.9      -- a unit being summoned, of its worth on the board
local ON_PORTAL = 0.5      -- a unit of the player's own on their portal blocks summoning
local APPROACH = 0.8       -- a unit next to a tower its side does not hold (less further off)
local THREAT = 0.6         -- an enemy unit next to (or on the way to) the own tower

local abs, max, min = math.abs, math.max, math.min

-- expected hits of n exploding d10s hitting on 1-2: 0.2 n / 0.8^n
local EXPECTED = {}
for n = 0, 12 do EXPECTED[n] = 0.2 * n / (0.8 ^ n) end
local function expected(n)
  if n <= 0 then return 0 end
  return EXPECTED[n] or EXPECTED[12]
end

local worth_cache = {}   -- def id -> worth of the unit unhurt (definitions never change)

local function base_worth(id)
  local w = worth_cache[id]
  if w then return w end
  local d = defs[id]
  w = 1.6 * expected(d.attack or 0) + 0.25 * (d.move or 0)
  if d.range then w = w + 0.4 + 0.2 * d.range end
  if d.flying then w = w + 0.4 end
  if d.charge then w = w + 0.3 end
  if d.guard then w = w + 0.3 end
  if d.regenerate then w = w + 0.5 * d.regenerate end
  worth_cache[id] = w
  return w
end

local function unit_worth(c)
  local d = defs[c.def]
  local tk = c.tokens or {}
  local hits = d.hits or 1
  local left = hits - (tk.wound or 0) + (tk.blessing or 0)
  if left < 0 then left = 0 end
  -- a unit's fighting power falls with its hits left, a little
  return base_worth(c.def) * (0.6 + 0.4 * left / hits) + left
end

local function is_unit(d)
  local tags = d and d.tags
  if not tags then return false end
  for i = 1, #tags do
    if tags[i] == "unit" then return true end
  end
  return false
end

function evaluate(view, seat)
  local n = #view.players
  local domains = options["domains_" .. n]
  local need = n == 4 and options.towers_to_win_4p or options.towers_to_win
  local vars = view.vars or {}
  local towers = vars.towers or {}
  local claims = vars.claims or {}
  local spaces = view.spaces or {}
  local zones = view.zones or {}

  local home, portal = {}, {}
  for p = 1, n do
    local info = board.region_info(domains[p])
    home[p], portal[p] = info.tower, info.portal
  end

  -- who stands where: card by id, for the towers
  local by_id = {}
  for _, c in ipairs(view.cards) do
    if c.zone == "board" then by_id[c.id] = c end
  end

  local score, held, own_home = {}, {}, {}
  for p = 1, n do score[p], held[p], own_home[p] = 0, 0, false end
  local holder = {}   -- tower space -> player holding it
  local tower_list = {}
  for s in next, towers do tower_list[#tower_list + 1] = s end
  table.sort(tower_list)
  for _, s in ipairs(tower_list) do
    local id = spaces[s]
    local c = id and by_id[id]
    if c then
      local p = c.controller
      holder[s] = p
      if score[p] then
        if s == home[p] then own_home[p] = true else held[p] = held[p] + 1 end
      end
    end
  end

  -- units on the board
  for _, c in ipairs(view.cards) do
    local p = c.controller
    if score[p] and c.space and c.zone == "board" and is_unit(defs[c.def]) then
      local w = unit_worth(c)
      local s = c.space
      if towers[s] == "standing" then w = w + 0.5 end
      if s == portal[p] then w = w - ON_PORTAL end
      -- the nearest tower its side does not hold
      local best = 99
      for _, t in ipairs(tower_list) do
        if holder[t] ~= p then
          local dd = board.distance(s, t)
          if dd < best then best = dd end
        end
      end
      if best < 99 then
        local reach = (defs[c.def].move or 1) + 1
        if best <= reach then w = w + APPROACH * (1 - 0.5 * (best - 1) / reach) end
      end
      -- an enemy near someone else's home tower threatens it
      for q = 1, n do
        if q ~= p and home[q] ~= s then
          local dd = board.distance(s, home[q])
          if dd <= 2 then score[q] = score[q] - THREAT * (dd == 1 and 1 or 0.5) end
        end
      end
      score[p] = score[p] + w
    end
  end

  for p = 1, n do
    -- the unit being summoned: it arrives at the end of the turn unless the portal is
    -- taken then (so in the move step a unit still on the portal puts it at risk)
    local z = zones["summoning:" .. p]
    if z and z.cards and z.cards[1] then
      local taken = spaces[portal[p]] ~= nil and view.phase == "move"
      for _, id in ipairs(z.cards) do
        for _, c in ipairs(view.cards) do
          if c.id == id then
            score[p] = score[p] + (taken and SUMMONING - 0.6 or SUMMONING) * unit_worth(c)
            break
          end
        end
      end
    end
    local hand = zones["hand:" .. p]
    -- the hand limit makes cards past a few worth less (they would be discarded)
    local h = hand and hand.count or 0
    score[p] = score[p] + CARD * (h < 5 and h or 5 + 0.4 * (h - 5))
    -- towers and the goal
    score[p] = score[p] + TOWER * held[p]
    if own_home[p] then
      score[p] = score[p] + HOME
      if held[p] >= need then
        score[p] = score[p] + AT_GOAL
        if claims[p] then score[p] = score[p] + CLAIMED end
      elseif held[p] == need - 1 then
        score[p] = score[p] + NEAR_GOAL
      end
    else
      local h = holder[home[p]]
      if h and h ~= p then score[p] = score[p] - HOME_TAKEN end
      if held[p] >= need then score[p] = score[p] + NEAR_GOAL * 0.5 end
    end
  end

  local mine, best_other = score[seat], nil
  for p = 1, n do
    if p ~= seat and (best_other == nil or score[p] > best_other) then best_other = score[p] end
  end
  if best_other == nil then return 0 end
  local x = mine - best_other
  return x / (SCALE + abs(x))
end
