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
--   hand     resource cards: the seat's own by kind (its army's primary resource most,
--            a kind its army never spends least), the others' only by count;
--   trades   a trade the seat is part of counts as what it expects from it: its own
--            side as promised (or, once it puts cards down, what lies in its offer
--            zone), the other side's promised cards weighed by how often that player
--            kept their word (state.vars.word, public); handing over less than
--            promised costs as a broken word does, and so does every broken word of
--            the seat's on the record (see trade_value below and the README).
-- The seat's score minus its strongest opponent's, squashed to -1..1 by x/(K+|x|).

local SCALE = 12           -- a lead of SCALE points is worth 0.5

local TOWER = 3            -- a tower held
local HOME = 4             -- the own domain tower held
local HOME_TAKEN = 3       -- another player stands on the own tower
local NEAR_GOAL = 5        -- the own tower and all but one of the others needed
local AT_GOAL = 14         -- the own tower and all the others needed
local CLAIMED = 10         -- ... and claimed at the end of the player's turn
local CARD = 0.5           -- a resource card in hand (of another player: the seat sees only a count)
local KIND_WORTH = { 0.75, 0.6, 0.45 }   -- the seat's own card of its army's primary, secondary, tertiary resource
local FOURTH = 0.2         -- ... of the resource its army spends on nothing (trading, transmuting)
local HAND_FULL = 5        -- cards past this many are worth 0.4 of themselves (the hand limit discards them)
local BROKEN = 6           -- a trade in which a player did not hand over what they promised
local BEFORE_DRAW = { deploy = true, trades = true, draw = true }   -- the steps of a turn before its draw
local FORMING = 0.05       -- the cost of starting a proposal (it uses the cap), so none is made for nothing
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

-- Resources and trades ------------------------------------------------------------

