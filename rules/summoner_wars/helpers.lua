-- Summoner Wars: words of the rulebook as functions (card classes, sides, damage,
-- destruction, force) that the phases and the cards share.

-- Classes ------------------------------------------------------------------

function is_unit(c) return cards.has_tag(c, "unit") end
function is_structure(c) return cards.has_tag(c, "structure") end
function is_summoner(c) return cards.has_tag(c, "summoner") end
function is_common(c) return cards.has_tag(c, "common") end
function is_event(c) return cards.has_tag(c, "event") end
function is_gate(c) return cards.has_tag(c, "gate") end

function is_friendly(c, p) return c.controller == p end
function is_enemy(c, p) return c.controller ~= p end

function opponent(p) return players.next(p) end

function def_of(c) return cards.def(c) end

--- Units, structures or other cards a player controls on the battlefield.
function controlled(p, filter)
  local out = {}
  for _, c in ipairs(cards.on_board()) do
    if c.controller == p and (filter == nil or filter(c)) then out[#out + 1] = c end
  end
  return out
end

--- A player's summoner on the battlefield (nil once it has fallen).
function summoner_of(p)
  for _, c in ipairs(cards.on_board()) do
    if c.controller == p and is_summoner(c) then return c end
  end
  return nil
end

--- Damage a card can still take.
function life_left(c)
  return stat(c, "life") - tokens.get(c, "damage")
end

-- The battlefield as each player sees it ------------------------------------

--- Rows counted from a player's own edge: 1 is their back row.
function row_from_back(p, space)
  local _, y = board.xy(space)
  local _, h = board.size()
  if p == 1 then return y end
  return h + 1 - y
end

--- A space from a faction's layout coordinates (row 0 = back row, col 0 = left).
function layout_space(p, row, col)
  local w, h = board.size()
  if p == 1 then return board.space_at(col + 1, row + 1) end
  return board.space_at(w - col, h - row)
end

--- Cards in the spaces adjacent to a space.
function adjacent_cards(space, filter)
  local out = {}
  for _, s in ipairs(board.neighbors(space)) do
    local c = board.card_at(s)
    if c and (filter == nil or filter(c)) then out[#out + 1] = c end
  end
  return out
end

--- Cards within n spaces of a card (not the card itself).
function cards_within(card, n, filter)
  local out = {}
  for _, s in ipairs(board.within(card.space, n)) do
    local c = board.card_at(s)
    if c and (filter == nil or filter(c)) then out[#out + 1] = c end
  end
  return out
end

function where(c) return c.space or "off the battlefield" end

--- One card of each name among a list (cards off the battlefield are alike).
function one_of_each(list)
  local out, seen = {}, {}
  for _, c in ipairs(list) do
    if not seen[c.def] then
      seen[c.def] = true
      out[#out + 1] = c
    end
  end
  return out
end

-- Damage, destruction, discarding -------------------------------------------

--- Discards a card from play to its owner's discard pile: tokens go, cards under it go too.
function discard(c)
  for _, u in ipairs(cards.attached(c)) do discard(u) end
  if c.space then forget_turn_records(c) end
  tokens.clear(c)
  c.controller = c.owner
  cards.to_zone(c, c.owner, "discard")
end

--- A card discarded from the battlefield that comes back later is a new card (the
--- glossary's DISCARD): what it did this turn (moved, attacked, abilities used once a
--- turn) no longer marks it, though its move or attack still counts toward the
--- phase's limit of units.
function forget_turn_records(c)
  local v = state.vars
  for _, done in ipairs({ v.moved or {}, v.attacked or {} }) do
    if done[c.id] then
      done[c.id] = nil
      v.gone = (v.gone or 0) + 1
      done["gone " .. v.gone] = true   -- (a key no card has: counted, never matched)
    end
  end
  local used, suffix = v.used, ":" .. c.id
  if used then
    for k in pairs(used) do   -- (deletions only: the order does not matter)
      if string.sub(k, -#suffix) == suffix then used[k] = nil end
    end
  end
end

--- Who controls a card whose effect destroys another, for magic: a card on the
--- battlefield, in an active area or the event being played, or a card just
--- destroyed whose ability is resolving (its controller when it was destroyed).
--- nil when the card earns nobody anything.
local function source_controller(source)
  if source == nil then return nil end
  if source.space or state.vars.resolving == source.id
    or source.zone == "active:" .. source.controller then
    return source.controller
  end
  local dying = state.vars.dying
  return dying and dying[tostring(source.id)]
end

--- Destroys a card: discard it, pay magic for an enemy kill, tell the hooks, check
--- the winner. Until its on_destroyed event (with the effects it sets off) is over,
--- its abilities still earn its controller magic.
function destroy(c, source)
  if not c.space then return end
  local space, controller = c.space, c.controller
  say(string.format("%s at %s is destroyed", c.name, space))
  local gainer = source_controller(source)
  local reward = (gainer ~= nil and gainer ~= controller) and stat(source, "kill_magic") or 0
  discard(c)
  if reward > 0 then
    local before = magic(gainer)
    local got = counters.add(gainer, "magic", reward) - before
    if got > 0 then say(string.format("Player %d gains %d magic", gainer, got)) end
  end
  local key = tostring(c.id)
  state.vars.dying = state.vars.dying or {}
  state.vars.dying[key] = controller
  emit("on_destroyed", { card = c, space = space, controller = controller, source = source })
  if state.vars.dying then state.vars.dying[key] = nil end
  check_lethal()
  check_winner()
end

-- The source of the damage a card has just taken, while the after_damage hooks of that
-- damage run (deal_damage): a card, or nil (none, or damage from no card).
local function damage_pending(c)
  local id = state.vars.damaged and state.vars.damaged[tostring(c.id)]
  return id and cards.get(id) or nil
end

--- Destroys every card whose life has fallen to its damage other than by new
--- damage (a card that gave it life has gone, or it changed sides). Nobody earns
--- magic for these, except a card whose new damage is still being dealt (a hook of
--- that damage moved it, or what gave it life): its source earns the kill, as
--- deal_damage's own check after the hooks would have given it.
function check_lethal()
  for _, c in ipairs(cards.on_board()) do
    local dmg = tokens.get(c, "damage")
    if c.space and dmg > 0 and dmg >= stat(c, "life") then destroy(c, damage_pending(c)) end
  end
end

--- check_lethal after a card moved, was forced or exchanged places: only when a card in
--- play has a modifier of life (life given by where a card stands); else nothing can
--- have changed, and a move is the commonest step of a turn.
function check_lethal_after_move()
  if #cards.in_play_with("modifiers", "life") > 0 then check_lethal() end
end

--- Adds damage to a card on the battlefield and destroys it when its life reaches 0.
function deal_damage(target, amount, source)
  if amount <= 0 or not target.space then return end
  tokens.add(target, "damage", amount)
  say(string.format("%s at %s takes %d damage (now %d, life %d)", target.name, target.space, amount,
                    tokens.get(target, "damage"), stat(target, "life")))
  -- Until the after_damage hooks are over, whatever destroys it for its damage
  -- (check_lethal after a hook's move, force or exchange) destroys it by this source.
  local key = tostring(target.id)
  local pending = state.vars.damaged or {}
  local outer = pending[key]   -- (damage dealt to it by a hook of earlier damage: theirs again after)
  pending[key] = source and source.id or false
  state.vars.damaged = pending
  emit("after_damage", { card = target, amount = amount, source = source })
  pending = state.vars.damaged or {}
  pending[key] = outer
  state.vars.damaged = next(pending) ~= nil and pending or nil   -- (kept out of the state between damages)
  if target.space and tokens.get(target, "damage") >= stat(target, "life") then
    destroy(target, source)
  end
end

--- Removes up to n damage from a card; returns how much was removed.
function heal(c, n)
  local before = tokens.get(c, "damage")
  local removed = before - tokens.remove(c, "damage", n)
  if removed > 0 then say(string.format("%s at %s loses %d damage", c.name, c.space, removed)) end
  return removed
end

--- The game ends when only one player's summoner is left on the battlefield.
function check_winner()
  local alive = {}
  for _, p in ipairs(players.list()) do
    if summoner_of(p) then alive[#alive + 1] = p end
  end
  if #alive < 2 then state.vars.damaged = nil end   -- (the game ends here: no damage is still being dealt)
  if #alive == 1 then
    win(alive[1], string.format("Player %d wins: the other summoner has fallen", alive[1]))
  elseif #alive == 0 then
    end_game(nil, "both summoners have fallen")
  end
end

-- Magic ------------------------------------------------------------------------

function magic(p) return counters.get(p, "magic") end

function pay(p, cost)
  if cost > 0 then counters.spend(p, "magic", cost) end
end

-- Force: slide a card in one straight direction through empty spaces ------------

local DIRECTIONS = { { 0, 1, "up" }, { 1, 0, "right" }, { 0, -1, "down" }, { -1, 0, "left" } }

--- Spaces a card could be forced to, n spaces in a straight line: {space=, dir=}.
function force_targets(c, n)
  local out = {}
  for _, d in ipairs(DIRECTIONS) do
    local ray = board.ray(c.space, d[1], d[2], n)
    if #ray == n then
      local clear = true
      for _, s in ipairs(ray) do
        if not board.is_empty(s) then clear = false end
      end
      if clear then out[#out + 1] = { space = ray[n], dir = d[3] } end
    end
  end
  return out
end

--- Forces a card to a space found by force_targets. Forcing is not moving.
function force(c, to)
  local from = c.space
  cards.place(c, to)
  say(string.format("%s is forced from %s to %s", c.name, from, to))
  emit("after_force", { card = c, from = from, to = to })
  check_lethal_after_move()   -- (as after a move)
end

--- Offers a player to force one of some cards n spaces (or not); returns true if forced.
function offer_force(p, candidates, n, prompt)
  local opts = {}
  for _, c in ipairs(candidates) do
    for _, t in ipairs(force_targets(c, n)) do
      opts[#opts + 1] = { label = string.format("Force %s %s -> %s", c.name, c.space, t.space), card = c, to = t.space }
    end
  end
  if #opts == 0 then return false end
  opts[#opts + 1] = { label = "Do not force" }
  local pick = choose { player = p, prompt = prompt or "Force a card?", options = opts }
  if not pick.card then return false end
  force(pick.card, pick.to)
  return true
end
