-- Summoner TCG: how good a position is for a seat, from what that seat may see.
--
-- Each player still in gets a score in "Stamina points":
--   life   Stamina, one for one plus a concave curve: the last points before 0 weigh
--          more than the fiftieth, and Stamina (which is also what cards cost) is
--          never cheap, so priming is a choice;
--   field  revealed Summons by their Strength and Defense as they stand (base
--          stats from the definitions, plus the Plane in play, attached Equipment,
--          Pack Howler, Iron Drummer, Tide Wisp and this turn's boosts), unattached
--          Equipment and a Plane in play a little, primed cards at what they will
--          be once revealed (our own, which we see) or, the others', at what they
--          likely cost: what the public ledger says the player paid, less the cost
--          of their cards in sight, shared among their unseen primed cards;
--   hand   a flat amount a card (others' hands are only a count);
--   battle the likely damage of the next battle, taken off the attacked player's
--          Stamina before the life curve: the active player's while it is to come
--          (with its primed Summons too in the reveal step) or under way (the
--          declared attacks, public in state.vars.attacks); once it is over, or when
--          the active player has nothing to fight with, the next player's, its primed
--          cards included. So a position reads much the same just before and after
--          a turn ends, and a search cut at "End turn" is not misjudged (issue 16);
--   danger what the others' Summons (revealed, primed, unseen) and hands could deal
--          before the player can answer, against their Stamina; the threats of the
--          player whose battle is counted above count LATER (1: in full).
-- The seat's score minus its strongest opponent's, squashed to -1..1 by x/(K+|x|).
-- Out (Stamina 0 or an empty deck) is -1; the last one standing is 1.

local SCALE = 40          -- a lead of SCALE points is worth 0.5

local STR, DEF, BODY = 1.3, 0.6, 3.0    -- a revealed Summon: STR*S + DEF*D + BODY
local PRIMED_OWN = 0.9    -- a primed card of our own: this share of its revealed worth
local PRIMED_OTHER = 1.4  -- someone else's primed card, unseen: this much a point of its likely cost
local UNSEEN_COST = 6     -- (a primed card's cost when the ledger cannot tell)
local HAND = 3            -- a card in hand, up to HAND_FULL cards
local HAND_FULL, HAND_PAST = 5, 3     -- each card past HAND_FULL is worth HAND_PAST (0.5 in
                                      -- the seventh round's variants)
local INCOME = 1.4        -- what a point of income is worth (taken off again: see below)
local LOOSE_EQUIPMENT = 2 -- a revealed Equipment not attached (it can be later)
local UNSEEN_THREAT = 0.7 -- the Strength an unseen primed card may bring to the next battle, a point of cost
local DANGER = 30         -- the others' Summons could bring the player to 0 next turn
local DANGER_CAP = 2      -- (threat / Stamina, counted up to this)
local LATER = 1.0         -- the weight of the threats of the player whose battle is counted
                          -- (0.6 until issue 16's second round, 0.45 until issue 14's
                          -- third round, 0.4 until its twenty-second: below 1 a battle
                          -- called off looked better than a free kill; see the README)
local HAND_THREAT = 12    -- what an opponent's hand may deal without a battle (Quick Strike...)
local PLANE_HELD = 1      -- owning the Plane in play (its effect is in the stats)
local BATTLE = 0.8        -- the share of a battle's likely damage counted before it is dealt
-- Switches for the variants of issue 14's seventh round (the game's README): each off is
-- the evaluation as shipped; tests/test_eval_summoner_tcg.py turns them on in a copy.
-- FOG and SAMPLE_BY_COST are on (the ninth and eighth rounds).
local FOG = true            -- a primed Fog Wall of the attacked player calls the next battle off
local GUARD_BLOCKS = false  -- a primed Sudden Guard lets its owner's primed Summons block in it
local PRIMED_BLOCKS = false -- our own primed Summons block the attacks after they can be revealed
local SAMPLE_BY_COST = true  -- a bot's sample deals a primed card only cards of the cost paid
local PRIMED_MAX = false    -- an unseen primed card threatens the Strength of the strongest
                            -- Summon of the cost paid (its mark), not UNSEEN_THREAT a point
local DOOMED = 0.8        -- the share of a Summon's worth lost to a declared attack that beats it
-- BURN_COUNT (issue 14's tenth round): a hand threatens the damage cards its player's
-- deck list still holds unseen (each as likely in the hand as anywhere among their
-- unseen cards), times BURN_WEIGHT, instead of a flat HAND_THREAT; the seat's own hand
-- counts as it is. Deck lists are public (the card sets; the samples assume it too).
local BURN_COUNT = false
local BURN_WEIGHT = 2
-- Damage a card deals from the hand without a battle, in the order summed: a flat
-- amount, or `each` a revealed Summon of the tag its Consume sacrifices.
local BURN = { { id = "quick_strike", damage = 5 }, { id = "feeding_frenzy", each = 5, tag = "beast" } }
-- BREAK (issue 14's tenth round): in the battle term, a blocked attack that beats its
-- blocker's Defense costs the blocker (else a blocked attack counts nothing), so Strength
-- that beats the other side's walls is seen to be worth more than Strength that does not.
local BREAK = false
-- OTHERS_DANGER (issue 14's tenth round): the share of the danger term counted for the
-- seat's opponents (1: the same as its own; below, the seat fears for itself more than
-- it values threatening the others).
local OTHERS_DANGER = 1

-- What a Gambit is worth primed, waiting for its window (a share of its effect).
local GAMBIT = {
  quick_strike = 4.5, ambush = 5, fog_wall = 4, parting_curse = 3.5, rally_cry = 2.5,
  feeding_frenzy = 2, shatter = 2, unmask = 0.5, recall = 1, sudden_guard = 2,
}
-- Equipment and Planes, primed: roughly what they add once revealed.
local EQUIPMENT = { flame_blade = 5, stone_plating = 4, war_banner = 4.5, rusted_shackles = 3.5,
                    brittle_charm = 3 }
local PLANE = 2

local abs = math.abs

-- Stamina is both what cards cost and the life a player loses with: a point is worth
-- at least LIFE_LINEAR Summon points, more as the total runs low.
local LIFE_LINEAR = 1.0
local HOARD, HOARD_RATE = 50, 0.5   -- Stamina above HOARD is worth HOARD_RATE a point as life
local log = math.log
local function life(s)
  if s <= 0 then return -1000 end
  local spare = s - HOARD
  if spare > 0 then s = HOARD + HOARD_RATE * spare end
  return LIFE_LINEAR * s + 25 * log(1 + s / 10)
end

local function has(def, tag)
  local tags = def and def.tags
  if not tags then return false end
  for i = 1, #tags do
    if tags[i] == tag then return true end
  end
  return false
end

-- Whether a card of definition def could be a primed card with this mark: its cost,
-- under the Plane that was revealed when it was primed, is what was paid, and it is a
-- Plane if its priming destroyed the Plane in play, and no Plane if it was primed beside
-- one and destroyed nothing (`kind`; the mark set by prime in phases.lua). As the file's
-- fits(mark, def), a bot's sample deals primed cards only identities that fit (SAMPLE_BY_COST).
local function fits_by_cost(mark, def)
  if type(mark) ~= "table" or def == nil then return true end
  if (mark.kind == "plane") ~= has(def, "plane") and mark.kind ~= nil then return false end
  local cost = def.cost or 0
  if mark.plane == "stone_age" and has(def, "golem") then cost = math.max(0, cost - 4) end
  return cost == mark.paid
end

-- The most Strength a Summon that fits a primed card's mark has (0 when none fits),
-- worked out once per mark: what a careful player fears the card may be.
local strongest = {}
local function strongest_fit(mark)
  local key = tostring(mark.paid) .. "/" .. tostring(mark.plane) .. "/" .. tostring(mark.kind)
  local most = strongest[key]
  if most == nil then
    most = 0
    for _, d in pairs(defs) do
      if has(d, "summon") and fits_by_cost(mark, d) and (d.strength or 0) > most then most = d.strength end
    end
    strongest[key] = most
  end
  return most
end

local function controller_of(c)
  return c.controller or c.owner
end

-- A set's deck list as copies by card id, worked out once per set.
local deck_lists = {}
local function deck_list(set_id)
  if set_id == nil or sets == nil then return nil end
  local list = deck_lists[set_id]
  if list == nil then
    list = {}
    local set = sets[set_id]
    local deck = set and set.deck
    if deck then
      for _, e in ipairs(deck) do list[e.card] = (list[e.card] or 0) + (e.copies or 1) end
    end
    deck_lists[set_id] = list
  end
  return list
end

-- Whether a zone key begins with a prefix ("field:1" with "field:"), kept by key: the
-- evaluation asks it of every card, and a table lookup is cheaper than a string.sub.
local on_field_key, in_graveyard_key = {}, {}
local function prefixed(memo, z, prefix)
  local v = memo[z]
  if v == nil then
    v = z:sub(1, #prefix) == prefix
    memo[z] = v
  end
  return v
end

function evaluate(view, seat)
  local cards = view.cards
  local vars = view.vars or {}
  local out = vars.out or {}
  local nplayers = #view.players

  -- first pass: the Plane in play, Equipment on hosts, Beasts and Drummers by player
  local plane, plane_owner = nil, nil
  local eq_s, eq_d = {}, {}          -- host id -> Strength, Defense from Equipment
  local beasts, drummers = {}, {}    -- player -> revealed Beasts, revealed Iron Drummers
  local tagged = {}                  -- player -> tag -> their revealed Summons with it
  for _, c in ipairs(cards) do
    local z = c.zone
    -- (a Plane turned face down after its reveal goes on acting: its `shown` token says so)
    if (not c.face_down or (c.tokens and (c.tokens.shown or 0) > 0)) and z and prefixed(on_field_key, z, "field:") then
      local d = defs[c.def]
      if d then
        local p = controller_of(c)
        if has(d, "plane") then
          plane, plane_owner = c.def, c.owner
        elseif has(d, "equipment") then
          local host = c.tokens and c.tokens.host
          if host and host ~= 0 then
            local s, df = 0, 0
            if c.def == "flame_blade" then s = 10
            elseif c.def == "stone_plating" then df = 10
            elseif c.def == "rusted_shackles" then s = -10
            elseif c.def == "brittle_charm" then df = -10
            elseif c.def == "war_banner" then s, df = 5, 5 end
            eq_s[host] = (eq_s[host] or 0) + s
            eq_d[host] = (eq_d[host] or 0) + df
          end
        elseif has(d, "summon") then
          if has(d, "beast") then beasts[p] = (beasts[p] or 0) + 1 end
          if BURN_COUNT then
            local by = tagged[p] or {}
            tagged[p] = by
            for _, t in ipairs(d.tags) do by[t] = (by[t] or 0) + 1 end
          end
          if c.def == "iron_drummer" then drummers[p] = (drummers[p] or 0) + 1 end
        end
      end
    end
  end

  -- a Summon's Strength and Defense as it stands (or would, once revealed)
  local function stats(c, d, p, revealed)
    local s, df = d.strength or 0, d.defense or 0
    if revealed then
      local tk = c.tokens
      if tk and tk.boost then s = s + 0.5 * tk.boost end   -- this turn only
      s = s + (eq_s[c.id] or 0)
      df = df + (eq_d[c.id] or 0)
    end
    if c.def == "pack_howler" and (beasts[p] or 0) >= (revealed and 2 or 1) then s = s + 5 end
    if c.def == "tide_wisp" and plane then df = df + 5 end
    if has(d, "golem") and (drummers[p] or 0) > 0 and c.def ~= "iron_drummer" then df = df + 5 end
    if plane == "scorched_plain" then s = s + 5
    elseif plane == "deep_mire" then df = df + 5
    elseif plane == "thin_veil" and has(d, "spirit") then s = s + 10 end
    if s < 0 then s = 0 end
    if df < 0 then df = 0 end
    return s, df
  end

  local score, strengths, blockers = {}, {}, {}
  local guards = {}                  -- player -> a primed Sudden Guard (seen by its owner)
  local fogs = {}                    -- player -> a primed Fog Wall (seen by its owner)
  local primed_summons = {}          -- player -> their primed Summons (seen by their owner)
  local primed_strength = {}         -- player -> Strengths their primed cards may bring
  local summon_at = {}               -- card id -> { player, Strength, Defense, worth, blocked }
  for q = 1, nplayers do score[q], strengths[q], blockers[q], primed_strength[q] = 0, {}, 0, {} end

  -- What a player's unseen primed cards cost, on average: what they paid for cards
  -- (public, in the ledger: Plane upkeep left out) less what their cards in sight cost.
  local known_cost, unseen = {}, {}
  local seen_burn, held_burn = {}, {}   -- player -> card id -> copies seen; in the seat's hand
  for q = 1, nplayers do known_cost[q], unseen[q], seen_burn[q] = 0, 0, {} end
  for _, c in ipairs(cards) do
    local z, q = c.zone, c.owner
    if BURN_COUNT and q and seen_burn[q] and c.def then
      for _, b in ipairs(BURN) do
        if b.id == c.def then
          seen_burn[q][b.id] = (seen_burn[q][b.id] or 0) + 1
          if z == "hand:" .. seat then held_burn[b.id] = (held_burn[b.id] or 0) + 1 end
        end
      end
    end
    if q and known_cost[q] and z and (prefixed(on_field_key, z, "field:") or prefixed(in_graveyard_key, z, "graveyard:")) then
      local d = c.def and defs[c.def]
      if d then known_cost[q] = known_cost[q] + (d.cost or 0)
      elseif c.face_down then unseen[q] = unseen[q] + 1 end
    end
  end
  local unseen_cost = {}
  for q = 1, nplayers do
    local led = (vars.ledger or {})[q]
    local each = UNSEEN_COST
    if led and unseen[q] > 0 then
      each = (led.paid - (led.upkeep or 0) - known_cost[q]) / unseen[q]
      if each < 1 then each = 1 elseif each > 30 then each = 30 end
    end
    unseen_cost[q] = each
  end

  for _, c in ipairs(cards) do
    local z = c.zone
    local p = controller_of(c)
    if p and score[p] and z and prefixed(on_field_key, z, "field:") then
      if c.face_down then
        local d = c.def and defs[c.def]
        local list = strengths[p]
        if not d then
          local cost = unseen_cost[c.owner] or UNSEEN_COST
          local threat = UNSEEN_THREAT * cost
          if PRIMED_MAX and type(c.mark) == "table" and c.mark.paid then threat = strongest_fit(c.mark) end
          score[p] = score[p] + PRIMED_OTHER * cost
          list[#list + 1] = threat       -- it may be a Summon, revealed next turn
          table.insert(primed_strength[p], threat)
        elseif has(d, "summon") then
          local s, df = stats(c, d, p, false)
          score[p] = score[p] + PRIMED_OWN * (STR * s + DEF * df + BODY)
          primed_summons[p] = (primed_summons[p] or 0) + 1
          list[#list + 1] = s
          table.insert(primed_strength[p], s)
        elseif has(d, "gambit") then
          score[p] = score[p] + (GAMBIT[c.def] or (d.cost or 2))
          if c.def == "sudden_guard" then guards[p] = true
          elseif c.def == "fog_wall" then fogs[p] = true end
        elseif has(d, "equipment") then
          score[p] = score[p] + (EQUIPMENT[c.def] or 3)
        else
          score[p] = score[p] + PLANE
        end
      else
        local d = defs[c.def]
        if d then
          if has(d, "summon") then
            local s, df = stats(c, d, p, true)
            local worth = STR * s + DEF * df + BODY
            score[p] = score[p] + worth
            local list = strengths[p]
            list[#list + 1] = s
            blockers[p] = blockers[p] + 1
            summon_at[c.id] = { p = p, s = s, d = df, worth = worth,
                                blocked = (c.tokens and (c.tokens.blocked or 0) or 0) > 0 }
          elseif has(d, "equipment") then
            local host = c.tokens and c.tokens.host
            if not host or host == 0 then score[p] = score[p] + LOOSE_EQUIPMENT end
          elseif has(d, "plane") then
            score[p] = score[p] + PLANE_HELD
          end
        end
      end
    end
  end

  local zones, counters = view.zones or {}, view.counters or {}
  local ledger = vars.ledger or {}
  local income, draw = options.income or 0, options.draw_per_turn or 0

  local function stamina_of(q)
    return counters[q] and counters[q].stamina or 0
  end
  local function gone(q)
    return out[q] == true or stamina_of(q) <= 0
  end

  -- The next battle: the damage its attacks will likely deal (declared ones as
  -- declared; while attacks are still being declared, and before the battle, every
  -- revealed Summon not yet sent at the weakest opponent, and before the attacker's
  -- reveal step its primed ones too), each attacked player blocking the strongest
  -- attacks with as many Summons as they have free; a declared attack that beats the
  -- Summon it targets costs that Summon. Counted here so a search that stops short of
  -- the fight still sees why to fight, and why to answer it with a Gambit.
  local hits = {}                    -- player -> Strengths of the attacks on them
  local active = view.active
  -- Whose battle comes next: the active player's until it is over, then the next
  -- player's (the same reckoning on both sides of a turn's end).
  local nextp, started = nil, false
  local armed = false                -- whether the active player has anything to battle with
  if active and score[active] then
    for _, a in pairs(summon_at) do
      if a.p == active and a.s > 0 then armed = true end
    end
    if view.phase == "reveal" and #primed_strength[active] > 0 then armed = true end
  end
  if active and score[active] and not gone(active) and view.phase ~= "end"
     and (vars.in_battle or (not vars.battled and armed)) then
    nextp, started = active, view.phase ~= "reveal"
  elseif active then
    for k = 1, nplayers do
      local q = (active + k - 1) % nplayers + 1
      if q ~= active and score[q] and not gone(q) then nextp = q; break end
    end
  end
  if nextp then
    local target, low = nil, nil
    for q = 1, nplayers do
      if q ~= nextp and not gone(q) and (low == nil or stamina_of(q) < low) then target, low = q, stamina_of(q) end
    end
    local sent = {}
    local attacks = vars.attacks or {}
    if nextp == active and vars.in_battle then
      for _, at in ipairs(attacks) do
        sent[at.a] = true
        local a = summon_at[at.a]
        if a and a.p == active and not at.off and not at.done then
          if at.p and at.p ~= 0 then
            local list = hits[at.p] or {}
            hits[at.p] = list
            list[#list + 1] = a.s
          elseif at.s and summon_at[at.s] then
            local t = summon_at[at.s]
            if a.s > t.d then
              score[t.p] = score[t.p] - DOOMED * t.worth
              t.doomed = true
            end
          end
        end
      end
    end
    if target and (not (nextp == active and vars.in_battle) or vars.declaring) then
      local list = hits[target] or {}
      hits[target] = list
      for id, a in pairs(summon_at) do
        if a.p == nextp and not sent[id] and a.s > 0 then list[#list + 1] = a.s end
      end
      -- before its reveal step, its primed Summons may join the battle too
      if not started then
        for _, s in ipairs(primed_strength[nextp]) do list[#list + 1] = s end
      end
    end
  end
  -- The attacked player's primed Gambits answer the battle until their window has
  -- passed (the window opens once the attacks are declared): a Fog Wall calls it off,
  -- a Sudden Guard brings their primed Summons in as blockers.
  local answerable = not vars.in_battle or vars.declaring
  local battle_damage = {}
  for q, list in pairs(hits) do
    if not (FOG and answerable and fogs[q]) then
      local free = 0
      for _, t in pairs(summon_at) do
        if t.p == q and not t.blocked and not t.doomed then free = free + 1 end
      end
      if GUARD_BLOCKS and answerable and guards[q] then free = free + (primed_summons[q] or 0) end
      table.sort(list)
      local dmg = 0
      for i = #list - free, 1, -1 do dmg = dmg + list[i] end
      if BREAK then
        -- the strongest attacks meet the free revealed blockers of most Defense, in
        -- order; an attack that beats its blocker's Defense costs the attacked player
        -- the blocker, or the attack's Strength when the blocker is worth more
        local bl = {}
        for id, t in pairs(summon_at) do
          if t.p == q and not t.blocked and not t.doomed then bl[#bl + 1] = { id = id, d = t.d, worth = t.worth } end
        end
        table.sort(bl, function(a, b)
          if a.d ~= b.d then return a.d > b.d end
          return a.id < b.id
        end)
        local lost = 0
        for i = 1, math.min(#bl, #list) do
          local a, b = list[#list - i + 1], bl[i]
          if a > b.d then
            if b.worth < a then lost = lost + b.worth else dmg = dmg + a end
          end
        end
        score[q] = score[q] - BATTLE * lost
      end
      battle_damage[q] = BATTLE * dmg
    end
  end

  -- What player o's hand may deal without a battle (BURN_COUNT; else HAND_THREAT).
  local function hand_threat(o)
    if not BURN_COUNT then return HAND_THREAT end
    local pl = view.players[o]
    local list = deck_list(pl and pl.set)
    if list == nil or next(list) == nil then return HAND_THREAT end
    local hand, deck = zones["hand:" .. o], zones["deck:" .. o]
    local held = hand and hand.count or 0
    if held == 0 then return 0 end
    local pool = held + (deck and deck.count or 0) + unseen[o]
    local st, total = stamina_of(o), 0
    for _, b in ipairs(BURN) do
      local d = defs[b.id]
      if d and st > (d.cost or 0) then
        local n
        if o == seat then n = held_burn[b.id] or 0
        else
          n = (list[b.id] or 0) - (seen_burn[o][b.id] or 0)
          if n < 0 then n = 0 end
          n = n * held / pool
        end
        local dmg = b.damage or 0
        if b.each then dmg = b.each * ((tagged[o] or {})[b.tag] or 0) end
        total = total + n * dmg
      end
    end
    return BURN_WEIGHT * total
  end

  local best_other, alive_others = nil, 0
  local mine
  for q = 1, nplayers do
    local st = stamina_of(q)
    if q == seat then
      if gone(q) then return -1 end
    end
    if not gone(q) then
      local hand = zones["hand:" .. q]
      local held = hand and hand.count or 0
      local total = score[q] + life(st - (battle_damage[q] or 0)) + HAND * math.min(held, HAND_FULL)
                    + HAND_PAST * math.max(held - HAND_FULL, 0)
      -- Each turn's draw and income come to everyone in turn: taking them off again
      -- keeps a position from looking better just because its player's turn began
      -- (one-ply search compares positions before and after the draw).
      local led = ledger[q]
      local got = led and led.income or 0
      total = total - INCOME * got
      if income > 0 then total = total - HAND * draw * got / income end
      -- Danger: what the others' Summons could deal next turn (revealed ones, primed
      -- ones that can be revealed first, an unseen primed card as a likely attacker),
      -- the largest attacks taken by as many blockers as q has (one more with a primed
      -- Sudden Guard), and what a hand may deal directly, against q's Stamina.
      local threat, nblock = 0, blockers[q] + (guards[q] and 1 or 0)
      -- q's primed Summons are revealed before the others attack again, unless q's own
      -- reveal step is already behind it this turn
      if PRIMED_BLOCKS and (q ~= active or view.phase == "reveal") then
        nblock = nblock + (primed_summons[q] or 0)
      end
      for o = 1, nplayers do
        if o ~= q and not (out[o] == true) then
          -- the player whose turn it is attacks the others again only after they
          -- have all had a turn to answer (this turn's battle is counted above)
          local w = (o == nextp) and LATER or 1
          threat = threat + w * hand_threat(o)
          local list = strengths[o]
          table.sort(list)
          for i = #list - nblock, 1, -1 do threat = threat + w * list[i] end
        end
      end
      if threat > 0 then
        local r = threat / st
        if r > DANGER_CAP then r = DANGER_CAP end
        total = total - (q == seat and 1 or OTHERS_DANGER) * DANGER * r * r
      end
      local deck = zones["deck:" .. q]
      if deck and deck.count < 3 then total = total - 6 * (3 - deck.count) end
      if q == seat then mine = total
      else
        alive_others = alive_others + 1
        if best_other == nil or total > best_other then best_other = total end
      end
    end
  end
  if alive_others == 0 then return 1 end
  local x = mine - best_other
  return x / (SCALE + abs(x))
end

if SAMPLE_BY_COST then fits = fits_by_cost end