--- A hand of h cards whose kinds the seat cannot see (another player's).
local function count_value(h)
  return CARD * (h < HAND_FULL and h or HAND_FULL + 0.4 * (h - HAND_FULL))
end

--- What each resource card is worth to player p: by its place in p's army's resource
--- order (state.vars.resources, public), a kind the army does not use least.
local function kind_worths(vars, p)
  local order = vars.resources and vars.resources[p]
  if not order then return nil end
  local w = {}
  for _, k in ipairs(options.resource_kinds) do w[k] = FOURTH end
  for i, k in ipairs(order) do w[k] = KIND_WORTH[i] or FOURTH end
  return w
end

--- A hand's worth from its counts by kind: the best HAND_FULL cards in full, the rest less.
local function hand_value(counts, worth)
  local list = {}
  for k, n in next, counts do
    for _ = 1, n do list[#list + 1] = worth[k] or FOURTH end
  end
  table.sort(list, function(a, b) return a > b end)
  local v = 0
  for i, x in ipairs(list) do v = v + (i <= HAND_FULL and x or 0.4 * x) end
  return v
end

--- How far p may be trusted to hand over what they promise, from their public record:
--- 2/3 before any trade, nearer 1 the more often they kept their word.
local function trust(vars, p)
  local w = vars.word and vars.word[p]
  local kept, broken = w and w.kept or 0, w and w.broken or 0
  return (kept + 2) / (kept + broken + 3)
end

--- What an offer zone's cards cost in the word given: nothing when they are what was
--- promised; a share of a broken word for each promised card missing; a broken word
--- when anything else lies there (the record will say the promise was not kept).
local function offer_cost(put, kind, n)
  local right, wrong = 0, 0
  for _, k in ipairs(put) do
    if k == kind then right = right + 1 else wrong = wrong + 1 end
  end
  if wrong > 0 or right > n then return BROKEN end
  return BROKEN * (n - right) / n
end

local function copy_counts(c)
  local out = {}
  for k, n in next, c do out[k] = n end
  return out
end

--- The hand's worth expected from a deal: the seat gives `gn` of `give` (as promised,
--- or, when `put` is given, what it has put down: its hand already lacks those) and
--- gets `getn` of `get` if the other keeps their word (probability `tr`).
local function deal_value(counts, worth, give, gn, get, getn, tr, put)
  local c, cost = copy_counts(counts), 0
  if put then
    cost = offer_cost(put, give, gn)
  else
    local held = c[give] or 0
    local n = held < gn and held or gn
    c[give] = held - n
    if n < gn then cost = BROKEN * (gn - n) / gn end
  end
  local before = hand_value(c, worth)
  c[get] = (c[get] or 0) + getn
  return before + tr * (hand_value(c, worth) - before) - cost
end

--- How likely player q is to accept p's proposal (gn of give for wn of want), as the
--- seat can judge it: q's army (so what each kind is worth to q) and p's record are
--- public, so whether the deal pays q is known (counting cards at their worth alone);
--- q's hand is not, so only the chance that a hand of its size holds wn of the kind
--- asked for (each card one kind in four, as the deck is dealt): q refuses a promise
--- it could not keep.
local function acceptance(vars, view, p, q, give, gn, want, wn)
  local wq = kind_worths(vars, q)
  if not wq or trust(vars, p) * gn * wq[give] - wn * wq[want] <= 0 then return 0 end
  local z = view.zones and view.zones["hand:" .. q]
  local h = z and z.count or 0
  local none = 0.75 ^ h
  if wn == 1 then return 1 - none end
  return 1 - none - (h > 0 and h * 0.25 * 0.75 ^ (h - 1) or 0)
end

--- The seat's hand worth with vars.trade under way (the seat is one side of it).
--- While the seat forms a proposal: the best proposal still open, by what it would
--- bring times the chance that the other accepts (nothing, if none), less FORMING.
--- Asked: the proposal by that chance (the seat proposing), or the better of
--- accepting and refusing (the seat asked). Offers: the deal, the seat's own side as promised until it starts to
--- put cards down, then as they lie in its offer zone.
local function trade_value(view, vars, seat, counts, worth, put)
  local t = vars.trade
  local base = hand_value(counts, worth)
  local is_p = seat == t.p
  local other = is_p and t.q or t.p
  local tr = trust(vars, other)
  if t.stage == "forming" then
    if not is_p then return base end
    local best = 0
    local gives = t.give and { t.give } or options.resource_kinds
    for _, g in ipairs(gives) do
      local held = counts[g] or 0
      if held > 0 then
        local wants = t.want and { t.want } or options.resource_kinds
        for _, w in ipairs(wants) do
          if w ~= g then
            for gn = 1, held < 2 and held or 2 do
              for wn = 1, 2 do
                local a = acceptance(vars, view, seat, other, g, gn, w, wn)
                if a > 0 then
                  local v = a * (deal_value(counts, worth, g, gn, w, wn, tr) - base)
                  if v > best then best = v end
                end
              end
            end
          end
        end
      end
    end
    return base + best - FORMING
  end
  local give, gn, get, getn = t.give, t.gn, t.want, t.wn
  if not is_p then give, gn, get, getn = t.want, t.wn, t.give, t.gn end
  if t.stage == "asked" then
    local v = deal_value(counts, worth, give, gn, get, getn, tr)
    if is_p then
      return base + acceptance(vars, view, seat, other, give, gn, get, getn) * (v - base)
    end
    return v > base and v or base
  end
  local side = is_p and "p" or "q"
  local started = t.putting == side or t[side .. "_done"]
  return deal_value(counts, worth, give, gn, get, getn, tr, started and put or nil)
end

--- The seat's own resource cards (it sees their kinds), with a trade it is part of.
local function own_hand(view, vars, seat, worth)
  local counts, put = {}, {}
  local in_hand, in_offer = "hand:" .. seat, "offer:" .. seat
  for _, c in ipairs(view.cards) do
    if c.zone == in_hand then counts[c.def] = (counts[c.def] or 0) + 1
    elseif c.zone == in_offer then put[#put + 1] = c.def end
  end
  local t = vars.trade
  if t and (t.p == seat or t.q == seat) then return trade_value(view, vars, seat, counts, worth, put) end
  return hand_value(counts, worth)
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
    local worth = p == seat and kind_worths(vars, p)
    if worth then
      score[p] = score[p] + own_hand(view, vars, seat, worth)
    else
      score[p] = score[p] + count_value(h)
    end
    -- the cards p will draw count already, in proportion to how near p's draw step is
    -- (all of them just before it, none just after it): so every player gains as much
    -- at every turn's end, and a choice that leads on into the next turn (refusing a
    -- trade, say) looks no better than one that does not for the cards drawn there
    local k = (p - (view.active or p)) % n     -- turns until p's own
    if k == 0 and not BEFORE_DRAW[view.phase] then k = n end
    local taken = holder[home[p]] ~= nil and holder[home[p]] ~= p
    local d = (taken and options.disrupted_draw or options.draw) * (n - k) / n
    score[p] = score[p] + count_value(h + d) - count_value(h)
    -- the seat's own broken words cost it (the others' show in how far it trusts them:
    -- counted against them too, a world sampled for the seat in which the other side
    -- of a trade happened to hand over other cards would look good for the seat)
    local word = p == seat and vars.word and vars.word[p]
    if word then score[p] = score[p] - BROKEN * word.broken end
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
