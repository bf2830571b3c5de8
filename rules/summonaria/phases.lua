-- Summonaria: the steps of a turn. Deploy (the game's first turn only: every player
-- places their advance guard), the others' trades (trade.lua), draw, summon, move and
-- engage, place the summoned unit. At each choice of the draw, summon, move and place
-- steps the player may also transmute and propose trades (trading_options, at the end
-- of the step's options).

-- Deploy -------------------------------------------------------------------------

--- Before anyone acts, each player may swap their two advance-guard units between
--- their tower and their portal: in the first turn's deploy step, everyone who has
--- not yet chosen is asked, in turn order from the first player. (A scenario that
--- starts in a later step of the first turn, or in a later turn, asks no one.)
local function deploy(p)
  state.vars.deployed[p] = true
  local t, o = board.card_at(home_tower(p)), board.card_at(portal_of(p))
  if not (t and o and t.controller == p and o.controller == p) then return end
  local pick = choose {
    player = p, prompt = "Your advance guard: which unit holds the tower?",
    options = { { label = string.format("Keep the %s on the tower at %s", t.name, t.space) },
                { label = string.format("Swap: the %s to the tower at %s", o.name, t.space), swap = true } },
  }
  if pick.swap then
    cards.swap(t, o)
    say(string.format("Player %d puts the %s on the tower and the %s on the portal", p, o.name, t.name))
  end
end

function deploy_phase(p)
  if state.turn ~= 1 then return end
  for _, q in ipairs(players.from(p)) do
    if not state.vars.deployed[q] then deploy(q) end
  end
end

-- 1. Draw ----------------------------------------------------------------------------

function draw_phase(p)
  local n = options.draw
  if is_disrupted(p) then
    n = options.disrupted_draw
    say(string.format("Player %d's tower at %s is held by an enemy: focus disrupted, drawing %d", p,
                      home_tower(p), n))
  end
  discard_down_to(p, math.max(0, options.hand_limit - n), "Before drawing", true)
  local got = draw_resources(p, n)
  say(string.format("Player %d draws %d resource card%s", p, got, got == 1 and "" or "s"))
end

-- 2. Summon ---------------------------------------------------------------------------

--- Every way a player can pay a cost {a, b, c}: primary cards may stand in for
--- secondary or tertiary ones, secondary for tertiary. Returns a list of
--- {primary, secondary, tertiary} counts.
function payments(p, cost)
  local order, have = resource_order(p), hand_counts(p)
  local P, S, T = have[order[1]], have[order[2]], have[order[3]]
  local a, b, c = cost[1], cost[2], cost[3]
  local total = a + b + c
  local out = {}
  for xp = a, math.min(P, total) do
    for xs = math.max(0, a + b - xp), math.min(S, total - xp) do
      local xt = total - xp - xs
      if xt >= 0 and xt <= T then out[#out + 1] = { xp, xs, xt } end
    end
  end
  return out
end

function cost_text(cost) return table.concat(cost, "-") end

local function payment_text(p, pay)
  local order, parts = resource_order(p), {}
  for i = 1, 3 do
    if pay[i] > 0 then parts[#parts + 1] = pay[i] .. " " .. defs[order[i]].name end
  end
  if #parts == 0 then return "nothing" end
  return table.concat(parts, ", ")
end

--- How many units of a kind a player has on the board or being summoned.
function fielded(p, kind)
  local n = #cards.on_board(function(c) return c.owner == p and c.def == kind end)
  for _, c in ipairs(zones.cards(p, "summoning")) do
    if c.def == kind then n = n + 1 end
  end
  return n
end

--- The kinds of unit a player can summon now: a token left in their army, fewer on
--- the board than its tokens, and a way to pay.
function summon_options(p)
  local out, seen = {}, {}
  for _, c in ipairs(zones.cards(p, "army")) do
    if not seen[c.def] then
      seen[c.def] = true
      local cost = def_of(c).cost
      if fielded(p, c.def) < defs[c.def].copies and #payments(p, cost) > 0 then
        out[#out + 1] = { label = string.format("Summon %s (%s)", c.name, cost_text(cost)), card = c }
      end
    end
  end
  return out
end

function summon(p, c)
  local pays = payments(p, def_of(c).cost)
  local opts = {}
  for i, pay in ipairs(pays) do opts[i] = { label = "Pay " .. payment_text(p, pay), pay = pay } end
  -- (confirm: the ways to pay come from the hand, so the question is asked even when there
  -- is one, or its absence would tell the others that the hand allows no other way)
  local pick = choose { player = p, prompt = "Pay for the " .. c.name .. " how?", options = opts, confirm = true }
  local order = resource_order(p)
  for i = 1, 3 do
    if pick.pay[i] > 0 then spend_kind(p, order[i], pick.pay[i]) end
  end
  cards.to_zone(c, p, "summoning")
  say(string.format("Player %d summons %s %s, paying %s: it arrives on the portal at the end of the turn",
                    p, c.name:find("^[AEIOUaeiou]") and "an" or "a", c.name, payment_text(p, pick.pay)))
end

--- The summon step's question (game.yaml `offer`; the step repeats, one choice a call):
--- which unit to summon, a transmute or a trade, or nothing. Asked even when summoning
--- nothing is all there is (confirm): the other options come from the hand, so a question
--- asked only sometimes would tell the others what it can pay for.
function summon_offer(p)
  local opts = summon_options(p)
  for _, o in ipairs(trading_options(p)) do opts[#opts + 1] = o end
  opts[#opts + 1] = { label = "Summon nothing this turn", skip = true }
  -- the army's order, which every cost (primary-secondary-tertiary) is written in
  local order = {}
  for i, id in ipairs(resource_order(p)) do order[i] = defs[id].name end
  return { player = p, options = opts, confirm = true,
           prompt = string.format("Summon a unit? (%d resource cards in hand; costs are %s)",
                                  zones.count(p, "hand"), table.concat(order, "-")) }
end

--- Carries out the summon step's answer: a transmute or a trade keeps the step going; a
--- summon or "nothing" ends it.
function summon_phase(p, pick)
  if pick.skip then return false end
  if take_trading_option(p, pick) then return true end
  summon(p, pick.card)
  return false
end

-- 3. Move and engage -------------------------------------------------------------------

--- Squares a unit can reach with `left` moves: through empty squares (any, when it
--- flies), ending on an empty square that is not another player's portal.
local function enemy_portals(p)
  local out = {}
  for q = 1, players.count() do
    if q ~= p then out[portal_of(q)] = true end
  end
  return out
end

function move_options(c, left)
  local p = c.controller
  local pass = def_of(c).flying and function() return true end or board.is_empty
  local portals = enemy_portals(p)
  local function stop(s) return board.is_empty(s) and not portals[s] end
  local out = {}
  for _, r in ipairs(board.reach(c.space, left, pass, stop)) do
    if r.space ~= c.space then out[#out + 1] = r end
  end
  return out
end

--- Whether a unit has anywhere to move with `left` moves (#move_options(c, left) > 0,
--- answered at once when a square next to it will do).
function can_move(c, left)
  if left <= 0 then return false end
  local portals = enemy_portals(c.controller)
  for _, s in ipairs(board.neighbors(c.space)) do
    if board.is_empty(s) and not portals[s] then return true end
  end
  return #move_options(c, left) > 0
end

--- Whether a unit on a crumbled tower may rebuild it: no enemy next to it, and it has
--- not moved this turn nor used a special ability (regenerated at the turn's start): a
--- rebuilding unit spends its whole turn on the tower.
function can_rebuild(c)
  return is_tower(c.space) and not is_standing(c.space) and #enemies_adjacent(c) == 0
     and not state.vars.turn.moved[c.id] and not state.vars.turn.regenerated[c.id]
end

--- One choice of a unit's movement: it moves while it has squares left, then perhaps
--- attacks (which needs a square left and ends its movement). The unit under way
--- and its squares left are kept in state.vars.turn.active between choices. Returns
--- the question, or nil when the unit can do no more (it is no longer under way).
local function activation_question(p)
  local a = state.vars.turn.active
  local c = cards.get(a.id)
  if not (a.left > 0 and c.space) then
    state.vars.turn.active = nil
    return nil
  end
  local opts = {}
  for _, m in ipairs(move_options(c, a.left)) do
    opts[#opts + 1] = { label = string.format("Move to %s (%d)", m.space, #m.path), move = m }
  end
  for _, t in ipairs(attack_targets(c)) do
    opts[#opts + 1] = { label = "Attack " .. describe(t), target = t }
  end
  opts[#opts + 1] = { label = "Stop the " .. c.name .. " here", done = true }
  return { player = p, options = opts,
           prompt = string.format("%s: %d square%s of movement left", describe(c), a.left, a.left == 1 and "" or "s") }
end

--- Carries out the answer to activation_question.
local function activation_answer(p, pick)
  local turn = state.vars.turn
  local a = turn.active
  local c = cards.get(a.id)
  if pick.done then
    -- stopped after moving, with squares left: it may go on later in the step (after
    -- another unit has moved, say); stopped before moving, it is done
    if a.moved and a.left > 0 then turn.left[c.id] = a.left else turn.done[c.id] = true end
    turn.active = nil
  elseif pick.move then
    local from = c.space
    cards.place(c, pick.move.space)
    turn.moved[c.id] = true
    a.left = a.left - #pick.move.path
    a.moved = true
    turn.left[c.id] = a.left
    say(string.format("%s moves %s -> %s", c.name, from, table.concat(pick.move.path, " -> ")))
    if not (a.left > 0 and c.space) then
      turn.done[c.id] = true
      turn.active = nil
    end
  else
    turn.done[c.id] = true   -- an attack uses the rest of its movement
    turn.active = nil
    attack(c, pick.target)
  end
end

--- The move step's question (game.yaml `offer`; the step repeats, one choice a call):
--- the next choice of the unit under way, or which unit moves, rebuilds, a trade, or
--- the end of the step; nil when no unit has anything to do (no prompt just to trade:
--- the summon step offered it).
function move_offer(p)
  if state.vars.turn.active then
    local req = activation_question(p)
    if req then return req end
  end
  local opts = {}
  local turn = state.vars.turn
  for _, c in ipairs(units_of(p)) do
    local left = turn.left[c.id] or stat(c, "move")
    if not turn.done[c.id] and left > 0 then
      if can_move(c, left) or #attack_targets(c) > 0 then
        local label = "Move or attack with the " .. describe(c)
        if turn.left[c.id] then label = string.format("%s (%d left)", label, left) end
        opts[#opts + 1] = { label = label, card = c }
      end
      if can_rebuild(c) then
        opts[#opts + 1] = { label = string.format("Rebuild the tower at %s with the %s", c.space, c.name),
                            rebuild = c }
      end
    end
  end
  if #opts == 0 then return nil end
  for _, o in ipairs(trading_options(p)) do opts[#opts + 1] = o end
  opts[#opts + 1] = { label = "End the move step", done = true }
  return { player = p, prompt = "Move and engage", options = opts }
end

--- Carries out the move step's answer; false once the step ends.
function move_phase(p, pick)
  if state.vars.turn.active then
    activation_answer(p, pick)
    return true
  end
  if pick.done then return false end
  if take_trading_option(p, pick) then
    -- a transmute or a trade: the step goes on
  elseif pick.rebuild then
    state.vars.turn.done[pick.rebuild.id] = true
    state.vars.turn.rebuilding[#state.vars.turn.rebuilding + 1] = pick.rebuild.id
    say(string.format("The %s spends its turn rebuilding the tower at %s", pick.rebuild.name, pick.rebuild.space))
  else
    local c = pick.card   -- (its first choice is asked next; squares it has left, or its move)
    state.vars.turn.active = { id = c.id, left = state.vars.turn.left[c.id] or stat(c, "move"), moved = false }
  end
  return true
end

-- 4. Place the summoned unit; the end of the turn -------------------------------------------

function place_phase(p)
  for _, c in ipairs(zones.cards(p, "summoning")) do
    local portal = portal_of(p)
    if board.is_empty(portal) then
      cards.place(c, portal)
      say(string.format("The %s arrives on player %d's portal at %s", c.name, p, portal))
      emit("after_summon", { card = c, player = p })
    else
      cards.to_zone(c, p, "army")
      say(string.format("Player %d's portal at %s is occupied: the summoned %s is destroyed and its resources lost",
                        p, portal, c.name))
    end
  end
  for _, id in ipairs(state.vars.turn.rebuilding) do
    local c = cards.get(id)
    if c.space and is_tower(c.space) and #enemies_adjacent(c) == 0 then
      state.vars.towers[c.space] = "standing"
      refresh_marks()
      say(string.format("The tower at %s stands again", c.space))
    end
  end
  -- a blessing for each unit that came onto a temple this turn (moved there, or moved
  -- in after destroying a unit there) and ends the turn on it; not for one that has
  -- stood there since an earlier turn
  for _, c in ipairs(units_of(p)) do
    if is_temple(c.space) and state.vars.turn.moved[c.id] and not is_blessed(c) then
      local pick
      repeat
        local opts = { { label = "Bless the " .. c.name .. " at " .. c.space, yes = true } }
        for _, o in ipairs(trading_options(p)) do opts[#opts + 1] = o end
        opts[#opts + 1] = { label = "No blessing for the " .. c.name .. " at " .. c.space }
        pick = choose { player = p, prompt = string.format("The %s ends its turn on the temple at %s", c.name, c.space),
                        options = opts }
      until not take_trading_option(p, pick)
      if pick.yes then
        tokens.add(c, "blessing")
        say(string.format("The %s at %s is blessed", c.name, c.space))
      end
    end
  end
end
