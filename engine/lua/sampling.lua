-- What a bot's sample asks of a runtime: dealing again what one seat cannot see
-- (E.redeal, E.redeal_fork). Loaded when a match of the runtime first samples
-- (engine/runtime.py ON_DEMAND), as most runtimes (random bots, players) never do.
local E = ...

local PLACE = { id = true, owner = true, controller = true, zone = true, space = true, host = true,
                under = true, face_down = true, seen_by = true, seen_open = true, down_ref = true, mark = true,
                first_owner = true }

-- Which identities each marked hidden card of a group may take: for the nth card of
-- g.ids with a mark, the indices into g.identities that the game's fits(mark, def)
-- accepts (all of the game's calls made in one guarded run).
local function fitting(groups_plan)
  local cards = E.state.cards
  local ok, res = E.run_guarded(function()
    local fits, defs = E.fits, E.defs
    for _, g in ipairs(groups_plan) do
      for i, id in ipairs(g.ids) do
        local mark = cards[id].mark
        if mark ~= nil then
          local list, seen = {}, {}
          for j, ident in ipairs(g.identities) do
            local def = g.plain and ident[1] or ident.def
            local yes = seen[def]
            if yes == nil then
              yes = fits(type(mark) == "table" and E.deep_copy(mark) or mark, def and defs[def]) and true or false
              seen[def] = yes
            end
            if yes then list[#list + 1] = j end
          end
          g.fit = g.fit or {}
          g.fit[#g.fit + 1] = { at = i, ok = list }
        end
      end
    end
  end)
  if not ok then error("fits(mark, def): " .. res, 0) end
end

-- Which cards p cannot see and what identities they take: a plan E.redeal deals from.
-- The hidden cards fall into pools by the place they lie in (E.pool_place: a player's
-- zones, a shared zone, the board by each card's owner), places joined for good when a
-- card p could not see moved between them (E.mix_places: state.mixed), so which hidden
-- card is where in a pool never shows in its place: one a player took unseen from a shared
-- pile makes the pile and the player's cards one pool, whichever card goes back. A pool
-- takes its hidden cards' ids in an order p can tell from its view, and their identities
-- sorted (a plain identity is {def, name}, any other the card's fields outside its place).
local function redeal_plan(p)
  local st = E.state
  local cards = st.cards
  local hidden = {}                -- {card, its place} in the view's order
  local function consider(c, shown)
    local seen
    if c.face_down then seen = E.seen_by(c, p)
    else seen = shown or E.seen_by(c, p) end
    if not seen then
      local place = E.pool_place(c, p)
      if place ~= nil then hidden[#hidden + 1] = { c, place } end
    end
  end
  local function with_under(c, shown)
    consider(c, shown)
    local under = c.under
    if under then   -- (under a card, what its host's place shows: a card's, on the board)
      for _, id in ipairs(under) do with_under(cards[id], shown) end
    end
  end
  local keys = {}
  for key in next, st.zones do keys[#keys + 1] = key end
  table.sort(keys)
  local zones = E.game.zones
  for _, key in ipairs(keys) do
    local name, owner = E.zone_parts(key)
    if zones[name] then   -- (a zone the game does not declare holds cards out of the game, scenario.remove's)
      local shown = E.zone_shown(zones[name], owner, p)
      for _, id in ipairs(st.zones[key]) do with_under(cards[id], shown) end
    end
  end
  for _, s in ipairs(E.board_order) do
    local id = st.spaces[s]
    if id then with_under(cards[id], true) end
  end
  -- the pools: places joined by the moves p did not see
  local up = {}
  local function root(x)
    while up[x] ~= nil do x = up[x] end
    return x
  end
  for _, r in ipairs(st.mixed or E.EMPTY) do
    if r[1] == p then
      local a, b = root(r[2]), root(r[3])
      if a ~= b then up[b] = a end
    end
  end
  local function before(a, b)   -- (places in one order: players by number, then shared zones by name)
    if type(a) ~= type(b) then return type(a) == "number" end
    return a < b
  end
  local groups, owners, key_of = {}, {}, {}   -- root -> cards; the roots; root -> its least place
  for _, h in ipairs(hidden) do
    local r = root(h[2])
    local g = groups[r]
    if not g then
      g = {}
      groups[r] = g
      owners[#owners + 1] = r
    end
    g[#g + 1] = h[1]
    if key_of[r] == nil or before(h[2], key_of[r]) then key_of[r] = h[2] end
  end
  table.sort(owners, function(a, b) return before(key_of[a], key_of[b]) end)
  local plan = {}
  for n, owner in ipairs(owners) do
    local g = groups[owner]
    -- a plain card's identity is its definition and name (the usual case, and fast);
    -- any other field outside its place travels with it too
    local plain = true
    for _, c in ipairs(g) do
      if next(c.tokens or E.EMPTY) ~= nil then plain = false break end
      for k in next, c do
        if not PLACE[k] and k ~= "def" and k ~= "name" and k ~= "tokens" then plain = false break end
      end
      if not plain then break end
    end
    local ids, identities = {}, {}
    for i, c in ipairs(g) do ids[i] = c.id end
    if plain then
      for i, c in ipairs(g) do identities[i] = { c.def, c.name } end
      table.sort(identities, function(a, b)
        if a[1] ~= b[1] then return a[1] < b[1] end
        return a[2] < b[2]
      end)
    else
      local sort_key = {}
      for i, c in ipairs(g) do
        local id = {}
        for k, v in next, c do
          if not PLACE[k] then id[k] = v end
        end
        identities[i] = E.deep_copy(id)
        sort_key[identities[i]] = E.to_json(id)
      end
      table.sort(identities, function(a, b) return sort_key[a] < sort_key[b] end)
    end
    plan[n] = { ids = ids, identities = identities, plain = plain }
  end
  if E.fits then fitting(plan) end
  return plan
end

-- The order of a group's identities for its places when some places are marked: each
-- marked place (fewest choices first) takes an identity it fits at random, the other
-- places the rest in the shuffled order. nil when the picks leave a marked place with
-- nothing it fits (then the caller tries again, and in the end ignores the marks).
local function fitted_order(g, shuffled, pick)
  local n = #g.identities
  local taken, out = {}, {}
  local marked = E.copy_list(g.fit)
  table.sort(marked, function(a, b)
    if #a.ok ~= #b.ok then return #a.ok < #b.ok end
    return a.at < b.at
  end)
  for _, m in ipairs(marked) do
    local free = {}
    for _, j in ipairs(m.ok) do
      if not taken[j] then free[#free + 1] = j end
    end
    if #free == 0 then return nil end
    local j = free[pick(#free)]
    taken[j], out[m.at] = true, j
  end
  local k = 1
  for i = 1, n do
    if out[i] == nil then
      while taken[shuffled[k]] do k = k + 1 end
      out[i] = shuffled[k]
      k = k + 1
    end
  end
  for i = 1, n do out[i] = g.identities[out[i]] end
  return out
end

-- Deals the plan's identities to its cards at random from `seed` and reseeds the
-- generator. The plan is left as it was (forks of one position share one).
local function deal(plan, seed)
  local cards = E.state.cards
  local pick = E.new_generator(seed)
  for _, g in ipairs(plan) do
    local ids, order = g.ids, E.copy_list(g.identities)
    for i = #order, 2, -1 do
      local j = pick(i)
      order[i], order[j] = order[j], order[i]
    end
    if g.fit then
      local fitted
      for _ = 1, 8 do
        local shuffled = {}
        for i = 1, #order do shuffled[i] = i end
        for i = #shuffled, 2, -1 do
          local j = pick(i)
          shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        end
        fitted = fitted_order(g, shuffled, pick)
        if fitted then break end
      end
      order = fitted or order
    end
    if g.plain then
      for i, id in ipairs(ids) do
        local c = cards[id]
        c.def, c.name = order[i][1], order[i][2]
      end
    else
      for i, id in ipairs(ids) do
        local c = cards[id]
        for k in next, c do
          if not PLACE[k] then c[k] = nil end
        end
        for k, v in next, order[i] do
          if type(v) == "table" then v = E.deep_copy(v) end
          c[k] = v
        end
      end
    end
  end
  E.rng_seed(seed ~ 0x5EED5EED5EED)
  E.version = E.version + 1
  E.forget_caches()
end

--- Deals again, at random from `seed`, every card whose face seat p cannot see, and
--- reseeds the match's generator from `seed`: the result is one world p's view allows.
--- A hidden card keeps its place (zone, space, host, face-down state, who has seen
--- it, its mark) and takes the identity (definition, name, other fields) of a hidden
--- card of its pool (redeal_plan: its place's, joined with the places hidden cards moved between); a marked card (cards.mark) only one that the game's
--- fits(mark, def) accepts, when the evaluation file defines it. The places are taken in an order p can tell from its view and the
--- identities are sorted before the shuffle, so the world depends on p's view and the
--- seed only: what p cannot see (which hidden card is where) makes no difference.
function E.redeal(p, seed)
  deal(redeal_plan(p), seed)
end

--- E.redeal for a fork of a checkpoint that was just made (E.fork): forks of one
--- position that sample the same seat share the plan, kept with the checkpoint under
--- `key` (the seat and the answers since the checkpoint), so each only shuffles.
function E.redeal_fork(cp, key, p, seed)
  local plans = cp.plans
  if plans == nil then
    plans = { n = 0 }
    cp.plans = plans
  end
  local plan = plans[key]
  if plan == nil then
    plan = redeal_plan(p)
    if plans.n >= 16 then          -- (a checkpoint lives for one phase: a few positions)
      plans = { n = 0 }
      cp.plans = plans
    end
    plans[key], plans.n = plan, plans.n + 1
  end
  deal(plan, seed)
end
