-- Summoner Wars: how good a position is for one seat, from -1 (lost) to 1 (won).
--
-- Everything is counted in "magic" (the game's currency: what it costs to put a
-- card on the battlefield) for each side, and the seat's total minus the
-- opponent's is squashed to -1..1:
--   summoner   each life point left is worth LIFE; the last few points more (a
--              summoner low on life is one good attack from losing the game)
--   units      a base plus their strength and the life they have left
--   gates      where units are summoned: a base plus their life left
--   magic      1 each, half beyond MAGIC_CAP (more than a turn can spend)
--   cards      each card in hand HAND, and the seat's own (it sees them) KEEP of what
--              it would add on the battlefield over its cost (EVENT for an event), the
--              other's UNSEEN on top; each card left in the draw pile DECK. So a card
--              is discarded for magic when it is worth less than a magic, and a deck
--              spent to pile up magic is a loss (measured: bench/results/README.md)
--   threats    the expected hits the side's units could land on the other
--              summoner: in reach now, after a move, or farther (decaying)
--   inaction   the active player who has not yet targeted an enemy card this
--              turn is about to take the cost of inaction
--   attacks    until its attack phase is over, the active player's units that have
--              not attacked yet and have an enemy card in reach are about to: the
--              expected damage on their best target, valued as the target is
--   doomed     units an effect under way will destroy (state.vars.doomed, a list of
--              card ids: Purge's picks) count as gone already
-- The view is all it reads: a card's strength and life on the battlefield through
-- stat() (its modifiers as far as the seat knows them: a Frost Mage beside its
-- structures is stronger), the printed ones elsewhere; damage and boosts from tokens.

local LIFE = 1.6            -- a point of the summoner's life
local LOW_LIFE = 4          -- below this many points each point counts twice
local UNIT_BASE = 1.0
local UNIT_STRENGTH = 0.6
local UNIT_LIFE = 0.4
local GATE_BASE = 1.5
local GATE_LIFE = 0.25
local MAGIC = 1.0
local MAGIC_CAP = 10        -- magic beyond this counts MAGIC_OVER a point
local MAGIC_OVER = 0.5
local HAND = 0.6            -- a card in hand, whatever it is
local KEEP = 0.6            -- the seat's own: this share of what it adds on the battlefield over its cost
local EVENT = 0.5           -- the seat's own event, on top of HAND
local UNSEEN = 1.2          -- a card in the other's hand, on top of HAND
local DECK = 0.6            -- a card still in the draw pile
local THREAT = 0.8          -- per expected hit on the enemy summoner
local IMMINENT = 0.7        -- share of the active player's attacks still to come this turn
local SCALE = 14.0          -- a side's advantage of SCALE magic gives 0.5

local P_HIT = { melee = 5 / 6, ranged = 4 / 6 }   -- the battle die's faces

local function opt(name, fallback)
  local v = options and options[name]
  if type(v) == "table" then v = v.default end
  return tonumber(v) or fallback
end

local REACH = opt("ranged_reach", 3)
local INACTION = opt("inaction_damage", 1)
local ATTACKERS = opt("attackers", 3)

-- What a definition is, read once per definition.
local info = {}
local function info_of(id)
  local i = info[id]
  if i then return i end
  local d = defs[id] or {}
  i = { unit = false, summoner = false, structure = false, gate = false }
  for _, t in ipairs(d.tags or {}) do
    if i[t] ~= nil then i[t] = true end
  end
  i.strength = tonumber(d.strength) or 0
  i.life = tonumber(d.life) or 0
  i.cost = tonumber(d.cost) or 0
  i.move = tonumber(d.move) or 2
  i.attack = d.attack
  i.reach = tonumber(d.reach) or REACH
  i.p_hit = P_HIT[d.attack] or 0
  info[id] = i
  return i
end

local function summoner_value(left)
  if left <= 0 then return -100 end
  local v = LIFE * left
  if left < LOW_LIFE then v = v - LIFE * (LOW_LIFE - left) end
  return v
end

-- How much of a unit's attack reaches a target space (1 now, less later).
local function reach_factor(i, from, to)
  local d = board.distance(from, to)
  if d == nil or d == math.huge then return 0 end
  local range = 1
  if i.attack == "ranged" then
    range = i.reach
    local x1, y1 = board.xy(from)
    local x2, y2 = board.xy(to)
    if (x1 == x2 or y1 == y2) and d <= range then return 1 end
  elseif d <= 1 then
    return 1
  end
  if d <= range + i.move then return 0.5 end
  return 0.5 * (range + i.move) / d
end


-- What one point of damage on a card is worth to its controller's opponent.
local function damage_worth(i, left)
  if left < 1 then left = 1 end
  if i.summoner then
    if left <= LOW_LIFE then return 2 * LIFE end
    return LIFE
  elseif i.unit then
    return (UNIT_BASE + UNIT_STRENGTH * i.strength + UNIT_LIFE * left) / left
  elseif i.structure then
    return (GATE_BASE + GATE_LIFE * left) / left
  end
  return 0
end

local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }

