-- Summoner's Isle: the three phases of a round and the end of the game.

-- Phase 1: summoning ---------------------------------------------------------------

-- The question of a player's summoning step for one kind of creature, or nil when
-- there is none: summon one, while they can pay, have one in their pool and a location
-- is vacant, or be done; once they said to summon (state.vars.placing), where.
local function summon_question(p, kind)
  local name = defs[kind].name
  if state.vars.placing then
    return { player = p, prompt = "Place the " .. name .. " on which vacant location?", options = vacant_locations() }
  end
  local c = in_pool(p, kind)
  if c == nil then return nil end
  local cost = stat(c, "cost")
  if energy(p) < cost then return nil end
  if not any_vacant_location() then return nil end
  return {
    player = p,
    prompt = string.format("Summon a %s for %d energy? (you have %d energy and %d in your pool)",
                           name, cost, energy(p), pool_count(p, kind)),
    options = { { label = string.format("Summon a %s (%d energy)", name, cost), go = true },
                { label = "Done summoning " .. kinds(kind) } },
  }
end

-- Carries out the answer to summon_question; true while the step goes on.
local function summon_answer(p, kind, pick)
  if not state.vars.placing then
    state.vars.placing = pick.go or nil   -- (where is asked next)
    return pick.go == true
  end
  state.vars.placing = nil
  local name, c = defs[kind].name, in_pool(p, kind)
  local cost = stat(c, "cost")
  spend(p, cost)
  cards.place(c, pick.label)
  say(string.format("Player %d summons a %s at %s (%d energy left)", p, name, pick.label, energy(p)))
  emit("after_summon", { card = c, player = p })
  return true
end

-- Both the summoning and the actions phase take their steps kind by kind (Wyrms, then
-- Trolls, then Sprites: options.creature_order), each kind in turn order. Each is a
-- repeating phase with an `offer` (game.yaml): the offer asks the question of the step
-- under way, state.vars[var] keeping which step that is (nil once the phase is over),
-- and the phase's run carries out the answer.

--- The question of the first step from the one under way (state.vars[var]) that has
--- one (question(player, kind) returns it, or nil), which becomes the step under way
--- (its player and kind in state.vars.step_player and step_kind); nil once no step has
--- one (the phase is over).
function next_in_kind_order(var, question)
  local kinds, order = options.creature_order, turn_order()
  local at = state.vars[var] or 1
  while at <= #kinds * #order do
    local p, kind = order[(at - 1) % #order + 1], kinds[(at - 1) // #order + 1]
    local req = question(p, kind)
    if req then
      state.vars[var], state.vars.step_player, state.vars.step_kind = at, p, kind
      return req
    end
    at = at + 1
  end
  state.vars[var], state.vars.step_player, state.vars.step_kind = nil, nil, nil
  return nil
end

--- Carries out the answer to the question of the step under way with answer(player,
--- kind, pick), which returns true while the step goes on; else the next step's turn
--- comes. Returns true (the offer says when the phase is over).
function answer_in_kind_order(var, answer, pick)
  local v = state.vars
  if not answer(v.step_player, v.step_kind, pick) then v[var] = v[var] + 1 end
  return true
end

--- The summoning phase's question (game.yaml `offer`).
function summoning_offer()
  return next_in_kind_order("summoning_step", summon_question)
end

--- Carries out the summoning phase's answer (the phase's `run`).
function summoning_phase(round, pick)
  return answer_in_kind_order("summoning_step", summon_answer, pick)
end

-- Phase 2: actions -------------------------------------------------------------------

