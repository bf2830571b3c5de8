-- Summoner Wars: the six phases of a turn. Each phase loops: offer every legal
-- option, apply the one chosen, until the player ends the phase. The rules'
-- numbers are game options (game.yaml `options:`); prompts are built from them.

--- Distinct cards of a hand (one of each name) that pass a filter.
local function distinct_in_hand(p, filter)
  local hand = {}
  for _, c in ipairs(zones.cards(p, "hand")) do
    if filter(c) then hand[#hand + 1] = c end
  end
  return one_of_each(hand)
end

-- Events and activated abilities ------------------------------------------------

--- Options to play the events of this phase that the player can pay for.
local function event_options(p, phase, opts)
  local seen = {}
  for _, c in ipairs(zones.cards(p, "hand")) do
    local d = def_of(c)
    if d.phase == phase and not seen[c.def] and not is_structure(c) then
      seen[c.def] = true
      local cost = stat(c, "cost")
      if cost <= magic(p) and (d.abilities.can_play == nil or d.abilities.can_play(c, p)) then
        opts[#opts + 1] = { label = string.format("Play %s (cost %d)", c.name, cost), event = c }
      end
    end
  end
end

--- Pays for an event, resolves it, then discards it or keeps it active.
local function play_event(p, c)
  local d = def_of(c)
  pay(p, stat(c, "cost"))
  say(string.format("Player %d plays %s", p, c.name))
  if d.active then cards.to_zone(c, p, "active") end
  state.vars.resolving = c.id
  if d.abilities.play then d.abilities.play(c, p) end
  state.vars.resolving = nil
  if not d.active and c.zone == "hand:" .. p then discard(c) end
  emit("after_event", { card = c, player = p })
end

--- Options for activated abilities of the player's cards in play this phase.
local function action_options(p, phase, opts)
  for _, c in ipairs(cards.in_play_with("abilities", "action")) do
    local d = def_of(c)
    if c.controller == p and c.space and d.action_phase == phase
      and (d.abilities.can_act == nil or d.abilities.can_act(c, p)) then
      opts[#opts + 1] = { label = string.format("Use %s at %s: %s", c.name, c.space, d.action_label or "ability"), actor = c }
    end
  end
end

--- Applies the common kinds of option; returns true if it was one of them.
local function apply_common(p, pick)
  if pick.event then
    play_event(p, pick.event)
    return true
  end
  if pick.actor then
    def_of(pick.actor).abilities.action(pick.actor, p)
    return true
  end
  return false
end

--- The question of one step of a phase: fill(opts) adds the phase's own options, then
--- come this phase's events and abilities and ending the phase; the prompt is text, or
--- a function giving it anew each time (to say what is left: 1 of 3 moved). Each
--- phase's `offer` function (game.yaml) returns it; the engine asks it and calls the
--- phase's `run` function with the option picked, again and again (`repeat: true`)
--- while that returns true. A fork of the match taken at the question starts there.
local function step_offer(p, phase, prompt, fill)
  local opts = {}
  fill(opts)
  event_options(p, phase, opts)
  action_options(p, phase, opts)
  opts[#opts + 1] = { label = "End " .. phase .. " phase", done = true }
  local asked = type(prompt) == "function" and prompt() or prompt   -- a function says what is left
  -- asked even when ending the phase is all there is (confirm): the options come partly
  -- from the hand and the discard pile, so a question asked only sometimes would tell
  -- the others what they hold
  return { player = p, prompt = asked, options = opts, confirm = true }
end

--- Carries out the option picked at a step (apply(pick) for the phase's own kinds);
--- false once the player ends the phase, else true.
local function step_apply(p, pick, apply)
  if pick.done then return false end
  if not apply_common(p, pick) then apply(pick) end
  return true
end

-- A step's second question (where to summon, build or move the card picked, which
-- card the attacker picked attacks) is asked by the engine too: the pick is kept in
-- state.vars.next for the phase's next call (a unit on the battlefield by its id; a
-- card in hand by its definition, which the answer's label made public anyway, and not
-- by its id, which the other players' views do not show: the first card of that name in
-- the hand, the one offered), whose
-- offer asks the second question and whose run carries the two out. So a fork of the
-- match at the second question starts there as well (no answer replayed).

--- The card of player p's step under way, if a second question is due.
local function next_step(p)
  refresh_bases()   -- (abilities.lua: which base strength took effect last)
  local nx = state.vars.next
  if type(nx) ~= "string" then return nx and cards.get(nx) end
  for _, c in ipairs(zones.cards(p, "hand")) do
    if c.def == nx then return c end
  end
  error("the card picked to summon or build (" .. nx .. ") is no longer in player " .. p .. "'s hand")
end

--- The card the second question now answered was about (next_step), no longer kept.
local function take_next(p)
  local c = next_step(p)
  state.vars.next = nil
  return c
end

--- Keeps the card picked for the second question, which the next offer asks.
local function ask_next(c)
  if c.space then
    state.vars.next = c.id
  else
    state.vars.next = c.def
  end
end

-- Phase 1: summon ----------------------------------------------------------------

--- Whether any space next to a gate the player controls is empty (summon_spaces
--- without making the list).
local function can_summon_by_gate(p)
  for _, gate in ipairs(controlled(p, is_gate)) do
    for _, s in ipairs(board.neighbors(gate.space)) do
      if board.is_empty(s) then return true end
    end
  end
  return false
end

--- Empty spaces next to a gate the player controls.
function summon_spaces(p)
  local out, seen = {}, {}
  for _, gate in ipairs(controlled(p, is_gate)) do
    for _, s in ipairs(board.neighbors(gate.space)) do
      if not seen[s] and board.is_empty(s) then
        seen[s] = true
        out[#out + 1] = s
      end
    end
  end
  table.sort(out)
  return out
end

function summon(p, c, space)
  pay(p, stat(c, "cost"))
  cards.place(c, space)
  c.controller = p
  say(string.format("Player %d summons %s at %s", p, c.name, space))
  emit("after_summon", { card = c, space = space })
end

--- The summon step's question (game.yaml `offer`): which unit to summon, or, once one is
--- picked, where. A unit with its own way of being summoned says when it can be
--- (can_summon) and does it (summon: choose, pay and place, usually through summon() above).
function summon_offer(p)
  local c = next_step(p)
  if c then
    return { player = p, prompt = "Summon " .. c.name .. " where?", options = summon_spaces(p) }
  end
  return step_offer(p, "summon", "Summon units next to your gates", function(opts)
    local by_gate = can_summon_by_gate(p)
    for _, c in ipairs(distinct_in_hand(p, function(c)
      return is_unit(c) and (is_common(c) or cards.has_tag(c, "champion")) and stat(c, "cost") <= magic(p)
    end)) do
      local own = def_of(c).abilities.can_summon
      if (own == nil and by_gate) or (own ~= nil and own(c, p)) then
        opts[#opts + 1] = { label = string.format("Summon %s (cost %d)", c.name, stat(c, "cost")), card = c }
      end
    end
  end)
end

--- Carries out the summon step's answer (the phase's `run`); false once the phase ends.
function summon_phase(p, pick)
  local c = take_next(p)
  if c then
    summon(p, c, pick.label)
    return true
  end
  return step_apply(p, pick, function(pick)
    local own = def_of(pick.card).abilities.summon
    if own then
      own(pick.card, p)
      return
    end
    ask_next(pick.card)
  end)
end

-- Phase 2: move ------------------------------------------------------------------

--- Whether a unit may pass through the card on a space while moving.
local function can_pass_card(mover, other)
  return def_of(mover).moves_through == "common" and is_common(other)
end

--- Where a unit can move: a list of {label=, path=, through=}, one per
--- destination (and, for a unit that may move through cards, one per set of
--- cards moved through).
function move_destinations(u)
  local out = {}
  local steps = stat(u, "move")
  if steps <= 0 then return out end
  local origin = u.space
  if def_of(u).moves_through == nil then
    for _, r in ipairs(board.reach(origin, steps)) do
      local label = r.space
      if r.space == origin then label = r.path[1] .. " and back to " .. origin end
      out[#out + 1] = { label = label, path = r.path, through = {} }
    end
    return out
  end
  local function can_pass(s)
    if board.is_empty(s) then return true end
    return can_pass_card(u, board.card_at(s))
  end
  -- one route per destination and set of cards moved through: stepping out and
  -- back is offered without going through a card whenever it can be, and through
  -- each card it can be done through as well
  local seen = {}
  for _, path in ipairs(board.paths(origin, steps, can_pass, board.is_empty)) do
    local dest = path[#path]
    local through = {}
    for i = 1, #path - 1 do
      if path[i] ~= origin and not board.is_empty(path[i]) then through[#through + 1] = path[i] end
    end
    local key = dest .. "|" .. table.concat(through, ",")
    if not seen[key] then
      seen[key] = true
      local label = dest
      if dest == origin then label = path[1] .. " and back to " .. origin end
      if #through > 0 then label = label .. " through " .. table.concat(through, ", ") end
      out[#out + 1] = { label = label, path = path, through = through }
    end
  end
  return out
end

--- Whether a unit has anywhere to move (cheaper than listing the places).
local function can_move(u)
  if stat(u, "move") <= 0 then return false end
  if def_of(u).moves_through ~= nil then return #move_destinations(u) > 0 end
  for _, s in ipairs(board.neighbors(u.space)) do
    if board.is_empty(s) then return true end
  end
  return false
end

function move_unit(p, u, path, through)
  local from = u.space
  local dest = path[#path]
  if dest ~= from then cards.place(u, dest) end
  say(string.format("%s moves %s -> %s", u.name, from, table.concat(path, " -> ")))
  emit("after_move", { card = u, from = from, to = dest, path = path, through = through })
  check_lethal_after_move()   -- life a card has by where it stands (next to another, say) may be gone
end

--- The move step's question: which unit moves, or, once one is picked, where to.
function move_offer(p)
  local u = next_step(p)
  if u then
    local steps = stat(u, "move")
    return { player = p, prompt = string.format("Move %s from %s to? (up to %d space%s)", u.name, u.space,
                                                steps, steps == 1 and "" or "s"),
             options = move_destinations(u) }
  end
  local movers = options.movers
  local function moves_left()
    local moved = 0
    for _ in pairs(state.vars.moved) do moved = moved + 1 end
    return string.format("Move up to %d unit%s (%d of %d moved)", movers, movers == 1 and "" or "s", moved, movers)
  end
  return step_offer(p, "move", moves_left, function(opts)
    local moved = 0
    for _ in pairs(state.vars.moved) do moved = moved + 1 end
    if moved >= movers then return end
    for _, u in ipairs(controlled(p, is_unit)) do
      if not state.vars.moved[u.id] and can_move(u) then
        opts[#opts + 1] = { label = string.format("Move %s at %s", u.name, u.space), unit = u }
      end
    end
  end)
end

--- Carries out the move step's answer; false once the phase ends.
function move_phase(p, pick)
  local u = take_next(p)
  if u then
    state.vars.moved[u.id] = true
    move_unit(p, u, pick.path, pick.through)
    return true
  end
  return step_apply(p, pick, function(pick) ask_next(pick.unit) end)
end

-- Phase 3: build -----------------------------------------------------------------

local back_rows = {}

--- Empty spaces where a player may build: next to their summoner or in their back rows.
function build_spaces(p)
  if not back_rows[p] then
    back_rows[p] = {}
    for _, sp in ipairs(board.spaces()) do
      if row_from_back(p, sp) <= options.build_rows then table.insert(back_rows[p], sp) end
    end
  end
  local out, seen = {}, {}
  for _, sp in ipairs(back_rows[p]) do
    if board.is_empty(sp) then
      seen[sp] = true
      out[#out + 1] = sp
    end
  end
  local s = summoner_of(p)
  if s then
    for _, sp in ipairs(board.neighbors(s.space)) do
      if not seen[sp] and board.is_empty(sp) then
        seen[sp] = true
        out[#out + 1] = sp
      end
    end
  end
  return out
end

function build(p, c, space)
  pay(p, stat(c, "cost"))
  cards.place(c, space)
  c.controller = p
  say(string.format("Player %d builds %s at %s", p, c.name, space))
  emit("after_build", { card = c, space = space })
end

--- The build step's question: which structure to build, or, once one is picked, where.
function build_offer(p)
  local c = next_step(p)
  if c then
    return { player = p, prompt = "Build " .. c.name .. " where?", options = build_spaces(p) }
  end
  return step_offer(p, "build", "Build structures", function(opts)
    if #build_spaces(p) == 0 then return end
    for _, c in ipairs(distinct_in_hand(p, function(c)
      return is_structure(c) and stat(c, "cost") <= magic(p)   -- a unit that is also a structure too
    end)) do
      opts[#opts + 1] = { label = string.format("Build %s (cost %d)", c.name, stat(c, "cost")), card = c }
    end
  end)
end

--- Carries out the build step's answer; false once the phase ends.
function build_phase(p, pick)
  local c = take_next(p)
  if c then
    build(p, c, pick.label)
    return true
  end
  return step_apply(p, pick, function(pick) ask_next(pick.card) end)
end

-- Phase 4: attack ----------------------------------------------------------------

--- Cards a unit can target: adjacent for melee; for ranged, the first card in each
--- straight line within its card's `reach` spaces, else options.ranged_reach.
function attack_targets(u)
  local out = {}
  local d = def_of(u)
  if d.attack == "ranged" then
    local p = u.controller
    local passable = function(c) return def_of(c).attack_through == true and c.controller == p end
    for _, t in ipairs(board.line_of_sight(u.space, d.reach or options.ranged_reach, passable)) do
      if t.card ~= u then out[#out + 1] = t.card end
    end
  else
    for _, c in ipairs(adjacent_cards(u.space)) do
      if c ~= u then out[#out + 1] = c end
    end
  end
  return out
end

--- What a unit of player p could attack: nil for nothing, "enemy" when some target is
--- not p's, "own" when every one is p's own (a melee unit's neighbours are read
--- without making the list).
local function attack_reach(u, p)
  local own = false
  if def_of(u).attack == "ranged" then
    for _, t in ipairs(attack_targets(u)) do
      if t.controller ~= p then return "enemy" end
      own = true
    end
  else
    for _, s in ipairs(board.neighbors(u.space)) do
      local c = board.card_at(s)
      if c and c ~= u then
        if c.controller ~= p then return "enemy" end
        own = true
      end
    end
  end
  return own and "own" or nil
end

--- One attack: roll dice equal to strength, one damage per symbol that matches.
function attack(u, target)
  local p = u.controller
  local enemy = is_enemy(target, p)   -- (as attacked: a taken card goes back to its owner when destroyed)
  if enemy then state.vars.targeted_enemy = true end
  if not (u.space and target.space) then return end
  local symbol = def_of(u).attack
  local faces = dice.roll("battle", math.max(0, stat(u, "strength")))
  local ev = emit("attack_rolled", { attacker = u, target = target, faces = faces,
                                     hits = dice.count(faces, symbol) })
  say(string.format("%s at %s attacks %s at %s: rolls %s -> %d hit%s", u.name, u.space, target.name,
                    target.space, #faces > 0 and dice.labels(faces) or "nothing", ev.hits, ev.hits == 1 and "" or "s"))
  deal_damage(target, ev.hits, u)
  emit("after_attack", { attacker = u, target = target, hits = ev.hits, destroyed = target.space == nil,
                         enemy = enemy })
end

--- The attack step's question: which unit attacks, or, once one is picked, which card.
function attack_offer(p)
  local u = next_step(p)
  if u then
    local opts = {}
    for _, t in ipairs(attack_targets(u)) do
      opts[#opts + 1] = { label = string.format("%s at %s", t.name, t.space), target = t,
                          warn = t.controller == p and string.format("%s would attack your own %s", u.name, t.name)
                                 or nil }
    end
    return { player = p, prompt = string.format("%s at %s attacks which card?", u.name, u.space), options = opts }
  end
  local attackers = options.attackers
  local function attacks_left()
    local used = 0
    for _ in pairs(state.vars.attacked) do used = used + 1 end
    return string.format("Attack with up to %d unit%s (%d of %d attacked)", attackers, attackers == 1 and "" or "s",
                         used, attackers)
  end
  return step_offer(p, "attack", attacks_left, function(opts)
    local used = 0
    for _ in pairs(state.vars.attacked) do used = used + 1 end
    if used >= attackers then return end
    for _, u in ipairs(controlled(p, is_unit)) do
      local reach = not state.vars.attacked[u.id] and def_of(u).attack and attack_reach(u, p)
      if reach then
        -- every target its own: the person answering is asked to confirm, and can still
        -- pick another unit (its one target would be taken without asking)
        opts[#opts + 1] = { label = string.format("Attack with %s at %s", u.name, u.space), unit = u,
                            warn = reach == "own" and "only your own cards in reach" or nil }
      end
    end
  end)
end

--- Carries out the attack step's answer; once the player ends the phase, a player who
--- attacked no enemy this turn pays the cost of inaction (options.inaction_damage).
function attack_phase(p, pick)
  local u = take_next(p)
  if u then
    state.vars.attacked[u.id] = true
    attack(u, pick.target)
    return true
  end
  if step_apply(p, pick, function(pick)
    local u = pick.unit
    ask_next(u)
    -- An attack begins with declaring its target, so what comes "before it attacks"
    -- (Dragos) comes before the target is chosen, and may change what it can attack.
    emit("before_attack", { attacker = u })
    if not u.space or #attack_targets(u) == 0 then
      state.vars.next = nil
      state.vars.attacked[u.id] = true
      say(string.format("%s has nothing left to attack", u.name))
    end
  end) then
    return true
  end
  -- the cost of inaction, once the player ends the phase
  local dmg = options.inaction_damage
  if not state.vars.targeted_enemy and dmg > 0 then
    local s = summoner_of(p)
    if s then
      say(string.format("Player %d attacked no enemy this turn: their summoner takes %d damage", p, dmg))
      deal_damage(s, dmg, nil)
    end
  end
end

-- Phase 5: magic -----------------------------------------------------------------

--- The magic step's question: which card to discard for magic.
function magic_offer(p)
  refresh_bases()
  local gain = options.magic_per_discard
  local req = step_offer(p, "magic", string.format("Discard cards for %d magic each", gain), function(opts)
    for _, c in ipairs(distinct_in_hand(p, function() return true end)) do
      opts[#opts + 1] = { label = string.format("Discard %s for magic", c.name), card = c }
    end
  end)
  req.secret = true   -- a card goes face down on the discard pile, whose cards only its owner sees
  return req
end

--- Carries out the magic step's answer; false once the phase ends.
function magic_phase(p, pick)
  local gain = options.magic_per_discard
  return step_apply(p, pick, function(pick)
    cards.to_zone(pick.card, pick.card.owner, "discard")
    local before = magic(p)
    local got = counters.add(p, "magic", gain) - before
    say(string.format("Player %d discards a card for magic (%d gained, now %d)", p, got, magic(p)))
  end)
end

-- Phase 6: draw ------------------------------------------------------------------

function draw_phase(p)
  local missing = options.hand_size - zones.count(p, "hand")
  if missing > 0 then
    local drawn = zones.draw(p, "draw", "hand", missing)
    say(string.format("Player %d draws %d card%s", p, #drawn, #drawn == 1 and "" or "s"))
  end
end