-- A card's strength and life now: through its modifiers on the battlefield (stat gives
-- nil for a stat the card has not), as printed elsewhere.
local function strength_life(c, i)
  if c.zone ~= "board" then return i.strength, i.life end
  return stat(c, "strength") or i.strength, stat(c, "life") or i.life
end

-- The best expected gain of an attack by unit c (info i) now, for its controller p.
-- live: card id -> {strength, life} of the cards on the battlefield.
local function best_attack(c, i, p, at, live)
  local hits = (live[c.id][1] + ((c.tokens or {}).boost or 0)) * i.p_hit
  if hits <= 0 then return 0 end
  local best = 0
  local function consider(t)
    if t and t.controller ~= p then
      local j = info_of(t.def)
      local left = live[t.id][2] - ((t.tokens or {}).damage or 0)
      local h = hits
      if h > left then h = left end
      local g = h * damage_worth(j, left)
      if h >= left and not j.summoner then g = g + 1 end   -- the magic for the kill
      if g > best then best = g end
    end
  end
  local x, y = board.xy(c.space)
  if i.attack == "ranged" then
    for _, d in ipairs(DIRS) do
      for k = 1, i.reach do
        local s = board.space_at(x + d[1] * k, y + d[2] * k)
        if not s then break end
        local t = at[s]
        if t then consider(t); break end
      end
    end
  else
    for _, d in ipairs(DIRS) do
      local s = board.space_at(x + d[1], y + d[2])
      if s then consider(at[s]) end
    end
  end
  return best
end