--- Where a creature can move with up to `left` actions: empty locations next to it,
--- or reached through locations held by its controller's creatures, one action per
--- location. Returns a list of {space=, path=, cost=}.
function move_options(c, left)
  local p = c.controller
  local function own(s)
    local o = board.card_at(s)
    return o ~= nil and o.controller == p and is_location(s)
  end
  local out = {}
  for _, r in ipairs(board.reach(c.space, left, own, is_vacant)) do
    if r.space ~= c.space then out[#out + 1] = { space = r.space, path = r.path, cost = #r.path } end
  end
  return out
end

--- Other players' creatures next to a creature.
function attack_targets(c)
  local out = {}
  for _, s in ipairs(board.neighbors(c.space)) do
    local o = board.card_at(s)
    if o and o.controller ~= c.controller then out[#out + 1] = o end
  end
  return out
end

--- Its controller's creatures next to a creature (partners for a Wyrm's trade).
function swap_partners(c)
  local out = {}
  for _, s in ipairs(board.neighbors(c.space)) do
    local o = board.card_at(s)
    if o and o.controller == c.controller then out[#out + 1] = o end
  end
  return out
end

local function can_swap(c)
  local cost = def_of(c).swap_cost
  return cost ~= nil and energy(c.controller) >= cost and #swap_partners(c) > 0
end

--- Whether activating a creature would offer it anything to do.
local function has_something_to_do(c)
  local n = stat(c, "actions")
  if n <= 0 then return false end
  return #move_options(c, n) > 0 or #attack_targets(c) > 0 or can_swap(c)
end

--- A defending creature's defence: fixed, or rolled by its owner plus kin in its territory.
--- Returns the value and how it was found.
function defence_of(c)
  local d = def_of(c)
  if d.defence_die then
    local r = roll(d.defence_die)
    local t = territory_of(c.space)
    local kin = 0
    for _, o in ipairs(creatures_of(c.controller, c.def)) do
      if o ~= c and territory_of(o.space) == t then kin = kin + 1 end
    end
    local v = r + kin * (d.defence_per_kin or 0)
    return v, string.format("defence roll %d + %d for %d other %s in %s = %d", r,
                            kin * (d.defence_per_kin or 0), kin, kinds(c.def), t, v)
  end
  local v = stat(c, "defence")
  return v, "defence " .. v
end

--- One attack: a d6 plus the attack bonus against the defence. On success the
--- defender is removed, the attacker moves into its location and its controller
--- gains the defender's bounty.
function attack(attacker, target)
  local p = attacker.controller
  local r = roll(options.attack_die)
  local bonus = stat(attacker, "attack")
  local total = r + bonus
  local defence, how = defence_of(target)
  local label = describe_creature(target)
  say(string.format("%s at %s attacks %s: rolls %d + %d = %d against %s", attacker.name, attacker.space,
                    label, r, bonus, total, how))
  if total < defence then
    say("The attack fails")
    return false
  end
  local space, bounty = target.space, stat(target, "bounty")
  remove_creature(target)
  cards.place(attacker, space)
  say(string.format("%s is removed; the %s moves into %s", label, attacker.name, space))
  gain(p, bounty, "for removing a " .. target.name)
  return true
end

--- Activates a creature: moves, attacks and (a Wyrm's) trades until its actions are
--- used or its player ends the activation; then it is turned face down.
function activate(p, c)
  local left = stat(c, "actions")
  local swap_cost = def_of(c).swap_cost
  while left > 0 do
    local opts = {}
    for _, m in ipairs(move_options(c, left)) do
      local label = "Move to " .. m.space
      if m.cost > 1 then
        label = string.format("%s through %s (%d actions)", label,
                              table.concat(m.path, ", ", 1, #m.path - 1), m.cost)
      end
      opts[#opts + 1] = { label = label, move = m }
    end
    for _, t in ipairs(attack_targets(c)) do
      opts[#opts + 1] = { label = "Attack " .. describe_creature(t), target = t }
    end
    if swap_cost ~= nil and energy(p) >= swap_cost then
      for _, o in ipairs(swap_partners(c)) do
        opts[#opts + 1] = { label = string.format("Trade places with the %s at %s (%d energy)", o.name,
                                                  o.space, swap_cost), partner = o }
      end
    end
    opts[#opts + 1] = { label = "End this " .. c.name .. "'s activation", done = true }
    local pick = choose {
      player = p,
      prompt = string.format("%s at %s: %d action%s left", c.name, c.space, left, left == 1 and "" or "s"),
      options = opts,
    }
    if pick.done then break end
    if pick.move then
      local from = c.space
      cards.place(c, pick.move.space)
      left = left - pick.move.cost
      say(string.format("%s moves %s -> %s (%d action%s)", c.name, from, table.concat(pick.move.path, " -> "),
                        pick.move.cost, pick.move.cost == 1 and "" or "s"))
    elseif pick.target then
      left = left - 1
      attack(c, pick.target)
    elseif pick.partner then
      local from = c.space
      spend(p, swap_cost)
      cards.swap(c, pick.partner)
      say(string.format("%s at %s trades places with the %s at %s for %d energy", c.name, from,
                        pick.partner.name, c.space, swap_cost))
    end
  end
  flip_face_down(c)
end

--- A player activates their face-up creatures of one kind, one at a time, each
--- finished and turned face down before the next, until they are done.
-- One choice of a player's actions step for one kind of creature: which creature to
-- activate, or done. Returns true if a creature was activated (the step goes on).
local function action_question(p, kind)
  local opts = {}
  for _, c in ipairs(creatures_of(p, kind)) do
    if not is_face_down(c) and has_something_to_do(c) then
      opts[#opts + 1] = { label = string.format("Activate the %s at %s", c.name, c.space), card = c }
    end
  end
  if #opts == 0 then return nil end
  opts[#opts + 1] = { label = "Done with " .. defs[kind].name .. " actions", done = true }
  return { player = p, prompt = "Activate which " .. defs[kind].name .. "?", options = opts }
end

local function action_answer(p, kind, pick)
  if pick.done then return false end
  activate(p, pick.card)
  return true
end

--- The actions phase's question (game.yaml `offer`).
function actions_offer()
  return next_in_kind_order("actions_step", action_question)
end

--- Carries out the actions phase's answer (the phase's `run`).
function actions_phase(round, pick)
  return answer_in_kind_order("actions_step", action_answer, pick)
end

-- Phase 3: energy and reset --------------------------------------------------------

--- The energy track's modifier for an energy total (0 where no band covers it).
function track_modifier(e)
  for _, band in ipairs(options.energy_track) do
    if e >= band.from and e <= band.to then return band.change end
  end
  return 0
end

--- Energy a player's creatures earn in territories that hold no other player's creature.
function uncontested_energy(p)
  local n = 0
  for _, c in ipairs(creatures_of(p)) do
    local per = def_of(c).uncontested_energy or 0
    if per > 0 then
      local contested = false
      for _, s in ipairs(locations_in(territory_of(c.space))) do
        local o = board.card_at(s)
        if o and o.controller ~= p then contested = true end
      end
      if not contested then n = n + per end
    end
  end
  return n
end

--- Territories whose every location holds one of a player's creatures.
function dominated(p)
  local out = {}
  for _, t in ipairs(territories()) do
    local all = true
    for _, s in ipairs(locations_in(t)) do
      local o = board.card_at(s)
      if not (o and o.controller == p) then all = false end
    end
    if all then out[#out + 1] = t end
  end
  return out
end

--- The next round's order: lowest energy first; of tied players, the one further
--- back in this round's order goes first.
function next_turn_order(order)
  local pos = {}
  for i, p in ipairs(order) do pos[p] = i end
  local out = {}
  for i, p in ipairs(order) do out[i] = p end
  table.sort(out, function(a, b)
    local ea, eb = energy(a), energy(b)
    if ea ~= eb then return ea < eb end
    return pos[a] > pos[b]
  end)
  return out
end

function energy_phase()
  local order = turn_order()
  state.vars.played_order = order
  for _, p in ipairs(order) do
    gain(p, track_modifier(energy(p)), "from the energy track")
  end
  for _, p in ipairs(order) do
    gain(p, uncontested_energy(p), "from Sprites in uncontested territories")
  end
  for _, p in ipairs(order) do
    for _, t in ipairs(dominated(p)) do
      local bonus = territory_bonus(t)
      local take = true
      if options.domination_optional then
        local pick = choose {
          player = p,
          prompt = string.format("You dominate %s: take its bonus of %d energy? (you have %d)", t, bonus, energy(p)),
          options = { { label = string.format("Take %d energy for dominating %s", bonus, t), take = true },
                      { label = "Decline the bonus for " .. t } },
        }
        take = pick.take == true
      end
      if take then gain(p, bonus, "for dominating " .. t) end
    end
  end
  for _, c in ipairs(cards.on_board(is_creature)) do flip_face_up(c) end
  local nxt = next_turn_order(order)
  set_turn_order(nxt)
  say("Turn order for the next round: " .. order_text(nxt))
end

-- The end of a round and of the game -----------------------------------------------------

--- After the last round the player with the most energy wins; of tied players, the
--- one later in the final round's turn order.
function end_of_round(round)
  if round < last_round() then
    say(string.format("The Journey Rune moves to round %d", round + 1))
    return
  end
  local order = state.vars.played_order or turn_order()
  local best, winner, tied = -1, nil, false
  for _, p in ipairs(order) do
    local e = energy(p)
    if e > best then best, winner, tied = e, p, false
    elseif e == best then winner, tied = p, true end
  end
  win(winner, string.format("Player %d wins with %d energy after the final round%s", winner, best,
                            tied and " (the tie goes to the player later in that round's turn order)" or ""))
end