function evaluate(view, seat)
  if view.over then
    if view.winner == seat then return 1 end
    if view.winner == nil then return 0 end
    return -1
  end
  local other = seat == 1 and 2 or 1
  for _, p in ipairs(view.players) do
    if p.seat ~= seat then other = p.seat end
  end

  local score = { [seat] = 0.0, [other] = 0.0 }
  local summoner_at = {}
  local at = {}               -- space -> card on it
  local live = {}             -- card id -> {strength, life}, for the cards on it
  local cards = view.cards     -- the cards to count: all but the doomed
  local doomed_ids = (view.vars or {}).doomed
  if doomed_ids and #doomed_ids > 0 then
    local doomed = {}
    for _, id in ipairs(doomed_ids) do doomed[id] = true end
    cards = {}
    for _, c in ipairs(view.cards) do
      if not doomed[c.id] then cards[#cards + 1] = c end
    end
  end
  -- material and life
  for _, c in ipairs(cards) do
    if c.zone == "board" and c.space then
      local i = info_of(c.def)
      local p = c.controller
      local tk = c.tokens or {}
      at[c.space] = c
      local strength, life = strength_life(c, i)
      live[c.id] = { strength, life }
      local left = life - (tk.damage or 0)
      if i.summoner then
        summoner_at[p] = c.space
        score[p] = score[p] + summoner_value(left)
      elseif i.unit then
        if left < 1 then left = 1 end
        score[p] = score[p] + UNIT_BASE + UNIT_STRENGTH * (strength + (tk.boost or 0)) + UNIT_LIFE * left
      elseif i.structure then
        if left < 1 then left = 1 end
        score[p] = score[p] + GATE_BASE + GATE_LIFE * left
      end
    end
  end
  -- a side without its summoner on the battlefield has lost
  if not summoner_at[seat] then return -1 end
  if not summoner_at[other] then return 1 end
  -- threats on the summoners
  for _, c in ipairs(cards) do
    if c.zone == "board" and c.space then
      local i = info_of(c.def)
      if i.unit and i.p_hit > 0 then
        local p = c.controller
        local target = summoner_at[p == seat and other or seat]
        local hits = (live[c.id][1] + ((c.tokens or {}).boost or 0)) * i.p_hit
        score[p] = score[p] + THREAT * hits * reach_factor(i, c.space, target)
      end
    end
  end
  -- resources
  local counters = view.counters or {}
  local zones = view.zones or {}
  for _, p in ipairs({ seat, other }) do
    local m = (counters[p] or {}).magic or 0
    if m > MAGIC_CAP then m = MAGIC_CAP + MAGIC_OVER * (m - MAGIC_CAP) end
    local hand = (zones["hand:" .. p] or {}).count or 0
    local deck = (zones["draw:" .. p] or {}).count or 0
    score[p] = score[p] + MAGIC * m + HAND * hand + DECK * deck
  end
  -- what the cards in hand could become: the seat's own by their kind, the other's unseen
  local own_hand = "hand:" .. seat
  for _, c in ipairs(view.cards) do
    if c.zone == own_hand then
      local i = info_of(c.def)
      local worth = EVENT
      if i.unit then
        worth = KEEP * (UNIT_BASE + UNIT_STRENGTH * i.strength + UNIT_LIFE * i.life - i.cost)
      elseif i.structure then
        worth = KEEP * (GATE_BASE + GATE_LIFE * i.life - i.cost)
      end
      if worth > 0 then score[seat] = score[seat] + worth end
    end
  end
  score[other] = score[other] + UNSEEN * ((zones["hand:" .. other] or {}).count or 0)
  -- the cost of inaction, about to be paid by the active player
  local a = view.active
  if view.phase == "attack" and INACTION > 0 and (a == seat or a == other) then
    local vars = view.vars or {}
    if not vars.targeted_enemy then score[a] = score[a] - LIFE * INACTION end
  end

  -- attacks still to come this turn for the active player
  local ph = view.phase
  if (ph == "summon" or ph == "move" or ph == "build" or ph == "attack") and (a == seat or a == other) then
    local vars = view.vars or {}
    local attacked = vars.attacked or {}
    local used = 0
    if ph == "attack" then for _ in pairs(attacked) do used = used + 1 end end
    local left = ATTACKERS - used
    if left > 0 then
      local g1, g2, g3 = 0, 0, 0     -- the best three gains
      for _, c in ipairs(cards) do
        if c.zone == "board" and c.space and c.controller == a and not (ph == "attack" and attacked[c.id]) then
          local i = info_of(c.def)
          if i.unit and i.p_hit > 0 then
            local g = best_attack(c, i, a, at, live)
            if g > g1 then g1, g2, g3 = g, g1, g2
            elseif g > g2 then g2, g3 = g, g2
            elseif g > g3 then g3 = g end
          end
        end
      end
      local sum = g1
      if left >= 2 then sum = sum + g2 end
      if left >= 3 then sum = sum + g3 end
      score[a] = score[a] + IMMINENT * sum
    end
  end

  local x = (score[seat] - score[other]) / SCALE
  return x / (1 + math.abs(x))
end
